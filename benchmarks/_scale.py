"""Benchmark sizes scaled by the AA_BENCH_SCALE environment variable (1.0 unless set), and the battle
the game-throughput benchmarks play.

The benchmark files import ``scaled``, ``SCALE`` and ``BENCH_BATTLE`` from here (pytest puts this folder on
``sys.path`` when it collects them); ``conftest.py`` keeps only the fixtures and the summary.
"""
from __future__ import annotations

import os
from pathlib import Path

SCALE = float(os.environ.get("AA_BENCH_SCALE", "1.0"))


def scaled(n: int, minimum: int = 10) -> int:
    """``n`` times AA_BENCH_SCALE, at least ``minimum``."""
    return max(minimum, int(n * SCALE))


#: The battle of the game-throughput benchmarks (bench_env, bench_game, bench_selfplay, bench_threads,
#: bench_vector): the packaged ``meeting_engagement`` as it was before issue 35 balanced it, kept as
#: a test fixture, so that the figures of docs/performance.md stay comparable across scenario changes.
BENCH_BATTLE = str(Path(__file__).resolve().parents[1] / "tests" / "support" / "lopsided_meeting.toml")
