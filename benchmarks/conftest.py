"""Benchmark fixtures: the ``items`` recorder, the C core's static library for the C loops, and a
per-item ratio summary (sizes: ``_scale.py``).

Every benchmark records ``items`` (work items per call) in ``extra_info``; the summary at the end
prints, per group, the median time per item and each entry's speed relative to the others, so the
kernel / numpy baseline / reference ratios come from one run on one machine.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def c_compiler() -> str:
    """The system C compiler, by path (a benchmark finds no program on PATH)."""
    return "/usr/bin/gcc" if os.access("/usr/bin/gcc", os.X_OK) else "/usr/bin/cc"


@pytest.fixture(scope="session")
def c_library(c_compiler, tmp_path_factory) -> Path:
    """libatomic_africa.a built once per session by the C core's Makefile at -O3 (for the C loops of
    bench_c_api.py and bench_planning.py)."""
    build = tmp_path_factory.mktemp("aa_bench_lib")
    subprocess.run(["/usr/bin/make", "-s", "-j2", "-C", str(ROOT / "src" / "aa_core"), f"BUILD={build}",
                    f"CC={c_compiler}", "CFLAGS=-O3"], check=True, capture_output=True, timeout=900)
    return build / "libatomic_africa.a"


@pytest.fixture
def items(benchmark):
    """Call ``items(n)`` inside a benchmark to record its per-call work."""
    def record(n):
        benchmark.extra_info["items"] = int(n)
        return n
    return record


def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not getattr(session, "benchmarks", None):
        return
    groups = {}
    for bench in session.benchmarks:
        if bench.stats is None or "items" not in bench.extra_info:
            continue
        per_item = bench.stats.median / bench.extra_info["items"]
        groups.setdefault(bench.group or "-", []).append((bench.name, per_item, bench.extra_info))
    if not groups:
        return
    tr = terminalreporter
    tr.section("median time per item and ratios (same run)")
    for group, rows in sorted(groups.items()):
        rows.sort(key=lambda r: r[1])
        fastest = rows[0][1]
        tr.write_line(f"[{group}]")
        for name, per_item, info in rows:
            tr.write_line(f"  {name:<48s} {per_item * 1e9:12.3f} ns/item  "
                          f"{per_item / fastest:10.1f}x slower than fastest   items={info['items']:,}")
            if "ratios" in info:     # an entry that measures several loops interleaved
                tr.write_line("    ratios: " + ", ".join(f"{k} x{v:.3f}" for k, v in info["ratios"].items()))
            if "figures" in info:    # an entry whose own figures were measured inside it (timed in C)
                tr.write_line("    figures: " + ", ".join(f"{k} {v}" for k, v in info["figures"].items()))
