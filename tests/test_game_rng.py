"""The game's randomness source: exact uniform dice and shuffles through the dice kernel's stream."""
import itertools
from collections import Counter

import numpy as np
from scipy import stats

import atomic_africa as aa
from atomic_africa.game.rng import RandomSource, ScriptedSource


def test_dice_are_the_dice_kernel_stream():
    src = RandomSource(123)
    got = [src.roll_many([10, 10, 8]) for _ in range(50)]
    gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(123)))
    want = aa.batch.roll_dice(np.tile([10, 10, 8], (50, 1)), gen).tolist()
    assert got == want


def test_die_faces_uniform_chi_square():
    src = RandomSource(7)
    for sides in (4, 6, 8, 10, 12):
        counts = Counter(src.roll(sides) for _ in range(6000))
        assert set(counts) == set(range(1, sides + 1))
        assert stats.chisquare([counts[f] for f in range(1, sides + 1)]).pvalue > 1e-4


def test_shuffle_uniform_over_permutations_chi_square():
    src = RandomSource(11)
    perms = list(itertools.permutations(range(4)))
    counts = Counter(tuple(src.shuffle(list(range(4)))) for _ in range(24_000))
    assert set(counts) == set(perms)
    assert stats.chisquare([counts[p] for p in perms]).pvalue > 1e-4


def test_state_round_trip_and_determinism():
    a, b = RandomSource(5), RandomSource(5)
    assert a.shuffle(list(range(54))) == b.shuffle(list(range(54)))
    c = RandomSource.from_dict(a.to_dict())
    assert [a.roll(12) for _ in range(20)] == [c.roll(12) for _ in range(20)]
    assert RandomSource(6).shuffle(list(range(54))) != RandomSource(5).shuffle(list(range(54)))


def test_scripted_source_checks_its_script():
    s = ScriptedSource(dice=[3, 9])
    assert s.roll(6) == 3
    try:
        s.roll(8)
    except RuntimeError as exc:
        assert "does not fit a d8" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("face 9 on a d8 accepted")
    s2 = ScriptedSource(fallback=4)
    assert 1 <= s2.roll(6) <= 6 and s2.rolled
