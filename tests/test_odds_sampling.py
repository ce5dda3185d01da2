"""fire_outcomes against simulate_fire samples (chi-square), memoisation, and bad input."""
from __future__ import annotations

import gc
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import atomic_africa as aa
import atomic_africa.odds as odds
from atomic_africa import batch

P_MIN = 1e-4  # fixed seeds: a correct kernel fails each test with probability < 1e-4
N = 1_000_000

ENGAGEMENTS = {
    "basic": dict(shooter="d10,d10,d8", target="d8,d8,d6", shooter_posture="offensive",
                  target_posture="defensive", range_band=3, armor=2, cover=aa.Cover.LIGHT),
    "mass_fire_vehicle": dict(shooter="d12,d10,d8", target="d8,d6,d6", shooter_posture="offensive",
                              target_posture="offensive", range_band=1, armor=1,
                              shooter_action=aa.Action.MASS_FIRE, vehicle=True),
    "mass_fire": dict(shooter="d12,d12,d10", target="d6,d6,d4", shooter_posture="defensive",
                      target_posture="offensive", range_band=2, armor=1,
                      shooter_action=aa.Action.MASS_FIRE),
    "split_fire": dict(shooter="d10,d8,d8", target="d6,d6,d6", shooter_posture="offensive",
                       target_posture="defensive", range_band=2, armor=1,
                       shooter_action=aa.Action.SPLIT_FIRE, target_action=aa.Action.DIG_IN),
    "heavy_weapon": dict(shooter="d12,d8,d6", target="d10,d8,d8", shooter_posture="defensive",
                         target_posture="defensive", range_band=4, armor=4, ap=-2,
                         shooter_action=aa.Action.HEAVY_WEAPON, cover=aa.Cover.HEAVY),
}


def chi_square_pvalue(sample: Counter, probs: dict, n: int, min_expected: float = 5.0) -> float:
    """Goodness of fit of sampled outcome counts to exact probabilities; cells with expected
    count < min_expected are pooled into one cell (merged into the smallest cell if still small)."""
    assert set(sample) <= set(probs), f"sampled impossible outcomes {set(sample) - set(probs)}"
    obs, exp = [], []
    pool_o, pool_e = 0, 0.0
    for k, p in sorted(probs.items(), key=lambda kv: kv[1]):
        if p * n < min_expected:
            pool_o += sample.get(k, 0)
            pool_e += p * n
        else:
            obs.append(sample.get(k, 0))
            exp.append(p * n)
    if pool_e >= min_expected or (pool_e > 0 and not obs):
        obs.append(pool_o)
        exp.append(pool_e)
    elif pool_e > 0:
        obs[0] += pool_o
        exp[0] += pool_e
    if len(obs) < 2:
        return 1.0
    exp = np.array(exp) * (sum(obs) / sum(exp))
    return stats.chisquare(np.array(obs, float), exp).pvalue


@pytest.mark.parametrize("name", sorted(ENGAGEMENTS))
def test_simulate_fire_samples_fit_exact_outcomes(name):
    cfg = ENGAGEMENTS[name]
    m, w = batch.simulate_fire(N, seed=20260, **cfg)
    sample = Counter(zip(m.tolist(), w.tolist()))
    probs = odds.fire_outcomes(**cfg)
    assert chi_square_pvalue(sample, probs, N) > P_MIN


def test_chi_square_detects_a_wrong_distribution():
    # Power check: a sample of band 3 does not fit the exact distribution of band 4.
    cfg = ENGAGEMENTS["basic"]
    m, w = batch.simulate_fire(N, seed=5, **cfg)
    wrong = odds.fire_outcomes(**{**cfg, "range_band": 4})
    sample = Counter(zip(m.tolist(), w.tolist()))
    assert chi_square_pvalue(Counter({k: c for k, c in sample.items() if k in wrong}), wrong, N) < 1e-12


# -- memoisation ---------------------------------------------------------------------------------
def test_memoised_result_is_a_fresh_copy():
    cfg = ENGAGEMENTS["basic"]
    first = odds.fire_outcomes(**cfg)
    first[(99, 99)] = 1.0
    first[(0, 0)] = -1.0
    again = odds.fire_outcomes(**cfg)
    assert (99, 99) not in again and again[(0, 0)] > 0
    odds.clear_cache()
    assert odds.fire_outcomes(**cfg) == again


