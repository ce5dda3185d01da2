"""Saved games (the text of :meth:`Game.to_json <atomic_africa.game.Game.to_json>`): read with a bounded
size and nesting, every field checked against the game's spec before the engine sees it.

:func:`read_saved_game` refuses a text longer than :data:`MAX_TEXT` characters or nested deeper than
:data:`MAX_DEPTH` before parsing it, then checks each field :meth:`Game.from_json` uses: its type, its
range against the scenario and rules saved with it (card ids ``< deck size``, unit ids ``< 2 C``,
stages, counts, coordinates on the table) and the lengths of its lists. A unit's fields are checked
against their bounds in :data:`~atomic_africa.game.schema.UNIT_FIELDS`, every field of the schema's
``Unit`` (an empty slot may also hold the field's default). Every problem raises
:class:`SavedGameError` (a ValueError) naming the field's path, e.g.
``text.state.players[0].hand[2]: 1000000 is out of range; allowed 0..53``.
"""
from __future__ import annotations

import json
from dataclasses import fields

from .._fields import Fields
from .._input_limits import JSON_STRINGS, check_depth
from .._limits import MAX_COUNT, MAX_JSON_BYTES, MAX_NAME, MAX_SAVED_DEPTH, MAX_SPRINT_CM, MAX_VALUE
from .._seeding import stuck_state
from .._validate import shown
from ..rules import Rules
from .events import EVENT_TYPES
from .scenario import Scenario
from .schema import REQUIRED, SETS, UNIT_FIELDS, allowed, bound_terms
from .spec import GameSpec
from .state import GameState, PlayerState, Stage, Unit

__all__ = ["read_saved_game", "check_playable", "check_consistent", "check_replayed", "SavedGameError", "MAX_TEXT",
           "MAX_DEPTH", "FORMAT"]

#: The format tag :meth:`Game.to_json` writes.
FORMAT = "atomic-africa-game/1"
#: Longest saved game read, in characters (64 MiB, the limit of every JSON input): a 1,000-turn
#: battle's events fit many times over (a default battle of 6 turns is about 110 kB).
MAX_TEXT = MAX_JSON_BYTES
#: Deepest nesting of lists and tables read: a saved game needs 7 (a terrain polygon's point).
MAX_DEPTH = MAX_SAVED_DEPTH


class SavedGameError(ValueError):
    """A saved game is malformed or does not fit its own scenario and rules; the message names the field."""


_f = Fields(SavedGameError, "text")
_TOP = ("format", "scenario", "rules", "seed", "initial_figures", "state", "source", "events", "history")


