"""The one schema (atomic_africa.game.schema) and everything derived from it agree: the committed
C header and its Cython declarations, the Python Unit and Stage, the event dicts the Python engine logs, the decoder
of native event records and the native arrays."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.reference.game import Game as ReferenceGame
from atomic_africa.enums import Action, Posture, UnitKind
from atomic_africa.game import schema
from atomic_africa.game.events import EVENT_TYPES
from atomic_africa.game.native.layout import decode_records, unit_templates
from atomic_africa.game.native.schema_c import HEADER_PATH, PXI_PATH, render, render_pxi
from atomic_africa.game.state import Stage, Unit
from support.vector_mirror import random_scenario

ROOT = Path(__file__).resolve().parents[1]
NATIVE = ("i8", "i32", "f64")


def test_committed_header_and_pxi_are_rendered_from_the_schema():
    for path, text in ((HEADER_PATH, render()), (PXI_PATH, render_pxi())):
        committed = (ROOT / path).read_text()
        assert committed == text, (
            f"{path} differs from atomic_africa.game.schema; regenerate it with\n"
            f"  PYTHONPATH=python python -m atomic_africa.game.native.schema_c\n"
            "then rebuild the kernels (python setup.py build_ext --inplace)")


def test_header_and_pxi_declare_every_schema_name():
    header, pxi = render(), render_pxi()
    names = ([f"ST_{n}" for n, _ in schema.STAGES] + [f"S_{n.upper()}" for n, _ in schema.SCALARS]
             + [f"E_{t.upper()}" for t, _ in schema.EVENTS] + [f"R_{r.name}" for r in schema.END_REASONS]
             + [x.name for x in schema.LIMITS] + [f"A_{a.name}" for a in Action]
             + [f"P_{p.name}" for p in Posture] + [f"K_{k.name}" for k in UnitKind])
    for s in NATIVE:
        names += [f"F_{c}" for _, c, _ in schema.native_rows(s)]
    for name in names:
        assert f"\n    {name} = " in header, name
        assert f"\n        {name}\n" in pxi or f"\n        {name} " in pxi, name


def test_native_rows_are_contiguous_and_unique():
    for s in NATIVE:
        rows = [r for r, _, _ in schema.native_rows(s)]
        assert rows == list(range(len(rows))), f"{s} rows: {rows}"
        c_names = [c for _, c, _ in schema.native_rows(s)]
        assert len(set(c_names)) == len(c_names)
    assert {f.storage for f in schema.UNIT_FIELDS} == {"py", *NATIVE}
    assert all(f.row == -1 and f.py_type is not None for f in schema.UNIT_FIELDS if f.storage == "py")


def test_every_native_unit_field_is_a_unit_attribute_or_native_only():
    names = [f.name for f in dataclasses.fields(Unit)]
    assert names == [f.name for f in schema.UNIT_FIELDS if f.py_type is not None]
    for f in schema.UNIT_FIELDS:
        if f.storage in NATIVE and f.py_type is None:
            assert f.name not in names  # native-only: name_base, name_depth, born
    assert {f.name for f in schema.UNIT_FIELDS if f.py_type is None} == {"name_base", "name_depth", "born"}
    u = Unit(uid=5, side=1)
    for f in schema.UNIT_FIELDS:
        if f.py_type is not None and f.default is not schema.REQUIRED:
            want = list(f.default) if isinstance(f.default, tuple) else f.default
            assert getattr(u, f.name) == want and type(getattr(u, f.name)) is f.py_type, f.name
    assert Unit(uid=0, side=0).dice is not Unit(uid=1, side=0).dice


def test_unit_round_trips_and_keeps_its_methods():
    import pickle
    u = Unit(uid=2, side=0, alive=True, name="A/b", dice=[10, 8, 6], x=3.5, card=7)
    assert Unit(**dataclasses.asdict(u)) == u
    assert pickle.loads(pickle.dumps(u)) == u
    assert u.has_orders
    u.action, u.moves = 3, True
    u.clear_scratch()
    assert (u.action, u.moves, u.dest_x, u.dest_y) == (-1, False, 3.5, 0.0)
    with pytest.raises(TypeError):
        Unit(side=0)


def test_stage_is_derived_from_the_schema():
    assert Stage.NAMES == tuple(n for n, _ in schema.STAGES)
    assert Stage.COUNT == len(schema.STAGES) == schema.LIMIT.N_STAGES
    assert [getattr(Stage, n) for n in Stage.NAMES] == list(range(Stage.COUNT))
    assert EVENT_TYPES == tuple(t for t, _ in schema.EVENTS)
    assert schema.LIMIT.N_ACTIONS == len(Action)
    assert schema.LIMIT.MAX_TARGETS >= max(schema.LIMIT.MAX_SLOTS_TOTAL, schema.LIMIT.MAX_FEATURES)


def test_event_fields_are_well_formed():
    for t, fields in schema.EVENTS:
        names = [f.name for f in fields]
        assert len(set(names)) == len(names) and not {"type", "turn"} & set(names), t
        for i, f in enumerate(fields):
            assert f.kind in schema.FIELD_KINDS, (t, f)
            if f.ref:
                assert f.ref in names[:i], (t, f)
            if f.present.startswith("with:"):
                assert f.present[5:] in names[:i], (t, f)
            else:
                assert f.present in ("always", "nonzero", "nonnegative"), (t, f)
            if f.kind == "int_rest":
                assert i == len(fields) - 1, (t, f)
            if f.kind in ("ints", "counted"):
                assert f.size > 0, (t, f)


def _record(code, turn, values):
    return [code, turn, len(values), *values]


def _zero_values(fields, present=True):
    """A record's values for these fields: zeros (1 where a conditional field should be present)."""
    out = []
    for f in fields:
        w = schema.FIELD_KINDS[f.kind][0]
        w = {"size": f.size, "1 + size": 1 + f.size, "rest": 2}.get(w, w)
        v = [0] * w
        if f.kind == "counted":
            v[0] = f.size
        if f.present == "nonzero" and present:
            v[0] = 1
        if f.present == "nonnegative" and not present:
            v[0] = -1
        out += v
    return out


