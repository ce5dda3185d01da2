"""Matches with a game agent (:data:`.entrants.GAME_AGENTS`), played one :class:`~atomic_africa.game.Game`
at a time in this process.

Game ``i`` of a match with seed ``S`` is seeded as game ``i`` of a self-play run with root seed ``S``
(:func:`atomic_africa.selfplay.games.game_seeds`: the game seed and its two agents' seeds), so a game
depends only on ``S`` and its index. Every agent plays through ``act(game) -> int``: a built-in agent
is :func:`atomic_africa.agents.make_agent`'s (the native agent, on the game's own state), a game
agent is made by its maker, and an outside policy is called with one row in the side-relative view,
as in :mod:`.external`.
"""
from __future__ import annotations

import numpy as np

from ..agents import make_agent
from ..agents.learned import check_learned
from ..game import Game, GameSpec
from ..game.side_view import SideView
from ..selfplay.games import game_record, game_seeds, sides_of
from .entrants import Entrant
from .external import _policy_actions

__all__ = ["play_game_agents"]


class _PolicyPlayer:
    """An outside policy as ``act(game)``: one observation row, in the side-relative view."""

    def __init__(self, entrant: Entrant, spec: GameSpec, timeout):
        self.entrant, self.view, self.timeout = entrant, SideView(spec), timeout

    def act(self, game) -> int:
        side = game.current_player
        obs = game.observation(side)[None]
        masks = game.action_mask()[None]
        cur = np.array([side], dtype=np.int8)
        _, actions = _policy_actions(self.entrant, self.view, obs, masks, cur, np.ones(1, dtype=bool), self.timeout)
        return int(actions[0])


def _player(entrant: Entrant, seed: int, search: dict, spec: GameSpec, timeout, learned):
    if entrant.agent is not None:
        return entrant.agent(seed, search)
    if entrant.policy is not None:
        return _PolicyPlayer(entrant, spec, timeout)
    # network=learned: the league's one loaded network (check_learned passes a Learned through)
    return make_agent(entrant.name, seed, search=search, network=learned)


def play_game_agents(entrants, n_games: int, seed: int, *, scenario=None, rules=None, alternate: bool = True,
                     policy_timeout=None, search=None, learned=None) -> list:
    """Play ``n_games`` between entrants A and B, at least one of them a game agent.

    Parameters
    ----------
    entrants : (Entrant, Entrant)
        A and B.
    n_games : int
    seed : int
        The match seed (non-negative).
    scenario, rules
        As for :class:`~atomic_africa.game.Game`.
    alternate : bool
        A plays side ``i % 2`` of game ``i`` (else side 0).
    policy_timeout : float or None
        Seconds one call of an outside policy may take (:func:`.external.check_policy_timeout`).
    search : dict
        The search parameters, complete (:func:`atomic_africa.agents.search.check_search`): the
        ``"ismcts"`` agent's and, as far as they go, a searching game agent's.
    learned : Learned, optional
        The learned agents' network and search (:func:`atomic_africa.agents.learned.check_learned`;
        default: the packaged network).

    Returns
    -------
    list of dict
        One record per game, keyed by :data:`atomic_africa.selfplay.COLUMNS`.
    """
    spec = GameSpec.build(scenario, rules)
    learned = check_learned(learned)
    names = (entrants[0].name, entrants[1].name)
    records = []
    for i in range(n_games):
        game_seed, agent_seeds = game_seeds(seed, i)
        a_side, sides = sides_of(names, alternate, i)
        players = [None, None]
        for entrant, side in zip(entrants, (a_side, 1 - a_side)):
            players[side] = _player(entrant, agent_seeds[side], search, spec, policy_timeout, learned)
        g = Game(spec, game_seed)
        while not g.is_over:
            g.apply(players[g.current_player].act(g))
        r = g.result
        records.append(game_record(i, game_seed, a_side, sides, -1 if r.winner is None else r.winner, r.reason,
                                   g.s.turn, len(g.history), list(r.figures)))
    return records
