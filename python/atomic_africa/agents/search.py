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

import inspect

import numpy as np

from .. import _validate as v
from .._limits import MAX_LEGAL, MAX_SIMULATIONS
from ..game.native.agent_args import AGENT_KINDS, AGENT_PARAM_FIELDS
from ..game.rng import RandomSource, seed_sequence

__all__ = ["ISMCTSAgent", "ROLLOUT_AGENTS", "SEARCH_PARAMS", "SEARCH_AGENTS", "constructor_defaults",
           "check_search", "search_overrides"]

#: The agents a search may roll out with (the built-in agents that do not search themselves).
ROLLOUT_AGENTS = ("random", "heuristic", "greedy", "doctrine")
#: The search parameters, by :class:`ISMCTSAgent`'s keyword names (its constructor's defaults apply).
SEARCH_PARAMS = ("simulations", "exploration", "rollout", "rollout_depth", "width")
#: The built-in agents that take the search parameters.
SEARCH_AGENTS = ("ismcts",)


class ISMCTSAgent:
    """Information-set MCTS over determinizations, native (single-observer ISMCTS, as OpenSpiel's
    ``ISMCTSBot``), with UCT and rollouts by a built-in agent.

    Its decision depends only on what the player to move may know (its copies are determinized for
    that player before anything is read), on its own random stream and on its parameters, never
    on the wall clock: the same seed in the same information set gives the same action.

    Parameters
    ----------
    seed : int
        The agent's stream is ``PCG64(SeedSequence(seed))`` (``seed >= 0``); each decision draws from
        it (a VectorGame's native ``"ismcts"`` agent on the same stream plays the same actions).
    simulations : int
        Simulations per decision, ``1..MAX_SIMULATIONS``.
    exploration : float
        The UCT constant (``>= 0``); rewards are in ``[0, 1]``.
    rollout : str
        The agent that plays on after the tree: one of :data:`ROLLOUT_AGENTS`.
    rollout_depth : int
        Rollout decisions at most, after which each side's share of the figures on the table is the
        reward (the turn limit's victory rule); 0 plays every rollout to the end of the game.
    width : int
        At each node the tree considers only the greedy agent's ``width`` best actions, expanded
        best first (its exact-odds values as a prior); 0 considers every legal action, the rollout
        agent's choice expanded first.

    Raises
    ------
    TypeError, ValueError
        On an argument outside those values.
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, simulations: int = 200, exploration: float = 0.7, rollout: str = "random",
                 rollout_depth: int = 0, width: int = 3):
        self.simulations = v.as_int(simulations, "simulations", lo=1, hi=MAX_SIMULATIONS)
        self.exploration = v.as_float(exploration, "exploration", lo=0.0)
        if not isinstance(rollout, str) or rollout.strip().lower() not in ROLLOUT_AGENTS:
            raise ValueError(f"rollout: {rollout!r} is not a rollout agent; allowed {', '.join(ROLLOUT_AGENTS)}")
        self.rollout = rollout.strip().lower()
        self.rollout_depth = v.as_int(rollout_depth, "rollout_depth", lo=0)
        self.width = v.as_int(width, "width", lo=0, hi=MAX_LEGAL)
        # the native stream's words (PCG64 state), carried from decision to decision
        self._words = _pcg_words(np.random.PCG64(seed_sequence(seed)))
        self._mirror = None   # (game seed, actions mirrored, VectorGame)

    def params(self) -> dict:
        """This agent's fields of the native agent parameters (``agent_params(...)`` overrides)."""
        return {"simulations": float(self.simulations), "exploration": float(self.exploration),
                "rollout": float(AGENT_KINDS[self.rollout]), "rollout_depth": float(self.rollout_depth),
                "width": float(self.width)}

    def act(self, game) -> int:
        """The searched action for the player to move.

        Parameters
        ----------
        game : Game
            A running game: an :class:`atomic_africa.game.Game`, or a reference-engine game played
            from its seed (``Game(spec, seed)`` and ``apply`` only: the native mirror replays its history).

        Returns
        -------
        int
            An action id of ``game.legal_actions()``.

        Raises
        ------
        ValueError
            If the game is over, or was not played from its seed (reseeded, determinized or scripted).
        """
        if game.is_over:
            raise ValueError("game: over; an agent acts only in a running game")
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if hasattr(game, "agent_action"):     # a C-core game: the search runs on its own state
            a = game.agent_action(AGENT_KINDS["ismcts"], self._words, self._native_params())
            if a not in legal:
                raise ValueError("game: the native search chose no legal action")
            return a
        vg = self._sync(game)
        side = game.current_player
        arrays = vg._engine.arrays["agent_rng"]
        arrays[0, side] = self._words
        a = int(vg.agent_actions(np.array([AGENT_KINDS["ismcts"]], dtype=np.int8))[0])
        self._words = arrays[0, side].copy()
        if a not in legal:   # the mirror and the game differ: never play an illegal action
            raise ValueError("game: its native mirror chose an illegal action; was it played from its seed?")
        return a

    def _native_params(self) -> dict:
        from .native import agent_params
        return agent_params(self.params())

    def _sync(self, game):
        """The native mirror of a reference-engine game (tests), kept in step with its history."""
        from ..game.native.vector import VectorGame

        if not isinstance(game.src, RandomSource) or game.src.seed != game.seed:
            raise ValueError("game: the search agent needs a game played from its seed (Game(spec, seed)); "
                             "this one's random source was replaced (reseed, determinize or a script)")
        hist = list(game.history)
        m = self._mirror
        if m is None or m[0] is not game.spec or m[1] != game.seed or hist[:len(m[2])] != m[2]:
            vg = VectorGame.from_games(game.spec, [game.seed])
            vg.agent_params = self._native_params()
            m = self._mirror = [game.spec, game.seed, [], vg]
        vg = m[3]
        for a in hist[len(m[2]):]:
            vg.step(np.array([a], dtype=np.int64), observe=False)
        m[2] = hist
        return vg


