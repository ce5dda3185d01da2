"""Hex map geometry (RULES.md section 8): coordinates, neighbours, distance, lines, LOS; kernel vs reference."""
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import atomic_africa as aa
from atomic_africa import reference as ref
from atomic_africa.artillery import Direction, Hex, HexMap, hex_label, parse_hex

# The odd-q neighbour table of flat-topped hexes (columns B, D, F... lower), written from the layout:
# (dcol, drow) per direction N, NE, SE, S, SW, NW for columns A, C, E... and for columns B, D, F...
HIGH_COLUMN = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
LOW_COLUMN = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]


def test_labels_round_trip_and_examples():
    assert parse_hex("G4") == Hex(6, 3)
    assert parse_hex("g4") == Hex(6, 3)
    assert parse_hex("A1") == Hex(0, 0)
    assert parse_hex("Z99") == Hex(25, 98)
    assert hex_label(Hex(9, 6)) == "J7"
    for col, row in itertools.product(range(26), range(99)):
        assert parse_hex(hex_label((col, row))) == (col, row)


@pytest.mark.parametrize("bad", ["4G", "G0", "GG4", "", "G100", "7"])
def test_bad_labels_rejected(bad):
    with pytest.raises(ValueError, match="hex name"):
        parse_hex(bad)


def test_bad_hex_types_rejected():
    with pytest.raises(TypeError, match="hex name"):
        parse_hex(3.5)
    with pytest.raises(TypeError, match="integer"):
        parse_hex((1.0, 2))


@pytest.mark.parametrize("cols,rows", [(0, 5), (27, 5), (5, 0), (5, 100)])
def test_bad_map_size(cols, rows):
    with pytest.raises(ValueError, match="out of range"):
        HexMap(cols, rows)


def test_map_rejects_terrain_off_the_map():
    with pytest.raises(ValueError, match="not on the 5x5 map"):
        HexMap(5, 5, blocking=["F1"])
    with pytest.raises(ValueError, match="hindering"):
        HexMap(5, 5, hindering={"A1": -1})


def test_map_is_immutable_and_compares_by_value():
    a = HexMap(6, 5, blocking=["B2"], hindering={"C3": 2})
    b = HexMap(6, 5, blocking=["B2"], hindering={"C3": 2})
    assert a == b and hash(a) == hash(b)
    assert a != HexMap(6, 5)
    with pytest.raises(AttributeError):
        a.columns = 3
    assert not a.blocking_array().flags.writeable


def test_neighbours_odd_q_table():
    hm = HexMap(10, 8)
    for h in hm.hexes():
        table = LOW_COLUMN if h.col % 2 == 1 else HIGH_COLUMN
        for d, (dc, dr) in zip(Direction, table):
            assert hm.step(h, d) == (h.col + dc, h.row + dr), (h, d)
    # Hand examples: E5 is in a high column, F5 in a low one.
    assert [n.label for n in HexMap(10, 8).neighbours("E5")] == ["E4", "F4", "F5", "E6", "D5", "D4"]
    assert [n.label for n in HexMap(10, 8).neighbours("F5")] == ["F4", "G5", "G6", "F6", "E6", "E5"]


def test_neighbours_even_q_when_column_a_is_lower(rules):
    hm = HexMap(10, 8, rules=rules.replace(artillery={"low_columns": "A"}))
    assert hm.low_columns == "A"
    for h in hm.hexes():
        table = LOW_COLUMN if h.col % 2 == 0 else HIGH_COLUMN
        for d, (dc, dr) in zip(Direction, table):
            assert hm.step(h, d) == (h.col + dc, h.row + dr)


def test_corner_neighbours_are_clipped():
    hm = HexMap(4, 3)
    assert [n.label for n in hm.neighbours("A1")] == ["B1", "A2"]
    assert hm.neighbour("A1", Direction.N) is None
    assert len(hm.impact_hexes("B2")) == 7
    assert [h.label for h in hm.impact_hexes("A1")] == ["A1", "B1", "A2"]


def test_compass_faces_follow_rules(rules):
    assert [Direction.of_face(f).name for f in range(1, 7)] == ["N", "NE", "SE", "S", "SW", "NW"]
    ccw = rules.replace(artillery={"compass": ["N", "NW", "SW", "S", "SE", "NE"]})
    assert Direction.of_face(2, ccw) == Direction.NW
    with pytest.raises(ValueError, match="face"):
        Direction.of_face(7)


@pytest.mark.parametrize("parity", [1, 0])
def test_distance_is_steps_of_a_breadth_first_search(parity, rules):
    hm = HexMap(7, 6, rules=rules.replace(artillery={"low_columns": "B" if parity else "A"}))
    for start in hm.hexes()[::5]:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for h in frontier:
                for n in hm.neighbours(h):
                    if n not in dist:
                        dist[n] = dist[h] + 1
                        nxt.append(n)
            frontier = nxt
        for h, d in dist.items():
            assert hm.distance(start, h) == d == ref.hex_distance(start, h, parity)


