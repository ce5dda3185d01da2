"""Spec files (issue 22, point 3): ``compile_spec`` / ``atomic-africa compile`` write them, the C core's
``aa_spec_load`` (src/aa_core/csrc/aa_spec.c) reads them back field for field, and refuses a truncated,
corrupted or hostile file with a status and a message naming the field, never a crash (a fuzz run under
AddressSanitizer and UBSan included)."""
from __future__ import annotations

import math
import random
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aa_core import spec as cspec
from aa_core import vgame
from atomic_africa.cli import main
from atomic_africa.game.native import spec_file as sf
from atomic_africa.game.native.layout import unit_templates
from atomic_africa.game.native.params import native_params
from atomic_africa.game.spec import GameSpec

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "src" / "aa_core" / "csrc"
AA_OK, AA_ERR_SPEC = 0, 2
_SIZE = {"i8": 1, "u8": 1, "i32": 4, "i64": 8, "f64": 8}
_FMT = {"i8": "<b", "u8": "<B", "i32": "<i", "i64": "<q", "f64": "<d"}


@pytest.fixture(scope="module")
def default_file() -> bytes:
    return sf.compile_spec()


def _python_params(scenario=None, rules=None):
    spec = GameSpec.build(scenario, rules)
    params, tables = native_params(spec)
    tables.update(unit_templates(spec.initial_units(), spec.C))
    return params, tables


def _layout(data: bytes) -> dict:
    """Field name -> (offset in the file, kind, count) of every field of a well-formed spec file."""
    out, pos = {}, sf.HEADER_SIZE
    for f in sf.PARAM_FIELDS:
        out[f.path] = (pos, f.kind, f.count)
        pos += _SIZE[f.kind] * f.count
    for f in sf.TABLE_FIELDS:
        (n,) = struct.unpack_from("<I", data, pos)
        out[f.path + "#count"] = (pos, "i32", 1)
        out[f.path] = (pos + 4, f.kind, n)
        pos += 4 + _SIZE[f.kind] * n
    assert pos == len(data)
    return out


def _poke(data: bytes, name: str, value, index: int = 0) -> bytes:
    """``data`` with element ``index`` of field ``name`` set to ``value``, checksum recomputed."""
    off, kind, _ = _layout(data)[name]
    b = bytearray(data)
    struct.pack_into(_FMT["i32" if kind == "i32" else kind], b, off + index * _SIZE[kind], value)
    return sf.rechecksum(bytes(b))


def _refused(data: bytes, *words: str) -> str:
    status, message = cspec.load_status(data)
    assert status == AA_ERR_SPEC, message
    assert message.startswith("spec file: ")
    for w in words:
        assert w in message, message
    return message


# -- generated files -------------------------------------------------------------------------------
def test_generated_files_are_current():
    assert (ROOT / sf.FIELDS_HEADER_PATH).read_text() == sf.render_fields_header(), \
        f"regenerate: {sf._REGENERATE}"
    assert (ROOT / sf.DEFAULT_SPEC_PATH).read_text() == sf.render_default_c(), f"regenerate: {sf._REGENERATE}"


def test_header_layout(default_file):
    magic, version, abi, length, flags, crc = struct.unpack_from("<8sIIQII", default_file)
    assert (magic, version, abi, flags) == (b"AA-SPEC\x00", sf.FORMAT_VERSION, sf.ABI_VERSION, 0)
    assert length == len(default_file) - sf.HEADER_SIZE
    assert crc == zlib.crc32(default_file[:28] + default_file[32:])
    h = (ROOT / "src/aa_core/include/atomic_africa.h").read_text()
    assert f"#define AA_ABI_VERSION {sf.ABI_VERSION}\n" in h


# -- round trips -----------------------------------------------------------------------------------
def _assert_same(loaded, python):
    lp, lt = loaded
    pp, pt = python
    for f in sf.PARAM_FIELDS:
        got, want = sf._flat(sf._lookup(lp, f.path)), sf._flat(sf._lookup(pp, f.path))
        assert len(got) == f.count
        assert [float(x) for x in got] == [float(x) for x in want], f.path
        if f.kind == "f64":   # bit for bit (-0.0 and 0.0 differ)
            assert np.array_equal(np.array(got, dtype=np.float64).view(np.int64),
                                  np.array(want, dtype=np.float64).view(np.int64)), f.path
    for name, a in lt.items():
        if name == "odds":   # the loader counts them from Table 5: as the kernel's own counter does
            b = np.empty(vgame.ODDS_TABLE_BYTES, dtype=np.uint8)
            vgame.fill_odds_tables(np.ascontiguousarray(pt["table5"], dtype=np.int8).ravel(), b)
            assert a.tobytes() == b.tobytes()
            continue
        b = np.ascontiguousarray(pt[name]).ravel()
        if name in ("vx", "vy", "cx", "cy", "cr", "feat_x", "feat_y") or a.size < b.size:
            b = b[:a.size]   # Python pads an empty table to one element
        assert a.dtype.itemsize == b.dtype.itemsize, name
        assert a.tobytes() == b.astype(a.dtype).tobytes(), name


