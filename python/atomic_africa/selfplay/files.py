"""Self-play output files: the per-game results table (Parquet or CSV) and replays (JSON lines).

:func:`write_results` and :func:`write_replays` write a finished in-memory run at once (under a
temporary name, renamed into place); :mod:`.stream` writes a long run as it goes, in the same
formats.
"""
from __future__ import annotations

import csv
import io
import os

from .._atomic_write import replaced_atomically
from .._optional import require
from .result import COLUMNS, SelfPlayResult

__all__ = ["results_format", "write_results", "read_results", "write_replays", "arrow_table",
           "results_metadata", "csv_record", "PARTIAL"]

#: Suffix of a streamed output until its run completes (its format is that of the name before it).
PARTIAL = ".partial"
_TEXT_COLUMNS = ("agent_0", "agent_1", "reason")
_INT_COLUMNS = tuple(c for c in COLUMNS if c not in _TEXT_COLUMNS)


def results_format(path) -> str:
    """The format :func:`write_results` writes to ``path``, checked before any game is played.

    Parameters
    ----------
    path : str or PathLike
        A path ending in ``.csv`` (any case, then optionally ``.partial``) is CSV; any other is
        Parquet.

    Returns
    -------
    str
        ``"csv"`` or ``"parquet"``.

    Raises
    ------
    MissingExtraError
        For Parquet without pyarrow (``pip install 'atomic-africa[parquet]'``); a ``.csv`` path
        needs nothing.
    """
    name = os.fspath(path).lower()
    if name.endswith(PARTIAL):
        name = name[:-len(PARTIAL)]
    if name.endswith(".csv"):
        return "csv"
    require("pyarrow.parquet", "parquet", "Parquet results; a .csv file needs nothing")
    return "parquet"


def arrow_table(records, metadata: dict):
    """The records as a pyarrow Table of :data:`COLUMNS` (int64 and string), with ``metadata``."""
    import pyarrow as pa
    schema = pa.schema([(c, pa.string() if c in _TEXT_COLUMNS else pa.int64()) for c in COLUMNS])
    return pa.table({c: [r[c] for r in records] for c in COLUMNS},
                    schema=schema.with_metadata(metadata))


def results_metadata(agents, seed) -> dict:
    """The Parquet schema metadata of a results table: the agents and the root seed."""
    return {"agents": ",".join(agents), "seed": str(seed)}


def write_results(result: SelfPlayResult, path) -> str:
    """Write the per-game table as Parquet, or as CSV if ``path`` ends in ``.csv``.

    Parameters
    ----------
    result : SelfPlayResult
    path : str or PathLike
        Written as :func:`results_format` says (Parquet needs the ``parquet`` extra).

    Returns
    -------
    str
        The path written (under a temporary name, renamed into place: a failure leaves any previous
        file as it was).

    Raises
    ------
    atomic_africa._atomic_write.WriteError
        An ``OSError`` naming ``path`` if the file cannot be written.
    """
    path = os.fspath(path)
    if results_format(path) == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq
        sink = pa.BufferOutputStream()     # pyarrow deletes a path it fails to write, even /dev/full
        pq.write_table(arrow_table(result.records, results_metadata(result.agents, result.seed)), sink)
        with replaced_atomically(path) as tmp, open(tmp, "wb") as fh:
            fh.write(sink.getvalue())
        return path
    with replaced_atomically(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        for r in result.records:
            w.writerow([r[c] for c in COLUMNS])
    return path


def csv_record(row: list) -> dict:
    """A record from a CSV row's strings (in :data:`COLUMNS` order), its integers restored."""
    return {c: (int(v) if c in _INT_COLUMNS else v) for c, v in zip(COLUMNS, row)}


def read_results(path) -> list:
    """Records (dicts) from a file written by :func:`write_results` or a streamed run (Parquet or CSV).

    Parameters
    ----------
    path : str or PathLike
        Read as CSV if it ends in ``.csv`` (or ``.csv.partial``, or ``.partial.csv``: the journal of
        an interrupted Parquet run), else as Parquet (the ``parquet`` extra). A partial table's row
        cut short (a run killed while writing it) is left out.

    Returns
    -------
    list of dict
        One record per game, keyed by :data:`COLUMNS` (integers restored for CSV).
    """
    path = os.fspath(path)
    if results_format(path) == "parquet":
        import pyarrow.parquet as pq
        return pq.read_table(path).to_pylist()
    with open(path, newline="", encoding="utf-8-sig") as fh:      # a byte-order mark is accepted
        text = fh.read()
    if os.path.basename(path).lower().endswith((".csv" + PARTIAL, PARTIAL + ".csv")) and not text.endswith("\n"):
        # an interrupted run's partial table: a row cut short (a run killed while writing it) is not kept
        text = text[:text.rfind("\n") + 1]
    return [{k: (int(v) if k in _INT_COLUMNS else v) for k, v in row.items()}
            for row in csv.DictReader(io.StringIO(text, newline=""))]


def write_replays(result: SelfPlayResult, path) -> str:
    """One ``Game.to_json()`` document per line, by game index.

    Parameters
    ----------
    result : SelfPlayResult
        Its ``replays`` are written (empty unless replays were asked for).
    path : str or PathLike

    Returns
    -------
    str
        The path written (under a temporary name, renamed into place).

    Raises
    ------
    atomic_africa._atomic_write.WriteError
        An ``OSError`` naming ``path`` if the file cannot be written.
    """
    path = os.fspath(path)
    with replaced_atomically(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for text in result.replays:
            fh.write(text + "\n")
    return path
