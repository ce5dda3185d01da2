"""Replays: read a battle log / game JSON / self-play replays file, replay it to any step, and cut it
into frames (one per phase or per action) with a caption saying what happened.

Shared by the matplotlib pictures (:mod:`atomic_africa.replay.render`) and the HTML replay
(:mod:`atomic_africa.replay.html`).
"""
from __future__ import annotations

import collections
import copy
import json
import os
from typing import NamedTuple

from .._input_limits import JSON_STRINGS, check_depth, named, open_bounded, size_text
from .._limits import MAX_JSON_BYTES, MAX_SKIPPED_LINE
from .._text import printable
from ..game import Game
from .narrate import Narrator

__all__ = ["load_replay", "game_at", "last_phase_events", "Frame", "frames", "phase_lines", "caption",
           "FRAME_EVERY", "PhaseUnits", "PhaseClock"]

#: Values of ``every`` in :func:`frames`.
FRAME_EVERY = ("phase", "action")
# An action that produces one of these events ends a phase-frame.
_PHASE_END = ("complete_move", "fire_result", "feature_fire", "turn_end", "game_over")


def load_replay(path, game: int = 0):
    """(scenario dict, rules dict, seed, actions) from a ``battle --log`` JSONL file, a game JSON, or
    game number ``game`` of a ``selfplay --replays`` file (one game JSON per line).

    The file is read line by line: a replays file's other games are skipped unparsed (so a file
    whose last line was cut short still gives its complete games, and a line longer than the limit
    is skipped too: the games after it stay readable), a battle log's events are not parsed (its
    header and footer hold the replay). A document larger than
    :data:`~atomic_africa._limits.MAX_JSON_BYTES` or nesting deeper than
    :data:`~atomic_africa._limits.MAX_DEPTH` levels is refused before it is parsed. A UTF-8
    byte-order mark before the first line is accepted.

    Parameters
    ----------
    path : str or PathLike
        The file to read.
    game : int
        Index of the game in a replays file (ignored for a battle log).

    Returns
    -------
    (dict, dict, int, list of int)
        Scenario dict, rules dict, seed and action ids; :func:`game_at` takes them.

    Raises
    ------
    ValueError
        If the file is none of these formats, lacks a field or has one of the wrong type (the
        message names the file, its line and the field), or ``game`` is out of range.
    OSError
        If the file cannot be read.
    """
    if isinstance(game, bool) or not isinstance(game, int) or game < 0:
        raise ValueError(f"game: expected an integer >= 0, got {game!r}")
    name = os.fspath(path)
    with open_bounded(path, _UNLIMITED, ValueError, "replay") as fh:
        lines = _lines(fh, name)
        first = next(lines, None)
        if first is None:
            raise ValueError(f"{name}: empty file; expected a battle log, game JSON or replays file")
        number, text = first
        if text is None:
            # an over-long first line: whatever the file is, game 0 cannot be read; a later game of a
            # replays file (one document a line) can
            if game == 0:
                raise _too_long(name, number)
            doc = {}
        else:
            doc = _parse(text, name, number, whole_file=False)
        if doc is None:
            # Not one document per line: a single (pretty-printed) game JSON, read whole.
            parts, size = [text], len(text)
            for _, more in lines:
                size += MAX_JSON_BYTES + 1 if more is None else len(more)
                if size > MAX_JSON_BYTES:
                    raise ValueError(f"{name}: a game JSON larger than {size_text(MAX_JSON_BYTES)}, the "
                                     "limit")
                parts.append(more)
            doc = _parse("".join(parts), name, None, whole_file=True)
            return _game_fields(doc, name, "")
        if doc.get("type") == "header":
            last = next(iter(collections.deque(lines, maxlen=1)), None)  # the final line, read once
            if last is not None and last[1] is None:
                raise _too_long(name, last[0])
            if last is None or not last[1].strip():
                raise ValueError(f"{name}: not a complete battle log (no footer line after the header)")
            footer = _parse(last[1], name, last[0], whole_file=False)
            if footer is None or footer.get("type") != "footer":
                raise ValueError(f"{name} line {last[0]}: not a battle log's footer; the log is "
                                 "incomplete")
            where = f" line {number}"
            return (_field(doc, "scenario", dict, name, where), _field(doc, "rules", dict, name, where),
                    _seed(doc, name, where), _actions(footer, "actions", name, f" line {last[0]}"))
        count = 1
        if game > 0:
            for number, text in lines:
                if count == game:
                    if text is None:
                        raise _too_long(name, number, game)
                    doc = _parse(text, name, number, whole_file=False)
                    if doc is None:
                        raise ValueError(f"{name} line {number}: game {game} is not complete JSON (a "
                                         "truncated file?); the games before it can be drawn")
                    break
                count += 1
            else:
                raise ValueError(f"game: {game} is out of range; {name} holds {count} game(s)")
        return _game_fields(doc, name, f" line {number}")


