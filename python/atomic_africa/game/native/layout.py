"""Between Python objects and the native engine's arrays and event records, read from :mod:`.schema`.

:func:`unit_templates` lays the initial ``Unit`` slots out as the kernel's unit rows;
:func:`decode_records` turns the kernel's event records back into the dicts ``Game`` logs.
"""
from __future__ import annotations

import numpy as np

from ...enums import Action, Posture
from ..schema import END_REASONS, EVENTS, FIELD_KINDS, NO_CARD, UNIT_FIELDS, native_rows

__all__ = ["unit_templates", "decode_records"]

_DTYPES = {"i8": np.int8, "i32": np.int32, "f64": np.float64}


def unit_templates(units, C: int) -> dict:
    """The unit slots at the start of a game, in the kernel's field-major layout.

    Parameters
    ----------
    units : sequence of Unit
        Every slot (``2 * C``), as ``Game`` sets them up.
    C : int
        Slots per side.

    Returns
    -------
    dict
        ``tmpl_i8``, ``tmpl_i32``, ``tmpl_f64``: flat arrays of (rows, 2 * C).
    """
    out = {}
    for storage, dtype in _DTYPES.items():
        rows = native_rows(storage)
        a = np.zeros((len(rows), 2 * C), dtype=dtype)
        uids = [u.uid for u in units]
        for r, _, f in rows:
            if f.py_type is None:
                a[r] = f.default
            elif f.rows > 1:
                a[r, uids] = [getattr(u, f.name)[r - f.row] for u in units]
            else:
                a[r, uids] = [getattr(u, f.name) for u in units]
        out[storage] = a
    # A live slot's name is its side's k-th scenario unit, no "/b" yet (empty slots keep -1).
    base = out["i32"][next(f.row for f in UNIT_FIELDS if f.name == "name_base")]
    counters = [0, 0]
    for u in units:
        if u.alive:
            base[u.uid] = counters[u.side]
            counters[u.side] += 1
    return {f"tmpl_{s}": a.ravel() for s, a in out.items()}


def decode_records(records, scenario, deck, C: int, game_seed: int) -> list:
    """Native event records -> the event dicts ``Game`` logs.

    Parameters
    ----------
    records : ndarray of float64
        Concatenated records ``(code, turn, n, n values)`` of one game.
    scenario : Scenario
    deck : Deck
    C : int
        Slots per side.
    game_seed : int or None
        The game's seed (the setup event's ``seed``; None in a player's view, which hides it).

    Returns
    -------
    list of dict

    Raises
    ------
    ValueError
        If a record's code is not an event code or the record does not hold the values
        :data:`schema.EVENTS` declares for its type.
    """
    vals = np.asarray(records).tolist()
    out, pos = [], 0
    while pos < len(vals):
        code, turn, n = int(vals[pos]), int(vals[pos + 1]), int(vals[pos + 2])
        x = vals[pos + 3:pos + 3 + n]
        pos += 3 + n
        if not 0 <= code < len(_PLAN):
            raise ValueError(f"event record code {code}: not an event code; allowed 0..{len(_PLAN) - 1}")
        t, plan = _PLAN[code]
        fixed, rest = _WIDTHS[code]
        if n < fixed or n > fixed and not rest:
            raise ValueError(f"event record {t!r}: {n} values, the schema declares "
                             f"{fixed}{' or more' if rest else ''}")
        e = {"type": t, "turn": turn}
        assets, at = {}, 0
        for f, width, plain_int in plan:
            if plain_int:  # most fields: one int, always there
                e[f.name] = int(x[at])
                at += 1
                continue
            if width is None:
                width = n - at
            r = x[at:at + width]
            at += width
            if f.present == "nonzero" and not r[0] or f.present == "nonnegative" and r[0] < 0 \
                    or f.present.startswith("with:") and f.present[5:] not in e:
                continue
            if f.kind == "asset":  # asset_dice fields read it again
                assets[f.name] = scenario.sides[e[f.ref] // C].fire_support[int(r[0])]
            e[f.name] = _value(f, r, e, assets, scenario, deck, C, game_seed)
        out.append(e)
    return out


def _width(f):
    """Record values field ``f`` takes (None: the rest of the record)."""
    w = FIELD_KINDS[f.kind][0]
    return {"size": f.size, "1 + size": 1 + f.size, "rest": None}.get(w, w)


# Per event code: its type and (field, record values it takes, a plain always-present int).
_PLAN = [(t, tuple((f, _width(f), f.kind == "int" and f.present == "always") for f in fields))
         for t, fields in EVENTS]
# Per event code: (record values of its fixed-width fields, whether a trailing list takes the rest).
_WIDTHS = [(sum(w or 0 for _, w, _ in plan), any(w is None for _, w, _ in plan)) for _, plan in _PLAN]


def _value(f, r, e, assets, scenario, deck, C, game_seed):
    k = f.kind
    if k == "int":
        return int(r[0])
    if k == "bool":
        return bool(r[0])
    if k == "float":
        return r[0]
    if k == "card":   # NO_CARD: a card hidden from a player (aa_game_player_events)
        return NO_CARD if int(r[0]) == NO_CARD else deck.name(int(r[0]))
    if k == "action":
        return Action(int(r[0])).name
    if k == "posture":
        return Posture(int(r[0])).name
    if k == "opt_int":
        return None if r[0] < 0 else int(r[0])
    if k == "point":
        return [r[0], r[1]]
    if k in ("ints", "int_rest"):
        return [int(a) for a in r]
    if k == "counted":
        return [int(a) for a in r[1:1 + int(r[0])]]
    if k == "unit_name":
        return scenario.sides[e[f.ref] // C].units[int(r[0])].name + "/b" * int(r[1])
    if k == "asset":
        return assets[f.name].name
    if k == "asset_dice":
        return list(assets[f.ref].dice)
    if k == "feature_name":
        return scenario.terrain[e[f.ref]].name
    if k == "reason":
        return END_REASONS[int(r[0])].text
    if k == "const":
        return f.value
    if k == "scenario":
        return scenario.name
    if k == "game_seed":
        return game_seed
    if k == "slots":
        return C
    raise ValueError(f"event field {f.name!r}: unknown kind {k!r}; allowed {', '.join(FIELD_KINDS)}")

