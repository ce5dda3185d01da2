"""The built-in agents played inside the native engine: whole games in batches, no Python per decision.

:func:`play_agent_games` plays many games between native agents (``"random"``, ``"heuristic"``,
``"greedy"``, ``"doctrine"``, ``"ismcts"``), each equal to the Python loop with
:func:`~atomic_africa.agents.make_agent` game for game; :func:`agent_params` gives the native agents'
parameters, whose defaults are the Python agent classes' constructor defaults.
"""
from __future__ import annotations

import numpy as np

from .. import _validate as v
from .._limits import MAX_ENVS
from ..game.native.agent_args import agent_kinds, seed_array
from ..game.native.vector import VectorGame
from .builtin import agent_params

__all__ = ["agent_params", "play_agent_games", "DEFAULT_BATCH"]

#: Games per native call of :func:`play_agent_games` (and envs of its engine) by default.
DEFAULT_BATCH = 1024


_resolve_params = agent_params   # play_agent_games' argument of the same name hides the function


def play_agent_games(spec, game_seeds, kinds, agent_seeds, *, agent_params=None, record_actions=False,
                     threads=1, batch=DEFAULT_BATCH) -> dict:
    """Play games between native agents to the end, ``batch`` games per native call.

    Game ``j`` equals the Python loop, decision for decision::

        g = Game(spec, game_seeds[j])
        agents = [make_agent(kinds[j][p], agent_seeds[j][p]) for p in (0, 1)]   # with agent_params
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))

    whatever ``batch`` and ``threads`` (a game over before its first decision is kept, with 0
    decisions). The whole games of a batch run in one native call with the GIL released.

    Parameters
    ----------
    spec : GameSpec, Scenario, path, dict or None
        The games' scenario and rules (as :class:`~atomic_africa.game.VectorGame` takes them).
    game_seeds : array_like of int, shape (m,)
        Game seeds, ``0 <= seed < 2**64``.
    kinds : array_like, shape (m, 2) or (2,)
        Agent of side 0 and of side 1 in each game (or one pair for all): names (``"random"``,
        ``"heuristic"``, ``"greedy"``, ``"doctrine"``, ``"ismcts"``) or codes (``game.native_agents.AGENT_KINDS``).
    agent_seeds : array_like of int, shape (m, 2)
        Seeds of side 0's and side 1's agent in each game (only ``"random"`` and ``"ismcts"`` draw).
    agent_params : dict, optional
        Some of the greedy, doctrine and ismcts agents' parameters (:func:`agent_params`); the rest
        keep the Python classes' defaults.
    record_actions : bool
        Also return each game's actions.
    threads : int
        OpenMP threads (results do not depend on it).
    batch : int
        Games per native call (``>= 1``; results do not depend on it).

    Returns
    -------
    dict of numpy arrays, each of length m, in game order
        ``winner`` (int8; -1 draw), ``reason`` (int8: index into
        ``atomic_africa.game.schema.END_REASONS``, whose ``text`` is ``Game.result.reason``),
        ``turns`` (int32: ``game.s.turn`` at the end), ``decisions`` (int64: ``len(game.history)``),
        ``figures`` (int32, shape (m, 2): ``Game.result.figures``) and, with ``record_actions``,
        ``actions`` (list of m int32 arrays: ``game.history``).

    Raises
    ------
    TypeError, ValueError
        On a bad argument (named, with the allowed values); nothing is played.
    MemoryError
        If ``batch`` games or the action lists do not fit in memory.
    """
    gs = seed_array(game_seeds, "game_seeds")
    m = gs.shape[0]
    seeds = seed_array(agent_seeds, "agent_seeds", (m, 2))
    agents = agent_kinds(kinds, "kinds", (m, 2))
    params = _resolve_params(agent_params)
    record = v.as_bool(record_actions, "record_actions")
    threads = v.as_threads(threads, "threads")
    batch = v.as_int(batch, "batch", lo=1, hi=MAX_ENVS)
    vg = VectorGame.from_games(spec, gs[:max(1, min(batch, m))] if m else [0], threads=threads)
    vg.agent_params = params
    out = {"winner": np.empty(m, np.int8), "reason": np.empty(m, np.int8), "turns": np.empty(m, np.int32),
           "decisions": np.empty(m, np.int64), "figures": np.empty((m, 2), np.int32)}
    actions = [] if record else None
    for lo in range(0, m, vg.num_envs):
        hi = min(m, lo + vg.num_envs)
        r = vg.play_games(gs[lo:hi], agents[lo:hi], seeds[lo:hi], record_actions=record)
        for k in out:
            out[k][lo:hi] = r[k]
        if record:
            actions.extend(r["actions"])
    if record:
        out["actions"] = actions
    return out
