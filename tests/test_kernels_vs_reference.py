"""Every core kernel against the pure-Python reference, exhaustively over small domains."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa import reference as ref

DICE = list(aa.Die)
ALL_FACES = np.array(list(itertools.product(range(1, 13), repeat=3)), dtype=np.int64)


def test_shift_die_every_die_and_step():
    for die in DICE:
        for steps in range(0, 7):
            expected = ref.shift_die(die, steps)
            got = aa.shift_die(die, steps)
            assert (None if got is None else int(got)) == expected
            assert got is None or isinstance(got, aa.Die)


def test_shift_die_ladder_examples():
    assert aa.shift_die(aa.Die.D10, 2) == aa.Die.D6
    assert aa.shift_die(aa.Die.D4, 0) == aa.Die.D4
    assert aa.shift_die(aa.Die.D4, 1) is None
    assert aa.shift_die(aa.Die.D12, 4) == aa.Die.D4
    assert aa.shift_die(aa.Die.D12, 5) is None


def test_batch_shift_dice_matches_scalar():
    dice = np.repeat([int(d) for d in DICE], 7)
    steps = np.tile(np.arange(7), len(DICE))
    out = aa.batch.shift_dice(dice, steps)
    for d, s, o in zip(dice, steps, out):
        assert o == (ref.shift_die(d, s) or 0)


@pytest.mark.parametrize("vehicle", [False, True])
def test_wounded_dice_every_triple(vehicle):
    for dice in itertools.product(DICE, repeat=3):
        for wounds in range(0, 6):
            got_dice, got_shattered = aa.wounded_dice(dice, wounds, vehicle)
            exp_dice, exp_shattered = ref.wounded_dice(dice, wounds, vehicle)
            assert tuple(int(d) for d in got_dice) == exp_dice
            assert got_shattered == exp_shattered


def test_wounded_dice_seed_example():
    # Seed 001: two d10 and a d8 Morale die with two wound counters roll two d10 and a d4.
    dice, shattered = aa.wounded_dice((aa.Die.D10, aa.Die.D10, aa.Die.D8), 2)
    assert dice == (aa.Die.D10, aa.Die.D10, aa.Die.D4) and not shattered
    dice, shattered = aa.wounded_dice((aa.Die.D10, aa.Die.D10, aa.Die.D8), 3)
    assert dice[2] == aa.Die.D4 and shattered
    # Vehicles shift Equipment instead.
    dice, _ = aa.wounded_dice((aa.Die.D8, aa.Die.D12, aa.Die.D8), 1, vehicle=True)
    assert dice == (aa.Die.D8, aa.Die.D10, aa.Die.D8)


@pytest.mark.parametrize("action", list(aa.Action))
@pytest.mark.parametrize("posture", list(aa.Posture))
def test_action_scores_all_faces_scalar(action, posture):
    for faces in ALL_FACES.tolist():
        assert aa.action_scores(faces, posture, action) == ref.action_scores(faces, posture, action)


@pytest.mark.parametrize("action", list(aa.Action))
@pytest.mark.parametrize("posture", list(aa.Posture))
def test_action_scores_all_faces_batch(action, posture):
    got = aa.batch.action_scores(ALL_FACES, posture, action)
    for i, faces in enumerate(ALL_FACES.tolist()):
        exp = ref.action_scores(faces, posture, action)
        attacks = tuple(int(a) for a in got.attacks[i] if a >= 0)
        assert attacks == exp.attacks
        assert got.defense[i] == exp.defense
        assert (got.rally[i] if got.rally[i] >= 0 else None) == exp.rally
        assert (got.spotting[i] if got.spotting[i] >= 0 else None) == exp.spotting
        assert (got.sprint_bonus[i] if got.sprint_bonus[i] >= 0 else None) == exp.sprint_bonus


def test_table5_rows_as_specified():
    """RULES.md section 3, one roll (2, 5, 9) through every row of the table."""
    f = (9, 2, 5)
    OFF, D = aa.Posture.OFFENSIVE, aa.Posture.DEFENSIVE
    S = aa.action_scores
    assert S(f, OFF, aa.Action.BASIC) == aa.Scores((14,), 2)
    assert S(f, D, aa.Action.BASIC) == aa.Scores((7,), 9)
    assert S(f, OFF, aa.Action.HEAVY_WEAPON) == aa.Scores((14,), 2)
    assert S(f, D, aa.Action.HEAVY_WEAPON) == aa.Scores((7,), 9)
    assert S(f, OFF, aa.Action.MASS_FIRE) == aa.Scores((5, 9), 2)
    assert S(f, D, aa.Action.MASS_FIRE) == aa.Scores((2, 5), 9)
    assert S(f, OFF, aa.Action.SPLIT_FIRE) == aa.Scores((5, 9), 2)
    assert S(f, D, aa.Action.SPLIT_FIRE) == aa.Scores((2, 5), 9)
    assert S(f, OFF, aa.Action.DIG_IN) == aa.Scores((9,), 7)
    assert S(f, D, aa.Action.DIG_IN) == aa.Scores((2,), 14)
    assert S(f, OFF, aa.Action.RALLY) == aa.Scores((), 2, rally=14)
    assert S(f, D, aa.Action.RALLY) == aa.Scores((), 9, rally=7)
    assert S(f, OFF, aa.Action.CALL_FOR_FIRE) == aa.Scores((), 2, spotting=14)
    assert S(f, D, aa.Action.CALL_FOR_FIRE) == aa.Scores((), 9, spotting=7)
    assert S(f, OFF, aa.Action.SPRINT) == aa.Scores((14,), 2, sprint_bonus=9)
    assert S(f, D, aa.Action.SPRINT) == aa.Scores((7,), 9, sprint_bonus=9)


def test_range_band_every_edge(rules):
    edges = rules.fire.band_edges_cm
    probes = [0.0]
    for e in edges:
        probes += [np.nextafter(e, 0), e, np.nextafter(e, np.inf), e + 0.25]
    probes += [1e6, 1e300]
    got = aa.batch.range_band(np.array(probes))
    for d, g in zip(probes, got):
        assert g == ref.range_band(d) == aa.range_band(d)
    assert aa.range_band(27) == 1 and aa.range_band(27.0001) == 2
    assert aa.range_band(99) == 8 and aa.range_band(99.5) == 9
    assert sorted(set(got.tolist())) == list(range(1, 10))


def test_range_band_non_standard_stick(rules):
    short = rules.replace(fire={"band_edges_cm": [10.0, 20.0, 35.5]})
    d = np.linspace(0, 50, 1001)
    got = aa.batch.range_band(d, rules=short)
    assert got.tolist() == [ref.range_band(x, short) for x in d]
    assert got.max() == 4


def test_range_band_keeps_shape():
    d = np.arange(24, dtype=float).reshape(2, 3, 4) * 5
    assert aa.batch.range_band(d).shape == (2, 3, 4)


def test_predominant_cover_all_27():
    C = list(aa.Cover)
    combos = np.array(list(itertools.product(C, repeat=3)), dtype=np.int64)
    got = aa.batch.predominant_cover(combos[:, 0], combos[:, 1], combos[:, 2])
    for (s, i, d), g in zip(combos.tolist(), got):
        assert g == ref.predominant_cover(s, i, d) == aa.predominant_cover(s, i, d)
    # Seed 001 example: Start Light, In-transit No, Destination Heavy -> Light.
    assert aa.predominant_cover(aa.Cover.LIGHT, aa.Cover.NONE, aa.Cover.HEAVY) == aa.Cover.LIGHT


def _fire_grid():
    g = np.array(list(itertools.product(range(0, 26), range(1, 10), range(0, 13), range(1, 7),
                                        range(3), (0, -1, -2, -6), (0, 1))), dtype=np.int64)
    return g


@pytest.mark.slow
def test_resolve_fire_exhaustive_grid():
    g = _fire_grid()
    markers, wounds = aa.batch.resolve_fire(g[:, 0], g[:, 1], g[:, 2], g[:, 3], g[:, 4], g[:, 5],
                                            g[:, 6].astype(bool))
    expected = np.array([ref.resolve_fire(*row[:6], bool(row[6])) for row in g.tolist()])
    np.testing.assert_array_equal(markers, expected[:, 0])
    np.testing.assert_array_equal(wounds, expected[:, 1])


def test_resolve_fire_scalar_matches_reference_sample():
    g = _fire_grid()[::97]
    for row in g.tolist():
        r = aa.resolve_fire(*row[:6], vehicle=bool(row[6]))
        assert r == ref.resolve_fire(*row[:6], vehicle=bool(row[6]))


def test_seed_worked_example():
    """Seed 001: Attack 13, range 3, Defense 2, armor 2, Light cover -> 2 markers, 2 wounds."""
    assert aa.resolve_fire(13, 3, 2, 2, aa.Cover.LIGHT) == aa.FireResult(2, 2)
    assert aa.resolve_fire(13, 3, 2, 2) == aa.FireResult(2, 4)  # no cover: 8 / 2
    m, w = aa.batch.resolve_fire([13], 3, 2, 2, aa.Cover.LIGHT)
    assert (m[0], w[0]) == (2, 2)


def test_fire_thresholds_and_vehicle_rule():
    # Attack must EXCEED the thresholds (seed 002).
    assert aa.resolve_fire(3, 3, 2, 2) == (0, 0)
    assert aa.resolve_fire(4, 3, 2, 2) == (1, 0)
    assert aa.resolve_fire(5, 3, 2, 2) == (1, 0)
    assert aa.resolve_fire(6, 3, 2, 2) == (2, 0)  # damage but no wound: 1 point < armor 2
    assert aa.resolve_fire(7, 3, 2, 2) == (2, 1)
    # Vehicles: nothing for beating only the range threshold, one marker for damage.
    assert aa.resolve_fire(5, 3, 2, 2, vehicle=True) == (0, 0)
    assert aa.resolve_fire(9, 3, 2, 2, vehicle=True) == (1, 2)


def test_heavy_weapon_ap_seed_example():
    # Seed 000: AP -2 drops a tank's armor from 5 to 3.
    assert aa.effective_armor(5, aa.Cover.NONE, -2) == 3
    assert aa.resolve_fire(14, 1, 1, 5, ap=-2, vehicle=True) == (1, 4)
    # Armor never below the floor.
    assert aa.effective_armor(1, aa.Cover.NONE, -6) == 1
    assert aa.resolve_fire(12, 1, 1, 1, ap=-6) == (2, 10)


def test_scatter_all_faces():
    for clock in range(1, 13):
        for distance in range(1, 13):
            for spotting in range(0, 26):
                got = aa.scatter(clock, distance, spotting)
                exp = ref.scatter(clock, distance, spotting)
                assert got.direct_hit == exp.direct_hit
                assert got.dx == pytest.approx(exp.dx, abs=1e-12)
                assert got.dy == pytest.approx(exp.dy, abs=1e-12)
    c, d, s = np.meshgrid(np.arange(1, 13), np.arange(1, 13), np.arange(0, 26), indexing="ij")
    dx, dy, hit = aa.batch.scatter(c, d, s)
    assert dx.shape == c.shape
    for idx in [(0, 11, 0), (2, 11, 3), (5, 4, 10), (11, 11, 11)]:
        exp = ref.scatter(int(c[idx]), int(d[idx]), int(s[idx]))
        assert (dx[idx], dy[idx], hit[idx]) == pytest.approx((exp.dx, exp.dy, exp.direct_hit))


def test_scatter_geometry():
    # 12 o'clock: towards the top edge (+y); 3 o'clock: +x (clockwise). 4.5 cm per point.
    s = aa.scatter(12, 5, 3)
    assert (s.dx, s.dy, s.direct_hit) == pytest.approx((0.0, 9.0, False))
    s = aa.scatter(3, 12, 2)
    assert (s.dx, s.dy) == pytest.approx((45.0, 0.0))
    assert aa.scatter(6, 2, 3).direct_hit and aa.scatter(6, 2, 3)[:2] == (0.0, 0.0)
    assert not aa.scatter(6, 3, 3).direct_hit and aa.scatter(6, 3, 3)[:2] == (0.0, 0.0)


def test_batch_wounded_dice_every_triple():
    triples = np.array(list(itertools.product([4, 6, 8, 10, 12], repeat=3)), dtype=np.int64)
    rows = np.repeat(triples, 12, axis=0)
    wounds = np.tile(np.arange(6), 2 * len(triples))
    vehicle = np.tile(np.repeat([False, True], 6), len(triples))
    got, shattered = aa.batch.wounded_dice(rows, wounds, vehicle)
    for r, w, veh, g, s in zip(rows.tolist(), wounds.tolist(), vehicle.tolist(), got.tolist(),
                               shattered.tolist()):
        assert (tuple(g), s) == ref.wounded_dice(r, w, veh)