def test_default_spec_is_the_default_battle_field_for_field():
    """aa_spec_default (the embedded bytes) holds what VectorGame computes for the default battle, the
    greedy agent's odds tables (recomputed from Table 5 at load) included."""
    _assert_same(cspec.load_params(None), _python_params())


@pytest.mark.parametrize("scenario", ["default", "meeting_engagement"])
def test_compiled_file_round_trips(scenario):
    from atomic_africa.game.scenario import load_scenario
    sc = load_scenario(scenario)
    data = sf.compile_spec(sc)
    _assert_same(cspec.load_params(data), _python_params(sc))


def test_generated_battles_round_trip():
    """Battles with fire support and other terrain than the packaged ones (atomic_africa.game.generate)."""
    from atomic_africa.game.generate import scenario_dict
    from atomic_africa.game.scenario import Scenario
    for seed in range(6):
        sc = Scenario.from_dict(scenario_dict(seed))
        _assert_same(cspec.load_params(sf.compile_spec(sc)), _python_params(sc))


def test_compiled_default_equals_default_spec(default_file):
    assert sf.compile_spec("default") == default_file
    assert cspec.load_params(default_file)[0] == cspec.load_params(None)[0]


# -- truncated and corrupted files -----------------------------------------------------------------
def test_every_truncation_is_refused(default_file):
    for n in range(len(default_file)):
        _refused(default_file[:n])
    _refused(default_file + b"\x00", "truncated or extended")


def test_every_truncation_with_a_fitting_header_is_refused(default_file):
    """Cut anywhere, with the header's length and checksum rewritten to fit: the field reader runs out
    of bytes at every position of every field, and says so."""
    for n in range(sf.HEADER_SIZE, len(default_file)):
        _refused(sf.rechecksum(default_file[:n]), "truncated")


def test_truncated_payload_with_a_fitting_header_is_refused_naming_the_field(default_file):
    for name in ("movement.dir_angle", "tables.card_rank", "terrain.feat_armor"):
        off, _, _ = _layout(default_file)[name]
        _refused(sf.rechecksum(default_file[:off + 1]), "truncated", name)


def test_every_single_byte_corruption_is_refused(default_file):
    rng = random.Random(22)
    for pos in range(len(default_file)):
        b = bytearray(default_file)
        b[pos] ^= 1 << rng.randrange(8)
        message = _refused(bytes(b))
        if pos >= sf.HEADER_SIZE:
            assert "checksum mismatch" in message


def test_header_refusals_say_why(default_file):
    _refused(b"PK\x03\x04" + default_file[4:], "not a spec file")
    b = bytearray(default_file)
    struct.pack_into("<I", b, 8, 99)
    _refused(sf.rechecksum(bytes(b)), "format version 99", "version 1")
    struct.pack_into("<I", b, 8, 1)
    struct.pack_into("<I", b, 12, 7)
    _refused(sf.rechecksum(bytes(b)), "ABI version 7")
    struct.pack_into("<I", b, 12, sf.ABI_VERSION)
    struct.pack_into("<I", b, 24, 1)
    _refused(sf.rechecksum(bytes(b)), "header flags = 1; allowed 0")


def test_null_arguments():
    assert cspec.load_status(b"")[0] == AA_ERR_SPEC


# -- hostile files: valid checksum, bad values -----------------------------------------------------
def _bad_values(f):
    """Values outside field f's bounds (those that do not depend on other fields)."""
    out = []
    if not isinstance(f.hi, str):
        out.append(f.hi + 1 if f.kind != "f64" else f.hi * 2 + 1)
    if not isinstance(f.lo, str):
        out.append(f.lo if f.positive else f.lo - 1 if f.kind != "f64" else f.lo - abs(f.lo) - 1)
    if f.kind == "f64":
        out += [math.nan, math.inf, -math.inf]
    lo, hi = {"i8": (-128, 127), "u8": (0, 255), "i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1),
              "f64": (-math.inf, math.inf)}[f.kind]
    return [v for v in out if math.isnan(v) or lo <= v <= hi]


@pytest.mark.parametrize("f", sf.PARAM_FIELDS, ids=lambda f: f.path)
def test_a_number_out_of_its_bounds_is_refused_naming_it(default_file, f):
    for v in _bad_values(f):
        index = f.count - 1
        _refused(_poke(default_file, f.path, v, index), f.path + (f"[{index}]" if f.count > 1 else ""),
                 "out of bounds; allowed")


