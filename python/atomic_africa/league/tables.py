"""A league's tables from its per-game records: win/draw/loss per pair and side with Wilson intervals,
the count matrices the ratings are fitted on, and their readable text."""
from __future__ import annotations

import numpy as np

from ..selfplay import wilson_interval
from .ratings import Ratings

__all__ = ["PAIR_COLUMNS", "RATING_COLUMNS", "outcome_matrices", "pair_table", "rating_table",
           "format_pairs", "format_ratings"]

#: Columns of the per-pair table: one row per pair (``agent_a`` listed before ``agent_b``) and side
#: of ``agent_a`` (``"0"``, ``"1"`` or ``"both"``); rates with their 95 % Wilson intervals.
PAIR_COLUMNS = ("agent_a", "agent_b", "a_side", "games", "a_wins", "draws", "b_wins",
                "a_win_rate", "a_win_low", "a_win_high", "draw_rate", "draw_low", "draw_high",
                "b_win_rate", "b_win_low", "b_win_high")
#: Columns of the ratings table.
RATING_COLUMNS = ("agent", "rating", "low", "high", "se", "games", "score")


def _a_b(record):
    """(agent A, agent B, A's score) of one game record: A played side ``a_side``."""
    side = int(record["a_side"])
    return record[f"agent_{side}"], record[f"agent_{1 - side}"], int(record["a_score"])


def outcome_matrices(records, agents) -> tuple[np.ndarray, np.ndarray]:
    """Wins and draws between the agents.

    Parameters
    ----------
    records : iterable of dict
        Per-game records (``atomic_africa.selfplay.COLUMNS``).
    agents : sequence of str
        Every agent named in the records.

    Returns
    -------
    wins, draws : ndarray of int64, shape (k, k)
        ``wins[i, j]`` games ``agents[i]`` won against ``agents[j]``; ``draws`` symmetric.

    Raises
    ------
    ValueError
        If a record names an agent not in ``agents``.
    """
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    wins = np.zeros((k, k), dtype=np.int64)
    draws = np.zeros((k, k), dtype=np.int64)
    for r in records:
        a, b, score = _a_b(r)
        if a not in index or b not in index:
            raise ValueError(f"records: game {r['game']} names an agent outside the league "
                             f"({a!r} vs {b!r}); agents: {', '.join(agents)}")
        i, j = index[a], index[b]
        if score > 0:
            wins[i, j] += 1
        elif score < 0:
            wins[j, i] += 1
        else:
            draws[i, j] += 1
            draws[j, i] += 1
    return wins, draws


def pair_table(records, agents) -> list:
    """Win/draw/loss of every pair, per side of the first agent and in total, with Wilson intervals.

    Parameters
    ----------
    records : iterable of dict
        Per-game records.
    agents : sequence of str
        The league's agents; a pair ``(a, b)`` is reported with ``a`` the one listed first.

    Returns
    -------
    list of dict
        Keyed by :data:`PAIR_COLUMNS`, three rows per pair that played (``a_side`` "0", "1", "both").
    """
    order = {a: i for i, a in enumerate(agents)}
    counts = {}
    for r in records:
        a, b, score = _a_b(r)
        side = int(r["a_side"])
        if order[a] > order[b]:
            a, b, score, side = b, a, -score, 1 - side
        for key in ((a, b, str(side)), (a, b, "both")):
            c = counts.setdefault(key, [0, 0, 0])
            c[0 if score > 0 else (1 if score == 0 else 2)] += 1
    rows = []
    for a, b in sorted({k[:2] for k in counts}, key=lambda p: (order[p[0]], order[p[1]])):
        for side in ("0", "1", "both"):
            aw, d, bw = counts.get((a, b, side), (0, 0, 0))
            n = aw + d + bw
            row = {"agent_a": a, "agent_b": b, "a_side": side, "games": n, "a_wins": aw, "draws": d,
                   "b_wins": bw}
            for name, c in (("a_win", aw), ("draw", d), ("b_win", bw)):
                lo, hi = wilson_interval(c, n)
                row[f"{name}_rate"], row[f"{name}_low"], row[f"{name}_high"] = (c / n if n else 0.0), lo, hi
            rows.append(row)
    return rows


def rating_table(ratings: Ratings, wins, draws) -> list:
    """The ratings as rows keyed by :data:`RATING_COLUMNS`, best first.

    ``games`` is the agent's number of games, ``score`` its points per game (a win 1, a draw 1/2).
    """
    wins, draws = np.asarray(wins), np.asarray(draws)
    games = wins.sum(axis=1) + wins.sum(axis=0) + draws.sum(axis=1)
    points = wins.sum(axis=1) + 0.5 * draws.sum(axis=1)
    rows = [{"agent": a, "rating": float(ratings.rating[i]), "low": float(ratings.low[i]),
             "high": float(ratings.high[i]), "se": float(ratings.se[i]), "games": int(games[i]),
             "score": float(points[i] / games[i]) if games[i] else 0.0}
            for i, a in enumerate(ratings.agents)]
    return sorted(rows, key=lambda r: -r["rating"])


def format_ratings(rows, anchor: str) -> str:
    """The ratings table as text."""
    width = max([5] + [len(r["agent"]) for r in rows])
    lines = [f"Bradley-Terry ratings (Elo scale, {anchor} = 0; 95% CI from the Fisher information)",
             f"  {'agent':<{width}s}  {'rating':>7s}  {'95% CI':>17s}  {'games':>6s}  {'score':>5s}"]
    for r in rows:
        ci = f"[{r['low']:7.1f}, {r['high']:7.1f}]"
        lines.append(f"  {r['agent']:<{width}s}  {r['rating']:7.1f}  {ci:>17s}  {r['games']:6d}  "
                     f"{r['score']:5.3f}")
    return "\n".join(lines)


def format_pairs(rows) -> str:
    """The per-pair, per-side table as text (rates with 95 % Wilson intervals)."""
    width = max([9] + [len(r["agent_a"]) + len(r["agent_b"]) + 4 for r in rows])
    lines = ["Win/draw/loss of A against B by A's side (95% Wilson CI)",
             f"  {'A vs B':<{width}s}  {'side':>4s}  {'games':>6s}  {'A wins':>26s}  {'draws':>26s}  "
             f"{'B wins':>26s}"]

    def cell(r, name, count):
        return f"{count:6d} {r[name + '_rate']:.3f} [{r[name + '_low']:.3f},{r[name + '_high']:.3f}]"

    for r in rows:
        pair = f"{r['agent_a']} vs {r['agent_b']}" if r["a_side"] == "0" else ""
        lines.append(f"  {pair:<{width}s}  {r['a_side']:>4s}  {r['games']:6d}  "
                     f"{cell(r, 'a_win', r['a_wins'])}  {cell(r, 'draw', r['draws'])}  "
                     f"{cell(r, 'b_win', r['b_wins'])}")
    return "\n".join(lines)
