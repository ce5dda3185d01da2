"""Streaming a self-play run to its output files as batches finish, and resuming an interrupted one.

:class:`RunFiles` appends each batch, in game order, to partial files that are complete on their own
after every batch (append-only text, flushed: a run killed outright, SIGKILL, or stopped by a full
disk loses at most the batch being written):

- a CSV results table is written to ``<path>.partial``; a Parquet one to a CSV journal
  ``<path>.partial.csv`` (a Parquet file is whole only once its footer is written, so it is written
  from the journal's rows when the run completes);
- replays (JSON lines) to ``<path>.partial``;
- beside the first output, ``<path>.partial.json`` names the run (seed, agents, sides, games, a digest
  of the scenario and rules) and ``<path>.partial.digests`` holds one line per written batch: its
  games and, for each partial file, where the batch ends and the SHA-256 of its bytes.

At the end the partial files are renamed into place (the Parquet file written under a temporary name
and renamed) and the journal, digests and run file removed. An interrupted run's partial files are
readable (:func:`~atomic_africa.selfplay.read_results`, ``atomic-africa render --game K``) and
``resume=True`` completes the run: every kept batch is checked against its digest and every kept row
against the run's seeds and sides, rows past the last digest (a batch cut short) are dropped and
played again, and the final files are byte for byte those of an uninterrupted run. A device or pipe
(``/dev/null``) is written in place and cannot be resumed. The partial files are the run's own: a
symbolic link where one should be is refused, never written through.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import stat

from .._atomic_write import WriteError, _write_error, check_writable, replaced_atomically
from .._input_limits import size_text
from .._limits import MAX_DIGEST_LINE, MAX_RUN_FILE
from .._text import printable
from .._validate import shown
from .files import PARTIAL, arrow_table, csv_record, results_format, results_metadata
from .result import COLUMNS

__all__ = ["RunFiles", "RUN_FORMAT", "MAX_RUN_FILE", "JOURNAL", "DIGESTS"]

#: Format tag of the run file beside the partial outputs (2: with a digest per batch).
RUN_FORMAT = "atomic-africa-selfplay-run/2"
#: Suffix (after ``.partial``) of a Parquet run's results journal, a CSV table.
JOURNAL = ".csv"
#: Suffix (after ``.partial``) of the batches' digests file.
DIGESTS = ".digests"
_HEADER = ",".join(COLUMNS).encode() + b"\r\n"     # csv.writer's line end
_CHUNK = 1 << 20


def _regular(path: str) -> bool:
    """Whether ``path`` is (or would be created as) a regular file, which a rename can replace."""
    try:
        return stat.S_ISREG(os.stat(os.path.realpath(path)).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return True


def _csv_bytes(rows) -> bytes:
    buf = io.StringIO(newline="")
    csv.writer(buf).writerows(rows)
    return buf.getvalue().encode("utf-8")


def _own_file(path: str) -> None:
    """Refuse ``path`` unless it is a regular file of its own (not a symbolic link, device, FIFO)."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise ValueError(f"resume: {path} is a symbolic link; a run's partial files are its own regular "
                         f"files and a link is never written through: remove it (and resume from the "
                         f"files the run wrote, or start afresh)")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"resume: {path} is not a regular file; a run's partial files are its own regular files")


def _open_own(path: str, create: bool):
    """A binary file of the run's own: created (it must not exist) or opened for update, never
    through a symbolic link (O_NOFOLLOW)."""
    flags = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    flags |= (os.O_WRONLY | os.O_CREAT | os.O_EXCL) if create else os.O_RDWR
    fd = os.open(path, flags, 0o666)
    try:
        return os.fdopen(fd, "wb" if create else "r+b")
    except BaseException:
        os.close(fd)
        raise


