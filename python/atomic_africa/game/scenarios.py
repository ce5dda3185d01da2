"""A scenario per episode: :class:`ScenarioSampler` draws each game's battle from a list (or from
generated maps) and :class:`PaddedSpec` gives every battle of the list one observation and action
layout.

**Which battle.** Game seed ``g`` plays map ``sampler.pick(g)``: the first 64-bit word of
``SeedSequence(g, spawn_key=(3,))`` (spawn keys 0-2 are the sides' agent streams and the learner's
side) as a uniform number in [0, 1), placed on the cumulative ``weights``. So a game depends on its
seed alone, whatever the number of envs, threads or workers, and every engine plays the same game
for the same seed.

**One shape for all.** The observation and the action ids of map ``j`` are those of its own
:class:`~atomic_africa.game.spec.GameSpec` (``C_j`` unit slots a side, ``F_j`` terrain features,
``A_j`` assets), padded to the set's fixed capacity: ``C = max C_j`` unit slots per side,
``F = max F_j`` terrain feature slots and ``A = max A_j`` asset ids, the rules (deck, directions)
being common. Map ``j``'s own unit slot ``k`` is padded slot ``k`` (own and enemy blocks alike), its
feature ``f`` padded feature ``f``; the unused slots are empty (all 0, as an empty slot of a single
battle) and their action ids never legal. The action segments are laid out for ``C``, ``F`` and
``A`` (:class:`~atomic_africa.game.actions.ActionSpace`), so an id means the same in every map:
assign card ``c`` to own slot ``u`` is ``base + c * C + u`` everywhere. The padded observation's
bounds are the largest of the maps' (realistic and guaranteed alike), and ``observation="compact"``
drops the padded features constant in every map.

``ScenarioSampler.generated(maps, seed=..., **knobs)`` is the list of ``maps`` battles
:meth:`Scenario.generate <atomic_africa.game.scenario.Scenario.generate>` makes from map seeds
``SeedSequence(seed, spawn_key=(j,))`` (built once, about 10 ms a map).
"""
from __future__ import annotations

import numbers

import numpy as np

from .actions import SEGMENTS, ActionSpace
from .observe import UNIT_FEATURES
from .scenario import Scenario
from .schema import HEAD_OBSERVATION
from .spec import GameSpec

__all__ = ["ScenarioSampler", "PaddedSpec", "map_seed", "sampler_of"]

_HEAD = sum(width for _, width, _ in HEAD_OBSERVATION)   # turn, stage one-hot, to_move, activating, six piles


def map_seed(seed: int, j: int) -> int:
    """Seed of map ``j`` of :meth:`ScenarioSampler.generated` with seed ``seed``."""
    return int(np.random.SeedSequence(seed, spawn_key=(j,)).generate_state(1, np.uint64)[0] >> 1)


