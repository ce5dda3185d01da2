"""Built-in agents for self-play: random (masked), greedy on exact odds, scripted doctrine.

Every agent has ``act(game) -> int`` returning one of ``game.legal_actions()``, and is built from a
seed (``make_agent(name, seed)``), so a game between agents is a function of the game seed and the
agent seeds only. :class:`RandomAgent` is the masked uniform agent of :mod:`atomic_africa.game.agents`;
the game package's simple one-step heuristic is available here as ``"heuristic"``.

- :class:`GreedyAgent` scores each decision by exact odds (:mod:`atomic_africa.odds`): the expected
  value of the fire it leads to (``wound_value`` per expected wound plus ``marker_value`` per expected
  new suppression marker, after the per-turn cap), Rally success probabilities, and the chance that a
  Call for Fire lands within blast radius of its target. It picks fire targets, actions and (with a
  Joker) postures by that value, and destinations by the value of firing from their In-transit point
  plus cover.
- :class:`DoctrineAgent` plays fire and movement: each turn half of its units (alternating) are the
  base of fire (fire specials, stay put, shoot the nearest enemy), the other half manoeuvre (long
  offensive cards, advance from cover to cover towards the enemy); suppressed units rally first.
"""
from __future__ import annotations

import math

from .. import odds
from ..dice import wounded_dice
from ..enums import Action, Cover, Die, Posture, UnitKind
from ..fire import range_band, resolve_fire
from ..game.agents import HeuristicAgent
from ..game.agents import RandomAgent, play
from ..game.los import cover_at, los_blocked
from ..game.state import Stage

__all__ = ["RandomAgent", "GreedyAgent", "DoctrineAgent", "HeuristicAgent", "AGENTS", "make_agent",
           "play"]

_FIRE_ACTIONS = (Action.BASIC, Action.SPRINT, Action.DIG_IN, Action.MASS_FIRE, Action.HEAVY_WEAPON)


# -- facts about the position, from the public game state ---------------------------------------
class _View:
    """Per-decision helper: dice after wounds, LOS, cover and range from the public game state."""

    def __init__(self, game):
        self.g, self.s, self.rules = game, game.s, game.rules
        self.me = game.s.current_player
        self._dice = {}
        self._los = {}
        self._cover = {}
        self.memo = {}   # per-decision values, keyed by the agent

    def alive(self, side):
        return [u for u in self.s.units[side * self.g.C:(side + 1) * self.g.C] if u.alive]

    def vehicle(self, u) -> bool:
        return u.kind == UnitKind.VEHICLE

    def dice(self, u):
        key = (tuple(u.dice), u.wounds, u.kind)
        d = self._dice.get(key)
        if d is None:
            d = self._dice[key] = wounded_dice(u.dice, u.wounds, self.vehicle(u), self.rules)[0]
        return d

    def los(self, a, b) -> bool:
        key = (a.uid, b.uid)
        if key not in self._los:
            self._los[key] = not bool(los_blocked([a.x], [a.y], [b.x], [b.y], self.g.terrain)[0])
        return self._los[key]

    def visible_enemies(self, u):
        need = self.rules.orders.fire_needs_los
        return [t for t in self.alive(1 - u.side) if not need or self.los(u, t)]

    def band(self, p, q) -> int:
        return range_band(math.hypot(p[0] - q[0], p[1] - q[1]), self.rules)

    def cover(self, x, y) -> int:
        c = self._cover.get((x, y))
        if c is None:
            c = self._cover[(x, y)] = int(cover_at([x], [y], self.g.terrain)[0])
        return c

    def defense_roll(self, t):
        """(posture, action) the target rolls its Defense with: its declaration if it is one of this
        phase's units and has declared, else the bystander roll of the rules."""
        if t.uid in (self.s.act_uid, self.s.react_uid) and t.action >= 0:
            return Posture(t.posture), Action(t.action)
        return Posture[self.rules.orders.bystander_posture.upper()], Action.BASIC

    def hw_ap(self, u, t):
        if self.vehicle(t):
            return u.hw_point_ap if u.hw_point else None
        return u.hw_dispersed_ap if u.hw_dispersed else None

    def cap_left(self, t) -> int:
        f = self.rules.fire
        cap = f.vehicle_turn_marker_cap if self.vehicle(t) else f.turn_marker_cap
        return max(0, cap - t.turn_markers)


# The parameters most scoring methods share, written once: ``_shared_params`` puts them in place
# of the ``{view}`` and ``{u}`` lines of a docstring, so help() shows complete numpydoc docstrings.
_SHARED_PARAMS = {
    "{view}": "view : _View\n            The agent's per-decision view of the game (cached odds, LOS, cover).",
    "{u}": "u : Unit\n            The acting unit.",
}


def _shared_params(func):
    """Fill the ``{view}`` and ``{u}`` lines of ``func``'s docstring from ``_SHARED_PARAMS``."""
    for token, text in _SHARED_PARAMS.items():
        if func.__doc__:  # None under python -OO
            func.__doc__ = func.__doc__.replace(token, text)
    return func


