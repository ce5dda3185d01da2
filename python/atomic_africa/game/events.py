"""The event log: one JSON-able dict per event (cards, rolls with faces, scores, fire, moves ...).

Each event has ``type``, ``turn`` and event-specific fields; :class:`atomic_africa.replay.narrate.Narrator`
tells them in plain words. The log holds everything, both players' hidden draws included; a player's
view of it (:func:`player_view`, ``game.events(player=p)``) hides what that player cannot know, as
:data:`atomic_africa.game.schema.HIDDEN` declares.
"""
from __future__ import annotations

import numpy as np

from .._validate import shown
from .schema import EVENT_FIELDS, EVENTS, HIDDEN, NO_CARD

__all__ = ["EventLog", "EVENT_TYPES", "check_player", "hide_event", "player_view"]

#: Every event type, in the native engine's code order (declared in :mod:`.schema`).
EVENT_TYPES = tuple(t for t, _ in EVENTS)

# The kind of each hidden field (schema.EVENTS), which says what its hidden value is.
_HIDDEN_KINDS = {t: tuple((h, next(f.kind for f in EVENT_FIELDS[t] if f.name == h.field)) for h in hs)
                 for t, hs in HIDDEN.items()}


def check_player(player, allow_none: bool = False):
    """``player`` as an int, 0 or 1 (or None, with ``allow_none``).

    Raises
    ------
    TypeError
        If ``player`` is not an integer (a bool is not) or, with ``allow_none``, None.
    ValueError
        If it is not 0 or 1.
    """
    allowed = "None, 0, 1" if allow_none else "0, 1"
    if player is None and allow_none:
        return None
    if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"player: expected {allowed.replace(', 1', ' or 1')}, got {type(player).__name__} "
                        f"{shown(player)}")
    if player not in (0, 1):
        raise ValueError(f"player: {shown(player)} is not a player; allowed {allowed}")
    return int(player)


def _hidden_value(kind: str, value):
    if kind == "game_seed":
        return None
    if isinstance(value, list):      # a deck or a hand: its size is known, not its cards
        return [NO_CARD] * len(value)
    return NO_CARD


def hide_event(event: dict, player: int) -> dict:
    """``event`` as ``player`` may know it (a new dict; ``event`` unchanged).

    Parameters
    ----------
    event : dict
        One event of the full log.
    player : int
        0 or 1 (not checked: see :func:`player_view`).

    Returns
    -------
    dict
        The same keys in the same order; the fields of :data:`~atomic_africa.game.schema.HIDDEN` that
        ``player`` may not know replaced: a card by :data:`~atomic_africa.game.schema.NO_CARD` (each
        card of a list), the seed by ``None``.
    """
    out = dict(event)
    for h, kind in _HIDDEN_KINDS.get(event["type"], ()):
        if h.field in out and (h.known_to == "nobody" or out.get("player") != player):
            out[h.field] = _hidden_value(kind, out[h.field])
    return out


def player_view(events, player) -> list:
    """The events as ``player`` may know them (:func:`hide_event` of each, in order).

    Parameters
    ----------
    events : iterable of dict
        Events of the full log (``Game.events`` or a slice of it).
    player : int
        0 or 1.

    Returns
    -------
    list of dict
        New dicts; ``events`` is unchanged.

    Raises
    ------
    TypeError
        If ``player`` is not an integer.
    ValueError
        If ``player`` is not 0 or 1.
    """
    player = check_player(player)
    return [hide_event(e, player) for e in events]


class EventLog(list):
    """A list of event dicts with an ``add`` helper; calling it gives a player's view.

    ``log(player=p)`` is :func:`player_view` of the log (``log(player=None)``: a copy of the full list),
    so ``game.events`` is the full log and ``game.events(player=0)`` what player 0 may know of it.
    """

    def __call__(self, player=None) -> list:
        """The log as ``player`` may know it.

        Parameters
        ----------
        player : {None, 0, 1}
            ``None``: every event as logged (a new list of the same dicts); 0 or 1: that player's
            view, the fields of :data:`~atomic_africa.game.schema.HIDDEN` it may not know hidden
            (new dicts).

        Returns
        -------
        list of dict

        Raises
        ------
        TypeError
            If ``player`` is neither None nor an integer.
        ValueError
            If ``player`` is not None, 0 or 1.
        """
        player = check_player(player, allow_none=True)
        return list(self) if player is None else [hide_event(e, player) for e in self]

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