@pytest.mark.parametrize("f", sf.TABLE_FIELDS, ids=lambda f: f.path)
def test_a_table_value_out_of_its_bounds_is_refused_naming_it(default_file, f):
    n = _layout(default_file)[f.path][2]
    assert n > 0, "the default battle has no entry to make hostile"
    for v in _bad_values(f):
        _refused(_poke(default_file, f.path, v, n - 1), f"{f.path}[{n - 1}]", "out of bounds")
    # a count that disagrees with the numbers before it
    _refused(_poke(default_file, f.path + "#count", n + 1), f.path, f"allowed exactly {n}")


@pytest.mark.parametrize("name, value, words", [
    ("U", 20, ("U = 20; allowed 2 * C = 18",)),
    ("n_actions", 597, ("n_actions = 597; allowed 598",)),
    ("base.move", 533, ("base.move = 533; allowed 532",)),
    ("obs_size", 837, ("obs_size = 837; allowed 838",)),
    ("movement.n_fractions", 3, ("base.stay", "allowed")),
    ("movement.distance_fractions", 0.2, ("movement.distance_fractions[1]", "strictly increasing")),
    ("terrain.n_feat", 8, ("n_actions = 598; allowed 599",)),
    ("table.mid_x", 1.0, ("table.mid_x",)),
    ("dice.shattered_die", 5, ("dice.shattered_die = 5; allowed a die of dice.ladder",)),
    ("fire.band_edges_cm", 1.0, ("fire.band_edges_cm[1]", "strictly increasing")),
    ("call_for_fire.support_action", 2, ("call_for_fire.support_action = 2; allowed 0 (basic)",)),
])
def test_inconsistent_numbers_are_refused(default_file, name, value, words):
    index = 1 if name in ("movement.distance_fractions", "fire.band_edges_cm") else 0
    _refused(_poke(default_file, name, value, index), *words)


def test_padding_must_be_zero(default_file):
    _refused(_poke(default_file, "movement.dir_angle", 0.5, 12), "movement.dir_angle[12]", "padding")
    _refused(_poke(default_file, "dice.ladder", 12, 7), "dice.ladder[7]", "padding")


def test_terrain_consistency(default_file):
    lay = _layout(default_file)
    n_poly = lay["terrain.poly_feat"][2]
    _refused(_poke(default_file, "terrain.poly_off", 1, 0), "terrain.poly_off[0] = 1")
    _refused(_poke(default_file, "terrain.poly_off", 2, 1), "terrain.poly_off[1]", "vertices")
    _refused(_poke(default_file, "terrain.circ_feat", 0, 0), "terrain.circ_feat[0] = 0", "two shapes")
    assert n_poly > 0


def test_unit_templates_against_the_schema(default_file):
    from atomic_africa.game.schema import native_rows
    U = _layout(default_file)["tables.tmpl_i8"][2] // len(native_rows("i8"))
    rows = {name: r for s in ("i8", "i32", "f64") for r, name, _ in native_rows(s)}
    C = U // 2
    empty = C - 1   # the last slot of side 0 is empty in the default battle
    assert struct.unpack_from("<b", default_file, _layout(default_file)["tables.tmpl_i8"][0]
                              + rows["ALIVE"] * U + empty)[0] == 0
    _refused(_poke(default_file, "tables.tmpl_i32", 3, rows["FIGURES"] * U + empty), f"unit slot {empty}, empty",
             "figures = 3; allowed 0")
    _refused(_poke(default_file, "tables.tmpl_f64", 5000.0, rows["X"] * U), "unit slot 0", "x = 5000",
             "allowed [0, ")
    _refused(_poke(default_file, "tables.tmpl_i32", 5, rows["DIE0"] * U), "unit slot 0", "dice[0] = 5",
             "a die of dice.ladder")
    _refused(_poke(default_file, "tables.tmpl_i8", 7, rows["KIND"] * U), "unit slot 0", "kind = 7")
    _refused(_poke(default_file, "tables.tmpl_i32", 500, rows["NAME_BASE"] * U), "unit slot 0", "name_base = 500")
    # what a scenario may give at set-up (schema Setup bounds), narrower than what a game may reach
    _refused(_poke(default_file, "tables.tmpl_i32", 1001, rows["FIGURES"] * U), "unit slot 0", "figures = 1001",
             "allowed [1, 1000]")
    _refused(_poke(default_file, "tables.tmpl_i32", 2000, rows["MARKERS"] * U), "unit slot 0", "markers = 2000",
             "allowed [0, 1000]")


