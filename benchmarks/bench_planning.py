"""Planning (issue 31): copy, reseed and determinize of the default battle, and the native ISMCTS
agent's simulations against plain rollouts.

- ``planning_c``: the C API's ``aa_game_copy`` (with its ``aa_game_free``, and alone),
  ``aa_game_reseed`` and ``aa_game_determinize``, timed in C (benchmarks/planning_loop.c: thread CPU
  time, medians over batches) at the start of ``Game(None, 0)`` and 60 decisions in. The issue's bar:
  a copy of at most 2 µs.
- ``planning_vector``: ``VectorGame.copy_envs`` of one env into 64, ``reseed`` and ``determinize`` of
  64 envs, one thread; items are envs, so ns/item is the cost per env.
- ``planning_python``: ``Game.clone`` and ``Game.determinize``, the reference, for scale.
- ``planning_search``: one ISMCTS decision of ``SIMS`` simulations (random rollouts to the end)
  through the core, then as many plain rollouts from the same root (copy, determinize, the same
  rollout agent to the end), in C. ``extra_info`` holds simulations per second on one core and the
  cost of a simulation over that of a rollout of its length: the rollouts give the fixed cost (copy
  and determinization) and the cost per decision, the search's simulation lengths are counted by a
  linker wrap of ``aa_apply_action``. The issue's bar: at most 1.10.

The C figures are in each entry's ``extra_info`` and printed under the summary (``figures:``).
"""
from __future__ import annotations

import ctypes
import statistics
import subprocess
from pathlib import Path

import numpy as np
import pytest
from _scale import scaled

from atomic_africa.game import VectorGame
from atomic_africa.reference.game import Game

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "aa_core"
POSITIONS = (0, 60)                       # decisions into Game(None, 0) (c_api_loop.c's action rule)
BATCHES = scaled(31, minimum=3)
PER_BATCH = scaled(320, minimum=2)
SIMS = scaled(256, minimum=4)
REPS = scaled(9, minimum=1)               # agent seeds of the search measurement (a median over them)
ENVS = 64


@pytest.fixture(scope="module")
def loop(c_compiler, c_library, tmp_path_factory):
    so = tmp_path_factory.mktemp("aa_bench_planning") / "planning_loop.so"
    # -I csrc: the rollouts run on the core's own state, as a simulation's do; the wrap counts the
    # decisions the search applies (planning_loop.c says why)
    subprocess.run([c_compiler, "-O3", "-shared", "-fPIC", "-I", str(CORE / "include"), "-I", str(CORE / "csrc"),
                    str(Path(__file__).with_name("planning_loop.c")), str(c_library), "-lm",
                    "-Wl,--wrap=aa_apply_action", "-o", str(so)], check=True, capture_output=True, timeout=300)
    lib = ctypes.CDLL(str(so))
    out = ctypes.POINTER(ctypes.c_double)
    lib.aa_bench_planning.argtypes = [ctypes.c_ulonglong, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                      out]
    lib.aa_bench_search.argtypes = [ctypes.c_ulonglong, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                    ctypes.c_int, ctypes.c_ulonglong, out]
    return lib


def _c_planning(lib, at: int, events: int) -> dict:
    out = (ctypes.c_double * 4)()
    assert lib.aa_bench_planning(0, at, events, BATCHES, PER_BATCH, out) == 0
    return {"copy_and_free_ns": out[0], "copy_ns": out[1], "reseed_ns": out[2], "determinize_ns": out[3]}


@pytest.mark.benchmark(group="planning_c")
@pytest.mark.parametrize("events", [0, 1], ids=["events-off", "events-on"])
@pytest.mark.parametrize("at", POSITIONS, ids=[f"decision-{k}" for k in POSITIONS])
def test_c_copy_reseed_determinize(benchmark, items, loop, at, events):
    """Items are copies (each call also reseeds and determinizes as many times): the C medians are
    the figures; a copy with events on also copies the event records held."""
    items(BATCHES * PER_BATCH)
    figures = benchmark.pedantic(_c_planning, args=(loop, at, events), rounds=1, iterations=1)
    benchmark.extra_info["figures"] = {k: round(v, 1) for k, v in figures.items()}


