"""Write a file under a temporary name and rename it into place, so a reader never sees half of it
and a failure leaves the previous file as it was."""
from __future__ import annotations

import os
import stat
import uuid
from contextlib import contextmanager

__all__ = ["replaced_atomically", "WriteError", "check_writable"]


class WriteError(OSError):
    """Writing an output file failed; the message names the file (not its temporary twin), and
    ``errno`` and ``filename`` are those of the destination."""

    def __str__(self):
        return str(self.args[0])


def _destination(path: str) -> tuple[str, bool]:
    """The file a write to ``path`` lands in (a symbolic link's target, so the link stays a link) and
    whether it can be replaced by a rename (False for a device, FIFO or socket: /dev/null,
    /dev/stdout and a pipe are written in place)."""
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real, True
    except OSError:
        return real, True          # the write itself reports it, naming the file
    return real, stat.S_ISREG(mode)


@contextmanager
def replaced_atomically(path):
    """Yield a temporary path beside ``path``; rename it onto ``path`` when the block succeeds.

    The temporary file is removed if the block raises, leaving any previous ``path`` untouched. It
    is created by the caller, in the same directory as ``path`` so that the rename is atomic, and
    flushed to disk before the rename; it takes the permissions of the file it replaces. A path that
    is a symbolic link replaces the link's target. A device, FIFO or socket (``/dev/null``, a pipe)
    cannot be replaced: the block writes it directly (the temporary path is ``path`` itself).

    Parameters
    ----------
    path : str or PathLike
        The destination.

    Yields
    ------
    str
        The path to write.

    Raises
    ------
    WriteError
        If writing, flushing or renaming fails (``OSError`` raised in the block included), naming
        ``path``.
    """
    path = os.fspath(path)
    real, regular = _destination(path)
    if not regular:
        try:
            yield path
        except OSError as exc:
            raise _write_error(path, exc) from exc
        return
    head, tail = os.path.split(real)
    tmp = os.path.join(head, f".{tail}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(real).st_mode))
        except FileNotFoundError:
            pass
        os.replace(tmp, real)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise _write_error(path, exc) from exc
        raise


def _write_error(path: str, exc: OSError) -> WriteError:
    error = WriteError(f"cannot write {path!r}: {exc.strerror or exc}")
    error.errno, error.filename = exc.errno, path
    return error


def check_writable(path, name: str | None = None) -> str:
    """``path`` if a file can be written there, checked before any long work.

    Parameters
    ----------
    path : str or PathLike
    name : str, optional
        The argument's name, which the message then starts with (``"results: ..."``); the command
        line leaves it out (argparse says ``argument --out: ...``).

    Raises
    ------
    ValueError
        If ``path`` is empty or a directory, its directory does not exist or is not a directory, or
        the directory (for a new file or a rename) or the file (a device, a FIFO) is not writable.
    """
    if name is not None:
        try:
            return check_writable(path)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    path = os.fspath(path)
    if not path:
        raise ValueError("expected a file name, got ''")
    real, regular = _destination(path)
    if os.path.isdir(real):
        raise ValueError(f"is a directory, not a file: {path}")
    if not regular:
        if not os.access(real, os.W_OK):
            raise ValueError(f"cannot write {path}: permission denied")
        return path
    head = os.path.dirname(real) or "."
    if not os.path.exists(head):
        raise ValueError(f"cannot write {path}: no such directory {head}")
    if not os.path.isdir(head):
        raise ValueError(f"cannot write {path}: {head} is not a directory")
    if not os.access(head, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write {path}: directory {head} is not writable")
    return path
