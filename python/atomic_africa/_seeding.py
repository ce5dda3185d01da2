"""Seeds to independent streams: one BitGenerator per chunk or game index, never per worker."""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["seed_sequence", "generator", "chunk_generators", "stuck_state", "check_bit_generator"]

#: Why a PCG increment must be odd (the one rule, also VectorGame's snapshot checker's): numpy accepts
#: any increment in ``bit_generator.state``, but with an even one the generator's period collapses
#: (state 0 with increment 0 gives 0, 0, 0 ... for ever), and the dice kernels' rejection sampling,
#: which waits for a word outside a small band, then never ends: in C, deaf to Ctrl-C. Every stream
#: numpy seeds itself has an odd increment.
PCG_INCREMENT_RULE = "allowed an odd increment (numpy's own seeding always makes one odd)"


def stuck_state(state: dict, path: str = "state") -> str | None:
    """The problem with a bit generator ``state`` dict that can repeat one value for ever, or None.

    A PCG64 or PCG64DXSM state needs an odd increment (:data:`PCG_INCREMENT_RULE`); an MT19937 key
    must not be all zero (it then draws 0 for ever). Other bit generators (Philox, SFC64) carry a
    counter and cannot stick.

    Parameters
    ----------
    state : dict
        ``bit_generator.state`` (``{"bit_generator": name, "state": {...}, ...}``).
    path : str
        The state's name in the message, e.g. ``"text.source.state"``.

    Returns
    -------
    str or None
        ``"<path>.state.inc: 12 is even; allowed an odd increment ..."``, or None if the state is fine.
    """
    kind = state.get("bit_generator") if isinstance(state, dict) else None
    inner = state.get("state") if isinstance(state, dict) else None
    if kind in ("PCG64", "PCG64DXSM") and isinstance(inner, dict):
        inc = inner.get("inc")
        if isinstance(inc, numbers.Integral) and int(inc) % 2 == 0:
            return f"{path}.state.inc: {int(inc)} is even; {PCG_INCREMENT_RULE}"
    if kind == "MT19937" and isinstance(inner, dict):
        key = np.asarray(inner.get("key", ()))
        if key.size and not key.any():
            return f"{path}.state.key: all zero, a state that repeats one value for ever; allowed a key " \
                   f"with a non-zero word"
    return None


def check_bit_generator(bit_generator, name: str = "rng") -> None:
    """Raise ValueError naming ``name`` if ``bit_generator`` is in a state that repeats one value for
    ever (:func:`stuck_state`), before a kernel draws from it in C without end."""
    problem = stuck_state(bit_generator.state, "state")
    if problem is not None:
        raise ValueError(f"{name}: a {type(bit_generator).__name__} in a state that repeats one value for "
                         f"ever ({problem})")


def seed_sequence(seed, name: str = "seed") -> np.random.SeedSequence:
    """``None`` (fresh entropy), a non-negative int, a SeedSequence, or a Generator (draws entropy)."""
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(seed.integers(0, 2**63, size=4, dtype=np.uint64).tolist())
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name}: expected None, a non-negative int, numpy.random.SeedSequence or "
            f"numpy.random.Generator, got {type(seed).__name__}"
        )
    if int(seed) < 0:
        raise ValueError(f"{name}: must be non-negative, got {int(seed)}")
    return np.random.SeedSequence(int(seed))


def generator(rng, name: str = "rng") -> np.random.Generator:
    """A Generator as given, or a new PCG64 Generator from a seed (see :func:`seed_sequence`)."""
    if isinstance(rng, np.random.Generator):
        check_bit_generator(rng.bit_generator, name)
        return rng
    return np.random.Generator(np.random.PCG64(seed_sequence(rng, name)))


def chunk_generators(ss: np.random.SeedSequence, n_chunks: int) -> list:
    """PCG64 bit generators of streams 0..n_chunks-1 of ``ss`` (stream i = ``ss.spawn``'s child i)."""
    # Children are built from the spawn key directly, so ``ss`` itself is left untouched and stream
    # i is the same whatever n_chunks is.
    return [
        np.random.PCG64(np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key + (i,),
                                               pool_size=ss.pool_size))
        for i in range(n_chunks)
    ]
