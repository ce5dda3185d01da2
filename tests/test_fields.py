"""One wording for bad fields of data files: the rules loader, the scenario loader and the API agree."""
from __future__ import annotations

import re
import tomllib
from importlib import resources

import pytest

import atomic_africa as aa
from atomic_africa import _validate as v
from atomic_africa._fields import Fields
from atomic_africa.game import Scenario, ScenarioError


def _data(name: str) -> dict:
    return tomllib.loads(resources.files("atomic_africa").joinpath(f"data/{name}").read_text("utf-8"))


def _rules_error(mutate) -> str:
    d = _data("rules.toml")
    mutate(d)
    with pytest.raises(aa.RulesError) as info:
        aa.Rules.from_dict(d)
    return str(info.value)


def _scenario_error(mutate) -> str:
    d = _data("scenarios/default.toml")
    mutate(d)
    with pytest.raises(ScenarioError) as info:
        Scenario.from_dict(d)
    return str(info.value)


def _unit0(d):
    return d["sides"][0]["units"][0]


def _set(table, key, value):
    table[key] = value


# One mistake of each kind, made in a rules file and in a scenario file: (kind, rules mutation, rules
# message, scenario mutation, scenario message). The same kind of mistake gets the same sentence.
SAME_MISTAKE = [
    ("integer of the wrong type",
     lambda d: _set(d["fire"], "armor_floor", "1"), "rules.fire.armor_floor: expected an integer, got str '1'",
     lambda d: _set(d, "turns", "1"), "scenario.turns: expected an integer, got str '1'"),
    ("integer below its range",
     lambda d: _set(d["fire"], "armor_floor", 0), "rules.fire.armor_floor: 0 is out of range; allowed >= 1",
     lambda d: _set(_unit0(d), "armor", 0), "scenario.sides[0].units[0].armor: 0 is out of range; allowed 1..100"),
    ("integer above its range",
     lambda d: _set(d["movement"], "directions", 65),
     "rules.movement.directions: 65 is out of range; allowed 1..64",
     lambda d: _set(d, "turns", 1001), "scenario.turns: 1001 is out of range; allowed 1..1000"),
    ("a bool as an integer",
     lambda d: _set(d["rally"], "self_range", True), "rules.rally.self_range: expected an integer, got bool True",
     lambda d: _set(_unit0(d), "figures", True),
     "scenario.sides[0].units[0].figures: expected an integer, got bool True"),
    ("number not positive",
     lambda d: _set(d["movement"], "increment_cm", -4.5),
     "rules.movement.increment_cm: -4.5 is out of range; allowed finite values > 0 and <= 10000",
     lambda d: _set(d["table"], "width_cm", -4.5),
     "scenario.table.width_cm: -4.5 is out of range; allowed finite values > 0 and <= 10000"),
    ("number not finite",
     lambda d: _set(d["cleanup"], "split_offset_cm", float("inf")),
     "rules.cleanup.split_offset_cm: inf is out of range; allowed finite values > 0 and <= 10000",
     lambda d: _set(d["terrain"][2], "radius", float("inf")),
     "scenario.terrain[2].radius: inf is out of range; allowed finite values > 0 and <= 10000"),
    ("number of the wrong type",
     lambda d: _set(d["call_for_fire"], "clock_zero_deg", "north"),
     "rules.call_for_fire.clock_zero_deg: expected a number, got str 'north'",
     lambda d: _set(d["table"], "height_cm", "tall"), "scenario.table.height_cm: expected a number, got str 'tall'"),
    ("bool of the wrong type",
     lambda d: _set(d["movement"], "vehicles_merge", "yes"),
     "rules.movement.vehicles_merge: expected true or false, got str 'yes'",
     lambda d: _set(_unit0(d), "spotter", "yes"),
     "scenario.sides[0].units[0].spotter: expected true or false, got str 'yes'"),
    ("string outside its choices",
     lambda d: _set(d["orders"], "hand_units", "game"),
     "rules.orders.hand_units: unknown value 'game'; allowed: 'setup', 'turn'",
     lambda d: _set(d["sides"][0], "experience", "expert"),
     "scenario.sides[0].experience: unknown value 'expert'; allowed: 'green', 'regular', 'veteran', 'elite'"),
    ("choice of the wrong type",
     lambda d: _set(d["orders"], "hand_units", 1),
     "rules.orders.hand_units: expected a string, got int 1; allowed: 'setup', 'turn'",
     lambda d: _set(d["terrain"][0], "shape", 1),
     "scenario.terrain[0].shape: expected a string, got int 1; allowed: 'polygon', 'circle'"),
    ("unknown field",
     lambda d: _set(d["rally"], "bogus", 1),
     "rules.rally.bogus: unknown field; allowed: comms_range_penalty, markers_removed, self_range",
     lambda d: _set(d["table"], "depth_cm", 1),
     "scenario.table.depth_cm: unknown field; allowed: height_cm, width_cm"),
    ("missing field",
     lambda d: d["rally"].pop("self_range"), "rules.rally.self_range: missing field",
     lambda d: d["table"].pop("width_cm"), "scenario.table.width_cm: missing field"),
    ("table of the wrong type",
     lambda d: _set(d, "rally", [1]), "rules.rally: expected a table, got list [1]",
     lambda d: _set(d, "table", [1]), "scenario.table: expected a table, got list [1]"),
    ("list of the wrong length",
     lambda d: _set(d["fire"], "cover_armor_bonus", [0, 1]),
     "rules.fire.cover_armor_bonus: expected a list of 3 integers, got a list of 2",
     lambda d: _set(_unit0(d), "dice", ["d8", "d8"]),
     "scenario.sides[0].units[0].dice: expected three dice (Training, Equipment, Morale), got a list of 2"),
    ("list of the wrong type",
     lambda d: _set(d["fire"], "cover_armor_bonus", 3),
     "rules.fire.cover_armor_bonus: expected a list of 3 integers, got int 3",
     lambda d: _set(_unit0(d), "position", 3),
     "scenario.sides[0].units[0].position: expected a point [x, y] in cm, got int 3"),
    ("list item of the wrong type",
     lambda d: _set(d["fire"], "band_edges_cm", [20, "far"]),
     "rules.fire.band_edges_cm[1]: expected a number, got str 'far'",
     lambda d: _set(_unit0(d), "position", [20, "far"]),
     "scenario.sides[0].units[0].position[1]: expected a number, got str 'far'"),
]


