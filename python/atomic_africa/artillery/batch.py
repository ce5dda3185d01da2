"""Array API of the hex artillery: resolve many card draws, or simulate many requests at once."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from aa_core import hexmap as _hx

from .. import _validate as v
from .._seeding import chunk_generators, seed_sequence
from ..rules import resolve_rules
from ._request import deck_state, request_geometry
from .hexmap import HexMap

__all__ = ["simulate_requests", "resolve_requests", "landing_counts", "RequestSample", "ARTILLERY_CHUNK"]

#: Requests per random stream in :func:`simulate_requests`; part of the reproducibility contract.
ARTILLERY_CHUNK = 1 << 16


class RequestSample(NamedTuple):
    """Simulated requests: ``landing`` flat hex index (int32, ``row * columns + col``; -1 off the map)
    and ``hit`` (bool) of the Targeting roll."""

    landing: np.ndarray
    hit: np.ndarray


def resolve_requests(hexmap, spotter, target, cards, *, hindrance=0, smoke=None, rules=None):
    """Landing of the round for given cards (deterministic; no drawing).

    Parameters
    ----------
    hexmap : HexMap
    spotter, target : hex
        Spotter's hex and the spotting round's hex (in the spotter's LOS).
    cards : array of int, shape (..., 4)
        Targeting card (white, coloured) then drift card (white, coloured), faces 1..6.
    hindrance : int
        Extra hindrance on top of the LOS's (terrain and ``smoke`` markers), 0..10000.
    smoke : mapping hex -> int, optional
        Smoke markers hindering the LOS (added to the terrain's hindrance).
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    (landing, hit) : int32 and bool arrays of shape ``cards.shape[:-1]``
        Flat index of the landing hex (-1 off the map) and whether the Targeting roll hit.

    Raises
    ------
    TypeError
        If ``hexmap`` is not a HexMap or ``cards`` is not an integer array.
    ValueError
        If a hex is off the map, the target is not in the spotter's LOS, ``cards`` does not have
        shape (..., 4) or a face is outside 1..6.
    """
    rules = resolve_rules(rules)
    geo = request_geometry(hexmap, spotter, target, hindrance, smoke, rules)
    c = np.asarray(cards)
    if c.dtype == object or c.dtype.kind not in "iu":
        v.int_array(c, "cards")                      # raises the standard TypeError
    if c.ndim < 1 or c.shape[-1] != 4:
        raise ValueError(f"cards: expected shape (..., 4) (targeting white, coloured, drift white, "
                         f"coloured), got {c.shape}")
    if c.dtype != np.int32:
        v.check_range(c, "cards", lo=1, hi=6)        # before narrowing, so nothing wraps into range
    flat = np.ascontiguousarray(c.reshape(-1, 4), dtype=np.int32)
    landing = np.empty(flat.shape[0], dtype=np.int32)
    hit = np.empty(flat.shape[0], dtype=np.uint8)
    bad = _hx.resolve_requests(geo.target.col, geo.target.row, geo.threshold, flat, hexmap.grid_params,
                               rules.artillery.drift_params, landing, hit)
    if bad >= 0:
        raise ValueError(f"cards: value {flat.reshape(-1)[bad]} is out of range; allowed 1..6")
    lead = c.shape[:-1]
    return landing.reshape(lead), hit.view(bool).reshape(lead)


def simulate_requests(n, hexmap, spotter, target, *, hindrance=0, smoke=None, deck="independent",
                      seed=None, threads=1, rules=None) -> RequestSample:
    """Simulate ``n`` independent Fire for Effect requests at the same spotting round.

    Parameters
    ----------
    n : int
        Number of requests, ``0..2**31 - 1``; ``n`` whose output (5 bytes each) exceeds the memory
        available is refused with a MemoryError naming ``n`` and the memory needed.
    hexmap, spotter, target, hindrance, smoke
        As in :func:`resolve_requests`.
    deck : "independent", "fresh", FateDeck or DeckState
        Independent 2d6 for both cards, or both cards drawn without replacement from the deck state
        (the same starting state for every request; the draw-pile order is random).
    seed : None, int, SeedSequence or Generator
        Requests ``[c*ARTILLERY_CHUNK, (c+1)*ARTILLERY_CHUNK)`` draw from child ``c`` of
        ``SeedSequence(seed)``: results do not depend on ``threads``, and a smaller ``n`` gives a
        prefix of a larger one.
    threads : int
        OpenMP threads, 1..1024; more than the cores available gives a RuntimeWarning.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    RequestSample
        ``landing`` (int32, flat hex index, -1 off the map) and ``hit`` (bool), each of length ``n``.

    Raises
    ------
    TypeError, ValueError
        On an invalid argument, or if the target is not in the spotter's LOS.
    MemoryError
        If the output of ``n`` requests does not fit in the memory available (naming ``n``).
    """
    rules = resolve_rules(rules)
    n = v.as_int(n, "n", lo=0, hi=2**31 - 1)
    threads = v.as_threads(threads)
    geo = request_geometry(hexmap, spotter, target, hindrance, smoke, rules)
    state = deck_state(deck, rules)
    ss = seed_sequence(seed)
    landing, hit = v.allocate(n, (np.int32, np.uint8), "n", "requests", "simulate in smaller batches")
    if n == 0:
        return RequestSample(landing, hit.view(bool))
    if state is None:
        pile = discard = np.empty(0, dtype=np.int32)
    else:
        p, d = state.pile_ids()
        pile, discard = np.array(p, dtype=np.int32), np.array(d, dtype=np.int32)
    n_chunks = -(-n // ARTILLERY_CHUNK)
    _hx.simulate_requests(chunk_generators(ss, n_chunks), ARTILLERY_CHUNK, geo.target.col, geo.target.row,
                          geo.threshold, hexmap.grid_params, rules.artillery.drift_params, state is None,
                          pile, discard, threads, landing, hit)
    return RequestSample(landing, hit.view(bool))


def landing_counts(landing, hexmap) -> tuple[np.ndarray, int]:
    """Counts of simulated landings per hex, and the off-map count.

    Parameters
    ----------
    landing : array of int
        Flat hex indices, -1 (off the map) .. ``hexmap.size - 1``, e.g. ``RequestSample.landing``.
    hexmap : HexMap
        The map the indices refer to.

    Returns
    -------
    (ndarray of int64, shape (rows, columns), int)
        Landings per hex and the number of off-map landings.

    Raises
    ------
    TypeError
        If ``hexmap`` is not a HexMap or ``landing`` is not an integer array.
    ValueError
        If an index is out of range.
    """
    if not isinstance(hexmap, HexMap):
        raise TypeError(f"hexmap: expected a HexMap, got {type(hexmap).__name__}")
    a = v.int_array(landing, "landing").reshape(-1)
    v.check_range(a, "landing", lo=-1, hi=hexmap.size - 1)
    counts = np.bincount(a + 1, minlength=hexmap.size + 1)
    return counts[1:].reshape(hexmap.rows, hexmap.columns), int(counts[0])
