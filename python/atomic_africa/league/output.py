"""A league's files: three tables (Parquet or CSV) and a picture (PNG), each written under a temporary
name and renamed into place.

``--out league.csv`` writes ``league.csv`` (one row per game, :data:`atomic_africa.selfplay.COLUMNS`,
readable by :func:`atomic_africa.selfplay.read_results`), ``league.ratings.csv``
(:data:`.tables.RATING_COLUMNS`) and ``league.pairs.csv`` (:data:`.tables.PAIR_COLUMNS`); a path not
ending in ``.csv`` gives the same three as Parquet (the ``parquet`` extra).
"""
from __future__ import annotations

import csv
import os

import numpy as np

from .._atomic_write import check_writable, replaced_atomically
from .._plotting import canvas_figure, plain, save_figure
from .._optional import require
from ..selfplay import COLUMNS
from .tables import PAIR_COLUMNS, RATING_COLUMNS

__all__ = ["table_paths", "check_outputs", "write_tables", "plot_league"]


def _is_csv(path) -> bool:
    return os.fspath(path).lower().endswith(".csv")


def table_paths(path) -> dict:
    """``{"games": path, "ratings": ..., "pairs": ...}``: ``x.csv`` -> ``x.ratings.csv``, ``x.pairs.csv``."""
    path = os.fspath(path)
    stem, ext = os.path.splitext(path)
    return {"games": path, "ratings": f"{stem}.ratings{ext}", "pairs": f"{stem}.pairs{ext}"}


def check_outputs(out=None, png=None) -> None:
    """Everything the outputs need, checked before the first game: writable paths, pyarrow for
    Parquet, matplotlib for the PNG (:class:`~atomic_africa._optional.MissingExtraError` names the extra).

    Raises
    ------
    ValueError
        Naming ``--out`` or ``--png`` and the path that cannot be written.
    """
    if out is not None:
        for p in table_paths(out).values():
            try:
                check_writable(p)
            except ValueError as exc:
                raise ValueError(f"out: {exc}") from None
        if not _is_csv(out):
            require("pyarrow.parquet", "parquet", "Parquet league tables; a .csv file needs nothing")
    if png is not None:
        try:
            check_writable(png)
        except ValueError as exc:
            raise ValueError(f"png: {exc}") from None
        require("matplotlib", "plot", "the league's picture (--png)")


def _write(rows, columns, path, metadata) -> None:
    if _is_csv(path):
        with replaced_atomically(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(columns)
            for r in rows:
                w.writerow([r[c] for c in columns])
        return
    import pyarrow as pa
    import pyarrow.parquet as pq
    data = {c: [r[c] for r in rows] for c in columns}
    # A native game's seed is a full 64-bit word: unsigned, so every seed fits.
    types = {"seed": pa.uint64()} if "seed" in columns else {}
    table = pa.table({c: pa.array(v, type=types.get(c)) for c, v in data.items()})
    table = table.replace_schema_metadata(metadata)
    sink = pa.BufferOutputStream()     # pyarrow deletes a path it fails to write: write a buffer
    pq.write_table(table, sink)
    with replaced_atomically(path) as tmp, open(tmp, "wb") as fh:
        fh.write(sink.getvalue())


def write_tables(result, path, prior_draws: float = 1.0) -> dict:
    """Write the games, ratings and pairs tables of a :class:`.play.LeagueResult`.

    Parameters
    ----------
    result : LeagueResult
    path : str or PathLike
        The games table; the other two beside it (:func:`table_paths`).

    Returns
    -------
    dict
        The paths written, as :func:`table_paths`.

    Raises
    ------
    atomic_africa._atomic_write.WriteError
        Naming the file that could not be written (any earlier file of the three is complete).
    """
    paths = table_paths(path)
    meta = {"agents": ",".join(result.agents), "seed": str(result.seed), "games_per_pair": str(result.games)}
    _write(result.records, COLUMNS, paths["games"], meta)
    _write(result.rating_rows(prior_draws), RATING_COLUMNS, paths["ratings"], meta)
    _write(result.pair_rows(), PAIR_COLUMNS, paths["pairs"], meta)
    return paths


def plot_league(result, path, prior_draws: float = 1.0) -> str:
    """A PNG: the ratings with their 95 % intervals, and each pair's score matrix (W-D-L per cell).

    Returns
    -------
    str
        ``path``.
    """
    require("matplotlib", "plot", "the league's picture (--png)")
    ratings = result.ratings(prior_draws)
    wins, draws = result.outcomes()
    k = len(result.agents)
    names = [plain(a) for a in result.agents]
    fig = canvas_figure((6 + 0.9 * k, 1.5 + 0.45 * k + 2.5), 100, "the league's picture (--png)")
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.1]})
    order = np.argsort(ratings.rating)
    y = np.arange(k)
    r = ratings.rating[order]
    left.errorbar(r, y, xerr=[r - ratings.low[order], ratings.high[order] - r], fmt="o", capsize=4,
                  color="#1f5fbf")
    left.set_yticks(y, [names[i] for i in order])
    left.axvline(0.0, color="#b0b0b0", lw=0.8, zorder=0)
    left.set_xlabel(f"Bradley-Terry rating (Elo scale, {names[0]} = 0), 95% CI")
    left.set_title("Ratings")
    games = wins + wins.T + draws
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(games > 0, (wins + 0.5 * draws) / games, np.nan)
    image = right.imshow(score, vmin=0.0, vmax=1.0, cmap="RdBu")
    for i in range(k):
        for j in range(k):
            if i != j and games[i, j]:
                right.text(j, i, f"{wins[i, j]}-{draws[i, j]}-{wins[j, i]}", ha="center", va="center",
                           fontsize=8, color="black")
    right.set_xticks(range(k), names, rotation=30, ha="right")
    right.set_yticks(range(k), names)
    right.set_title("Row vs column: W-D-L")
    fig.colorbar(image, ax=right, label="row's score per game", shrink=0.8)
    fig.tight_layout()
    save_figure(fig, path)
    return os.fspath(path)
