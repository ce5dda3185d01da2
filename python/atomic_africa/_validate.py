"""Argument validation shared by the public API: one place for error wording.

The checkers of fields read from files (:mod:`._fields`) word their errors with the same helpers
(:func:`wrong_type`, :func:`out_of_range`, :func:`allowed_range`).
"""
from __future__ import annotations

import math
import numbers
import os
import reprlib
import warnings
from enum import IntEnum

import numpy as np

from ._limits import MAX_THREADS, MAX_VALUE

__all__ = [
    "as_enum", "as_int", "as_bool", "int_array", "float_array", "bool_array", "enum_array", "broadcast",
    "check_range", "dice_triple", "codes", "wrong_type", "out_of_range", "allowed_range", "shown",
    "as_threads", "cores_available", "check_memory", "memory_error", "available_memory", "memory_limits",
]


def _allowed(enum_cls: type[IntEnum]) -> str:
    """The members as a person types them (``"no, light, heavy"``): the same words on the command line
    and in the API, which also takes them in any case and as their numbers."""
    return ", ".join(m.name.lower() for m in enum_cls)


def as_enum(value, enum_cls: type[IntEnum], name: str):
    """Coerce ``value`` to ``enum_cls`` or raise naming ``name`` and the allowed members."""
    if isinstance(value, enum_cls):
        return value
    if isinstance(value, str):
        key = value.strip().upper().replace("-", "_").replace(" ", "_")
        if key in enum_cls.__members__:
            return enum_cls[key]
        # isascii: str.isdigit() also holds for "²" and other digits int() refuses
        if enum_cls.__name__ == "Die" and key.startswith("D") and key[1:].isascii() and key[1:].isdigit():
            return as_enum(int(key[1:]), enum_cls, name)
        if key.isascii() and key.isdigit():  # "8" as typed on a command line
            return as_enum(int(key), enum_cls, name)
        raise ValueError(f"{name}: unknown {enum_cls.__name__} {shown(value)}; allowed: {_allowed(enum_cls)}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{wrong_type(name, f'a {enum_cls.__name__}', value)}; allowed: {_allowed(enum_cls)}")
    try:
        return enum_cls(int(value))
    except ValueError:
        raise ValueError(
            f"{name}: {shown(value)} is not a valid {enum_cls.__name__}; allowed: {_allowed(enum_cls)}"
        ) from None


