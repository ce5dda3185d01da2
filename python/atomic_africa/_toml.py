"""Reading TOML data files (rules, scenarios) with errors that name the file."""
from __future__ import annotations

import tomllib
from os import PathLike

__all__ = ["read_toml"]


def read_toml(path: str | PathLike, error: type[Exception], what: str) -> dict:
    """The parsed file; invalid TOML raises ``error`` naming ``what`` and the file."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} file {str(path)!r} is not valid TOML: {exc}") from None
