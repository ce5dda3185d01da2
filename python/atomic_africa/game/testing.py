"""Helpers to script games in tests: small scenarios, scripted decks and a decision driver."""
from __future__ import annotations

from ..enums import Action, Posture
from .cards import Deck
from .engine import Game
from .rng import ScriptedSource
from .scenario import Scenario

__all__ = ["unit", "mini_scenario", "scripted", "Driver"]


def unit(x, y, kind="infantry", figures=10, dice=("d10", "d10", "d8"), armor=2, **kw) -> dict:
    """A unit table for :func:`mini_scenario`."""
    d = {"kind": kind, "figures": figures, "dice": list(dice), "armor": armor, "position": [x, y]}
    d.update(kw)
    return d


def mini_scenario(blue, red, terrain=(), turns=1, experience=("green", "green"), assets=(),
                  width=180.0, height=120.0) -> Scenario:
    """A scenario with the given unit tables; ``assets`` are Blue's fire-support tables."""
    return Scenario.from_dict({
        "name": "test", "table": {"width_cm": width, "height_cm": height}, "turns": turns,
        "terrain": list(terrain),
        "sides": [
            {"name": "Blue", "experience": experience[0], "units": list(blue), "fire_support": list(assets)},
            {"name": "Red", "experience": experience[1], "units": list(red)},
        ],
    })


def deck_order(deck: Deck, top) -> list:
    """A full deck order whose first cards drawn are ``top`` (names like '10H', 'QS', 'Joker1')."""
    ids = [deck.id_of(n) for n in top]
    rest = [c for c in range(deck.size) if c not in ids]
    return rest + ids[::-1]


def scripted(blue_top=(), red_top=(), dice=(), rules=None, more_decks=(), fallback=None) -> ScriptedSource:
    """A :class:`ScriptedSource` for the two initial shuffles and the dice faces, in roll order."""
    from ..rules import resolve_rules
    deck = Deck(resolve_rules(rules))
    decks = [deck_order(deck, blue_top), deck_order(deck, red_top)]
    decks += [deck_order(deck, t) for t in more_decks]
    return ScriptedSource(dice=dice, decks=decks, fallback=fallback)


class Driver:
    """Apply decisions by meaning: ``d.assign('QS', uid)``, ``d.declare(Action.MASS_FIRE)`` ..."""

    def __init__(self, game: Game):
        self.g = game

    def _do(self, a):
        self.g.apply(a)
        return self

    def assign(self, card: str, uid: int):
        return self._do(self.g.space.assign(self.g.deck.id_of(card), uid % self.g.C))

    def end_orders(self):
        return self._do(self.g.space.end_orders)

    def select(self, uid: int):
        return self._do(self.g.space.select(uid % self.g.C))

    def declare(self, action, posture=None):
        """Declare; if the action was the only option (already declared automatically), check it."""
        if self.g.s.stage != 2:  # Stage.DECLARE_ACTION
            ev = [e for e in self.g.events if e["type"] == "declare"]
            if not ev or ev[-1]["action"] != Action(action).name:
                raise AssertionError(f"expected {Action(action).name} to be declared, stage {self.g.stage}")
            return self
        if posture is None:
            u = self.g.s.units[self.g.s.decl_uid]
            posture = self.g.deck.posture(u.card)
        return self._do(self.g.space.declare(Action(action), Posture(posture)))

    def target(self, uid: int):
        return self._do(self.g.space.target(uid))

    def no_target(self):
        return self._do(self.g.space.no_target)

    def asset(self, k: int):
        return self._do(self.g.space.asset(k))

    def move(self, direction: int, frac_index: int = -1):
        n = self.g.space.n_fracs
        return self._do(self.g.space.move(direction, frac_index % n))

    def stay(self):
        return self._do(self.g.space.stay)

    def split(self, uid: int):
        return self._do(self.g.space.split(uid % self.g.C))

    def end_splits(self):
        return self._do(self.g.space.end_splits)

    def finish(self):
        """End the voluntary splits of Clean-up (both players)."""
        while self.g.stage == "SPLIT":
            self.end_splits()
        return self

    def events(self, type_):
        return [e for e in self.g.events if e["type"] == type_]
