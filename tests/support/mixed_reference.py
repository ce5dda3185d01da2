"""The MixedVectorGame before issue 33 (one VectorGame per map, stepped from Python), kept as the
reference the native one must equal call for call (tests/test_scenarios.py). Its notes as they were:

MixedVectorGame: ``num_envs`` games, each episode's battle drawn from a
:class:`~atomic_africa.game.scenarios.ScenarioSampler`, in the sampler's padded layout.

The native kernel holds one battle per engine, so this keeps one :class:`VectorGame` per map of the
sampler (built when the map is first drawn, ``num_envs`` rows each: env ``i`` plays in row ``i`` of
its current map's engine, the other engines' row ``i`` idle). Env ``i``'s episode ``k`` is
``Game(sampler.specs[j], g)`` with ``g = VectorGame.episode_seed(seed, i, k)`` and
``j = sampler.pick(g)``, its side ``p``'s native random agent ``RandomAgent(VectorGame.agent_seed(g,
p))``: the same game as a single-battle VectorGame of map ``j`` plays for that seed, whatever the
number of envs or threads. As there, a game over before its first decision is skipped.

Its methods are :class:`VectorGame`'s (``reset``, ``step``, ``opponent_turns``, ``observations``,
``action_masks``, ``random_actions``, ``agent_actions``, ``side_totals``, ...), with observations and
action ids in the padded layout (:class:`~atomic_africa.game.scenarios.PaddedSpec`, :attr:`spec`);
the environments take it in place of a VectorGame when given several scenarios. Each call goes to
every engine that holds a game of an env involved, so a call costs about as many engine calls as
maps are in play: fine for a few maps, slower for hundreds. An illegal action raises
:class:`~atomic_africa.game.IllegalActionError` before any game changes.
"""
from __future__ import annotations

import numpy as np

from atomic_africa import _validate as v
from atomic_africa._limits import MAX_ENVS
from atomic_africa.game.actions import legal_ids_text
from atomic_africa.reference.game.engine import IllegalActionError
from atomic_africa.game.native.agent_args import agent_kinds
from atomic_africa.game.native.vector import DECISION_TRIES, VectorGame
from atomic_africa.game.scenarios import ScenarioSampler

__all__ = ["ReferenceMixedVectorGame"]


