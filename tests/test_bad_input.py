"""Every public core entry point rejects bad input with an error naming the argument."""
from __future__ import annotations

import numpy as np
import pytest

import atomic_africa as aa

SIM = dict(shooter_posture=aa.Posture.OFFENSIVE, target_posture=aa.Posture.DEFENSIVE, range_band=3,
           armor=2)
GOOD_DICE = (aa.Die.D10, aa.Die.D10, aa.Die.D8)


def raises(exc, *words):
    """pytest.raises that also checks every word appears in the message."""
    class _Ctx:
        def __enter__(self):
            self.ctx = pytest.raises(exc)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *a):
            out = self.ctx.__exit__(*a)
            msg = str(self.info.value)
            for w in words:
                assert w in msg, f"{w!r} not in {msg!r}"
            return out
    return _Ctx()


def test_shift_die_errors():
    with raises(ValueError, "die", "d12"):
        aa.shift_die(7, 1)
    with raises(ValueError, "die"):
        aa.shift_die("d20", 1)
    with raises(ValueError, "steps", ">= 0"):
        aa.shift_die(aa.Die.D8, -1)
    with raises(TypeError, "steps"):
        aa.shift_die(aa.Die.D8, 1.5)
    with raises(TypeError, "die"):
        aa.shift_die(8.0, 1)
    with raises(ValueError, "dice", "ladder"):
        aa.batch.shift_dice([8, 5], 1)


def test_action_scores_errors():
    with raises(ValueError, "faces", "three"):
        aa.action_scores((1, 2), 0, 0)
    with raises(ValueError, "faces[2]", "1..12"):
        aa.action_scores((1, 2, 13), 0, 0)
    with raises(ValueError, "faces[0]"):
        aa.action_scores((0, 2, 3), 0, 0)
    with raises(ValueError, "posture", "offensive"):
        aa.action_scores((1, 2, 3), 2, 0)
    with raises(ValueError, "action", "sprint"):
        aa.action_scores((1, 2, 3), 0, 8)
    with raises(TypeError, "action"):
        aa.action_scores((1, 2, 3), 0, None)
    with raises(ValueError, "faces", "(..., 3)"):
        aa.batch.action_scores(np.ones((4, 2), int), 0, 0)
    with raises(ValueError, "faces"):
        aa.batch.action_scores(np.full((4, 3), 13), 0, 0)
    with raises(ValueError, "action"):
        aa.batch.action_scores(np.ones((4, 3), int), 0, [0, 1, 9, 2])
    with raises(TypeError, "faces"):
        aa.batch.action_scores(np.ones((4, 3)), 0, 0)


def test_range_band_errors():
    for bad in (float("nan"), -1.0, float("inf")):
        with raises(ValueError, "distance_cm", ">= 0"):
            aa.range_band(bad)
    with raises(TypeError, "distance_cm"):
        aa.range_band("12")
    with raises(ValueError, "distances", "element 2"):
        aa.batch.range_band([1.0, 2.0, np.nan])
    with raises(ValueError, "distances", "element 1"):
        aa.batch.range_band([1.0, -0.5])
    with raises(ValueError, "distances"):
        aa.batch.range_band([1.0, np.inf])
    with raises(TypeError, "distances"):
        aa.batch.range_band(np.array(["a", "b"]))
    with raises(TypeError, "rules"):
        aa.range_band(3.0, rules={"fire": {}})


def test_resolve_fire_errors():
    with raises(ValueError, "armor", ">= 1"):
        aa.resolve_fire(10, 3, 2, 0)
    with raises(ValueError, "range_band", "1..9"):
        aa.resolve_fire(10, 10, 2, 2)
    with raises(ValueError, "range_band"):
        aa.resolve_fire(10, 0, 2, 2)
    with raises(ValueError, "attack"):
        aa.resolve_fire(-1, 3, 2, 2)
    with raises(ValueError, "defense"):
        aa.resolve_fire(5, 3, -2, 2)
    with raises(ValueError, "cover", "heavy"):
        aa.resolve_fire(10, 3, 2, 2, cover=3)
    with raises(ValueError, "ap", "<= 0"):
        aa.resolve_fire(10, 3, 2, 2, ap=1)
    with raises(TypeError, "attack"):
        aa.resolve_fire(10.0, 3, 2, 2)
    with raises(TypeError, "vehicle"):
        aa.resolve_fire(10, 3, 2, 2, vehicle="yes")


