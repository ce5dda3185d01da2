"""The players' rules reference (RULES.md, ``atomic-africa rules``) and the editable copies."""
import re
import tomllib
from pathlib import Path

import pytest

import atomic_africa as aa
from atomic_africa.cli import main
from atomic_africa.game import load_scenario
from atomic_africa.rules_reference import (field_tags, format_value, packaged_rules_toml, render,
                                           template_fields)

ROOT = Path(__file__).resolve().parents[1]


def _leaves(data: dict) -> list:
    """Every field of the rules data as "section.field" ("table5.row.field" for Table 5)."""
    out = []
    for section, fields in data.items():
        for name, value in fields.items():
            if section == "table5":
                out += [f"table5.{name}.{k}" for k in value]
            else:
                out.append(f"{section}.{name}")
    return out


def test_committed_rules_md_is_the_rendered_reference():
    assert (ROOT / "RULES.md").read_text(encoding="utf-8") == render(), \
        "RULES.md is stale: regenerate it with  atomic-africa rules > RULES.md"


def test_every_rules_field_appears_once_in_the_template():
    paths = [p for p, _ in template_fields()]
    data = aa.Rules.default().to_dict()
    expected = {leaf for leaf in _leaves(data) if not leaf.startswith("table5.")}
    assert sorted(p for p in paths if p != "table5") == sorted(expected)   # once each, none unknown
    assert paths.count("table5") == 1


def test_every_value_is_printed_with_its_tag_from_the_rules_file():
    text = render()
    raw = packaged_rules_toml()
    fmts = dict(template_fields())
    data = aa.Rules.default().to_dict()
    for leaf in _leaves(data):
        if leaf.startswith("table5."):
            continue
        section, name = leaf.split(".")
        # The tag written on the field's own line of rules.toml, read independently of the module.
        line = next(ln for ln in raw.splitlines() if re.match(rf"{name}\s*=", ln)
                    and _section_of(raw, ln) == section)
        tag = re.search(r"\[(seed|src|default)[^\]]*\]", line.partition("#")[2]).group(0)
        assert f"{format_value(data[section][name], fmts[leaf])} {tag} (`{leaf}`)" in text, leaf


def _section_of(raw: str, line: str) -> str:
    section = ""
    for ln in raw.splitlines():
        header = re.match(r"\[([a-z0-9_.]+)\]", ln)
        if header:
            section = header.group(1)
        if ln == line:
            return section
    raise AssertionError(line)


def test_table5_rows_show_their_values_reading_and_tag():
    text = render()
    tags = field_tags()
    for key, row in aa.Rules.default().to_dict()["table5"].items():
        line = next(ln for ln in text.splitlines() if f"(`table5.{key}`)" in ln)
        for value in row.values():
            assert f"`{value}`" in line
        assert tags[f"table5.{key}.single"] in line
    dig_in = next(ln for ln in text.splitlines() if "(`table5.dig_in`)" in ln)
    assert "[seed] roles; [default] which die per posture" in dig_in
    assert "`high`: Attack = high; Defense = low + mid" in dig_in
    mass = next(ln for ln in text.splitlines() if "(`table5.mass_fire`)" in ln)
    assert "`low`: Defense = low; two Attacks = mid, high" in mass


def test_every_field_has_a_tag():
    tags = field_tags()
    for leaf in _leaves(aa.Rules.default().to_dict()):
        assert re.fullmatch(r"\[(seed|src|default).*", tags[leaf]), leaf


def test_custom_rules_show_their_values_and_the_packaged_ones(tmp_path, capsys):
    text = packaged_rules_toml().replace("armor_floor = 1 ", "armor_floor = 2 ")
    mine = tmp_path / "my_rules.toml"
    mine.write_text(text)
    assert main(["rules", "--rules", str(mine)]) == 0
    out = capsys.readouterr().out
    assert "**2** [your value; packaged: **1** [default]] (`fire.armor_floor`)" in out
    assert "**2** [seed] (`fire.turn_marker_cap`)" in out      # unchanged values keep their tag
    assert out == render(aa.Rules.from_toml(mine))


