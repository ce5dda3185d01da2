"""VectorGame: many games stepped together by the native engine (``aa_core.vgame``).

The state of every game lives in a few numpy arrays (batch first, one row per field); the kernel
advances all games in one call with the GIL released, on ``threads`` OpenMP threads. It is the same
game as :class:`atomic_africa.game.Game`, decision for decision: observations, masks, rewards and
event logs agree exactly for the same scenario, seed and actions.

Native agents (the batched twins of :mod:`atomic_africa.agents`) play inside the kernel: whole games
(:meth:`VectorGame.play_games`), one side's turns until the other side is to move
(:meth:`VectorGame.opponent_turns`) or single decisions (:meth:`VectorGame.random_actions`,
:meth:`VectorGame.agent_actions`). Each side of each env has its own agent stream.
"""
from __future__ import annotations

import numbers
import threading

import numpy as np

from aa_core import vbatch as _k

from ... import _validate as v
from ..._limits import MAX_ENVS
from ..actions import legal_ids_text
from ..outcome import IllegalActionError
from ..events import check_player, hide_event
from .agent_args import (AGENT_KINDS, NEEDS_PARAMS, agent_kinds, agent_seed, check_agent_params,
                            learner_side, seed_array)
from .layout import decode_records
from ...rules import Rules
from ..scenario import Scenario
from ..schema import SCALAR_COLUMN, UNIT_FIELDS
from .snapshot import check_arrays, check_top, env_bytes
from .spec_file import spec_bytes
from ..spec import GameSpec
from ..state import Stage

__all__ = ["VectorGame", "AGENT_KINDS", "SIDE_TOTALS"]

# Columns of the kernel's scalars array.
_S_TURN, _S_STAGE, _S_CUR = SCALAR_COLUMN["turn"], SCALAR_COLUMN["stage"], SCALAR_COLUMN["cur"]
# side_totals' fields and their rows: (storage array, row) of alive and of each summed field
_FIELD = {f.name: (f"unit_{f.storage}", f.row) for f in UNIT_FIELDS if f.storage != "py"}
SIDE_TOTALS = ("figures", "wounds", "markers")
_TOTAL_ROWS = [_FIELD[name][1] for name in SIDE_TOTALS]     # all three are unit_i32 rows
# opponent_turns' stop codes -> why
_OPP_WHY = {_k.OPP_NO_ACTION: "the native agent found no legal action in a running game",
            _k.OPP_SECOND_END: "a second game ended in this call: the learner had no decision in a whole game"}


#: Episodes in a row an env may skip because their game is over before its first decision; one more
#: such game and the scenario is at fault (:func:`no_decision_message`).
DECISION_TRIES = _k.DECISION_TRIES


def no_decision_message(episode: int, env: int = 0) -> str:
    """The error for a scenario whose games end before any decision, ``DECISION_TRIES`` in a row."""
    return (f"scenario: no game reached a decision in {DECISION_TRIES} episodes (env {env}, up to "
            f"episode {episode}); does each side get order cards (hand_size / non-attached units)?")


def _int_seed(seed, name="seed") -> int:
    return v.as_int(seed, name, lo=0)


def _checked(obj, cls, name: str):
    """A snapshot's scenario or rules rebuilt through ``cls.from_dict``, so that its checks run even for
    an object a pickle stream built field by field (their own pickles already go through it)."""
    if isinstance(obj, cls):
        try:
            obj = obj.to_dict()
        except (AttributeError, TypeError, ValueError, LookupError) as e:
            raise ValueError(f"state: {name}: not a valid {cls.__name__} ({type(e).__name__}: {e})") from None
    if not isinstance(obj, dict):
        raise TypeError(v.wrong_type(f"state: {name}", f"a {cls.__name__}", obj))
    return cls.from_dict(obj)


def _words(n: int) -> list:
    """numpy's SeedSequence words of a non-negative int: 32 bits each, low first ([0] for 0)."""
    out = [n & 0xFFFFFFFF]
    n >>= 32
    while n:
        out.append(n & 0xFFFFFFFF)
        n >>= 32
    return out