# The replay reader streams: a replays file has no size limit, each of its lines has MAX_JSON_BYTES.
_UNLIMITED = 1 << 62


def _lines(fh, name):
    """(line number, text) of the non-blank lines; a line longer than MAX_JSON_BYTES is skipped unread
    and given as ``(line number, None)``, so that the lines after it can still be read. A UTF-8
    byte-order mark before the first line is left out."""
    def readline():
        try:
            return fh.readline(MAX_JSON_BYTES + 1)
        except OSError as exc:
            raise named(exc, name) from None

    number = 0
    while True:
        raw = readline()
        if not raw:
            return
        number += 1
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if len(raw) > MAX_JSON_BYTES:
            yield number, None
            # read on only if the reader goes on past it: the rest of the line, a limit's worth at a
            # time, up to MAX_SKIPPED_LINE (/dev/zero has no line end)
            skipped = len(raw)
            while raw and not raw.endswith(b"\n"):
                if skipped > MAX_SKIPPED_LINE:
                    raise ValueError(f"{name} line {number}: no line end in {size_text(MAX_SKIPPED_LINE)}; not a "
                                     f"replays file")
                raw = readline()
                skipped += len(raw)
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{name} line {number}: not UTF-8 text (byte {exc.start})") from None
        if text.strip():
            yield number, text


def _too_long(name, number, game=None):
    what = "" if game is None else f"game {game} is "
    return ValueError(f"{name} line {number}: {what}longer than {size_text(MAX_JSON_BYTES)}, the limit for one "
                      f"document" + ("" if game is None else "; it was skipped (the other games can be read "
                                                            "with --game)"))


def _parse(text, name, number, whole_file):
    """The JSON object in ``text``; None if ``text`` is not complete JSON (and not ``whole_file``)."""
    where = f"{name}" if number is None else f"{name} line {number}"
    check_depth(text, JSON_STRINGS, ValueError, where)
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        if not whole_file:
            return None
        raise ValueError(f"{where}: not a battle log, game JSON or replays file ({exc})") from None
    except ValueError as exc:           # e.g. an integer of 5,000 digits
        raise ValueError(f"{where}: {exc}") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(doc).__name__}")
    return doc


def _game_fields(d, name, where):
    if d.get("format") != "atomic-africa-game/1":
        raise ValueError(f"{name}{where}: neither a battle log nor a game JSON (its 'format' is "
                         f"{printable(repr(d.get('format')))[:60]}, expected 'atomic-africa-game/1')")
    return (_field(d, "scenario", dict, name, where), _field(d, "rules", dict, name, where),
            _seed(d, name, where), _actions(d, "history", name, where))


def _field(d, key, kind, name, where):
    if key not in d:
        raise ValueError(f"{name}{where}: the field {key!r} is missing")
    if not isinstance(d[key], kind):
        raise ValueError(f"{name}{where}: {key}: expected {'an object' if kind is dict else 'a list'}, "
                         f"got {type(d[key]).__name__}")
    return d[key]


def _seed(d, name, where):
    seed = d.get("seed")
    if "seed" not in d:
        raise ValueError(f"{name}{where}: the field 'seed' is missing")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"{name}{where}: seed: expected a non-negative integer, got "
                         f"{printable(repr(seed))[:40]}")
    return seed


def _actions(d, key, name, where):
    actions = _field(d, key, list, name, where)
    for i, a in enumerate(actions):
        if isinstance(a, bool) or not isinstance(a, int):
            raise ValueError(f"{name}{where}: {key}[{i}]: expected an action id (integer), got "
                             f"{printable(repr(a))[:40]}")
    return actions


