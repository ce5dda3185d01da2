"""Seeds to independent streams: one BitGenerator per chunk or game index, never per worker."""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["seed_sequence", "generator", "chunk_generators"]


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