class _Stream:
    """One output of a run: its final path, where it is streamed, and the open file.

    ``journal``: a Parquet results table, streamed as a CSV journal and written whole at the end.
    """

    def __init__(self, path: str, journal: bool = False):
        self.path = os.fspath(path)
        self.journal = journal
        self.in_place = not _regular(self.path)      # a device or pipe: no partial, no rename
        # Beside the file the path names (a symbolic link's target), so the final rename stays on
        # one file system.
        self.real = os.path.realpath(self.path)
        self.partial = self.path if self.in_place else self.real + PARTIAL + (JOURNAL if journal else "")
        self.fh = None
        self.end = 0                                  # bytes of whole batches (and header) written

    def error(self, exc: OSError, kept: bool = True) -> WriteError:
        if self.in_place or not kept:
            return _write_error(self.partial, exc)
        e = WriteError(f"cannot write {self.partial!r}: {exc.strerror or exc}; the games written "
                       f"before are kept there (complete the run with --resume)")
        e.errno, e.filename = exc.errno, self.partial
        return e


def _close(s) -> None:
    fh, s.fh = s.fh, None
    if fh is not None:
        fh.close()


class RunFiles:
    """Stream a run's results and replays, batch by batch in game order, to partial files.

    Parameters
    ----------
    run : dict
        The run's identity (games, seed, agents, sides, scenario and rules digest); a resumed run must
        have the same.
    results, replays : str or PathLike, optional
        Final paths of the results table (Parquet, or CSV for ``.csv``) and of the replays (JSON lines).

    Notes
    -----
    See the module's docstring for the files. A batch is flushed, then its digest line, before the
    next is written, so a killed process loses only the games not yet written and digested. Until
    :meth:`finish` a previous file at ``path`` is left as it was, whatever happens.
    """

    def __init__(self, run: dict, results=None, replays=None):
        self.run = dict(run, format=RUN_FORMAT,
                        results=None if results is None else results_format(results),
                        replays=replays is not None)
        self.parquet = self.run["results"] == "parquet"
        self.results = None if results is None else _Stream(results, journal=self.parquet)
        self.replays = None if replays is None else _Stream(replays)
        self.streams = [s for s in (self.results, self.replays) if s is not None]
        self.resumable = bool(self.streams) and not any(s.in_place for s in self.streams)
        base = self.streams[0].real + PARTIAL if self.resumable else None
        self.run_file = None if base is None else base + ".json"
        self.digests = _Digests(base + DIGESTS) if base is not None else None
        self.written = 0

    def _files(self) -> list:
        """Every partial file the run keeps: its regular outputs' and, if resumable, the digests and
        the run file."""
        own = [s.partial for s in self.streams if not s.in_place]
        return own + ([self.digests.path, self.run_file] if self.resumable else [])

    # -- opening ----------------------------------------------------------------------------------
    def start(self, resume: bool = False) -> list:
        """Open the partial files (checked writable now, before any game is played).

        Parameters
        ----------
        resume : bool
            Continue the interrupted run whose partial files are there (refused if they belong to
            another run, or do not match their digests); else start afresh (refused if an interrupted
            run's files are there).

        Returns
        -------
        list of dict
            The records of the games already written (``resume``), by game index: games
            ``0..len-1`` are done.
        """
        for s in self.streams:
            check_writable(s.path, "results" if s is self.results else "replays")
        if resume:
            return self._resume()
        there = [p for p in self._files() if os.path.lexists(p)]
        if there and self._unstarted(there):
            # a start killed before it wrote the run file: no game in them, nothing to resume
            for p in there:
                os.unlink(p)
            there = []
        if there:
            raise ValueError(f"resume: {there[0]} holds an interrupted run; add --resume to complete "
                             f"it, or delete {' and '.join(there)} to start afresh")
        try:
            for s in self.streams:
                self._open_new(s)
            if self.resumable:
                self.digests.fh = _open_own(self.digests.path, create=True)
                with replaced_atomically(self.run_file) as tmp, open(tmp, "w", encoding="utf-8") as fh:
                    json.dump(self.run, fh, sort_keys=True)
        except BaseException:
            # Nothing was played: leave no partial file that a later run would take for an
            # interrupted one.
            self._discard()
            raise
        return []

    def _unstarted(self, there: list) -> bool:
        """Whether the partial files ``there`` are what a start leaves before its run file: no run
        file, and regular files holding at most the results header (no game)."""
        if self.run_file in there:
            return False
        header = {self.results.partial: _HEADER} if self.results is not None else {}
        for p in there:
            try:
                st = os.lstat(p)
                if not stat.S_ISREG(st.st_mode) or st.st_size > len(header.get(p, b"")):
                    return False
                with open(p, "rb") as fh:
                    if not header.get(p, b"").startswith(fh.read()):
                        return False
            except OSError:
                return False
        return True

    def _open_new(self, s: _Stream) -> None:
        try:
            s.fh = open(s.path, "wb") if s.in_place else _open_own(s.partial, create=True)
            head = b""
            if s is self.results:
                # a Parquet file begins with its magic: written now to a device, so that one that
                # cannot be written is refused before any game (the rest follows at the end)
                head = b"PAR1" if (s.in_place and self.parquet) else _HEADER
            s.fh.write(head)
            s.fh.flush()
            s.end = len(head)
        except OSError as exc:
            raise s.error(exc, kept=False) from exc

    def _discard(self):
        for s in self.streams + ([self.digests] if self.digests is not None else []):
            try:
                _close(s)
            except OSError:
                pass
        for p in self._files():
            try:
                if os.path.isfile(p) and not os.path.islink(p):
                    os.unlink(p)
            except OSError:
                pass

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
        if not os.path.lexists(self.run_file):
            raise ValueError(f"resume: no interrupted run at {self.run_file} (a run that completed "
                             f"renamed its partial files into place); run without --resume")
        old = self._read_run_file()
        for key in sorted(set(old) | set(self.run), key=str):
            if old.get(key) != self.run.get(key):
                raise ValueError(f"resume: {self.run_file} is another run ({printable(str(key))[:40]} "
                                 f"{shown(old.get(key))} there, {shown(self.run.get(key))} now); resume with the "
                                 f"options of that run, or delete its partial files to start afresh")
        for p in [s.partial for s in self.streams] + [self.digests.path]:
            if not os.path.lexists(p):
                raise ValueError(f"resume: {p} is missing; the run in {self.run_file} wrote it")
            _own_file(p)
        try:
            for s in self.streams:
                s.fh = _open_own(s.partial, create=False)
            self.digests.fh = _open_own(self.digests.path, create=False)
            k = self._verify()
            records = self._kept_records(k)
            for s in self.streams + [self.digests]:
                s.fh.truncate(s.end)
                s.fh.seek(s.end)
        except BaseException:
            for s in self.streams + [self.digests]:
                try:
                    _close(s)
                except OSError:
                    pass
            raise
        self.written = k
        return records

    def _read_run_file(self) -> dict:
        path = self.run_file
        _own_file(path)
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_RUN_FILE + 1)
        except OSError as exc:
            raise ValueError(f"resume: cannot read {path}: {exc.strerror or exc}") from None
        if len(data) > MAX_RUN_FILE:
            raise ValueError(f"resume: {path} holds more than {size_text(MAX_RUN_FILE)}, the limit of a run file "
                             f"(a run names itself in about 300 bytes); it is not this program's run file: "
                             f"delete it to start afresh")
        try:
            old = json.loads(data.decode("utf-8-sig"))     # a byte-order mark is accepted
        except (UnicodeDecodeError, ValueError) as exc:
            raise ValueError(f"resume: cannot read {path}: not a run file ({shown(str(exc))})") from None
        if not isinstance(old, dict):
            raise ValueError(f"resume: cannot read {path}: expected a JSON object, got {type(old).__name__}")
        return old

    def _verify(self) -> int:
        """The number of games the partial files hold whole and as their digests say; ``end`` of each
        stream (and of the digests file) is set to just past them.

        A digests line cut short, or a batch whose bytes are not all there, ends the kept games (a
        run killed while writing them); a batch whose bytes are there but differ from its digest is
        refused (the file changed after it was written).
        """
        for s in self.streams:
            s.end = 0
            if s is self.results:
                head = s.fh.read(len(_HEADER))
                if head != _HEADER:
                    raise ValueError(f"resume: {s.partial} is not a results table (its header is not "
                                     f"{','.join(COLUMNS)})")
                s.end = len(_HEADER)
        self.digests.end = 0
        games = 0
        for number, line in self.digests.lines():
            entry = _digest_entry(line, games, self.run["games"], [s.end for s in self.streams], len(self.streams))
            if entry is None:
                break                       # cut short: the batch after the last whole line is dropped
            hi, parts = entry
            complete = True
            for s, (end, digest) in zip(self.streams, parts):
                found = _sha256(s.fh, s.end, end)
                if found is None:
                    complete = False        # its bytes are not all there: written, then cut
                    break
                if found != digest:
                    raise ValueError(
                        f"resume: {s.partial} games {games}..{hi - 1} (bytes {s.end}..{end}) do not match the "
                        f"digest written with them ({self.digests.path} line {number}): the file changed after "
                        f"it was written; delete {' and '.join(self._files())} to start afresh")
            if not complete:
                break
            for s, (end, _) in zip(self.streams, parts):
                s.end = end
            self.digests.end += len(line)
            games = hi
        return games

    def _kept_records(self, k: int) -> list:
        """The records of the first ``k`` games, each checked to be this run's game (seed, sides)."""
        if self.results is not None:
            s = self.results
            s.fh.seek(len(_HEADER))
            text = s.fh.read(s.end - len(_HEADER)).decode("utf-8")
            rows = list(csv.reader(io.StringIO(text, newline="")))
            try:
                records = [csv_record(r) for r in rows if len(r) == len(COLUMNS)]
            except ValueError as exc:
                raise ValueError(f"resume: {s.partial} holds a malformed row ({exc})") from None
            if len(records) != len(rows) or len(records) != k:
                raise ValueError(f"resume: {s.partial} holds {len(rows)} rows for {k} games, or a row of the "
                                 f"wrong length")
        else:
            records = self._records_from_replays(k)
        self._check_kept(records)
        return records

    def _check_kept(self, records: list) -> None:
        """Row ``i`` of the partial files is game ``i`` of this run (its seed and sides), every row."""
        from .games import batch_seeds, sides_of
        if not records:
            return
        seeds, _ = batch_seeds(self.run["seed"], 0, len(records))
        for i, (record, seed) in enumerate(zip(records, seeds.tolist())):
            a_side, sides = sides_of(self.run["agents"], self.run["alternate"], i)
            expected = {"game": i, "seed": seed, "a_side": a_side, "agent_0": sides[0], "agent_1": sides[1]}
            found = {k: record[k] for k in expected}
            if found != expected:
                raise ValueError(f"resume: the partial files' game {i} is not this run's ({found}, expected "
                                 f"{expected}); delete them to start afresh")

    def _records_from_replays(self, k: int) -> list:
        """Records of the first ``k`` replays (a run that wrote replays and no results table), from the
        saved games' fields (checked by their digests, so not replayed)."""
        from .games import game_record, sides_of
        s = self.replays
        s.fh.seek(0)
        records = []
        for i in range(k):
            d = json.loads(s.fh.readline())
            st_ = d["state"]
            a_side, sides = sides_of(self.run["agents"], self.run["alternate"], i)
            figures = [sum(u["figures"] for u in st_["units"] if u["alive"] and u["side"] == p) for p in (0, 1)]
            records.append(game_record(i, d["seed"], a_side, sides, st_["winner"] if st_["winner"] >= 0 else -1,
                                       st_["reason"], st_["turn"], len(d["history"]), figures))
        return records

    # -- writing ----------------------------------------------------------------------------------
    def _write(self, s, data: bytes):
        try:
            s.fh.write(data)
            s.fh.flush()
        except OSError as exc:
            raise s.error(exc) from exc

    def write(self, played: list) -> None:
        """Append one batch (``(record, replay text)`` pairs of the next games in order), flushed,
        then its digest line."""
        parts = []
        for s in self.streams:
            if s is self.results:
                data = b"" if s.in_place and self.parquet else _csv_bytes([r[c] for c in COLUMNS] for r, _ in played)
            else:
                data = "".join(text + "\n" for _, text in played).encode("utf-8")
            if data:
                self._write(s, data)
            s.end += len(data)
            parts.append([s.end, hashlib.sha256(data).hexdigest()])
        lo, hi = self.written, self.written + len(played)
        if self.digests is not None:
            line = (json.dumps({"games": [lo, hi], "files": parts}, separators=(",", ":")) + "\n").encode()
            self._write(self.digests, line)
            self.digests.end += len(line)
        self.written = hi

    def close(self) -> None:
        """Close the partial files, leaving them in place."""
        errors = []
        for s in self.streams + ([self.digests] if self.digests is not None else []):
            try:
                _close(s)
            except OSError as exc:
                errors.append(s.error(exc))
        if errors:
            raise errors[0]

    def finish(self, records: list) -> None:
        """Write the Parquet table (from ``records``, every game's, by index), close the partial files
        and rename them into place; remove the journal, the digests and the run file."""
        if self.parquet and self.results.in_place:
            s = self.results
            self._write(s, _parquet_bytes(records, self.run)[4:])     # its magic was written at the start
        self.close()
        if self.parquet and not self.results.in_place:
            s = self.results
            try:
                with replaced_atomically(s.path) as tmp, open(tmp, "wb") as fh:
                    fh.write(_parquet_bytes(records, self.run))
            except WriteError as exc:
                raise WriteError(f"{exc}; the games are kept in {s.partial} (complete the run with --resume)") from exc
        for s in self.streams:
            if s.in_place or s.journal:
                continue
            try:
                fd = os.open(s.partial, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                try:
                    os.chmod(s.partial, stat.S_IMODE(os.stat(s.real).st_mode))
                except FileNotFoundError:
                    pass
                os.replace(s.partial, s.real)
            except OSError as exc:
                raise _write_error(s.path, exc) from exc
        if self.resumable:
            for p in [s.partial for s in self.streams if s.journal] + [self.digests.path, self.run_file]:
                try:
                    os.unlink(p)
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


def _parquet_bytes(records: list, run: dict) -> bytes:
    """The results table as one Parquet file (the same bytes for the same records and run)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = arrow_table(records, dict(results_metadata(run["agents"], run["seed"]),
                                      run=json.dumps(run, sort_keys=True)))
    sink = pa.BufferOutputStream()       # pyarrow deletes a path it fails to write, even /dev/full
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


class _Digests:
    """The digests file: one JSON line per batch written, ``{"games": [lo, hi], "files": [[end,
    sha256], ...]}`` with one pair per output (results first), ``end`` the byte just past the batch."""

    def __init__(self, path: str):
        self.path = path
        self.partial = path
        self.fh = None
        self.end = 0
        self.in_place = False

    def error(self, exc: OSError, kept: bool = True) -> WriteError:
        e = WriteError(f"cannot write {self.path!r}: {exc.strerror or exc}; the games written before are kept "
                       f"(complete the run with --resume)")
        e.errno, e.filename = exc.errno, self.path
        return e

    def lines(self):
        """(line number, bytes) of its whole lines, each at most ``MAX_DIGEST_LINE`` long."""
        self.fh.seek(0)
        for number in range(1, 1 << 62):
            line = self.fh.readline(MAX_DIGEST_LINE + 1)
            if not line.endswith(b"\n"):
                return
            yield number, line


def _digest_entry(line: bytes, lo: int, n_games: int, starts: list, n_files: int):
    """``(hi, [(end, sha256) per file])`` of a digests line that follows on from game ``lo`` and byte
    offsets ``starts``; None if the line is not such an entry (a line cut short or garbled ends the
    kept games)."""
    try:
        d = json.loads(line)
        games, files = d["games"], d["files"]
        ok = (isinstance(games, list) and len(games) == 2 and games[0] == lo and isinstance(games[1], int)
              and not isinstance(games[1], bool) and lo < games[1] <= n_games
              and isinstance(files, list) and len(files) == n_files)
        parts = []
        for (end, digest), start in zip(files, starts) if ok else ():
            if isinstance(end, bool) or not isinstance(end, int) or end < start or not isinstance(digest, str):
                return None
            parts.append((end, digest))
    except (ValueError, TypeError, KeyError):
        return None
    return (games[1], parts) if ok else None


def _sha256(fh, start: int, end: int):
    """SHA-256 (hex) of bytes ``start..end`` of ``fh``; None if the file ends before ``end``."""
    h = hashlib.sha256()
    fh.seek(start)
    left = end - start
    while left > 0:
        chunk = fh.read(min(left, _CHUNK))
        if not chunk:
            return None
        h.update(chunk)
        left -= len(chunk)
    return h.hexdigest()
