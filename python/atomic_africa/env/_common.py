"""Pieces shared by the PettingZoo and Gymnasium adapters: spaces, episode seeds, text rendering."""
from __future__ import annotations

import numbers

import numpy as np

from .._gymnasium import ENV_ID
from .._seeding import seed_sequence
from ..game import Game, GameSpec
from ..game.observation_spec import check_observation, compact_indices, observation_bounds
from ..game.scenarios import sampler_of

__all__ = ["ENV_ID", "EpisodeSeeds", "observation_box", "observation_columns", "text_render", "AGENT_NAMES",
           "check_player", "check_flag", "check_reward", "action_id", "sampler_of", "Battles"]

AGENT_NAMES = ("player_0", "player_1")


def check_reward(value, name: str) -> float:
    """``value`` as a finite float, or a TypeError / ValueError naming ``name``.

    A NaN reward would pass through every sum of a learner's returns unnoticed and poison them, and a
    string such as ``"-1"`` is more likely a slip than a reward, so both are refused here rather than
    left to ``float()``.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a finite real number such as -1.0, got {type(value).__name__} "
                        f"{value!r:.60}")
    x = float(value)
    if not np.isfinite(x):
        raise ValueError(f"{name}: {x!r} is out of range; allowed finite real numbers such as -1.0")
    return x


def action_id(action, n_actions: int, name: str = "action") -> int:
    """One action id from ``action``: an integer, a numpy integer, or an integer array of one element
    (what a policy's batch of one gives); anything else is a TypeError / ValueError naming ``name``.

    ``int(action)`` alone would say ``int() argument must be ... not 'NoneType'`` or ``only length-1
    arrays can be converted``, naming neither the argument nor what it takes. The range is checked by
    the caller, which knows the legal actions.
    """
    allowed = f"an action id 0..{n_actions - 1}"
    if isinstance(action, np.ndarray):
        if action.size != 1:
            raise ValueError(f"{name}: expected one action id ({allowed}), got an array of shape {action.shape}")
        if action.dtype.kind not in "iu":
            raise TypeError(f"{name}: expected {allowed}, got an array of dtype {action.dtype}")
        return int(action.reshape(-1)[0])
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, numbers.Integral):
        raise TypeError(f"{name}: expected {allowed}, got {type(action).__name__} {action!r:.60}")
    return int(action)


class EpisodeSeeds:
    """Game seeds for successive episodes.

    ``reset(seed=s)`` plays the game ``Game(scenario, s)`` (so an episode is reproducible from the
    game seed alone, e.g. with ``atomic-africa render``) and restarts the episode stream from
    ``SeedSequence(s)``; a later ``reset()`` without a seed draws the next game seed from that
    stream. Before any seeded reset the stream comes from fresh entropy.
    """

    def __init__(self):
        self._gen = None

    def next(self, seed) -> int:
        if seed is not None:
            ss = seed_sequence(seed, "seed")
            self._gen = np.random.Generator(np.random.PCG64(ss))
            return int(seed)
        if self._gen is None:
            self._gen = np.random.Generator(np.random.PCG64(seed_sequence(None)))
        return int(self._gen.integers(0, 2**63 - 1))


class Battles:
    """The battles of a Python-engine env: one spec, or a sampler's (a battle per episode, in its
    padded layout). :attr:`layout` is what the spaces and the view are built on; :meth:`start`
    gives episode ``game_seed``'s spec; the other methods map one battle's observation, mask and
    action ids to and from the layout (nothing to map for one battle)."""

    def __init__(self, scenario, rules):
        self.sampler = sampler_of(scenario, rules)
        if self.sampler is None:
            self.layout = self.spec = GameSpec.build(scenario, rules)
        else:
            self.layout, self.spec = self.sampler.padded, self.sampler.specs[0]
        self.map = 0

    def start(self, game_seed: int):
        """The spec of the game of seed ``game_seed`` (and remember its map)."""
        if self.sampler is not None:
            self.map = self.sampler.pick(game_seed)
            self.spec = self.sampler.specs[self.map]
        return self.spec

    def observation(self, obs):
        return obs if self.sampler is None else self.layout.observation(obs, self.map)

    def mask(self, mask):
        return mask if self.sampler is None else self.layout.mask(mask, self.map)

    def to_engine(self, action: int) -> int:
        """The game's id of layout id ``action`` (-1: not an id of this battle)."""
        return action if self.sampler is None else self.layout.to_engine(action, self.map)


def observation_columns(spec, observation: str = "full"):
    """The engine's observation columns an env hands out: ``None`` for every feature
    (``observation="full"``), else :func:`~atomic_africa.game.observation_spec.compact_indices`
    (``"compact"``: the features not constant for the spec). A ValueError names the option."""
    return None if check_observation(observation) == "full" else compact_indices(spec)


def observation_box(spec, columns=None):
    """The observation Box of ``spec``: per-feature realistic bounds
    (:mod:`atomic_africa.game.observation_spec`), the same in the absolute and the side-relative view
    (a mirrored coordinate stays in [0, 1]); ``columns``: only those features (:func:`observation_columns`).
    A feature constant for the spec (bounds 0 and 0) gets the range [0, 1] (Gymnasium warns on an
    empty one); the compact observation leaves those features out."""
    from gymnasium import spaces
    low, high = observation_bounds(spec)
    high = np.where(high > low, high, np.float32(1.0)).astype(np.float32)
    if columns is not None:
        low, high = low[columns], high[columns]
    return spaces.Box(low=low, high=high, dtype=np.float32)


def text_render(game: Game) -> str:
    """A short text picture of the game: turn, stage, player to move and every unit."""
    s, sc = game.s, game.scenario
    lines = [f"{sc.name} | turn {s.turn}/{sc.turns} | stage {game.stage} | "
             f"to move: {'-' if game.is_over else f'player_{game.current_player}'}"]
    for u in s.units:
        if u.alive:
            lines.append(f"  {sc.sides[u.side].name:>6s} {u.name or u.uid:<18s} "
                         f"({u.x:6.1f}, {u.y:6.1f}) figures {u.figures:2d} markers {u.markers} "
                         f"wounds {u.wounds}")
    if game.is_over:
        r = game.result
        lines.append(f"  result: {'draw' if r.winner is None else f'player_{r.winner} wins'} ({r.reason})")
    return "\n".join(lines)


def check_player(player):
    """The Gymnasium envs' ``player``: 0 or 1 (an int, not a bool) as an int, or ``"random"``."""
    if isinstance(player, str) and player == "random":
        return player
    if isinstance(player, numbers.Integral) and not isinstance(player, (bool, np.bool_)) and player in (0, 1):
        return int(player)
    raise ValueError(f"player: {player!r} is not a player; allowed 0, 1, 'random'")


def check_flag(value, name: str) -> bool:
    """An env's on/off option (``skip_forced``, ``info_game_seed``): a bool (or numpy bool) as a bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__} {value!r}")
    return bool(value)
