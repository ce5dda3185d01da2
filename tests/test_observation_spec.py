"""The observation specification: its rows describe the features, its bounds hold in both engines,
the generated document is the committed one."""
from __future__ import annotations

import dataclasses
import pathlib

import numpy as np
import pytest

from atomic_africa.reference.game.agents import RandomAgent
from atomic_africa.game import GameSpec, VectorGame
from atomic_africa.reference.game import Game
from atomic_africa.game.observation_doc import COMMAND, DOC_PATH, render
from atomic_africa.game.observation_spec import (UNIT_LAYOUT, compact_indices, count_limits,
                                                 observation_bounds, observation_spec, unit_offset)
from atomic_africa.reference.game.observe import ENCODINGS, SCALE, UNIT_FEATURES, UNIT_SOURCE
from atomic_africa.game.schema import LIMIT, UNIT_FIELDS, UNIT_OBSERVATION
from atomic_africa.game.state import GameState
from atomic_africa.game.testing import mini_scenario, unit

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _mini():
    return mini_scenario([unit(40.0, 20.0, spotter=True), unit(120.0, 25.0, kind="vehicle", armor=4,
                                                                dice=("d12", "d8", "d6"))],
                         [unit(60.0, 90.0, figures=12), unit(130.0, 100.0, kind="light_infantry")],
                         terrain=[{"shape": "circle", "center": [90.0, 60.0], "radius": 10.0,
                                   "cover": "heavy", "blocks_los": True, "armor": 3}],
                         turns=3, assets=[{"dice": ["d10", "d10", "d8"], "ap": 0, "blast_radius_cm": 9.0}])


def test_committed_document_is_the_generated_one():
    text = (ROOT / DOC_PATH).read_text(encoding="utf-8")
    assert text == render(GameSpec.build()), f"{DOC_PATH} is stale; regenerate it: {COMMAND}"


@pytest.mark.parametrize("scenario", [None, "mini"])
def test_one_row_per_feature_with_unique_names(scenario):
    spec = GameSpec.build(_mini() if scenario else None)
    rows = observation_spec(spec)
    assert [f.index for f in rows] == list(range(spec.observation_size))
    assert len({f.name for f in rows}) == len(rows)
    assert len(UNIT_LAYOUT) == UNIT_FEATURES
    low, high = observation_bounds(spec)
    assert low.dtype == high.dtype == np.float32 and (low == 0).all() and (high >= 0).all()
    _, bound = observation_bounds(spec, "guaranteed")
    assert (high <= bound).all() and ((high > 0) == (bound > 0)).all()
    # the features constant for the spec are the compact option's gaps
    keep = compact_indices(spec)
    assert (bound[keep] > 0).all() and (np.delete(bound, keep) == 0).all()
    assert np.isfinite(high).all() and (high < np.finfo(np.float32).max / 2).all()
    # the unit blocks: own slots then enemy slots, C each
    off = unit_offset(spec)
    assert rows[off].name == "own0.alive" and rows[off + spec.C * UNIT_FEATURES].name == "enemy0.alive"
    assert rows[-1].segment == "terrain" or not spec.scenario.terrain


def test_the_unit_layout_is_the_schema_declaration():
    # One entry of schema.UNIT_OBSERVATION per float of a unit slot: the encoder is written from it
    # (one expression each), the spec and the document describe it, the native engine sizes it.
    assert UNIT_FEATURES == len(UNIT_OBSERVATION) == LIMIT.UNIT_FEATURES
    assert [s.name for s in UNIT_LAYOUT] == [f.name for f in UNIT_OBSERVATION]
    assert [s.meaning for s in UNIT_LAYOUT] == [f.meaning for f in UNIT_OBSERVATION]
    unit_fields = {f.name for f in UNIT_FIELDS if f.py_type is not None}
    limits = set(count_limits(GameSpec.build())._fields)
    body = UNIT_SOURCE.split("return [", 1)[1].splitlines()[1:-1]
    assert [line.rsplit("# ", 1)[1] for line in body] == [f.name for f in UNIT_OBSERVATION]
    for f in UNIT_OBSERVATION:
        assert f.encoding in ENCODINGS, f
        if f.encoding == "is_unit":
            assert f.source in {x.name for x in dataclasses.fields(GameState)}, f
        else:
            assert f.source in unit_fields, f
        if f.encoding == "count":
            assert f.scale > 0 and (not f.limit or f.limit in limits), f
            assert SCALE[f.limit or f.source] == f.scale
    assert len({f.name for f in UNIT_OBSERVATION}) == UNIT_FEATURES


def _feature(spec, obs, name):
    return obs[next(f.index for f in observation_spec(spec) if f.name == name)]


