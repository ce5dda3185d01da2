"""Text from files (scenario, unit, side, feature and asset names, replays) made safe to print."""
from __future__ import annotations

import unicodedata

__all__ = ["printable"]

# Control characters (C0, DEL, C1), format characters (bidi overrides that reorder a line, zero-width
# marks), line/paragraph separators, lone surrogates (from a JSON "\ud800": they cannot be encoded)
# and private/unassigned code points: none can be seen, several move the cursor or forge lines.
_HIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text) -> str:
    """``text`` with every character a terminal would act on, or not show, written as an escape.

    ``"Blue\\x1b[2J"`` -> ``'Blue\\\\x1b[2J'`` and ``"A\\nResult: Red wins"`` ->
    ``'A\\\\nResult: Red wins'``: a name from a file can neither move the cursor, clear the screen,
    nor start a line of its own. Printable text (any script, spaces, emoji) is unchanged, and the
    result is itself printable, so escaping twice changes nothing.

    Parameters
    ----------
    text : object
        Converted with ``str``.

    Returns
    -------
    str
    """
    text = str(text)
    if text.isprintable():     # the common case, in C: nothing to escape (space counts as printable)
        return text
    return "".join(_escape(ch) if unicodedata.category(ch) in _HIDDEN else ch for ch in text)