def test_rules_command_prints_the_reference(capsys):
    assert main(["rules"]) == 0
    assert capsys.readouterr().out == render()


def test_dump_toml_is_an_editable_copy_that_loads_back(tmp_path, capsys):
    assert main(["rules", "--dump-toml"]) == 0
    out = capsys.readouterr().out
    assert out == packaged_rules_toml()
    assert sum(1 for ln in out.splitlines() if "#" in ln) > 80
    copy = tmp_path / "my.toml"
    copy.write_text(out)
    assert aa.Rules.from_toml(copy) == aa.Rules.default()
    # Edited, it is a variant the commands accept.
    copy.write_text(out.replace("armor_floor = 1 ", "armor_floor = 3 "))
    assert aa.Rules.from_toml(copy).fire.armor_floor == 3


def test_dump_toml_refuses_a_custom_rules_file(tmp_path, capsys):
    copy = tmp_path / "r.toml"
    copy.write_text(packaged_rules_toml())
    assert main(["rules", "--dump-toml", "--rules", str(copy)]) == 2
    assert "--dump-toml:" in capsys.readouterr().err


def test_scenario_template_loads_and_names_its_fields(tmp_path, capsys):
    assert main(["scenario", "--template"]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "my_scenario.toml"
    path.write_text(out)
    scenario = load_scenario(path)
    assert scenario.name == "Crossroads skirmish" and len(scenario.sides) == 2
    assert scenario.sides[0].fire_support and any(u.heavy_weapon for u in scenario.sides[1].units)
    # The fields of the hand and of armoured features are shown too, and read.
    assert scenario.sides[1].hand_size == 3 and scenario.sides[0].hand_size is None
    assert any(u.attached and u.kind != aa.UnitKind.VEHICLE for u in scenario.sides[0].units)
    assert any(t.armor > 0 for t in scenario.terrain)
    # Every optional field of a unit is shown with a comment.
    raw = tomllib.loads(out)
    unit_keys = {k for side in raw["sides"] for u in side["units"] for k in u}
    assert unit_keys >= {"name", "kind", "figures", "dice", "armor", "position", "heavy_weapon",
                         "spotter", "comms", "commander", "markers", "wounds", "attached"}
    keys = ("turns", "width_cm", "shape", "cover", "blocks_los", "experience", "hand_size") + tuple(unit_keys)
    for key in keys:   # the first time each field appears, a comment explains it
        first = next(ln for ln in out.splitlines() if re.match(rf"{key}\s*=", ln))
        assert "#" in first, key
    assert main(["battle", "--scenario", str(path), "--quiet", "--seed", "1"]) == 0
    assert "Result:" in capsys.readouterr().out


def test_scenario_needs_template(capsys):
    with pytest.raises(SystemExit):
        main(["scenario"])
    assert "--template" in capsys.readouterr().err


def test_format_value_rejects_an_unknown_format():
    with pytest.raises(ValueError, match="format: 'km'"):
        format_value(1.0, "km")


def test_help_texts_point_to_commands_not_files():
    from atomic_africa.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    texts = [parser.format_help()] + [p.format_help() for p in sub.choices.values()]
    for text in texts:
        assert "RULES.md" not in text and "atomic_africa/data" not in text
    assert "atomic-africa rules --dump-toml" in sub.choices["fire"].format_help()


def test_the_rules_page_states_the_surprising_readings():
    # Documented readings a player would not guess (issue 23), each in the section it belongs to.
    text = render()
    sections = {m.group(1): m.group(2) for m in re.finditer(r"^## (\d)\. .*?\n(.*?)(?=^## |\Z)", text, re.M | re.S)}
    flat = {k: " ".join(v.split()) for k, v in sections.items()}
    assert "a headquarters that moves onto another unit loses its radio" in flat["5"]
    assert "may end its move on or next to an enemy unit" in flat["5"]
    assert "one shot can flatten a building" in flat["4"]
