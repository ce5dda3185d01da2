"""One randomness source per game: every shuffle and die roll goes through it.

:class:`RandomSource` draws from a PCG64 Generator seeded from the game seed; :class:`ScriptedSource`
replays scripted dice faces and deck orders (tests), optionally falling back to a seeded source.
"""
from __future__ import annotations

import numpy as np

from aa_core import dice as _dice

from .._seeding import seed_sequence, stuck_state

__all__ = ["RandomSource", "ScriptedSource", "source_from_dict", "initial_source"]


class RandomSource:
    """Dice and shuffles from a PCG64 BitGenerator seeded with ``SeedSequence(seed)``.

    Every draw goes through the dice kernel's exact batched-Lemire primitive
    (``aa_core.rng.roll_faces`` via ``aa_core.dice.roll_dice``), so a native engine calling the same
    primitive on the same bit generator reproduces the game draw for draw: a unit's three dice are one
    batched draw, a shuffle is Fisher-Yates with one die of ``i + 1`` sides per position (top = last).

    Parameters
    ----------
    seed : int
        Non-negative seed. ``None``, a SeedSequence or a Generator are also accepted, but only an int
        keeps :meth:`to_dict` JSON-able.

    Raises
    ------
    TypeError, ValueError
        If ``seed`` is of another type or negative.
    """

    kind = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._bitgen = np.random.PCG64(seed_sequence(seed))

    def roll_many(self, sides) -> list:
        """Faces of several dice rolled together (one batched draw), uniform 1..sides[i].

        Parameters
        ----------
        sides : sequence of int
            Sides of each die.

        Returns
        -------
        list of int
        """
        s = np.array([sides], dtype=np.int64)
        faces = np.empty(s.shape, dtype=np.uint8)
        _dice.roll_dice(self._bitgen, s, faces)
        return faces[0].tolist()

    def roll(self, sides: int) -> int:
        """One die face, uniform 1..sides.

        Parameters
        ----------
        sides : int

        Returns
        -------
        int
        """
        return self.roll_many([sides])[0]

    def shuffle(self, cards: list) -> list:
        """A new list: the cards in random order (Fisher-Yates; index -1 is the top of the deck).

        Parameters
        ----------
        cards : sequence
            Not modified.

        Returns
        -------
        list
        """
        out = list(cards)
        n = len(out)
        if n < 2:
            return out
        sides = np.arange(n, 1, -1, dtype=np.int64).reshape(-1, 1)
        faces = np.empty(sides.shape, dtype=np.uint8)
        _dice.roll_dice(self._bitgen, sides, faces)
        for i, f in zip(range(n - 1, 0, -1), faces[:, 0].tolist()):
            j = f - 1
            out[i], out[j] = out[j], out[i]
        return out

    def to_dict(self) -> dict:
        """JSON-able seed and bit-generator state (:meth:`from_dict` restores it)."""
        return {"kind": self.kind, "seed": self.seed, "state": self._bitgen.state}

    @classmethod
    def from_dict(cls, d: dict) -> RandomSource:
        """The source saved by :meth:`to_dict` (``d`` holds ``seed`` and ``state``).

        Raises
        ------
        ValueError
            If the state is one that repeats one value for ever (an even PCG64 increment,
            :func:`atomic_africa._seeding.stuck_state`): the dice would never stop rolling.
        """
        problem = stuck_state(d["state"], "source.state")
        if problem is not None:
            raise ValueError(problem)
        src = cls(d["seed"])
        src._bitgen.state = d["state"]
        return src


