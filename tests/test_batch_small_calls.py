"""Cheap small calls of the batch API: the fast paths give exactly the general paths' results and errors."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import atomic_africa as aa
from atomic_africa import batch, odds
from atomic_africa import reference as ref
from support.volleys import check_every_volley, load_example

CFG = dict(shooter=(10, 10, 8), target=(8, 8, 6), shooter_posture=aa.Posture.OFFENSIVE,
           target_posture=aa.Posture.DEFENSIVE, range_band=3, armor=2, cover=aa.Cover.LIGHT)


def _array_fire(*args):
    # np.int64 scalars never take the fast path
    return batch.resolve_fire(*(np.int64(a) if type(a) is int else a for a in args))


def test_resolve_fire_scalar_fast_path_equals_the_array_path():
    for attack, band, defense, armor, cover, ap, vehicle in itertools.product(
            (0, 3, 7, 13, 25), (1, 3, 9), (0, 2, 6), (1, 2, 5), (0, 1, 2, aa.Cover.HEAVY), (0, -2), (False, True)):
        got = batch.resolve_fire(attack, band, defense, armor, cover, ap, vehicle)
        want = _array_fire(attack, band, defense, armor, cover, ap, vehicle)
        exp = ref.resolve_fire(attack, band, defense, armor, cover, ap, vehicle)
        assert got.markers.dtype == np.int8 and got.wounds.dtype == np.int32 and got.markers.shape == ()
        assert (int(got.markers), int(got.wounds)) == (int(want.markers), int(want.wounds)) == tuple(exp)


@pytest.mark.parametrize("bad", [dict(armor=0), dict(range_band=10), dict(range_band=0), dict(attack=-1),
                                 dict(defense=-1), dict(cover=3), dict(ap=1), dict(vehicle=2),
                                 dict(armor=2**40), dict(range_band=3.0), dict(cover="roof")])
def test_resolve_fire_scalar_errors_are_the_general_ones(bad):
    args = {**dict(attack=13, range_band=3, defense=2, armor=2, cover=0, ap=0, vehicle=False), **bad}
    with pytest.raises((TypeError, ValueError)) as got:
        batch.resolve_fire(**args)
    with pytest.raises(got.type) as want:
        batch.resolve_fire(**{k: (np.array([v]) if type(v) is int else v) for k, v in args.items()})
    assert str(got.value).split(";")[0].split(":")[0] == str(want.value).split(";")[0].split(":")[0]


_volley = st.integers(1, 4).flatmap(lambda nt: st.fixed_dictionaries(dict(
    target=st.lists(st.integers(0, nt - 1), min_size=0, max_size=8),
    defense=st.one_of(st.integers(0, 6), st.lists(st.integers(0, 6), min_size=nt, max_size=nt)),
    armor=st.one_of(st.integers(1, 4), st.lists(st.integers(1, 4), min_size=nt, max_size=nt)),
    cover=st.one_of(st.integers(0, 2), st.lists(st.integers(0, 2), min_size=nt, max_size=nt)),
    vehicle=st.one_of(st.booleans(), st.lists(st.booleans(), min_size=nt, max_size=nt)),
    already=st.one_of(st.integers(0, 2), st.lists(st.integers(0, 2), min_size=nt, max_size=nt)),
    n_targets=st.just(nt))))


@settings(max_examples=300, deadline=None)
@given(v=_volley, data=st.data())
def test_resolve_volley_list_fast_path_equals_the_array_path(v, data):
    m = len(v["target"])
    per_attack = {k: data.draw(st.one_of(st.integers(lo, hi), st.lists(st.integers(lo, hi), min_size=m, max_size=m)))
                  for k, lo, hi in (("attack", 0, 25), ("range_band", 1, 9), ("ap", -2, 0))}
    got = batch.resolve_volley(**v, **per_attack)
    arrays = {k: np.asarray(x) for k, x in {**v, **per_attack}.items() if k != "n_targets"}
    want = batch.resolve_volley(**arrays, n_targets=v["n_targets"])
    assert got.markers.dtype == want.markers.dtype == np.int64
    np.testing.assert_array_equal(got.markers, want.markers)
    np.testing.assert_array_equal(got.wounds, want.wounds)
    exp = ref.resolve_volley(v["target"], per_attack["attack"], per_attack["range_band"],
                             defense=v["defense"], armor=v["armor"], cover=v["cover"], ap=per_attack["ap"],
                             vehicle=v["vehicle"], already=v["already"], n_targets=v["n_targets"])
    assert (got.markers.tolist(), got.wounds.tolist()) == (list(exp[0]), list(exp[1]))


@pytest.mark.parametrize("bad", [dict(target=[0, 2]), dict(target=[-1]), dict(attack=[13, 1]), dict(armor=[0, 2]),
                                 dict(defense=[1]), dict(cover=[0, 3]), dict(range_band=[10]), dict(ap=[1]),
                                 dict(already=-1), dict(vehicle=[False, 2]), dict(n_targets=1)])
def test_resolve_volley_list_errors_are_the_general_ones(bad):
    args = {**dict(target=[0], attack=[13], range_band=[3], defense=[2, 1], armor=[2, 3]), **bad}
    with pytest.raises((TypeError, ValueError)) as got:
        batch.resolve_volley(**args)
    with pytest.raises(got.type) as want:
        batch.resolve_volley(**{k: (np.asarray(x) if k != "n_targets" else x) for k, x in args.items()})
    assert str(got.value) == str(want.value)


def test_simulate_fire_run_table_is_the_exact_distribution():
    # Each outcome's run of 32-bit words is exactly count * q long: P(outcome | accepted) = count / total.
    e = odds._trusted_args(CFG["shooter"], CFG["target"], CFG["shooter_posture"], CFG["target_posture"], 3, 2,
                           aa.Action.BASIC, aa.Action.BASIC, CFG["cover"], 0, False, aa.Rules.default())
    counts, total = odds._engagement_counts(e, aa.Rules.default())
    table = batch._fire_cdf(*(CFG[k] for k in ("shooter", "target", "shooter_posture", "target_posture",
                                               "range_band", "armor")), aa.Action.BASIC, aa.Action.BASIC,
                            CFG["cover"], 0, False, aa.Rules.default())
    runs = np.diff([0] + table.ends)
    q = 2**32 // total
    assert table.limit == total * q
    assert [Fraction(int(r), table.limit) for r in runs] == [Fraction(int(c), total) for c in counts[counts > 0]]
    exact = odds.fire_outcomes(**CFG, exact=True)
    assert sorted(exact) == sorted(zip(*np.nonzero(counts)))


def test_simulate_fire_streams_of_any_seed_sequence_equal_the_reference():
    # The seed words assembled in Python and seeded in C equal numpy's SeedSequence children.
    for seed in (np.random.SeedSequence(2**200 + 5, spawn_key=(3, 2**40)), np.random.SeedSequence([1, 2**33]),
                 np.random.SeedSequence(0), 2**64 + 1, np.random.SeedSequence(2**3000 + 7)):   # 94 words: copied on the heap
        n = batch.SIMULATE_CHUNK + 50
        m, w = batch.simulate_fire(n, seed=seed, **CFG)
        rm, rw = ref.simulate_fire(n, seed=seed, **CFG)
        assert m.tolist() == rm and w.tolist() == rw


def test_simulate_fire_generator_seed_draws_as_seed_sequence_does():
    a = batch.simulate_fire(1000, seed=np.random.default_rng(9), **CFG)
    g = np.random.default_rng(9)
    ss = np.random.SeedSequence(g.integers(0, 2**63, size=4, dtype=np.uint64).tolist())
    b = batch.simulate_fire(1000, seed=ss, **CFG)
    np.testing.assert_array_equal(a.markers, b.markers)
    np.testing.assert_array_equal(a.wounds, b.wounds)


def test_simulate_fire_memo_keeps_types_apart():
    batch.simulate_fire(1, seed=1, **CFG)   # memoised with range_band=3
    for field, bad in (("range_band", 3.0), ("armor", True), ("shooter", (10.0, 10, 8))):
        with pytest.raises(TypeError):
            batch.simulate_fire(1, seed=1, **{**CFG, field: bad})
    # equal values of accepted types share the table and the results
    base = batch.simulate_fire(500, seed=4, **CFG)
    for field, alt in (("range_band", np.int64(3)), ("shooter", "d10,d10,d8"), ("shooter_posture", 0),
                       ("cover", 1), ("shooter", [10, 10, 8]), ("vehicle", 0)):
        other = batch.simulate_fire(500, seed=4, **{**CFG, field: alt})
        np.testing.assert_array_equal(base.wounds, other.wounds)
    assert batch.simulate_fire(0, seed=1, **CFG).markers.shape == (0,)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 20_000])
def test_draws_from_any_pcg64_state_as_numpy_next_uint32_would(n):
    # The kernel's loop takes a buffered half first, then two words an output; the words and the
    # state it leaves are numpy's next_uint32 sequence's, whatever the state and n.
    import bisect

    table = batch._fire_cdf((12, 12, 12), (12, 12, 12), 0, 0, 1, 1, aa.Action.MASS_FIRE, aa.Action.BASIC, 0, 0,
                            False, aa.Rules.default())
    keys = sorted(odds.fire_outcomes("d12,d12,d12", "d12,d12,d12", shooter_posture=0, target_posture=0,
                                     range_band=1, armor=1, shooter_action=aa.Action.MASS_FIRE))
    for buffered in (False, True):
        bg = np.random.PCG64(31)
        g = np.random.Generator(bg)
        if buffered:
            g.integers(0, 2**32, 1, dtype=np.uint32)   # leaves numpy's high half buffered
        s = bg.state
        st = np.array([s["state"]["state"] >> 64, s["state"]["state"] & (2**64 - 1), s["state"]["inc"] >> 64,
                       s["state"]["inc"] & (2**64 - 1), s["has_uint32"], s["uinteger"]], dtype=np.uint64)
        m = np.empty(n, np.int8)
        w = np.empty(n, np.int16)
        table.simulate_state(st, m, w)
        want, rejected = [], 0
        words = iter(g.integers(0, 2**32, n + 100, dtype=np.uint32).tolist())   # the same next_uint32 calls
        while len(want) < n:
            word = next(words)
            if word < table.limit:
                want.append(keys[bisect.bisect_right(table.ends, word)])
            else:
                rejected += 1
        assert rejected > 0 or n < 20_000   # the rejection branch is exercised (6 expected)
        g = np.random.Generator(bg := np.random.PCG64(31))   # replay to the words actually used
        if buffered:
            g.integers(0, 2**32, 1, dtype=np.uint32)
        if n:
            g.integers(0, 2**32, n + rejected, dtype=np.uint32)
        assert list(zip(m.tolist(), w.tolist())) == want
        after = bg.state
        assert [int(x) for x in st] == [after["state"]["state"] >> 64, after["state"]["state"] & (2**64 - 1),
                                        after["state"]["inc"] >> 64, after["state"]["inc"] & (2**64 - 1),
                                        after["has_uint32"], after["uinteger"] if after["has_uint32"] else 0]


def test_the_firefight_example_resolves_each_step_as_the_reference_would(monkeypatch):
    mod = load_example("firefight_model")
    calls = check_every_volley(monkeypatch)
    out = mod.run(n_squads=10, steps=6, seed=3)
    assert calls and all(c >= 1 for c in calls)
    assert out["side_0_wounds"] + out["side_1_wounds"] > 0
    monkeypatch.undo()
    assert mod.run(n_squads=10, steps=6, seed=3) == out   # reproducible from its seed


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
                                           np.random.Philox, np.random.SFC64])
def test_simulate_fire_generator_words_drawn_in_c_are_generator_integers(bit_generator):
    # The four seed words are drawn through the bit generator's C API, not Generator.integers: the
    # same words for every numpy BitGenerator, and the Generator is left where integers leaves it.
    for s in range(20):
        g, h = np.random.Generator(bit_generator(s)), np.random.Generator(bit_generator(s))
        a = batch.simulate_fire(300, seed=g, **CFG)
        ss = np.random.SeedSequence(h.integers(0, 2**63, size=4, dtype=np.uint64).tolist())
        b = batch.simulate_fire(300, seed=ss, **CFG)
        np.testing.assert_array_equal(a.markers, b.markers)
        np.testing.assert_array_equal(a.wounds, b.wounds)
        assert g.integers(0, 2**32, 5, dtype=np.uint32).tolist() == h.integers(0, 2**32, 5, dtype=np.uint32).tolist()


def test_simulate_fire_generator_words_with_a_zero_high_half():
    # numpy writes an int below 2**32 as one word, so a drawn value with a zero high half shortens
    # the entropy. MT19937 at position 0 outputs its tempered key words in order (0 tempers to 0):
    # zero key words make such values.
    for first in ([0] * 8, [0, 7, 0, 0, 1, 0, 0, 0], [9, 0, 0, 3, 0, 0, 0, 0]):
        key = np.arange(1, 625, dtype=np.uint32)
        key[:8] = first
        state = {"bit_generator": "MT19937", "state": {"key": key, "pos": 0}}
        g, h = np.random.MT19937(), np.random.MT19937()
        g.state = state
        h.state = state
        values = np.random.Generator(h).integers(0, 2**63, size=4, dtype=np.uint64).tolist()
        assert any(x < 2**32 for x in values)
        a = batch.simulate_fire(200, seed=np.random.Generator(g), **CFG)
        rm, rw = ref.simulate_fire(200, seed=np.random.SeedSequence(values), **CFG)
        assert a.markers.tolist() == rm and a.wounds.tolist() == rw


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64, 2**64 + 1])
def test_simulate_fire_int_seeds_without_a_seed_sequence_equal_the_reference(seed):
    # Ints below 2**64 are assembled in C; 2**64 and above take the SeedSequence path: both are numpy's.
    m, w = batch.simulate_fire(500, seed=seed, **CFG)
    rm, rw = ref.simulate_fire(500, seed=seed, **CFG)
    assert m.tolist() == rm and w.tolist() == rw
    again = batch.simulate_fire(500, seed=seed, **CFG)
    assert again.markers.tolist() == rm


def test_simulate_fire_fresh_seeds_differ_and_repeat():
    draws = [batch.simulate_fire(64, seed=s, **CFG).markers.tolist() for s in range(40)]
    assert len({tuple(d) for d in draws}) == 40
    assert draws == [batch.simulate_fire(64, seed=s, **CFG).markers.tolist() for s in range(40)]


@pytest.mark.parametrize("dice, bad", [([[10, 10, 7]], 7), ([[4, 6, 8], [12, 0, 3]], 0), ([[-4, 6, 8]], -4),
                                       ([[2**40, 6, 8]], 2**40), ([64], 64), ([[10, 10, 8]] * 50 + [[10, 11, 8]], 11)])
def test_roll_dice_checked_in_the_kernel_draws_nothing_on_a_bad_die(dice, bad):
    # The kernel's one check pass runs before any draw: the first bad die (row order) is named and
    # the generator is where it was.
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match=rf"^dice: {bad} is not a die; allowed sides \[4, 6, 8, 10, 12\]$"):
        batch.roll_dice(dice, rng)
    assert rng.bit_generator.state == before


def test_roll_dice_mixed_units_match_the_reference_stream():
    dice = np.random.default_rng(0).choice([4, 6, 8, 10, 12], size=(500, 3))
    got = batch.roll_dice(dice, np.random.default_rng(8))
    want = ref.roll_dice(dice.tolist(), np.random.default_rng(8))
    assert got.tolist() == [list(r) for r in want]
