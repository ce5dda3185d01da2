"""LOS and cover kernel (aa_core.geometry) against the pure-Python reference, and exact cases."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atomic_africa.game import Game, default_scenario
from atomic_africa.game.los import TerrainArrays, cover_at, cover_of_point, has_los, los_blocked
from atomic_africa.game.testing import Driver, mini_scenario, scripted, unit
from atomic_africa.reference import geometry as ref

TERRAIN = TerrainArrays.from_scenario(default_scenario())


def scen(terrain):
    return mini_scenario([unit(1, 1)], [unit(2, 2)], terrain=terrain, width=100, height=100)


BOX = {"shape": "polygon", "points": [[40, 40], [60, 40], [60, 60], [40, 60]], "cover": "heavy", "blocks_los": True}
DISC = {"shape": "circle", "center": [20, 80], "radius": 5, "cover": "light", "blocks_los": True}
SCRUB = {"shape": "circle", "center": [80, 20], "radius": 10, "cover": "light", "blocks_los": False}


def test_exact_cases():
    t = TerrainArrays.from_scenario(scen([BOX, DISC, SCRUB]))
    # through the box: blocked; beside it: clear; from inside it: clear (a unit sees out of its wood)
    assert los_blocked([10, 10, 50], [50, 30, 50], [90, 90, 90], [50, 30, 50], t).tolist() == [True, False, False]
    assert not has_los((20, 70), (20, 90), t) and has_los((60, 10), (99, 30), t)   # scrub never blocks
    assert cover_at([50, 20, 80, 5], [50, 80, 20, 5], t).tolist() == [2, 1, 1, 0]
    assert cover_of_point((81, 21), t) == 1


coord = st.floats(0, 180, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=20))
def test_los_kernel_matches_reference(segs):
    a = np.array(segs, dtype=float)
    got = los_blocked(a[:, 0], a[:, 1], a[:, 2], a[:, 3], TERRAIN).tolist()
    assert got == ref.los_blocked(a[:, 0], a[:, 1], a[:, 2], a[:, 3], TERRAIN)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=30))
def test_cover_kernel_matches_reference(pts):
    p = np.array(pts, dtype=float)
    assert cover_at(p[:, 0], p[:, 1], TERRAIN).tolist() == ref.cover_at(p[:, 0], p[:, 1], TERRAIN)


def test_bad_coordinates_rejected():
    with pytest.raises(ValueError, match="bx"):
        los_blocked([0.0], [0.0], [np.nan], [1.0], TERRAIN)
    with pytest.raises(ValueError, match="py"):
        cover_at([0.0, 1.0], [0.0], TERRAIN)
    with pytest.raises(TypeError, match="px"):
        cover_at(["a"], [0.0], TERRAIN)


def test_game_targets_respect_los():
    sc = mini_scenario([unit(10, 50)], [unit(90, 50), unit(90, 10)], terrain=[BOX], width=100, height=100)
    g = Game(sc, 0, source=scripted(["5H"], ["5C", "6C"]))
    Driver(g).assign("5H", 0).assign("5C", g.C).assign("6C", g.C + 1).select(0)
    assert g.stage == "DECLARE_TARGET"
    assert g.legal_actions() == [g.space.target(g.C + 1), g.space.no_target]  # the box hides the other