def test_decoder_covers_every_event_type():
    g = ReferenceGame(None, 0)
    sc, deck, C = g.scenario, g.deck, g.C
    assert sc.terrain and sc.sides[0].fire_support  # feature 0 and asset 0 exist for the records below
    rec = []
    for code, (_type, fields) in enumerate(schema.EVENTS):
        rec += _record(code, 1, _zero_values(fields))
        rec += _record(code, 2, _zero_values(fields, present=False))
    events = decode_records(np.array(rec, dtype=np.float64), sc, deck, C, 1234)
    assert [e["type"] for e in events[::2]] == list(EVENT_TYPES)
    for e, (t, fields) in zip(events[::2], schema.EVENTS):
        assert list(e) == ["type", "turn"] + [f.name for f in fields], t
    for e, (t, fields) in zip(events[1::2], schema.EVENTS):
        conditional = {f.name for f in fields if f.present != "always"}
        assert list(e) == ["type", "turn"] + [f.name for f in fields if f.name not in conditional], t
    by_type = {e["type"]: e for e in events[::2]}
    assert by_type["setup"] == {"type": "setup", "turn": 1, "scenario": sc.name, "seed": 1234, "slots": C}
    assert by_type["game_over"]["reason"] == schema.END_REASONS[0].text
    assert by_type["no_reaction"]["reason"] == schema.NO_LEGAL_CARD
    assert by_type["support_roll"]["dice"] == list(sc.sides[0].fire_support[0].dice)
    assert by_type["feature_fire"]["name"] == sc.terrain[0].name
    assert by_type["removed"]["name"] == sc.sides[0].units[0].name
    assert by_type["roll"]["attacks"] == [0, 0] and by_type["roll"]["rally"] == 0
    assert by_type["move"]["start"] == [0.0, 0.0] and type(by_type["move"]["start"][0]) is float
    with pytest.raises(ValueError, match="'fire'.*9 values.*declares 10"):
        decode_records(np.array(_record(EVENT_TYPES.index("fire"), 1, [0] * 9), dtype=np.float64),
                       sc, deck, C, 0)
    n = len(EVENT_TYPES)
    with pytest.raises(ValueError, match=f"code {n}: not an event code; allowed 0..{n - 1}"):
        decode_records(np.array(_record(n, 1, []), dtype=np.float64), sc, deck, C, 0)


_CHECK = {"int": lambda v: type(v) is int, "bool": lambda v: type(v) is bool, "float": lambda v: type(v) is float,
          "card": lambda v: type(v) is str, "action": lambda v: v in Action.__members__,
          "posture": lambda v: v in Posture.__members__, "opt_int": lambda v: v is None or type(v) is int,
          "point": lambda v: type(v) is list and len(v) == 2 and all(type(a) is float for a in v),
          "int_rest": lambda v: type(v) is list and all(type(a) is int for a in v),
          "unit_name": lambda v: type(v) is str, "asset": lambda v: type(v) is str,
          "asset_dice": lambda v: type(v) is list, "feature_name": lambda v: type(v) is str,
          "reason": lambda v: v in {r.text for r in schema.END_REASONS}, "scenario": lambda v: type(v) is str,
          "game_seed": lambda v: type(v) is int, "slots": lambda v: type(v) is int}


