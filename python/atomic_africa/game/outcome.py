"""What a game's caller is told, whichever engine plays it: an illegal action, the outcome."""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["IllegalActionError", "GameResult"]


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class GameResult(NamedTuple):
    """Outcome: ``winner`` 0 or 1, or ``None`` for a draw; remaining figures per side."""

    winner: int | None
    reason: str
    figures: tuple