def game_at(scenario, rules, seed, actions, step=None) -> Game:
    """The game after the first ``step`` actions (all when None).

    Parameters
    ----------
    scenario, rules, seed, actions : dict, dict, int, sequence of int
        The replay, as returned by :func:`load_replay`: scenario and rules dicts, game seed, action ids.
    step : int, optional
        Number of actions to apply, ``0 <= step <= len(actions)``; all when None.

    Returns
    -------
    Game

    Raises
    ------
    ValueError
        If ``step`` is out of range (or the scenario/rules are invalid).
    IllegalActionError
        If an action is not legal when applied.
    """
    from ..rules import Rules
    from ..game.scenario import Scenario
    g = Game(Scenario.from_dict(scenario), seed, Rules.from_dict(rules))
    n = len(actions) if step is None else step
    if not 0 <= n <= len(actions):
        raise ValueError(f"step: {n} is out of range; allowed 0..{len(actions)}")
    for i, a in enumerate(actions[:n]):
        try:
            g.apply(a)
        except ValueError as exc:
            raise ValueError(f"replay action {i} (of {len(actions)}): {exc}") from None
    return g


def last_phase_events(game) -> list:
    """Events of the last Activation phase so far (the whole phase, even after its Clean-up), so
    that the final state of a game still shows the last moves and fire lines.

    Parameters
    ----------
    game : Game

    Returns
    -------
    list of dict
        From the last ``activate`` (or ``setup``) event to the end of the log.
    """
    out = []
    for e in reversed(game.events):
        out.append(e)
        if e["type"] in ("activate", "setup"):
            break
    return out[::-1]


class PhaseUnits:
    """Follows a game decision by decision and keeps the unit slots as they stood when the last
    Activation phase's fire was resolved.

    A frame drawn after a phase's Clean-up no longer has the units that Clean-up removed (nor the
    one a merge absorbed), and a split may reuse their slots: the shots of that phase still need
    their names, kinds, positions and the markers they had taken earlier in the turn (the turn's
    marker cap). ``units`` keeps copies of the slots from just before the decision that
    resolved the phase (``None`` until a phase is resolved).
    """

    def __init__(self):
        self.units = None

    def apply(self, game: Game, action: int) -> list:
        """Apply ``action`` to ``game``; returns the events it logged.

        Parameters
        ----------
        game : Game
        action : int
            A legal action id.

        Returns
        -------
        list of dict
        """
        before = [copy.copy(u) for u in game.units]
        n = len(game.events)
        game.apply(action)
        new = game.events[n:]
        # Every resolution rolls the dice of the phase's units: the phase was resolved by this action.
        if any(e["type"] == "roll" for e in new):
            self.units = before
        return new


class PhaseClock:
    """Follows a game decision by decision and names the phase each decision was taken in.

    The game's own turn and stage are those of the next decision: after the decision that ends a
    turn they already name the next turn's Orders, while the picture still shows the phase that
    just ended. ``label`` is ``(turn, words)`` of the last decision applied: ``"set-up"`` before
    any, ``"orders"``, ``"activation phase K"`` (K counted from 1 in each turn, as the battle log
    does), ``"clean-up"`` (a split decision), with ``" and clean-up"`` added when the decision also
    ran the turn's Clean-up.
    """

    def __init__(self):
        self.label = (1, "set-up")
        self._phase = 0

    def apply(self, game: Game, action: int, apply=None) -> list:
        """Apply ``action`` to ``game`` (through ``apply(game, action)`` if given, which must return
        the new events); returns the events it logged and updates ``label``.

        Parameters
        ----------
        game : Game
        action : int
            A legal action id.
        apply : callable, optional
            Applies the action and returns its events (e.g. :meth:`PhaseUnits.apply`).

        Returns
        -------
        list of dict
        """
        turn, stage = game.s.turn, game.stage
        if apply is None:
            n = len(game.events)
            game.apply(action)
            new = game.events[n:]
        else:
            new = apply(game, action)
        self._phase += sum(e["type"] == "activate" for e in new)
        if stage == "ORDERS":
            words = "orders"
        elif stage == "SPLIT":
            words = "clean-up"
        else:
            words = f"activation phase {self._phase}"
        ended = any(e["type"] == "turn_end" for e in new)
        if ended and stage != "SPLIT":
            words += " and clean-up"
        if ended:
            self._phase = 0
        self.label = (turn, words)
        return new


