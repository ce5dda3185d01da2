"""Rules data: packaged defaults, TOML loading, validation errors naming the field, overrides."""
from __future__ import annotations

import dataclasses
import pickle
import tomllib
from importlib import resources

import numpy as np
import pytest

import atomic_africa as aa


def test_default_rules_hold_the_published_and_default_values(rules):
    assert rules.dice.ladder == (4, 6, 8, 10, 12)
    assert rules.fire.band_edges_cm == (27.0, 45.0, 58.5, 72.0, 81.0, 90.0, 94.5, 99.0)
    assert rules.fire.cover_armor_bonus == (0, 1, 2)
    assert rules.fire.armor_floor == 1
    assert (rules.fire.turn_marker_cap, rules.fire.vehicle_turn_marker_cap) == (2, 1)
    assert (rules.movement.increment_cm, rules.movement.vehicle_increment_cm) == (4.5, 9.0)
    assert rules.orders.deck_cards + rules.orders.jokers == 54
    assert rules.orders.experience_bonus == {"green": 0, "regular": 1, "veteran": 2, "elite": 3}
    assert rules.table5["basic"].offensive == "low" and rules.table5["dig_in"].single == "attack"


def test_default_is_frozen_and_cached(rules):
    assert aa.Rules.default() is rules
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.fire = None
    with pytest.raises(ValueError):
        rules.band_edges[0] = 1.0  # read-only kernel parameters


def test_round_trip_toml_dict_pickle(tmp_path, rules):
    text = resources.files("atomic_africa").joinpath("data/rules.toml").read_text()
    path = tmp_path / "rules.toml"
    path.write_text(text)
    loaded = aa.Rules.from_toml(path)
    assert loaded == rules
    assert aa.Rules.from_dict(rules.to_dict()) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert hash(loaded) == hash(rules)


def _write(tmp_path, mutate):
    text = resources.files("atomic_africa").joinpath("data/rules.toml").read_text()
    data = tomllib.loads(text)
    mutate(data)
    return aa.Rules.from_dict(data)


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: d["fire"].update(band_edges_cm=[27, 20, 50]), "fire.band_edges_cm", "increasing"),
    (lambda d: d["fire"].update(armor_floor=0), "fire.armor_floor", "0 is out of range; allowed >= 1"),
    (lambda d: d["fire"].update(armor_floor="1"), "fire.armor_floor", "expected an integer, got str '1'"),
    (lambda d: d["fire"].pop("turn_marker_cap"), "fire.turn_marker_cap", "missing"),
    (lambda d: d["fire"].update(bogus=1), "fire.bogus", "unknown"),
    (lambda d: d["dice"].update(ladder=[4, 6, 7]), "dice.ladder", "d12"),
    (lambda d: d["dice"].update(shattered_die=6, ladder=[8, 10]), "dice.shattered_die", "ladder"),
    (lambda d: d["table5"]["basic"].update(offensive="middle"), "table5.basic.offensive", "allowed: 'low', 'high'"),
    (lambda d: d["table5"]["rally"].update(pair="defense", single="defense"), "table5.rally.pair", "differ"),
    (lambda d: d["table5"].pop("sprint"), "table5.sprint", "missing"),
    (lambda d: d["movement"].update(increment_cm=-4.5), "movement.increment_cm", "allowed finite values > 0"),
    (lambda d: d["orders"].update(experience_bonus={"green": 0}), "orders.experience_bonus", "levels"),
    (lambda d: d.pop("cleanup"), "cleanup", "missing"),
    (lambda d: d.update(extra={}), "extra", "unknown section"),
])
def test_malformed_rules_name_the_field(tmp_path, mutate, field, words):
    with pytest.raises(aa.RulesError) as info:
        _write(tmp_path, mutate)
    assert str(info.value).startswith(f"rules.{field}: ") and words in str(info.value)


def test_invalid_toml_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("[fire\nband = 1")
    with pytest.raises(aa.RulesError, match="not valid TOML"):
        aa.Rules.from_toml(p)


def test_overrides_reach_the_kernels(rules):
    floor2 = rules.replace(fire={"armor_floor": 3})
    assert aa.resolve_fire(12, 1, 1, 1) == (2, 10)
    assert aa.resolve_fire(12, 1, 1, 1, rules=floor2) == (2, 3)
    m, w = aa.batch.resolve_fire([12], 1, 1, 1, rules=floor2)
    assert w[0] == 3
    heavy3 = rules.replace(fire={"cover_armor_bonus": [0, 1, 3]})
    assert aa.resolve_fire(13, 3, 2, 1, aa.Cover.HEAVY, rules=heavy3) == (2, 2)
    stick = rules.replace(fire={"band_edges_cm": [30.0, 60.0]})
    assert aa.range_band(45.0, rules=stick) == 2 and aa.range_band(61.0, rules=stick) == 3
    with pytest.raises(ValueError, match="range_band"):
        aa.resolve_fire(10, 4, 1, 1, rules=stick)  # only 3 bands on this stick
    hi_basic = rules.replace(table5={"basic": {"offensive": "high"}})
    assert aa.action_scores((2, 5, 9), 0, aa.Action.BASIC, rules=hi_basic) == aa.Scores((7,), 9)
    vehicle_morale = rules.replace(dice={"wound_shift_vehicle": "morale"})
    dice, _ = aa.wounded_dice((8, 12, 8), 1, vehicle=True, rules=vehicle_morale)
    assert dice == (8, 12, 6)
    soft = rules.replace(fire={"vehicle_turn_marker_cap": 2})
    m, _ = aa.batch.simulate_fire(2000, (12, 12, 12), (4, 4, 4), shooter_posture=0, target_posture=0,
                                  range_band=1, armor=9, shooter_action=aa.Action.MASS_FIRE,
                                  vehicle=True, seed=1, rules=soft)
    assert m.max() == 2
    m, _ = aa.batch.simulate_fire(2000, (12, 12, 12), (4, 4, 4), shooter_posture=0, target_posture=0,
                                  range_band=1, armor=9, shooter_action=aa.Action.MASS_FIRE,
                                  vehicle=True, seed=1)
    assert m.max() == 1


def test_replace_rejects_unknown():
    with pytest.raises(aa.RulesError, match="nosuch"):
        aa.Rules.default().replace(nosuch={})
    with pytest.raises(aa.RulesError, match="fire.wat"):
        aa.Rules.default().replace(fire={"wat": 1})


def test_table5_array_encodes_the_rows(rules):
    t = rules.table5_array
    assert t.shape == (8, 2, 3) and t.dtype == np.int8
    assert tuple(t[aa.Action.MASS_FIRE, aa.Posture.OFFENSIVE]) == (0, aa.Role.DEFENSE, aa.Role.ATTACKS)
    assert tuple(t[aa.Action.DIG_IN, aa.Posture.DEFENSIVE]) == (0, aa.Role.ATTACK, aa.Role.DEFENSE)
