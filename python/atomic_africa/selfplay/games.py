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

from ..agents import make_agent
from ..game import Game, GameSpec
from ..game.schema import END_REASONS
from ..rules import Rules

__all__ = ["ENGINES", "DEFAULT_ENGINE", "Job", "game_seed_sequence", "game_seeds", "play_batch", "game_record", "sides_of"]

#: The engines a run can play on: ``native`` (aa_core's batch engine and native agents, the
#: default) and ``python`` (:class:`~atomic_africa.game.Game` with the Python agents, the reference).
ENGINES = ("native", "python")
#: The engine of a run that names none.
DEFAULT_ENGINE = "python"
#: Most games of one native driver call: a call cannot be interrupted, and a Ctrl-C in a
#: single-process run is seen between calls (64 greedy games take well under a second).
NATIVE_CHUNK = 64


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


class Job(NamedTuple):
    """What every batch of a run shares (sent to each worker process or Ray task with a batch)."""

    scenario: object         # Scenario
    rules: dict | None       # Rules.to_dict(), None for the packaged rules
    root_entropy: object
    agents: tuple            # names of A and B
    alternate: bool
    replays: bool
    engine: str

    def sides(self, index: int) -> tuple[int, tuple]:
        """(A's side, (side-0 agent, side-1 agent)) of game ``index``."""
        return sides_of(self.agents, self.alternate, index)


def sides_of(agents, alternate: bool, index: int) -> tuple[int, tuple]:
    """(A's side, (side-0 agent, side-1 agent)) of game ``index`` between agents ``(A, B)``."""
    a_side = index % 2 if alternate else 0
    a, b = agents
    return a_side, ((a, b) if a_side == 0 else (b, a))


def game_record(index, seed, a_side, sides, winner, reason, turns, decisions, figures) -> dict:
    """A game's row of the results table (:data:`~atomic_africa.selfplay.COLUMNS`)."""
    return {"game": index, "seed": seed, "agent_0": sides[0], "agent_1": sides[1], "a_side": a_side,
            "winner": winner, "a_score": 0 if winner < 0 else (1 if winner == a_side else -1),
            "reason": reason, "turns": turns, "decisions": decisions, "figures_0": figures[0],
            "figures_1": figures[1]}


def _python_game(spec, job: Job, index: int):
    game_seed, agent_seeds = game_seeds(job.root_entropy, index)
    a_side, sides = job.sides(index)
    agents = [make_agent(sides[p], agent_seeds[p]) for p in range(2)]
    g = Game(spec, game_seed)
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    r = g.result
    winner = -1 if r.winner is None else r.winner
    record = game_record(index, game_seed, a_side, sides, winner, r.reason, g.s.turn, len(g.history),
                     r.figures)
    return record, (g.to_json() if job.replays else None)


def _native_games(spec, job: Job, start: int, stop: int) -> list:
    """Games ``start..stop-1`` in one call of the native driver; a replay is the Python engine's
    ``Game.to_json()`` of the game rebuilt from its seed and the actions the driver recorded."""
    seeds, agent_seeds, a_sides, kinds = [], [], [], []
    for i in range(start, stop):
        gs, ags = game_seeds(job.root_entropy, i)
        a_side, sides = job.sides(i)
        seeds.append(gs)
        agent_seeds.append(ags)
        a_sides.append(a_side)
        kinds.append(sides)
    played = []
    for lo in range(0, len(seeds), NATIVE_CHUNK):
        hi = min(len(seeds), lo + NATIVE_CHUNK)
        played += _native_chunk(spec, job, start + lo, seeds[lo:hi], agent_seeds[lo:hi], a_sides[lo:hi],
                                kinds[lo:hi])
    return played


def _native_chunk(spec, job, start, seeds, agent_seeds, a_sides, kinds) -> list:
    from ..game.vector import play_agent_games
    out = play_agent_games(spec, np.array(seeds, dtype=np.uint64), kinds,
                           np.array(agent_seeds, dtype=np.uint64), record_actions=job.replays)
    played = []
    for j in range(len(seeds)):
        i = start + j
        record = game_record(i, seeds[j], a_sides[j], kinds[j], int(out["winner"][j]),
                         END_REASONS[int(out["reason"][j])].text, int(out["turns"][j]),
                         int(out["decisions"][j]), [int(f) for f in out["figures"][j]])
        text = None
        if job.replays:
            text = Game.replay(spec, seeds[j], [int(a) for a in out["actions"][j]]).to_json()
        played.append((record, text))
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
    spec = GameSpec.build(job.scenario, rules)   # once per batch: its games share it
    if job.engine == "native":
        return _native_games(spec, job, start, stop)
    return [_python_game(spec, job, i) for i in range(start, stop)]
