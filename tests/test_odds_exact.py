"""atomic_africa.odds engagements against brute-force enumeration, exactly (Fractions).

How "every die-type combination" is covered honestly (full 6-dice brute force of all 15625
ordered combinations would take hours in pure Python):
1. Each side's score pmf: kernel vs reference enumeration of every face of every die, for every
   multiset of three die types (35) x both postures x all 8 actions; and the kernel gives the same
   counts for every ordering of the dice (all 125 ordered triples).
2. The combination step, for every pair of die-type multisets (35 x 35) x all four posture pairs,
   basic action: kernel vs an independent pure-Python combination of the reference side pmfs
   through reference.resolve_fire (the shooter's and target's dice are independent).
3. The full six-dice (nine for Split Fire) brute force of atomic_africa.reference.odds for a
   chosen sample covering every action, vehicles, caps, AP, cover and armor floor, plus a
   hypothesis sample over the whole argument space with small dice.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atomic_africa as aa
import atomic_africa.odds as odds
from atomic_africa import reference as ref
from atomic_africa.reference import odds as ref_odds

DICE = (4, 6, 8, 10, 12)
MULTISETS = list(itertools.combinations_with_replacement(DICE, 3))
POSTURES = list(aa.Posture)
ACTIONS = list(aa.Action)
ATTACKING = [aa.Action.BASIC, aa.Action.SPRINT, aa.Action.HEAVY_WEAPON, aa.Action.MASS_FIRE,
             aa.Action.SPLIT_FIRE, aa.Action.DIG_IN]


# -- 1. per-side score pmfs ------------------------------------------------------------------
@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.name)
def test_scores_pmf_equals_brute_force_for_every_die_multiset(action):
    for dice in MULTISETS:
        for posture in POSTURES:
            got = odds.scores_pmf(dice, posture, action, exact=True)
            want = ref_odds.scores_pmf(dice, posture, action)
            assert tuple(got) == want, (dice, posture, action)
            for field in got:
                if field is not None:
                    assert sum(field.values()) == 1


def test_scores_pmf_does_not_depend_on_dice_order():
    for triple in itertools.product(DICE, repeat=3):
        for posture in POSTURES:
            for action in ACTIONS:
                assert (odds.scores_pmf(triple, posture, action, exact=True)
                        == odds.scores_pmf(sorted(triple), posture, action, exact=True))


def test_scores_pmf_float_is_rounded_exact():
    ex = odds.scores_pmf("d10,d8,d6", "defensive", "mass_fire", exact=True)
    fl = odds.scores_pmf("d10,d8,d6", "defensive", "mass_fire")
    for e, f in zip(ex, fl):
        if e is None:
            assert f is None
        else:
            assert f == {k: float(p) for k, p in e.items()}


# -- 2. the combination, every die-type combination ------------------------------------------
def _combine(attacks: dict, defense: dict, *, range_band, armor, cover, ap, vehicle, split):
    """Independent sides: sum P(attacks) P(defense) over the resolved volley (RULES.md 5)."""
    rules = aa.Rules.default()
    cap = rules.fire.vehicle_turn_marker_cap if vehicle else rules.fire.turn_marker_cap
    out = Counter()
    for atts, pa in attacks.items():
        if split:
            atts = (max(atts),)
        for d, pd in defense.items():
            rs = [ref.resolve_fire(a, range_band, d, armor, cover, ap, vehicle) for a in atts]
            out[(min(sum(r.markers for r in rs), cap), sum(r.wounds for r in rs))] += pa * pd
    return dict(out)


@pytest.mark.slow
def test_basic_engagement_every_die_type_combination():
    settings_cycle = [  # (band, armor, cover, ap, vehicle): rotated over the combinations
        (1, 1, aa.Cover.NONE, 0, False), (3, 2, aa.Cover.LIGHT, 0, False),
        (5, 1, aa.Cover.HEAVY, -2, False), (2, 1, aa.Cover.NONE, 0, True),
        (9, 3, aa.Cover.LIGHT, -1, True), (4, 2, aa.Cover.NONE, 0, False),
    ]
    att = {(d, p): ref_odds.scores_pmf(d, p, aa.Action.BASIC)[0] for d in MULTISETS for p in POSTURES}
    dfn = {(d, p): ref_odds.scores_pmf(d, p, aa.Action.BASIC)[1] for d in MULTISETS for p in POSTURES}
    i = 0
    for shooter in MULTISETS:
        for target in MULTISETS:
            for sp in POSTURES:
                for tp in POSTURES:
                    band, armor, cover, ap, vehicle = settings_cycle[i % len(settings_cycle)]
                    i += 1
                    got = odds.fire_outcomes(shooter, target, shooter_posture=sp, target_posture=tp,
                                             range_band=band, armor=armor, cover=cover, ap=ap,
                                             vehicle=vehicle, exact=True)
                    want = _combine(att[shooter, sp], dfn[target, tp], range_band=band, armor=armor,
                                    cover=cover, ap=ap, vehicle=vehicle, split=False)
                    assert got == want, (shooter, target, sp, tp, band, armor, cover, ap, vehicle)
    assert i == 35 * 35 * 4


# -- 3. six-dice brute force --------------------------------------------------------------------
SAMPLE = [
    dict(shooter=(4, 6, 8), target=(6, 4, 4), shooter_posture=0, target_posture=1, range_band=3,
         armor=2, cover=aa.Cover.LIGHT),
    dict(shooter=(12, 4, 4), target=(4, 4, 12), shooter_posture=1, target_posture=0, range_band=1,
         armor=1),
    dict(shooter=(10, 6, 4), target=(6, 6, 6), shooter_posture=0, target_posture=0, range_band=2,
         armor=1, shooter_action=aa.Action.MASS_FIRE, target_action=aa.Action.DIG_IN),
    dict(shooter=(8, 8, 4), target=(4, 6, 6), shooter_posture=1, target_posture=1, range_band=1,
         armor=1, shooter_action=aa.Action.MASS_FIRE, vehicle=True),
    dict(shooter=(12, 6, 4), target=(4, 4, 8), shooter_posture=0, target_posture=1, range_band=2,
         armor=3, shooter_action=aa.Action.SPLIT_FIRE, cover=aa.Cover.HEAVY),
    dict(shooter=(6, 6, 6), target=(4, 6, 4), shooter_posture=0, target_posture=0, range_band=4,
         armor=2, shooter_action=aa.Action.DIG_IN, target_action=aa.Action.RALLY),
    dict(shooter=(8, 6, 6), target=(4, 4, 6), shooter_posture=1, target_posture=1, range_band=1,
         armor=3, shooter_action=aa.Action.HEAVY_WEAPON, ap=-3, vehicle=True,
         target_action=aa.Action.SPRINT),
    dict(shooter=(8, 8, 6), target=(4, 4, 4), shooter_posture=0, target_posture=1, range_band=9,
         armor=1, shooter_action=aa.Action.SPRINT, target_action=aa.Action.CALL_FOR_FIRE),
    dict(shooter=(12, 12, 4), target=(4, 4, 6), shooter_posture=0, target_posture=1, range_band=1,
         armor=1, cover=aa.Cover.NONE, target_action=aa.Action.MASS_FIRE),
]


@pytest.mark.parametrize("cfg", SAMPLE, ids=lambda c: f"{c['shooter']}v{c['target']}")
def test_fire_outcomes_equals_six_dice_brute_force(cfg):
    got = odds.fire_outcomes(**cfg, exact=True)
    want = ref_odds.fire_outcomes(**cfg)
    assert got == want
    assert sum(got.values()) == 1
    assert all(type(m) is int and type(w) is int for m, w in got)
    assert all(p > 0 for p in got.values())


def test_brute_force_reference_agrees_with_independent_combination():
    # The reference brute force itself against the combination of side pmfs (cross-check).
    cfg = SAMPLE[2]
    sp = ref_odds.scores_pmf(cfg["shooter"], cfg["shooter_posture"], cfg["shooter_action"])
    tp = ref_odds.scores_pmf(cfg["target"], cfg["target_posture"], cfg["target_action"])
    want = _combine(sp[0], tp[1], range_band=cfg["range_band"], armor=cfg["armor"],
                    cover=aa.Cover.NONE, ap=0, vehicle=False, split=False)
    assert ref_odds.fire_outcomes(**cfg) == want


small_dice = st.tuples(*[st.sampled_from((4, 6, 8))] * 3)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shooter=small_dice, target=st.tuples(*[st.sampled_from((4, 6))] * 3),
       sp=st.sampled_from(POSTURES), tp=st.sampled_from(POSTURES),
       sa=st.sampled_from(ATTACKING), ta=st.sampled_from(ACTIONS),
       band=st.integers(1, 9), armor=st.integers(1, 6), cover=st.sampled_from(list(aa.Cover)),
       ap=st.integers(-4, 0), vehicle=st.booleans())
def test_fire_outcomes_hypothesis_vs_brute_force(shooter, target, sp, tp, sa, ta, band, armor, cover,
                                                 ap, vehicle):
    cfg = dict(shooter_posture=sp, target_posture=tp, range_band=band, armor=armor,
               shooter_action=sa, target_action=ta, cover=cover, ap=ap, vehicle=vehicle)
    got = odds.fire_outcomes(shooter, target, exact=True, **cfg)
    assert got == ref_odds.fire_outcomes(shooter, target, **cfg)
    fl = odds.fire_outcomes(shooter, target, **cfg)
    assert fl == {k: float(p) for k, p in got.items()}
    assert abs(math.fsum(fl.values()) - 1.0) < 1e-12


def test_float_mode_sums_to_one_and_rounds_the_exact_value():
    for shooter, target in [((12, 12, 12), (4, 4, 4)), ((10, 10, 8), (8, 8, 6)), ((4, 4, 4), (12, 12, 12))]:
        for action in ATTACKING:
            kw = dict(shooter_posture=0, target_posture=1, range_band=2, armor=1,
                      shooter_action=action)
            fl = odds.fire_outcomes(shooter, target, **kw)
            ex = odds.fire_outcomes(shooter, target, exact=True, **kw)
            assert abs(sum(fl.values()) - 1.0) < 1e-12
            assert sum(ex.values()) == 1 and all(isinstance(p, Fraction) for p in ex.values())
            assert fl == {k: float(p) for k, p in ex.items()}
            assert all(type(p) is float for p in fl.values())


def test_mass_fire_is_joint_not_product_of_marginals():
    # Enumerating the two attacks independently (from their marginals) gives another answer:
    # the kernel must use the joint pmf of one roll.
    kw = dict(shooter_posture=0, target_posture=1, range_band=3, armor=1,
              shooter_action=aa.Action.MASS_FIRE)
    got = odds.fire_outcomes((10, 8, 6), (6, 6, 6), exact=True, **kw)
    attacks, defense = (ref_odds.scores_pmf((10, 8, 6), 0, aa.Action.MASS_FIRE)[0],
                        ref_odds.scores_pmf((6, 6, 6), 1, aa.Action.BASIC)[1])
    m0, m1 = Counter(), Counter()
    for (a0, a1), p in attacks.items():
        m0[a0] += p
        m1[a1] += p
    independent = {(a0, a1): p0 * p1 for a0, p0 in m0.items() for a1, p1 in m1.items()}
    wrong = _combine(independent, defense, range_band=3, armor=1, cover=0, ap=0, vehicle=False,
                     split=False)
    assert got == _combine(attacks, defense, range_band=3, armor=1, cover=0, ap=0, vehicle=False,
                           split=False)
    assert got != wrong


def test_mass_fire_volley_cap_and_summed_wounds():
    # d12s at band 1 against Defense 1: both attacks usually beat the damage threshold, 2 + 2
    # markers are capped at 2 (infantry) or 1 (vehicle: 1 + 1 capped at 1).
    kw = dict(shooter_posture=0, target_posture=0, range_band=1, armor=1,
              shooter_action=aa.Action.MASS_FIRE)
    inf = odds.fire_outcomes((12, 12, 12), (4, 4, 4), **kw)
    veh = odds.fire_outcomes((12, 12, 12), (4, 4, 4), vehicle=True, **kw)
    rules = aa.Rules.default()
    assert max(m for m, _ in inf) == rules.fire.turn_marker_cap
    assert max(m for m, _ in veh) == rules.fire.vehicle_turn_marker_cap
    # wounds: two attacks each at most 12 - (1 + 1) = 10
    assert max(w for _, w in inf) == 20


# -- Split Fire ---------------------------------------------------------------------------------
SPLIT_CASES = [
    ((4, 4, 6), dict(dice=(4, 4, 4), posture=1, range_band=2, armor=1),
     dict(dice=(4, 6, 4), posture=0, range_band=1, armor=1, vehicle=True), 0),
    ((6, 4, 4), dict(dice=(4, 4, 6), posture=0, range_band=1, armor=2, cover=aa.Cover.LIGHT,
                     action=aa.Action.DIG_IN),
     dict(dice=(4, 4, 4), posture=1, range_band=3, armor=1, ap=-1), 1),
]


@pytest.mark.parametrize("shooter,declared,other,posture", SPLIT_CASES)
def test_split_fire_equals_nine_dice_brute_force(shooter, declared, other, posture):
    got = odds.split_fire_outcomes(shooter, declared, other, shooter_posture=posture, exact=True)
    want = ref_odds.split_fire_outcomes(shooter, declared, other, shooter_posture=posture)
    assert (got.declared, got.other, got.joint) == want
    assert sum(got.joint.values()) == 1
    # the declared target is fire_outcomes' Split Fire target
    t = odds.FireTarget(**declared)
    assert got.declared == odds.fire_outcomes(
        shooter, t.dice, shooter_posture=posture, target_posture=t.posture,
        range_band=t.range_band, armor=t.armor, shooter_action=aa.Action.SPLIT_FIRE,
        target_action=t.action, cover=t.cover, ap=t.ap, vehicle=t.vehicle, exact=True)


def test_split_fire_joint_is_correlated_and_floats_round_exact():
    declared = odds.FireTarget("d6,d6,d6", "defensive", 2, 1)
    other = {"dice": "d6,d6,d6", "posture": "defensive", "range_band": 2, "armor": 1}
    ex = odds.split_fire_outcomes("d12,d12,d4", declared, other, shooter_posture="offensive",
                                  exact=True)
    fl = odds.split_fire_outcomes("d12,d12,d4", declared, other, shooter_posture="offensive")
    assert fl.joint == {k: float(p) for k, p in ex.joint.items()}
    assert fl.declared == {k: float(p) for k, p in ex.declared.items()}
    assert abs(sum(fl.joint.values()) - 1) < 1e-12
    product = {(a, b): pa * pb for a, pa in ex.declared.items() for b, pb in ex.other.items()}
    assert ex.joint != {k: p for k, p in product.items() if p}
    # marginals of the joint
    dec = Counter()
    for (a, _), p in ex.joint.items():
        dec[a] += p
    assert dict(dec) == ex.declared
    # the declared target faces the higher attack: it is hit at least as hard on average
    assert odds.expected_wounds(ex.declared) >= odds.expected_wounds(ex.other)
