"""A decision from C: aa_game_legal_actions + aa_game_apply over whole games of the default battle,
in a C loop (benchmarks/c_api_loop.c, linked with libatomic_africa.a built by the C core's Makefile
and called once per round through ctypes), against the same games in the Python Game. Items are
decisions, so the summary's ns/item is the time per decision (target: at most 500 ns on one core)."""
from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

import pytest
from _scale import scaled

from atomic_africa.reference.game import Game

ROOT = Path(__file__).resolve().parents[1]
GAMES_C = scaled(200, minimum=2)
GAMES_PY = scaled(4, minimum=1)


@pytest.fixture(scope="module")
def loop(c_compiler, c_library, tmp_path_factory):
    so = tmp_path_factory.mktemp("aa_bench") / "c_api_loop.so"
    subprocess.run([c_compiler, "-O3", "-shared", "-fPIC", "-I", str(ROOT / "src" / "aa_core" / "include"),
                    str(Path(__file__).with_name("c_api_loop.c")), str(c_library), "-lm",
                    "-o", str(so)], check=True, capture_output=True, timeout=300)
    lib = ctypes.CDLL(str(so))
    lib.aa_bench_play.argtypes = [ctypes.c_ulonglong, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    lib.aa_bench_play.restype = ctypes.c_long
    lib.aa_bench_spec_default.argtypes = [ctypes.c_int]
    lib.aa_bench_spec_default.restype = ctypes.c_double
    return lib


def _c_play(lib, games: int) -> tuple:
    """(decisions, CPU ns of the decisions alone) of games 0..games-1 played in C."""
    ns = ctypes.c_double()
    return lib.aa_bench_play(0, games, ctypes.byref(ns)), ns.value


def _python_play(games: int) -> int:
    decisions = 0
    for seed in range(games):
        g = Game(None, seed)
        k = 0
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[(k * 7919) % len(legal)])
            k += 1
        decisions += k
    return decisions


@pytest.mark.benchmark(group="c_api_decision")
def test_c_api_decisions(benchmark, items, loop):
    decisions, _ = _c_play(loop, GAMES_C)
    assert decisions > 0
    items(decisions)
    got = benchmark.pedantic(_c_play, args=(loop, GAMES_C), rounds=5, iterations=1)
    assert got[0] == decisions
    # The C loop's own CPU-time figure: the decisions without the games' set-up and the ctypes call.
    benchmark.extra_info["cpu_ns_per_decision"] = round(min(_c_play(loop, GAMES_C)[1] for _ in range(5)) / decisions, 1)


@pytest.mark.benchmark(group="c_api_decision")
def test_python_game_decisions(benchmark, items, loop):
    decisions = _python_play(GAMES_PY)
    assert decisions == _c_play(loop, GAMES_PY)[0]   # the same games, decision for decision
    items(decisions)
    benchmark.pedantic(_python_play, args=(GAMES_PY,), rounds=1, iterations=1)


SPEC_CALLS = scaled(2000, minimum=20)


@pytest.mark.benchmark(group="c_api_spec_default")
def test_c_api_spec_default(benchmark, items, loop):
    """aa_spec_default + aa_spec_free after a process's first spec (target: at most 50 us a call; it
    was 35-39 ms when every spec counted its own odds tables)."""
    assert loop.aa_bench_spec_default(1) > 0
    items(SPEC_CALLS)
    benchmark.pedantic(loop.aa_bench_spec_default, args=(SPEC_CALLS,), rounds=5, iterations=1)
    best_ns = min(loop.aa_bench_spec_default(SPEC_CALLS) for _ in range(5))
    benchmark.extra_info["cpu_us_per_call"] = round(best_ns / 1e3, 2)
