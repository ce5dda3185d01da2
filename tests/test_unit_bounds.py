"""A unit field's bounds are declared once, on its ``schema.UNIT_FIELDS`` line, and every reader takes
them from there: saved games (``game.saved``), native snapshots (``game.native.snapshot``) and scenario
files (``game.scenario``, for the fields a scenario gives).

- every field has bounds, in terms the readers know; a field without them fails here;
- every field is refused by every reader at hostile values (out of range, wrong type, NaN and
  infinities for floats), so a reader that skips a field fails here (shown by skipping one);
- states that random play reaches are accepted (no false alarm);
- a field added to a copy of the schema is picked up by the Python ``Unit``, the scenario reader and
  its set-up, saved games, snapshots, the observation and the generated C header (``aa_schema.h``) (the "three places"
  of the schema's docstring).
"""
from __future__ import annotations

import ast
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import aa_core
import atomic_africa
from atomic_africa import _limits
from atomic_africa.game import GameSpec, ScenarioError, VectorGame, default_scenario
from atomic_africa.reference.game import Game
from atomic_africa.game import saved, schema
from atomic_africa.game.native import snapshot
from atomic_africa.game.native.snapshot import check_arrays
from atomic_africa.game.saved import SavedGameError, read_saved_game
from atomic_africa.game.schema import (BOUND_TERMS, SETS, SETUP_TERMS, UNIT_FIELDS, allowed, bound_terms,
                                       native_rows, setup_fields)
from test_game_fuzz import random_scenario

_LIMIT_NAMES = {n for n in _limits.__all__ if n.startswith("MAX_")}


# -- the declaration -------------------------------------------------------------------------------
def bound_problems(fields) -> list:
    """What is wrong with the bounds of these unit fields (empty: nothing)."""
    out = []

    def terms(end):
        if not isinstance(end, str):
            return set()
        return {t for _, t in schema._parse(end) if isinstance(t, str)}

    for f in fields:
        b = f.bounds
        if b is None:
            out.append(f"{f.name}: no bounds")
            continue
        if isinstance(b, str):
            if b not in SETS:
                out.append(f"{f.name}: unknown set {b!r}")
            if f.py_type not in (list, None) or f.storage == "f64":
                out.append(f"{f.name}: a set of values bounds the elements of an integer list field")
            continue
        if not (isinstance(b, tuple) and len(b) == 2):
            out.append(f"{f.name}: bounds {b!r} are not (lo, hi)")
            continue
        unknown = (terms(b[0]) | terms(b[1])) - set(BOUND_TERMS) - _LIMIT_NAMES
        if unknown:
            out.append(f"{f.name}: unknown terms {sorted(unknown)}")
        if f.storage != "py" and (terms(b[0]) | terms(b[1])) & {"slot"}:
            out.append(f"{f.name}: a native field's bounds are per side, not per slot")
        if f.setup is not None and f.setup.bounds is not None and not isinstance(f.setup.bounds, str):
            unknown = (terms(f.setup.bounds[0]) | terms(f.setup.bounds[1])) - set(SETUP_TERMS) - _LIMIT_NAMES
            if unknown:
                out.append(f"{f.name}: a scenario's bounds may use {SETUP_TERMS} and limits, not {sorted(unknown)}")
    return out


def test_every_unit_field_has_bounds_in_terms_the_readers_know():
    assert bound_problems(UNIT_FIELDS) == []
    # a field without bounds, or with a term no reader resolves, is caught
    broken = list(UNIT_FIELDS)
    broken[5] = broken[5]._replace(bounds=None)
    broken[6] = broken[6]._replace(bounds="sides")
    broken[7] = broken[7]._replace(bounds=(0, "MAX_ARMOUR + 1"))
    assert bound_problems(broken) == [f"{broken[5].name}: no bounds", f"{broken[6].name}: unknown set 'sides'",
                                      f"{broken[7].name}: unknown terms ['MAX_ARMOUR']"]


