"""The games of a self-play run: their seeds, and a batch of them played on either engine.

Game ``i`` of a run with root seed ``S`` is seeded from ``SeedSequence(S).spawn(N)[i]`` (its first
word is the game seed, its two spawned children seed the agents of side 0 and side 1), never from a
per-worker stream, so a game is the same whatever batch, worker or engine plays it. Agent A plays
side ``i % 2`` of game ``i`` (sides alternate, so the scenario's asymmetry cancels) unless
``alternate`` is false, where A is always side 0.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..game import Game, GameSpec
from ..game.scenarios import ScenarioSampler
from ..game.schema import END_REASONS
from ..rules import Rules
from .records import game_record, sides_of

__all__ = ["ENGINES", "DEFAULT_ENGINE", "Job", "game_seed_sequence", "game_seeds", "batch_seeds",
           "play_batch", "game_record", "sides_of"]

#: The engines a run can play on: ``native`` (aa_core's batch engine and native agents, the
#: default) and ``python`` (the reference engine ``atomic_africa.reference.game.Game`` with its Python
#: agents: a debugging option, the one place a run imports the reference).
ENGINES = ("native", "python")
#: The engine of a run that names none.
DEFAULT_ENGINE = "native"
#: Games per call of the native driver: a call cannot be interrupted, and a Ctrl-C in a
#: single-process run is seen between calls (16 greedy games take about 0.1 s).
NATIVE_CHUNK = 16


def game_seed_sequence(root_entropy, index: int) -> np.random.SeedSequence:
    """``SeedSequence(seed).spawn(n)[index]`` without spawning the ``index`` earlier children.

    Parameters
    ----------
    root_entropy : int or sequence of int
        Entropy of the root SeedSequence.
    index : int
        Game index, ``>= 0``.

    Returns
    -------
    numpy.random.SeedSequence
    """
    return np.random.SeedSequence(root_entropy, spawn_key=(index,))


def _word(ss: np.random.SeedSequence) -> int:
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))   # fits int64 columns


def game_seeds(root_entropy, index: int) -> tuple[int, list]:
    """Game ``index``'s game seed and its agents' seeds ``[side 0, side 1]``."""
    ss = game_seed_sequence(root_entropy, index)
    return _word(ss), [_word(c) for c in ss.spawn(2)]


# numpy's SeedSequence hash (numpy/random/bit_generator.pyx), on uint32 arrays: one row per game.
_M32 = 0xFFFFFFFF
_POOL = 4


def _words(n: int) -> list:
    out = [n & _M32]
    while n > _M32:
        n >>= 32
        out.append(n & _M32)
    return out


def _seedseq_word64(columns: list) -> np.ndarray:
    """``SeedSequence.generate_state(1, uint64)`` of each row of assembled entropy (a list of uint32
    columns, each an array over rows or a constant), as uint64."""
    hc = [0x43b0d7e5]

    def hashmix(value):
        value = value ^ np.uint32(hc[0])
        hc[0] = (hc[0] * 0x931e8875) & _M32
        value = value * np.uint32(hc[0])
        return value ^ (value >> np.uint32(16))

    def mix(x, y):
        r = np.uint32(0xca01f9dd) * x - np.uint32(0x4973f715) * y
        return r ^ (r >> np.uint32(16))

    pool = [hashmix(columns[i] if i < len(columns) else np.uint32(0)) for i in range(_POOL)]
    for i in range(_POOL):
        for j in range(_POOL):
            if i != j:
                pool[j] = mix(pool[j], hashmix(pool[i]))
    for i in range(_POOL, len(columns)):
        for j in range(_POOL):
            pool[j] = mix(pool[j], hashmix(columns[i]))
    out, hc = [], 0x8b51f9dd
    for i in range(2):
        v = pool[i] ^ np.uint32(hc)
        hc = (hc * 0x58f38ded) & _M32
        v = v * np.uint32(hc)
        out.append((v ^ (v >> np.uint32(16))).astype(np.uint64))
    return out[0] | (out[1] << np.uint64(32))


def batch_seeds(root_entropy, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`game_seeds` of games ``start..stop-1`` at once: game seeds (uint64, shape (m,)) and
    agent seeds (uint64, shape (m, 2)), the same values without a SeedSequence object per game (which
    costs about as much as a native random game)."""
    if not isinstance(root_entropy, int) or stop > 2**32 or stop <= start:
        pairs = [game_seeds(root_entropy, i) for i in range(start, stop)]
        return (np.array([g for g, _ in pairs], dtype=np.uint64).reshape(-1),
                np.array([a for _, a in pairs], dtype=np.uint64).reshape(-1, 2))
    run = _words(root_entropy)
    run = run + [0] * (_POOL - len(run))     # padded to the pool size when a spawn key follows
    key = np.arange(start, stop, dtype=np.uint32)
    const = [np.uint32(w) for w in run]
    with np.errstate(over="ignore"):
        game = _seedseq_word64(const + [key]) >> np.uint64(1)
        agents = [_seedseq_word64(const + [key, np.uint32(c)]) >> np.uint64(1) for c in (0, 1)]
    shape = (stop - start,)
    return (np.ascontiguousarray(np.broadcast_to(game, shape)),
            np.stack([np.broadcast_to(a, shape) for a in agents], axis=1))