def test_batch_resolve_fire_errors():
    a = np.arange(10)
    with raises(TypeError, "attack", "float64"):
        aa.batch.resolve_fire(a.astype(float), 3, 2, 2)
    with raises(ValueError, "shape mismatch", "attack(10,)", "range_band(3,)"):
        aa.batch.resolve_fire(a, [1, 2, 3], 2, 2)
    with raises(ValueError, "armor", ">= 1"):
        aa.batch.resolve_fire(a, 3, 2, np.zeros(10, int))
    with raises(ValueError, "range_band", "1..9"):
        aa.batch.resolve_fire(a, 12, 2, 2)
    with raises(ValueError, "cover"):
        aa.batch.resolve_fire(a, 3, 2, 2, cover=-1)
    with raises(ValueError, "ap"):
        aa.batch.resolve_fire(a, 3, 2, 2, ap=2)
    with raises(TypeError, "attack", "bool"):
        aa.batch.resolve_fire(np.ones(10, bool), 3, 2, 2)
    with raises(ValueError, "vehicle"):
        aa.batch.resolve_fire(a, 3, 2, 2, vehicle=np.full(10, 2))
    with raises(TypeError, "defense"):
        aa.batch.resolve_fire(a, 3, np.array([object()] * 10), 2)


def test_resolve_volley_errors():
    with raises(ValueError, "target"):
        aa.batch.resolve_volley([0, 3], [10, 10], 3, defense=[1, 2], armor=2)
    with raises(ValueError, "defense", "n_targets"):
        aa.batch.resolve_volley([0, 1], [10, 10], 3, defense=[1, 2, 3], armor=[2, 2])
    with raises(ValueError, "already"):
        aa.batch.resolve_volley([0], [10], 3, defense=1, armor=2, already=-1, n_targets=1)


def test_simulate_fire_errors():
    sim = aa.batch.simulate_fire
    with raises(ValueError, "shooter[2]", "Die"):
        sim(10, (10, 10, 7), GOOD_DICE, **SIM)
    with raises(ValueError, "target", "three"):
        sim(10, GOOD_DICE, (10, 10), **SIM)
    with raises(ValueError, "n", ">= 0"):
        sim(-1, GOOD_DICE, GOOD_DICE, **SIM)
    with raises(TypeError, "n"):
        sim(1.5, GOOD_DICE, GOOD_DICE, **SIM)
    with raises(ValueError, "armor"):
        sim(10, GOOD_DICE, GOOD_DICE, **{**SIM, "armor": 0})
    with raises(ValueError, "range_band"):
        sim(10, GOOD_DICE, GOOD_DICE, **{**SIM, "range_band": 10})
    with raises(ValueError, "shooter_posture"):
        sim(10, GOOD_DICE, GOOD_DICE, **{**SIM, "shooter_posture": 5})
    with raises(ValueError, "shooter_action", "RALLY", "BASIC"):
        sim(10, GOOD_DICE, GOOD_DICE, shooter_action=aa.Action.RALLY, **SIM)
    with raises(ValueError, "threads"):
        sim(10, GOOD_DICE, GOOD_DICE, threads=0, **SIM)
    with raises(ValueError, "seed", "non-negative"):
        sim(10, GOOD_DICE, GOOD_DICE, seed=-3, **SIM)
    with raises(TypeError, "seed"):
        sim(10, GOOD_DICE, GOOD_DICE, seed="abc", **SIM)
    with pytest.raises(TypeError):
        sim(10, GOOD_DICE, GOOD_DICE, 0, 1, 3, 2)  # postures etc. are keyword-only


def test_roll_dice_errors():
    with raises(ValueError, "dice", "not a die"):
        aa.batch.roll_dice([[6, 6, 5]], 1)
    with raises(ValueError, "dice", "shape"):
        aa.batch.roll_dice(np.full((2, 2, 3), 6), 1)
    with raises(TypeError, "rng"):
        aa.batch.roll_dice([[6, 6, 6]], "seed")


def test_scatter_errors():
    with raises(ValueError, "clock", "1..12"):
        aa.scatter(0, 5, 3)
    with raises(ValueError, "distance", "1..12"):
        aa.scatter(3, 13, 3)
    with raises(ValueError, "spotting"):
        aa.scatter(3, 5, -1)
    with raises(ValueError, "clock"):
        aa.batch.scatter([1, 13], 5, 3)