def test_bounds_resolve_against_a_spec():
    spec = GameSpec.build(None)
    t = bound_terms(spec, 1)
    field = {f.name: f for f in UNIT_FIELDS}
    assert allowed(field["target"].bounds, t) == (-1, 2 * spec.C + len(spec.scenario.terrain) - 1)
    assert allowed(field["card"].bounds, t) == (-1, spec.deck.size - 1)
    assert allowed(field["hw_point_ap"].bounds, t) == (-_limits.MAX_ARMOR, 0)
    assert allowed(field["figures"].bounds, t) == (1, spec.initial_figures[1])
    assert allowed(field["dice"].bounds, t) == tuple(sorted(spec.rules.dice.ladder))
    assert allowed(field["uid"].bounds, {**t, "slot": 7}) == (7, 7)
    assert schema.depends_on_game(field["card"].bounds) and not schema.depends_on_game(field["armor"].bounds)


def test_empty_slots_hold_the_defaults_and_the_defaults_are_in_bounds_or_mark_an_empty_slot():
    # An empty slot holds the schema's defaults (the readers check it); a default outside the bounds
    # says "no unit" (0 figures, dice 0, name_base -1) and only an empty slot may hold it.
    outside, terms = set(), bound_terms(GameSpec.build(None), 0)
    for f in UNIT_FIELDS:
        if f.default is schema.REQUIRED or f.py_type is str:
            continue
        b = allowed(f.bounds, terms)
        for d in (f.default if f.rows > 1 else (f.default,)):
            if (d not in b) if isinstance(f.bounds, str) else not b[0] <= d <= b[1]:
                outside.add(f.name)
    assert outside == {"figures", "dice", "name_base"}