@pytest.mark.parametrize("index, value, words", [
    (0, 1, "the single die); allowed 0 (low) or 2 (high)"),
    (1, 4, "the single not attacks (4)"),
    (1, 2, "one of them defense (1)"),
    (2, 1, "allowed two different roles"),
])
def test_table5_rows_are_rules_table5_rows(default_file, index, value, words):
    assert struct.unpack_from("<3b", default_file, _layout(default_file)["tables.table5"][0]) == (0, 1, 0)
    _refused(_poke(default_file, "tables.table5", value, index), f"tables.table5[{min(index, 1)}", words)


def _figures_at(data: bytes, slot: int) -> int:
    """Byte offset of slot's figures in the unit templates."""
    from atomic_africa.game.schema import native_rows
    off, _, n = _layout(data)["tables.tmpl_i32"]
    U = n // len(native_rows("i32"))
    return off + 4 * ([r for r, name, _ in native_rows("i32") if name == "FIGURES"][0] * U + slot)


def _set_figures(data: bytes, slot: int, figures: int) -> bytes:
    b = bytearray(data)
    struct.pack_into("<i", b, _figures_at(data, slot), figures)
    return sf.rechecksum(bytes(b))


def test_more_figures_than_the_slots_can_split_into_is_refused(default_file):
    """Issue 34's file: a unit of 5 figures given 50. Its splits would need more unit slots than the
    spec has (the engine offered a split that did nothing, forever); the loader refuses it naming the
    slots, and Python's twin (spec_file.slot_problem) says the same."""
    slot = next(u for u in range(9) if struct.unpack_from("<i", default_file, _figures_at(default_file, u))[0] == 5)
    data = _set_figures(default_file, slot, 50)
    message = _refused(data, "side 0", "unit slots per side", "allowed at most C = 9")
    assert message == "spec file: " + _python_slot_problem(data)


@pytest.mark.parametrize("split_min", [6, 7, 8, 12, 40])
def test_the_slots_check_is_python_s_slot_capacity(default_file, split_min):
    """The figures of side 0's first unit the loader accepts are those slot_capacity (what GameSpec
    sizes C by) fits in the 9 slots: 1 up to a largest, and Python's twin accepts the same."""
    from atomic_africa.game.scenario import load_scenario
    data = _poke(default_file, "cleanup.split_min_figures", split_min)
    side = load_scenario("default").sides[0]
    half = max(1, split_min // 2)
    others = sum(u.figures for u in side.units[1:])
    ok = [f for f in range(1, 400) if cspec.load_status(_set_figures(data, 0, f))[0] == AA_OK]
    assert ok == [f for f in range(1, 400) if _python_slot_problem(_set_figures(data, 0, f)) is None]
    assert ok == list(range(1, ok[-1] + 1))
    assert len(side.units) + (others + ok[-1]) // half <= 9 < len(side.units) + (others + ok[-1] + 1) // half


@pytest.mark.parametrize("action, name", [(3, "split_fire"), (0, "basic"), (7, "sprint")])
def test_an_attacking_action_without_an_attack_is_refused_as_rules_refuse_it(default_file, action, name):
    """The fuzz found it: Split Fire's pair given the Spotting role left the fire code reading attack
    -1 (an out-of-bounds read). Rules.from_dict refuses such a row; so does the loader, for either
    posture, and it refuses postures given different roles (a rules row has one pair of roles)."""
    from atomic_africa.rules import Rules, RulesError
    for posture in (0, 1):
        b = bytearray(default_file)
        at = _layout(default_file)["tables.table5"][0] + 3 * (2 * action + posture)
        b[at + 1], b[at + 2] = 1, 3   # single defense, pair spotting
        message = _refused(sf.rechecksum(bytes(b)), f"(action {action}, posture {posture}")
        assert ("an attacking action" in message) if posture == 0 else ("posture 0's roles" in message)
    data = Rules.default().to_dict()
    data["table5"][name].update(single="defense", pair="spotting")
    with pytest.raises(RulesError, match="an attacking action needs an attack role"):
        Rules.from_dict(data)


def test_trailing_bytes_are_refused(default_file):
    _refused(sf.rechecksum(default_file + b"\x00\x00"), "2 bytes after the last table")


# -- fuzz ------------------------------------------------------------------------------------------
def _mutate(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4, 16))):
        how = rng.random()
        pos = rng.randrange(len(b)) if b else 0
        if how < 0.5 and b:
            b[pos] = rng.randrange(256)
        elif how < 0.7 and b:   # an aligned 4- or 8-byte value
            width = rng.choice((4, 8))
            pos -= (pos - sf.HEADER_SIZE) % width if pos >= sf.HEADER_SIZE else 0
            value = rng.choice((0, 1, 2**31 - 1, 2**32 - 1, 2**63, rng.getrandbits(width * 8)))
            b[pos:pos + width] = (value % 2 ** (8 * width)).to_bytes(width, "little")
        elif how < 0.85:
            del b[pos:pos + rng.randrange(1, 64)]
        else:
            b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    return bytes(b)


