"""DoctrineAgent: scripted fire and movement.

Each turn half of its units (alternating) are the base of fire (fire specials, stay put, shoot the
nearest enemy), the other half manoeuvre (long offensive cards, advance from cover to cover towards
the enemy); suppressed units rally first. With ``orders.reserve_by_choice`` (a variant), the last unit to be given
orders, if it is a base of fire in view of the enemy and another unit of the side has orders, is on
overwatch: its card stays in the Reserve (RULES.md section 2) for a forced reaction.
"""
from __future__ import annotations

import math

from ....enums import Action, Posture, UnitKind
from ....game.los import cover_at
from ....game.state import Stage
from .scoring import ScoringAgent, distance, may_hold_back

__all__ = ["DoctrineAgent"]


class DoctrineAgent(ScoringAgent):
    """Scripted fire and movement (see the module notes). Deterministic: ties go to the lowest id.

    Each turn, own units alternate between base of fire and manoeuvre by slot (swapped every
    turn, so the elements bound forward in turn). With ``orders.reserve_by_choice``, the last unit
    to get orders, if it is a base of fire in view of an enemy and another unit has orders, is on
    overwatch instead: it gets no orders and the cards stay in the Reserve, to react with the best
    one when the enemy fires at it. Suppressed units get the cards and the first activations that
    let them Rally; the base of fire activates before the manoeuvre element so that the enemy is
    suppressed while it moves.
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
        return min((distance(t.x - u.x, t.y - u.y) for t in units), default=1e9)

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
                last = may_hold_back(game, me)
                if seg[0] != "ASSIGN":     # END ORDERS: only the last unit without orders, never every card
                    out[a] = 0.0 if last else -math.inf
                    continue
                u = s.units[me * game.C + seg[2]]
                if (st == Stage.ORDERS and last and self.role(game, u) == "base"
                        and any(view.los(u, t) for t in enemies)):
                    out[a] = -1.0          # a base of fire in view of the enemy is on overwatch
                else:
                    out[a] = self._card_score(game, u, seg[1])
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
                    out[a] = -distance(fx - u.x, fy - u.y)
                    continue
                t = s.units[seg[1]]
                if u.action == Action.RALLY:   # self first, then the most suppressed friend
                    out[a] = t.markers + (100 if t.uid == u.uid else 0)
                else:                          # the nearest threat; concentrate on suppressed ones
                    out[a] = -distance(t.x - u.x, t.y - u.y) + 5.0 * t.markers
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
            near = min((distance(t.x - d[0], t.y - d[1]) for t in enemies), default=0.0)
            moved = distance(d[0] - u.x, d[1] - u.y)
            if base and sees:
                out[a] = -moved + 0.5 * c   # the base of fire holds its ground
            else:                           # bound forward to the standoff distance, cover to cover
                out[a] = 2.0 * c - 0.05 * abs(near - self.standoff_cm) - 0.2 * max(0.0, self.standoff_cm - near)
        return out
