"""Property tests (hypothesis): kernels equal the reference over the whole valid domain."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import atomic_africa as aa
from atomic_africa import reference as ref


attack = st.integers(0, 60)
band = st.integers(1, 9)
defense = st.integers(0, 30)
armor = st.integers(1, 12)
cover = st.sampled_from(list(aa.Cover))
ap = st.integers(-12, 0)
vehicle = st.booleans()


@given(attack, band, defense, armor, cover, ap, vehicle)
def test_resolve_fire_scalar(a, b, d, arm, c, p, v):
    assert aa.resolve_fire(a, b, d, arm, c, p, v) == ref.resolve_fire(a, b, d, arm, c, p, v)


@given(st.lists(st.tuples(attack, band, defense, armor, cover, ap, vehicle), min_size=0, max_size=60))
def test_resolve_fire_batch(rows):
    arr = np.array(rows, dtype=np.int64).reshape(-1, 7)
    m, w = aa.batch.resolve_fire(*arr[:, :6].T, vehicle=arr[:, 6].astype(bool))
    exp = [ref.resolve_fire(*r[:6], bool(r[6])) for r in rows]
    assert m.tolist() == [e.markers for e in exp]
    assert w.tolist() == [e.wounds for e in exp]


@given(hnp.arrays(np.float64, st.integers(0, 200),
                  elements=st.floats(0, 1e12, allow_nan=False, allow_infinity=False)))
def test_range_band_batch(d):
    got = aa.batch.range_band(d)
    assert got.tolist() == [ref.range_band(x) for x in d.tolist()]
    assert np.array_equal(got, np.searchsorted(aa.Rules.default().band_edges, d, side="left") + 1)


@given(st.lists(st.floats(1.0, 200.0, allow_nan=False), min_size=1, max_size=12, unique=True),
       st.floats(0, 300, allow_nan=False))
def test_range_band_any_stick(edges, d):
    rules = aa.Rules.default().replace(fire={"band_edges_cm": sorted(edges)})
    assert aa.range_band(d, rules) == ref.range_band(d, rules)
    assert aa.batch.range_band([d], rules)[0] == ref.range_band(d, rules)


@st.composite
def volleys(draw):
    n_targets = draw(st.integers(1, 6))
    m = draw(st.integers(0, 25))
    return dict(
        target=draw(st.lists(st.integers(0, n_targets - 1), min_size=m, max_size=m)),
        attack=draw(st.lists(attack, min_size=m, max_size=m)),
        range_band=draw(st.lists(band, min_size=m, max_size=m)),
        ap=draw(st.lists(ap, min_size=m, max_size=m)),
        defense=draw(st.lists(defense, min_size=n_targets, max_size=n_targets)),
        armor=draw(st.lists(armor, min_size=n_targets, max_size=n_targets)),
        cover=draw(st.lists(st.integers(0, 2), min_size=n_targets, max_size=n_targets)),
        vehicle=draw(st.lists(vehicle, min_size=n_targets, max_size=n_targets)),
        already=draw(st.lists(st.integers(0, 3), min_size=n_targets, max_size=n_targets)),
        n_targets=n_targets,
    )


@given(volleys())
def test_resolve_volley(v):
    args = (v["target"], v["attack"], v["range_band"])
    kw = {k: v[k] for k in ("defense", "armor", "cover", "ap", "vehicle", "already", "n_targets")}
    m, w = aa.batch.resolve_volley(np.array(args[0], dtype=np.int64), np.array(args[1], dtype=np.int64),
                                   np.array(args[2], dtype=np.int64),
                                   **{k: np.array(x) if isinstance(x, list) else x for k, x in kw.items()})
    em, ew = ref.resolve_volley(*args, **kw)
    assert m.tolist() == em and w.tolist() == ew
    caps = np.where(np.array(v["vehicle"]), 1, 2)
    assert (m <= np.maximum(caps - np.array(v["already"]), 0)).all()


def test_volley_caps_by_hand():
    # Three attacks on infantry target 0 (2+2+1 markers -> capped at 2), one on a vehicle (1).
    m, w = aa.batch.resolve_volley([0, 0, 0, 1], [13, 9, 5, 20], [3, 3, 3, 1], defense=[2, 1],
                                   armor=[2, 3], cover=[aa.Cover.LIGHT, 0], vehicle=[False, True])
    assert m.tolist() == [2, 1]
    assert w.tolist() == [2 + 1 + 0, 6]
    # A target that already took 1 marker this turn can take only 1 more.
    m, _ = aa.batch.resolve_volley([0], [13], 3, defense=2, armor=2, already=1, n_targets=1)
    assert m.tolist() == [1]


@given(st.tuples(st.integers(1, 12), st.integers(1, 12), st.integers(1, 12)),
       st.sampled_from(list(aa.Posture)), st.sampled_from(list(aa.Action)))
def test_action_scores_properties(faces, posture, action):
    s = aa.action_scores(faces, posture, action)
    assert s == ref.action_scores(faces, posture, action)
    used = list(s.attacks) + [x for x in (s.defense, s.rally, s.spotting) if x is not None]
    assert sum(used) == sum(faces)  # every die is used exactly once


@given(st.lists(st.tuples(st.sampled_from([4, 6, 8, 10, 12]), st.integers(0, 6)), max_size=40))
def test_shift_dice_batch(rows):
    arr = np.array(rows, dtype=np.int64).reshape(-1, 2)
    got = aa.batch.shift_dice(arr[:, 0], arr[:, 1])
    assert got.tolist() == [ref.shift_die(d, s) or 0 for d, s in rows]