# -- hostile values, field by field ----------------------------------------------------------------
def _saved_text(seed=5, decisions=60) -> str:
    g = Game(None, seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        g.apply(int(rng.choice(g.legal_actions())))
    return g.to_json()


SAVED = json.loads(_saved_text())
SPEC = read_saved_game(json.dumps(SAVED))[1]
LIVE = next(i for i, u in enumerate(SAVED["state"]["units"]) if u["alive"])
EMPTY = next(i for i, u in enumerate(SAVED["state"]["units"]) if not u["alive"])


def hostile_values(f, bounds) -> list:
    """Values a reader must refuse for field ``f`` with these resolved bounds (JSON values)."""
    if f.py_type is bool:
        return [1, 0, "true", None, [True]]
    if f.py_type is str:
        return [5, None, ["a"], "x" * (bounds[1] + 1)]
    if f.py_type is list:
        inside = bounds[0]
        return [[inside] * (f.rows - 1), [inside] * (f.rows + 1), "d8", None,
                [inside] * (f.rows - 1) + [max(bounds) + 1], [inside] * (f.rows - 1) + [-1],
                [inside] * (f.rows - 1) + [float(inside)], [inside] * (f.rows - 1) + [f"d{inside}"]]
    lo, hi = bounds
    if f.py_type is float:
        return [lo - 1, hi + 1, float("nan"), float("inf"), float("-inf"), "1", None, True, [lo]]
    return [lo - 1, hi + 1, hi + 0.5, "1", None, True, [lo], 10**30, -10**30]


def _saved_cases():
    terms = bound_terms(SPEC, LIVE // SPEC.C)
    for f in UNIT_FIELDS:
        if f.py_type is None:
            continue
        for v in hostile_values(f, allowed(f.bounds, {**terms, "slot": LIVE})):
            yield pytest.param(f.name, v, id=f"{f.name}={v!r}"[:60])


def saved_error(slot: int, name: str, value, fields=None) -> str | None:
    """The message read_saved_game gives for unit ``slot``'s field ``name`` set to ``value`` (None if it
    reads it), with ``saved.UNIT_FIELDS`` replaced by ``fields`` if given."""
    d = json.loads(json.dumps(SAVED))
    d["state"]["units"][slot][name] = value
    text = json.dumps(d)
    old = saved.UNIT_FIELDS
    try:
        if fields is not None:
            saved.UNIT_FIELDS = fields
        read_saved_game(text)
    except SavedGameError as e:
        return str(e)
    finally:
        saved.UNIT_FIELDS = old
    return None


@pytest.mark.parametrize("name, value", list(_saved_cases()))
def test_saved_games_refuse_hostile_values_of_every_unit_field(name, value):
    message = saved_error(LIVE, name, value)
    assert message is not None, f"a saved game's unit {LIVE} read with {name} = {value!r}"
    assert re.match(rf"text\.state\.units\[{LIVE}\]\.{name}(\[\d\])?: ", message), message


def test_saved_games_name_the_bounds_and_widen_them_only_for_an_empty_slot():
    spec, C = SPEC, SPEC.C
    side = LIVE // C
    assert saved_error(LIVE, "figures", 0) == (f"text.state.units[{LIVE}].figures: 0 is out of range; "
                                               f"allowed 1..{spec.initial_figures[side]}")
    assert saved_error(EMPTY, "figures", 0) is None               # an empty slot's default
    assert saved_error(EMPTY, "figures", -1) == (f"text.state.units[{EMPTY}].figures: -1 is out of range; "
                                                 f"allowed 0..{spec.initial_figures[EMPTY // C]}")
    ladder = sorted(spec.rules.dice.ladder)
    assert saved_error(LIVE, "dice", [0, 8, 8]) == (f"text.state.units[{LIVE}].dice[0]: 0 is not a die of the "
                                                    f"ladder; allowed {', '.join(map(str, ladder))}")
    assert saved_error(EMPTY, "dice", [0, 0, 7]).endswith(f"allowed {', '.join(map(str, [0] + ladder))}")
    assert saved_error(LIVE, "armor", 101) == f"text.state.units[{LIVE}].armor: 101 is out of range; allowed 1..100"
    assert saved_error(LIVE, "uid", LIVE + 1).endswith(f"allowed {LIVE}..{LIVE}")
    longest = 1000 + 2 * spec.scenario.turns                    # MAX_NAME, and "/b" per split (one a turn)
    assert saved_error(LIVE, "name", "n" * longest) is None
    assert saved_error(LIVE, "name", "n" * (longest + 1)) == (f"text.state.units[{LIVE}].name: a string of "
                                                               f"{longest + 1} characters; allowed at most {longest}")


def test_a_saved_game_reader_that_skips_a_field_is_caught():
    # the hostile-value test above fails for a field a reader leaves out: here armor
    without = tuple(f for f in UNIT_FIELDS if f.name != "armor")
    assert saved_error(LIVE, "armor", 10**6) is not None
    assert saved_error(LIVE, "armor", 10**6, fields=without) is None


# snapshots
_VG = VectorGame(None, 2, 5)
for _ in range(30):
    _VG.step(_VG.random_actions(), observe=False)
ARRAYS = _VG.__getstate__()["arrays"]
SLOT = int(np.flatnonzero(ARRAYS["unit_i8"][0, 0] == 1)[0])


def _snapshot_cases():
    terms = bound_terms(_VG.spec, SLOT // _VG.spec.C)
    for storage in ("i8", "i32", "f64"):
        dtype = ARRAYS["unit_" + storage].dtype
        for row, cname, f in native_rows(storage):
            b = allowed(f.bounds, terms)
            if isinstance(f.bounds, str):
                values = [min(b) - 1, max(b) + 1, 0, 7]
            else:
                values = [b[0] - 1, b[1] + 1]
            if dtype.kind == "f":
                values += [float("nan"), float("inf"), float("-inf"), -1e300, 1e300]
            else:
                info = np.iinfo(dtype)
                values = [v for v in values if info.min <= v <= info.max] + [info.min, info.max]
            for v in values:
                if isinstance(f.bounds, str) and v in b:
                    continue
                yield pytest.param(storage, row, f, v, id=f"{cname}={v!r}")


def snapshot_error(storage: str, row: int, value, fields=None) -> str | None:
    """The message check_arrays gives for the live slot's native ``row`` set to ``value`` (None if it
    accepts it), with ``snapshot.UNIT_FIELDS`` replaced by ``fields`` if given."""
    a = {k: v.copy() for k, v in ARRAYS.items()}
    a["unit_" + storage][0, row, SLOT] = value
    old = snapshot.UNIT_FIELDS
    try:
        if fields is not None:
            snapshot.UNIT_FIELDS = fields
        check_arrays(a, _VG.spec, 2)
    except ValueError as e:
        return str(e)
    finally:
        snapshot.UNIT_FIELDS = old
    return None


@pytest.mark.parametrize("storage, row, field, value", list(_snapshot_cases()))
def test_snapshots_refuse_hostile_values_of_every_native_unit_field(storage, row, field, value):
    message = snapshot_error(storage, row, value)
    element = f"[{row - field.row}]" if field.rows > 1 else ""
    assert message is not None, f"a snapshot read with {field.name}{element} = {value!r} in a live slot"
    assert message.startswith(f"state: arrays['unit_{storage}'][env 0, {field.name}{element}, slot {SLOT}] = "), \
        message


def test_a_snapshot_reader_that_skips_a_field_is_caught():
    row = next(f.row for f in UNIT_FIELDS if f.name == "asset")
    without = tuple(f for f in UNIT_FIELDS if f.name != "asset")
    assert snapshot_error("i32", row, 99) is not None
    assert snapshot_error("i32", row, 99, fields=without) is None


# scenarios
def _scenario_cases():
    terms = schema.setup_terms(100.0, 100.0)
    for f in setup_fields(own=False):
        values = [1, "true", None] if f.py_type is bool else [None, 1.5, "3", True]
        if f.py_type is int:
            lo, hi = allowed(f.setup.bounds or f.bounds, terms)
            values += [lo - 1, hi + 1]
        for v in values:
            yield pytest.param(f.setup.key, v, id=f"{f.setup.key}={v!r}")
    own = {"name": [5, None], "kind": ["tank", 2, None], "dice": [["d8", "d8"], ["d8", "d8", "d7"], "d8"],
           "heavy_weapon": [{"point": 1}, {"dispersed": -_limits.MAX_ARMOR - 1}, {"bunker": -1}, [-1]],
           "position": [[-1.0, 5.0], [5.0, 1e6], [float("nan"), 5.0], ["a", 5.0], [5.0]]}
    assert set(own) == {f.setup.key for f in setup_fields(own=True)}, "a hostile value for every own key"
    for key, values in own.items():
        for v in values:
            yield pytest.param(key, v, id=f"{key}={v!r}")


def scenario_error(key: str, value) -> str | None:
    d = default_scenario().to_dict()
    d["sides"][0]["units"][0][key] = value
    try:
        GameSpec.build(d)
    except ScenarioError as e:
        return str(e)
    return None


@pytest.mark.parametrize("key, value", list(_scenario_cases()))
def test_scenarios_refuse_hostile_values_of_every_field_they_give(key, value):
    message = scenario_error(key, value)
    assert message is not None, f"a scenario read with {key} = {value!r}"
    assert message.startswith(f"scenario.sides[0].units[0].{key}"), message


def test_scenario_bounds_are_the_schema_setup_bounds():
    assert scenario_error("figures", _limits.MAX_COUNT + 1) == (
        f"scenario.sides[0].units[0].figures: {_limits.MAX_COUNT + 1} is out of range; allowed 1..{_limits.MAX_COUNT}")
    assert scenario_error("armor", _limits.MAX_ARMOR) is None
    assert scenario_error("markers", _limits.MAX_COUNT) is None
    assert scenario_error("markers", _limits.MAX_COUNT + 1) is not None
    # every field a scenario gives is a UnitSpec attribute and is set up on the unit
    sc = default_scenario()
    us, u = sc.sides[1].units[0], GameSpec.build(sc).initial_units()[GameSpec.build(sc).C]
    for f in setup_fields(own=False):
        assert getattr(u, f.name) == getattr(us, f.name), f.name


# -- no false alarm ----------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", [None, 2, 7, 13])
def test_every_saved_game_random_play_reaches_is_read(scenario):
    g = Game(None if scenario is None else random_scenario(scenario), 11)
    rng = np.random.default_rng(scenario)
    k = 0
    while not g.is_over:
        if k % 25 == 0:
            read_saved_game(g.to_json())
        g.apply(int(rng.choice(g.legal_actions())))
        k += 1
    read_saved_game(g.to_json())


# -- a new field -----------------------------------------------------------------------------------
_NEW_FIELD = ('    _f("morale_bonus", "i32", 18, int, 0, "bonus to Morale rolls (a field added by a test)", '
              'bounds=(0, 3), setup=Setup("morale_bonus", (0, 2))),\n')
_NEW_FEATURE = '    + (_count("morale_bonus", "bonus to Morale rolls", 4),)\n'


def _with_new_field(source: str) -> str:
    """schema.py's source with one more unit field (an i32 row, given by scenarios, observed)."""
    lines = source.splitlines(keepends=True)
    ends = {t.id: node.end_lineno for node in ast.parse(source).body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name)}
    for name, line in sorted(((n, ends[n]) for n in ("UNIT_FIELDS", "UNIT_OBSERVATION")), key=lambda x: -x[1]):
        assert lines[line - 1].strip() == ")", (name, lines[line - 1])
        lines.insert(line - 1, _NEW_FIELD if name == "UNIT_FIELDS" else _NEW_FEATURE)
    return "".join(lines)


_NEW_FIELD_CHECKS = r"""
import json, pickle, sys
import numpy as np
from atomic_africa.game import GameSpec, default_scenario
from atomic_africa.reference.game import Game
from atomic_africa.game.native.schema_c import render as render_header
from atomic_africa.game.native.snapshot import check_arrays
from atomic_africa.game.observation_doc import render as render_doc
from atomic_africa.game.observation_spec import observation_spec, unit_offset
from atomic_africa.game.saved import SavedGameError
from atomic_africa.game.scenario import ScenarioError, UnitSpec
from atomic_africa.game.schema import LIMIT
from atomic_africa.game.state import Unit


def refused(error, call):
    try:
        call()
    except error as e:
        return str(e)
    raise AssertionError(f"{call} accepted")


# the Python unit and the scenario: read within the Setup's bounds, set up on the unit
assert Unit(uid=0, side=0).morale_bonus == 0 and "morale_bonus" in UnitSpec.__dataclass_fields__
d = default_scenario().to_dict()
d["sides"][0]["units"][0]["morale_bonus"] = 2
spec = GameSpec.build(d)
assert spec.scenario.sides[0].units[0].morale_bonus == 2
assert spec.scenario.to_dict()["sides"][0]["units"][0]["morale_bonus"] == 2
g = Game(spec, 3)
assert g.s.units[0].morale_bonus == 2 and g.s.units[1].morale_bonus == 0
d["sides"][0]["units"][0]["morale_bonus"] = 3
print(refused(ScenarioError, lambda: GameSpec.build(d)))

# saved games: written, read back, checked
g2 = Game.from_json(g.to_json())
assert g2.s.units[0].morale_bonus == 2
s = json.loads(g.to_json())
s["state"]["units"][0]["morale_bonus"] = 4
print(refused(SavedGameError, lambda: Game.from_json(json.dumps(s))))
s["state"]["units"][0]["morale_bonus"] = "2"
print(refused(SavedGameError, lambda: Game.from_json(json.dumps(s))))

# snapshots (arrays of the default scenario from the unchanged engine, one i32 row more)
arrays, n, slot = pickle.load(open(sys.argv[1], "rb"))
default = GameSpec.build(None)
check_arrays(arrays, default, n)
arrays["unit_i32"][0, 18, slot] = 4
print(refused(ValueError, lambda: check_arrays(arrays, default, n)))

# the native engine, not rebuilt, refuses the new layout until it is: the spec file carries the sizes
# and the C loader checks them (no game runs on arrays of another layout)
from atomic_africa.game import VectorGame
import atomic_africa.game.observation_doc as observation_doc
print(refused(ValueError, lambda: VectorGame(default, 1, 0)))
observation_doc.measure = lambda spec, **kw: {   # the document's measured figures need the rebuilt engine
    "games": 0, "decisions": 0, "states": 0, "forced": 0.0, "zero": 0.0,
    "largest": {n: 0.0 for n in ("figures", "markers", "wounds", "turn_markers")}}

# the observation: one float more per slot, described, encoded, documented
C, off = spec.C, unit_offset(spec)
rows = observation_spec(spec)
f = rows[off + 42]
assert (f.name, f.unit, f.high) == ("own0.morale_bonus", "count / 4", np.float32(3 / 4)), f
assert rows[off + C * 43].name == "enemy0.alive" and len(rows) == spec.observation_size
assert g.observation(0)[off + 42] == np.float32(2 / 4)
assert "| 42 | morale_bonus | bonus to Morale rolls | count / 4 | 0 | 0.75 |" in render_doc(default)

# the native declarations to regenerate
assert LIMIT.UNIT_FEATURES == 43
header = render_header()
assert "    F_MORALE_BONUS = 18," in header and "    NI32 = 19," in header
assert "v->morale_bonus = i32 + F_MORALE_BONUS * U;" in header
print("ok")
"""


def test_a_new_unit_field_is_picked_up_by_every_reader_the_observation_and_the_pxi(tmp_path):
    # The package copied with one schema line more (and its observation entry), run in a child
    # process: nothing else of the package is edited. The native engine is not rebuilt, so the
    # snapshot reader is given the arrays of the current engine with the new row added, and the
    # engine refuses a spec file of the new layout (the loader checks the sizes it carries).
    pkg = Path(atomic_africa.__file__).parent
    shutil.copytree(pkg, tmp_path / "atomic_africa", ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / "atomic_africa" / "game" / "schema.py"
    path.write_text(_with_new_field(path.read_text(encoding="utf-8")), encoding="utf-8")
    a = {k: v.copy() for k, v in ARRAYS.items()}
    a["unit_i32"] = np.concatenate([a["unit_i32"], np.zeros_like(a["unit_i32"][:, :1])], axis=1)
    with open(tmp_path / "arrays.pkl", "wb") as fh:
        pickle.dump((a, 2, SLOT), fh)
    # the copied package with the kernels this process runs (not whichever aa_core is installed)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(aa_core.__file__).parents[1])])}
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(_NEW_FIELD_CHECKS), str(tmp_path / "arrays.pkl")],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = p.stdout.splitlines()
    assert lines == [
        "scenario.sides[0].units[0].morale_bonus: 3 is out of range; allowed 0..2",
        "text.state.units[0].morale_bonus: 4 is out of range; allowed 0..3",
        "text.state.units[0].morale_bonus: expected an integer, got str '2'",
        f"state: arrays['unit_i32'][env 0, morale_bonus, slot {SLOT}] = 4; allowed 0..3",
        "spec file: obs_size = 856; allowed 838 (21 head floats + K + 2 C x unit features + features)",
        "ok",
    ], p.stdout
