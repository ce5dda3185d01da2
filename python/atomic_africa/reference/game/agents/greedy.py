"""GreedyAgent: scores each decision by exact odds (:mod:`atomic_africa.odds`).

The value of a decision is that of the fire it leads to (``wound_value`` per expected wound plus
``marker_value`` per expected new suppression marker, after the per-turn cap), Rally success
probabilities, and the chance that a Call for Fire lands within blast radius of its target. It picks
fire targets, actions and (with a Joker) postures by that value, and destinations by the value of
firing from their In-transit point plus cover.

Every expectation is taken on exact odds (``exact=True``) and rounded once, so the value of a
decision is one well-defined float: ``marker_value * E[min(markers, cap left)] + wound_value *
E[wounds]`` with each expectation the correctly rounded exact fraction. The native twin
(``src/aa_core/csrc/aa_agent_greedy.c``) computes the same numbers from integer counts and plays the same
actions.
"""
from __future__ import annotations

import math

from .... import odds
from ....enums import Action, Cover, Die, Posture
from ....fire import resolve_fire
from ....game.los import cover_at
from ....game.state import Stage
from .scoring import ScoringAgent, _shared_params, distance, may_hold_back

__all__ = ["GreedyAgent"]

_FIRE_ACTIONS = (Action.BASIC, Action.SPRINT, Action.DIG_IN, Action.MASS_FIRE, Action.HEAVY_WEAPON)


