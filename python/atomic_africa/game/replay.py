"""Replays: read a battle log / game JSON / self-play replays file, replay it to any step, and cut it
into frames (one per phase or per action) with a caption saying what happened.

Shared by the matplotlib pictures (:mod:`.render`) and the HTML replay (:mod:`.replay_html`).
"""
from __future__ import annotations

import json
from typing import NamedTuple

from .engine import Game
from .narrate import Narrator

__all__ = ["load_replay", "game_at", "last_phase_events", "Frame", "frames", "phase_lines", "caption",
           "FRAME_EVERY"]

#: Values of ``every`` in :func:`frames`.
FRAME_EVERY = ("phase", "action")
# An action that produces one of these events ends a phase-frame.
_PHASE_END = ("complete_move", "fire_result", "feature_fire", "turn_end", "game_over")


def load_replay(path, game: int = 0):
    """(scenario dict, rules dict, seed, actions) from a ``battle --log`` JSONL file, a game JSON, or
    game number ``game`` of a ``selfplay --replays`` file (one game JSON per line).

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
        If the file is none of these formats or ``game`` is out of range.
    OSError
        If the file cannot be read.
    """
    with open(path, encoding="utf-8") as fh:
        text = fh.read().strip()
    try:
        docs = [json.loads(text)]            # one document, possibly spread over several lines
    except json.JSONDecodeError:
        try:
            docs = [json.loads(x) for x in text.splitlines() if x.strip()]
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not a battle log, game JSON or replays file ({exc})") from None
    if not all(isinstance(d, dict) for d in docs) or not docs:
        raise ValueError(f"{path}: not a battle log, game JSON or replays file")
    if docs[0].get("type") == "header":
        if docs[-1].get("type") != "footer":
            raise ValueError(f"{path}: not a battle log (header/footer lines missing)")
        return docs[0]["scenario"], docs[0]["rules"], docs[0]["seed"], docs[-1]["actions"]
    if not 0 <= game < len(docs):
        raise ValueError(f"game: {game} is out of range; {path} holds {len(docs)} game(s)")
    d = docs[game]
    if d.get("format") != "atomic-africa-game/1":
        raise ValueError(f"{path}: neither a battle log nor a game JSON")
    return d["scenario"], d["rules"], d["seed"], d["history"]


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
    from .scenario import Scenario
    g = Game(Scenario.from_dict(scenario), seed, Rules.from_dict(rules))
    n = len(actions) if step is None else step
    if not 0 <= n <= len(actions):
        raise ValueError(f"step: {n} is out of range; allowed 0..{len(actions)}")
    for a in actions[:n]:
        g.apply(a)
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


class Frame(NamedTuple):
    """One picture of a replay: the game after ``step`` actions, the events since the previous
    frame (in log order) and the battle log's lines for them (plain words, see
    :class:`atomic_africa.game.narrate.Narrator`)."""

    step: int
    game: Game
    events: list
    lines: list


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
    narrator = Narrator(g)
    yield Frame(0, g, list(g.events), narrator.feed(g.events, g.units))
    since, lines = len(g.events), []
    for k, a in enumerate(actions, 1):
        n = len(g.events)
        g.apply(a)
        lines += narrator.feed(g.events[n:], g.units)
        if every == "action" or k == len(actions) or any(e["type"] in _PHASE_END for e in g.events[n:]):
            yield Frame(k, g, g.events[since:], lines)
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


def caption(game: Game, lines) -> str:
    """What a frame shows, for a picture's caption: turn and stage, then the battle log's lines.

    Parameters
    ----------
    game : Game
        The game at the frame.
    lines : sequence of str
        Battle log lines, e.g. :attr:`Frame.lines` or :func:`phase_lines`.

    Returns
    -------
    str
        Lines separated by newlines; the first is ``"Turn N, <stage>"`` (with the result once the
        game is over).
    """
    head = f"Turn {game.s.turn}, {game.stage.lower()}"
    if game.is_over:
        r = game.result
        winner = "draw" if r.winner is None else f"{game.scenario.sides[r.winner].name} wins"
        head += f": {winner} ({r.reason})"
    return "\n".join([head] + [x[2:] if x.startswith("  ") else x for x in lines])
