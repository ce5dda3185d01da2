"""Compatibility: :class:`VectorGame` lives in :mod:`atomic_africa.game.vector`."""
from ..game.vector import DECISION_TRIES, VectorGame, no_decision_message

__all__ = ["VectorGame", "DECISION_TRIES", "no_decision_message"]
