"""Benchmark fixtures: the ``items`` recorder and a per-item ratio summary (sizes: ``_scale.py``).

Every benchmark records ``items`` (work items per call) in ``extra_info``; the summary at the end
prints, per group, the median time per item and each entry's speed relative to the others, so the
kernel / numpy baseline / reference ratios come from one run on one machine.
"""
from __future__ import annotations

import pytest


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