def test_memo_distinguishes_equal_values_of_other_types():
    cfg = dict(ENGAGEMENTS["basic"])
    odds.fire_outcomes(**cfg)
    for field, bad in (("range_band", 3.0), ("armor", True), ("armor", 2.0), ("ap", 0.0),
                       ("vehicle", 0.0), ("shooter_posture", 0.0), ("cover", 1.0)):
        args = {**cfg, field: bad}
        with pytest.raises(TypeError) as got:
            odds.fire_outcomes(**args)
        with pytest.raises(TypeError) as want:
            batch.simulate_fire(1, **args)
        assert str(got.value) == str(want.value)
    # equal values of accepted types share the result
    base = odds.fire_outcomes(**cfg)
    for field, alt in (("range_band", np.int64(3)), ("armor", np.int8(2)), ("shooter_posture", 0),
                       ("target_posture", aa.Posture.DEFENSIVE), ("cover", 1), ("vehicle", 0),
                       ("shooter", ["d10", "d10", "d8"]), ("shooter", (10, 10, 8)),
                       ("shooter", np.array([10, 10, 8])), ("shooter", iter([10, 10, 8]))):
        assert odds.fire_outcomes(**{**cfg, field: alt}) == base


def test_memo_is_per_rules_object():
    cfg = ENGAGEMENTS["basic"]
    default = odds.fire_outcomes(**cfg)
    variant = aa.Rules.default().replace(fire={"turn_marker_cap": 1})
    capped = odds.fire_outcomes(**cfg, rules=variant)
    assert max(m for m, _ in capped) == 1 and max(m for m, _ in default) == 2
    assert odds.fire_outcomes(**cfg) == default


def test_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(odds, "MEMO_MAX", 3)
    rules = aa.Rules.default().replace(fire={"armor_floor": 1})
    for band in range(1, 8):
        odds.fire_outcomes("d6,d6,d6", "d6,d6,d6", shooter_posture=0, target_posture=0,
                           range_band=band, armor=1, rules=rules)
        assert len(odds._memo(rules).results) <= 3


def test_memos_are_kept_by_odds_emptied_by_clear_cache_and_dropped_with_their_rules():
    rules = aa.Rules.default().replace(fire={"armor_floor": 1})
    want = odds.fire_outcomes(**ENGAGEMENTS["basic"], rules=rules)
    memo = odds._memo(rules)
    assert len(memo.results) == 1 and len(memo.sides) == 2
    odds.clear_cache(rules)
    assert not memo.results and not memo.sides
    assert odds.fire_outcomes(**ENGAGEMENTS["basic"], rules=rules) == want
    key = id(rules)
    del rules, memo
    gc.collect()
    assert key not in odds._MEMOS


# -- bad input: the same errors as simulate_fire ------------------------------------------------
BASE = dict(shooter="d10,d10,d8", target="d8,d8,d6", shooter_posture=0, target_posture=1,
            range_band=3, armor=2)
BAD = [
    dict(shooter="d10,d10"), dict(shooter="d10,d10,d7"), dict(shooter=5), dict(target=[4, 4, 4, 4]),
    dict(target=["d4", "d4", 3.5]), dict(shooter_posture=2), dict(shooter_posture="sideways"),
    dict(target_posture=None), dict(range_band=0), dict(range_band=10), dict(range_band="3"),
    dict(armor=0), dict(armor=-1), dict(armor=2.5), dict(cover=3), dict(cover="roof"), dict(ap=1),
    dict(ap=-1.5), dict(vehicle="yes"), dict(vehicle=2), dict(shooter_action=aa.Action.RALLY),
    dict(shooter_action=aa.Action.CALL_FOR_FIRE), dict(shooter_action=9), dict(target_action=-1),
    dict(shooter=np.zeros((2, 3), int)), dict(rules="default"), dict(shooter={"d4": 1}),
]


@pytest.mark.parametrize("bad", BAD, ids=lambda b: "-".join(f"{k}={v!r}"[:24] for k, v in b.items()))
def test_bad_input_same_error_as_simulate_fire(bad):
    args = {**BASE, **bad}
    with pytest.raises((TypeError, ValueError)) as want:
        batch.simulate_fire(1, **args)
    with pytest.raises(want.type) as got:
        odds.fire_outcomes(**args)
    assert str(got.value) == str(want.value)
    assert want.type in (TypeError, ValueError) or issubclass(want.type, ValueError)


