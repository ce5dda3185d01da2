"""Reading input files within stated limits: size (checked before a file is read whole, and a cap
on what is read from a pipe or device, where no size is known) and nesting depth (checked before a
recursive parser sees the text).

The limits themselves (:data:`~atomic_africa._limits.MAX_TOML_BYTES`,
:data:`~atomic_africa._limits.MAX_JSON_BYTES`, :data:`~atomic_africa._limits.MAX_DEPTH`) live in
:mod:`atomic_africa._limits` with every other limit; they are stated in the errors and in the docs
("Bad input and limits", ``docs/cli.md``).
"""
from __future__ import annotations

import os
import re
import stat

import numpy as np

from ._limits import MAX_DEPTH

__all__ = ["size_text", "open_bounded", "read_bounded", "check_depth", "JSON_STRINGS", "TOML_STRINGS", "named"]

# What to blank out before counting brackets: strings (a "[" in a name nests nothing) and comments.
JSON_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
TOML_STRINGS = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                          re.S)


def size_text(n: int) -> str:
    """``1048576`` -> ``'1 MiB'``, ``1500`` -> ``'1,500 bytes'``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n:,} bytes"


def named(exc: OSError, path) -> OSError:
    """``exc`` with ``path`` as its file name (a failed read of an open file names none)."""
    if exc.filename is None and exc.errno is not None:
        return OSError(exc.errno, exc.strerror, os.fspath(path))
    return exc


def open_bounded(path, limit: int, error: type[Exception], what: str):
    """``path`` opened for binary reading, refused if it is a directory or a regular file larger
    than ``limit`` bytes.

    A FIFO is opened without waiting for a writer (one with no writer reads as empty); pipes and
    devices are not refused here, since their size is unknown: read them with a cap (as
    :func:`read_bounded` does).

    Raises
    ------
    error
        Naming ``what``, the file and the limit.
    OSError
        If the file cannot be opened.
    """
    fd = os.open(os.fspath(path), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error(f"{what} file {os.fspath(path)!r} is a directory, not a file")
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise error(f"{what} file {os.fspath(path)!r} is {size_text(st.st_size)}; the limit is "
                        f"{size_text(limit)}")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path, limit: int, error: type[Exception], what: str) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them (see :func:`open_bounded`).

    Raises
    ------
    error
        If the file is larger than ``limit`` (a pipe or device is read up to the limit, then refused),
        naming ``what``, the file and the limit.
    OSError
        If the file cannot be read.
    """
    with open_bounded(path, limit, error, what) as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise named(exc, path) from None
    if len(data) > limit:
        raise error(f"{what} file {os.fspath(path)!r} holds more than {size_text(limit)}, the limit")
    return data


def check_depth(text: str, strings: re.Pattern, error: type[Exception], where: str,
                limit: int = MAX_DEPTH) -> None:
    """Refuse ``text`` whose arrays and tables/objects nest deeper than ``limit`` levels, before a
    recursive parser would run out of stack on it.

    Parameters
    ----------
    text : str
        JSON or TOML text.
    strings : re.Pattern
        :data:`JSON_STRINGS` or :data:`TOML_STRINGS` (their brackets are not nesting).
    error : type
        The exception class raised.
    where : str
        The input, as the message names it (e.g. ``"scenario file 'x.toml'"``).
    """
    if text.count("[") + text.count("{") <= limit:      # the usual case costs two scans in C
        return
    data = np.frombuffer(strings.sub("", text).encode("utf-8", "surrogatepass"), np.uint8)
    step = np.isin(data, (ord("["), ord("{"))).astype(np.int32) - np.isin(data, (ord("]"), ord("}")))
    depth = int(np.cumsum(step).max(initial=0))
    if depth > limit:
        raise error(f"{where} nests arrays/tables {depth} levels deep; the limit is {limit}")