class PaddedSpec:
    """The fixed layout of a set of battles of one rules set (see the module notes).

    Attributes
    ----------
    specs : tuple of GameSpec
    C : int
        Unit slots per side.
    features, assets : int
        Terrain feature slots and asset ids.
    rules, deck :
        The common rules and deck.
    space : ActionSpace
        The padded action space.
    num_actions, observation_size : int
    """

    def __init__(self, specs):
        specs = tuple(specs)
        if not specs:
            raise ValueError("scenario: an empty list of scenarios; give at least one")
        rules = specs[0].rules
        for s in specs[1:]:
            if s.rules != rules:
                raise ValueError("scenario: the scenarios of a list must share one rules set")
        self.specs, self.rules, self.deck = specs, rules, specs[0].deck
        self.C = max(s.C for s in specs)
        self.features = max(len(s.scenario.terrain) for s in specs)
        self.assets = max(s.space.n_assets for s in specs)
        m = rules.movement
        self.space = ActionSpace(self.deck.size, self.C, self.assets, m.directions, len(m.distance_fractions),
                                 self.features)
        self.num_actions = self.space.n
        self.observation_size = _HEAD + self.deck.size + 2 * self.C * UNIT_FEATURES + self.features
        self._maps = [self._map(s) for s in specs]
        self._block_maps = [self._blocks(s) for s in specs]
        self._bounds = {}

    def _map(self, spec):
        """(observation index, engine id -> padded id, padded id -> engine id or -1) of ``spec``."""
        n, C, UF = self.deck.size, spec.C, UNIT_FEATURES
        head = np.arange(_HEAD + n)
        own = _HEAD + n + (np.arange(C)[:, None] * UF + np.arange(UF)).ravel()
        off_enemy = self.C * UF
        terrain = _HEAD + n + 2 * self.C * UF + np.arange(len(spec.scenario.terrain))
        obs_index = np.concatenate([head, own, own + off_enemy, terrain]).astype(np.intp)
        assert obs_index.size == spec.observation_size
        src, dst = spec.space, self.space
        to_padded = np.empty(spec.num_actions, dtype=np.int64)
        for name in SEGMENTS:
            b, size = src.base[name], src.size[name]
            ids = np.arange(size)
            if name == "ASSIGN":        # card c, own slot u
                c, u = np.divmod(ids, C)
                out = c * self.C + u
            elif name == "TARGET":      # global slot: side * C + k
                side, k = np.divmod(ids, C)
                out = side * self.C + k
            else:                       # the same index in a segment at least as long
                out = ids
            to_padded[b:b + size] = dst.base[name] + out
        from_padded = np.full(self.num_actions, -1, dtype=np.int64)
        from_padded[to_padded] = np.arange(spec.num_actions)
        return obs_index, to_padded, from_padded

    def _blocks(self, spec):
        """The padding as a few block copies: (observation blocks, action blocks), each
        ``(src_lo, dst_lo, sub_rows, src_width, dst_width)`` (``sub_rows`` rows of ``src_width`` values
        into rows of ``dst_width``)."""
        n, C, UF = self.deck.size, spec.C, UNIT_FEATURES
        units = _HEAD + n
        obs = [(0, 0, 1, units, units), (units, units, 1, C * UF, C * UF),
               (units + C * UF, units + self.C * UF, 1, C * UF, C * UF),
               (units + 2 * C * UF, units + 2 * self.C * UF, 1, len(spec.scenario.terrain),
                len(spec.scenario.terrain))]
        acts = []
        for name in SEGMENTS:
            sb, db, size = spec.space.base[name], self.space.base[name], spec.space.size[name]
            if name == "ASSIGN":
                acts.append((sb, db, self.deck.size, C, self.C))
            elif name == "TARGET":
                acts.append((sb, db, 2, C, self.C))
            else:
                acts.append((sb, db, 1, size, size))
        return [b for b in obs if b[3]], [b for b in acts if b[3]]

    def scatter(self, dst, src, j: int, what: str) -> None:
        """Write map ``j``'s rows ``src`` ((k, its size)) into the padded rows ``dst`` ((k, padded
        size), zeros where nothing goes): ``what`` is ``"observation"`` or ``"mask"``."""
        blocks = self._block_maps[j][0 if what == "observation" else 1]
        k = src.shape[0]
        for s0, d0, r, sw, dw in blocks:
            if r == 1:
                dst[:, d0:d0 + sw] = src[:, s0:s0 + sw]
            else:
                view = dst[:, d0:d0 + r * dw].reshape(k, r, dw)
                view[:, :, :sw] = src[:, s0:s0 + r * sw].reshape(k, r, sw)

    def maps(self, j: int):
        """Map ``j``'s (observation index, ``to_padded``, ``from_padded``) arrays."""
        return self._maps[j]

    def observation(self, obs, j: int) -> np.ndarray:
        """Map ``j``'s observations ``obs`` (``(..., spec_j.observation_size)``) in the padded layout."""
        obs = np.asarray(obs, dtype=np.float32)
        out = np.zeros(obs.shape[:-1] + (self.observation_size,), dtype=np.float32)
        out[..., self._maps[j][0]] = obs
        return out

    def mask(self, mask, j: int) -> np.ndarray:
        """Map ``j``'s action masks ``mask`` (``(..., spec_j.num_actions)``) in the padded ids."""
        mask = np.asarray(mask, dtype=bool)
        out = np.zeros(mask.shape[:-1] + (self.num_actions,), dtype=bool)
        out[..., self._maps[j][1]] = mask
        return out

    def to_padded(self, action, j: int):
        """Map ``j``'s engine ids as padded ids (an int or an array; -1 stays -1)."""
        a = np.asarray(action, dtype=np.int64)
        out = np.where(a >= 0, self._maps[j][1][np.maximum(a, 0)], -1)
        return int(out) if out.ndim == 0 else out

    def to_engine(self, action, j: int):
        """Padded ids as map ``j``'s engine ids: -1 for an id map ``j`` does not have (or out of range)."""
        a = np.asarray(action, dtype=np.int64)
        inside = (a >= 0) & (a < self.num_actions)
        out = np.where(inside, self._maps[j][2][np.where(inside, a, 0)], -1)
        return int(out) if out.ndim == 0 else out

    def observation_bounds(self, kind: str = "realistic") -> tuple:
        """The padded ``(low, high)``: each feature's largest bound over the maps (float32)."""
        from .observation_spec import observation_bounds
        if kind not in self._bounds:
            high = np.zeros(self.observation_size, dtype=np.float32)
            for j, s in enumerate(self.specs):
                h = observation_bounds(s, kind)[1]
                idx = self._maps[j][0]
                high[idx] = np.maximum(high[idx], h)
            self._bounds[kind] = (np.zeros(self.observation_size, dtype=np.float32), high)
        low, high = self._bounds[kind]
        return low.copy(), high.copy()

    def compact_indices(self) -> np.ndarray:
        """The padded features not constant in every map (guaranteed bound above 0)."""
        return np.flatnonzero(self.observation_bounds("guaranteed")[1] > 0).astype(np.intp)

    def __repr__(self):
        return (f"PaddedSpec({len(self.specs)} scenarios, slots={self.C}, features={self.features}, "
                f"assets={self.assets}, actions={self.num_actions}, observation_size={self.observation_size})")


