"""LOS and cover kernel (aa_core.geometry) against the pure-Python reference, and exact cases."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atomic_africa import Rules
from atomic_africa.game import default_scenario
from atomic_africa.reference.game import Game
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
    # through the box: blocked; beside it: clear; from its centre: 10 cm of box > 4.5 cm: blocked
    assert los_blocked([10, 10, 50], [50, 30, 50], [90, 90, 90], [50, 30, 50], t).tolist() == [True, False, True]
    # A unit 1 cm inside the box's west edge sees out west and is seen (1 cm of box <= 4.5 cm) ...
    assert has_los((41, 50), (5, 50), t)
    # ... but not through the box to the east (19 cm of box), nor 4 cm deep looking out (4 <= 4.5: yes)
    assert not has_los((41, 50), (95, 50), t) and has_los((44, 50), (5, 50), t)
    assert not has_los((46, 50), (5, 50), t)
    # Two units inside the box 8 cm apart see each other (2 ends x 4.5 cm), 12 cm apart do not.
    assert has_los((45, 50), (53, 50), t) and not has_los((45, 50), (57, 50), t)
    # The same for a circle (DISC: centre (20, 80), radius 5).
    assert has_los((20, 78), (20, 40), t) and not has_los((20, 78), (20, 99), t)
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


def test_edge_depth_comes_from_the_rules():
    rules = Rules.default().replace(fire={"los_edge_depth_cm": 0.0})
    t0 = TerrainArrays.from_scenario(scen([BOX]), rules)
    t = TerrainArrays.from_scenario(scen([BOX]))
    assert has_los((41, 50), (5, 50), t) and not has_los((41, 50), (5, 50), t0)
    assert ref.los_blocked([41], [50], [5], [50], t0) == [True]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(30, 70), st.floats(30, 70), coord, coord), min_size=1, max_size=20),
       st.floats(0, 30))
def test_los_from_inside_terrain_matches_reference(segs, depth):
    """Sight lines starting inside the default scenario's features, any edge depth."""
    rules = Rules.default().replace(fire={"los_edge_depth_cm": depth})
    terrain = TerrainArrays.from_scenario(default_scenario(), rules)
    a = np.array(segs, dtype=float)
    got = los_blocked(a[:, 0], a[:, 1], a[:, 2], a[:, 3], terrain).tolist()
    assert got == ref.los_blocked(a[:, 0], a[:, 1], a[:, 2], a[:, 3], terrain)


def test_inside_lengths_exact():
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert ref.polygon_inside_length((-5, 5), (15, 5), square) == pytest.approx(10)
    assert ref.polygon_inside_length((5, 5), (15, 5), square) == pytest.approx(5)
    u_shape = [(0, 0), (30, 0), (30, 10), (20, 10), (20, 2), (10, 2), (10, 10), (0, 10)]
    assert ref.polygon_inside_length((-5, 5), (35, 5), u_shape) == pytest.approx(20)  # two prongs
    assert ref.circle_inside_length((-10, 0), (10, 0), (0, 0), 5) == pytest.approx(10)
    assert ref.circle_inside_length((0, 0), (10, 0), (0, 0), 5) == pytest.approx(5)
    assert ref.circle_inside_length((0, 6), (10, 6), (0, 0), 5) == 0.0
