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
    struct.pack_into("<I", b, 12, 1)
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
    if n == 0:
        pytest.skip("empty in the default battle")
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
 * "status<TAB>message" on stdout, and a spec that loads plays one game of random legal actions
 * (observed at every decision), so that the engine runs on every spec the loader accepts. With the
 * argument "default", loads aa_spec_default instead and prints its sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"
#include "aa_pcg.h"
#include "aa_spec.h"

/* One game from P with seed `seed`, random legal actions (a fixed LCG), at most 3000 decisions;
 * returns the decisions taken, -1 if memory ran out. */
static long play_(const aa_params *P, uint64_t seed) {
    static int buf[MAX_LEGAL];
    uint64_t st[6], pick = seed;
    aa_bitgen bg;
    aa_state g;
    long steps = 0;
    void *mem = malloc(aa_state_size(P));
    float *obs = (float *)malloc((size_t)P->obs_size * sizeof(float));
    if (mem == NULL || obs == NULL) {
        free(mem);
        free(obs);
        return -1;
    }
    aa_state_bind(&g, P, mem);
    aa_pcg_from_seed(seed, st);
    aa_pcg_bitgen(st, &bg);
    g.rng = &bg;
    g.ev = NULL;
    aa_start_game(P, &g);
    while (steps < 3000) {
        int n = aa_legal_actions(P, &g, buf);
        if (n == 0)
            break;
        aa_observe(P, &g, g.s[S_CUR], obs);
        pick = pick * 6364136223846793005u + 1442695040888963407u;
        aa_apply_action(P, &g, buf[(pick >> 33) % (uint64_t)n]);
        steps++;
    }
    free(mem);
    free(obs);
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
        if (st == AA_OK)
            printf("%d\tplayed %ld decisions\n", (int)st, play_(aa_spec_params(spec), (uint64_t)n));
        else
            printf("%d\t%s\n", (int)st, aa_last_error());
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


@pytest.mark.slow
def test_fuzz_under_sanitizers(sanitized_harness, default_file):
    """Thousands of mutated files (fixed seeds; half with the checksum recomputed, so the field checks
    see them) through aa_spec_load built with AddressSanitizer and UBSan: a status for each, and no
    sanitizer report; every file it accepts plays a game of random legal actions to its end (or 3000
    decisions), observed at every decision, so the checks are enough for the engine too."""
    from atomic_africa.game.scenario import load_scenario
    seeds = [default_file, sf.compile_spec(load_scenario("meeting_engagement"))]
    files = [m for k, s in enumerate(seeds) for m in _mutations(s, 2000, 1000 + k)] + seeds
    frames = b"".join(struct.pack("<I", len(f)) + f for f in files)
    env = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1",
           "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(sanitized_harness)], input=frames, capture_output=True, env=env, timeout=600)
    err = r.stderr.decode(errors="replace")
    assert r.returncode == 0, err[-4000:]
    assert "runtime error" not in err and "Sanitizer" not in err, err[-4000:]
    lines = r.stdout.decode().splitlines()
    assert len(lines) == len(files)
    statuses = [int(line.split("\t")[0]) for line in lines]
    assert set(statuses) <= {AA_OK, AA_ERR_SPEC}
    assert statuses[-2:] == [AA_OK, AA_OK]
    # in line with the Python build's loader, file for file
    for f, line in zip(files[::97], lines[::97]):
        assert cspec.load_status(f)[0] == int(line.split("\t")[0])
    assert statuses.count(AA_ERR_SPEC) > len(files) // 2
    played = [int(line.split()[2]) for line in lines if line.startswith("0\t")]
    assert all(line.startswith("0\tplayed ") for line in lines if line.startswith("0\t"))
    assert len(played) > 50 and min(played) > 0   # mutations within the bounds were accepted, and played


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
    """VectorGame's kernel bound to the parameters aa_spec_load made (not those Python computed) plays
    the same games: the same legal actions, observations and events at every step."""
    from aa_core import vbatch
    from atomic_africa.game.native.vector import VectorGame
    data = sf.compile_spec(scenario)
    a = VectorGame(scenario, num_envs=16, seed=7, record_events=True)
    b = VectorGame(scenario, num_envs=16, seed=7, record_events=True)
    lp, lt = cspec.load_params(data)
    b._engine = vbatch.Engine(lp, lt, b.num_envs, b.record_events)
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


# -- libFuzzer (clang) -----------------------------------------------------------------------------
#: A libFuzzer target: the input's last byte chooses whether the header's length and checksum are
#: rewritten to fit the rest (so that coverage-guided mutations reach the field checks); a spec that
#: loads plays a short game.
FUZZ_TARGET = r"""
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"
#include "aa_pcg.h"
#include "aa_spec.h"

static uint32_t crc32_(uint32_t crc, const unsigned char *p, size_t n) {
    size_t i;
    int k;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_(unsigned char *p, uint64_t v, int n) {
    int i;
    for (i = 0; i < n; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    static int buf[MAX_LEGAL];
    unsigned char *b;
    aa_spec *spec = NULL;
    size_t n;
    if (size == 0)
        return 0;
    n = size - 1;
    b = (unsigned char *)malloc(n ? n : 1);
    if (b == NULL)
        return 0;
    memcpy(b, data, n);
    if ((data[n] & 1) && n >= 32) {
        put_(b + 16, n - 32, 8);
        put_(b + 28, crc32_(crc32_(0, b, 28), b + 32, n - 32), 4);
    }
    if (aa_spec_load(b, n, &spec) == AA_OK) {
        const aa_params *P = aa_spec_params(spec);
        uint64_t st[6];
        aa_bitgen bg;
        aa_state g;
        int k, m;
        void *mem = malloc(aa_state_size(P));
        if (mem != NULL) {
            aa_state_bind(&g, P, mem);
            aa_pcg_from_seed(n, st);
            aa_pcg_bitgen(st, &bg);
            g.rng = &bg;
            g.ev = NULL;
            aa_start_game(P, &g);
            for (k = 0; k < 300 && (m = aa_legal_actions(P, &g, buf)) > 0; k++)
                aa_apply_action(P, &g, buf[(unsigned)k * 2654435761u % (unsigned)m]);
            free(mem);
        }
        aa_spec_free(spec);
    } else if (spec != NULL) {
        abort();   /* a refused load leaves *out NULL */
    }
    free(b);
    return 0;
}
"""


@pytest.mark.slow
def test_libfuzzer_under_sanitizers(tmp_path, default_file):
    """Coverage-guided fuzzing of aa_spec_load with libFuzzer, ASan and UBSan (clang), from the default
    file (with and without a rewritten checksum), a fixed seed and a fixed number of runs: no crash, no
    sanitizer report. Where clang has no libFuzzer, the sanitized harness above still runs."""
    clang = shutil.which("clang")
    probe = tmp_path / "probe.c"
    probe.write_text("int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)"
                     "{(void)d;(void)n;return 0;}\n")
    if clang is None or subprocess.run([clang, "-fsanitize=fuzzer", str(probe), "-o", str(tmp_path / "probe")],
                                       capture_output=True).returncode != 0:
        pytest.skip("no clang with libFuzzer here (test_fuzz_under_sanitizers covers the loader with gcc)")
    target = tmp_path / "fuzz_spec.c"
    target.write_text(FUZZ_TARGET)
    exe = tmp_path / "fuzz_spec"
    sources = sorted(str(p) for p in CSRC.glob("*.c")) + [str(target)]
    r = subprocess.run([clang, "-std=c11", "-O1", "-g", "-fsanitize=fuzzer,address,undefined",
                        "-fno-sanitize-recover=all", f"-I{CSRC}", f"-I{ROOT / 'src/aa_core/include'}", *sources,
                        "-lm", "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "default_fixed").write_bytes(default_file + b"\x01")
    (corpus / "default_raw").write_bytes(default_file + b"\x00")
    r = subprocess.run([str(exe), "-seed=22", "-runs=20000", "-max_len=16384", "-rss_limit_mb=4096",
                        "-print_final_stats=1", str(corpus)], capture_output=True, text=True, timeout=900,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-4000:]
    assert "runtime error" not in r.stderr and "ERROR: " not in r.stderr, r.stderr[-4000:]
    assert "Done 20000 runs" in r.stderr, r.stderr[-2000:]