def read_saved_game(text) -> tuple[dict, GameSpec]:
    """The parsed, checked saved game and the spec of its scenario and rules.

    Parameters
    ----------
    text : str, bytes or bytearray
        What :meth:`Game.to_json` wrote (bytes are read as UTF-8).

    Returns
    -------
    (dict, GameSpec)

    Raises
    ------
    SavedGameError
        If the text is longer than ``MAX_TEXT`` or nested deeper than ``MAX_DEPTH``, is not JSON, is
        not a saved game or a field is missing, of the wrong type or out of range (named).
    ScenarioError, RulesError
        If the saved scenario or rules are malformed (named).
    TypeError
        If ``text`` is not a str, bytes or bytearray.
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > 4 * MAX_TEXT:
            _too_long(len(text), "bytes")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SavedGameError(f"text: not UTF-8 ({e.reason} at byte {e.start})") from None
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str (JSON written by Game.to_json), got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        _too_long(len(text), "characters")
    text = text.removeprefix("\ufeff")       # a UTF-8 byte-order mark (editors write one) is accepted
    check_depth(text, JSON_STRINGS, SavedGameError, "text", limit=MAX_DEPTH)
    try:
        d = json.loads(text)
    except ValueError as e:  # JSONDecodeError, or an integer too long to convert
        raise SavedGameError(f"text: not JSON ({e})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise SavedGameError(f"text: not an atomic-africa game (format {FORMAT!r} expected)")
    _f.table("", d, _TOP)
    spec = GameSpec.build(Scenario.from_dict(d["scenario"]), Rules.from_dict(d["rules"]))
    _f.integer("seed", d["seed"], lo=0)
    _f.int_list("initial_figures", d["initial_figures"], lo=0, hi=MAX_COUNT, length=2)
    _state(d["state"], spec)
    _source(d["source"], "source", spec)
    _events(d["events"])
    _f.int_list("history", d["history"], lo=0, hi=spec.num_actions - 1, max_length=len(text))
    return d, spec


def check_playable(game):
    """``game`` if it keeps the engine's conservation laws (:meth:`Game.check_invariants`: every card
    in one place, figures accounted for, units on the table) and its legal actions can be listed and
    lie in its action space, else SavedGameError.

    The last check of a loaded game: field checks cannot see every inconsistency between fields
    (a stage whose unit has no card, ...), so the engine is asked once, here, rather than failing
    later with an error that names nothing.
    """
    try:
        game.check_invariants()
    except AssertionError as e:
        raise SavedGameError(f"text.state: breaks a conservation law of the game ({e})") from None
    try:
        legal = game.legal_actions()
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RuntimeError) as e:
        raise SavedGameError(f"text.state: not a state the game can continue from "
                             f"({type(e).__name__}: {e})") from None
    n = game.spec.num_actions
    if any(not 0 <= a < n for a in legal):
        raise SavedGameError(f"text.state: not a state the game can continue from (it offers actions "
                             f"outside 0..{n - 1})")
    return game


def check_consistent(d: dict) -> None:
    """Refuse a saved game whose fields contradict each other (run after the field checks of
    :func:`read_saved_game`): a winner, an end reason or no player to move while the game runs, or
    a game over without them.

    Raises
    ------
    SavedGameError
        Naming the field, the one it contradicts and the allowed values.
    """
    from .schema import END_REASONS
    s = d["state"]
    stage = s["stage"]
    if stage != Stage.OVER:
        where = f"while the game runs (text.state.stage {stage}, {Stage.NAMES[stage]})"
        if s["winner"] != -2:
            _f.fail("state.winner", f"{s['winner']} {where}; allowed -2 until the game is over")
        if s["reason"] != "":
            _f.fail("state.reason", f"{shown(s['reason'])} {where}; allowed '' until the game is over")
        if s["current_player"] not in (0, 1):
            _f.fail("state.current_player", f"{s['current_player']} {where}; allowed 0, 1")
        return
    if s["winner"] == -2:
        _f.fail("state.winner", f"-2 (the game runs) but text.state.stage is {stage} (OVER); allowed -1 (a draw), "
                                f"0 or 1 once the game is over")
    if s["current_player"] != -1:
        _f.fail("state.current_player", f"{s['current_player']} once the game is over; allowed -1")
    reasons = [r.text for r in END_REASONS]
    if s["reason"] not in reasons:
        _f.fail("state.reason", f"{shown(s['reason'])} is not a reason a game ends; allowed: "
                                f"{', '.join(map(repr, reasons))}")


#: The parts of a saved game a replay of its history must reproduce, in the order they are compared.
_REPLAYED = ("initial_figures", "state", "source", "events")


def _first_difference(saved, replayed, path: str):
    """(path, saved value, replayed value) of the first place two JSON values differ, or None."""
    if isinstance(saved, dict) and isinstance(replayed, dict):
        for k in sorted(set(saved) | set(replayed), key=str):
            if k not in saved or k not in replayed:
                return (f"{path}.{k}", saved.get(k, "(missing)"), replayed.get(k, "(missing)"))
            found = _first_difference(saved[k], replayed[k], f"{path}.{k}")
            if found:
                return found
        return None
    if isinstance(saved, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(saved, replayed)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(saved) != len(replayed):
            return (path, f"{len(saved)} entries", f"{len(replayed)} entries")
        return None
    if saved == replayed and type(saved) is type(replayed) or (
            isinstance(saved, (int, float)) and isinstance(replayed, (int, float))
            and not isinstance(saved, bool) and not isinstance(replayed, bool) and saved == replayed):
        return None
    return (path, saved, replayed)


def check_replayed(d: dict, replayed: dict, origin: str) -> None:
    """Refuse a saved game ``d`` whose history did not lead to its state: ``replayed`` is the saved
    form (``json.loads(Game.to_json())``) of the game its history gives when replayed from the start
    (``origin`` names where the replay started, e.g. ``"text.source.seed 5"``).

    The initial figures, the state, the randomness source and the events must all be the same; a
    scripted source's fallback generator state is left out (its draws are replayed from the faces
    it gave).

    Raises
    ------
    SavedGameError
        Naming the first field that disagrees, with both values.
    """
    for key in _REPLAYED:
        saved, again = d[key], replayed[key]
        if key == "source" and saved.get("kind") == "scripted" and saved.get("fallback") is not None:
            saved = dict(saved, fallback=dict(saved["fallback"], state=None))
            again = dict(again, fallback=dict(again["fallback"], state=None))
        found = _first_difference(saved, again, key)
        if found:
            path, a, b = found
            a = a if isinstance(a, str) and a.endswith("entries") else shown(a)
            b = b if isinstance(b, str) and b.endswith("entries") else shown(b)
            _f.fail(path, f"{a} but replaying text.history ({len(d['history'])} actions) from {origin} gives {b}; "
                          f"the history did not lead to this state")


def _too_long(n: int, unit: str):
    raise SavedGameError(f"text: {n} {unit} is too long; a saved game is read up to {MAX_TEXT} "
                         f"characters ({MAX_TEXT // 2**20} MiB)")


# -- the game state --------------------------------------------------------------------------------
def _state(s, spec: GameSpec) -> None:
    _f.table("state", s, [f.name for f in fields(GameState)])
    U = 2 * spec.C
    uid = dict(lo=-1, hi=U - 1)
    sc = spec.scenario
    _f.integer("state.turn", s["turn"], lo=0, hi=sc.turns + 1)
    _f.integer("state.stage", s["stage"], lo=0, hi=Stage.COUNT - 1)
    for name in ("current_player", "first_player", "activating", "next_activating"):  # -1: game over
        _f.integer(f"state.{name}", s[name], lo=-1, hi=1)
    _f.integer("state.phase", s["phase"], lo=0, hi=MAX_VALUE)
    for name in ("act_uid", "react_uid", "decl_uid"):
        _f.integer(f"state.{name}", s[name], **uid)
    _f.int_list("state.pending", s["pending"], lo=0, hi=U - 1, max_length=U)
    _f.array("state.sprint_bonus", s["sprint_bonus"], "a list of numbers", max_length=U, kinds=list)
    for i, b in enumerate(s["sprint_bonus"]):
        _f.number(f"state.sprint_bonus[{i}]", b, lo=-MAX_SPRINT_CM, hi=MAX_SPRINT_CM)
    _f.integer("state.step", s["step"], lo=0, hi=2)
    _f.integer("state.winner", s["winner"], lo=-2, hi=1)
    _name("state.reason", s["reason"])
    units = _f.array("state.units", s["units"], f"a list of {U} units (2 x {spec.C} slots)", length=U,
                     kinds=list)
    terms = [bound_terms(spec, side) for side in (0, 1)]
    for i, u in enumerate(units):
        _unit(f"state.units[{i}]", u, {**terms[i // spec.C], "slot": i})
    players = _f.array("state.players", s["players"], "a list of 2 players", length=2, kinds=list)
    for p, pl in enumerate(players):
        _player(f"state.players[{p}]", pl, p, units, spec)
    _f.int_list("state.feature_cover", s["feature_cover"], lo=0, hi=2, length=len(sc.terrain))


def _unit(path: str, u, terms: dict) -> None:
    _f.table(path, u, [f.name for f in fields(Unit)])
    empty = not _f.boolean(f"{path}.alive", u["alive"])
    for f in UNIT_FIELDS:
        if f.py_type is not None:
            _field(f"{path}.{f.name}", u[f.name], f, allowed(f.bounds, terms), empty)


def _field(path: str, value, f, bounds, empty: bool) -> None:
    """One unit field of a saved game: its type (the schema's ``py_type``) and its bounds, which an
    empty slot widens to its default (its dice are 0, its figures none)."""
    if f.py_type is bool:
        _f.boolean(path, value)
    elif f.py_type is str:
        _name(path, value, bounds[1])
    elif f.py_type is list:
        _f.array(path, value, f"a list of {f.rows} {f.name}", length=f.rows, kinds=list)
        for j, x in enumerate(value):
            _number(f"{path}[{j}]", x, f, _widened(f, bounds, f.default[j]) if empty else bounds)
    else:
        _number(path, value, f, _widened(f, bounds, f.default) if empty else bounds)


def _widened(f, bounds, default):
    if default is REQUIRED:                            # uid, side: no default, the slot's own values
        return bounds
    if isinstance(f.bounds, str):                      # a set of values
        return tuple(sorted(set(bounds) | {default}))
    return (min(bounds[0], default), max(bounds[1], default))


def _number(path: str, value, f, bounds) -> None:
    """A number of a unit field within ``bounds``: a range, or the values of a set of schema.SETS."""
    if f.storage == "f64":
        _f.number(path, value, lo=bounds[0], hi=bounds[1])
    elif isinstance(f.bounds, str):
        _f.integer(path, value)
        if value not in bounds:
            _f.fail(path, f"{value} is not {SETS[f.bounds]}; allowed {', '.join(map(str, bounds))}")
    else:
        _f.integer(path, value, lo=bounds[0], hi=bounds[1])


def _player(path: str, pl, p: int, units: list, spec: GameSpec) -> None:
    _f.table(path, pl, [f.name for f in fields(PlayerState)])
    K = spec.deck.size
    seen = {}
    for pile in ("deck", "hand", "discard"):
        cards = _f.int_list(f"{path}.{pile}", pl[pile], lo=0, hi=K - 1, max_length=K)
        for j, c in enumerate(cards):
            _once(seen, c, f"{path}.{pile}[{j}]")
    for i in range(p * spec.C, (p + 1) * spec.C):
        if units[i]["card"] >= 0:
            _once(seen, units[i]["card"], f"state.units[{i}].card")
    _f.integer(f"{path}.removed_figures", pl["removed_figures"], lo=0, hi=MAX_COUNT)
    _f.integer(f"{path}.hidden_discards", pl["hidden_discards"], lo=0, hi=len(pl["discard"]))
    _f.boolean(f"{path}.reserve_no_any", pl["reserve_no_any"])


def _once(seen: dict, card: int, path: str) -> None:
    # A player's cards are one deck: each card is in one place (pile or unit) at most.
    if card in seen:
        _f.fail(path, f"card {card} is also at {_f.name(seen[card])}; a player holds each card once")
    seen[card] = path


def _name(path: str, value, longest: int = MAX_NAME) -> str:
    _f.string(path, value)
    if len(value) > longest:
        _f.fail(path, f"a string of {len(value)} characters; allowed at most {longest}")
    return value


# -- randomness, events ----------------------------------------------------------------------------
def _source(src, path: str, spec: GameSpec, fallback: bool = False) -> None:
    if not isinstance(src, dict):
        _f.expected(path, "a table", src)
    kind = _f.choice(f"{path}.kind", src.get("kind"), ("random",) if fallback else ("random", "scripted"))
    if kind == "random":
        _f.table(path, src, ("kind", "seed", "state"))
        _f.integer(f"{path}.seed", src["seed"], lo=0)
        st = _f.table(f"{path}.state", src["state"], ("bit_generator", "has_uint32", "state", "uinteger"))
        _f.choice(f"{path}.state.bit_generator", st["bit_generator"], ("PCG64",))
        _f.integer(f"{path}.state.has_uint32", st["has_uint32"], lo=0, hi=1)
        _f.integer(f"{path}.state.uinteger", st["uinteger"], lo=0, hi=2**32 - 1)
        inner = _f.table(f"{path}.state.state", st["state"], ("inc", "state"))
        for k in ("inc", "state"):
            _f.integer(f"{path}.state.state.{k}", inner[k], lo=0, hi=2**128 - 1)
        _check_not_stuck(st, f"{path}.state")
        return
    _f.table(path, src, ("kind", "dice", "decks", "rolled", "fallback"))
    _f.int_list(f"{path}.dice", src["dice"], lo=1, hi=max(spec.rules.dice.ladder + (
        spec.rules.call_for_fire.scatter_die,)))
    decks = _f.array(f"{path}.decks", src["decks"], "a list of card orders", kinds=list)
    for j, order in enumerate(decks):
        _f.int_list(f"{path}.decks[{j}]", order, lo=0, hi=spec.deck.size - 1, max_length=spec.deck.size)
    rolled = _f.array(f"{path}.rolled", src["rolled"], "a list of [sides, face] pairs", kinds=list)
    for j, pair in enumerate(rolled):
        _f.int_list(f"{path}.rolled[{j}]", pair, lo=1, length=2)
    if src["fallback"] is not None:
        _source(src["fallback"], f"{path}.fallback", spec, fallback=True)


def _check_not_stuck(state: dict, path: str) -> None:
    # An even PCG increment can repeat one value for ever: the dice would never stop rolling (the
    # rule of VectorGame's snapshot checker, written once in _seeding).
    problem = stuck_state(state, _f.name(path))
    if problem is not None:
        raise SavedGameError(problem)


def _events(events) -> None:
    _f.array("events", events, "a list of events", kinds=list)
    for i, ev in enumerate(events):
        p = f"events[{i}]"
        if not isinstance(ev, dict) or "type" not in ev or "turn" not in ev:
            _f.expected(p, "an event table with a type and a turn", ev)
        _f.choice(f"{p}.type", ev["type"], EVENT_TYPES)
        _f.integer(f"{p}.turn", ev["turn"], lo=0, hi=MAX_COUNT + 1)