def _c_search(lib, at: int) -> dict:
    out = (ctypes.c_double * 6)()
    sims_per_s, ratios, per_sim, lengths = [], [], [], []
    for rep in range(REPS):
        # the ISMCTSAgent defaults: random rollouts to the end, the greedy agent's best 3 per node
        assert lib.aa_bench_search(0, at, SIMS, 0, 0, 3, 1000 + rep, out) == 0
        t_sim, d_sim, t_roll, d_roll, fixed, _ = out
        per_decision = (t_roll - fixed) / d_roll
        # what SIMS rollouts of the simulations' lengths cost: the fixed part and the decisions
        ratios.append(t_sim / (fixed + per_decision * d_sim))
        sims_per_s.append(SIMS / t_sim * 1e9)
        per_sim.append(t_sim / SIMS / 1e3)
        lengths.append(d_sim / SIMS)
    return {"simulations_per_s": round(statistics.median(sims_per_s)),
            "simulation_us": round(statistics.median(per_sim), 2),
            "decisions_per_simulation": round(statistics.median(lengths), 1),
            "simulation_over_rollout": round(statistics.median(ratios), 3),
            "simulation_over_rollout_range": [round(min(ratios), 3), round(max(ratios), 3)]}


@pytest.mark.benchmark(group="planning_search")
@pytest.mark.parametrize("at", POSITIONS, ids=[f"decision-{k}" for k in POSITIONS])
def test_ismcts_simulations_against_rollouts(benchmark, items, loop, at):
    """Items are simulations and rollouts (each call runs SIMS of each, REPS times)."""
    items(2 * SIMS * REPS)
    figures = benchmark.pedantic(_c_search, args=(loop, at), rounds=1, iterations=1)
    benchmark.extra_info["figures"] = figures


@pytest.fixture(scope="module")
def vector():
    """ENVS + 1 envs of the default battle, 30 random decisions in; env 0 is the planning root."""
    vg = VectorGame(None, num_envs=ENVS + 1, seed=0, threads=1)
    for _ in range(30):
        vg.step(vg.random_actions(), observe=False)
    return vg


@pytest.mark.benchmark(group="planning_vector")
def test_vector_copy_envs_one_into_64(benchmark, items, vector):
    src, dst = np.zeros(ENVS, dtype=np.int64), np.arange(1, ENVS + 1)
    items(ENVS)
    benchmark(vector.copy_envs, src, dst)


@pytest.mark.benchmark(group="planning_vector")
def test_vector_reseed_64(benchmark, items, vector):
    envs, seeds = np.arange(ENVS), np.arange(ENVS, dtype=np.uint64) + 7
    items(ENVS)
    benchmark(vector.reseed, envs, seeds)


@pytest.mark.benchmark(group="planning_vector")
def test_vector_determinize_64(benchmark, items, vector):
    envs, seeds = np.arange(ENVS), np.arange(ENVS, dtype=np.uint64) + 11
    player = vector.current_player[:ENVS]
    items(ENVS)
    benchmark(vector.determinize, envs, player, seeds)


@pytest.fixture(scope="module")
def game():
    g = Game(None, 0)
    for k in range(60):
        legal = g.legal_actions()
        g.apply(legal[(k * 7919) % len(legal)])
    return g


@pytest.mark.benchmark(group="planning_python")
def test_python_clone(benchmark, items, game):
    items(1)
    benchmark(game.clone)


@pytest.mark.benchmark(group="planning_python")
def test_python_determinize(benchmark, items, game):
    d = game.clone()
    items(1)
    benchmark(d.determinize, game.current_player, 5)
