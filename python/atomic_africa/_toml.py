"""Reading TOML data files (rules, scenarios) with errors that name the file."""
from __future__ import annotations

import tomllib
from os import PathLike

from ._input_limits import TOML_STRINGS, check_depth, read_bounded
from ._limits import MAX_TOML_BYTES

__all__ = ["read_toml"]


def read_toml(path: str | PathLike, error: type[Exception], what: str) -> dict:
    """The parsed file; a file larger than :data:`~atomic_africa._limits.MAX_TOML_BYTES`
    (refused before it is read whole), not UTF-8, nesting deeper than
    :data:`~atomic_africa._limits.MAX_DEPTH` levels or not valid TOML raises ``error`` naming
    ``what`` and the file. A UTF-8 byte-order mark before the text is accepted (left out)."""
    name = f"{what} file {str(path)!r}"
    data = read_bounded(path, MAX_TOML_BYTES, error, what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{name} is not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r})") \
            from None
    text = text.removeprefix("\ufeff")       # a byte-order mark some editors write is not TOML, nor an error
    check_depth(text, TOML_STRINGS, error, name)
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError) as exc:    # TOMLDecodeError, or an integer of 5,000 digits
        raise error(f"{name} is not valid TOML: {exc}") from None
