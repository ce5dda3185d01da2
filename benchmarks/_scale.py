"""Benchmark sizes scaled by the AA_BENCH_SCALE environment variable (1.0 unless set).

The benchmark files import ``scaled`` and ``SCALE`` from here (pytest puts this folder on
``sys.path`` when it collects them); ``conftest.py`` keeps only the fixtures and the summary.
"""
from __future__ import annotations

import os

SCALE = float(os.environ.get("AA_BENCH_SCALE", "1.0"))


def scaled(n: int, minimum: int = 10) -> int:
    """``n`` times AA_BENCH_SCALE, at least ``minimum``."""
    return max(minimum, int(n * SCALE))