class _ScoringAgent:
    """An agent that scores every legal action and plays the best (ties: the lowest id)."""

    def act(self, game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = _View(game)
        scores = self._scores(game, view, legal)
        return max(legal, key=lambda a: (scores[a], -a))

    def _scores(self, game, view, legal) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError


class GreedyAgent(_ScoringAgent):
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
    """

    name = "greedy"

    def __init__(self, seed: int = 0, wound_value: float = 3.0, marker_value: float = 1.0,
                 rally_value: float = 1.5, cover_value: float = 0.4):
        self.seed = seed
        self.wound_value, self.marker_value = float(wound_value), float(marker_value)
        self.rally_value, self.cover_value = float(rally_value), float(cover_value)

    # -- values ---------------------------------------------------------------------------------
    def _dist_value(self, dist, cap_left) -> float:
        wv, mv = self.wound_value, self.marker_value
        return sum(p * (min(m, cap_left) * mv + w * wv) for (m, w), p in dist.items())

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
            rules=view.rules)
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
        pmf = odds.scores_pmf(view.dice(u), Posture(posture), Action.HEAVY_WEAPON, rules=view.rules)
        levels = 0.0
        for attacks, p in pmf.attacks.items():
            w = resolve_fire(attacks[0], band, fr.feature_defense, feat.armor, Cover.NONE, u.hw_point_ap,
                             False, view.rules).wounds
            levels += p * min(cover, w * fr.feature_cover_per_wound)
        return levels * self.cover_value

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
                                       shooter_posture=Posture(posture), rules=view.rules)
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
        sc = odds.call_for_fire_odds(view.dice(u), Posture(posture), rules=view.rules)
        p_in = sum(p for r, p in sc.distance.items() if r <= asset.blast_radius_cm)
        if len(asset.dice) != 3:  # pragma: no cover - scenarios give support assets three dice
            return p_in * self.marker_value
        tp, ta = view.defense_roll(t)
        dist = odds.fire_outcomes(
            tuple(Die(d) for d in asset.dice), view.dice(t),
            shooter_posture=Posture[cff.support_posture.upper()], target_posture=tp,
            range_band=cff.support_range_band, armor=t.armor,
            shooter_action=Action[cff.support_action.upper()], target_action=ta,
            cover=Cover(view.cover(t.x, t.y)), ap=asset.ap, vehicle=view.vehicle(t), rules=view.rules)
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
                else:
                    out[a] = -math.inf
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
                near = min((math.hypot(t.x - d[0], t.y - d[1]) for t in enemies), default=0.0)
                edge = view.rules.fire.band_edges_cm[0]
                v -= 0.01 * max(0.0, near - 2 * edge) + 0.02 * max(0.0, edge - near)
            out[a] = v
        return out


class DoctrineAgent(_ScoringAgent):
    """Scripted fire and movement (see the module notes). Deterministic: ties go to the lowest id.

    Each turn, own units alternate between base of fire and manoeuvre by slot (swapped every
    turn, so the elements bound forward in turn). Suppressed units get the cards and the first
    activations that let them Rally; the base of fire activates before the manoeuvre element so that
    the enemy is suppressed while it moves.
    """

    name = "doctrine"
    _BASE_ORDER = (Action.MASS_FIRE, Action.HEAVY_WEAPON, Action.SPLIT_FIRE, Action.CALL_FOR_FIRE,
                   Action.BASIC, Action.DIG_IN, Action.SPRINT, Action.RALLY)
    _MANOEUVRE_ORDER = (Action.SPRINT, Action.BASIC, Action.HEAVY_WEAPON, Action.MASS_FIRE,
                        Action.SPLIT_FIRE, Action.CALL_FOR_FIRE, Action.DIG_IN, Action.RALLY)

    def __init__(self, seed: int = 0, standoff_cm: float = 30.0):
        self.seed = seed
        self.standoff_cm = float(standoff_cm)

    def role(self, game, u) -> str:
        """The unit's role this turn.

        Parameters
        ----------
        game : Game
        u : Unit

        Returns
        -------
        str
            ``"rally"`` (suppressed), ``"base"`` (base of fire) or ``"manoeuvre"`` (vehicles
            always; infantry alternate by slot and turn).
        """
        if u.markers > 0:
            return "rally"
        if u.kind == UnitKind.VEHICLE:
            return "manoeuvre"
        return "base" if (u.uid % game.C + game.s.turn) % 2 == 0 else "manoeuvre"

    def _nearest(self, view, u, units):
        return min((math.hypot(t.x - u.x, t.y - u.y) for t in units), default=1e9)

    def _card_score(self, game, u, card) -> float:
        deck, role = game.deck, self.role(game, u)
        joker, face = deck.is_joker(card), deck.is_face(card)
        offensive = not joker and deck.posture(card) == Posture.OFFENSIVE
        value = 0 if joker or face else deck.move_value(card)
        if role == "rally":        # a face card or a Joker lets it Rally
            if joker or face:
                return 33.0 if joker else 32.0
            return 30.0 + value / 20
        if role == "base":         # fire specials, then steady defensive Basic fire
            if joker or face:
                return 21.5 if joker else 22.0
            return 20.5 + (0.0 if offensive else 0.2) + value / 40
        # manoeuvre: long offensive moves; a Joker moves as its rules value, a face card may Sprint
        if joker or face:
            return 11.8 if joker else 10.8
        return 11.0 + value / 10 + (0.3 if offensive else 0.0)

    def _scores(self, game, view, legal) -> dict:
        s, sp, st = game.s, game.space, game.s.stage
        me = s.current_player
        enemies = view.alive(1 - me)
        out = {}
        if st in (Stage.ORDERS, Stage.RESERVE_PICK):
            for a in legal:
                seg = sp.decode(a)
                out[a] = (self._card_score(game, s.units[me * game.C + seg[2]], seg[1])
                          if seg[0] == "ASSIGN" else -math.inf)
            return out
        if st in (Stage.ACTIVATE, Stage.REACT):
            rank = {"rally": 3, "base": 2, "manoeuvre": 1}
            act = s.units[s.act_uid] if st == Stage.REACT and s.act_uid >= 0 else None
            for a in legal:
                u = s.units[me * game.C + sp.decode(a)[1]]
                v = rank[self.role(game, u)] * 100 - self._nearest(view, u, enemies) / 100
                if act is not None and view.los(u, act):
                    v += 50  # return fire at the unit that activated
                out[a] = v
            return out
        u = s.units[s.decl_uid] if s.decl_uid >= 0 else None
        if st == Stage.DECLARE_ACTION:
            role = self.role(game, u)
            order = self._BASE_ORDER if role == "base" else self._MANOEUVRE_ORDER
            for a in legal:
                _, action, posture = sp.decode(a)
                v = len(order) - order.index(action)
                if role == "rally" and action == Action.RALLY:
                    v += 100
                out[a] = v * 2 + (posture == Posture.OFFENSIVE)
            return out
        if st == Stage.DECLARE_ASSET:
            return {a: -sp.decode(a)[1] for a in legal}
        if st in (Stage.DECLARE_TARGET, Stage.DECLARE_TARGET2):
            for a in legal:
                seg = sp.decode(a)
                if seg[0] == "NO_TARGET":
                    out[a] = -math.inf
                    continue
                if seg[0] == "FEATURE":        # a terrain feature: by distance, like a unit
                    fx, fy = game.scenario.terrain[seg[1]].aim_point
                    out[a] = -math.hypot(fx - u.x, fy - u.y)
                    continue
                t = s.units[seg[1]]
                if u.action == Action.RALLY:   # self first, then the most suppressed friend
                    out[a] = t.markers + (100 if t.uid == u.uid else 0)
                else:                          # the nearest threat; concentrate on suppressed ones
                    out[a] = -math.hypot(t.x - u.x, t.y - u.y) + 5.0 * t.markers
            return out
        if st in (Stage.MOVE, Stage.SPRINT_MOVE):
            return self._move_scores(game, view, u, legal, enemies)
        if st == Stage.SPLIT:
            return {a: (0.0 if sp.decode(a)[0] == "END_SPLITS" else 1.0) for a in legal}
        return {a: 0.0 for a in legal}

    def _move_scores(self, game, view, u, legal, enemies) -> dict:
        base = self.role(game, u) == "base" and game.s.stage == Stage.MOVE
        sees = any(view.los(u, t) for t in enemies)
        dests = [game.preview_destination(a) for a in legal]
        cov = cover_at([d[0] for d in dests], [d[1] for d in dests], game.terrain).tolist()
        out = {}
        for a, d, c in zip(legal, dests, cov):
            near = min((math.hypot(t.x - d[0], t.y - d[1]) for t in enemies), default=0.0)
            moved = math.hypot(d[0] - u.x, d[1] - u.y)
            if base and sees:
                out[a] = -moved + 0.5 * c   # the base of fire holds its ground
            else:                           # bound forward to the standoff distance, cover to cover
                out[a] = 2.0 * c - 0.05 * abs(near - self.standoff_cm) - 0.2 * max(0.0, self.standoff_cm - near)
        return out


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "doctrine": DoctrineAgent,
          "heuristic": HeuristicAgent}


def make_agent(name: str, seed: int = 0):
    """A built-in agent by name.

    Parameters
    ----------
    name : str
        ``"random"``, ``"greedy"``, ``"doctrine"`` or ``"heuristic"`` (case and surrounding spaces
        ignored).
    seed : int
        Passed to the agent's constructor (only ``random`` uses it).

    Returns
    -------
    agent
        An instance of ``AGENTS[name]``, with an ``act(game) -> int`` method.

    Raises
    ------
    ValueError
        If ``name`` is not a built-in agent (or not a string).
    """
    if not isinstance(name, str) or name.strip().lower() not in AGENTS:
        raise ValueError(f"agent: unknown agent {name!r}; allowed: {', '.join(sorted(AGENTS))}")
    return AGENTS[name.strip().lower()](seed)
