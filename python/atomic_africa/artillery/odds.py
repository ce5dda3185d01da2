"""Exact landing odds of a Fire for Effect: every landing hex and off-map, as Fractions.

Two cards decide the landing (RULES.md section 8): the Targeting roll's card (white x coloured against
range + hindrance) and the drift card revealed after it. With ``deck="independent"`` both are
independent 2d6 (36 equally likely pairs each); otherwise both are drawn without replacement from a
deck state (draw-pile order unknown, the discard pile reshuffled in if the draw pile runs out).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from aa_core import hexmap as _hx

from .._validate import as_int
from ..rules import resolve_rules
from ._request import deck_state, request_geometry
from .fate import N_PAIRS, DeckState
from .hexmap import Hex, HexMap

__all__ = ["LandingOdds", "landing_distribution", "two_card_odds", "all_card_pairs"]


def all_card_pairs() -> np.ndarray:
    """Every pair of cards as four faces.

    Returns
    -------
    ndarray of int32, shape (1296, 4)
        (targeting white, coloured, drift white, coloured); row ``36 * id1 + id2``.
    """
    k = np.arange(N_PAIRS * N_PAIRS)
    a, b = k // N_PAIRS, k % N_PAIRS
    return np.ascontiguousarray(np.stack([a // 6 + 1, a % 6 + 1, b // 6 + 1, b % 6 + 1], axis=1),
                                dtype=np.int32)


def _two_card_weights(deck) -> tuple:
    """Integer weights of the next two cards over one total: (w[36 * id1 + id2] int64, total).

    Fractions are made once per answer, not summed pair by pair (which cost a hundred times the
    landing kernel's work). Without replacement, pair (a, b) comes in draw[a] * (draw[b] - [a == b])
    of the n * (n - 1) ordered ways; a pile emptied by the first card is reshuffled from the discard
    pile (with that card) before the second."""
    if deck is None:
        return np.ones(N_PAIRS * N_PAIRS, dtype=np.int64), N_PAIRS * N_PAIRS
    draw = np.array(deck.draw, dtype=np.int64)
    discard = np.array(deck.discard, dtype=np.int64)
    if draw.sum() == 0:                      # the discard pile is reshuffled into a new draw pile
        draw, discard = discard, np.zeros_like(discard)
    n = int(draw.sum())
    if n == 0:
        return np.zeros(N_PAIRS * N_PAIRS, dtype=np.int64), 1
    if n > 1:
        return (np.outer(draw, draw) - np.diag(draw)).reshape(-1), n * (n - 1)
    a = int(np.flatnonzero(draw)[0])
    second = discard.copy()
    second[a] += 1
    w = np.zeros((N_PAIRS, N_PAIRS), dtype=np.int64)
    w[a] = second
    return w.reshape(-1), int(second.sum())


def two_card_odds(deck=None) -> dict:
    """Exact distribution of the next two revealed cards: {(card id 1, card id 2): Fraction}.

    Parameters
    ----------
    deck : DeckState, optional
        The deck state the two cards are drawn from, without replacement (the discard pile is
        reshuffled in if the draw pile runs out); ``None`` means independent 2d6 (each of the 1296
        pairs 1/1296).

    Returns
    -------
    dict
        ``{(card id 1, card id 2): Fraction}`` over the pairs with non-zero probability (card ids
        0..35 as in :func:`~atomic_africa.artillery.fate.card_id`).

    Raises
    ------
    TypeError
        If ``deck`` is neither a DeckState nor None.
    """
    if deck is not None and not isinstance(deck, DeckState):
        raise TypeError(f"deck: expected a DeckState or None, got {type(deck).__name__}")
    w, total = _two_card_weights(deck)
    return {(int(k) // N_PAIRS, int(k) % N_PAIRS): Fraction(int(w[k]), total) for k in np.flatnonzero(w)}


@dataclass(frozen=True)
class LandingOdds:
    """Exact outcome of a Fire for Effect at ``target`` spotted from ``spotter``.

    Attributes
    ----------
    exact : dict Hex -> Fraction
        Probability of landing in each on-map hex (hexes with probability 0 omitted).
    off_map : Fraction
        Probability that the round drifts off the map (removed; the order ends).
    hit : Fraction
        Probability that the Targeting roll hits.
    range, hindrance, threshold : int
        Range spotter -> round, total hindrance, and range + hindrance.
    deck : str
        "independent", "fresh" or "state" (a given deck state).
    """

    hexmap: HexMap
    spotter: Hex
    target: Hex
    range: int
    hindrance: int
    threshold: int
    deck: str
    hit: Fraction
    off_map: Fraction
    exact: dict = field(repr=False)

    @property
    def probabilities(self) -> np.ndarray:
        """Landing probabilities as float64 ``(rows, columns)`` (row 1 first, column A first)."""
        p = np.zeros(self.hexmap.size)
        for h, f in self.exact.items():
            p[h.row * self.hexmap.columns + h.col] = float(f)
        return p.reshape(self.hexmap.rows, self.hexmap.columns)

    def probability(self, h) -> Fraction:
        """Exact probability of landing in hex ``h``.

        Parameters
        ----------
        h : str, Hex or (int, int)
            An on-map hex.

        Returns
        -------
        Fraction
        """
        return self.exact.get(self.hexmap.hex(h), Fraction(0))

    def within(self, n) -> Fraction:
        """Exact probability that the round lands within ``n`` hexes of the spotting round's hex.

        Parameters
        ----------
        n : int
            Hex distance from :attr:`target`, ``>= 0`` (0: the aimed hex itself).

        Returns
        -------
        Fraction
            The probability of landing on the map at most ``n`` hexes from the aim (a round that
            drifts off the map lands nowhere).

        Raises
        ------
        TypeError, ValueError
            If ``n`` is not an integer ``>= 0``.
        """
        n = as_int(n, "n", lo=0)
        return sum((p for h, p in self.exact.items() if self.hexmap.distance(h, self.target) <= n), Fraction(0))

    def most_likely(self) -> tuple:
        """The most likely landing hex (ties: lowest flat index).

        Returns
        -------
        (Hex, Fraction)

        Raises
        ------
        ValueError
            If every outcome is off the map (no landing hex).
        """
        return max(self.exact.items(), key=lambda kv: (kv[1], -self.hexmap.index(kv[0])))


def landing_distribution(hexmap, spotter, target, *, hindrance=0, deck="independent", smoke=None,
                         rules=None) -> LandingOdds:
    """Exact probability of each landing hex and of off-map for one Fire for Effect.

    Parameters
    ----------
    hexmap : HexMap
    spotter, target : hex
        The spotting Leader's hex and the hex of the spotting round (in the spotter's LOS).
    hindrance : int
        Extra hindrance added to the one found along the LOS (terrain and ``smoke``).
    deck : "independent", "fresh", FateDeck or DeckState
        Independent 2d6, or the two cards drawn without replacement from a full deck / a given state.
    smoke : mapping hex -> int, optional
        Smoke markers hindering the LOS.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    LandingOdds

    Raises
    ------
    TypeError, ValueError
        On an invalid argument, or if the target is not in the spotter's LOS.
    """
    rules = resolve_rules(rules)
    geo = request_geometry(hexmap, spotter, target, hindrance, smoke, rules)
    state = deck_state(deck, rules)
    cards = all_card_pairs()
    landing = np.empty(cards.shape[0], dtype=np.int32)
    hit = np.empty(cards.shape[0], dtype=np.uint8)
    _hx.resolve_requests(geo.target.col, geo.target.row, geo.threshold, cards, hexmap.grid_params,
                         rules.artillery.drift_params, landing, hit)
    w, total = _two_card_weights(state)
    on = (w > 0) & (landing >= 0)
    counts = np.zeros(hexmap.size, dtype=np.int64)
    np.add.at(counts, landing[on], w[on])
    p_hit = Fraction(int(w[hit.astype(bool)].sum()), total)
    off = Fraction(int(w[landing < 0].sum()), total)
    exact = {hexmap.at(int(i)): Fraction(int(counts[i]), total) for i in np.flatnonzero(counts)}
    mode = deck if isinstance(deck, str) else "state"
    return LandingOdds(hexmap, geo.spotter, geo.target, geo.range, geo.hindrance, geo.threshold, mode,
                       p_hit, off, dict(sorted(exact.items(), key=lambda kv: (kv[0].row, kv[0].col))))
