"""The C core's parameter struct and agent options are declared once (atomic_africa.game.native.params_schema):
the committed C header and Cython include are what the declaration renders, the spec file's field tables
are the declaration's fields, every rules field reaches C, and a spec travels into C one way only (the
spec file's bytes, read by aa_spec_load)."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from atomic_africa.game import VectorGame
from atomic_africa.game.native import params_c, params_schema, spec_file
from atomic_africa.game.native.agent_args import AGENT_PARAM_FIELDS
from atomic_africa.rules import resolve_rules

ROOT = Path(__file__).resolve().parents[1]


def test_committed_header_and_pxi_are_rendered_from_the_declaration():
    for path, text in ((params_c.HEADER_PATH, params_c.render()), (params_c.PXI_PATH, params_c.render_pxi())):
        committed = (ROOT / path).read_text()
        assert committed == text, (
            f"{path} differs from atomic_africa.game.native.params_schema; regenerate it with\n"
            "  PYTHONPATH=python python -m atomic_africa.game.native.params_c\n"
            "  PYTHONPATH=python python -m atomic_africa.game.native.spec_file\n"
            "then rebuild the kernels (python setup.py build_ext --inplace)")


def test_the_drift_check_sees_a_changed_declaration(monkeypatch):
    """A flag added to the declaration changes the header, the Cython include and the spec file's fields."""
    orders = params_schema.ORDERS
    extra = orders._replace(members=orders.members + (params_schema.flag("new_flag", "a rule flag"),))
    sections = tuple((m, extra if s is orders else s) for m, s in params_schema.SECTIONS)
    params = params_schema.PARAMS._replace(members=tuple(
        m._replace(ctype=extra) if m.ctype is orders else m for m in params_schema.PARAMS.members))
    before = params_c.render(), params_c.render_pxi()
    monkeypatch.setattr(params_schema, "SECTIONS", sections)
    monkeypatch.setattr(params_schema, "PARAMS", params)
    monkeypatch.setattr(params_c, "PARAMS", params)
    header, pxi = params_c.render(), params_c.render_pxi()
    assert header != before[0] and re.search(r"\n    int new_flag; +/\* a rule flag \*/\n", header)
    assert pxi != before[1] and "bint new_flag" in pxi
    assert "orders.new_flag" in [f.path for f in params_schema.spec_param_fields()]


def test_the_header_and_pxi_hold_the_structs_the_core_reads():
    header, pxi = (ROOT / params_c.HEADER_PATH).read_text(), (ROOT / params_c.PXI_PATH).read_text()
    for c, cy in (("aa_params", "Params"), ("aa_movement_params", "MovementParams"), ("aa_tables", "Tables"),
                  ("aa_orders_params", "OrdersParams"), ("aa_agent_params", "AgentParams")):
        assert f"typedef struct {c} {{" in header and f"}} {c};" in header, c
        assert f'ctypedef struct {cy} "{c}":' in pxi, cy
    engine_h = (ROOT / "src/aa_core/csrc/aa_engine.h").read_text()
    assert '#include "aa_params.h"' in engine_h
    assert "typedef struct aa_params" not in engine_h and "typedef struct aa_agent_params" not in engine_h
    vgame_pxd = (ROOT / "src/aa_core/vgame.pxd").read_text()
    assert 'include "vgame_params.pxi"' in vgame_pxd and '"aa_params"' not in vgame_pxd


def test_the_spec_file_fields_are_the_declarations():
    assert spec_file.PARAM_FIELDS == params_schema.spec_param_fields()
    assert spec_file.TABLE_FIELDS == params_schema.spec_table_fields()
    paths = [f.path for f in spec_file.PARAM_FIELDS]
    assert len(paths) == len(set(paths))
    # every number member of every section is in the file (C, U, ... base, movement, ... terrain)
    for member, struct in params_schema.SECTIONS:
        for m in struct.members:
            if m.external is None:
                assert f"{member}.{m.name}" in paths, (member, m.name)


