"""Observations: what one player may see, as a flat float32 vector (its layout: the sizes and scales
both engines share; the C core's ``aa_observe`` encodes it, the reference engine's twin encoder is
``atomic_africa.reference.game.observe``).

Hidden: the opponent's hand/Reserve and face-down order cards (only "has a card" shows), and both
decks' order. Everything on the table (positions, markers, wounds, revealed cards, declarations, the
terrain features' current cover, last in the vector) shows.
"""
from __future__ import annotations

from .schema import UNIT_OBSERVATION
from .state import Stage

__all__ = ["observation_size", "UNIT_FEATURES", "SCALE", "COVER_SCALE"]

#: Observation floats per unit slot: the entries of :data:`~atomic_africa.game.schema.UNIT_OBSERVATION`
#: (the native engine's UNIT_FEATURES).
UNIT_FEATURES = len(UNIT_OBSERVATION)

#: Divisor of a terrain feature's current cover (0 none, 1 light, 2 heavy).
COVER_SCALE = 2

#: The divisors of the scaled counts, by the count_limits entry that bounds them (else the field),
#: from :data:`~atomic_africa.game.schema.UNIT_OBSERVATION` (and the terrain's cover). The native
#: ``observe`` divides by the same ones (``SCALE_DIV`` in ``src/aa_core/csrc/aa_observe.c``; the parity tests hold the
#: two encoders equal bit for bit).
SCALE = {**{f.limit or f.source: f.scale for f in UNIT_OBSERVATION if f.encoding == "count"}, "cover": COVER_SCALE}


def observation_size(game) -> int:
    """Length of the observation vector for ``game`` (fixed per scenario and rules).

    Parameters
    ----------
    game : Game

    Returns
    -------
    int
    """
    return 1 + Stage.COUNT + 8 + game.deck.size + 2 * game.C * UNIT_FEATURES + len(game.scenario.terrain)
