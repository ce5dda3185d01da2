"""One game in each env of a :class:`~atomic_africa.game.VectorGame` between two sides, each a native
built-in agent, a learned agent (``"puct"``, ``"network"``: one batched search or network call per
step for every env where it is to move) or an outside policy (through a callback the league gives).

The league's matches with an outside policy or a learned agent and self-play runs with a learned
agent both play here, so the two give the same games for the same seeds.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..agents.native import agent_params
from .records import game_record, sides_of

__all__ = ["Side", "play_vector"]


class Side(NamedTuple):
    """A side of :func:`play_vector`: an agent's name and, for an outside policy, the policy."""

    name: str
    policy: object = None


def play_vector(vg, entrants, games, alternate: bool, *, overrides=None, learned=None, actions=None,
                policy_actions=None) -> list:
    """Play one game in each env of ``vg`` (made with ``record_events=True``) between sides A and B.

    Parameters
    ----------
    vg : VectorGame
    entrants : (Side, Side)
        Anything with ``name`` and ``policy`` (None for an agent of this package), e.g. the league's
        entrants.
    games : sequence of int
        The game index of each env (its record's ``game``; A's side is ``index % 2`` with ``alternate``).
    alternate : bool
    overrides : dict, optional
        Native agent parameters (the search's, :func:`~atomic_africa.agents.search.search_overrides`).
    learned : Learned, optional
        The learned agents' settings (default: the packaged network, the search's defaults).
    actions : list of list, optional
        One empty list per env, to which each env's actions are appended (a replay's).
    policy_actions : callable, optional
        ``policy_actions(entrant, observations, masks, current_player, rows) -> (envs, actions)`` for a
        side with a policy (needed only when a side has one).

    Returns
    -------
    list of dict
        One record per env, in env order (:data:`atomic_africa.selfplay.COLUMNS`).
    """
    from ..agents.learned import LEARNED_AGENTS, check_learned, learned_actions

    m = len(games)
    vg.agent_params = agent_params(overrides)   # the Python agents' defaults, the search's as given
    a_side = np.array([g % 2 if alternate else 0 for g in games], dtype=np.int8)
    side_of = (a_side, 1 - a_side)              # side of A, side of B in each env
    seeds = vg.episode_seeds
    cur = vg.current_player
    done = cur < 0                              # a game over before its first decision
    decisions = np.zeros(m, dtype=np.int64)
    records = [None] * m
    for j in np.flatnonzero(done).tolist():
        records[j] = _record(vg, j, entrants, alternate, games[j], seeds, 0)
    if any(e.policy is None and e.name in LEARNED_AGENTS for e in entrants):
        learned = check_learned(learned)
    obs = vg.observations() if not done.all() else None
    while not done.all():
        cur = vg.current_player
        masks = vg.action_masks()
        moves = np.zeros(m, dtype=np.int64)
        for entrant, side in zip(entrants, side_of):
            rows = ~done & (cur == side)
            if not rows.any():
                continue
            if entrant.policy is not None:
                idx, chosen = policy_actions(entrant, obs, masks, cur, rows)
                moves[idx] = chosen
            elif entrant.name in LEARNED_AGENTS:
                idx, chosen = learned_actions(entrant.name, vg, learned, rows)
                moves[idx] = chosen
            else:
                moves[rows] = vg.agent_actions(entrant.name, active=rows)[rows]
        if actions is not None:
            for j in np.flatnonzero(~done).tolist():
                actions[j].append(int(moves[j]))
        obs, _, term, _, _ = vg.step(moves, active=~done)
        decisions[~done] += 1
        for j in np.flatnonzero(term).tolist():
            done[j] = True
            records[j] = _record(vg, j, entrants, alternate, games[j], seeds, int(decisions[j]))
    return records


def _record(vg, j, entrants, alternate, index, seeds, decisions) -> dict:
    over = next(e for e in vg.events(j) if e["type"] == "game_over")
    side, names = sides_of((entrants[0].name, entrants[1].name), alternate, index)
    return game_record(index, int(seeds[j]), side, names, int(over["winner"]), over["reason"], int(over["turn"]),
                       decisions, [int(f) for f in over["figures"]])
