"""The native engine's Params built from the rules sections by name (game/native_params.py): each
section's own fields pass through unchanged, the derived ones are added and padded to the C array
sizes, a missing field or a size past the engine's limits is a clear error, and the spec file carries them
into C (the one transport)."""
import math

import pytest

from atomic_africa import Rules
from atomic_africa.game import GameSpec, VectorGame
from atomic_africa.game.native import spec_file
from atomic_africa.game.native.layout import unit_templates
from atomic_africa.game.native.params import native_params
from atomic_africa.game.schema import LIMIT


def _params(rules=None):
    return native_params(GameSpec.build(None, rules))


# Rules fields the C struct holds converted (an enum name becomes its value).
CONVERTED = {"bystander_posture", "support_action", "support_posture"}


def test_rules_fields_pass_through_by_name():
    rules = Rules.default().replace(movement={"increment_cm": 3.25}, rally={"markers_removed": 3},
                                    cleanup={"split_offset_cm": 1.75})
    params, _ = _params(rules)
    for section in ("movement", "orders", "rally", "call_for_fire", "cleanup", "dice", "fire"):
        own = getattr(rules, section).to_dict()
        for name, value in params[section].items():
            if name in own and name not in CONVERTED and not isinstance(value, list):
                assert value == own[name], f"{section}.{name}"
    assert params["movement"]["increment_cm"] == 3.25
    assert params["rally"]["markers_removed"] == 3
    assert params["cleanup"]["split_offset_cm"] == 1.75


def test_derived_arrays_are_padded_to_the_c_sizes():
    rules = Rules.default()
    params, tables = _params(rules)
    m, cff = params["movement"], params["call_for_fire"]
    n = len(rules.movement.distance_fractions)
    assert len(m["distance_fractions"]) == LIMIT.MAX_FRACS and m["n_fractions"] == n
    assert m["distance_fractions"][:n] == list(rules.movement.distance_fractions)
    assert len(m["dir_angle"]) == LIMIT.MAX_DIRECTIONS
    assert len(cff["clock_angle"]) == LIMIT.MAX_CLOCK
    assert cff["clock_zero_rad"] == math.radians(rules.call_for_fire.clock_zero_deg)
    assert len(params["dice"]["ladder"]) == LIMIT.MAX_LADDER
    assert params["dice"]["ladder"][:params["dice"]["n_ladder"]] == list(rules.dice.ladder)
    assert len(params["fire"]["band_edges_cm"]) == LIMIT.MAX_EDGES
    for side in range(2):
        assert len(cff["asset_dice"][side]) == len(cff["asset_ap"][side]) == LIMIT.MAX_ASSETS
    assert all(a.flags.c_contiguous and a.size >= 1 for a in tables.values())


def _payload(params, tables):
    """The spec file's payload of these parameters (the one transport of Params into C)."""
    spec = GameSpec.build(None, Rules.default())
    return spec_file.payload_of(params, {**tables, **unit_templates(spec.initial_units(), spec.C)})


def test_a_missing_section_field_names_it():
    params, tables = _params()
    del params["movement"]["vehicles_merge"]
    with pytest.raises(ValueError, match="movement.vehicles_merge: missing"):
        _payload(params, tables)


def test_a_short_array_field_is_refused():
    params, tables = _params()
    params["dice"]["ladder"] = params["dice"]["ladder"][:3]
    with pytest.raises(ValueError, match="dice.ladder: 3 values, the spec format holds 8"):
        _payload(params, tables)


def test_the_payload_of_the_params_is_the_spec_file_the_engine_loads():
    params, tables = _params()
    assert spec_file.wrap(_payload(params, tables)) == spec_file.compile_spec(None, Rules.default())


def test_sizes_past_the_native_limits_name_the_field():
    # The rules validator bounds these fields at the native limits, so the refusal comes when the
    # rules are built; either way it names the field and the largest allowed value.
    with pytest.raises(ValueError, match=r"rules\.movement\.directions: 65 .*\b64\b"):
        VectorGame(None, 1, 0, rules=Rules.default().replace(movement={"directions": LIMIT.MAX_DIRECTIONS + 1}))
    with pytest.raises(ValueError, match=r"rules\.fire\.band_edges_cm: .*\b32\b"):
        VectorGame(None, 1, 0, rules=Rules.default().replace(
            fire={"band_edges_cm": list(range(1, LIMIT.MAX_EDGES + 2))}))
