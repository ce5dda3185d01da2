"""Streaming a self-play run to its output files as batches finish, and resuming an interrupted one.

:class:`RunFiles` writes each batch, in game order, to ``<path>.partial`` (a Parquet row group, CSV
rows or JSON lines, flushed), beside ``<first path>.partial.json`` that names the run; at the end the
partial files are renamed into place and the run file removed. An interrupted run leaves its partial
files readable (:func:`~atomic_africa.selfplay.read_results`, ``atomic-africa render --game K``) and
is completed by ``resume=True``. A device or pipe (``/dev/null``) is written in place and cannot be
resumed.
"""
from __future__ import annotations

import csv
import json
import os
import stat

from .._atomic_write import WriteError, _write_error, check_writable, replaced_atomically
from .files import PARTIAL, arrow_table, csv_record, results_format, results_metadata
from .result import COLUMNS

__all__ = ["RunFiles", "RUN_FORMAT"]

#: Format tag of the run file beside the partial outputs.
RUN_FORMAT = "atomic-africa-selfplay-run/1"


def _regular(path: str) -> bool:
    """Whether ``path`` is (or would be created as) a regular file, which a rename can replace."""
    try:
        return stat.S_ISREG(os.stat(os.path.realpath(path)).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return True


def _complete_lines(path: str) -> list:
    """Byte offsets just past each complete (newline-ended) line of ``path``."""
    ends, offset = [], 0
    with open(path, "rb") as fh:
        for line in fh:
            offset += len(line)
            if line.endswith(b"\n"):
                ends.append(offset)
    return ends


class _Stream:
    """One output of a run: its final path, where it is streamed, and the open file."""

    def __init__(self, path: str):
        self.path = os.fspath(path)
        self.in_place = not _regular(self.path)      # a device or pipe: no partial, no rename
        # Beside the file the path names (a symbolic link's target), so the final rename stays on
        # one file system.
        self.partial = self.path if self.in_place else os.path.realpath(self.path) + PARTIAL
        self.fh = None
        self.writer = None

    def error(self, exc: OSError, kept: bool = True) -> WriteError:
        if self.in_place or not kept:
            return _write_error(self.partial, exc)
        e = WriteError(f"cannot write {self.partial!r}: {exc.strerror or exc}; the games written "
                       f"before are kept there (complete the run with --resume)")
        e.errno, e.filename = exc.errno, self.partial
        return e


def _close(s: _Stream) -> None:
    """Close a stream's writer (a Parquet footer) and file, even when the first fails."""
    writer, fh, s.writer, s.fh = s.writer, s.fh, None, None
    try:
        if writer is not None and hasattr(writer, "close"):
            try:
                writer.close()
            finally:
                writer.is_open = False     # else pyarrow's __del__ tries again, on a closed file
    finally:
        if fh is not None:
            fh.close()


class RunFiles:
    """Stream a run's results and replays, batch by batch in game order, to partial files.

    Parameters
    ----------
    run : dict
        The run's identity (format, games, seed, agents, sides, scenario and rules digest); a
        resumed run must have the same.
    results, replays : str or PathLike, optional
        Final paths of the results table (Parquet, or CSV for ``.csv``) and of the replays (JSON lines).

    Notes
    -----
    Each output is written to ``<path>.partial`` (devices and pipes in place) and the run is named in
    ``<first output>.partial.json``. A batch is flushed before the next is written, so a killed
    process loses only the games not yet written; a Parquet file gets its footer when the run stops
    (a process killed outright, SIGKILL, leaves its Parquet partial without one: unreadable; a CSV
    or JSON-lines partial is read up to its last complete line). :meth:`finish` renames the partial
    files into place: until then a previous file at ``path`` is left as it was, whatever happens.
    """

    def __init__(self, run: dict, results=None, replays=None):
        self.run = dict(run, format=RUN_FORMAT,
                        results=None if results is None else results_format(results),
                        replays=replays is not None)
        self.results = None if results is None else _Stream(results)
        self.replays = None if replays is None else _Stream(replays)
        self.streams = [s for s in (self.results, self.replays) if s is not None]
        self.resumable = bool(self.streams) and not any(s.in_place for s in self.streams)
        self.run_file = self.streams[0].partial + ".json" if self.resumable else None
        self.written = 0

    # -- opening ----------------------------------------------------------------------------------
    def start(self, resume: bool = False) -> list:
        """Open the partial files (checked writable now, before any game is played).

        Parameters
        ----------
        resume : bool
            Continue the interrupted run whose partial files are there (refused if they belong to
            another run); else start afresh (refused if an interrupted run's files are there).

        Returns
        -------
        list of dict
            The records of the games already written (``resume``), by game index: games
            ``0..len-1`` are done.
        """
        for s in self.streams:
            check_writable(s.path)
        if resume:
            return self._resume()
        there = [p for p in [s.partial for s in self.streams if not s.in_place] + [self.run_file]
                 if p is not None and os.path.lexists(p)]
        if there:
            raise ValueError(f"resume: {there[0]} holds an interrupted run; add --resume to complete "
                             f"it, or delete {' and '.join(there)} to start afresh")
        try:
            if self.results is not None:
                self._open_results(truncate=True)
            if self.replays is not None:
                self._open(self.replays, "w")
            if self.resumable:
                with replaced_atomically(self.run_file) as tmp, open(tmp, "w", encoding="utf-8") as fh:
                    json.dump(self.run, fh, sort_keys=True)
        except BaseException:
            # Nothing was played: leave no partial file that a later run would take for an
            # interrupted one.
            self._discard()
            raise
        return []

    def _discard(self):
        for s in self.streams:
            try:
                _close(s)
            except OSError:
                pass
            if not s.in_place:
                try:
                    os.unlink(s.partial)
                except OSError:
                    pass

    def _open(self, s: _Stream, mode: str):
        try:
            s.fh = open(s.partial, mode, encoding="utf-8", newline="")
            s.fh.flush()
        except OSError as exc:
            raise s.error(exc, kept=False) from exc

    def _open_results(self, truncate: bool, kept=()):
        s = self.results
        if self.run["results"] == "csv":
            self._open(s, "w" if truncate else "a")
            s.writer = csv.writer(s.fh)
            if truncate:
                self._write(s, lambda: s.writer.writerow(COLUMNS))
            return
        import pyarrow.parquet as pq
        # Parquet cannot be appended to: a resumed run rewrites the kept rows into a new partial.
        target = s.partial if (truncate or s.in_place) else s.partial + ".tmp"
        table = arrow_table(kept, dict(results_metadata(self.run["agents"], self.run["seed"]),
                                        run=json.dumps(self.run, sort_keys=True)))
        try:
            s.fh = open(target, "wb")
            s.writer = pq.ParquetWriter(s.fh, table.schema)
            if len(kept):
                s.writer.write_table(table)
            s.fh.flush()
            if target != s.partial:
                os.replace(target, s.partial)
        except OSError as exc:
            raise s.error(exc, kept=False) from exc

    # -- resuming ---------------------------------------------------------------------------------
    def _resume(self) -> list:
        if not self.streams:
            raise ValueError("resume: a run is resumed from its output files; give the same --out "
                             "and --replays as the interrupted run")
        if not self.resumable:
            raise ValueError("resume: only runs written to regular files can be resumed")
        if self.run["seed"] is None:
            raise ValueError("resume: a run seeded from fresh entropy (seed None) cannot be resumed; "
                             "give it a seed")
        if not os.path.exists(self.run_file):
            raise ValueError(f"resume: no interrupted run at {self.run_file} (a run that completed "
                             f"renamed its partial files into place); run without --resume")
        try:
            with open(self.run_file, encoding="utf-8") as fh:
                old = json.load(fh)
        except (OSError, ValueError) as exc:
            raise ValueError(f"resume: cannot read {self.run_file}: {exc}") from None
        for key in sorted(set(old) | set(self.run)):
            if old.get(key) != self.run.get(key):
                raise ValueError(f"resume: {self.run_file} is another run ({key} {old.get(key)!r} "
                                 f"there, {self.run.get(key)!r} now); resume with the options of that "
                                 f"run, or delete its partial files to start afresh")
        for s in self.streams:
            if not os.path.exists(s.partial):
                raise ValueError(f"resume: {s.partial} is missing; the run in {self.run_file} wrote it")
        records, ends = (self._kept_results() if self.results is not None else (None, None))
        lines = _complete_lines(self.replays.partial) if self.replays is not None else None
        k = min(len(x) for x in (records, lines) if x is not None)
        if records is None:
            records = self._records_from_replays(k)
        records = records[:k]
        for i in sorted({0, k - 1}) if k else ():
            self._check_kept(records[i], i)
        if self.results is not None:
            if self.run["results"] == "csv":
                os.truncate(self.results.partial, ends[k])
            self._open_results(truncate=False, kept=records)
        if self.replays is not None:
            os.truncate(self.replays.partial, lines[k - 1] if k else 0)
            self._open(self.replays, "a")
        self.written = k
        return records

    def _check_kept(self, record: dict, i: int) -> None:
        """Game ``i`` of the partial files is game ``i`` of this run (its seed and sides)."""
        from .games import game_seeds, sides_of
        a_side, sides = sides_of(self.run["agents"], self.run["alternate"], i)
        expected = {"game": i, "seed": game_seeds(self.run["seed"], i)[0], "a_side": a_side,
                    "agent_0": sides[0], "agent_1": sides[1]}
        found = {k: record[k] for k in expected}
        if found != expected:
            raise ValueError(f"resume: the partial files' game {i} is not this run's ({found}, expected "
                             f"{expected}); delete them to start afresh")

    def _kept_results(self):
        """(records, byte offsets after the header and after each row) of the results partial."""
        path = self.results.partial
        if self.run["results"] == "parquet":
            import pyarrow.parquet as pq
            try:
                records = pq.read_table(path).to_pylist()
            except (OSError, ValueError) as exc:
                raise ValueError(
                    f"resume: cannot read {path} ({exc}): a run killed outright (SIGKILL, power loss) "
                    f"leaves its Parquet file without its footer (a .csv --out survives that); "
                    f"delete {path} and {self.run_file} to start afresh") from None
            return records, list(range(len(records) + 1))
        ends = _complete_lines(path)
        with open(path, "rb") as fh:
            text = fh.read(ends[-1] if ends else 0).decode("utf-8", errors="replace")
        rows = list(csv.reader(text.splitlines()))
        if not rows or tuple(rows[0]) != COLUMNS:
            raise ValueError(f"resume: {path} is not a results table (its header is not "
                             f"{','.join(COLUMNS)})")
        try:
            records = [csv_record(r) for r in rows[1:] if len(r) == len(COLUMNS)]
        except ValueError as exc:
            raise ValueError(f"resume: {path} holds a malformed row ({exc})") from None
        if len(records) != len(rows) - 1:
            raise ValueError(f"resume: {path} holds a row of the wrong length")
        for i, r in enumerate(records):
            if r["game"] != i:
                raise ValueError(f"resume: {path} row {i + 1} is game {r['game']}, expected {i}")
        return records, ends

    def _records_from_replays(self, k: int) -> list:
        """Records of the first ``k`` replays (a run that wrote replays and no results table)."""
        from ..game import Game
        from .games import game_record, sides_of
        records = []
        with open(self.replays.partial, encoding="utf-8") as fh:
            for i in range(k):
                g = Game.from_json(fh.readline())
                r = g.result
                a_side, sides = sides_of(self.run["agents"], self.run["alternate"], i)
                records.append(game_record(i, g.seed, a_side, sides, -1 if r.winner is None else r.winner,
                                           r.reason, g.s.turn, len(g.history), r.figures))
        return records

    # -- writing ----------------------------------------------------------------------------------
    def _write(self, s: _Stream, fn):
        try:
            fn()
            s.fh.flush()
        except OSError as exc:
            raise s.error(exc) from exc

    def write(self, played: list) -> None:
        """Append one batch (``(record, replay text)`` pairs of the next games in order), flushed."""
        if self.results is not None:
            s = self.results
            if self.run["results"] == "csv":
                self._write(s, lambda: s.writer.writerows([r[c] for c in COLUMNS] for r, _ in played))
            else:
                table = arrow_table([r for r, _ in played], {})
                self._write(s, lambda: s.writer.write_table(table))
        if self.replays is not None:
            s = self.replays
            self._write(s, lambda: s.fh.write("".join(text + "\n" for _, text in played)))
        self.written += len(played)

    def close(self) -> None:
        """Close the partial files (a Parquet file gets its footer), leaving them in place."""
        errors = []
        for s in self.streams:
            try:
                _close(s)
            except OSError as exc:
                errors.append(s.error(exc))
        if errors:
            raise errors[0]

    def finish(self) -> None:
        """Close the partial files and rename them into place; remove the run file."""
        self.close()
        for s in self.streams:
            if s.in_place:
                continue
            try:
                fd = os.open(s.partial, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                real = s.partial[:-len(PARTIAL)]
                try:
                    os.chmod(s.partial, stat.S_IMODE(os.stat(real).st_mode))
                except FileNotFoundError:
                    pass
                os.replace(s.partial, real)
            except OSError as exc:
                raise _write_error(s.path, exc) from exc
        if self.run_file is not None:
            try:
                os.unlink(self.run_file)
            except FileNotFoundError:
                pass

    def describe(self) -> str:
        """Where the games written so far are, and how to complete the run (for an interrupt)."""
        where = " and ".join(s.partial for s in self.streams)
        if not self.streams:
            return "no games kept (no --out or --replays)"
        if not self.resumable:
            return f"{self.written} games written to {where} (not resumable: not a regular file)"
        return (f"{self.written} of {self.run['games']} games kept in {where}; complete the run "
                f"with the same command and --resume")
