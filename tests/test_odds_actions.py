"""Rally, Call for Fire, Sprint, Clean-up odds, the agents' helpers and the designers' grid."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import atomic_africa as aa
import atomic_africa.odds as odds
from atomic_africa import batch
from atomic_africa.reference import odds as ref_odds

DICE = (4, 6, 8, 10, 12)
MULTISETS = list(itertools.combinations_with_replacement(DICE, 3))


# -- Rally ---------------------------------------------------------------------------------------
def test_rally_probability_vs_brute_force():
    for dice in MULTISETS[::3] + [(12, 12, 12), (4, 4, 4)]:
        for posture in aa.Posture:
            for band, markers in ((1, 0), (3, 2), (9, 1), (5, 12)):
                for los, comms in ((True, False), (False, True), (True, True)):
                    got = odds.rally_probability(dice, posture, band, markers, los=los, comms=comms,
                                                 exact=True)
                    want = ref_odds.rally_probability(dice, posture, band, markers, los=los,
                                                      comms=comms)
                    assert got == want
                    assert odds.rally_probability(dice, posture, band, markers, los=los,
                                                  comms=comms) == float(want)
            got = odds.rally_probability(dice, posture, None, 2, self_rally=True, exact=True)
            assert got == ref_odds.rally_probability(dice, posture, None, 2, self_rally=True)


def test_rally_rules_semantics():
    rules = aa.Rules.default()
    # no LOS with comms == LOS at the range + penalty; self == range 0
    p = rules.rally.comms_range_penalty
    assert (odds.rally_probability("d8,d8,d6", 0, 3, 1, los=False, comms=True, exact=True)
            == odds.rally_probability("d8,d8,d6", 0, 3 + p, 1, exact=True))
    # without LOS and without comms the Rally is not allowed: probability 0
    assert odds.rally_probability("d12,d12,d12", 0, 1, 0, los=False, comms=False) == 0
    assert odds.rally_probability("d12,d12,d12", 0, 1, 0, los=False, exact=True) == Fraction(0)
    # a self-Rally ignores LOS, comms and range
    s = odds.rally_probability("d6,d6,d6", 1, None, 3, self_rally=True)
    assert s == odds.rally_probability("d6,d6,d6", 1, 7, 3, self_rally=True, los=False)
    # offensive Rally = mid + high: with three d4, markers 0 at range 1 needs 2+ : always
    assert odds.rally_probability("d4,d4,d4", 0, 1, 0) == 1.0
    # impossible: rally at most 24
    assert odds.rally_probability("d12,d12,d12", 0, 9, 20) == 0.0
    # monotone in markers
    ps = [odds.rally_probability("d10,d8,d6", 0, 2, k) for k in range(15)]
    assert all(a >= b for a, b in zip(ps, ps[1:]))


def test_rally_bad_input():
    with pytest.raises(TypeError, match="range_band: expected an integer"):
        odds.rally_probability("d8,d8,d8", 0, None, 1)
    with pytest.raises(ValueError, match="range_band: 10 is out of range"):
        odds.rally_probability("d8,d8,d8", 0, 10, 1)
    with pytest.raises(ValueError, match="target_markers: -1 is out of range"):
        odds.rally_probability("d8,d8,d8", 0, 1, -1)
    with pytest.raises(ValueError, match=r"dice\[0\]"):
        odds.rally_probability("d9,d8,d8", 0, 1, 1)
    with pytest.raises(TypeError, match="los: expected a bool"):
        odds.rally_probability("d8,d8,d8", 0, 1, 1, los="no")
    with pytest.raises(ValueError, match="posture"):
        odds.rally_probability("d8,d8,d8", 3, 1, 1)


# -- Call for Fire -------------------------------------------------------------------------------
@pytest.mark.parametrize("dice,posture", [((4, 4, 4), 0), ((6, 4, 8), 1), ((4, 6, 6), 0)])
def test_call_for_fire_vs_brute_force(dice, posture):
    got = odds.call_for_fire_odds(dice, posture, exact=True)
    hit, offsets, radial = ref_odds.call_for_fire_odds(dice, posture)
    assert got.direct_hit == hit
    assert got.distance == radial
    assert sum(got.offset.values()) == 1
    # The kernel and reference compute the angle in a different order: match keys to 1e-9 cm.
    def rounded(d):
        out = {}
        for (x, y), p in d.items():
            k = (round(x, 9) + 0.0, round(y, 9) + 0.0)
            out[k] = out.get(k, 0) + p
        return out
    assert rounded(got.offset) == rounded(offsets)
    fl = odds.call_for_fire_odds(dice, posture)
    assert fl.direct_hit == float(hit)
    assert abs(sum(fl.offset.values()) - 1) < 1e-12


def test_call_for_fire_matches_scatter_semantics():
    rules = aa.Rules.default()
    res = odds.call_for_fire_odds("d10,d8,d8", "offensive", exact=True)
    spot = odds.scores_pmf("d10,d8,d8", "offensive", aa.Action.CALL_FOR_FIRE, exact=True).spotting
    k = rules.call_for_fire.scatter_die
    # direct hit: distance - spotting < 0
    want = sum(p * Fraction(sum(1 for d in range(1, k + 1) if d - s < 0), k) for s, p in spot.items())
    assert res.direct_hit == want
    # every offset is one batch.scatter gives, with the same float values
    clock, dist, s = np.meshgrid(np.arange(1, k + 1), np.arange(1, k + 1), list(spot), indexing="ij")
    dx, dy, _ = batch.scatter(clock, dist, s)
    assert set(res.offset) == set(zip(dx.ravel().tolist(), dy.ravel().tolist()))
    assert res.offset[(0.0, 0.0)] >= res.direct_hit
    assert max(res.distance) == (k - min(spot)) * rules.call_for_fire.scatter_increment_cm


# -- Sprint and Clean-up ------------------------------------------------------------------------
def test_sprint_vs_brute_force():
    for dice in MULTISETS:
        for vehicle in (False, True):
            got = odds.sprint_odds(dice, 0, vehicle, exact=True)
            assert (got.bonus, got.distance_cm) == ref_odds.sprint_odds(dice, 0, vehicle)
            assert got == odds.sprint_odds(dice, 1, vehicle, exact=True)
    mv = aa.Rules.default().movement
    s = odds.sprint_odds("d6,d6,d6", "offensive")
    assert s.bonus[6] == pytest.approx(1 - (5 / 6) ** 3, abs=1e-15)
    assert s.distance_cm[6 * mv.sprint_increment_cm] == s.bonus[6]
    assert odds.sprint_odds("d4,d4,d4", 0, True).distance_cm.keys() == {
        b * mv.vehicle_sprint_increment_cm for b in range(1, 5)}


def test_morale_recovery_vs_brute_force():
    for die in aa.Die:
        for markers in range(0, 14):
            got = odds.morale_recovery_probability(die, markers, exact=True)
            assert got == ref_odds.morale_recovery_probability(die, markers)
            assert odds.morale_recovery_probability(die, markers) == float(got)
    assert odds.morale_recovery_probability("d8", 3) == 5 / 8
    assert odds.morale_recovery_probability(aa.Die.D4, 0) == 0
    with pytest.raises(ValueError, match="markers: -1 is out of range"):
        odds.morale_recovery_probability("d8", -1)
    with pytest.raises(ValueError, match="morale_die"):
        odds.morale_recovery_probability(7, 1)


# -- helpers --------------------------------------------------------------------------------------
def test_expectation_helpers():
    d = odds.fire_outcomes("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=1,
                           range_band=3, armor=2, exact=True)
    em = sum(p * m for (m, w), p in d.items())
    ew = sum(p * w for (m, w), p in d.items())
    assert odds.expected_markers(d) == em and isinstance(odds.expected_markers(d), Fraction)
    assert odds.expected_wounds(d) == ew
    assert odds.p_at_least_wounds(d, 0) == 1
    assert odds.p_at_least_wounds(d, 1) == 1 - sum(p for (m, w), p in d.items() if w == 0)
    assert odds.p_at_least_wounds(d, 100) == 0
    assert odds.p_at_least_markers(d, 1) == 1 - d.get((0, 0), 0)
    fl = odds.fire_outcomes("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=1,
                            range_band=3, armor=2)
    assert odds.expected_wounds(fl) == pytest.approx(float(ew), rel=1e-14)
    # consistent with a 6-dice brute force on small dice
    r = ref_odds.fire_outcomes((4, 6, 6), (4, 4, 6), shooter_posture=0, target_posture=1,
                               range_band=1, armor=1)
    assert odds.p_at_least_wounds(r, 2) == ref_odds.p_at_least_wounds(r, 2)
    with pytest.raises(ValueError, match="k: -1 is out of range"):
        odds.p_at_least_wounds(d, -1)
    with pytest.raises(TypeError, match="dist: expected a mapping"):
        odds.expected_markers([(1, 2)])
    with pytest.raises(ValueError, match="dist: keys must be"):
        odds.expected_wounds({1: 0.5})


# -- the grid ---------------------------------------------------------------------------------------
def _summary(d):
    return (float(odds.p_at_least_markers(d, 1)), float(odds.p_at_least_wounds(d, 1)),
            float(odds.expected_markers(d)), float(odds.expected_wounds(d)))


@pytest.mark.parametrize("action,vehicle,ap", [(aa.Action.BASIC, False, 0),
                                               (aa.Action.MASS_FIRE, True, 0),
                                               (aa.Action.SPLIT_FIRE, False, -1)])
def test_grid_equals_fire_outcomes_cell_by_cell(action, vehicle, ap):
    g = odds.fire_grid("d10,d10,d8", "d8,d8,d6", shooter_action=action, vehicle=vehicle, ap=ap)
    assert g.shape == (2, 2, 9, 3, 6, 4) and g.dtype == np.float64
    assert odds.GRID_AXES[-1] == "stat" and len(odds.GRID_STATS) == g.shape[-1]
    for i, sp in enumerate(aa.Posture):
        for j, tp in enumerate(aa.Posture):
            for b in range(9):
                for c, cover in enumerate(aa.Cover):
                    for a in range(6):
                        d = odds.fire_outcomes("d10,d10,d8", "d8,d8,d6", shooter_posture=sp,
                                               target_posture=tp, range_band=b + 1, armor=a + 1,
                                               cover=cover, shooter_action=action,
                                               vehicle=vehicle, ap=ap, exact=True)
                        np.testing.assert_allclose(g[i, j, b, c, a], _summary(d), rtol=1e-14,
                                                   atol=1e-15)


def test_grid_vs_brute_force_reference_small():
    kw = dict(shooter_postures=[aa.Posture.DEFENSIVE], target_postures=[0, 1], bands=[1, 4],
              covers=[aa.Cover.HEAVY, aa.Cover.NONE], armors=[1, 3], shooter_action="mass_fire")
    g = odds.fire_grid((4, 6, 4), (4, 4, 6), **kw)
    want = ref_odds.fire_grid((4, 6, 4), (4, 4, 6), **{**kw, "shooter_action": aa.Action.MASS_FIRE})
    np.testing.assert_allclose(g, np.array(want, dtype=float), rtol=1e-14, atol=0)
    assert g.shape == (1, 2, 2, 2, 2, 4)


def test_grid_properties_and_bad_input():
    g = odds.fire_grid("d12,d10,d8", "d8,d6,d6")
    p_wound, em = g[..., 1], g[..., 2]
    # farther or better protected never helps the shooter
    assert np.all(np.diff(p_wound, axis=2) <= 1e-15)
    assert np.all(np.diff(p_wound, axis=4) <= 1e-15)
    assert np.all(np.diff(p_wound, axis=3) <= 1e-15)
    # markers do not depend on armor or cover
    assert np.all(em == em[..., :1, :1])
    for axis in ("bands", "covers", "armors", "shooter_postures", "target_postures"):  # issue 15
        with pytest.raises(ValueError, match=rf"^{axis}: empty; a grid axis needs 1\.\.4096 values$"):
            odds.fire_grid("d4,d4,d4", "d4,d4,d4", **{axis: []})
    with pytest.raises(ValueError, match=r"bands\[1\]: 10 is out of range"):
        odds.fire_grid("d8,d8,d8", "d8,d8,d8", bands=[1, 10])
    with pytest.raises(TypeError, match="armors: expected a sequence"):
        odds.fire_grid("d8,d8,d8", "d8,d8,d8", armors=3)
    with pytest.raises(ValueError, match=r"covers\[0\]"):
        odds.fire_grid("d8,d8,d8", "d8,d8,d8", covers=[5])
    with pytest.raises(ValueError, match="shooter_action: RALLY makes no attack"):
        odds.fire_grid("d8,d8,d8", "d8,d8,d8", shooter_action="rally")
    with pytest.raises(ValueError, match=r"^target: expected three dice"):
        odds.fire_grid("d8,d8,d8", "d8,d8")