def test_every_rules_field_of_a_section_reaches_c():
    """Each rules section's own fields keep their rules names in the struct (a field the C core does not
    read is named here, with why)."""
    rules = resolve_rules(None)
    cards = {"deck_cards", "jokers", "basic_max_rank", "joker_basic_value"}   # the card tables (aa_tables)
    not_in_c = {
        "movement": set(),
        "orders": cards | {"experience_bonus", "hand_units"},   # draw_bonus, hand_fixed (derived)
        "rally": set(),
        "call_for_fire": {"clock_zero_deg"},   # clock_zero_rad
        "cleanup": {"shattered_split_die",     # shattered_if_morale_only
                    "morale_success"},         # one value allowed ("above_markers"): the rule's code is it
        "dice": {"wound_shift_infantry", "wound_shift_vehicle"},   # shift_attr
        "fire": {"armor_floor", "cover_armor_bonus", "markers_beyond_damage", "markers_beyond_range",
                 "turn_marker_cap", "vehicle_markers_beyond_damage", "vehicle_markers_beyond_range",
                 "vehicle_turn_marker_cap",    # fire.rules (aa_fire_rules: Rules.fire_params)
                 "los_edge_depth_cm"},         # terrain.edge_depth
    }
    for section, skip in not_in_c.items():
        struct = dict(params_schema.SECTIONS)[section]
        names = {m.name for m in struct.members}
        own = {f.name for f in dataclasses.fields(getattr(rules, section))}
        missing = own - names - skip
        assert not missing, f"rules.{section}: {sorted(missing)} declared in the rules, not in {struct.c}"


def test_agent_options_are_declared_once():
    assert AGENT_PARAM_FIELDS == tuple(m.name for m in params_schema.AGENT_PARAMS.members)
    from atomic_africa.agents.native import agent_params
    assert set(agent_params()) == set(AGENT_PARAM_FIELDS)
    assert re.search(r"typedef struct aa_agent_params \{.*?\} aa_agent_params;",
                     (ROOT / params_c.HEADER_PATH).read_text(), flags=re.S)


def test_one_transport_carries_a_spec_into_c():
    """The batch engine fills its Params from the spec file's bytes (aa_spec_load), never field by field
    from dicts: vbatch.pyx names no Params section, and a VectorGame plays the spec file's battle."""
    vbatch = (ROOT / "src/aa_core/vbatch.pyx").read_text()
    for section in ("movement", "orders", "call_for_fire", "cleanup"):
        assert f'params["{section}"]' not in vbatch, section
    assert "aa_spec_load" in vbatch
    vg = VectorGame(num_envs=2, seed=3)
    obs, _ = vg.reset()
    assert obs.shape == (2, vg.observation_size)


def _c_struct_fields(text: str, name: str) -> list:
    body = re.search(rf"typedef struct {name} \{{(.*?)\}} {name};", re.sub(r"/\*.*?\*/", "", text, flags=re.S),
                     flags=re.S).group(1)
    return [re.findall(r"\w+", part)[-1] for decl in body.split(";") if decl.strip() for part in decl.split(",")]


def test_the_c_apis_agent_options_are_the_declarations():
    """The public C API's option structs (include/atomic_africa.h, ABI-frozen and hand-written) hold the
    declared agent options, in order: the greedy and doctrine agents' in aa_agent_options, the search's
    in aa_search_options; and its defaults are the Python agents' (aa_api.c)."""
    from atomic_africa.agents.native import agent_params
    api = (ROOT / "src/aa_core/include/atomic_africa.h").read_text()
    members = params_schema.AGENT_PARAMS.members
    assert _c_struct_fields(api, "aa_agent_options") == [
        m.name for m in members if m.doc.startswith(("GreedyAgent", "DoctrineAgent"))]
    assert _c_struct_fields(api, "aa_search_options") == [m.name for m in members if m.doc.startswith("ISMCTSAgent")]
    source = (ROOT / "src/aa_core/csrc/aa_api.c").read_text()
    defaults = agent_params()
    agent = re.search(r"default_options = \{([^}]*)\}", source).group(1).split(",")
    assert [float(x) for x in agent] == [defaults[k] for k in _c_struct_fields(api, "aa_agent_options")]
    search = re.search(r"default_search = \{([^}]*)\}", source).group(1).split(",")
    names = _c_struct_fields(api, "aa_search_options")
    assert [float(x) for k, x in zip(names, search) if k != "rollout"] == [
        defaults[k] for k in names if k != "rollout"]