def _expectations(dist, cap_left):
    """(E[min(markers, cap_left)], E[wounds]) of an exact ``{(markers, wounds): Fraction}``
    distribution, each the correctly rounded float of the exact value."""
    den = math.lcm(*(p.denominator for p in dist.values()))
    m = w = 0
    for (mk, wk), p in dist.items():
        c = p.numerator * (den // p.denominator)
        m += c * min(mk, cap_left)
        w += c * wk
    return m / den, w / den   # int / int: correctly rounded


class GreedyAgent(ScoringAgent):
    """One-step greedy on exact odds (see the module notes). Deterministic: ties go to the lowest id.

    Parameters
    ----------
    seed : int
        Unused (the agent is deterministic); accepted so every agent is built the same way.
    wound_value, marker_value : float
        Value of one expected wound and of one expected new suppression marker on an enemy.
    rally_value : float
        Value of one suppression marker removed from a friendly unit.
    cover_value : float
        Value per cover level (No 0, Light 1, Heavy 2) of a Destination.
    reserve_value : float
        Value of keeping a card in the Reserve at Orders (RULES.md section 2, END ORDERS, legal only
        with ``orders.reserve_by_choice``): when one unit is left without orders, another unit of the
        side has orders and no card is worth more to it, the agent ends its orders, and that unit
        reacts from the Reserve with the best card if it is forced to. It never holds back every
        card.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, wound_value: float = 3.0, marker_value: float = 1.0,
                 rally_value: float = 1.5, cover_value: float = 0.4, reserve_value: float = 3.0):
        self.seed = seed
        self.wound_value, self.marker_value = float(wound_value), float(marker_value)
        self.rally_value, self.cover_value = float(rally_value), float(cover_value)
        self.reserve_value = float(reserve_value)

    # -- values ---------------------------------------------------------------------------------
    def _dist_value(self, dist, cap_left) -> float:
        em, ew = _expectations(dist, cap_left)
        return self.marker_value * em + self.wound_value * ew

    @_shared_params
    def fire_value(self, view, u, t, action, posture, origin=None) -> float:
        """Expected value of u's ``action`` in ``posture`` at enemy t, shooting from ``origin``
        (default: where u stands) at t where it stands.

        Parameters
        ----------
        {view}
        {u}
        t : Unit
            The enemy target.
        action : Action or int
            An attacking action.
        posture : Posture or int
        origin : (float, float), optional
            Shooter position in cm.

        Returns
        -------
        float
            Weighted expected wounds and new markers; ``-inf`` for a Heavy Weapon without AP
            against t's target type.
        """
        origin = (u.x, u.y) if origin is None else origin
        ap = 0
        if action == Action.HEAVY_WEAPON:
            ap = view.hw_ap(u, t)
            if ap is None:
                return -math.inf
        tp, ta = view.defense_roll(t)
        dist = odds.fire_outcomes(
            view.dice(u), view.dice(t), shooter_posture=Posture(posture), target_posture=tp,
            range_band=view.band(origin, (t.x, t.y)), armor=t.armor, shooter_action=Action(action),
            target_action=ta, cover=Cover(view.cover(t.x, t.y)), ap=ap, vehicle=view.vehicle(t),
            exact=True, rules=view.rules)
        return self._dist_value(dist, view.cap_left(t))

    @_shared_params
    def feature_value(self, view, u, f, posture) -> float:
        """Expected value of u's heavy weapon at terrain feature f in ``posture`` (exact odds).

        Parameters
        ----------
        {view}
        u : Unit
            The acting unit (with a point-target heavy weapon).
        f : int
            Terrain feature index (scenario order).
        posture : Posture or int

        Returns
        -------
        float
            Expected cover levels knocked off the feature x ``cover_value`` (RULES.md section 4:
            Defense ``fire.feature_defense`` against its armor, AP applies, each wound one level).
        """
        feat, fr = view.g.scenario.terrain[f], view.rules.fire
        band = view.band((u.x, u.y), feat.aim_point)
        cover = view.s.feature_cover[f]
        pmf = odds.scores_pmf(view.dice(u), Posture(posture), Action.HEAVY_WEAPON, exact=True,
                              rules=view.rules)
        levels = 0
        for attacks, p in pmf.attacks.items():
            w = resolve_fire(attacks[0], band, fr.feature_defense, feat.armor, Cover.NONE, u.hw_point_ap,
                             False, view.rules).wounds
            levels += p * min(cover, w * fr.feature_cover_per_wound)
        return float(levels) * self.cover_value

    def _fire_target(self, view, u, t, origin):
        tp, ta = view.defense_roll(t)
        return odds.FireTarget(view.dice(t), tp, view.band(origin, (t.x, t.y)), t.armor, ta,
                               Cover(view.cover(t.x, t.y)), 0, view.vehicle(t))

    @_shared_params
    def split_value(self, view, u, t1, t2, posture) -> float:
        """Split Fire: t1 (declared) faces the higher Attack, t2 the lower.

        Parameters
        ----------
        {view}
        {u}
        t1, t2 : Unit
            The declared and the other target.
        posture : Posture or int

        Returns
        -------
        float
            Summed value of both targets' outcomes.
        """
        origin = (u.x, u.y)
        out = odds.split_fire_outcomes(view.dice(u), self._fire_target(view, u, t1, origin),
                                       self._fire_target(view, u, t2, origin),
                                       shooter_posture=Posture(posture), exact=True, rules=view.rules)
        return (self._dist_value(out.declared, view.cap_left(t1))
                + self._dist_value(out.other, view.cap_left(t2)))

    @_shared_params
    def rally_value_of(self, view, u, t, posture) -> float:
        """Expected value of u rallying friend t (itself when ``t`` is ``u``) in ``posture``.

        Parameters
        ----------
        {view}
        {u}
        t : Unit
            The rallied unit.
        posture : Posture or int

        Returns
        -------
        float
            P(success) x markers removed x ``rally_value``.
        """
        rr = view.rules.rally
        if t.uid == u.uid:
            p = odds.rally_probability(view.dice(u), Posture(posture), None, t.markers,
                                       self_rally=True, rules=view.rules)
        else:
            p = odds.rally_probability(view.dice(u), Posture(posture), view.band((u.x, u.y), (t.x, t.y)),
                                       t.markers, los=view.los(u, t), comms=bool(u.comms),
                                       rules=view.rules)
        return p * min(rr.markers_removed, t.markers) * self.rally_value

    @_shared_params
    def cff_value(self, view, u, t, asset_index, posture) -> float:
        """Call for Fire at t: P(impact within blast radius of t) x value of the support's attack.

        Parameters
        ----------
        {view}
        {u}
        t : Unit
            The enemy aimed at.
        asset_index : int
            Index of the side's fire-support asset.
        posture : Posture or int

        Returns
        -------
        float
        """
        asset = view.g.assets[u.side][asset_index]
        cff = view.rules.call_for_fire
        sc = odds.call_for_fire_odds(view.dice(u), Posture(posture), exact=True, rules=view.rules)
        p_in = float(sum(p for r, p in sc.distance.items() if r <= asset.blast_radius_cm))
        if len(asset.dice) != 3:  # pragma: no cover - scenarios give support assets three dice
            return p_in * self.marker_value
        tp, ta = view.defense_roll(t)
        dist = odds.fire_outcomes(
            tuple(Die(d) for d in asset.dice), view.dice(t),
            shooter_posture=Posture[cff.support_posture.upper()], target_posture=tp,
            range_band=cff.support_range_band, armor=t.armor,
            shooter_action=Action[cff.support_action.upper()], target_action=ta,
            cover=Cover(view.cover(t.x, t.y)), ap=asset.ap, vehicle=view.vehicle(t), exact=True,
            rules=view.rules)
        return p_in * self._dist_value(dist, view.cap_left(t))

    @_shared_params
    def action_value(self, view, u, action, posture) -> float:
        """Best value of declaring (action, posture) with u over its possible targets.

        Parameters
        ----------
        {view}
        {u}
        action : Action or int
        posture : Posture or int

        Returns
        -------
        float
            0.0 when there is no possible target (memoised in ``view``).
        """
        action, key = Action(action), ("action", u.uid, int(action), int(posture))
        if key not in view.memo:
            view.memo[key] = self._action_value(view, u, action, posture)
        return view.memo[key]

    def _action_value(self, view, u, action, posture) -> float:
        if action == Action.RALLY:
            friends = [t for t in view.alive(u.side) if t.markers > 0]
            return max((self.rally_value_of(view, u, t, posture) for t in friends), default=0.0)
        if action == Action.CALL_FOR_FIRE:
            ts = [t for t in view.alive(1 - u.side) if view.los(u, t)]
            n = len(view.g.assets[u.side])
            return max((self.cff_value(view, u, t, k, posture) for t in ts for k in range(n)),
                       default=0.0)
        ts = view.visible_enemies(u)
        if action == Action.SPLIT_FIRE:
            return max((self.split_value(view, u, a, b, posture) for a in ts for b in ts if a is not b),
                       default=0.0)
        best = max((self.fire_value(view, u, t, action, posture) for t in ts), default=0.0)
        if action == Action.HEAVY_WEAPON:
            best = max([best] + [self.feature_value(view, u, f, posture) for f in view.g.feature_targets(u.uid)])
        return best

    @_shared_params
    def card_value(self, view, u, card) -> float:
        """Value of giving ``card`` to u: its best Basic fire in the card's posture, more for cards
        that open special actions (face cards, Jokers) and for longer moves.

        Parameters
        ----------
        {view}
        {u}
        card : int
            Order card id.

        Returns
        -------
        float
        """
        deck = view.g.deck
        if deck.is_joker(card):
            postures = [Posture.DEFENSIVE] if u.markers > 0 else [Posture.OFFENSIVE, Posture.DEFENSIVE]
            base = max(self.action_value(view, u, Action.BASIC, p) for p in postures)
            return base + 1.0
        base = self.action_value(view, u, Action.BASIC, deck.posture(card))
        bonus = 0.75 if deck.is_face(card) else 0.05 * deck.move_value(card)
        return base + bonus

    # -- decisions ------------------------------------------------------------------------------
    def _scores(self, game, view, legal) -> dict:
        s, sp, st = game.s, game.space, game.s.stage
        me = s.current_player
        out = {}
        if st in (Stage.ORDERS, Stage.RESERVE_PICK):
            for a in legal:
                seg = sp.decode(a)
                if seg[0] == "ASSIGN":
                    out[a] = self.card_value(view, s.units[me * game.C + seg[2]], seg[1])
                else:   # END ORDERS: the cards left are worth this much in the Reserve
                    out[a] = self.reserve_value if may_hold_back(game, me) else -math.inf
            return out
        if st in (Stage.ACTIVATE, Stage.REACT):
            for a in legal:
                u = s.units[me * game.C + sp.decode(a)[1]]
                out[a] = self.card_value(view, u, u.card)
            return out
        u = s.units[s.decl_uid] if s.decl_uid >= 0 else None
        if st == Stage.DECLARE_ACTION:
            for a in legal:
                _, action, posture = sp.decode(a)
                out[a] = self.action_value(view, u, action, posture)
            return out
        if st == Stage.DECLARE_ASSET:
            ts = [t for t in view.alive(1 - u.side) if view.los(u, t)]
            for a in legal:
                k = sp.decode(a)[1]
                out[a] = max((self.cff_value(view, u, t, k, u.posture) for t in ts), default=0.0)
            return out
        if st in (Stage.DECLARE_TARGET, Stage.DECLARE_TARGET2):
            for a in legal:
                seg = sp.decode(a)
                if seg[0] == "NO_TARGET":
                    out[a] = -math.inf
                elif seg[0] == "FEATURE":
                    out[a] = self.feature_value(view, u, seg[1], u.posture)
                else:
                    out[a] = self._target_value(view, u, s.units[seg[1]], st == Stage.DECLARE_TARGET2)
            return out
        if st in (Stage.MOVE, Stage.SPRINT_MOVE):
            return self._move_values(game, view, u, legal)
        if st == Stage.SPLIT:
            # More units draw more order cards (one per unit) and so act more often.
            return {a: (0.0 if sp.decode(a)[0] == "END_SPLITS" else 1.0) for a in legal}
        return {a: 0.0 for a in legal}

    def _target_value(self, view, u, t, second: bool) -> float:
        action = Action(u.action)
        if action == Action.RALLY:
            return self.rally_value_of(view, u, t, u.posture)
        if action == Action.CALL_FOR_FIRE:
            return self.cff_value(view, u, t, max(u.asset, 0), u.posture)
        if action == Action.SPLIT_FIRE:
            if second:
                return self.split_value(view, u, view.s.units[u.target], t, u.posture)
            others = [o for o in view.visible_enemies(u) if o is not t]
            return max((self.split_value(view, u, t, o, u.posture) for o in others), default=0.0)
        return self.fire_value(view, u, t, action, u.posture)

    def _move_values(self, game, view, u, legal) -> dict:
        dests = [game.preview_destination(a) for a in legal]
        cov = cover_at([d[0] for d in dests], [d[1] for d in dests], game.terrain).tolist()
        sprint = view.s.stage == Stage.SPRINT_MOVE
        target = view.s.units[u.target] if (0 <= u.target < len(view.s.units) and not sprint
                                            and Action(u.action) in _FIRE_ACTIONS) else None
        enemies = view.alive(1 - u.side)
        out = {}
        for a, d, c in zip(legal, dests, cov):
            v = self.cover_value * c
            if target is not None and target.alive:
                mid = ((u.x + d[0]) / 2, (u.y + d[1]) / 2)  # range is measured In-transit to target
                v += self.fire_value(view, u, target, u.action, u.posture, origin=mid)
            else:
                # No fire this phase: close to the best firing range without entering the first band.
                near = min((distance(t.x - d[0], t.y - d[1]) for t in enemies), default=0.0)
                edge = view.rules.fire.band_edges_cm[0]
                v -= 0.01 * max(0.0, near - 2 * edge) + 0.02 * max(0.0, edge - near)
            out[a] = v
        return out