class ScenarioSampler:
    """A list of battles, one drawn per game from its seed (see the module notes).

    Parameters
    ----------
    scenarios : sequence
        Scenarios in any form :func:`~atomic_africa.game.scenario.load_scenario` takes (Scenario,
        packaged name, path, dict) or GameSpecs; at least one.
    weights : sequence of float, optional
        Relative weight of each (default: all equal); finite, >= 0, not all 0.
    rules : Rules, dict, path or None
        The rules of every battle (the packaged defaults if omitted).

    Attributes
    ----------
    specs : tuple of GameSpec
    padded : PaddedSpec
        The common layout.
    weights : ndarray of float64
        Normalised.

    Raises
    ------
    ValueError, TypeError
        On an empty list, bad weights, a scenario that does not load, or GameSpecs of other rules.
    """

    def __init__(self, scenarios, *, weights=None, rules=None):
        if isinstance(scenarios, (str, bytes, dict, Scenario, GameSpec)) or not hasattr(scenarios, "__iter__"):
            raise TypeError(f"scenarios: expected a list of scenarios, got {type(scenarios).__name__}")
        self.specs = tuple(GameSpec.build(s, None if isinstance(s, GameSpec) else rules) for s in scenarios)
        self.padded = PaddedSpec(self.specs)
        n = len(self.specs)
        try:
            w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
        except (TypeError, ValueError):     # numpy's "could not convert string to float" names no argument
            w = np.full(n, np.nan)
        if w.shape != (n,) or not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights: expected {n} finite weights >= 0, not all 0, got {weights!r}")
        self.weights = w / w.sum()
        self._cum = np.cumsum(self.weights)
        self._cum[-1] = 1.0

    @classmethod
    def generated(cls, maps: int, *, seed: int = 0, rules=None, **knobs) -> ScenarioSampler:
        """``maps`` generated battles, map ``j`` being ``Scenario.generate(map_seed(seed, j), **knobs)``.

        Raises
        ------
        TypeError, ValueError
            On a bad ``maps``, ``seed`` or knob (named).
        """
        if isinstance(maps, (bool, np.bool_)) or not isinstance(maps, numbers.Integral) or maps < 1:
            raise ValueError(f"maps: expected an int >= 1, got {maps!r}")
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"seed: expected a non-negative int, got {seed!r}")
        return cls([Scenario.generate(map_seed(int(seed), j), **knobs) for j in range(int(maps))], rules=rules)

    def __len__(self) -> int:
        return len(self.specs)

    @property
    def rules(self):
        return self.padded.rules

    def pick(self, game_seed) -> int:
        """The map game seed ``game_seed`` plays (see the module notes)."""
        if len(self.specs) == 1:
            return 0
        x = int(np.random.SeedSequence(int(game_seed), spawn_key=(3,)).generate_state(1, np.uint64)[0])
        return int(min(np.searchsorted(self._cum, x / 2.0 ** 64, side="right"), len(self.specs) - 1))

    def picks(self, game_seeds) -> np.ndarray:
        """:meth:`pick` of each game seed (int64)."""
        return np.array([self.pick(int(g)) for g in np.asarray(game_seeds).tolist()], dtype=np.int64)

    def __reduce__(self):
        return (_rebuild, ([s.scenario.to_dict() for s in self.specs], self.weights.tolist(), self.rules.to_dict()))

    def __repr__(self):
        return f"ScenarioSampler({len(self)} scenarios, {self.padded!r})"


def _rebuild(scenarios, weights, rules):
    from ..rules import Rules
    return ScenarioSampler([Scenario.from_dict(d) for d in scenarios], weights=weights, rules=Rules.from_dict(rules))


def sampler_of(scenario, rules=None):
    """A :class:`ScenarioSampler` when ``scenario`` is one or a list or tuple of scenarios (a battle
    drawn per game), else None (one battle: any form :func:`~atomic_africa.game.load_scenario` takes)."""
    if isinstance(scenario, ScenarioSampler):
        return scenario
    if isinstance(scenario, (list, tuple)):
        return ScenarioSampler(scenario, rules=rules)
    return None