def test_bad_exact_flag():
    with pytest.raises(TypeError, match="exact"):
        odds.fire_outcomes(**BASE, exact="yes")


def test_split_fire_bad_input_names_the_target():
    ok = dict(dice="d6,d6,d6", posture=0, range_band=2, armor=1)
    with pytest.raises(ValueError, match=r"^declared range_band: 0 is out of range; allowed 1\.\.9"):
        odds.split_fire_outcomes("d8,d8,d8", {**ok, "range_band": 0}, ok, shooter_posture=0)
    with pytest.raises(ValueError, match=r"^other target\[2\]"):
        odds.split_fire_outcomes("d8,d8,d8", ok, {**ok, "dice": "d6,d6,d5"}, shooter_posture=0)
    with pytest.raises(TypeError, match="other: expected a FireTarget or a mapping with keys"):
        odds.split_fire_outcomes("d8,d8,d8", ok, {**ok, "range": 2}, shooter_posture=0)
    with pytest.raises(TypeError, match="declared: expected a FireTarget or a mapping"):
        odds.split_fire_outcomes("d8,d8,d8", 3, ok, shooter_posture=0)
    with pytest.raises(ValueError, match="^shooter: expected three dice"):
        odds.split_fire_outcomes("d8,d8", ok, ok, shooter_posture=0)
    with pytest.raises(ValueError, match="^shooter_posture"):
        odds.split_fire_outcomes("d8,d8,d8", ok, ok, shooter_posture=5)


# -- the validation fast path accepts a strict subset of engagement_args, with the same values --
_any_value = st.one_of(st.integers(-3, 13), st.booleans(), st.floats(-1, 13), st.sampled_from(
    list(aa.Die) + list(aa.Posture) + list(aa.Action) + list(aa.Cover) + ["d8", "offensive", None]),
    st.builds(np.int64, st.integers(0, 12)))


_valid_die = st.one_of(st.sampled_from(list(aa.Die)), st.sampled_from([4, 6, 8, 10, 12]))


@settings(max_examples=800, deadline=None)
@given(dice=st.lists(_valid_die, min_size=6, max_size=6),
       sp=st.sampled_from([0, 1, *aa.Posture]), tp=st.sampled_from([0, 1, *aa.Posture]),
       band=st.integers(1, 9), armor=st.integers(1, 8),
       sa=st.sampled_from(list(aa.Action) + list(range(8))),
       ta=st.sampled_from(list(aa.Action) + list(range(8))),
       cover=st.sampled_from(list(aa.Cover) + [0, 1, 2]), ap=st.integers(-3, 0),
       vehicle=st.booleans(), mutate=st.integers(0, 15), other=_any_value)
def test_trusted_fast_path_is_a_subset_of_engagement_args(dice, sp, tp, band, armor, sa, ta, cover,
                                                         ap, vehicle, mutate, other):
    # A valid engagement with at most one argument (or one die) replaced by an arbitrary value.
    rules = aa.Rules.default()
    flat = [*dice, sp, tp, band, armor, sa, ta, cover, ap, vehicle]
    if mutate < len(flat):
        flat[mutate] = other
    args = (tuple(flat[:3]), tuple(flat[3:6]), *flat[6:])
    fast = odds._trusted_args(*args, rules)
    try:
        slow = batch.engagement_args(*args, rules)
    except (TypeError, ValueError):
        slow = None
    if fast is not None:
        assert fast == slow
        assert all(type(fast[k]) is type(slow[k]) for k in fast)
    elif mutate >= len(flat) and slow is not None:
        # every all-plain valid engagement takes the fast path
        raise AssertionError(f"fast path refused valid plain arguments {args}")


def test_trusted_fast_path_taken_for_plain_arguments():
    rules = aa.Rules.default()
    for sa in aa.Action:
        for sp in aa.Posture:
            args = ((10, 10, 8), (aa.Die.D8, 8, 6), sp, 1, 3, 2, sa, int(aa.Action.DIG_IN), 1, -1,
                    True)
            try:
                slow = batch.engagement_args(*args, rules)
            except ValueError:
                assert odds._trusted_args(*args, rules) is None
            else:
                assert odds._trusted_args(*args, rules) == slow