def test_predominant_cover_errors():
    with raises(ValueError, "in_transit", "heavy"):
        aa.predominant_cover(0, 4, 1)
    with raises(ValueError, "destination"):
        aa.batch.predominant_cover([0, 1], [1, 1], [1, 3])


def test_enum_names_accepted_where_sensible():
    assert aa.action_scores((1, 2, 3), "offensive", "mass_fire").attacks == (2, 3)
    assert aa.resolve_fire(13, 3, 2, 2, "light") == (2, 2)
    assert aa.shift_die("d8", 1) == aa.Die.D6
    assert aa.shift_die("8", 1) == aa.Die.D6
    m, w = aa.batch.resolve_fire([13, 13, 13], 3, 2, 2, cover=["light", "HEAVY", "none"])
    assert m.tolist() == [2, 2, 2] and w.tolist() == [2, 2, 4]
    s = aa.batch.action_scores([[9, 2, 5]], "offensive", ["mass_fire"])
    assert s.attacks.tolist() == [[5, 9]] and s.defense.tolist() == [2]
    assert aa.batch.predominant_cover("light", ["none"], "heavy").tolist() == [1]
    with raises(ValueError, "cover", "light"):
        aa.batch.resolve_fire([13], 3, 2, 2, cover=["medium"])


def test_batch_wounded_dice_errors():
    with raises(ValueError, "dice", "row 1"):
        aa.batch.wounded_dice([[8, 8, 8], [8, 7, 8]], 1)
    with raises(ValueError, "dice", "(n, 3)"):
        aa.batch.wounded_dice([8, 8, 8], 1)
    with raises(ValueError, "wounds", ">= 0"):
        aa.batch.wounded_dice([[8, 8, 8]], -1)
    with raises(ValueError, "vehicle", "length 1"):
        aa.batch.wounded_dice([[8, 8, 8]], 1, vehicle=[True, False])


BIG = 2**31 - 1


def test_huge_values_are_rejected_not_wrapped():
    """Values past the kernels' 32-bit arithmetic get an error naming the argument, never a wrap."""
    for call, name in [
        (lambda: aa.resolve_fire(13, 3, BIG, 2), "defense"),
        (lambda: aa.resolve_fire(10**12, 3, 2, 2), "attack"),
        (lambda: aa.resolve_fire(13, 1, 0, BIG - 1, aa.Cover.HEAVY), "armor"),
        (lambda: aa.resolve_fire(13, 1, 0, 2, ap=-(2**40)), "ap"),
        (lambda: aa.effective_armor(BIG), "armor"),
        (lambda: aa.shift_die(8, 2**63), "steps"),
        (lambda: aa.scatter(12, 12, 2**31), "spotting"),
        (lambda: aa.batch.resolve_volley([0], [13], 3, defense=[2], armor=[2], already=[2**32]), "already"),
        (lambda: aa.batch.resolve_volley([0], [13], 3, defense=[BIG], armor=[2]), "defense"),
        (lambda: aa.batch.resolve_fire([13], 1, 0, [BIG]), "armor"),
        (lambda: aa.batch.simulate_fire(10, GOOD_DICE, GOOD_DICE, **{**SIM, "armor": BIG}), "armor"),
        (lambda: aa.odds.fire_outcomes(GOOD_DICE, GOOD_DICE, **{**SIM, "armor": BIG}), "armor"),
        (lambda: aa.odds.fire_outcomes(GOOD_DICE, GOOD_DICE, **SIM, ap=-(2**40)), "ap"),
        (lambda: aa.odds.fire_grid(GOOD_DICE, GOOD_DICE, armors=[BIG]), "armors"),
        (lambda: aa.batch.wounded_dice([[8, 8, 8]], 2**40), "wounds"),
    ]:
        with raises(ValueError, name):
            call()
    # The largest accepted values still resolve correctly.
    assert aa.resolve_fire(13, 3, 2**30, 2) == (1, 0)
    assert aa.resolve_fire(2**30, 1, 0, 2**30, aa.Cover.HEAVY) == (2, 0)


def test_ragged_and_oversized_inputs():
    with raises(ValueError, "attack", "rectangular"):
        aa.batch.resolve_fire([[1, 2], [3]], 3, 2, 2)
    with raises(ValueError, "distances", "rectangular"):
        aa.batch.range_band([[1.0, 2.0], [3.0]])
    with raises(MemoryError, "n"):
        aa.batch.simulate_fire(10**15, GOOD_DICE, GOOD_DICE, **SIM)
