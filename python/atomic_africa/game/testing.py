"""Helpers to script games in tests: small scenarios, scripted decks and a decision driver."""
from __future__ import annotations

from ..enums import Action, Posture
from .cards import Deck
from .rng import ScriptedSource
from .scenario import Scenario

__all__ = ["unit", "mini_scenario", "scripted", "Driver", "last_legal_action"]


def unit(x, y, kind="infantry", figures=10, dice=("d10", "d10", "d8"), armor=2, **kw) -> dict:
    """A unit table for :func:`mini_scenario`.

    Parameters
    ----------
    x, y : float
        Position in cm.
    kind : str
        Unit kind name, e.g. ``"infantry"``.
    figures : int
    dice : sequence of str
        Three dice names.
    armor : int
    **kw
        Further unit fields (``name``, ``spotter``, ``markers``, ...), as in a scenario file.

    Returns
    -------
    dict
        Not validated until the scenario is built.
    """
    d = {"kind": kind, "figures": figures, "dice": list(dice), "armor": armor, "position": [x, y]}
    d.update(kw)
    return d


def mini_scenario(blue, red, terrain=(), turns=1, experience=("green", "green"), assets=(),
                  width=180.0, height=120.0) -> Scenario:
    """A scenario with the given unit tables; ``assets`` are Blue's fire-support tables.

    Parameters
    ----------
    blue, red : iterable of dict
        Unit tables (see :func:`unit`) of Blue (side 0) and Red (side 1).
    terrain : iterable of dict
        Terrain tables, as in a scenario file.
    turns : int
    experience : (str, str)
        Experience levels of Blue and Red.
    assets : iterable of dict
        Blue's fire-support tables.
    width, height : float
        Table size in cm.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioError
        If a table is malformed.
    """
    return Scenario.from_dict({
        "name": "test", "table": {"width_cm": width, "height_cm": height}, "turns": turns,
        "terrain": list(terrain),
        "sides": [
            {"name": "Blue", "experience": experience[0], "units": list(blue), "fire_support": list(assets)},
            {"name": "Red", "experience": experience[1], "units": list(red)},
        ],
    })


def deck_order(deck: Deck, top) -> list:
    """A full deck order whose first cards drawn are ``top`` (names like '10H', 'QS', 'Joker1').

    Parameters
    ----------
    deck : Deck
    top : iterable of str
        Card names, first drawn first.

    Returns
    -------
    list of int
        Every card id once, top card last.
    """
    ids = [deck.id_of(n) for n in top]
    rest = [c for c in range(deck.size) if c not in ids]
    return rest + ids[::-1]


def scripted(blue_top=(), red_top=(), dice=(), rules=None, more_decks=(), fallback=None) -> ScriptedSource:
    """A :class:`ScriptedSource` for the two initial shuffles and the dice faces, in roll order.

    Parameters
    ----------
    blue_top, red_top : iterable of str
        Card names on top of Blue's and Red's initial decks, first drawn first.
    dice : iterable of int
        Scripted die faces.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    more_decks : iterable of iterable of str
        Tops of later reshuffles, in order.
    fallback : int, optional
        Seed of the source used once the dice script is exhausted.

    Returns
    -------
    ScriptedSource
    """
    from ..rules import resolve_rules
    deck = Deck(resolve_rules(rules))
    decks = [deck_order(deck, blue_top), deck_order(deck, red_top)]
    decks += [deck_order(deck, t) for t in more_decks]
    return ScriptedSource(dice=dice, decks=decks, fallback=fallback)


class Driver:
    """Apply decisions by meaning: ``d.assign('QS', uid)``, ``d.declare(Action.MASS_FIRE)`` ..."""

    def __init__(self, game):
        """Drive ``game`` (applied in place); every method returns the driver for chaining."""
        self.g = game

    def _do(self, a):
        self.g.apply(a)
        return self

    def assign(self, card: str, uid: int):
        """Give card named ``card`` (e.g. ``'QS'``) to unit ``uid`` of the current player."""
        return self._do(self.g.space.assign(self.g.deck.id_of(card), uid % self.g.C))

    def end_orders(self):
        """Finish assigning orders."""
        return self._do(self.g.space.end_orders)

    def select(self, uid: int):
        """Activate / react with unit ``uid`` of the current player."""
        return self._do(self.g.space.select(uid % self.g.C))

    def declare(self, action, posture=None):
        """Declare; if the action was the only option (already declared automatically), check it.

        Parameters
        ----------
        action : Action or int
        posture : Posture or int, optional
            Default: the posture of the unit's card.

        Returns
        -------
        Driver
            ``self``.

        Raises
        ------
        AssertionError
            If the stage is past declaration and the last declared action is not ``action``.
        """
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
        """Target the unit of global slot ``uid``."""
        return self._do(self.g.space.target(uid))

    def no_target(self):
        """Declare no fire target."""
        return self._do(self.g.space.no_target)

    def asset(self, k: int):
        """Call fire-support asset ``k``."""
        return self._do(self.g.space.asset(k))

    def move(self, direction: int, frac_index: int = -1):
        """Move towards ``direction`` by fraction index ``frac_index`` (default -1: the largest)."""
        n = self.g.space.n_fracs
        return self._do(self.g.space.move(direction, frac_index % n))

    def stay(self):
        """Keep the Destination at the Start."""
        return self._do(self.g.space.stay)

    def split(self, uid: int):
        """Split unit ``uid`` of the current player in Clean-up."""
        return self._do(self.g.space.split(uid % self.g.C))

    def end_splits(self):
        """End the current player's voluntary splits."""
        return self._do(self.g.space.end_splits)

    def finish(self):
        """End the voluntary splits of Clean-up (both players)."""
        while self.g.stage == "SPLIT":
            self.end_splits()
        return self

    def events(self, type_):
        """The game's events of type ``type_`` (list of dict)."""
        return [e for e in self.g.events if e["type"] == type_]


def last_legal_action(game) -> int:
    """The highest legal action id, but END ORDERS only when no card can be given.

    A deterministic policy for tests. END ORDERS is the highest id at Orders and, with the Reserve by
    choice (``orders.reserve_by_choice``), legal beside every assignment, so "the last legal action"
    alone would leave every unit without orders.

    Parameters
    ----------
    game : Game
        A running game.

    Returns
    -------
    int
    """
    legal = game.legal_actions()
    if len(legal) > 1 and legal[-1] == game.space.end_orders:
        return legal[-2]
    return legal[-1]
