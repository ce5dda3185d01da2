"""The engines' limits are written once, in ``atomic_africa._limits``: no other module of the package
writes a ``MAX_*`` number, the native engine's declarations are generated from them, and the
validators refuse one past each size a scenario may have, naming the field."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import atomic_africa
from atomic_africa import _limits
from atomic_africa.game import ScenarioError, default_scenario
from atomic_africa.game.native.schema_c import render
from atomic_africa.game.scenario import Scenario
from atomic_africa.game.schema import LIMIT, LIMITS

PACKAGE = Path(atomic_africa.__file__).parent
#: ``MAX_*`` numbers that are not limits of the engines: what the command line accepts and draws,
#: and the largest request the play server reads.
NOT_ENGINE_LIMITS = {"cli/common.py": {"MAX_COUNT"}, "cli/render.py": {"MAX_DPI"},
                     "play/server.py": {"MAX_BODY", "MAX_LOAD_BODY", "MAX_HEAD", "MAX_JSON_DEPTH"}}


def _numbers_only(node) -> bool:
    """Whether an expression is made of number literals alone (``1 << 30``, ``2**24``, ``100``)."""
    return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Tuple,
                              ast.Load))
               and (not isinstance(n, ast.Constant) or isinstance(n.value, (int, float)))
               for n in ast.walk(node))


def _written_limits(path: Path, literals: bool = True) -> set:
    """Names ``MAX_*`` (or ``_MAX_*``) a module assigns, at module level, a number literal to (or, with
    ``literals`` False, anything)."""
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and (_numbers_only(node.value) or not literals):
            for t in node.targets:
                names = t.elts if isinstance(t, ast.Tuple) else [t]
                out |= {n.id for n in names if isinstance(n, ast.Name) and n.id.lstrip("_").startswith("MAX_")}
    return out


def test_no_module_but_limits_writes_a_limit():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        names = _written_limits(path) - NOT_ENGINE_LIMITS.get(rel, set())
        if names and rel != "_limits.py":
            found[rel] = sorted(names)
    assert found == {}, "write these limits in atomic_africa/_limits.py and import them from there"
    assert _written_limits(PACKAGE / "_limits.py", literals=False) == set(_limits.__all__) - {"Limit", "NATIVE_LIMITS"}


def test_the_native_limits_are_generated_from_the_limits_module():
    native = {x.name: x.value for x in _limits.NATIVE_LIMITS}
    assert LIMITS[:len(_limits.NATIVE_LIMITS)] == _limits.NATIVE_LIMITS
    text = render()
    for x in LIMITS:
        assert f"\n    {x.name} = {x.value}," in text, x
    # the validators' names for the same sizes
    assert native["MAX_ASSETS"] == _limits.MAX_ASSETS and native["MAX_FEATURES"] == _limits.MAX_FEATURES
    assert native["MAX_FRACS"] == _limits.MAX_FRACTIONS and native["MAX_EDGES"] == _limits.MAX_BAND_EDGES
    assert native["MAX_CLOCK"] == _limits.MAX_SCATTER_DIE + 1 and LIMIT.MAX_DIRECTIONS == _limits.MAX_DIRECTIONS
    assert _limits.MAX_TARGETS >= max(_limits.MAX_SLOTS_TOTAL, _limits.MAX_FEATURES)
    assert _limits.MAX_DECK <= _limits.MAX_CARDS


def _scenario(edit) -> dict:
    d = default_scenario().to_dict()
    edit(d)
    return d


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["sides"][0].__setitem__("units", d["sides"][0]["units"][:1] * (_limits.MAX_UNITS + 1)),
     rf"^scenario\.sides\[0\]\.units: .*got a list of {_limits.MAX_UNITS + 1}; allowed at most {_limits.MAX_UNITS}$"),
    (lambda d: d["sides"][1].__setitem__("fire_support", [{"dice": ["d6"] * 3, "ap": 0, "blast_radius_cm": 5.0}]
                                         * (_limits.MAX_ASSETS + 1)),
     rf"^scenario\.sides\[1\]\.fire_support: .*got a list of {_limits.MAX_ASSETS + 1}; allowed at most "
     rf"{_limits.MAX_ASSETS}$"),
    (lambda d: d.__setitem__("terrain", d["terrain"][:1] * (_limits.MAX_FEATURES + 1)),
     rf"^scenario\.terrain: .*got a list of {_limits.MAX_FEATURES + 1}; allowed at most {_limits.MAX_FEATURES}$"),
    (lambda d: d["terrain"].__setitem__(0, {"shape": "polygon", "cover": "light", "blocks_los": False,
                                            "points": [[1.0, 1.0]] * (_limits.MAX_POLYGON_POINTS + 1)}),
     rf"^scenario\.terrain\[0\]\.points: .*allowed at most {_limits.MAX_POLYGON_POINTS}$"),
    (lambda d: d["sides"][0]["units"][0].__setitem__("armor", _limits.MAX_ARMOR + 1),
     rf"^scenario\.sides\[0\]\.units\[0\]\.armor: {_limits.MAX_ARMOR + 1} is out of range; allowed 1\.\.100$"),
    (lambda d: d.__setitem__("turns", _limits.MAX_COUNT + 1),
     rf"^scenario\.turns: {_limits.MAX_COUNT + 1} is out of range; allowed 1\.\.{_limits.MAX_COUNT}$"),
])
def test_scenarios_are_refused_one_past_each_limit(edit, message):
    with pytest.raises(ScenarioError, match=message):
        Scenario.from_dict(_scenario(edit))
