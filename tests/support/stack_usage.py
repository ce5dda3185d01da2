"""The worst-case stack of each public C API function, from GCC's call graphs.

Compiled with ``-fstack-usage -fcallgraph-info=su`` (GCC 10 or later), each object ``X.o`` has a
``X.ci`` beside it: its functions with their frame sizes (bytes, "static" when fixed) and the calls
each one makes. This module joins them into one call graph and gives, for each function, the largest
sum of frames along any call path from it: the stack the function needs, as far as the compiler
knows it. What the compiler does not know is bounded here on purpose:

- calls into the C library (``memcpy``, ``malloc``, ``vsnprintf`` for an error message, the maths
  functions) count ``LIBC_FRAME`` bytes each, a generous bound for glibc's deepest of them
  (``vsnprintf`` with a double: about 2 KiB);
- an indirect call is one through the random stream's function pointers (``aa_bitgen``: PCG64's
  next word, a few dozen bytes), counted as ``INDIRECT_FRAME`` bytes;
- a frame GCC calls ``dynamic`` (alloca or a variable-length array) is refused: its size is not
  known, so nothing can be promised.

Recursion is refused (a cycle has no bound), but for the one the rules bound: an Activation's
declaration chain (``aa_after_targets`` of the activating unit begins the reaction, which may
declare for the reacting unit and so reach ``aa_after_targets`` again, which then begins movement),
so each function of that cycle appears at most ``BOUNDED_CYCLES[name]`` times on a path (a path
that would call it once more is one the rules never take, and is left out). (Clean-up
does not begin the next turn itself: the entry points loop over turns, aa_engine.c's next_turns.)
``python tests/support/stack_usage.py DIR`` prints the public functions of ``atomic_africa.h`` found
in DIR's ``.ci`` files, largest first.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

LIBC_FRAME = 4096
INDIRECT_FRAME = 512
#: Functions of a cycle the rules bound, and how often each may be on one call path: the activating
#: unit's declaration, then the reacting unit's (aa_engine.c: begin_reaction, confused_draw).
BOUNDED_CYCLES = {"aa_after_targets": 2, "aa_begin_declare": 2, "aa_set_action": 2}

_NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
_EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
_BYTES = re.compile(r"\\n(\d+) bytes \(([\w,]+)\)")


def _name(title: str) -> str:
    """A function's name without the file GCC prefixes to a static one."""
    return title.rsplit(":", 1)[-1]


def load(directory: Path) -> tuple[dict, dict]:
    """(frames, calls) from every ``.ci`` file in directory: title -> (bytes, qualifier) for the
    functions compiled there (None for a function only called), title -> set of titles called."""
    frames: dict = {}
    calls: dict = {}
    for ci in sorted(Path(directory).glob("*.ci")):
        for line in ci.read_text().splitlines():
            if m := _NODE.match(line):
                size = _BYTES.search(m.group(2))
                if size:
                    frames[m.group(1)] = (int(size.group(1)), size.group(2))
                else:
                    frames.setdefault(m.group(1), None)
            elif m := _EDGE.match(line):
                calls.setdefault(m.group(1), set()).add(m.group(2))
    return frames, calls


def worst_stack(frames: dict, calls: dict) -> dict:
    """Function title -> (bytes of its deepest call path, that path as a list of names)."""
    # A function declared in one file and defined in another has two titles: link them by name.
    defined = {_name(t): t for t, f in frames.items() if f is not None and ":" not in t}
    memo: dict = {}

    def visit(title: str, stack: tuple) -> tuple:
        if title == "__indirect_call":
            return INDIRECT_FRAME, ["(indirect call)"]
        frame = frames.get(title)
        if frame is None and _name(title) in defined:
            return visit(defined[_name(title)], stack)
        if title in stack:
            if _name(title) not in BOUNDED_CYCLES:
                raise ValueError(f"recursion: {' -> '.join(map(_name, stack + (title,)))}")
            if stack.count(title) >= BOUNDED_CYCLES[_name(title)]:
                return 0, []   # a path the rules never take (a third declaration in one chain)
        # the result depends on the path only through the bounded cycle's functions on it
        key = (title, tuple(stack.count(t) for t in stack if _name(t) in BOUNDED_CYCLES))
        if key in memo:
            return memo[key]
        if frame is None:   # not compiled here: the C library
            return LIBC_FRAME, [f"{_name(title)} (C library)"]
        size, qualifier = frame
        if "dynamic" in qualifier and "bounded" not in qualifier:
            raise ValueError(f"{_name(title)}: a frame of unknown size ({qualifier})")
        deepest, path = 0, []
        for callee in sorted(calls.get(title, ())):
            d, p = visit(callee, stack + (title,))
            if d > deepest:
                deepest, path = d, p
        memo[key] = (size + deepest, [f"{_name(title)} ({size})"] + path)
        return memo[key]

    return {t: visit(t, ()) for t, f in frames.items() if f is not None}


def public_functions(header: Path) -> set[str]:
    """The functions atomic_africa.h declares."""
    text = re.sub(r"/\*.*?\*/", "", Path(header).read_text(), flags=re.S)
    return set(re.findall(r"\b(aa_\w+)\s*\(", text))


def public_stack(directory: Path, header: Path) -> dict:
    """Public function name -> (worst-case stack bytes, deepest path)."""
    frames, calls = load(directory)
    worst = worst_stack(frames, calls)
    return {_name(t): w for t, w in worst.items() if _name(t) in public_functions(header) and ":" not in t}


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[2]
    result = public_stack(Path(sys.argv[1]), here / "src" / "aa_core" / "include" / "atomic_africa.h")
    for name, (size, path) in sorted(result.items(), key=lambda kv: -kv[1][0]):
        print(f"{size:8d}  {name}: {' -> '.join(path)}")
