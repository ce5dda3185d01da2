"""The event log: one JSON-able dict per event (cards, rolls with faces, scores, fire, moves ...).

Each event has ``type``, ``turn`` and event-specific fields; :func:`summarize` turns a turn's events
into the short text the ``battle`` command prints.
"""
from __future__ import annotations

from .schema import EVENTS

__all__ = ["EventLog", "summarize_turn", "EVENT_TYPES"]

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


def _is_unit(names, target) -> bool:
    # A heavy weapon aimed at a terrain feature has a target past the unit slots.
    if target is None or target < 0:
        return False
    return target in names if isinstance(names, dict) else target < len(names)


def summarize_turn(events, turn: int, names) -> list[str]:
    """Human-readable lines for the events of one turn.

    Parameters
    ----------
    events : iterable of dict
        An event log (e.g. ``game.events``).
    turn : int
        The turn to summarise.
    names : sequence or mapping
        ``names[uid]`` is the label of unit slot ``uid``.

    Returns
    -------
    list of str
    """
    lines = []
    for e in events:
        if e["turn"] != turn:
            continue
        t = e["type"]
        if t == "activate":
            lines.append(f"  phase: P{e['player']} activates {names[e['unit']]} ({e['card']})")
        elif t in ("react", "reserve_card"):
            lines.append(f"         P{e['player']} reacts with {names[e['unit']]} ({e['card']})")
        elif t == "confused":
            lines.append(f"         {names[e['unit']]} is confused ({e['card']})")
        elif t == "declare":
            lines.append(f"         {names[e['unit']]}: {e['action']} {e['posture']}")
        elif t == "targets" and _is_unit(names, e.get("target", -1)):
            aims = [names[e["target"]]] + ([names[e["target2"]]] if (e.get("target2") or -1) >= 0 else [])
            lines.append(f"           targets {' and '.join(aims)}")
        elif t == "feature_fire":
            lines.append(f"         {e['name']}: {e['wounds']} wounds, cover {e['cover'][0]} -> {e['cover'][1]}")
        elif t == "fire_result" and (e["markers"] or e["wounds"]):
            lines.append(f"         {names[e['target']]}: +{e['markers']} markers, +{e['wounds']} wounds")
        elif t == "rally":
            lines.append(f"         rally {names[e['unit']]} -> {names[e['target']]}: "
                         f"{'success' if e['success'] else 'failed'}")
        elif t == "merge":
            lines.append(f"         merge: {e['from_name']} joins {names[e['into']]}")
        elif t == "split":
            lines.append(f"  split: {names[e['unit']]} -> {e['figures']}")
        elif t == "removed":
            lines.append(f"  removed: {e['name']} ({e['figures']} figures)")
        elif t == "scatter":
            lines.append(f"         fire support lands at ({e['impact'][0]:.1f}, {e['impact'][1]:.1f})"
                         f"{' (direct hit)' if e['direct_hit'] else ''}")
    return lines
