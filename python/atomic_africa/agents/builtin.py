"""The built-in agents of the product: each plays a :class:`~atomic_africa.game.Game` by asking the C
core's native agent of its name (``aa_agent_choose``) on the game's own state, with the agent's own
PCG64 stream and parameters.

They are the twins of the reference engine's Python agents (``atomic_africa.reference.game.agents``),
which the agent parity tests hold equal to them decision for decision; their constructors take the
same arguments with the same defaults (the native parameters' defaults are read from here:
:func:`atomic_africa.agents.native.agent_params`).
"""
from __future__ import annotations

import numpy as np

from .._seeding import seed_sequence
from ..game.native.agent_args import AGENT_KINDS
from ..game.native.single import pcg_words

__all__ = ["NativeAgent", "RandomAgent", "HeuristicAgent", "GreedyAgent", "DoctrineAgent", "play"]


class NativeAgent:
    """A built-in agent played by the C core: ``act(game)`` is native agent :attr:`name`'s choice.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        The agent's stream is ``PCG64(SeedSequence(seed))`` (``seed >= 0``); only the random agent
        and the search draw from it.
    """

    name = ""

    def __init__(self, seed=0):
        self.seed = seed
        self._words = pcg_words(np.random.PCG64(seed_sequence(seed)))

    def params(self) -> dict:
        """This agent's fields of the native agent parameters (none for the agents without any)."""
        return {}

    def _native_params(self) -> dict:
        from .native import agent_params
        got = getattr(self, "_full", None)
        if got is None:
            got = self._full = agent_params(self.params())
        return got

    def act(self, game) -> int:
        """The agent's action for the player to move.

        Parameters
        ----------
        game : Game
            A running game on the C core (:class:`atomic_africa.game.Game`).

        Returns
        -------
        int
            An action id of ``game.legal_actions()``.

        Raises
        ------
        ValueError
            If the game is over (or offers no legal action).
        TypeError
            If ``game`` is not a C-core game.
        """
        if not hasattr(game, "agent_action"):
            raise TypeError(f"game: the built-in agents play atomic_africa.game.Game (the C core), got "
                            f"{type(game).__module__}.{type(game).__name__}; the reference engine's agents are "
                            f"atomic_africa.reference.game.agents")
        if game.is_over:
            raise ValueError("game: over; an agent acts only in a running game")
        a = game.agent_action(AGENT_KINDS[self.name], self._words, self._native_params())
        if a < 0:
            raise ValueError("game: no legal action for the player to move")
        return a


class RandomAgent(NativeAgent):
    """Picks a uniformly random legal action: one die of as many sides as legal actions (no draw when
    one is legal), the legal actions in id order, on the agent's own PCG64 stream (side ``p``'s native
    random agent in a VectorGame's game of seed ``gs`` is ``RandomAgent(VectorGame.agent_seed(gs, p))``)."""

    name = "random"


class HeuristicAgent(NativeAgent):
    """One-step heuristics: strong cards to big units, fire at the closest enemy, advance into cover.
    Deterministic (``seed`` kept for a uniform interface)."""

    name = "heuristic"


class GreedyAgent(NativeAgent):
    """Exact odds: the action with the best expected wounds and markers dealt (RULES.md Table 5),
    rallies and cover valued by the parameters. Deterministic.

    Parameters
    ----------
    seed : int
        Kept for a uniform interface.
    wound_value, marker_value, rally_value, cover_value, reserve_value : float
        What a wound, a marker, a rallied marker, cover and a card kept in the Reserve are worth.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, wound_value: float = 3.0, marker_value: float = 1.0,
                 rally_value: float = 1.5, cover_value: float = 0.4, reserve_value: float = 3.0):
        super().__init__(seed)
        self.wound_value, self.marker_value = float(wound_value), float(marker_value)
        self.rally_value, self.cover_value = float(rally_value), float(cover_value)
        self.reserve_value = float(reserve_value)

    def params(self) -> dict:
        return {"wound_value": self.wound_value, "marker_value": self.marker_value, "rally_value": self.rally_value,
                "cover_value": self.cover_value, "reserve_value": self.reserve_value}


class DoctrineAgent(NativeAgent):
    """Scripted fire and movement: hold a stand-off distance, fire at the nearest enemy in view,
    suppress before advancing. Deterministic.

    Parameters
    ----------
    seed : int
        Kept for a uniform interface.
    standoff_cm : float
        The distance the agent's units keep from the enemy.
    """

    name = "doctrine"

    def __init__(self, seed: int = 0, standoff_cm: float = 30.0):
        super().__init__(seed)
        self.standoff_cm = float(standoff_cm)

    def params(self) -> dict:
        return {"standoff_cm": self.standoff_cm}


def play(game, agents, max_steps: int = 1_000_000):
    """Play ``game`` to the end with ``agents[player].act(game)``.

    Parameters
    ----------
    game : Game
        Played in place.
    agents : sequence or mapping of agents
        ``agents[0]`` and ``agents[1]``, each with an ``act(game) -> int`` method.
    max_steps : int
        Most decisions to apply before giving up.

    Returns
    -------
    Game
        The same ``game``, now over.

    Raises
    ------
    RuntimeError
        If the game has not ended after ``max_steps`` decisions.
    IllegalActionError
        If an agent returns an illegal action.
    """
    for _ in range(max_steps):
        if game.is_over:
            return game
        game.apply(agents[game.current_player].act(game))
    if game.is_over:
        return game
    raise RuntimeError(f"max_steps: the game did not end within {max_steps:,} decisions (it stopped at turn "
                       f"{game.s.turn}, stage {game.stage}); allowed a larger max_steps (the default is 1,000,000)")