def _mutations(data: bytes, n: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        m = _mutate(data, rng)
        out.append(sf.rechecksum(m) if i % 2 and len(m) >= sf.HEADER_SIZE else m)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=8),
       fix=st.booleans())
def test_fuzz_edits_give_a_status(default_file, edits, fix):
    b = bytearray(default_file)
    for pos, value in edits:
        b[pos % len(b)] = value
    data = sf.rechecksum(bytes(b)) if fix else bytes(b)
    status, message = cspec.load_status(data)
    if status == AA_OK:   # only edits that keep every value allowed: it still loads as a whole
        cspec.load_params(data)
    else:
        assert status == AA_ERR_SPEC and message.startswith("spec file: ")


#: The fuzz harness (here, not a .c file: the sdist ships no C outside the core).
HARNESS = r"""/* Feeds spec files to aa_spec_load (tests/test_spec_file.py compiles it, under sanitizers for the fuzz
 * run): stdin holds frames (u32 little-endian length, then that many bytes); for each, one line
 * "status<TAB>message" on stdout. A spec that loads is played to the end, so that the engine runs on
 * every spec the loader accepts: one game of random legal actions through the engine's internals,
 * observed at every decision, where every decision must change the game's state (progress: no legal
 * action leaves it as it was); then one game per built-in agent (random, heuristic, greedy, doctrine,
 * ismcts with a small search) through the public API, that agent on both sides. Each game stops at
 * CAP decisions, which a playable spec never reaches. The line is then "0<TAB>played R A0 A1 A2 A3 A4"
 * (decisions per game), "0<TAB>cap ..." if a game reached CAP, "0<TAB>stuck ..." if a decision left the
 * state unchanged. With the argument "default", loads aa_spec_default instead and prints its sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"
#include "aa_pcg.h"
#include "aa_spec.h"

#define CAP 200000L
#define N_KINDS 5

/* Whether a and b hold the same game (the line-of-sight cache aside: it only remembers). */
static int same_state_(const aa_params *P, const aa_state *a, const aa_state *b) {
    size_t U = (size_t)P->U, K = (size_t)P->K, nf = P->terrain.n_feat > 0 ? (size_t)P->terrain.n_feat : 1;
    return memcmp(a->s, b->s, NS * sizeof(int32_t)) == 0 && memcmp(a->i8, b->i8, NI8 * U) == 0
           && memcmp(a->i32, b->i32, NI32 * U * sizeof(int32_t)) == 0
           && memcmp(a->f64, b->f64, NF64 * U * sizeof(double)) == 0
           && memcmp(a->piles, b->piles, 6 * K * sizeof(int16_t)) == 0
           && memcmp(a->counts, b->counts, 2 * NC * sizeof(int32_t)) == 0
           && memcmp(a->bonus, b->bonus, 2 * sizeof(double)) == 0 && memcmp(a->fcover, b->fcover, nf) == 0;
}

/* One game from P with seed `seed`, random legal actions (a fixed LCG), at most CAP decisions;
 * returns the decisions taken, -1 if memory ran out, -2 if a decision changed nothing. */
static long play_random_(const aa_params *P, uint64_t seed) {
    static int buf[MAX_LEGAL];
    uint64_t st[6], pick = seed;
    aa_bitgen bg;
    aa_state g, before;
    long steps = 0;
    void *mem = malloc(aa_state_size(P)), *mem2 = malloc(aa_state_size(P));
    float *obs = (float *)malloc((size_t)P->obs_size * sizeof(float));
    if (mem == NULL || mem2 == NULL || obs == NULL) {
        free(mem);
        free(mem2);
        free(obs);
        return -1;
    }
    aa_state_bind(&g, P, mem);
    aa_state_bind(&before, P, mem2);
    aa_pcg_from_seed(seed, st);
    aa_pcg_bitgen(st, &bg);
    g.rng = &bg;
    g.ev = NULL;
    aa_start_game(P, &g);
    while (steps < CAP) {
        int n = aa_legal_actions(P, &g, buf);
        if (n == 0)
            break;
        aa_observe(P, &g, g.s[S_CUR], obs);
        pick = pick * 6364136223846793005u + 1442695040888963407u;
        aa_state_copy(P, &before, &g);
        aa_apply_action(P, &g, buf[(pick >> 33) % (uint64_t)n]);
        steps++;
        if (same_state_(P, &before, &g)) {
            steps = -2;
            break;
        }
    }
    free(mem);
    free(mem2);
    free(obs);
    return steps;
}

/* One game of `spec` with agent `kind` on both sides, at most CAP decisions; the decisions taken, or
 * -status on a failure. */
static long play_agent_(const aa_spec *spec, int kind, uint64_t seed) {
    aa_game *g = NULL;
    aa_agent *agent = NULL;
    aa_search_options so;
    int32_t a;
    long steps = 0;
    aa_status st;
    aa_search_defaults(&so);
    so.simulations = 4;
    so.rollout_depth = 6;
    if ((st = aa_game_new(spec, seed, &g)) != AA_OK
        || (st = aa_agent_new_search(kind, seed, NULL, &so, &agent)) != AA_OK
        || (st = aa_game_record_events(g, 0)) != AA_OK) {
        aa_game_free(g);
        return -(long)st;
    }
    while (!aa_game_is_over(g) && steps < CAP) {
        if ((st = aa_agent_action(agent, g, &a)) != AA_OK || (st = aa_game_apply(g, a)) != AA_OK) {
            steps = -(long)st;
            break;
        }
        steps++;
    }
    aa_agent_free(agent);
    aa_game_free(g);
    return steps;
}

int main(int argc, char **argv) {
    unsigned char head[4];
    aa_spec *spec = NULL;
    aa_status st;
    if (argc > 1 && strcmp(argv[1], "default") == 0) {
        const aa_params *P;
        st = aa_spec_default(&spec);
        if (st != AA_OK) {
            printf("%d\t%s\n", (int)st, aa_last_error());
            return 1;
        }
        P = aa_spec_params(spec);
        printf("%d\tC=%d K=%d n_actions=%d obs_size=%d n_feat=%d\n", (int)st, P->C, P->K, P->n_actions,
               P->obs_size, P->terrain.n_feat);
        aa_spec_free(spec);
        return 0;
    }
    while (fread(head, 1, 4, stdin) == 4) {
        size_t n = (size_t)head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
        /* a separate allocation of exactly n bytes: AddressSanitizer sees any read past the end */
        unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
        if (buf == NULL || fread(buf, 1, n, stdin) != n) {
            free(buf);
            return 2;
        }
        st = aa_spec_load(buf, n, &spec);
        if ((st == AA_OK) != (spec != NULL))
            return 3;
        if (st == AA_OK) {
            long played[1 + N_KINDS];
            int k, cap = 0, stuck = 0;
            played[0] = play_random_(aa_spec_params(spec), (uint64_t)n);
            for (k = 0; k < N_KINDS; k++)
                played[1 + k] = play_agent_(spec, k, (uint64_t)n + (uint64_t)k);
            for (k = 0; k <= N_KINDS; k++) {
                cap |= played[k] >= CAP;
                stuck |= played[k] == -2 && k == 0;
            }
            printf("%d\t%s", (int)st, stuck ? "stuck" : cap ? "cap" : "played");
            for (k = 0; k <= N_KINDS; k++)
                printf(" %ld", played[k]);
            printf("\n");
        } else {
            printf("%d\t%s\n", (int)st, aa_last_error());
        }
        fflush(stdout);
        aa_spec_free(spec);
        spec = NULL;
        free(buf);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def sanitized_harness(tmp_path_factory):
    gcc = "/usr/bin/gcc" if Path("/usr/bin/gcc").exists() else shutil.which("gcc")
    if gcc is None:
        pytest.fail("no gcc to build the sanitizer harness")
    tmp = tmp_path_factory.mktemp("spec_fuzz")
    exe, harness = tmp / "spec_load_harness", tmp / "spec_load_harness.c"
    harness.write_text(HARNESS)
    sources = sorted(str(p) for p in CSRC.glob("*.c")) + [str(harness)]
    r = subprocess.run([gcc, "-std=c11", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                        "-fno-omit-frame-pointer", f"-I{CSRC}", f"-I{ROOT / 'src/aa_core/include'}", *sources,
                        "-lm", "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]
    return exe


def _value_mutation(data: bytes, rng: random.Random, names: list) -> bytes:
    """One to three values of named fields set near what they were or within their field's bounds,
    checksum recomputed: files that pass the field bounds and test the consistency checks."""
    lay = _layout(data)
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        name = rng.choice(names)
        off, kind, n = lay[name]
        if n == 0:
            continue
        pos = off + rng.randrange(n) * _SIZE[kind]
        cur = struct.unpack_from(_FMT[kind], b, pos)[0]
        values = [cur + 1, cur - 1, cur * 2, cur * 10, cur / 2 if kind == "f64" else cur // 2, 0, 1, -1]
        f = next((f for f in sf.PARAM_FIELDS + sf.TABLE_FIELDS if f.path == name), None)
        if f is not None and not isinstance(f.lo, str) and not isinstance(f.hi, str):
            values += [f.lo, f.hi, rng.uniform(f.lo, f.hi) if kind == "f64" else rng.randint(int(f.lo), int(f.hi))]
        v = rng.choice(values)
        if kind == "f64":
            struct.pack_into("<d", b, pos, float(v))
        else:
            lo, hi = {"i8": (-128, 127), "u8": (0, 255), "i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1)}[kind]
            struct.pack_into(_FMT[kind], b, pos, min(max(int(v), lo), hi))
    return sf.rechecksum(bytes(b))


def _unit_mutation(data: bytes, rng: random.Random) -> bytes:
    """One to three values of live units' templates changed (figures half the time: the slots' check),
    checksum recomputed."""
    from atomic_africa.game.schema import native_rows
    lay = _layout(data)
    U = lay["tables.tmpl_i8"][2] // len(native_rows("i8"))
    alive = lay["tables.tmpl_i8"][0] + [r for r, n, _ in native_rows("i8") if n == "ALIVE"][0] * U
    live = [u for u in range(U) if data[alive + u]]
    figures = [r for r, n, _ in native_rows("i32") if n == "FIGURES"][0]
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        storage = rng.choice(("i32", "i32", "i8", "f64"))
        row = rng.choice(native_rows(storage))[0]
        if storage == "i32" and rng.random() < 0.5:
            row = figures
        pos = lay["tables.tmpl_" + storage][0] + (row * U + rng.choice(live)) * _SIZE[storage]
        cur = struct.unpack_from(_FMT[storage], b, pos)[0]
        v = rng.choice([cur + 1, cur - 1, cur * 2, cur * 10, cur + 45, 0, 1, 6, 12, 50, 999, 1000])
        if storage == "f64":
            v = float(v)
        elif storage == "i8":
            v = max(-128, min(127, int(v)))
        struct.pack_into(_FMT[storage], b, pos, v)
    return sf.rechecksum(bytes(b))


def _fuzz_files(data: bytes, n: int, seed: int) -> list:
    """n mutated files of ``data``: a fifth byte-level (_mutations), the rest value-level, half of those
    in the unit templates."""
    rng = random.Random(seed)
    names = [name for name in _layout(data) if not name.endswith("#count")]
    out = _mutations(data, n // 5, seed)
    out += [_unit_mutation(data, rng) if i % 2 else _value_mutation(data, rng, names) for i in range(n - n // 5)]
    return out


def _python_slot_problem(data: bytes):
    """spec_file.slot_problem of a file that passes the field bounds, read in Python."""
    from atomic_africa.game.schema import native_rows
    lay = _layout(data)
    C = struct.unpack_from("<i", data, lay["C"][0])[0]
    split_min = struct.unpack_from("<i", data, lay["cleanup.split_min_figures"][0])[0]
    alive = lay["tables.tmpl_i8"][0] + [r for r, n, _ in native_rows("i8") if n == "ALIVE"][0] * 2 * C
    fig = lay["tables.tmpl_i32"][0] + [r for r, n, _ in native_rows("i32") if n == "FIGURES"][0] * 2 * C * 4
    live = [[u for u in range(p * C, (p + 1) * C) if data[alive + u]] for p in (0, 1)]
    return sf.slot_problem(C, split_min, tuple(len(x) for x in live),
                           tuple(sum(struct.unpack_from("<i", data, fig + 4 * u)[0] for u in x) for x in live))


def _run_harness(harness, files: list) -> list:
    frames = b"".join(struct.pack("<I", len(f)) + f for f in files)
    env = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1",
           "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(harness)], input=frames, capture_output=True, env=env, timeout=600)
    err = r.stderr.decode(errors="replace")
    assert r.returncode == 0, err[-4000:]
    assert "runtime error" not in err and "Sanitizer" not in err, err[-4000:]
    lines = r.stdout.decode().splitlines()
    assert len(lines) == len(files)
    return lines


@pytest.mark.slow
def test_fuzz_under_sanitizers(sanitized_harness, default_file):
    """5,000 mutated files (fixed seeds; a fifth byte-level, half of those with the checksum recomputed,
    the rest values changed within or near their bounds with the checksum recomputed, so the field and
    consistency checks see them) through aa_spec_load built with AddressSanitizer and UBSan: a status
    for each, and no sanitizer report. Every file it accepts is played to the end with random legal
    actions (every decision changing the state) and with each built-in agent on both sides, and no game
    reaches the harness's cap of 200,000 decisions: the loader refuses every spec the engine cannot
    play."""
    from atomic_africa.game.scenario import load_scenario
    seeds = [default_file, sf.compile_spec(load_scenario("meeting_engagement"))]
    files = [m for k, s in enumerate(seeds) for m in _fuzz_files(s, 2500, 1000 + k)] + seeds
    lines = _run_harness(sanitized_harness, files)
    statuses = [int(line.split("\t")[0]) for line in lines]
    assert set(statuses) <= {AA_OK, AA_ERR_SPEC}
    assert statuses[-2:] == [AA_OK, AA_OK]
    # in line with the Python build's loader, file for file
    for f, line in zip(files[::97], lines[::97]):
        assert cspec.load_status(f)[0] == int(line.split("\t")[0])
    accepted = [line for line in lines if line.startswith("0\t")]
    assert all(line.startswith("0\tplayed ") for line in accepted), \
        [line for line in accepted if not line.startswith("0\tplayed ")][:5]
    games = np.array([[int(x) for x in line.split()[2:]] for line in accepted])
    assert games.shape[1] == 6 and games.min() > 0   # random, then the five agents: each played to its end
    assert len(accepted) > 1000 and statuses.count(AA_ERR_SPEC) > 2000
    # the slots' check: refused by the C loader exactly when Python's twin refuses (files whose every
    # other check passes: accepted, or refused for the slots)
    slots = [(f, line) for f, line in zip(files, lines) if line.startswith("0\t") or "unit slots per side" in line]
    assert sum("unit slots per side" in line for _, line in slots) > 100
    for f, line in slots:
        problem = _python_slot_problem(f)
        assert (problem is None) == line.startswith("0\t"), (problem, line)
        assert problem is None or line == f"2\tspec file: {problem}"


@pytest.mark.slow
def test_sanitized_default_spec(sanitized_harness):
    r = subprocess.run([str(sanitized_harness), "default"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout == "0\tC=9 K=54 n_actions=598 obs_size=838 n_feat=7\n"


# -- the command line ------------------------------------------------------------------------------
def test_cli_compile_writes_the_file(tmp_path, capsys):
    out = tmp_path / "default.spec"
    assert main(["compile", "default", "-o", str(out)]) == 0
    assert out.read_bytes() == sf.compile_spec()
    assert [p.name for p in tmp_path.iterdir()] == ["default.spec"]   # no temporary left


def test_cli_compile_with_rules(tmp_path):
    from atomic_africa.rules_reference import packaged_rules_toml
    rules = tmp_path / "rules.toml"
    rules.write_text(packaged_rules_toml().replace("increment_cm = 4.5", "increment_cm = 5.0", 1))
    out = tmp_path / "x.spec"
    assert main(["compile", "default", "--rules", str(rules), "-o", str(out)]) == 0
    params, _ = cspec.load_params(out.read_bytes())
    assert params["movement"]["increment_cm"] == 5.0


@pytest.mark.parametrize("argv, words", [
    (["compile", "nosuch", "-o", "x.spec"], "no packaged scenario named 'nosuch'"),
    (["compile", "default", "-o", "/nonexistent-dir/x.spec"], "cannot write"),
    (["compile", "default"], "-o/--output"),
])
def test_cli_compile_errors_are_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


# -- a game from the loaded spec -------------------------------------------------------------------
@pytest.mark.parametrize("scenario", [None, "meeting_engagement"])
def test_a_vector_game_on_the_loaded_spec_plays_as_vector_game(scenario):
    """VectorGame's kernel bound to the spec file `atomic-africa compile` writes (what a C host loads)
    plays the same games as a VectorGame: the same legal actions, observations and events at every step;
    and the C loader reads back the parameters Python computed."""
    from aa_core import vbatch
    from atomic_africa.game.native.vector import VectorGame
    data = sf.compile_spec(scenario)
    a = VectorGame(scenario, num_envs=16, seed=7, record_events=True)
    b = VectorGame(scenario, num_envs=16, seed=7, record_events=True)
    lp, _ = cspec.load_params(data)
    computed = native_params(a.spec)[0]["orders"]
    assert lp["orders"] == {k: computed[k] for k in lp["orders"]}
    b._engine = vbatch.Engine(data, b.num_envs, b.record_events)
    b._reseed()
    a.reset(seed=7)
    b.reset(seed=7)
    rng = np.random.default_rng(3)
    for _ in range(400):
        masks = a.action_masks()
        assert np.array_equal(masks, b.action_masks())
        assert np.array_equal(a.observations(), b.observations())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        a.step(actions)
        b.step(actions)
    for i in range(a.num_envs):
        assert a.events(i) == b.events(i)