def _float_line(a, b, parity):
    """The textbook float cube lerp with the (1e-6, 2e-6, -3e-6) nudge."""
    q0, r0 = ref.offset_to_axial(*a, parity)
    q1, r1 = ref.offset_to_axial(*b, parity)
    n = ref.hex_distance(a, b, parity)
    s = (q0 + 1e-6, -q0 - r0 + 2e-6, r0 - 3e-6)
    e = (q1 + 1e-6, -q1 - r1 + 2e-6, r1 - 3e-6)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x, y, z = (s[k] + (e[k] - s[k]) * t for k in range(3))
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        out.append(ref.axial_to_offset(rx, rz, parity))
    return out


@pytest.mark.parametrize("parity", [1, 0])
def test_line_kernel_equals_reference_and_textbook_nudge_exhaustively(parity, rules):
    hm = HexMap(8, 6, rules=rules.replace(artillery={"low_columns": "B" if parity else "A"}))
    hexes = hm.hexes()
    for a, b in itertools.product(hexes, hexes):
        line = [tuple(h) for h in hm.line(a, b)]
        assert line == _float_line(a, b, parity), (a, b)
        if (a.col + a.row + b.col) % 3 == 0:      # the exact-rational reference is slower: a third
            assert line == [tuple(h) for h in ref.hex_line(a, b, parity)], (a, b)


def test_line_properties():
    hm = HexMap(12, 10)
    for a, b in itertools.combinations(hm.hexes()[::7], 2):
        line = hm.line(a, b)
        assert line[0] == a and line[-1] == b
        assert len(line) == hm.distance(a, b) + 1
        for x, y in zip(line, line[1:]):
            assert hm.distance(x, y) == 1


def test_line_of_sight_blocking_strictly_between():
    hm = HexMap(10, 8, blocking=["E5"], hindering=["E4", "E6"])
    los = hm.line_of_sight("E7", "E3")
    assert not los.visible and los.blocked_by == parse_hex("E5")
    # End hexes never block: a blocking spotter or target hex is seen.
    assert hm.line_of_sight("E5", "E8").visible
    assert hm.line_of_sight("E8", "E5").visible
    # Hindrance counts hexes strictly between, not the ends.
    los = hm.line_of_sight("E6", "E4")
    assert not los.visible
    assert hm.line_of_sight("E4", "E1").hindrance == 0
    assert hm.line_of_sight("E8", "E6").hindrance == 0
    assert hm.line_of_sight("E8", "E6").visible


def test_hindrance_sums_terrain_and_smoke(rules):
    hm = HexMap(10, 8, hindering={"E5": 2, "E4": 1})
    assert hm.line_of_sight("E7", "E2").hindrance == 3
    assert hm.line_of_sight("E7", "E2", smoke={"E3": 3}).hindrance == 6
    assert hm.line_of_sight("E7", "E4").hindrance == 2
    r2 = rules.replace(artillery={"hindrance_hexes": "between_and_target"})
    assert hm.line_of_sight("E7", "E4", rules=r2).hindrance == 3
    assert hm.line_of_sight("E7", "E7", rules=r2).hindrance == 0


def test_visibility_array_matches_scalar_los():
    hm = HexMap(9, 7, blocking=["D4", "F3"], hindering=["E5", "C2", "G6"])
    vis = hm.visibility("E6", smoke={"B3": 2})
    for h in hm.hexes():
        los = hm.line_of_sight("E6", h, smoke={"B3": 2})
        assert vis[h.row, h.col] == (los.hindrance if los.visible else -1)


@st.composite
def terrain(draw):
    cols = draw(st.integers(1, 12))
    rows = draw(st.integers(1, 12))
    cells = st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1))
    blocking = draw(st.sets(cells, max_size=8))
    hindering = draw(st.dictionaries(cells, st.integers(0, 3), max_size=10))
    a = draw(cells)
    b = draw(cells)
    parity = draw(st.sampled_from(["A", "B"]))
    return cols, rows, blocking, hindering, a, b, parity


@settings(max_examples=150, deadline=None)
@given(terrain())
def test_los_kernel_equals_reference(t):
    cols, rows, blocking, hindering, a, b, low = t
    rules = aa.Rules.default().replace(artillery={"low_columns": low})
    hm = HexMap(cols, rows, blocking=list(blocking), hindering=hindering, rules=rules)
    los = hm.line_of_sight(a, b, rules=rules)
    assert (los.visible, los.hindrance) == ref.line_of_sight(hm, a, b, rules=rules)
    assert hm.distance(a, b) == ref.hex_distance(a, b, hm.parity)


def test_compass_directions_are_numbered_1_to_6_clockwise_from_the_top_edge():
    hm = HexMap(15, 10)
    assert [int(d) for d in Direction] == [1, 2, 3, 4, 5, 6]
    assert hm.neighbour("G4", 1) == hm.neighbour("G4", Direction.N) == parse_hex("G3")
    assert hm.neighbour("G4", 4) == parse_hex("G5")
    assert hm.step("G4", 6, 2) == hm.step("G4", "NW", 2)
    # Die face f drifts towards direction f with the packaged compass.
    assert all(Direction.of_face(f) == Direction(f) for f in range(1, 7))
    with pytest.raises(ValueError, match="direction"):
        hm.neighbour("G4", 0)
    with pytest.raises(ValueError, match="direction"):
        hm.neighbour("G4", 7)