def _check_event(e):
    fields = schema.EVENT_FIELDS[e["type"]]
    keys = list(e)[2:]
    assert list(e)[:2] == ["type", "turn"]
    assert keys == [f.name for f in fields if f.name in e], f"{e['type']}: {keys}"
    for f in fields:
        here = f.name in e
        if f.present == "always":
            assert here, (e["type"], f.name)
        elif f.present.startswith("with:"):
            assert here == (f.present[5:] in e), (e["type"], f.name)
        if not here:
            continue
        v = e[f.name]
        if f.kind == "const":
            assert v == f.value
        elif f.kind == "ints":
            assert type(v) is list and len(v) == f.size and all(type(a) is int for a in v), (e["type"], f.name)
        elif f.kind == "counted":
            assert type(v) is list and len(v) <= f.size and all(type(a) is int for a in v), (e["type"], f.name)
        else:
            assert _CHECK[f.kind](v), (e["type"], f.name, v)
        if f.present == "nonzero":
            assert v
        if f.present == "nonnegative":
            assert v >= 0


@pytest.mark.parametrize("scenario", [None, 50071, 50001])
def test_python_game_events_carry_the_declared_fields(scenario):
    sc = None if scenario is None else random_scenario(scenario)
    seen = set()
    for seed in range(3):
        g = ReferenceGame(sc, seed)
        rng = np.random.default_rng(seed)
        while not g.is_over:
            g.apply(int(rng.choice(g.legal_actions())))
        for e in g.events:
            _check_event(e)
            seen.add(e["type"])
        assert g.result.reason in {r.text for r in schema.END_REASONS}
    assert len(seen) >= 20, seen


def test_native_arrays_follow_the_schema():
    sc = aa.game.default_scenario()
    vg = aa.game.VectorGame(sc, num_envs=3, seed=3)
    a = vg._engine.arrays
    U = 2 * vg.spec.C
    assert a["scalars"].shape == (3, len(schema.SCALARS))
    for s in NATIVE:
        assert a[f"unit_{s}"].shape == (3, len(schema.native_rows(s)), U)
    rng = np.random.default_rng(0)
    # Each env's first game played in Python beside it; every unit row and scalar compared after
    # every decision until the game ends (the env is then left alone).
    games = [ReferenceGame(sc, int(vg.episode_seeds[i])) for i in range(3)]
    steps = 0
    while not all(g.is_over for g in games):
        for i, g in enumerate(games):
            if not g.is_over:
                _same_state(a, i, g)
        live = np.array([not g.is_over for g in games])
        acts = np.array([-1 if g.is_over else int(rng.choice(g.legal_actions())) for g in games])
        vg.step(acts, live, observe=False)
        for g, act in zip(games, acts):
            if not g.is_over:
                g.apply(int(act))
        steps += 1
    assert steps >= 20


def test_native_start_states_follow_the_schema():
    # Random scenarios vary every unit field (kinds, dice, heavy weapons, spotters, comms, attached
    # units, markers ...), so a unit row read at the wrong index shows.
    for seed in range(50000, 50040):
        sc = random_scenario(seed)
        vg = aa.game.VectorGame(sc, num_envs=1, seed=seed)
        _same_state(vg._engine.arrays, 0, ReferenceGame(sc, int(vg.episode_seeds[0])))


def _same_state(a, i, g):
    col = schema.SCALAR_COLUMN
    s = a["scalars"][i]
    assert (s[col["turn"]], s[col["stage"]], s[col["cur"]]) == (g.s.turn, g.s.stage, g.current_player)
    for st in NATIVE:
        arr = a[f"unit_{st}"][i]
        for r, _, f in schema.native_rows(st):
            if f.py_type is None:
                continue
            want = [getattr(u, f.name)[r - f.row] if f.rows > 1 else getattr(u, f.name) for u in g.s.units]
            assert arr[r].tolist() == [type(arr[r][0].item())(w) for w in want], (st, f.name)
    rows = {f.name: r for r, _, f in schema.native_rows("i32")}
    base, depth = a["unit_i32"][i][rows["name_base"]], a["unit_i32"][i][rows["name_depth"]]
    for u in g.s.units:
        if u.alive:
            assert g.scenario.sides[u.side].units[base[u.uid]].name + "/b" * int(depth[u.uid]) == u.name


def test_unit_templates_lay_out_the_initial_units():
    g = ReferenceGame(random_scenario(50001), 0)
    t = unit_templates(g.s.units, g.C)
    U = 2 * g.C
    for st in NATIVE:
        assert t[f"tmpl_{st}"].shape == (len(schema.native_rows(st)) * U,)
    i32 = t["tmpl_i32"].reshape(-1, U)
    x = t["tmpl_f64"].reshape(-1, U)[0]
    assert x.tolist() == [u.x for u in g.s.units]
    assert i32[0].tolist() == [(sum(v.alive and v.side == u.side for v in g.s.units[:u.uid]) if u.alive else -1)
                               for u in g.s.units]
