"""MixedVectorGame: ``num_envs`` games, each episode's battle drawn from a
:class:`~atomic_africa.game.scenarios.ScenarioSampler`, in the sampler's padded layout.

Env ``i``'s episode ``k`` is ``Game(sampler.specs[j], g)`` with ``g = VectorGame.episode_seed(seed,
i, k)`` and ``j = sampler.pick(g)``, its side ``p``'s native random agent
``RandomAgent(VectorGame.agent_seed(g, p))``: the same game as a single-battle VectorGame of map
``j`` plays for that seed, whatever the number of envs or threads. As there, a game over before its
first decision is skipped.

It is a :class:`VectorGame` whose one native engine holds every map: the maps' parameters are
prepared once (cached per sampler), each env's state has room for the largest map, and the kernel
switches parameters per env: at the start of each episode it draws the env's map from the game seed
(as :meth:`ScenarioSampler.pick <atomic_africa.game.scenarios.ScenarioSampler.pick>`, in C) and
converts observations, masks and action ids between the map's own layout and the padded one
(:class:`~atomic_africa.game.scenarios.PaddedSpec`, :attr:`spec`). So a call costs one engine call
whatever the number of maps. Its methods are VectorGame's (``reset``, ``step``, ``opponent_turns``,
``observations``, ``action_masks``, ``random_actions``, ``agent_actions``, ``side_totals``,
``start_games``, ``play_games``, ``copy_envs``, ``determinize`` ...) in the padded layout; it keeps
no event records and has no snapshots (``pickle``, ``clone``).
"""
from __future__ import annotations

import weakref

import numpy as np

from aa_core import vbatch as _k

from ... import _validate as v
from ..actions import legal_ids_text
from ..scenarios import ScenarioSampler
from ..schema import SCALAR_COLUMN
from ..state import Stage
from .snapshot import env_bytes
from .spec_file import spec_bytes
from .vector import VectorGame

__all__ = ["MixedVectorGame", "engine_maps"]

_S_STAGE, _S_CUR = SCALAR_COLUMN["stage"], SCALAR_COLUMN["cur"]

# sampler -> its engine_maps (built once: about 1 ms a map)
_PREPARED = weakref.WeakKeyDictionary()


def engine_maps(sampler) -> tuple:
    """Every map's spec file and the padded layout's tables, as ``aa_core.vbatch.Engine`` takes them:
    ``(specs, padding)`` (a list of one spec file per map, :func:`.spec_file.spec_bytes`: the one
    transport of a battle into C, a map sampled in Python included; and a dict). Built once per sampler
    and shared, read-only, by its engines.

    ``padding``: ``obs_size``, ``n_actions`` (the padded sizes); ``act_blocks`` (int32 (maps, B, 5):
    map ``j``'s action ids as blocks ``(own start, padded start, rows, own row width, padded row
    width)``, ascending: ``PaddedSpec``'s blocks) and ``n_act_blocks``; ``obs_blocks`` (int32 (maps,
    B, 3): its observation as blocks ``(own start, padded start, length)``) and ``n_blocks``; ``cum``
    (the sampler's cumulative weights, what :meth:`ScenarioSampler.pick` places a game seed on).
    """
    got = _PREPARED.get(sampler)
    if got is not None:
        return got
    pad = sampler.padded
    specs, obs_blocks, act_blocks = [], [], []
    for j, spec in enumerate(sampler.specs):
        specs.append(spec_bytes(spec))
        obs, acts = pad._block_maps[j]
        obs_blocks.append([(s0, d0, sw) for s0, d0, r, sw, _ in obs if r == 1 and sw])
        act_blocks.append([b for b in acts if b[3]])

    def table(blocks, width):
        out = np.zeros((len(blocks), max(map(len, blocks)), width), dtype=np.int32)
        for j, b in enumerate(blocks):
            out[j, :len(b)] = b
        out.flags.writeable = False
        return out

    def counts(blocks):
        out = np.array([len(b) for b in blocks], dtype=np.int32)
        out.flags.writeable = False
        return out

    cum = np.array(sampler._cum, dtype=np.float64)
    cum.flags.writeable = False
    padding = {"obs_size": pad.observation_size, "n_actions": pad.num_actions,
               "act_blocks": table(act_blocks, 5), "n_act_blocks": counts(act_blocks),
               "obs_blocks": table(obs_blocks, 3), "n_blocks": counts(obs_blocks), "cum": cum}
    got = _PREPARED[sampler] = (specs, padding)
    return got


