"""GameSpec: the configuration of a game, built without starting one and shared by both engines."""
import dataclasses
import pickle

import numpy as np
import pytest

from atomic_africa.agents import RandomAgent, play
from atomic_africa.game import Game, GameSpec, TerrainArrays, VectorGame, default_scenario
from atomic_africa.reference.game import engine as engine_module
from atomic_africa.rules import Rules, resolve_rules


def _played(game, seed=3):
    play(game, [RandomAgent(seed), RandomAgent(seed + 1)])
    return game


def test_spec_is_built_without_starting_a_game(monkeypatch):
    def no_start(self):
        raise AssertionError("a game was started")

    monkeypatch.setattr(engine_module.Game, "_start_game", no_start)
    spec = GameSpec.build()
    assert spec.num_actions == spec.space.n > 0
    vg = VectorGame(spec, num_envs=2, seed=0)  # the native engine needs no Python game either
    assert vg.spec is spec and vg.observations().shape == (2, spec.observation_size)


def test_spec_fields_agree_with_a_game():
    spec = GameSpec.build()
    g = Game(spec, 5)
    assert g.spec is spec
    assert (g.scenario, g.rules, g.deck, g.C, g.space) == (spec.scenario, spec.rules, spec.deck, spec.C,
                                                           spec.space)
    assert g.observation(0).shape == (spec.observation_size,)
    assert g.num_actions == spec.num_actions
    assert len(spec.dir_angle) == spec.rules.movement.directions
    assert len(spec.clock_angle) == spec.rules.call_for_fire.scatter_die + 1
    assert spec.initial_figures == g.initial_figures
    units = spec.initial_units()
    for side, s in enumerate(spec.scenario.sides):
        for k, us in enumerate(s.units):
            u = units[side * spec.C + k]
            assert (u.alive, u.name, u.figures, u.x, u.y) == (True, us.name, us.figures, *us.position)
        assert not any(u.alive for u in units[side * spec.C + len(s.units):(side + 1) * spec.C])


def test_game_from_spec_equals_game_from_scenario():
    spec = GameSpec.build(default_scenario(), resolve_rules(None))
    a = _played(Game(spec, 11))
    b = _played(Game(default_scenario(), 11))
    assert a.to_json() == b.to_json()


def test_games_share_one_spec_and_its_units_are_fresh():
    spec = GameSpec.build()
    g1, g2 = Game(spec, 1), Game(spec, 2)
    assert g1.spec is g2.spec is g1.clone().spec
    first, second = spec.initial_units(), spec.initial_units()
    first[0].figures += 1
    assert second[0].figures == first[0].figures - 1
    assert all(a is not b for a, b in zip(first, second))


def test_spec_is_frozen_and_picklable():
    spec = GameSpec.build()
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.C = 3
    back = pickle.loads(pickle.dumps(spec))
    assert (back.C, back.dir_angle, back.clock_angle, back.observation_size) == (
        spec.C, spec.dir_angle, spec.clock_angle, spec.observation_size)
    assert back.scenario == spec.scenario and back.rules == spec.rules
    np.testing.assert_array_equal(back.terrain.vx, spec.terrain.vx)
    assert _played(Game(back, 4)).to_json() == _played(Game(spec, 4)).to_json()


def test_spec_passed_as_scenario_keeps_its_rules():
    spec = GameSpec.build()
    assert GameSpec.build(spec) is spec
    assert GameSpec.build(spec, spec.rules) is spec
    other = Rules.from_dict({**resolve_rules(None).to_dict(),
                             "movement": {**resolve_rules(None).to_dict()["movement"], "directions": 6}})
    with pytest.raises(ValueError, match="rules"):
        Game(spec, 0, rules=other)


def test_spec_terrain_is_the_starting_terrain():
    spec = GameSpec.build()
    g = Game(spec, 0)
    assert g.terrain is spec.terrain
    fresh = TerrainArrays.from_scenario(spec.scenario, spec.rules, [t.cover for t in spec.scenario.terrain])
    for name in ("vx", "vy", "poly_offsets", "poly_blocks", "poly_cover", "circ_x", "circ_r", "circ_cover"):
        np.testing.assert_array_equal(getattr(spec.terrain, name), getattr(fresh, name), err_msg=name)
