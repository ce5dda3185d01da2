"""Playing Atomic Africa yourself: against the AI (a level, or a built-in agent), or against a second
person at the same screen, in the browser (``atomic-africa play``) or in a terminal (``atomic-africa play --text``).

- :mod:`.choices`: each legal action of the game as a choice in words, with the exact odds of every
  fire choice, driven by the game's own legal actions and descriptions;
- :mod:`.session`: :class:`PlaySession`, the game between people and agents, its battle log as the
  people at the screen may see it, undo, the hot-seat handover, and the game saved after every
  decision (resumable);
- :mod:`.ruler`: range band and line of sight between two points of the table, by the engine;
- :mod:`.server`: :class:`PlayServer`, the page and its JSON API on 127.0.0.1, behind a random token;
- :mod:`.page`: the page itself;
- :mod:`.text`: the same game in a terminal.
"""
from __future__ import annotations

from .choices import legal_choices, prompt
from .session import PLAYERS, PlayError, PlaySession

__all__ = ["PlaySession", "PlayError", "PLAYERS", "legal_choices", "prompt"]
