"""Self-play games per second for every pair of built-in agents: the native engine on 1 and 2 threads
(:func:`atomic_africa.agents.native.play_agent_games`, whole games in one native call) against the
Python reference (``Game`` + :func:`atomic_africa.agents.make_agent`, the ``--engine python`` path of
``atomic-africa selfplay``), on meeting_engagement as it was before issue 35 (the default scenario until issue 14;
``_scale.BENCH_BATTLE``).

One group per pair (``pair_<a>_<b>``, ``a`` playing side 0 in even games and side 1 in odd ones, as the
self-play job alternates them); entries ``native_t1``, ``native_t2`` and ``python``. ``items`` are
finished games, so the summary's ratios are games/s against the Python loop in the same run.
Targets of issue 13, read off one run: random vs random ``native_t1`` >= 1,000 games/s, greedy vs
greedy ``native_t1`` >= 300 games/s. Sizes scale with ``AA_BENCH_SCALE``.
"""
import itertools

import numpy as np
import pytest
from _scale import BENCH_BATTLE, scaled

from atomic_africa.reference.game.agents import AGENTS, make_agent
from atomic_africa.agents.native import play_agent_games
from atomic_africa.game import GameSpec, load_scenario
from atomic_africa.reference.game import Game

# The battle docs/performance.md's figures were measured on (the default scenario until issue 14).
SPEC = GameSpec.build(load_scenario(BENCH_BATTLE), None)
NATIVE_GAMES = scaled(1024, minimum=2)
# The Python greedy agent plays about 2 games/s: a few games per round keep the run short.
PYTHON_GAMES = {"random": scaled(40, minimum=1), "heuristic": scaled(8, minimum=1),
                "doctrine": scaled(8, minimum=1), "greedy": scaled(2, minimum=1)}
# The search agent is left out: a game of it costs thousands of rollouts, not one decision's rules
# (its speed, in simulations per second, is bench_planning.py's).
PAIRS = list(itertools.combinations_with_replacement(sorted(set(AGENTS) - {"ismcts"}), 2))


def _sides(pair, m):
    """Per game (side 0, side 1) agent names: the pair's first agent on side i % 2 of game i."""
    a, b = pair
    return [(a, b) if i % 2 == 0 else (b, a) for i in range(m)]


def _seeds(m):
    return np.arange(m, dtype=np.uint64), np.arange(2 * m, dtype=np.uint64).reshape(m, 2) + np.uint64(m)


def _python_games(pair, m):
    game_seeds, agent_seeds = _seeds(m)
    decisions = 0
    for i, names in enumerate(_sides(pair, m)):
        agents = [make_agent(names[p], int(agent_seeds[i, p])) for p in (0, 1)]
        g = Game(SPEC, int(game_seeds[i]))
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
        decisions += len(g.history)
    return decisions


@pytest.mark.parametrize("entry", ["native_t1", "native_t2", "python"])
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}_{p[1]}")
def test_selfplay_pair(benchmark, items, pair, entry):
    benchmark.group = f"pair_{pair[0]}_{pair[1]}"
    if entry == "python":
        m = min(PYTHON_GAMES[a] for a in pair)
        decisions = benchmark.pedantic(_python_games, args=(pair, m), rounds=3, iterations=1)
    else:
        m = NATIVE_GAMES
        game_seeds, agent_seeds = _seeds(m)
        threads = int(entry[-1])
        r = benchmark.pedantic(play_agent_games, args=(SPEC, game_seeds, _sides(pair, m), agent_seeds),
                               kwargs={"threads": threads}, rounds=5, iterations=1)
        decisions = int(r["decisions"].sum())
        benchmark.extra_info["threads"] = threads
    items(m)
    benchmark.extra_info.update(games=m, decisions=decisions)
