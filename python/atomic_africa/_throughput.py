"""Throughput ratios measured in one process: interleaved rounds, medians (benchmarks and the CI guard).

Absolute times drift on a shared machine (pytest-benchmark's compare mode flapped by +74 % with no
change), but two loops timed in alternation, round after round, see the same machine: the median of
their per-round ratios is stable. The benchmarks print these ratios; benchmarks/throughput_guard.py
checks them against thresholds with margin.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping

__all__ = ["interleaved_ratios"]


def interleaved_ratios(entries: Mapping[str, Callable[[], object]], baseline: str, *, rounds: int = 7,
                       repeat: int = 1) -> dict[str, float]:
    """Median over ``rounds`` of each entry's time divided by ``baseline``'s time in the same round.

    Parameters
    ----------
    entries : mapping of name to a callable of no arguments
        The loops to compare, each doing the same amount of work per call; called in turn in every
        round (the order rotates so that none always runs first).
    baseline : str
        The entry the others are divided by (its own ratio is 1).
    rounds : int
        Rounds, ``>= 1``; each times every entry once (``repeat`` calls).
    repeat : int
        Calls per entry per round, ``>= 1``.

    Returns
    -------
    dict
        ``{name: median ratio}``; above 1 means slower than the baseline.
    """
    if baseline not in entries:
        raise ValueError(f"baseline: {baseline!r} is not an entry; allowed {sorted(entries)}")
    if rounds < 1 or repeat < 1:
        raise ValueError(f"rounds, repeat: expected >= 1, got {rounds}, {repeat}")
    names = list(entries)
    for f in entries.values():   # warm caches and memos outside the timed rounds
        f()
    per_round = {name: [] for name in names}
    for r in range(rounds):
        times = {}
        for name in names[r % len(names):] + names[:r % len(names)]:
            f = entries[name]
            t0 = time.perf_counter()
            for _ in range(repeat):
                f()
            times[name] = time.perf_counter() - t0
        for name in names:
            per_round[name].append(times[name] / times[baseline])
    return {name: statistics.median(per_round[name]) for name in names}