class ScriptedSource:
    """Scripted randomness for tests.

    Parameters
    ----------
    dice : list of int
        Faces returned by successive :meth:`roll` calls (each must fit the die rolled).
    decks : list of list of int
        Successive :meth:`shuffle` results, top card LAST (a permutation of the cards shuffled).
        When exhausted, shuffles leave the cards in order.
    fallback : int, optional
        Seed of a :class:`RandomSource` used once the dice script is exhausted; without it an
        exhausted script raises.
    """

    kind = "scripted"

    def __init__(self, dice=(), decks=(), fallback=None):
        self.dice = [int(x) for x in dice]
        self.decks = [list(d) for d in decks]
        self.fallback = None if fallback is None else RandomSource(fallback)
        self.rolled = []

    def roll(self, sides: int) -> int:
        """The next scripted face (or the fallback's roll once the script is exhausted).

        Parameters
        ----------
        sides : int
            Sides of the die rolled; the scripted face must be in 1..sides.

        Returns
        -------
        int

        Raises
        ------
        RuntimeError
            If the face does not fit the die, or the script is exhausted without a fallback.
        """
        if not self.dice:
            if self.fallback is None:
                raise RuntimeError(f"ScriptedSource: dice script exhausted (rolling a d{sides})")
            face = self.fallback.roll(sides)
        else:
            face = self.dice.pop(0)
            if not 1 <= face <= sides:
                raise RuntimeError(f"ScriptedSource: scripted face {face} does not fit a d{sides}")
        self.rolled.append((sides, face))
        return face

    def roll_many(self, sides) -> list:
        """:meth:`roll` for each entry of ``sides`` (sequence of int), in order; a list of faces."""
        return [self.roll(x) for x in sides]

    def shuffle(self, cards: list) -> list:
        """The next scripted deck order, or ``cards`` in order once the script is exhausted.

        Parameters
        ----------
        cards : sequence
            Not modified.

        Returns
        -------
        list

        Raises
        ------
        RuntimeError
            If the scripted order is not a permutation of ``cards``.
        """
        if not self.decks:
            return list(cards)
        order = self.decks.pop(0)
        if sorted(order) != sorted(cards):
            raise RuntimeError("ScriptedSource: scripted deck order is not a permutation of the cards")
        return list(order)

    def to_dict(self) -> dict:
        """JSON-able remaining script, faces rolled so far and fallback state."""
        return {"kind": self.kind, "dice": list(self.dice), "decks": [list(d) for d in self.decks],
                "rolled": [list(r) for r in self.rolled],
                "fallback": None if self.fallback is None else self.fallback.to_dict()}

    @classmethod
    def from_dict(cls, d: dict) -> ScriptedSource:
        """The source saved by :meth:`to_dict`."""
        src = cls(d["dice"], d["decks"])
        src.rolled = [tuple(r) for r in d["rolled"]]
        if d["fallback"] is not None:
            src.fallback = RandomSource.from_dict(d["fallback"])
        return src


def source_from_dict(d: dict):
    """Restore a source saved by ``to_dict``.

    Parameters
    ----------
    d : dict
        Output of :meth:`RandomSource.to_dict` or :meth:`ScriptedSource.to_dict` (``kind`` selects
        the class; anything but ``"random"`` is read as scripted).

    Returns
    -------
    RandomSource or ScriptedSource
    """
    return (RandomSource if d["kind"] == "random" else ScriptedSource).from_dict(d)


def initial_source(d: dict, events):
    """The source a saved game started from, rebuilt from its saved state ``d`` (``to_dict``'s) and
    the game's events: what replaying the game's history from the start needs.

    A random source starts from its seed. A scripted source starts with the faces it gave
    (``rolled``) before the ones still scripted, and the deck orders the game's ``shuffle`` and
    ``reshuffle`` events show before the ones still scripted; its fallback starts from its seed (its
    draws are replayed from the faces it gave, so its saved generator state is checked for validity
    only).

    Parameters
    ----------
    d : dict
        A checked ``RandomSource.to_dict()`` or ``ScriptedSource.to_dict()``.
    events : list of dict
        The game's event log.

    Returns
    -------
    RandomSource or ScriptedSource
    """
    if d["kind"] == "random":
        return RandomSource(d["seed"])
    decks = [list(e.get("deck", ())) for e in events
             if isinstance(e, dict) and e.get("type") in ("shuffle", "reshuffle")]
    fallback = None if d["fallback"] is None else d["fallback"]["seed"]
    return ScriptedSource([face for _, face in d["rolled"]] + list(d["dice"]), decks + [list(x) for x in d["decks"]],
                          fallback)
