"""Write a file under a temporary name and rename it into place, so a reader never sees half of it."""
from __future__ import annotations

import os
import uuid
from contextlib import contextmanager

__all__ = ["replaced_atomically"]


@contextmanager
def replaced_atomically(path):
    """Yield a temporary path beside ``path``; rename it onto ``path`` when the block succeeds.

    The temporary file is removed if the block raises, leaving any previous ``path`` untouched.
    It is created by the caller (so it gets the usual permissions of a new file), in the same
    directory as ``path`` so that the rename is atomic.

    Parameters
    ----------
    path : str or PathLike
        The destination.

    Yields
    ------
    str
        The temporary path to write.
    """
    path = os.fspath(path)
    head, tail = os.path.split(path)
    tmp = os.path.join(head, f".{tail}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