class Job(NamedTuple):
    """What every batch of a run shares (sent to each worker process or Ray task with a batch)."""

    scenario: object         # Scenario
    rules: dict | None       # Rules.to_dict(), None for the packaged rules
    root_entropy: object
    agents: tuple            # names of A and B
    alternate: bool
    replays: bool
    engine: str
    search: dict | None = None   # the "ismcts" agents' parameters (check_search), None: their defaults
    learned: object = None       # Learned: the network and search of "puct" / "network" (None: none plays)

    def sides(self, index: int) -> tuple[int, tuple]:
        """(A's side, (side-0 agent, side-1 agent)) of game ``index``."""
        return sides_of(self.agents, self.alternate, index)


def _python_game(spec, job: Job, index: int, game_seed: int, agent_seeds: list):
    """One game on the reference engine with its Python agents (``engine="python"``, for debugging)."""
    from ..reference.game import Game as ReferenceGame
    from ..reference.game.agents import make_agent as reference_agent
    a_side, sides = job.sides(index)
    agents = [reference_agent(sides[p], agent_seeds[p], search=job.search) for p in range(2)]
    g = ReferenceGame(spec, game_seed)
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    r = g.result
    winner = -1 if r.winner is None else r.winner
    record = game_record(index, game_seed, a_side, sides, winner, r.reason, g.s.turn, len(g.history),
                     r.figures)
    return record, (g.to_json() if job.replays else None)


def _learned_rows(spec, job: Job, indices, seeds, agent_seeds) -> list:
    """The games of index ``indices`` when a learned agent (``"puct"``, ``"network"``) plays: all at once
    on one VectorGame (env ``j`` plays game ``indices[j]``, its native agents' and search's streams
    seeded from ``agent_seeds[j]``), each step one batched search or network call per learned side."""
    from ..agents.search import search_overrides
    from ..game import VectorGame
    from .vector_play import Side, play_vector
    indices = [int(i) for i in indices]
    vg = VectorGame.from_games(spec, seeds, agent_seeds, record_events=True)
    actions = [[] for _ in indices] if job.replays else None
    records = play_vector(vg, (Side(job.agents[0]), Side(job.agents[1])), indices, job.alternate,
                          overrides=search_overrides(job.search), learned=job.learned, actions=actions)
    seeds = seeds.tolist()
    return [(r, Game.replay(spec, seeds[j], actions[j]).to_json() if job.replays else None)
            for j, r in enumerate(records)]


def _native_games(spec, job: Job, start: int, stop: int) -> list:
    """Games ``start..stop-1`` on the native driver; a replay is ``Game.to_json()`` of the game
    rebuilt from its seed and the actions the driver recorded."""
    seeds, agent_seeds = batch_seeds(job.root_entropy, start, stop)
    if job.learned is not None:
        return _learned_rows(spec, job, range(start, stop), seeds, agent_seeds)
    return _native_rows(spec, job, range(start, stop), seeds, agent_seeds)


def _native_rows(spec, job: Job, indices, seeds, agent_seeds) -> list:
    """The games of index ``indices`` (game seeds ``seeds``, agent seeds ``agent_seeds``) natively."""
    from ..agents.native import play_agent_games
    from ..agents.search import search_overrides
    indices = [int(i) for i in indices]
    a_sides, kinds = zip(*(job.sides(i) for i in indices))
    out = play_agent_games(spec, seeds, kinds, agent_seeds, agent_params=search_overrides(job.search),
                           record_actions=job.replays, batch=NATIVE_CHUNK)
    seeds = seeds.tolist()
    played = []
    for j, index in enumerate(indices):
        record = game_record(index, seeds[j], a_sides[j], kinds[j], int(out["winner"][j]),
                             END_REASONS[int(out["reason"][j])].text, int(out["turns"][j]),
                             int(out["decisions"][j]), out["figures"][j].tolist())
        text = None
        if job.replays:
            text = Game.replay(spec, seeds[j], out["actions"][j].tolist()).to_json()
        played.append((record, text))
    return played


def _sampled_games(sampler, job: Job, start: int, stop: int) -> list:
    """Games ``start..stop-1`` when each game's battle is drawn from its seed: the games of each map
    played together (natively in one call), their records put back in game order."""
    seeds, agent_seeds = batch_seeds(job.root_entropy, start, stop)
    maps = sampler.picks(seeds)
    played = [None] * (stop - start)
    for j in np.unique(maps).tolist():
        idx = np.flatnonzero(maps == j)
        spec = sampler.specs[j]
        if job.learned is not None:
            rows = _learned_rows(spec, job, start + idx, seeds[idx], agent_seeds[idx])
        elif job.engine == "native":
            rows = _native_rows(spec, job, start + idx, seeds[idx], agent_seeds[idx])
        else:
            rows = [_python_game(spec, job, start + int(t), int(seeds[t]), agent_seeds[t].tolist()) for t in idx]
        for t, row in zip(idx.tolist(), rows):
            played[t] = row
    return played


def play_batch(job: Job, start: int, stop: int) -> list:
    """Play games ``start..stop-1`` of a run (the entry point of worker processes and Ray tasks).

    Returns
    -------
    list of (dict, str or None)
        Each game's record (keyed by :data:`~atomic_africa.selfplay.COLUMNS`) and its
        ``Game.to_json()`` when the job keeps replays, by game index.
    """
    rules = Rules.from_dict(job.rules) if job.rules is not None else None
    if isinstance(job.scenario, ScenarioSampler):
        return _sampled_games(job.scenario, job, start, stop)
    spec = GameSpec.build(job.scenario, rules)   # once per batch: its games share it
    if job.engine == "native":
        return _native_games(spec, job, start, stop)
    seeds, agent_seeds = batch_seeds(job.root_entropy, start, stop)
    seeds, agent_seeds = seeds.tolist(), agent_seeds.tolist()
    return [_python_game(spec, job, start + j, seeds[j], agent_seeds[j]) for j in range(stop - start)]
