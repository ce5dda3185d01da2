"""Dice and Table 5: roll_dice vs Generator.integers; batch action_scores vs numpy sort; reference.

Units of three dice drawn from the ladder (d4..d12, mixed rows, as a force after wounds). The numpy
baselines are the idioms a user would write: ``Generator.integers(1, sides + 1, dtype=np.uint8)``
with the bounds computed once (exactly uniform, like the kernel), and the float idiom
``(rng.random(shape) * sides).astype(np.uint8) + 1`` (each face within 2**-53 of uniform). Per item
= per unit (three dice).
"""
import numpy as np
import pytest
from _scale import scaled

import atomic_africa as aa
from atomic_africa import reference as ref

N = scaled(3_000_000)
N_REF = scaled(20_000)
DICE = np.random.default_rng(42).choice([int(d) for d in aa.Die], size=(N, 3)).astype(np.int64)


def _check_faces(faces):
    assert faces.shape == DICE.shape and faces.min() == 1 and (faces <= DICE).all()


@pytest.mark.benchmark(group="roll_dice")
def test_roll_kernel(benchmark, items):
    items(N)
    rng = np.random.default_rng(0)
    _check_faces(benchmark(aa.batch.roll_dice, DICE, rng))


@pytest.mark.benchmark(group="roll_dice")
def test_roll_numpy_integers(benchmark, items):
    items(N)
    rng = np.random.default_rng(0)
    high = (DICE + 1).astype(np.uint8)
    _check_faces(benchmark(lambda: rng.integers(1, high, dtype=np.uint8)))


@pytest.mark.benchmark(group="roll_dice")
def test_roll_numpy_float_scaling(benchmark, items):
    items(N)
    rng = np.random.default_rng(0)
    _check_faces(benchmark(lambda: (rng.random(DICE.shape) * DICE).astype(np.uint8) + 1))


@pytest.mark.benchmark(group="roll_dice")
def test_roll_reference(benchmark, items):
    items(N_REF)
    rows = DICE[:N_REF].tolist()
    benchmark(lambda: ref.roll_dice(rows, np.random.default_rng(0)))


@pytest.fixture(scope="module")
def faces():
    return aa.batch.roll_dice(DICE, np.random.default_rng(1)).astype(np.int64)


@pytest.mark.benchmark(group="action_scores")
def test_scores_kernel(benchmark, items, faces):
    items(N)
    benchmark(aa.batch.action_scores, faces, aa.Posture.OFFENSIVE, aa.Action.MASS_FIRE)


@pytest.mark.benchmark(group="action_scores")
def test_scores_numpy(benchmark, items, faces):
    """One action for every roll (the kernel takes any posture and action per roll): a sort."""
    items(N)

    def numpy_scores():
        s = np.sort(faces, axis=1)
        return s[:, 1:3], s[:, 0]  # offensive Mass Fire: attacks mid, high; defense low
    attacks, defense = benchmark(numpy_scores)
    want = aa.batch.action_scores(faces, aa.Posture.OFFENSIVE, aa.Action.MASS_FIRE)
    np.testing.assert_array_equal(attacks, want.attacks)
    np.testing.assert_array_equal(defense, want.defense)


@pytest.mark.benchmark(group="action_scores")
def test_scores_reference(benchmark, items, faces):
    items(N_REF)
    rows = faces[:N_REF].tolist()
    benchmark(lambda: [ref.action_scores(f, 0, aa.Action.MASS_FIRE) for f in rows])
