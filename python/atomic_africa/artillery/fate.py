"""The Fate deck: 72 cards, each (white, coloured) pair of d6 faces exactly twice; one deck per player.

Only the two dice of a card are modelled (events and triggers such as "Jammed!" are not: the seed's
drift card "is NOT a roll, so triggers do not fire", and the impact roll ignores Jammed!). A drawn card
is revealed and goes to the discard pile; when a draw finds the draw pile empty, the discard pile is
shuffled to become the new draw pile.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import _validate as v
from .._limits import MAX_FATE_COPIES
from .._seeding import generator
from ..rules import resolve_rules

__all__ = ["FateCard", "FateDeck", "DeckState", "card_id", "card_of_id", "N_PAIRS"]

N_PAIRS = 36


class FateCard(NamedTuple):
    """The two dice printed on a Fate card."""

    white: int
    coloured: int

    @property
    def total(self) -> int:
        """White + coloured."""
        return self.white + self.coloured

    @property
    def product(self) -> int:
        """White x coloured."""
        return self.white * self.coloured

    def __str__(self) -> str:
        return f"[{self.white}|{self.coloured}]"


def card_id(card) -> int:
    """Index 0..35 of a (white, coloured) pair: ``6 * (white - 1) + coloured - 1``.

    Parameters
    ----------
    card : FateCard or (int, int)
        White and coloured faces, each 1..6 (not validated).

    Returns
    -------
    int
    """
    w, c = card
    return 6 * (w - 1) + (c - 1)


def card_of_id(k: int) -> FateCard:
    """The card of index ``k``; the inverse of :func:`card_id`.

    Parameters
    ----------
    k : int
        Card id 0..35 (not validated).

    Returns
    -------
    FateCard
    """
    return FateCard(k // 6 + 1, k % 6 + 1)


def as_card(value, name: str = "card") -> FateCard:
    """A FateCard from a (white, coloured) pair of faces 1..6.

    Parameters
    ----------
    value : pair of int
        White and coloured faces, each 1..6.
    name : str
        Argument name used in error messages.

    Returns
    -------
    FateCard

    Raises
    ------
    TypeError
        If ``value`` is not a pair of integers.
    ValueError
        If a face is outside 1..6.
    """
    try:
        w, c = value
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a (white, coloured) pair of d6 faces, got {v.shown(value)}") from None
    return FateCard(v.as_int(w, f"{name}.white", 1, 6), v.as_int(c, f"{name}.coloured", 1, 6))


@dataclass(frozen=True)
class DeckState:
    """What is known of a deck: how many of each pair are in the draw pile and in the discard pile.

    ``draw`` and ``discard`` are 36 counts indexed by :func:`card_id`. The order of the draw pile is
    unknown, so every arrangement is equally likely (the basis of the exact odds).
    """

    draw: tuple
    discard: tuple = (0,) * N_PAIRS

    def __post_init__(self):
        for name in ("draw", "discard"):
            counts = getattr(self, name)
            if len(counts) != N_PAIRS:
                raise ValueError(f"{name}: expected 36 counts (one per (white, coloured) pair), "
                                 f"got {len(counts)}")
            # at most MAX_FATE_COPIES of a pair (the rules' bound): the piles are laid out card by card
            object.__setattr__(self, name, tuple(v.as_int(x, f"{name}[{i}]", lo=0, hi=MAX_FATE_COPIES)
                                                 for i, x in enumerate(counts)))
        if self.n_draw + self.n_discard == 0:
            raise ValueError("deck: the draw and discard piles are both empty; nothing can be drawn")

    @classmethod
    def fresh(cls, rules=None) -> DeckState:
        """A full deck (``artillery.fate_card_copies`` of each pair), nothing discarded.

        Parameters
        ----------
        rules : Rules, optional
            Rules data; the packaged defaults if omitted.

        Returns
        -------
        DeckState
        """
        copies = resolve_rules(rules).artillery.fate_card_copies
        return cls((copies,) * N_PAIRS)

    @classmethod
    def from_cards(cls, draw, discard=()) -> DeckState:
        """Counts from lists of (white, coloured) cards.

        Parameters
        ----------
        draw : iterable of (int, int)
            Cards in the draw pile (order ignored).
        discard : iterable of (int, int)
            Cards in the discard pile.

        Returns
        -------
        DeckState

        Raises
        ------
        TypeError, ValueError
            On a card that is not a pair of faces 1..6, or if both piles are empty.
        """
        d = [0] * N_PAIRS
        x = [0] * N_PAIRS
        for i, c in enumerate(draw):
            d[card_id(as_card(c, f"draw[{i}]"))] += 1
        for i, c in enumerate(discard):
            x[card_id(as_card(c, f"discard[{i}]"))] += 1
        return cls(tuple(d), tuple(x))

    @property
    def n_draw(self) -> int:
        """Number of cards in the draw pile."""
        return sum(self.draw)

    @property
    def n_discard(self) -> int:
        """Number of cards in the discard pile."""
        return sum(self.discard)

    def pile_ids(self) -> tuple[list, list]:
        """The draw and discard piles expanded to card ids in increasing order.

        Returns
        -------
        (list of int, list of int)
            Draw-pile ids and discard-pile ids, each id repeated by its count.
        """
        return ([k for k in range(N_PAIRS) for _ in range(self.draw[k])],
                [k for k in range(N_PAIRS) for _ in range(self.discard[k])])


class FateDeck:
    """One player's Fate deck, shuffled with its own seeded Generator.

    Parameters
    ----------
    seed : None, int, SeedSequence or Generator
        Randomness of every shuffle (a Generator is used as given).
    rules : Rules, optional
        ``artillery.fate_card_copies`` copies of each of the 36 (white, coloured) pairs.
    shuffle : bool
        Shuffle at creation (default); otherwise the cards are in pair order, (6, 6) on top.

    The draw pile's top card is ``peek()[0]``. ``draw()`` reveals the top card and discards it;
    ``draw(discard=False)`` keeps it out (in a hand) until :meth:`discard`. Equality compares the piles,
    held cards and the Generator's state, so a deep copy compares equal until either is used.
    """

    def __init__(self, seed=None, *, rules=None, shuffle: bool = True):
        self.copies = resolve_rules(rules).artillery.fate_card_copies
        self.rng = generator(seed, "seed")
        # Draw pile stored bottom first: the top card is the last element.
        self._draw = [card_of_id(k) for k in range(N_PAIRS) for _ in range(self.copies)]
        self._discard: list = []
        self._held: list = []
        self.reshuffles = 0
        if v.as_bool(shuffle, "shuffle"):
            self.shuffle()

    @classmethod
    def stacked(cls, top, *, seed=None, rules=None) -> FateDeck:
        """A shuffled deck with ``top`` (cards, top first) placed on top in that order, for set-ups.

        Parameters
        ----------
        top : iterable of (int, int)
            Cards to put on top, top first; each at most ``artillery.fate_card_copies`` times.
        seed : None, int, SeedSequence or Generator
            Randomness of the shuffle (as in :class:`FateDeck`).
        rules : Rules, optional
            Rules data; the packaged defaults if omitted.

        Returns
        -------
        FateDeck

        Raises
        ------
        ValueError
            If a card appears in ``top`` more often than the deck holds it, or a face is out of range.
        """
        deck = cls(seed, rules=rules)
        wanted = [as_card(c, f"top[{i}]") for i, c in enumerate(top)]
        for i, c in enumerate(wanted):
            if wanted[: i + 1].count(c) > deck.copies:
                raise ValueError(f"top: card {tuple(c)} appears more than {deck.copies} times")
        for c in wanted:
            deck._draw.remove(c)
        deck._draw.extend(reversed(wanted))
        return deck

    # -- inspection ---------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._draw)

    @property
    def draw_pile(self) -> tuple:
        """The draw pile, top card first."""
        return tuple(reversed(self._draw))

    @property
    def discard_pile(self) -> tuple:
        """The discard pile, most recent last."""
        return tuple(self._discard)

    @property
    def held(self) -> tuple:
        """Cards drawn with ``discard=False`` and not yet discarded."""
        return tuple(self._held)

    def peek(self, k: int = 1) -> tuple:
        """The top ``k`` cards of the draw pile, top first (no reshuffle).

        Parameters
        ----------
        k : int
            Number of cards, ``>= 0`` (fewer are returned if the draw pile is shorter).

        Returns
        -------
        tuple of FateCard
        """
        k = v.as_int(k, "k", lo=0)
        return tuple(reversed(self._draw[-k:])) if k else ()

    def state(self) -> DeckState:
        """Counts of each pair in the draw and discard piles (the draw order is treated as unknown).

        Returns
        -------
        DeckState
            Held cards are in neither pile.
        """
        return DeckState.from_cards(self._draw, self._discard)

    # -- actions ------------------------------------------------------------------------------------
    def shuffle(self) -> None:
        """Shuffle every card not held (draw and discard piles) into a new draw pile."""
        cards = self._draw + self._discard
        order = self.rng.permutation(len(cards))
        self._draw = [cards[i] for i in order]
        self._discard = []

    def reshuffle(self) -> None:
        """Shuffle the discard pile into the draw pile (counted in ``reshuffles``)."""
        self.shuffle()
        self.reshuffles += 1

    def draw(self, discard: bool = True) -> FateCard:
        """Reveal the top card (reshuffling the discard pile first if the draw pile is empty).

        Parameters
        ----------
        discard : bool
            Put the card on the discard pile (default); ``False`` holds it until :meth:`discard`.

        Returns
        -------
        FateCard

        Raises
        ------
        ValueError
            If the draw and discard piles are both empty (every card is held).
        """
        discard = v.as_bool(discard, "discard")
        if not self._draw:
            if not self._discard:
                raise ValueError("FateDeck.draw: no card left to draw (the draw and discard piles are "
                                 "empty; every card is held)")
            self.reshuffle()
        card = self._draw.pop()
        (self._discard if discard else self._held).append(card)
        return card

    def discard(self, card) -> None:
        """Put a held card (drawn with ``discard=False``) on the discard pile.

        Parameters
        ----------
        card : FateCard or (int, int)
            A held card.

        Raises
        ------
        ValueError
            If ``card`` is not held (or a face is outside 1..6).
        """
        c = as_card(card)
        if c not in self._held:
            raise ValueError(f"card: {tuple(c)} is not held; held cards: {[tuple(h) for h in self._held]}")
        self._held.remove(c)
        self._discard.append(c)

    # -- value semantics ----------------------------------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, FateDeck):
            return NotImplemented
        return (self.copies == other.copies and self._draw == other._draw
                and self._discard == other._discard and self._held == other._held
                and self.reshuffles == other.reshuffles
                and _same_state(self.rng.bit_generator.state, other.rng.bit_generator.state))

    __hash__ = None

    def __repr__(self):
        return (f"FateDeck(draw={len(self._draw)}, discard={len(self._discard)}, held={len(self._held)}, "
                f"reshuffles={self.reshuffles})")

    def _assign(self, other: FateDeck) -> None:
        """Take over ``other``'s piles and random state, keeping this object and its Generator."""
        self.copies = other.copies
        self._draw = list(other._draw)
        self._discard = list(other._discard)
        self._held = list(other._held)
        self.reshuffles = other.reshuffles
        self.rng.bit_generator.state = copy.deepcopy(other.rng.bit_generator.state)


def _same_state(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return a == b
