"""The event log: one JSON-able dict per event (cards, rolls with faces, scores, fire, moves ...).

Each event has ``type``, ``turn`` and event-specific fields; :class:`atomic_africa.replay.narrate.Narrator`
tells them in plain words.
"""
from __future__ import annotations

from .schema import EVENTS

__all__ = ["EventLog", "EVENT_TYPES"]

#: Every event type, in the native engine's code order (declared in :mod:`.schema`).
EVENT_TYPES = tuple(t for t, _ in EVENTS)


class EventLog(list):
    """A list of event dicts with an ``add`` helper."""

    def add(self, type_: str, turn: int, **fields) -> dict:
        """Append an event.

        Parameters
        ----------
        type_ : str
            Event type (one of :data:`EVENT_TYPES`; not checked).
        turn : int
            Turn number (0 for set-up).
        **fields
            Event-specific JSON-able values.

        Returns
        -------
        dict
            The appended event.
        """
        ev = {"type": type_, "turn": turn}
        ev.update(fields)
        self.append(ev)
        return ev