def _moving_in_turn_2(spec):
    """A random game in its second turn when a unit has just placed its Destination away from its
    position (units hold cards, some have split)."""
    for seed in range(20):
        g = Game(spec, seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 100)]
        while not g.is_over:
            if g.s.turn >= 2 and any(u.alive and u.moves and u.dest_x != u.x for u in g.s.units):
                return g
            g.apply(agents[g.current_player].act(g))
    raise AssertionError("no random game reached a move in turn 2")


def test_rows_say_what_the_features_hold():
    """A mid-game state of the mini scenario: the named features equal the unit and game fields
    scaled as the spec's unit column says."""
    spec = GameSpec.build(_mini())
    g = _moving_in_turn_2(spec)
    s, sc, lim = g.s, spec.scenario, count_limits(spec)
    rows = {f.name: f for f in observation_spec(spec)}
    for player in (0, 1):
        obs = g.observation(player)
        for who in ("own", "enemy"):
            side = player if who == "own" else 1 - player
            for j in range(spec.C):
                u = s.units[side * spec.C + j]
                name = f"{who}{j}"
                assert _feature(spec, obs, f"{name}.alive") == float(u.alive)
                if not u.alive:
                    continue
                assert _feature(spec, obs, f"{name}.x") == np.float32(u.x / sc.width_cm)
                assert _feature(spec, obs, f"{name}.y") == np.float32(u.y / sc.height_cm)
                assert _feature(spec, obs, f"{name}.dest_x") == np.float32(u.dest_x / sc.width_cm)
                assert _feature(spec, obs, f"{name}.dest_y") == np.float32(u.dest_y / sc.height_cm)
                assert _feature(spec, obs, f"{name}.moves") == float(u.moves)
                assert _feature(spec, obs, f"{name}.figures") == np.float32(u.figures / 20)
                assert _feature(spec, obs, f"{name}.markers") == np.float32(u.markers / 5)
                assert _feature(spec, obs, f"{name}.die_training") == np.float32(u.dice[0] / 12)
                assert _feature(spec, obs, f"{name}.armor") == np.float32(u.armor / 5)
                assert _feature(spec, obs, f"{name}.kind_vehicle") == float(u.kind == 2)
                assert _feature(spec, obs, f"{name}.has_card") == float(u.card >= 0)
                assert rows[f"{name}.figures"].unit == "count / 20"
                assert rows[f"{name}.figures"].high == np.float32(lim.figures / 20)
        assert _feature(spec, obs, "turn") == np.float32(s.turn / sc.turns)
        assert _feature(spec, obs, f"stage_{g.stage.lower()}") == 1.0
        hand = s.players[player].hand
        for c in range(spec.deck.size):
            assert _feature(spec, obs, f"hand_{spec.deck.name(c)}") == float(c in hand)
        assert _feature(spec, obs, "own_hand") == np.float32(len(hand) / spec.deck.size)
        assert _feature(spec, obs, "cover0") == np.float32(s.feature_cover[0] / 2)


def test_count_limits_follow_the_scenario():
    spec = GameSpec.build(_mini())
    lim = count_limits(spec)
    assert lim.figures == 22 and lim.armor == 4 and lim.die == 12          # Red: 12 + 10 figures
    r = spec.rules.fire
    assert lim.turn_markers == max(r.turn_marker_cap, r.vehicle_turn_marker_cap) * spec.C
    assert lim.markers == 3 * lim.turn_markers


def _in_box(obs, low, high):
    bad = np.flatnonzero(((obs < low) | (obs > high)).any(axis=0))
    return bad


def test_bounds_hold_in_every_sampled_state_of_both_engines():
    """Random play, both players' observations at every decision: the Python engine (a few games of
    the mini scenario) and the native engine (400 games of the default scenario)."""
    for spec in (GameSpec.build(_mini()), GameSpec.build()):
        low, high = observation_bounds(spec)
        names = [f.name for f in observation_spec(spec)]
        if spec.scenario.name == "test":
            for seed in range(6):
                g = Game(spec, seed)
                agents = [RandomAgent(10 + seed), RandomAgent(20 + seed)]
                while not g.is_over:
                    obs = np.stack([g.observation(0), g.observation(1)])
                    assert not _in_box(obs, low, high).size, [names[i] for i in _in_box(obs, low, high)]
                    g.apply(agents[g.current_player].act(g))
            continue
        n = 100
        vg = VectorGame(spec, n, 7)
        vg.reset(seed=7)
        seen = np.zeros(spec.observation_size, dtype=np.float32)
        games = 0
        while games < 400:
            for p in (0, 1):
                obs = vg.observations(player=p)
                bad = _in_box(obs, low, high)
                assert not bad.size, [names[i] for i in bad]
                seen = np.maximum(seen, obs.max(axis=0))
            _, _, term, _, _ = vg.step(vg.random_actions(), observe=False)
            games += int(term.sum())
        # the sample reaches beyond 1 where the spec says it may (figures of a merged unit ...)
        assert (seen <= high).all() and (seen > 1).any()
