"""Matches with an outside policy, played on the native batch (:class:`~atomic_africa.game.VectorGame`).

Games are played in chunks of :data:`CHUNK` envs; chunk ``c`` of a match with seed ``S`` is a
VectorGame seeded ``SeedSequence(S, spawn_key=(c,))``'s first word, and its env ``j`` is the match's
game ``c * CHUNK + j``: it plays exactly one game (its first episode with a decision), so each game
depends only on ``S`` and its index. Each step calls the policy once with the rows of the games where
its side is to move, in the side-relative view (:class:`~atomic_africa.game.side_view.SideView`, the
environments' default: player 1 sees the table turned, own slots first), so a policy trained in the
environments plays either side in the frame it learned; its actions are mapped back to the engine's
ids. A built-in side is played by the engine's native agent
(:meth:`VectorGame.agent_actions`, the Python agent's twin), which draws only from its env's agent
stream.
"""
from __future__ import annotations

import numpy as np

from ..agents.native import agent_params
from ..game import VectorGame
from ..game.side_view import SideView
from ..selfplay.games import game_record, sides_of
from .entrants import Entrant, check_actions

__all__ = ["play_external", "CHUNK"]

#: Games per VectorGame; fixed, so that a game's seed never depends on how a run is split.
CHUNK = 64


def _chunk_seed(seed: int, chunk: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(1, np.uint64)[0])


def _policy_actions(entrant: Entrant, view: SideView, obs, masks, cur, rows) -> tuple:
    """(env indices, their checked engine actions) of the policy's rows; the policy sees and answers
    in ``view`` of the side to move (``cur``)."""
    idx = np.flatnonzero(rows)
    side = cur[idx]
    seen = view.action_mask(masks[idx], side)    # fresh arrays: the policy may write into them
    try:
        answer = entrant.policy(view.observation(obs[idx], side), seen.copy())
    except Exception as exc:
        raise ValueError(f"policy {entrant.name!r} raised {type(exc).__name__}: {exc}") from exc
    return idx, view.action_to_engine(check_actions(answer, seen, entrant.name), side)


def play_external(entrants, n_games: int, seed: int, *, scenario=None, rules=None,
                  alternate: bool = True) -> list:
    """Play ``n_games`` between entrants A and B where at least one is an outside policy.

    Parameters
    ----------
    entrants : (Entrant, Entrant)
        A and B.
    n_games : int
    seed : int
        The match seed (non-negative).
    scenario, rules
        As for :class:`~atomic_africa.game.VectorGame`.
    alternate : bool
        A plays side ``i % 2`` of game ``i`` (else side 0), as :func:`atomic_africa.selfplay.play_games`.

    Returns
    -------
    list of dict
        One record per game, keyed by :data:`atomic_africa.selfplay.COLUMNS`; ``seed`` is the game
        seed (``Game(scenario, seed)`` replays the game's dice).

    Raises
    ------
    ValueError, TypeError
        If a policy raises, or returns a wrong shape, dtype or an illegal action (naming it).
    """
    records = []
    for c, lo in enumerate(range(0, n_games, CHUNK)):
        m = min(CHUNK, n_games - lo)
        records += _play_chunk(entrants, range(lo, lo + m), _chunk_seed(seed, c), scenario, rules, alternate)
    return records


def _play_chunk(entrants, games, vg_seed, scenario, rules, alternate) -> list:
    m = len(games)
    vg = VectorGame(scenario, m, vg_seed, rules=rules, record_events=True)
    vg.agent_params = agent_params()            # the Python agents' defaults
    view = SideView(vg.spec)                    # what an outside policy sees: the relative view
    a_side = np.array([g % 2 if alternate else 0 for g in games], dtype=np.int8)
    side_of = (a_side, 1 - a_side)              # side of A, side of B in each env
    seeds = vg.episode_seeds
    done = np.zeros(m, dtype=bool)
    decisions = np.zeros(m, dtype=np.int64)
    records = [None] * m
    obs = vg.observations()
    while not done.all():
        cur = vg.current_player
        masks = vg.action_masks()
        actions = np.zeros(m, dtype=np.int64)
        for entrant, side in zip(entrants, side_of):
            rows = ~done & (cur == side)
            if not rows.any():
                continue
            if entrant.builtin:
                actions[rows] = vg.agent_actions(entrant.name, active=rows)[rows]
            else:
                idx, chosen = _policy_actions(entrant, view, obs, masks, cur, rows)
                actions[idx] = chosen
        obs, _, term, _, _ = vg.step(actions, active=~done)
        decisions[~done] += 1
        for j in np.flatnonzero(term).tolist():
            over = next(e for e in vg.events(j) if e["type"] == "game_over")
            done[j] = True
            side, names = sides_of((entrants[0].name, entrants[1].name), alternate, games[j])
            records[j] = game_record(games[j], int(seeds[j]), side, names, int(over["winner"]),
                                     over["reason"], int(over["turn"]), int(decisions[j]),
                                     [int(f) for f in over["figures"]])
    return records