class MixedVectorGame(VectorGame):
    """``num_envs`` games of a :class:`~atomic_africa.game.scenarios.ScenarioSampler`'s battles.

    Parameters
    ----------
    sampler : ScenarioSampler
    num_envs : int
        ``>= 1``.
    seed : int
        Non-negative: env ``i``'s episode ``k`` is the game of seed ``VectorGame.episode_seed(seed, i, k)``
        on the map ``sampler.pick`` draws from that seed.
    threads : int
        OpenMP threads of each call (results do not depend on it).

    Attributes
    ----------
    spec : PaddedSpec
        The layout (``num_actions``, ``observation_size``, ``C`` ...).
    sampler : ScenarioSampler
        Also :attr:`scenario`.
    maps : ndarray of int64, shape (num_envs,)
        The map each env plays now.

    Raises
    ------
    TypeError
        If ``sampler`` is not a ScenarioSampler.
    MemoryError
        If ``num_envs`` games of the largest map do not fit in the memory available.
    """

    def __init__(self, sampler, num_envs: int = 1, seed: int = 0, *, threads: int = 1):
        if not isinstance(sampler, ScenarioSampler):
            raise TypeError(f"sampler: expected a ScenarioSampler, got {type(sampler).__name__}")
        super().__init__(sampler, num_envs, seed, threads=threads)

    def _make_engine(self, sampler, rules):
        """One Engine of every map (``rules``: the sampler's own, always)."""
        if not isinstance(sampler, ScenarioSampler):
            raise TypeError(f"sampler: expected a ScenarioSampler, got {type(sampler).__name__}")
        if self.record_events:
            raise ValueError("record_events: a MixedVectorGame keeps no event records; allowed False")
        self.sampler = self.scenario = sampler
        self.spec, self.rules = sampler.padded, sampler.rules
        self.num_actions, self.observation_size = self.spec.num_actions, self.spec.observation_size
        per_env = max(env_bytes(s) for s in sampler.specs) + 4 * self.observation_size + self.num_actions
        what = f"{self.num_envs:,} games of {len(sampler)} scenarios ({per_env:,} bytes each)"
        v.check_memory(self.num_envs * per_env, "num_envs", what, "use fewer envs")
        specs, padding = engine_maps(sampler)
        try:
            self._engine = _k.Engine(specs, self.num_envs, False, padding)
        except MemoryError:
            raise v.memory_error(self.num_envs * per_env, "num_envs", what, "use fewer envs") from None
        self._shape = (self.num_envs,)
        self._all_active = np.ones(self.num_envs, dtype=np.uint8)
        self._all_envs = np.arange(self.num_envs, dtype=np.int64)
        self._maps_buf = np.empty(self.num_envs, dtype=np.int32)

    @property
    def maps(self) -> np.ndarray:
        """(num_envs,) int64: the map each env plays now."""
        with self._lock:
            self._engine.env_maps(self._maps_buf)
            return self._maps_buf.astype(np.int64)

    def start_figures(self) -> np.ndarray:
        """(num_envs, 2) float64: each side's figures at set-up in each env's battle (>= 1)."""
        per_map = np.array([np.maximum(s.initial_figures, 1) for s in self.sampler.specs], dtype=np.float64)
        return per_map[self.maps]

    def side_totals(self) -> np.ndarray:
        """As :meth:`VectorGame.side_totals` (each env summed over its own map's slots)."""
        out = np.empty((self.num_envs, 2, 3), dtype=np.int64)
        with self._lock:
            self._engine.side_totals(out)
        return out

    def _why(self, i: int, a: int) -> str:
        if not 0 <= a < self.num_actions:
            return (f"actions[{i}]: action {a} is out of range in env {i}; "
                    f"allowed 0..{self.num_actions - 1}")
        self._engine.env_maps(self._maps_buf)
        s = self._engine.arrays["scalars"][i]
        shown = legal_ids_text(self._masks()[i])
        return (f"actions[{i}]: action {a} is not legal in env {i} (map {int(self._maps_buf[i])}, stage "
                f"{Stage.NAMES[int(s[_S_STAGE])]}, player {int(s[_S_CUR])}); legal: {shown}")

    def play_games(self, game_seeds, agents, agent_seeds, *, record_actions: bool = False) -> dict:
        """As :meth:`VectorGame.play_games`, game ``j`` on the map its seed draws; the recorded
        actions are padded ids."""
        out = super().play_games(game_seeds, agents, agent_seeds, record_actions=record_actions)
        if "actions" in out:
            maps = self.maps
            out["actions"] = [self.spec.to_padded(a, int(maps[j])).astype(np.int32)
                              for j, a in enumerate(out["actions"])]
        return out

    def events(self, i: int, player=None) -> list:
        """Not kept: a MixedVectorGame records no events (ValueError)."""
        raise ValueError("record_events: a MixedVectorGame keeps no event records; use a VectorGame of "
                         "one map (record_events=True) for events")

    def c_params(self, i: int = 0):
        """Env ``i``'s current map's rules and scenario constants for Cython code
        (``aa_core.vgame.Params``, as :meth:`VectorGame.c_params`).

        Parameters
        ----------
        i : int
            Env index.

        Returns
        -------
        PyCapsule
        """
        i = v.as_int(i, "i", lo=0, hi=self.num_envs - 1)
        return self._engine.c_params(int(self.maps[i]))

    def __getstate__(self):
        raise TypeError("MixedVectorGame: snapshots (pickle, clone) are not supported; make a new one "
                        "from the sampler and seed")

    def clone(self):
        """Not supported (TypeError): see :meth:`__getstate__`."""
        return self.__getstate__()

    def __repr__(self):
        return (f"MixedVectorGame({len(self.sampler)} scenarios, num_envs={self.num_envs}, seed={self._seed}, "
                f"threads={self._threads})")
