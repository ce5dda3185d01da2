"""The built-in agents of the product: each plays a :class:`~atomic_africa.game.Game` by asking the C
core's native agent of its name (``aa_agent_choose``) on the game's own state, with the agent's own
PCG64 stream and parameters.

They are the twins of the reference engine's Python agents (``atomic_africa.reference.game.agents``),
which the agent parity tests hold equal to them decision for decision; their constructors take the
same arguments with the same defaults (the native parameters' defaults are read from here:
:func:`atomic_africa.agents.native.agent_params`).
"""
from __future__ import annotations

import inspect

import numpy as np

from .. import _validate as v
from .._limits import MAX_LEGAL, MAX_SIMULATIONS
from .._seeding import seed_sequence
from ..game.native.agent_args import AGENT_KINDS, AGENT_PARAM_FIELDS, check_agent_params
from ..game.native.single import pcg_words
from ..game.rng import RandomSource

__all__ = ["NativeAgent", "RandomAgent", "HeuristicAgent", "GreedyAgent", "DoctrineAgent", "ISMCTSAgent", "play",
           "agent_params", "ROLLOUT_AGENTS", "SEARCH_PARAMS", "SEARCH_AGENTS", "constructor_defaults",
           "check_search", "search_overrides"]


class NativeAgent:
    """A built-in agent played by the C core: ``act(game)`` is the choice of the native agent named ``name``.

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


# ------------------------------------------------------------------------------------ search
#: The agents a search may roll out with (the built-in agents that do not search themselves).
ROLLOUT_AGENTS = ("random", "heuristic", "greedy", "doctrine")


def rollout_name(name, allowed: tuple = ROLLOUT_AGENTS) -> str:
    """``name`` as a rollout agent of ``allowed`` (case and surrounding blanks ignored), or a ValueError
    naming ``rollout`` and the allowed names."""
    if not isinstance(name, str) or name.strip().lower() not in allowed:
        raise ValueError(f"rollout: {name!r} is not a rollout agent; allowed {', '.join(allowed)}")
    return name.strip().lower()


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
        self.rollout = rollout_name(rollout)
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


# ------------------------------------------------------------------------- native parameters
def _defaults() -> dict:
    """Each AgentParams field's default, read from the constructor of the built-in agent that takes it."""
    out = constructor_defaults(GreedyAgent, DoctrineAgent, ISMCTSAgent)
    missing = [k for k in AGENT_PARAM_FIELDS if k not in out]
    if missing:   # a constructor lost an argument the kernel reads
        raise RuntimeError(f"agent_params: no Python agent takes {missing}")
    return out


def agent_params(overrides=None) -> dict:
    """The native agents' parameters: the Python agents' defaults, some replaced.

    Parameters
    ----------
    overrides : dict, optional
        Some of ``wound_value``, ``marker_value``, ``rally_value``, ``cover_value``, ``reserve_value`` (GreedyAgent's
        arguments), ``standoff_cm`` (DoctrineAgent's) and ``simulations``, ``exploration``, ``rollout`` (an agent
        code of ``AGENT_KINDS``), ``rollout_depth`` (ISMCTSAgent's), finite reals.

    Returns
    -------
    dict
        Every field (``atomic_africa.game.native.agent_args.AGENT_PARAM_FIELDS``), as
        :attr:`VectorGame.agent_params` takes it.

    Raises
    ------
    TypeError, ValueError
        On an unknown field or a value that is not a finite real.
    """
    d = _defaults()
    if overrides is not None:
        if not isinstance(overrides, dict):
            raise TypeError(v.wrong_type("agent_params", f"a dict with some of {', '.join(AGENT_PARAM_FIELDS)}",
                                         overrides))
        unknown = sorted((k for k in overrides if k not in d), key=str)
        if unknown:
            raise ValueError(f"agent_params: unknown {unknown}; allowed {list(AGENT_PARAM_FIELDS)}")
        d.update(overrides)
    return check_agent_params(d)