def as_int(value, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """Coerce an integral scalar, checking ``lo <= value <= hi``; floats and bools are rejected."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(wrong_type(name, "an integer", value))
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(out_of_range(name, v, allowed_range(v, lo, hi)))
    return v


def as_float(value, name: str, lo: float | None = None, hi: float | None = None) -> float:
    """A finite real scalar (NaN and infinities refused, bools rejected), checking ``lo <= value <= hi``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(wrong_type(name, "a finite real number", value))
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(out_of_range(name, value, "finite numbers"))
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError(out_of_range(name, x, allowed_range(x, lo, hi)))
    return x


def cores_available() -> int:
    """CPU cores this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def as_threads(value, name: str = "threads") -> int:
    """A thread count ``1..MAX_THREADS``; more than :func:`cores_available` gives a RuntimeWarning.

    Results never depend on the thread count, but threads beyond the cores only wait for each other
    (1,024 threads on 2 cores ran 78x slower), so the caller is told rather than silently slowed.
    """
    n = as_int(value, name, lo=1, hi=MAX_THREADS)
    cores = cores_available()
    if n > cores:
        warnings.warn(f"{name}: {n} threads on {cores} available core{'s' if cores != 1 else ''}; threads "
                      f"beyond the cores make the call slower, not faster (results do not change)",
                      RuntimeWarning, stacklevel=3)
    return n


# Where the process's own status and cgroups are read (tests point these at fake trees).
_PROC_SELF = "/proc/self"
_CGROUP_ROOT = "/sys/fs/cgroup"
# A cgroup v1 "no limit" is the largest page-aligned int64 (9223372036854771712); anything this
# large is no limit.
_UNLIMITED = 1 << 62


def _free_memory() -> int | None:
    """Linux ``MemAvailable`` (else the available physical pages), or None if unknown."""
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _read_int(path: str, key: bytes | None = None) -> int | None:
    """The integer a one-number file holds (``max``: None), or the value of ``key`` in a
    ``key value`` file (memory.stat, /proc/self/status in kB); None if unreadable."""
    try:
        with open(path, "rb") as fh:
            if key is None:
                word = fh.read(64).split()[0]
                return None if word == b"max" else int(word)
            for line in fh:
                parts = line.split()
                if len(parts) >= 2 and parts[0].rstrip(b":") == key:
                    return int(parts[1]) * (1024 if parts[-1] == b"kB" else 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _rlimit_memory() -> list:
    try:
        import resource
    except ImportError:        # not on this platform
        return []
    out = []
    for res, used_key, label in (("RLIMIT_AS", b"VmSize", "the address-space limit, ulimit -v"),
                                 ("RLIMIT_DATA", b"VmData", "the data-segment limit, ulimit -d")):
        if not hasattr(resource, res):
            continue
        soft = resource.getrlimit(getattr(resource, res))[0]
        if soft == resource.RLIM_INFINITY or soft < 0 or soft >= _UNLIMITED:
            continue
        used = _read_int(f"{_PROC_SELF}/status", used_key) or 0
        out.append((max(0, soft - used), label))
    return out


def _cgroup_memory() -> list:
    """(bytes available, label) of every cgroup memory limit over this process (v2 ``memory.max``,
    v1 ``memory.limit_in_bytes``), its usage less the page cache it can reclaim counted as used."""
    try:
        with open(f"{_PROC_SELF}/cgroup", encoding="utf-8", errors="replace") as fh:
            lines = fh.read(1 << 16).splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            base, files = _CGROUP_ROOT, ("memory.max", "memory.current", b"inactive_file")
        elif "memory" in controllers.split(","):
            base, files = f"{_CGROUP_ROOT}/memory", ("memory.limit_in_bytes", "memory.usage_in_bytes",
                                                    b"total_inactive_file")
        else:
            continue
        # the limits of the cgroup and of each of its ancestors apply
        parts = [p for p in path.split("/") if p]
        for depth in range(len(parts), -1, -1):
            rel = "/" + "/".join(parts[:depth])
            d = base + rel.rstrip("/")
            limit = _read_int(f"{d}/{files[0]}")
            if limit is None or limit >= _UNLIMITED:
                continue
            used = _read_int(f"{d}/{files[1]}") or 0
            cache = _read_int(f"{d}/memory.stat", files[2]) or 0
            out.append((max(0, limit - max(0, used - cache)), f"the cgroup limit {files[0]} of {rel}"))
    return out


def memory_limits() -> list:
    """What limits the memory a new allocation may take now, as ``(bytes available, label)`` pairs:
    free memory (``MemAvailable``), the address-space and data limits (``ulimit -v``, ``ulimit -d``:
    the limit less what the process maps already) and every cgroup memory limit over the process
    (v2 ``memory.max``, v1 ``memory.limit_in_bytes``: the limit less the usage that page cache does
    not explain). Unknown ones are left out."""
    free = _free_memory()
    return ([(free, "free memory")] if free is not None else []) + _rlimit_memory() + _cgroup_memory()


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now, the tightest of :func:`memory_limits`, or
    None if none is known."""
    limits = memory_limits()
    return min(n for n, _ in limits) if limits else None


def _limit_label(avail) -> str:
    """The label of the limit that leaves ``avail`` bytes (" (ulimit -v ...)"), or "" for free memory
    or an ``avail`` no limit gives (a test's)."""
    for n, label in memory_limits():
        if n == avail and label != "free memory":
            return f" ({label})"
    return ""


def _size(n: int) -> str:
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            tenths = n * 10 >> shift          # integers: exact, and no float overflow for any n
            return f"{tenths // 10:,}.{tenths % 10} {unit}"
    return f"{n:,} bytes"


def check_memory(nbytes: int, name: str, what: str, hint: str = "") -> None:
    """Raise :func:`memory_error` if ``nbytes`` (for ``what``) exceed the memory available now.

    Checked before allocating: an allocation larger than the free memory may succeed on an
    overcommitting OS and then swap the machine to a halt or be killed, never raising.
    """
    avail = available_memory()
    # beyond the address space (numpy's array sizes) nothing fits, whatever the memory reported
    if (avail is not None and nbytes > avail) or nbytes > np.iinfo(np.intp).max:
        raise memory_error(nbytes, name, what, hint, avail)


def allocate(n: int, dtypes, name: str, what: str, hint: str = "") -> list:
    """``n``-long empty arrays, one per dtype, refused up front (:func:`check_memory`) when they
    cannot fit, and with the same :func:`memory_error` if the allocation fails anyway.

    ``what`` names the items (``"engagements"``); the message gives their count and bytes each.
    """
    each = sum(np.dtype(d).itemsize for d in dtypes)
    text = f"{n:,} {what} at {each} bytes each"
    check_memory(each * n, name, text, hint)
    try:
        return [np.empty(n, dtype=d) for d in dtypes]
    except MemoryError:
        raise memory_error(each * n, name, text, hint) from None


def memory_error(nbytes: int, name: str, what: str, hint: str = "", avail: int | None = None) -> MemoryError:
    """``MemoryError("<name>: <what> need <size> of memory; <available> is available[; <hint>]")``."""
    avail = available_memory() if avail is None else avail
    told = f"; {_size(avail)} is available{_limit_label(avail)}" if avail is not None else ""
    return MemoryError(f"{name}: {what} need {_size(nbytes)} of memory{told}" + (f"; {hint}" if hint else ""))


def as_bool(value, name: str) -> bool:
    """Accept ``bool``/``numpy.bool_`` (or 0/1 integers) only."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError(wrong_type(name, "a bool", value))


# -- the one wording of bad values, shared with the file-field checkers of ``_fields`` --------------
def wrong_type(name: str, what: str, value) -> str:
    """``"<name>: expected <what>, got <type> <value>"`` (the value shown abridged: see :func:`shown`)."""
    return f"{name}: expected {what}, got {type(value).__name__} {shown(value)}"


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 3, 80, 80, 40


def shown(value) -> str:
    """``repr(value)`` abridged for a message: nested containers cut at 3 levels, long values at ~80
    characters, so any input (a list nested 100,000 deep, a huge string) gives a short message."""
    return _SHOWN.repr(value)


def out_of_range(name: str, value, allowed: str) -> str:
    """``"<name>: <value> is out of range; allowed <allowed>"`` (a value that is not a str shown abridged)."""
    return f"{name}: {value if isinstance(value, str) else shown(value)} is out of range; allowed {allowed}"


def allowed_range(value, lo=None, hi=None) -> str:
    """The allowed range to name for ``value`` outside ``lo..hi``: ``"1..9"``, ``">= 1"``, ``"<= 0"``."""
    if lo is not None and value < lo:
        return _range(lo, None if lo == -MAX_VALUE else hi)
    return _range(None if hi == MAX_VALUE else lo, hi)


def _range(lo, hi) -> str:
    # The engine-wide magnitude bound is only worth naming when it is the one broken.
    if hi == MAX_VALUE:
        hi = None
    if lo == -MAX_VALUE:
        lo = None
    if lo is None and hi is None:
        return f"magnitude <= {MAX_VALUE} (2**30)"
    if lo is not None and hi is not None:
        return f"{lo}..{hi}"
    if lo is not None:
        return f">= {lo}"
    return f"<= {hi}"


def int_array(value, name: str, dtype=np.int64) -> np.ndarray:
    """A contiguous integer array of ``dtype``; floats, bools and objects are rejected."""
    arr = _asarray(value, name)
    if arr.size == 0 and arr.dtype.kind == "f":  # [] arrives as float64
        arr = arr.astype(dtype)
    if arr.dtype == object or arr.dtype.kind not in "iu":
        if arr.dtype.kind == "b":
            raise TypeError(f"{name}: expected integers, got a boolean array")
        raise TypeError(f"{name}: expected an integer array, got dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(dtype).max:
        raise ValueError(f"{name}: values exceed {np.dtype(dtype).name}")
    return np.asarray(arr, dtype=dtype, order="C")


def _asarray(value, name: str) -> np.ndarray:
    try:
        return np.asarray(value)
    except ValueError:  # ragged nested sequences (numpy's message is three sentences about its internals)
        raise ValueError(f"{name}: not a rectangular array (its rows differ in length); expected nested lists of "
                         f"equal lengths") from None


def float_array(value, name: str) -> np.ndarray:
    """A contiguous float64 array; integer input is converted, bool/object/complex rejected."""
    arr = _asarray(value, name)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name}: expected a real-valued array, got dtype {arr.dtype}")
    return np.asarray(arr, dtype=np.float64, order="C")


def broadcast(**arrays: np.ndarray) -> tuple[list[np.ndarray], tuple]:
    """Broadcast named arrays together (naming shapes on mismatch): flat views and the common shape.

    Scalars stay zero-stride views, so nothing is copied for them.
    """
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{k}{tuple(a.shape)}" for k, a in arrays.items())
        raise ValueError(f"shape mismatch: cannot broadcast {shapes}") from None
    return [np.broadcast_to(a, shape).reshape(-1) for a in arrays.values()], shape


def check_range(arr: np.ndarray, name: str, lo=None, hi=None) -> None:
    """Raise ValueError naming ``name`` if any element of ``arr`` is outside ``lo..hi``."""
    if arr.size == 0:
        return
    if lo is not None and arr.min() < lo:
        bad = arr.reshape(-1)[np.argmax(arr.reshape(-1) < lo)]
        raise ValueError(out_of_range(name, f"value {bad}", allowed_range(bad, lo, hi)))
    if hi is not None and arr.max() > hi:
        bad = arr.reshape(-1)[np.argmax(arr.reshape(-1) > hi)]
        raise ValueError(out_of_range(name, f"value {bad}", allowed_range(bad, lo, hi)))


def bool_array(value, name: str) -> np.ndarray:
    """A bool array as int8 (0/1); accepts bool or 0/1 integer arrays."""
    arr = _asarray(value, name)
    if arr.dtype.kind == "b":
        return np.asarray(arr, order="C").view(np.int8)
    if arr.dtype.kind in "iu":
        check_range(arr, name, 0, 1)
        return np.asarray(arr, dtype=np.int8, order="C")
    raise TypeError(f"{name}: expected a bool array, got dtype {arr.dtype}")


def codes(value, enum_cls, name: str) -> np.ndarray:
    """``int_array``, also accepting member names (``"light"``) and members of ``enum_cls``."""
    arr = _asarray(value, name)
    if arr.dtype.kind in "USO" and arr.size:
        names, inverse = np.unique(arr.astype(object).reshape(-1).astype(str), return_inverse=True)
        if arr.dtype.kind == "O" and not all(isinstance(x, (str, enum_cls)) for x in arr.reshape(-1)):
            return int_array([int(x) if isinstance(x, enum_cls) else x for x in arr.reshape(-1)],
                             name).reshape(arr.shape)
        mapped = np.array([int(as_enum(str(n), enum_cls, name)) for n in names], dtype=np.int64)
        return mapped[inverse].reshape(arr.shape)
    return int_array(arr, name)


def enum_array(value, enum_cls, name: str) -> np.ndarray:
    """An int64 array of ``enum_cls`` values (or names); out-of-range members are named in the error."""
    arr = codes(value, enum_cls, name)
    values = sorted(int(m) for m in enum_cls)
    if arr.size and (arr.min() < values[0] or arr.max() > values[-1] or not np.isin(arr, values).all()):
        bad = arr.reshape(-1)[~np.isin(arr.reshape(-1), values)][0]
        raise ValueError(f"{name}: {bad} is not a valid {enum_cls.__name__}; allowed: {_allowed(enum_cls)}")
    return arr


def dice_triple(value, name: str, enum_cls) -> tuple:
    """Three dice (Die members, ints or 'd8' strings) -> tuple of ``enum_cls``."""
    if isinstance(value, str):
        value = [v for v in value.replace(" ", "").split(",") if v]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name}: expected three dice, got {type(value).__name__}") from None
    if len(items) != 3:
        raise ValueError(f"{name}: expected three dice (Training, Equipment, Morale), got {len(items)}")
    return tuple(as_enum(v, enum_cls, f"{name}[{i}]") for i, v in enumerate(items))
