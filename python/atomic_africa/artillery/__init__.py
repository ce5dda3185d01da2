"""Hex-map Artillery Request (RULES.md section 8; the Russian seed 003, clauses O18-O18.2.3.1).

- :mod:`.hexmap`: the map, "G4" coordinates, neighbours, distance, compass directions, line of sight.
- :mod:`.fate`: the per-player Fate deck (72 cards: each (white, coloured) d6 pair twice).
- :mod:`.order`: Radios, Leaders, units, :func:`artillery_request` and its event log.
- :mod:`.odds`: exact landing distributions (independent 2d6 or drawing from a deck state).
- :mod:`.batch`: many requests at once in the ``aa_core.hexmap`` kernel.
"""
from .batch import ARTILLERY_CHUNK, RequestSample, landing_counts, resolve_requests, simulate_requests
from .fate import DeckState, FateCard, FateDeck
from .hexmap import Direction, Hex, HexMap, LineOfSight, hex_label, parse_hex
from .odds import LandingOdds, landing_distribution, two_card_odds
from .order import (
    Battlefield, Event, Leader, Option, OrderError, OrderResult, Radio, Unit, artillery_request,
    legal_options,
)

__all__ = [
    "HexMap", "Hex", "Direction", "LineOfSight", "parse_hex", "hex_label",
    "FateCard", "FateDeck", "DeckState",
    "Radio", "Unit", "Leader", "Battlefield", "Event", "Option", "OrderError", "OrderResult",
    "artillery_request", "legal_options",
    "LandingOdds", "landing_distribution", "two_card_odds",
    "simulate_requests", "resolve_requests", "landing_counts", "RequestSample", "ARTILLERY_CHUNK",
]