class VectorGame:
    """Many games of one scenario held as struct-of-arrays and stepped together natively.

    Parameters
    ----------
    scenario : Scenario, path, dict, GameSpec or None
        As for :class:`~atomic_africa.game.Game` (``None``: the packaged default).
    num_envs : int
        Number of games, ``>= 1``.
    seed : int
        Non-negative seed. Env ``i``'s episode ``k`` plays exactly
        ``Game(scenario, VectorGame.episode_seed(seed, i, k), rules)``. An episode whose game is
        over before its first decision is skipped: the env goes straight on to episode ``k + 1``
        (episode numbers then jump), so every env always has a player to move. After
        ``DECISION_TRIES`` (64) such episodes in a row the constructor, :meth:`reset` or
        :meth:`step` raises ``ValueError`` (the scenario gives a side no order cards). In that
        game, side ``p``'s native random agent plays as
        ``RandomAgent(VectorGame.agent_seed(game_seed, p))``: its stream restarts with each episode.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    threads : int
        OpenMP threads used by each call (``1..1024``; more than the cores available gives a
        ``RuntimeWarning``); results are identical for every value.
    record_events : bool
        Keep each step's event records so that :meth:`events` can return them (slower).

    Attributes
    ----------
    num_envs, num_actions, observation_size : int
    threads : int
        Settable.
    agent_params : dict or None
        Settable: the native greedy and doctrine agents' parameters (:data:`AGENT_PARAM_FIELDS`;
        ``atomic_africa.agents.native.agent_params()`` gives the Python agents' defaults). ``None``
        (the default) refuses those two agents.
    spec : GameSpec
        The games' configuration (shared with ``Game(spec, seed)``).
    scenario : Scenario
    rules : Rules

    Notes
    -----
    A VectorGame may be used from several threads; calls are serialised: every method that reads or
    advances the games holds the instance's lock (a ``threading.Lock``, about 1 us a call), so two
    threads never run the kernel on the same games at once. The C-level capsules of
    :meth:`c_params` and :meth:`c_game` are outside that lock.

    A snapshot (``pickle``, :meth:`clone`) is checked before the kernel sees it
    (:mod:`atomic_africa.game.native.snapshot`): every count, index and size against the scenario and rules.

    Raises
    ------
    MemoryError
        If ``num_envs`` games do not fit in the memory available (the message gives the memory needed).
    """

    def __init__(self, scenario=None, num_envs: int = 1, seed: int = 0, *, rules=None, threads: int = 1,
                 record_events: bool = False):
        self._lock = threading.Lock()
        self.num_envs = v.as_int(num_envs, "num_envs", lo=1, hi=MAX_ENVS)
        self._seed = _int_seed(seed)
        self._agent_params = None
        self.threads = threads
        self.record_events = v.as_bool(record_events, "record_events")
        self._make_engine(scenario, rules)
        self._reseed()
        self._start()

    @classmethod
    def from_games(cls, scenario, game_seeds, agent_seeds=None, *, rules=None, threads: int = 1,
                   record_events: bool = False) -> VectorGame:
        """A VectorGame with one env per given game: env ``j`` plays ``Game(scenario, game_seeds[j])``.

        Nothing is skipped (as :meth:`start_games`): a game over before its first decision stays over.
        For :meth:`play_games` and :meth:`start_games`; :meth:`reset` goes on with the episodes of
        seed 0.

        Parameters
        ----------
        scenario, rules, threads, record_events
            As for the constructor.
        game_seeds : array_like of int, shape (num_envs,)
            ``0 <= seed < 2**64``, at least one.
        agent_seeds : array_like of int, shape (num_envs, 2), optional
            As for :meth:`start_games`.

        Returns
        -------
        VectorGame
        """
        gs = seed_array(game_seeds, "game_seeds")
        self = cls.__new__(cls)
        self._lock = threading.Lock()
        self.num_envs = v.as_int(gs.shape[0], "game_seeds: number of games", lo=1, hi=MAX_ENVS)
        self._seed, self._agent_params = 0, None
        self.threads = threads
        self.record_events = v.as_bool(record_events, "record_events")
        self._make_engine(scenario, rules)
        self._reseed()
        self.start_games(gs, agent_seeds)
        return self

    def _make_engine(self, scenario, rules):
        """Scenario, rules, sizes and an Engine for ``num_envs`` games (their state all zero); refused
        up front when the games do not fit in the memory available."""
        spec = self.spec = GameSpec.build(scenario, rules)
        self.scenario, self.rules = spec.scenario, spec.rules
        self.num_actions, self.observation_size = spec.num_actions, spec.observation_size
        what = f"{self.num_envs:,} games of {spec.scenario.name!r} ({env_bytes(spec):,} bytes each)"
        v.check_memory(self.num_envs * env_bytes(spec), "num_envs", what, "use fewer envs")
        data = spec_bytes(spec)   # the one transport of a battle into C: its spec file (aa_spec_load)
        try:
            self._engine = _k.Engine(data, self.num_envs, self.record_events)
        except MemoryError:     # the estimate fitted, the allocation did not: still name the argument
            raise v.memory_error(self.num_envs * env_bytes(spec), "num_envs", what, "use fewer envs") from None
        self._shape = (self.num_envs,)
        self._all_active = np.ones(self.num_envs, dtype=np.uint8)
        self._all_envs = np.arange(self.num_envs, dtype=np.int64)

    # ------------------------------------------------------------------ seeding
    @staticmethod
    def episode_seed(seed: int, env: int, episode: int) -> int:
        """Game seed of env ``env``'s episode ``episode`` under VectorGame seed ``seed``.

        Parameters
        ----------
        seed, env, episode : int
            Non-negative.

        Returns
        -------
        int
            ``SeedSequence(seed, spawn_key=(env, episode)).generate_state(1, uint64)[0]``.
        """
        seed, env, episode = _int_seed(seed), _int_seed(env, "env"), _int_seed(episode, "episode")
        ss = np.random.SeedSequence(seed, spawn_key=(env, episode))
        return int(ss.generate_state(1, np.uint64)[0])

    @staticmethod
    def agent_seed(game_seed: int, side: int) -> int:
        """Seed of side ``side``'s agent stream in the game of seed ``game_seed`` of an episode the
        VectorGame started itself (:func:`~atomic_africa.game.native.agent_args.agent_seed`).

        Parameters
        ----------
        game_seed : int
            ``0 <= game_seed < 2**64``.
        side : {0, 1}

        Returns
        -------
        int
            ``SeedSequence(game_seed, spawn_key=(side,)).generate_state(1, uint64)[0]``; that side's
            native random agent plays as ``RandomAgent(seed)``.
        """
        return agent_seed(game_seed, side)

    @staticmethod
    def learner_side(game_seed: int) -> int:
        """The learner's side that ``opponent_turns(..., learner="random")`` gives the game of seed
        ``game_seed`` (:func:`~atomic_africa.game.native.agent_args.learner_side`).

        Parameters
        ----------
        game_seed : int
            ``0 <= game_seed < 2**64``.

        Returns
        -------
        int
            ``SeedSequence(game_seed, spawn_key=(2,)).generate_state(1, uint64)[0] & 1``.
        """
        return learner_side(game_seed)

    @property
    def learner_sides(self) -> np.ndarray:
        """(num_envs,) int8: :meth:`learner_side` of each env's current game seed (computed natively)."""
        out = np.empty(self.num_envs, dtype=np.int8)
        with self._lock:
            self._engine.learner_sides(out)
        return out

    def side_totals(self) -> np.ndarray:
        """Each side's live figures, wounds and suppression markers in every env.

        Returns
        -------
        ndarray of int64, shape (num_envs, 2, 3)
            ``[i, p]``: the sums over side ``p``'s live units of :data:`SIDE_TOTALS` (``figures``,
            ``wounds``, ``markers``) in env ``i``'s game (``Game.figures(p)`` for the first).
        """
        a = self._engine.arrays
        n, C = self.num_envs, self.spec.C
        with self._lock:
            alive = a[_FIELD["alive"][0]][:, _FIELD["alive"][1], :]
            values = a["unit_i32"][:, _TOTAL_ROWS, :]          # (n, fields, 2 * C), a copy
        values *= alive[:, None, :]
        return values.reshape(n, len(SIDE_TOTALS), 2, C).sum(axis=3, dtype=np.int64).transpose(0, 2, 1)

    @property
    def agent_params(self):
        """The native greedy and doctrine agents' parameters (a dict of ``AGENT_PARAM_FIELDS``), or
        ``None`` (those agents refused). Set it to a dict with every field (finite reals)."""
        return None if self._agent_params is None else dict(self._agent_params)

    @agent_params.setter
    def agent_params(self, value):
        d = None if value is None else check_agent_params(value)
        with self._lock:
            if d is not None:
                self._engine.set_agent_params(d)
            self._agent_params = d

    @property
    def threads(self) -> int:
        """OpenMP threads per call (results do not depend on it)."""
        return self._threads

    @threads.setter
    def threads(self, value):
        self._threads = v.as_threads(value, "threads")

    @property
    def seed(self) -> int:
        """The seed of the current episode stream (set by the constructor or ``reset(seed)``)."""
        return self._seed

    @property
    def episode_seeds(self) -> np.ndarray:
        """(num_envs,) uint64: the game seed of each env's current game."""
        with self._lock:
            return self._engine.arrays["game_seed"].copy()

    @property
    def episodes(self) -> np.ndarray:
        """(num_envs,) int64: the episode index of each env's current game."""
        with self._lock:
            return self._engine.arrays["episode"].copy()

    def _reseed(self):
        """Episode 0 everywhere for ``self._seed`` (the agent streams follow each episode's game seed).
        The kernel derives every stream itself (numpy's SeedSequence and PCG64 in C, src/aa_core/csrc/aa_pcg.h),
        so automatic resets need no Python."""
        words = np.array(_words(self._seed), dtype=np.uint32)
        if words.size > 16:
            raise ValueError(f"seed: {self._seed} is too large; VectorGame takes seeds below 2**512")
        self._engine.set_seed(words)
        self._engine.arrays["episode"][:] = 0

    # ------------------------------------------------------------------ stepping
    def reset(self, seed=None):
        """Start new games in every env.

        Parameters
        ----------
        seed : int, optional
            Restart every env at episode 0 of this seed; without it every env starts its next
            episode. Either way each side's agent stream starts afresh from the episode's game seed
            (:meth:`agent_seed`).

        Returns
        -------
        observations : ndarray of float32, shape (num_envs, observation_size)
        info : dict of arrays

        Raises
        ------
        ValueError
            If an env found no game with a decision in ``DECISION_TRIES`` episodes.
        """
        seed = None if seed is None else _int_seed(seed)
        with self._lock:
            if seed is not None:
                self._seed = seed
                self._reseed()
            else:
                self._engine.arrays["episode"][:] += 1
            self._start()
            return self._observations(-1), self._info(np.full(self.num_envs, -2, dtype=np.int8))

    def _start(self):
        self._check_decided(self._engine.start(self._threads))

    def _check_decided(self, env: int):
        """Raise if env ``env`` (>= 0) found no game with a decision in ``DECISION_TRIES`` episodes."""
        if env >= 0:
            raise ValueError(no_decision_message(int(self._engine.arrays["episode"][env]), env))

    def _actions(self, actions) -> np.ndarray:
        if type(actions) is np.ndarray and actions.dtype == np.int64 and actions.shape == self._shape \
                and actions.flags.c_contiguous:
            return actions
        a = np.asarray(actions)
        if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions: expected integer action ids, got dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},) (one action per env), got {a.shape}")
        return np.ascontiguousarray(a, dtype=np.int64)

    def _active(self, active) -> np.ndarray:
        if active is None:
            return np.ones(self.num_envs, dtype=np.uint8)
        m = np.asarray(active)
        if m.dtype != bool:
            raise TypeError(f"active: expected a bool array, got dtype {m.dtype}")
        if m.shape != (self.num_envs,):
            raise ValueError(f"active: expected shape ({self.num_envs},), got {m.shape}")
        return np.ascontiguousarray(m, dtype=np.uint8)

    def step(self, actions, active=None, *, observe: bool = True):
        """Apply one decision in every (active) env; finished games restart automatically.

        Parameters
        ----------
        actions : array_like of int, shape (num_envs,)
            A legal action id per env (ignored where ``active`` is False).
        active : array_like of bool, shape (num_envs,), optional
            Envs to step (default: all). Inactive envs do not change.
        observe : bool
            Encode the observations (default). ``False`` skips them (``observations`` is then
            ``None``; ``final_observation`` is still given): for agents that read the state another
            way, e.g. :meth:`random_actions` or masks.

        Returns
        -------
        observations : ndarray of float32, shape (num_envs, observation_size)
            Each env's observation for its player to move (for a restarted env: its new game).
        rewards : ndarray of float32, shape (num_envs, 2)
            Per player: ``Game.returns()`` of a game that ended in this step, else 0.
        terminated : ndarray of bool, shape (num_envs,)
            The game ended in this step (the env then started its next episode).
        truncated : ndarray of bool, shape (num_envs,)
            Always False: games end by the turn limit.
        info : dict of arrays
            ``current_player`` (int8), ``turn`` (int32), ``episode`` (int64), ``winner`` (int8: the
            finished game's winner, -1 draw; -2 where no game ended) and, when a game ended,
            ``final_observation`` (object array, (num_envs,): at each env whose game ended, a float32
            (2, observation_size) array, the finished game seen by player 0 and player 1; ``None``
            elsewhere, as Gymnasium's ``final_obs``) with its bool mask ``_final_observation``.

        Raises
        ------
        TypeError, ValueError
            If ``actions`` or ``active`` has the wrong type or shape.
        IllegalActionError
            If an active env's action is not legal; no env changes.
        ValueError
            If a restarted env found no game with a decision in ``DECISION_TRIES`` episodes.
        """
        a = self._actions(actions)
        act = self._all_active if active is None else self._active(active)
        observe = v.as_bool(observe, "observe")
        with self._lock:
            return self._step(a, act, observe)

    def _step(self, a, act, observe):
        n = self.num_envs
        obs = np.empty((n if observe else 1, self.observation_size), dtype=np.float32)
        rewards = np.empty((n, 2), dtype=np.float32)
        term = np.empty(n, dtype=np.uint8)
        winner = np.empty(n, dtype=np.int8)
        bad = self._engine.step(a, act, obs, rewards, term, winner, self._threads, observe)
        if bad >= 0:
            raise IllegalActionError(self._why(bad, int(a[bad])))
        final = None
        if term.any():
            done = np.flatnonzero(term)
            views = np.empty((done.size, 2, self.observation_size), dtype=np.float32)
            self._check_decided(self._engine.restart(done, obs, views, self._threads, observe))
            final = np.empty(n, dtype=object)
            for j, i in enumerate(done.tolist()):
                final[i] = views[j]
        info = self._info(winner)
        if final is not None:
            info["final_observation"] = final
            info["_final_observation"] = term.astype(bool)
        return (obs if observe else None), rewards, term.view(bool), np.zeros(n, dtype=bool), info

    def _info(self, winner) -> dict:
        s = self._engine.arrays["scalars"]
        return {"current_player": s[:, _S_CUR].astype(np.int8), "turn": s[:, _S_TURN].copy(),
                "episode": self._engine.arrays["episode"].copy(), "winner": winner}

    def _why(self, i: int, a: int) -> str:
        stage = Stage.NAMES[int(self._engine.arrays["scalars"][i, _S_STAGE])]
        if not 0 <= a < self.num_actions:
            return (f"actions[{i}]: action {a} is out of range in env {i}; "
                    f"allowed 0..{self.num_actions - 1}")
        shown = legal_ids_text(self._masks()[i])
        return (f"actions[{i}]: action {a} is not legal in env {i} (stage {stage}, player "
                f"{int(self._engine.arrays['scalars'][i, _S_CUR])}); legal: {shown}")

    # ------------------------------------------------------------------ views
    @property
    def current_player(self) -> np.ndarray:
        """(num_envs,) int8: the player (0 or 1) to move in each env."""
        with self._lock:
            return self._engine.arrays["scalars"][:, _S_CUR].astype(np.int8)

    def observations(self, player=None, envs=None) -> np.ndarray:
        """Observations of every env (or of some).

        Parameters
        ----------
        player : int, optional
            0 or 1 for that player's view; ``None`` for the player to move in each env.
        envs : array_like of int, shape (k,), optional
            Only these envs, in this order (default: all).

        Returns
        -------
        ndarray of float32, shape (num_envs, observation_size) (or (k, observation_size))
            Equal to ``Game.observation`` of each env's game.
        """
        if player is None:
            p = -1
        else:
            if isinstance(player, (bool, np.bool_)) or not isinstance(player, numbers.Integral):
                raise TypeError(f"player: expected None, 0 or 1, got {type(player).__name__} {player!r}")
            if player not in (0, 1):
                raise ValueError(f"player: {player!r} is not a player; allowed None, 0, 1")
            p = int(player)
        e = None if envs is None else self._env_index(envs)
        with self._lock:
            return self._observations(p, e)

    def _observations(self, p: int, envs=None) -> np.ndarray:
        e = self._all_envs if envs is None else envs
        out = np.empty((e.shape[0], self.observation_size), dtype=np.float32)
        self._engine.observe(e, np.full(e.shape[0], p, dtype=np.int32), out, self._threads)
        return out

    def action_masks(self, envs=None, *, out=None) -> np.ndarray:
        """Legal actions of every env (or of some).

        Parameters
        ----------
        envs : array_like of int, shape (k,), optional
            Only these envs, in this order (default: all).
        out : ndarray of bool, shape (num_envs, num_actions), optional
            C-contiguous; written in place and returned (every env only): a caller that keeps one
            buffer from step to step saves allocating and copying the masks.

        Returns
        -------
        ndarray of bool, shape (num_envs, num_actions) (or (k, num_actions))
            Equal to ``Game.action_mask()`` of each env's game.

        Raises
        ------
        ValueError, TypeError
            On ``out`` of another shape, dtype or layout, or with ``envs``.
        """
        if out is not None:
            if envs is not None:
                raise ValueError("out: only for every env's masks (envs=None)")
            if type(out) is not np.ndarray or out.dtype != bool:
                raise TypeError(f"out: expected a numpy bool array, got {type(out).__name__}"
                                f"{'' if not isinstance(out, np.ndarray) else ' of dtype ' + str(out.dtype)}")
            if out.shape != (self.num_envs, self.num_actions) or not out.flags.c_contiguous \
                    or not out.flags.writeable:
                raise ValueError(f"out: expected a writeable C-contiguous array of shape "
                                 f"({self.num_envs}, {self.num_actions}), got shape {out.shape}")
            with self._lock:
                self._engine.masks(out.view(np.uint8), self._threads)
            return out
        if envs is None:
            with self._lock:
                return self._masks()
        e = self._env_index(envs)
        out = np.empty((e.shape[0], self.num_actions), dtype=np.uint8)
        with self._lock:
            self._engine.masks_at(e, out, self._threads)
        return out.view(bool)

    def _masks(self) -> np.ndarray:
        out = np.empty((self.num_envs, self.num_actions), dtype=np.uint8)
        self._engine.masks(out, self._threads)
        return out.view(bool)

    def random_actions(self, active=None) -> np.ndarray:
        """A uniformly random legal action per env, drawn natively.

        The native random agent of the player to move (:meth:`agent_actions` with ``"random"``): in
        env ``i`` it draws from side ``p``'s own agent stream, which restarts with each episode as
        ``RandomAgent(VectorGame.agent_seed(game_seed, p))``, is separate from the game stream and is
        consumed only when the env is active, so an env's choices are reproducible from the seed and
        depend neither on ``threads`` nor on the other envs.

        Parameters
        ----------
        active : array_like of bool, shape (num_envs,), optional
            Envs to draw for (default: all); the others get -1 and draw nothing.

        Returns
        -------
        ndarray of int64, shape (num_envs,)
            -1 also where the game is over (after :meth:`start_games` or :meth:`play_games`).
        """
        act = self._all_active if active is None else self._active(active)
        out = np.empty(self.num_envs, dtype=np.int64)
        with self._lock:
            self._engine.random_actions(act, out, self._threads)
        return out

    def _kinds(self, value, name: str, shape: tuple) -> np.ndarray:
        """Agent names/codes as int8 of ``shape``; greedy and doctrine only with agent_params set."""
        k = agent_kinds(value, name, shape)
        if self._agent_params is None and np.isin(k, list(NEEDS_PARAMS)).any():
            raise ValueError(f"{name}: the greedy and doctrine agents need VectorGame.agent_params "
                             f"(e.g. atomic_africa.agents.native.agent_params()); it is None")
        return k

    def agent_actions(self, agents, active=None) -> np.ndarray:
        """The action native agent ``agents[i]`` plays for the player to move in each env.

        Parameters
        ----------
        agents : str, int or array_like, shape (num_envs,)
            Agent name (``"random"``, ``"heuristic"``, ``"greedy"``, ``"doctrine"``, ``"ismcts"``) or code
            (:data:`AGENT_KINDS`), one for all envs or one per env.
        active : array_like of bool, shape (num_envs,), optional
            Envs to decide for (default: all); the others get -1 (and draw nothing).

        Returns
        -------
        ndarray of int64, shape (num_envs,)
            The action ``make_agent(name, seed).act(game)`` returns in each env's game (``seed``:
            that side's agent stream, see :meth:`random_actions`); -1 where the game is over.

        Raises
        ------
        TypeError, ValueError
            On an unknown agent, a bad shape, or greedy/doctrine while :attr:`agent_params` is None.
        """
        kinds = self._kinds(agents, "agents", self._shape)
        act = self._all_active if active is None else self._active(active)
        out = np.empty(self.num_envs, dtype=np.int64)
        with self._lock:
            self._engine.agent_actions(kinds, act, out, self._threads)
        return out

    def _env_index(self, envs, name: str = "envs") -> np.ndarray:
        if envs is None:
            return np.arange(self.num_envs, dtype=np.int64)
        e = v.int_array(envs, name)
        if e.ndim != 1:
            raise ValueError(f"{name}: expected a 1-d array of env indices, got shape {e.shape}")
        v.check_range(e, name, 0, self.num_envs - 1)
        return e

    # ------------------------------------------------------------------ planning
    def copy_envs(self, src, dst) -> None:
        """Env ``dst[j]`` becomes an exact copy of env ``src[j]``: its game, its random streams (game
        and agents), episode, game seed and events. A copy carries the whole truth (the dice to
        come, the opponent's hand, both decks' order): :meth:`determinize` it before planning on it.

        Parameters
        ----------
        src, dst : array_like of int, shape (m,)
            Env indices; ``dst`` distinct and disjoint from ``src`` (one source may feed several
            destinations: ``copy_envs([0, 0, 0], [1, 2, 3])``).

        Raises
        ------
        TypeError, ValueError
            On bad indices (nothing is copied).
        """
        a, b = self._env_index(src, "src"), self._env_index(dst, "dst")
        if a.shape != b.shape:
            raise ValueError(f"dst: expected {a.shape[0]} env indices (one per src), got shape {b.shape}")
        if np.unique(b).size != b.size:
            raise ValueError("dst: an env index appears twice; allowed distinct indices")
        if np.intersect1d(a, b).size:
            raise ValueError(f"dst: env {int(np.intersect1d(a, b)[0])} is also a source; allowed envs not in src")
        with self._lock:
            self._engine.copy_envs(a, b)

    def _planning_args(self, envs, seeds):
        e = self._env_index(envs)
        if np.unique(e).size != e.size:
            raise ValueError("envs: an env index appears twice; allowed distinct indices")
        return e, seed_array(seeds, "seeds", e.shape)

    def reseed(self, envs, seeds) -> None:
        """Give env ``envs[j]`` a new chance stream: its future dice and shuffles come from
        ``PCG64(SeedSequence(seeds[j]))`` (``Game.reseed``; the C API's ``aa_game_reseed``).

        Parameters
        ----------
        envs : array_like of int, shape (m,)
            Distinct env indices (None: every env).
        seeds : array_like of int, shape (m,)
            ``0 <= seed < 2**64``.
        """
        e, sd = self._planning_args(envs, seeds)
        with self._lock:
            self._engine.reseed(e, sd)

    def determinize(self, envs, player, seeds) -> None:
        """Resample, in env ``envs[j]``, everything hidden from ``player`` consistently with what it has
        seen (``Game.determinize``, draw for draw; the C API's ``aa_game_determinize``): the env is
        reseeded with ``seeds[j]``, the player's own deck gets a fresh order and the opponent's unseen
        cards are dealt again. The player's observation is unchanged, and so is the action mask
        when it is to move. Episode and game seed stay as they were.

        Parameters
        ----------
        envs : array_like of int, shape (m,)
            Distinct env indices (None: every env).
        player : int or array_like of int, shape (m,)
            0 or 1, per env or for all.
        seeds : array_like of int, shape (m,)
            ``0 <= seed < 2**64``.
        """
        e, sd = self._planning_args(envs, seeds)
        pl = v.int_array(player, "player")
        v.check_range(pl, "player", 0, 1)
        try:
            pl = np.ascontiguousarray(np.broadcast_to(pl, e.shape), dtype=np.int8)
        except ValueError:
            raise ValueError(f"player: expected 0 or 1, or one per env (shape {e.shape}), got shape {pl.shape}") \
                from None
        with self._lock:
            self._engine.determinize(e, pl, sd, self._threads)

    def start_games(self, game_seeds, agent_seeds=None, envs=None):
        """Start given games: env ``envs[j]`` plays ``Game(spec, game_seeds[j])``.

        Unlike :meth:`reset`, nothing is skipped: a game over before its first decision stays over
        (:meth:`step` refuses an over env: leave it inactive, or :meth:`reset`). Episode numbers do
        not change.

        Parameters
        ----------
        game_seeds : array_like of int, shape (m,)
            Game seeds, ``0 <= seed < 2**64``.
        agent_seeds : array_like of int, shape (m, 2), optional
            Side ``p``'s native random agent in game ``j`` plays as ``RandomAgent(agent_seeds[j][p])``
            (default: :meth:`agent_seed` of the game seed).
        envs : array_like of int, shape (m,), optional
            Distinct env indices (default: ``0..m-1``).

        Returns
        -------
        observations : ndarray of float32, shape (num_envs, observation_size)
        info : dict of arrays
            As :meth:`reset`'s.
        """
        gs = seed_array(game_seeds, "game_seeds")
        m = gs.shape[0]
        e = np.arange(m, dtype=np.int64) if envs is None else self._env_index(envs)
        if e.shape != (m,):
            raise ValueError(f"envs: expected {m} env indices (one per game seed), got shape {e.shape}")
        if m > self.num_envs:
            raise ValueError(f"game_seeds: {m} games for {self.num_envs} envs; allowed at most num_envs")
        if np.unique(e).size != m:
            raise ValueError("envs: an env index appears twice; allowed distinct indices")
        if agent_seeds is None:
            seeds = np.array([[agent_seed(int(x), p) for p in (0, 1)] for x in gs.tolist()],
                             dtype=np.uint64).reshape(m, 2)
        else:
            seeds = seed_array(agent_seeds, "agent_seeds", (m, 2))
        with self._lock:
            self._engine.start_seeded(e, gs, seeds, self._threads)
            return self._observations(-1), self._info(np.full(self.num_envs, -2, dtype=np.int8))

    def play_games(self, game_seeds, agents, agent_seeds, *, record_actions: bool = False) -> dict:
        """Play whole games natively: game ``j`` in env ``j``, side ``p`` by native agent ``agents[j][p]``.

        One kernel call plays every game to its end (no Python between decisions). Game ``j``
        equals the Python loop ``g = Game(spec, game_seeds[j]); ags = [make_agent(agents[j][p],
        agent_seeds[j][p]) for p in (0, 1)]; while not g.is_over: g.apply(ags[g.current_player].act(g))``,
        whatever ``threads``. Envs ``0..m-1`` then hold the finished games (:meth:`reset` starts
        new ones).

        Parameters
        ----------
        game_seeds : array_like of int, shape (m,)
            ``m <= num_envs`` game seeds, ``0 <= seed < 2**64``.
        agents : array_like, shape (m, 2) (or broadcastable: ``("random", "greedy")`` for all)
            Agent names or codes (:data:`AGENT_KINDS`) of side 0 and side 1.
        agent_seeds : array_like of int, shape (m, 2)
            Seeds of the agents (only the random agent draws).
        record_actions : bool
            Also return each game's actions.

        Returns
        -------
        dict
            ``winner`` (int8, -1 draw), ``reason`` (int8: index into
            ``atomic_africa.game.schema.END_REASONS``), ``turns`` (int32, the turn it ended in),
            ``decisions`` (int64, ``len(game.history)``), ``figures`` (int32 (m, 2), remaining per
            side), each of length m, and with ``record_actions`` ``actions``: a list of m int32
            arrays (``game.history``).

        Raises
        ------
        TypeError, ValueError
            On bad seeds, agents (or greedy/doctrine with :attr:`agent_params` None) or shapes.
        MemoryError
            If the action lists do not fit.
        """
        gs = seed_array(game_seeds, "game_seeds")
        m = gs.shape[0]
        if m > self.num_envs:
            raise ValueError(f"game_seeds: {m} games for {self.num_envs} envs; allowed at most num_envs")
        kinds = self._kinds(agents, "agents", (m, 2))
        seeds = seed_array(agent_seeds, "agent_seeds", (m, 2))
        record = v.as_bool(record_actions, "record_actions")
        out = {"winner": np.empty(m, np.int8), "reason": np.empty(m, np.int8), "turns": np.empty(m, np.int32),
               "decisions": np.empty(m, np.int64), "figures": np.empty((m, 2), np.int32)}
        with self._lock:
            actions = self._engine.play_games(gs, seeds, kinds, out["winner"], out["reason"], out["turns"],
                                              out["decisions"], out["figures"], record, self._threads)
        if record:
            out["actions"] = actions
        return out

    def opponent_turns(self, opponent, learner, active=None, *, observe: bool = True):
        """A native agent plays every decision until the learner is to move in every (active) env.

        Where a game ends meanwhile the env goes on to its next episode (as in :meth:`step`) and the
        agent plays on there until the learner is to move.

        Parameters
        ----------
        opponent : str, int or array_like, shape (num_envs,)
            Agent name (``"random"``, ``"heuristic"``, ``"greedy"``, ``"doctrine"``, ``"ismcts"``) or code
            (:data:`AGENT_KINDS`), one for all envs or one per env. It plays whichever side is not
            the learner, drawing from that side's agent stream.
        learner : {0, 1, "random"} or array_like of int, shape (num_envs,)
            The learner's side, one for all envs or one per env; ``"random"``: in every env the side
            :meth:`learner_side` draws from the game's seed (a game started during the call plays
            on until its own drawn side is to move).
        active : array_like of bool, shape (num_envs,), optional
            Envs to play (default: all); the others do not change.
        observe : bool
            Encode the observations (default); ``False``: ``observations`` is ``None``.

        Returns
        -------
        observations, rewards, terminated, truncated, info
            As :meth:`step`, over the whole call: each env's observation for its player to move
            (the learner, unless the game is over), rewards summed, ``terminated`` where a game ended
            (``final_observation``, ``winner`` describe it), and ``info["decisions"]`` (int64: the
            opponent's decisions played in each env).

        Raises
        ------
        TypeError, ValueError
            On a bad ``opponent``, ``learner``, ``active`` (nothing played), greedy/doctrine with
            :attr:`agent_params` None.
        RuntimeError
            If a second game ended in an env within the call (the learner never decided in a whole
            game); the other envs completed the call.
        ValueError
            If a restarted env found no game with a decision in ``DECISION_TRIES`` episodes.
        """
        kinds = self._kinds(opponent, "opponent", self._shape)
        learner = self._learner(learner)
        act = self._all_active if active is None else self._active(active)
        observe = v.as_bool(observe, "observe")
        n = self.num_envs
        obs = np.empty((n if observe else 1, self.observation_size), dtype=np.float32)
        rewards = np.empty((n, 2), dtype=np.float32)
        term = np.empty(n, dtype=np.uint8)
        winner = np.empty(n, dtype=np.int8)
        final = np.empty((n, 2, self.observation_size), dtype=np.float32)
        decisions = np.empty(n, dtype=np.int64)
        with self._lock:
            env, why = self._engine.opponent_turns(kinds, learner, act, obs, rewards, term, winner, final,
                                                   decisions, self._threads, observe)
            info = self._info(winner)
        if env >= 0:
            if why == _k.OPP_NO_DECISION:   # as step's automatic reset
                self._check_decided(env)
            raise RuntimeError(f"opponent_turns: env {env}: {_OPP_WHY[why]}")
        info["decisions"] = decisions
        if term.any():
            fo = np.empty(n, dtype=object)
            for i in np.flatnonzero(term).tolist():
                fo[i] = final[i].copy()
            info["final_observation"] = fo
            info["_final_observation"] = term.astype(bool)
        return (obs if observe else None), rewards, term.view(bool), np.zeros(n, dtype=bool), info

    def _learner(self, learner) -> np.ndarray:
        if isinstance(learner, str):
            if learner != "random":
                raise ValueError(f"learner: {learner!r} is not a side; allowed 0, 1, 'random' or an array of 0/1")
            return np.full(self.num_envs, -1, dtype=np.int8)    # the kernel's code for the drawn side
        if np.ndim(learner) == 0:
            p = v.as_int(learner, "learner", lo=0, hi=1)
            return np.full(self.num_envs, p, dtype=np.int8)
        a = v.int_array(learner, "learner")
        if a.shape != self._shape:
            raise ValueError(f"learner: expected 0, 1 or shape ({self.num_envs},), got shape {a.shape}")
        v.check_range(a, "learner", 0, 1)
        return a.astype(np.int8)

    def events(self, i: int, player=None) -> list:
        """The events env ``i`` logged in the last :meth:`step` or :meth:`reset`, in full or as
        ``player`` may know them.

        Parameters
        ----------
        i : int
            Env index.
        player : {None, 0, 1}
            ``None``: every event as logged; 0 or 1: that player's view (``Game.events(player=p)``
            of the same slice: the fields of :data:`~atomic_africa.game.schema.HIDDEN` it may not
            know hidden, a card as ``NO_CARD``, the seed as ``None``).

        Returns
        -------
        list of dict
            The same dicts as the slice of ``Game.events`` the env's decision appended; for an env
            whose game ended, that game's last events then the new game's set-up events.

        Raises
        ------
        ValueError
            If the VectorGame was built without ``record_events=True``, ``i`` is out of range or
            ``player`` is not None, 0 or 1.
        TypeError
            If ``player`` is neither None nor an integer.
        """
        i = v.as_int(i, "i", lo=0, hi=self.num_envs - 1)
        player = check_player(player, allow_none=True)
        if not self.record_events:
            raise ValueError("record_events: events() needs VectorGame(..., record_events=True)")
        with self._lock:
            records, game_seed = self._engine.events(i), int(self._engine.arrays["game_seed"][i])
        events = decode_records(records, self.scenario, self.spec.deck, self.spec.C, game_seed)
        return events if player is None else [hide_event(e, player) for e in events]

    # ------------------------------------------------------------------ C-level access
    def c_params(self):
        """The kernel's rules and scenario constants for Cython code (``aa_core.vgame.Params``).

        Returns
        -------
        PyCapsule
            Named ``"aa_core.vgame.Params"``, holding a ``const Params*`` valid while this
            VectorGame lives. See ``examples/embed/my_sim.pyx``.
        """
        return self._engine.c_params()

    def c_game(self, i: int):
        """Env ``i``'s game view for Cython code (``aa_core.vgame.Game``).

        Parameters
        ----------
        i : int
            Env index.

        Returns
        -------
        PyCapsule
            Named ``"aa_core.vgame.Game"``, holding a ``Game*`` valid while this VectorGame lives.
            Code that advances it with ``apply_action`` must only apply legal actions.
        """
        i = v.as_int(i, "i", lo=0, hi=self.num_envs - 1)
        return self._engine.c_game(i)

    # ------------------------------------------------------------------ snapshots
    def __getstate__(self):
        with self._lock:
            arrays = {k: a.copy() for k, a in self._engine.arrays.items() if k != "los"}
        return {"scenario": self.scenario, "rules": self.rules, "num_envs": self.num_envs,
                "seed": self._seed, "threads": self._threads, "record_events": self.record_events,
                "agent_params": self.agent_params, "arrays": arrays}

    def __setstate__(self, d):
        """Load a snapshot, every entry checked first (:mod:`.snapshot`): a ValueError or TypeError
        naming the entry, array, env and field, or a MemoryError naming ``num_envs``."""
        d = check_top(d)
        self._lock = threading.Lock()
        self.num_envs = v.as_int(d["num_envs"], "state: num_envs", lo=1, hi=MAX_ENVS)
        self._seed = _int_seed(d["seed"], "state: seed")
        if len(_words(self._seed)) > 16:
            raise ValueError(f"state: seed: {self._seed} is too large; VectorGame takes seeds below 2**512")
        self._threads = v.as_threads(d["threads"], "state: threads")
        self.record_events = v.as_bool(d["record_events"], "state: record_events")
        params = None if d["agent_params"] is None else check_agent_params(d["agent_params"], "state: agent_params")
        self._make_engine(_checked(d["scenario"], Scenario, "scenario"), _checked(d["rules"], Rules, "rules"))
        arrays = check_arrays(d["arrays"], self.spec, self.num_envs)
        self._engine.set_seed(np.array(_words(self._seed), dtype=np.uint32))
        self._engine.load(arrays)
        self._agent_params = params
        if params is not None:
            self._engine.set_agent_params(params)
        # the last check asks the engine (every index is in range now): a running game must offer a move
        over = self._engine.arrays["scalars"][:, _S_STAGE] == Stage.OVER
        stuck = ~over & ~self._masks().any(axis=1)
        if stuck.any():
            i = int(np.flatnonzero(stuck)[0])
            stage = Stage.NAMES[int(self._engine.arrays["scalars"][i, _S_STAGE])]
            raise ValueError(f"state: env {i} (stage {stage}) offers no legal action; not a state the "
                             f"game can continue from")

    def clone(self) -> VectorGame:
        """An independent copy of every game's current state (no replay).

        Returns
        -------
        VectorGame
        """
        new = VectorGame.__new__(VectorGame)
        new.__setstate__(self.__getstate__())
        return new

    def __repr__(self):
        return (f"VectorGame({self.scenario.name!r}, num_envs={self.num_envs}, seed={self._seed}, "
                f"threads={self._threads})")