class Frame(NamedTuple):
    """One picture of a replay: the game after ``step`` actions, the events since the previous
    frame (in log order), the battle log's lines for them (plain words, see
    :class:`atomic_africa.replay.narrate.Narrator`), the unit slots as they stood when the
    last phase's fire was resolved (:class:`PhaseUnits`; ``None`` before the first phase) and
    ``label``, ``(turn, words)`` of the phase the frame shows: the one its last action was taken in
    (:class:`PhaseClock`; ``None``: the game's own turn and stage)."""

    step: int
    game: Game
    events: list
    lines: list
    phase_units: list | None = None
    label: tuple | None = None


def frames(scenario, rules, seed, actions, every: str = "phase"):
    """The initial state, then a frame per phase (or per action) of a replay.

    The game object is the same one, advanced in place: use each frame before asking for the next.

    Parameters
    ----------
    scenario, rules, seed, actions : dict, dict, int, sequence of int
        The replay, as returned by :func:`load_replay`: scenario and rules dicts, game seed, action ids.
    every : {"phase", "action"}
        ``"action"``: a frame after every action; ``"phase"``: after each action that completes a
        move, resolves fire (at units or terrain features), or ends a turn or the game (and after the
        last action).

    Yields
    ------
    Frame

    Raises
    ------
    ValueError
        If ``every`` is not one of :data:`FRAME_EVERY`.
    """
    if every not in FRAME_EVERY:
        raise ValueError(f"every: expected one of {', '.join(FRAME_EVERY)}, got {every!r}")
    g = game_at(scenario, rules, seed, actions, 0)
    narrator, phase, clock = Narrator(g), PhaseUnits(), PhaseClock()
    yield Frame(0, g, list(g.events), narrator.feed(g.events, g.units), None, clock.label)
    since, lines = len(g.events), []
    for k, a in enumerate(actions, 1):
        new = clock.apply(g, a, phase.apply)
        lines += narrator.feed(new, g.units)
        if every == "action" or k == len(actions) or any(e["type"] in _PHASE_END for e in new):
            yield Frame(k, g, g.events[since:], lines, phase.units, clock.label)
            since, lines = len(g.events), []


def phase_lines(scenario, rules, seed, actions, step=None) -> list:
    """The battle log's lines of the last Activation phase (or set-up) up to ``step`` actions.

    Parameters
    ----------
    scenario, rules, seed, actions
        As for :func:`frames`.
    step : int, optional
        Number of actions replayed (all when None).

    Returns
    -------
    list of str
    """
    n = len(actions) if step is None else step
    if not 0 <= n <= len(actions):
        raise ValueError(f"step: {n} is out of range; allowed 0..{len(actions)}")
    out = []
    for f in frames(scenario, rules, seed, actions[:n], "action"):
        out += f.lines
    start = max((i for i, x in enumerate(out) if x.lstrip().startswith(("Phase ", "Turn "))), default=0)
    return out[start:]


def caption(game: Game, lines, label=None) -> str:
    """What a frame shows, for a picture's caption: turn and phase, then the battle log's lines.

    Parameters
    ----------
    game : Game
        The game at the frame.
    lines : sequence of str
        Battle log lines, e.g. :attr:`Frame.lines` or :func:`phase_lines`.
    label : (int, str), optional
        Turn and words of the phase shown (:attr:`Frame.label`); default: the game's turn and the
        stage of its next decision.

    Returns
    -------
    str
        Lines separated by newlines; the first is ``"Turn N, <phase>"`` (with the result once the
        game is over).
    """
    turn, words = (game.s.turn, game.stage.lower()) if label is None else label
    head = f"Turn {turn}, {words}"
    if game.is_over:
        r = game.result
        winner = "draw" if r.winner is None else f"{printable(game.scenario.sides[r.winner].name)} wins"
        head += f": {winner} ({r.reason})"
    return "\n".join([head] + [printable(x[2:] if x.startswith("  ") else x) for x in lines])
