"""Validation shared by the exact odds, the batch API and the order: spotter, round, deck."""
from __future__ import annotations

from typing import NamedTuple

from .. import _validate as v
from .fate import DeckState, FateDeck
from .hexmap import Hex, HexMap

__all__ = ["RequestGeometry", "request_geometry", "deck_state", "DECK_MODES"]

DECK_MODES = ("independent", "fresh")


class RequestGeometry(NamedTuple):
    """Spotter, spotting round, range, total hindrance and the Targeting roll's threshold."""

    spotter: Hex
    target: Hex
    range: int
    hindrance: int        # along the LOS (terrain + smoke) plus any extra hindrance given
    threshold: int        # range + hindrance: the score must beat it


def request_geometry(hexmap, spotter, target, hindrance=0, smoke=None, rules=None) -> RequestGeometry:
    """Check the round is on the map and in the spotter's LOS; range and hindrance of the roll.

    Parameters
    ----------
    hexmap : HexMap
    spotter, target : str, Hex or (int, int)
        The spotter's hex and the spotting round's hex, both on the map.
    hindrance : int
        Extra hindrance, 0..10000, added to the LOS's.
    smoke : mapping hex -> int, optional
        Smoke markers hindering the LOS.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    RequestGeometry

    Raises
    ------
    TypeError
        If ``hexmap`` is not a HexMap (or an argument has the wrong type).
    ValueError
        If a hex is off the map, ``hindrance`` is out of range, or the target is not in LOS.
    """
    if not isinstance(hexmap, HexMap):
        raise TypeError(f"hexmap: expected an atomic_africa.artillery.HexMap, got {type(hexmap).__name__}")
    s = hexmap.hex(spotter, "spotter")
    t = hexmap.hex(target, "target")
    extra = v.as_int(hindrance, "hindrance", lo=0, hi=10_000)
    los = hexmap.line_of_sight(s, t, smoke=smoke, rules=rules)
    if not los.visible:
        raise ValueError(f"target: {t.label} is not in the line of sight of spotter {s.label} "
                         f"(blocked by {los.blocked_by.label}); the spotting round must be placed in LOS")
    rng = hexmap.distance(s, t)
    total = los.hindrance + extra
    return RequestGeometry(s, t, rng, total, rng + total)


def deck_state(deck, rules=None) -> DeckState | None:
    """None for independent 2d6; else the DeckState of "fresh", a FateDeck or a DeckState.

    Parameters
    ----------
    deck : "independent", "fresh", FateDeck or DeckState
    rules : Rules, optional
        Copies per pair for ``"fresh"``; the packaged defaults if omitted.

    Returns
    -------
    DeckState or None

    Raises
    ------
    ValueError
        If ``deck`` is a string other than the two modes.
    TypeError
        If ``deck`` is of another type.
    """
    if isinstance(deck, str):
        if deck == "independent":
            return None
        if deck == "fresh":
            return DeckState.fresh(rules)
        raise ValueError(f"deck: {v.shown(deck)} is not a deck mode; allowed: 'independent', 'fresh', a FateDeck "
                         f"or a DeckState")
    if isinstance(deck, FateDeck):
        return deck.state()
    if isinstance(deck, DeckState):
        return deck
    raise TypeError(f"deck: expected 'independent', 'fresh', a FateDeck or a DeckState, "
                    f"got {type(deck).__name__}")
