"""The search agent: information-set Monte Carlo tree search in the native engine.

:class:`ISMCTSAgent` (``"ismcts"``) plans over determinizations (``Game.determinize``): each of its
simulations copies the game, resamples what the player to move cannot see (fresh dice, the
opponent's unseen cards dealt again), walks a tree of that player's information set by UCT, adds one
node and plays on with a built-in rollout agent. The search runs in C (``aa_agent_ismcts.c``; the
C API's ``AA_AGENT_ISMCTS``); this class runs it on a :class:`~atomic_africa.game.Game`'s own native
state, or, for a reference-engine game (tests), on a one-game native mirror of it kept in step with
the game's history.
"""
from __future__ import annotations

from .builtin import (ROLLOUT_AGENTS, SEARCH_AGENTS, SEARCH_PARAMS, ISMCTSAgent, check_search, constructor_defaults,
                      search_overrides)

__all__ = ["ISMCTSAgent", "ROLLOUT_AGENTS", "SEARCH_PARAMS", "SEARCH_AGENTS", "constructor_defaults",
           "check_search", "search_overrides"]
