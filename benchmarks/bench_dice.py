"""Dice and Table 5: roll_dice vs Generator.integers; batch action_scores vs numpy sort; reference."""
import numpy as np
import pytest
from _scale import scaled

import atomic_africa as aa
from atomic_africa import reference as ref

N = scaled(3_000_000)
N_REF = scaled(20_000)
DICE = np.tile(np.array([10, 10, 8], dtype=np.int64), (N, 1))


@pytest.mark.benchmark(group="roll_dice")
def test_roll_kernel(benchmark, items):
    items(N)
    benchmark(lambda: aa.batch.roll_dice(DICE, np.random.default_rng(0)))


@pytest.mark.benchmark(group="roll_dice")
def test_roll_numpy(benchmark, items):
    items(N)
    benchmark(lambda: np.random.default_rng(0).integers(1, DICE + 1, dtype=np.uint8))


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
    items(N)

    def numpy_scores():
        s = np.sort(faces, axis=1)
        return s[:, 1:3], s[:, 0]  # offensive Mass Fire: attacks mid, high; defense low
    benchmark(numpy_scores)


@pytest.mark.benchmark(group="action_scores")
def test_scores_reference(benchmark, items, faces):
    items(N_REF)
    rows = faces[:N_REF].tolist()
    benchmark(lambda: [ref.action_scores(f, 0, aa.Action.MASS_FIRE) for f in rows])