class ReferenceMixedVectorGame:
    """``num_envs`` games of a :class:`~atomic_africa.game.scenarios.ScenarioSampler`'s battles.

    Parameters
    ----------
    sampler : ScenarioSampler
    num_envs : int
        ``>= 1``.
    seed : int
        Non-negative: env ``i``'s episode ``k`` is the game of seed ``VectorGame.episode_seed(seed, i, k)``.
    threads : int
        Threads of every engine (results do not depend on it).

    Attributes
    ----------
    spec : PaddedSpec
        The layout (``num_actions``, ``observation_size``, ``C`` ...).
    sampler : ScenarioSampler
    maps : ndarray of int64, shape (num_envs,)
        The map each env plays now.
    """

    def __init__(self, sampler, num_envs: int = 1, seed: int = 0, *, threads: int = 1):
        if not isinstance(sampler, ScenarioSampler):
            raise TypeError(f"sampler: expected a ScenarioSampler, got {type(sampler).__name__}")
        self.sampler, self.spec = sampler, sampler.padded
        self.num_envs = v.as_int(num_envs, "num_envs", lo=1, hi=MAX_ENVS)
        self.num_actions, self.observation_size = self.spec.num_actions, self.spec.observation_size
        self.rules = sampler.rules
        self._threads = v.as_threads(threads, "threads")
        self._engines = {}
        self._agent_params = None
        self._rows = np.arange(self.num_envs)
        self.maps = np.zeros(self.num_envs, dtype=np.int64)
        self._episodes = np.zeros(self.num_envs, dtype=np.int64)
        self._mask_cache = None     # padded masks of every env while no game has moved
        self.reset(seed=seed)

    # ------------------------------------------------------------------ engines
    @property
    def scenario(self):
        """The sampler the battles come from."""
        return self.sampler

    @property
    def threads(self) -> int:
        return self._threads

    @threads.setter
    def threads(self, k) -> None:
        self._threads = v.as_threads(k, "threads")
        for e in self._engines.values():
            e.threads = self._threads

    @property
    def agent_params(self):
        return None if self._agent_params is None else dict(self._agent_params)

    @agent_params.setter
    def agent_params(self, value) -> None:
        self._agent_params = None if value is None else dict(value)
        for e in self._engines.values():
            e.agent_params = value

    def _engine(self, j: int) -> VectorGame:
        e = self._engines.get(j)
        if e is None:
            e = self._engines[j] = VectorGame(self.sampler.specs[j], self.num_envs, 0, threads=self._threads)
            if self._agent_params is not None:
                e.agent_params = self._agent_params
        return e

    def _in_play(self, envs=None):
        """(map, engine, rows) of each map played by the envs ``envs`` (bool mask or None: all)."""
        maps = self.maps if envs is None else np.where(envs, self.maps, -1)
        for j in np.unique(maps[maps >= 0]).tolist():
            yield j, self._engines[j], maps == j

    # ------------------------------------------------------------------ episodes
    def _place(self, envs, episodes) -> None:
        """Start env ``envs[t]``'s episode ``episodes[t]`` (or the next with a decision)."""
        self._mask_cache = None
        envs, episodes = list(envs), list(episodes)
        for _ in range(DECISION_TRIES):
            if not envs:
                return
            seeds = [VectorGame.episode_seed(self._seed, i, k) for i, k in zip(envs, episodes)]
            maps = [self.sampler.pick(g) for g in seeds]
            by_map = {}
            for i, k, g, j in zip(envs, episodes, seeds, maps):
                by_map.setdefault(j, []).append((i, k, g))
            retry_e, retry_k = [], []
            for j, rows in by_map.items():
                eng = self._engine(j)
                idx = np.array([r[0] for r in rows], dtype=np.int64)
                eng.start_games(np.array([r[2] for r in rows], dtype=np.uint64), envs=idx)
                self.maps[idx] = j
                self._episodes[idx] = [r[1] for r in rows]
                over = eng.current_player[idx] < 0
                retry_e += idx[over].tolist()
                retry_k += [r[1] + 1 for r, o in zip(rows, over.tolist()) if o]
            envs, episodes = retry_e, retry_k
        if envs:
            raise ValueError(f"scenario: no game reached a decision in {DECISION_TRIES} episodes (env {envs[0]}, "
                             f"up to episode {episodes[0]}); does each side get order cards?")

    def reset(self, seed=None):
        """Start new games in every env: episode 0 of ``seed``, or every env's next episode.

        Returns
        -------
        observations, info
            As :meth:`VectorGame.reset`, in the padded layout.
        """
        if seed is not None:
            self._seed = v.as_int(seed, "seed", lo=0)
            episodes = np.zeros(self.num_envs, dtype=np.int64)
        else:
            episodes = self._episodes + 1
        self._place(range(self.num_envs), episodes.tolist())
        return self.observations(), self._info(np.full(self.num_envs, -2, dtype=np.int8))

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def episodes(self) -> np.ndarray:
        """(num_envs,) int64: each env's episode index."""
        return self._episodes.copy()

    def _gather(self, attr, dtype):
        out = np.empty(self.num_envs, dtype=dtype)
        for _, eng, rows in self._in_play():
            out[rows] = getattr(eng, attr)[rows]
        return out

    @property
    def episode_seeds(self) -> np.ndarray:
        """(num_envs,) uint64: each env's current game seed."""
        return self._gather("episode_seeds", np.uint64)

    @property
    def current_player(self) -> np.ndarray:
        """(num_envs,) int8: the player to move in each env."""
        return self._gather("current_player", np.int8)

    @property
    def learner_sides(self) -> np.ndarray:
        """(num_envs,) int8: :meth:`VectorGame.learner_side` of each env's game seed."""
        return self._gather("learner_sides", np.int8)

    def start_figures(self) -> np.ndarray:
        """(num_envs, 2) float64: each side's figures at set-up in each env's battle (>= 1)."""
        per_map = np.array([np.maximum(s.initial_figures, 1) for s in self.sampler.specs], dtype=np.float64)
        return per_map[self.maps]

    def side_totals(self) -> np.ndarray:
        """As :meth:`VectorGame.side_totals`."""
        out = np.empty((self.num_envs, 2, 3), dtype=np.int64)
        for _, eng, rows in self._in_play():
            out[rows] = eng.side_totals()[rows]
        return out

    def _info(self, winner) -> dict:
        turn = np.empty(self.num_envs, dtype=np.int32)
        for _, eng, rows in self._in_play():
            turn[rows] = eng._info(winner)["turn"][rows]
        return {"current_player": self.current_player, "turn": turn, "episode": self.episodes, "winner": winner}

    # ------------------------------------------------------------------ views
    def _padded(self, size: int, what: str, fetch, envs):
        """(k, size) padded rows of ``envs`` (None: all) from each map's ``fetch(engine, rows)``."""
        sel = None if envs is None else v.int_array(envs, "envs")
        k = self.num_envs if sel is None else sel.size
        out = np.zeros((k, size), dtype=np.float32 if what == "observation" else bool)
        maps = self.maps if sel is None else self.maps[sel]
        for j in np.unique(maps).tolist():
            at = np.flatnonzero(maps == j)
            src = fetch(self._engines[j], at if sel is None else sel[at])
            if at.size == k:            # every row on this map: straight into the output
                self.spec.scatter(out, src, j, what)
            else:
                tmp = np.zeros((at.size, size), dtype=out.dtype)
                self.spec.scatter(tmp, src, j, what)
                out[at] = tmp
        return out

    def observations(self, player=None, envs=None) -> np.ndarray:
        """As :meth:`VectorGame.observations`, padded."""
        return self._padded(self.observation_size, "observation",
                            lambda eng, rows: eng.observations(player, envs=rows), envs)

    def action_masks(self, envs=None) -> np.ndarray:
        """As :meth:`VectorGame.action_masks`, padded."""
        out = self._padded(self.num_actions, "mask", lambda eng, rows: eng.action_masks(envs=rows), envs)
        if envs is None:
            self._mask_cache = out.copy()      # the next step's legality check reads it
        return out

    def _from_engine(self, per_engine, active):
        out = np.full(self.num_envs, -1, dtype=np.int64)
        for j, eng, rows in self._in_play(active):
            out[rows] = self.spec.to_padded(per_engine(eng, rows)[rows], j)
        return out

    def random_actions(self, active=None) -> np.ndarray:
        """As :meth:`VectorGame.random_actions`, padded ids."""
        act = None if active is None else np.asarray(active, dtype=bool)
        return self._from_engine(lambda eng, rows: eng.random_actions(active=rows), act)

    def agent_actions(self, agents, active=None) -> np.ndarray:
        """As :meth:`VectorGame.agent_actions`, padded ids."""
        kinds = agent_kinds(agents, "agents", (self.num_envs,))
        act = None if active is None else np.asarray(active, dtype=bool)
        return self._from_engine(lambda eng, rows: eng.agent_actions(kinds, active=rows), act)

    # ------------------------------------------------------------------ stepping
    def _engine_actions(self, a, act) -> dict:
        """Each map's engine actions (checked legal before any game changes: against the masks of
        the last :meth:`action_masks` if nothing moved since, else the engines')."""
        per = {}
        cache = self._mask_cache
        for j, eng, rows in self._in_play(act):
            ea = np.zeros(self.num_envs, dtype=np.int64)
            ea[rows] = self.spec.to_engine(a[rows], j)
            envs = np.flatnonzero(rows)
            if cache is not None:
                inside = (a[envs] >= 0) & (a[envs] < self.num_actions)
                ok = inside & cache[envs, np.where(inside, a[envs], 0)]
            else:
                masks = eng.action_masks(envs=envs)
                ok = (ea[envs] >= 0) & masks[np.arange(envs.size), np.maximum(ea[envs], 0)]
            if not ok.all():
                i = int(envs[~ok][0])
                n = self.num_actions
                if not 0 <= a[i] < n:
                    raise IllegalActionError(f"actions[{i}]: action {a[i]} is out of range in env {i}; "
                                             f"allowed 0..{n - 1}")
                legal = self.action_masks(envs=[i])[0]
                raise IllegalActionError(f"actions[{i}]: action {a[i]} is not legal in env {i} (map {j}); "
                                         f"legal: {legal_ids_text(legal)}")
            per[j] = (eng, rows, ea)
        return per

    def _finish(self, term, winner, final, rewards, t, r, info, j, rows):
        ended = t & rows
        rewards[rows] += r[rows]
        if ended.any():
            term |= ended
            winner[ended] = info["winner"][ended]
            for i in np.flatnonzero(ended).tolist():
                final[i] = self.spec.observation(info["final_observation"][i], j)

    def step(self, actions, active=None, *, observe: bool = True):
        """As :meth:`VectorGame.step`, padded; a finished game's env goes on to its next episode,
        on the map that episode's seed draws."""
        a = np.asarray(actions)
        if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions: expected integer action ids, got dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},) (one action per env), got {a.shape}")
        a = a.astype(np.int64)
        act = None if active is None else np.asarray(active, dtype=bool)
        per = self._engine_actions(a, act)
        self._mask_cache = None
        n = self.num_envs
        rewards = np.zeros((n, 2), dtype=np.float32)
        term = np.zeros(n, dtype=bool)
        winner = np.full(n, -2, dtype=np.int8)
        final = np.empty(n, dtype=object)
        for j, (eng, rows, ea) in per.items():
            _, r, t, _, info = eng.step(ea, active=rows, observe=False)
            self._finish(term, winner, final, rewards, t, r, info, j, rows)
        if term.any():
            done = np.flatnonzero(term)
            self._place(done.tolist(), (self._episodes[done] + 1).tolist())
        info = self._info(winner)
        if term.any():
            info["final_observation"], info["_final_observation"] = final, term.copy()
        return (self.observations() if observe else None), rewards, term, np.zeros(n, dtype=bool), info

    def opponent_turns(self, opponent, learner, active=None, *, observe: bool = True):
        """As :meth:`VectorGame.opponent_turns`, padded: a game started during the call (on its own
        map) is played on until its learner is to move."""
        kinds = agent_kinds(opponent, "opponent", (self.num_envs,))
        n = self.num_envs
        self._mask_cache = None
        act = np.ones(n, dtype=bool) if active is None else np.asarray(active, dtype=bool)
        rewards = np.zeros((n, 2), dtype=np.float32)
        term = np.zeros(n, dtype=bool)
        winner = np.full(n, -2, dtype=np.int8)
        final = np.empty(n, dtype=object)
        decisions = np.zeros(n, dtype=np.int64)
        todo = act.copy()
        while todo.any():
            ended_now = np.zeros(n, dtype=bool)
            for j, eng, rows in self._in_play(todo):
                _, r, t, _, info = eng.opponent_turns(kinds, learner, active=rows, observe=False)
                decisions[rows] += info["decisions"][rows]
                if (t & rows & term).any():
                    i = int(np.flatnonzero(t & rows & term)[0])
                    raise RuntimeError(f"opponent_turns: env {i}: a second game ended in this call: the "
                                       f"learner had no decision in a whole game")
                ended_now |= t & rows
                self._finish(term, winner, final, rewards, t, r, info, j, rows)
            if ended_now.any():
                done = np.flatnonzero(ended_now)
                self._place(done.tolist(), (self._episodes[done] + 1).tolist())
            todo = ended_now          # the new games: their opponent moves first, maybe
        info = self._info(winner)
        info["decisions"] = decisions
        if term.any():
            info["final_observation"], info["_final_observation"] = final, term.copy()
        return (self.observations() if observe else None), rewards, term, np.zeros(n, dtype=bool), info

    def __repr__(self):
        return f"ReferenceMixedVectorGame({len(self.sampler)} scenarios, num_envs={self.num_envs}, seed={self._seed})"