def _shape(message: str) -> str:
    """The sentence without the path and the particular values: what must agree across loaders."""
    tail = message.split(": ", 1)[1]
    tail = re.sub(r"allowed:? .*", "allowed <range>", tail)
    tail = re.sub(r"^expected .*?, got", "expected <what>, got", tail)
    return re.sub(r"-?\d+(\.\d+)?|inf|'[^']*'|\[.*\]|True", "<v>", tail)


@pytest.mark.parametrize("kind, rules_mut, rules_msg, scenario_mut, scenario_msg", SAME_MISTAKE,
                         ids=[case[0] for case in SAME_MISTAKE])
def test_the_same_mistake_reads_the_same_in_rules_and_scenario_files(kind, rules_mut, rules_msg,
                                                                      scenario_mut, scenario_msg):
    got_rules = _rules_error(rules_mut)
    got_scenario = _scenario_error(scenario_mut)
    assert got_rules == rules_msg
    assert got_scenario == scenario_msg
    assert _shape(got_rules) == _shape(got_scenario)


def test_file_fields_and_api_arguments_share_the_wording():
    f = Fields(aa.RulesError, "rules")
    for value, lo, hi in ((0, 1, None), (11, 1, 10), (1, None, 0), ("3", 1, None), (True, 0, 1), (2.0, 0, 9)):
        with pytest.raises(aa.RulesError) as from_file:
            f.integer("fire.armor_floor", value, lo, hi)
        with pytest.raises((TypeError, ValueError)) as from_api:
            v.as_int(value, "rules.fire.armor_floor", lo, hi)
        assert str(from_file.value) == str(from_api.value)
    # and the range wording of a whole array is the API's, too
    with pytest.raises(ValueError, match=r"^armor: value 0 is out of range; allowed >= 1$"):
        v.check_range(v.int_array([2, 0], "armor"), "armor", 1, v.MAX_VALUE)


class _FileError(ValueError):
    pass


