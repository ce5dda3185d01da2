"""What the scoring agents share: a per-decision view of the position and the pick-the-best loop.

The view answers from the public game state only (dice after wounds, line of sight, cover, range
band, the marker cap); :class:`ScoringAgent` scores every legal action and plays the best.
"""
from __future__ import annotations

import math

from ....dice import wounded_dice
from ....enums import Action, Posture, UnitKind
from ....fire import range_band
from ....game.los import cover_at
from ....game.state import NO_CARD

__all__ = ["ScoringAgent"]


def distance(dx, dy) -> float:
    """Length of (dx, dy) as ``sqrt(dx * dx + dy * dy)``: the native agents evaluate the same
    expression (math.hypot rounds differently), so both get the same bits."""
    return math.sqrt(dx * dx + dy * dy)


# -- facts about the position, from the public game state ---------------------------------------
class _View:
    """Per-decision helper: dice after wounds, LOS, cover and range from the public game state."""

    def __init__(self, game):
        self.g, self.s, self.rules = game, game.s, game.rules
        self.me = game.s.current_player
        self._dice = {}
        self._los = None
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
        """Line of sight between a and b as the rules see it (the engine's matrix: fire targets are
        chosen with it; the native agents read the same cache)."""
        if self._los is None:
            self._los = self.g._los_matrix()
        return bool(self._los[a.uid, b.uid])

    def visible_enemies(self, u):
        need = self.rules.orders.fire_needs_los
        return [t for t in self.alive(1 - u.side) if not need or self.los(u, t)]

    def band(self, p, q) -> int:
        return range_band(distance(p[0] - q[0], p[1] - q[1]), self.rules)

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


def units_without_orders(game, side: int) -> int:
    """Units of ``side`` still without orders at Orders: the greedy and doctrine agents hold a card
    back in the Reserve (END ORDERS) only for the last of them, so the rest of the side still acts."""
    units = game.s.units[side * game.C:(side + 1) * game.C]
    return sum(1 for u in units if u.alive and u.card == NO_CARD and not u.acted)


def may_hold_back(game, side: int) -> bool:
    """Whether the greedy and doctrine agents may end ``side``'s Orders now (END ORDERS, legal only
    with ``orders.reserve_by_choice``): only for the last unit still without orders, and only once
    another unit of the side has orders. A side is never left without an ordered unit while a card
    could still be given, so an agent that is behind (one unit left) still activates."""
    units = game.s.units[side * game.C:(side + 1) * game.C]
    return units_without_orders(game, side) == 1 and any(u.has_orders for u in units)


class ScoringAgent:
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