def check_search(search, name: str = "search") -> dict:
    """The search parameters ``search``, checked and completed with :class:`ISMCTSAgent`'s defaults.

    Parameters
    ----------
    search : dict or None
        Some of :data:`SEARCH_PARAMS` (``simulations``, ``exploration``, ``rollout`` as a name of
        :data:`ROLLOUT_AGENTS`, ``rollout_depth``, ``width``), as :class:`ISMCTSAgent` takes them; None: none.
    name : str
        The argument's name for error messages.

    Returns
    -------
    dict
        Every one of :data:`SEARCH_PARAMS`: ``simulations``, ``rollout_depth`` and ``width`` int,
        ``exploration`` float, ``rollout`` the lower-case name.

    Raises
    ------
    TypeError, ValueError
        On a ``search`` that is not a dict, an unknown key or a value :class:`ISMCTSAgent` refuses (the
        message names the parameter and what is allowed).
    """
    if search is None:
        search = {}
    if not isinstance(search, dict):
        raise TypeError(v.wrong_type(name, f"a dict with some of {', '.join(SEARCH_PARAMS)}", search))
    unknown = sorted((k for k in search if k not in SEARCH_PARAMS), key=str)
    if unknown:
        raise ValueError(f"{name}: unknown parameter {unknown[0]!r}; allowed {', '.join(SEARCH_PARAMS)}")
    agent = ISMCTSAgent(0, **search)   # its constructor is the one place the values are checked
    return {k: getattr(agent, k) for k in SEARCH_PARAMS}


def search_overrides(search) -> dict:
    """The native agent parameters (``agent_params(overrides)``) of the search parameters ``search``
    (:func:`check_search`), so that the native ``"ismcts"`` agent searches as ``ISMCTSAgent(seed,
    **search)`` does."""
    return ISMCTSAgent(0, **check_search(search)).params()


def constructor_defaults(*classes) -> dict:
    """The native agent parameters (``AGENT_PARAM_FIELDS``) that the constructors of ``classes`` take,
    at their defaults, as floats (a rollout agent's name as its native code)."""
    out = {}
    for cls in classes:
        for name, p in inspect.signature(cls.__init__).parameters.items():
            if name in AGENT_PARAM_FIELDS:
                out[name] = float(AGENT_KINDS[p.default] if name == "rollout" else p.default)
    return out


def _pcg_words(bg) -> np.ndarray:
    """The native engine's six PCG64 words of numpy bit generator ``bg``: state hi, lo, increment
    hi, lo, has_uint32, the buffered uint32 (``atomic_africa.game.native.snapshot.PCG_WORDS``)."""
    st = bg.state
    s, inc = int(st["state"]["state"]), int(st["state"]["inc"])
    m = (1 << 64) - 1
    return np.array([s >> 64, s & m, inc >> 64, inc & m, st["has_uint32"], st["uinteger"]], dtype=np.uint64)