# Every checker with a bad value: (method, arguments after the path, what the message starts with after
# the file's name[, keyword arguments]). The path is "sec.fld" in every case.
BAD_CALLS = [
    ("integer", ("x",), "sec.fld: "),
    ("integer", (5, 0, 3), "sec.fld: "),
    ("number", (None,), "sec.fld: "),
    ("number", (float("nan"),), "sec.fld: "),
    ("number", (-1.0,), "sec.fld: ", {"positive": True}),
    ("number", (-1.0,), "sec.fld: ", {"lo": 0}),
    ("boolean", (0,), "sec.fld: "),
    ("string", (4,), "sec.fld: "),
    ("choice", ("c", ("a", "b")), "sec.fld: "),
    ("choice", (None, ("a", "b")), "sec.fld: "),
    ("die", ("d7",), "sec.fld: "),
    ("array", ({}, "a list"), "sec.fld: "),
    ("array", ([1], "a pair"), "sec.fld: ", {"length": 2}),
    ("array", ([], "a non-empty list"), "sec.fld: ", {"min_length": 1}),
    ("array", ((1, 2), "a list"), "sec.fld: ", {"kinds": list}),
    ("int_list", ([1, "2"],), "sec.fld[1]: "),
    ("int_list", ("12",), "sec.fld: "),
    ("int_list", ([1, -1],), "sec.fld[1]: ", {"lo": 0}),
    ("int_list", ([1],), "sec.fld: ", {"length": 3}),
    ("number_list", ([1.0, None],), "sec.fld[1]: "),
    ("point", ([1.0],), "sec.fld: "),
    ("point", ([1.0, "y"],), "sec.fld[1]: "),
    ("table", (5, ("a",)), "sec.fld: "),
    ("table", ({}, ("a",)), "sec.fld.a: "),
    ("table", ({"a": 1, "z": 2}, ("a",)), "sec.fld.z: "),
    ("fail", ("does not add up",), "sec.fld: "),
    ("expected", ("a table", 3), "sec.fld: "),
]


@pytest.mark.parametrize("call", BAD_CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_CALLS)])
def test_every_checker_names_the_path_and_raises_the_loaders_error(call):
    method, args, start, kwargs = (*call, {})[:4]
    with pytest.raises(_FileError) as info:
        getattr(Fields(_FileError, "myfile"), method)("sec.fld", *args, **kwargs)
    assert str(info.value).startswith("myfile." + start)


def test_every_checker_is_exercised_above():
    checkers = {name for name in vars(Fields) if not name.startswith("_") and name != "name"}
    assert checkers == {c[0] for c in BAD_CALLS}


def test_checkers_return_the_checked_values_as_the_loaders_store_them():
    f = Fields(_FileError, "f")
    assert f.integer("p", 3, 1, 3) == 3
    assert f.number("p", 2) == 2.0 and type(f.number("p", 2)) is float
    assert f.number("p", 0, lo=0) == 0.0
    assert f.choice("p", "Light", ("none", "light"), fold_case=True) == "light"
    with pytest.raises(_FileError, match=r"^f\.p: unknown value 'Light'; allowed: 'none', 'light'$"):
        f.choice("p", "Light", ("none", "light"))  # case matters unless fold_case
    assert f.die("p", " D10 ") == 10 and f.die("p", 6) == 6
    assert f.int_list("p", [0, 2], lo=0) == (0, 2)
    assert f.number_list("p", (1, 2.5)) == (1.0, 2.5)
    assert f.point("p", [1, 2]) == (1.0, 2.0)
    assert f.table("p", {"a": 1}, ("a",), ("b",)) == {"a": 1}
    assert Fields(_FileError, "f").name("") == "f"


def test_each_loader_raises_its_own_value_error():
    with pytest.raises(aa.RulesError, match=r"^rules: expected a table, got list \[\]$") as r:
        aa.Rules.from_dict([])
    with pytest.raises(ScenarioError, match=r"^scenario: expected a table, got list \[\]$") as s:
        Scenario.from_dict([])
    assert isinstance(r.value, ValueError) and not isinstance(r.value, ScenarioError)
    assert isinstance(s.value, ValueError) and not isinstance(s.value, aa.RulesError)
