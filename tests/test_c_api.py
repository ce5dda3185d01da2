"""The public C API (src/aa_core/include/atomic_africa.h) from C and C++ hosts with no Python in the
process: the suite builds libatomic_africa.a with the C core's Makefile (conftest.make_build), compiles
tests/support/capi_driver.c and .cpp with the system compilers (/usr/bin: gcc, g++; clang and clang++
when present), checks with ldd that no libpython is linked, and compares what the drivers print with
the Python engine: the same legal ids, agent choices, events, observations and winners as ``Game``,
the planning calls (aa_game_determinize, aa_game_reseed, a copy's independence, the ISMCTS agent)
equal to ``Game.determinize``, ``Game.reseed`` and ``ISMCTSAgent``, the worked fire example, a
corrupted spec refused with a message, and bad arguments named."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.reference.game.agents import DoctrineAgent, GreedyAgent, RandomAgent
from atomic_africa.reference.game import Game
from atomic_africa.game.native.layout import decode_records
from atomic_africa.game.spec import GameSpec

# One xdist worker builds the library once for the module.
pytestmark = pytest.mark.xdist_group("c_api")

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "aa_core"
INCLUDE = PKG / "include"
SUPPORT = Path(__file__).resolve().parent / "support"
AGENT_SEED = 10000   # capi_driver's RandomAgent seeds: AGENT_SEED + 2 * game seed + side
FNV0 = 14695981039346656037

C_COMPILERS = [c for c in ("/usr/bin/gcc", "/usr/bin/clang") if os.access(c, os.X_OK)]
CXX_COMPILERS = [c for c in ("/usr/bin/g++", "/usr/bin/clang++") if os.access(c, os.X_OK)]


def _run(args, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kw)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def library(make_build) -> Path:
    """libatomic_africa.a of the Makefile's build."""
    lib = make_build / "libatomic_africa.a"
    assert lib.is_file()
    return lib


def _compile(cc: str, src: Path, lib: Path, out: Path, cxx: bool) -> Path:
    std = ["-std=c++11"] if cxx else ["-std=c11", "-pedantic"]
    _run([cc, *std, "-O2", "-Wall", "-Wextra", "-Werror", "-I", INCLUDE, src, lib, "-lm", "-o", out])
    return out


@pytest.fixture(scope="module")
def drivers(library, tmp_path_factory) -> dict:
    """compiler -> the driver it built (C drivers for the C compilers, C++ for the C++ ones)."""
    work = tmp_path_factory.mktemp("aa_drivers")
    out = {}
    for cc in C_COMPILERS:
        out[cc] = _compile(cc, SUPPORT / "capi_driver.c", library, work / f"c_{Path(cc).name}", cxx=False)
    for cc in CXX_COMPILERS:
        out[cc] = _compile(cc, SUPPORT / "capi_driver.cpp", library, work / f"cpp_{Path(cc).name}", cxx=True)
    return out


@pytest.fixture(scope="module")
def c_driver(drivers) -> Path:
    return drivers[C_COMPILERS[0]]


def _fnv(data: bytes) -> int:
    h = FNV0
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _view_line(tag: str, g: Game) -> str:
    """capi_driver's print_view of a Python game: both observations' digests and the legal ids'."""
    obs = " ".join(f"{_fnv(g.observation(p).astype('<f4').tobytes()):016x}" for p in range(2))
    legal = g.legal_actions()
    return f"{tag} {obs} {len(legal)} {_fnv(np.array(legal, dtype='<i4').tobytes()):016x}"


def _python_play(seed: int, ops=()) -> tuple:
    """The lines capi_driver's `play` prints for one game, from the Python engine, and the game; with
    `plan`'s ops ((k, "d", player, seed) or (k, "r", seed): before decision k) and their D lines."""
    g = Game(None, seed)
    agents = [RandomAgent(AGENT_SEED + 2 * seed + p) for p in range(2)]
    lines = [f"G {seed}"]
    pending, k = list(ops), 0
    while not g.is_over:
        while pending and pending[0][0] == k:
            op = pending.pop(0)
            if op[1] == "d":
                g.determinize(op[2], op[3])
            else:
                g.reseed(op[2])
            lines.append(_view_line("D", g))
        k += 1
        p = g.current_player
        legal = g.legal_actions()
        a = agents[p].act(g)
        g.apply(a)
        lines.append(f"S {p} {len(legal)} {_fnv(np.array(legal, dtype='<i4').tobytes()):016x} {a}")
    winner = -1 if g.result.winner is None else g.result.winner
    return lines, winner, g


def _compare_games(driver: Path, seeds: range, events_for=()):
    out = _run([driver, "play", seeds.start, len(seeds)]).stdout.splitlines()
    games = [i for i, line in enumerate(out) if line.startswith("G ")]
    assert len(games) == len(seeds)
    spec = GameSpec.build(None)
    for k, seed in enumerate(seeds):
        lo, hi = games[k], games[k + 1] if k + 1 < len(games) else len(out)
        lines, winner, g = _python_play(seed)
        c_lines, last = out[lo:hi - 1], out[hi - 1].split()
        assert c_lines == lines, f"seed {seed}: the C game differs from Game"
        assert last[0] == "W" and int(last[1]) == winner, (seed, last)
        for p in range(2):
            assert int(last[4 + p], 16) == _fnv(g.observation(p).astype("<f4").tobytes()), (seed, p)
        if seed in events_for:
            records = np.array([float(x) for x in _run([driver, "events", seed]).stdout.split()])
            assert len(records) == int(last[2])
            assert decode_records(records, spec.scenario, spec.deck, spec.C, seed) == g.events, seed


def test_the_drivers_link_no_python(drivers):
    for cc, exe in drivers.items():
        libs = _run(["/usr/bin/ldd", exe]).stdout
        assert "libpython" not in libs, (cc, libs)
        assert not re.search(r"python", libs, re.I), (cc, libs)


def test_games_equal_the_python_game_step_for_step(c_driver):
    """Five games of the default battle: legal ids, random-agent choices, winner and both players'
    final observations equal Game's; the event records decode to Game.events exactly."""
    _compare_games(c_driver, range(0, 5), events_for={0, 3})


@pytest.mark.slow
def test_200_games_equal_the_python_game(drivers):
    """Seeds 0..199 from every compiled driver (C and C++): each prints the same lines, and those are
    the Python Game's, step for step; events compared in full for a tenth of them."""
    seeds = range(200)
    outputs = {cc: _run([exe, "play", 0, len(seeds)]).stdout for cc, exe in drivers.items()}
    first = next(iter(outputs.values()))
    for cc, text in outputs.items():
        assert text == first, f"{cc} plays differently"
    _compare_games(drivers[C_COMPILERS[0]], seeds, events_for=set(range(0, 200, 10)))


def test_cxx_driver_plays_as_the_c_driver(drivers):
    texts = {cc: _run([exe, "play", 7, 2]).stdout for cc, exe in drivers.items()}
    assert len(set(texts.values())) == 1, sorted(texts)
    assert len(CXX_COMPILERS) >= 1


def test_worked_fire_example(drivers):
    """13 vs band 3, Defense 2, armor 2, Light cover: 2 markers, 2 wounds (RULES.md's example)."""
    want = aa.resolve_fire(13, 3, 2, 2, aa.Cover.LIGHT)
    assert (want.markers, want.wounds) == (2, 2)
    for cc, exe in drivers.items():
        assert _run([exe, "fire"]).stdout.split() == ["F", "2", "2"], cc


def test_simulate_fire_equals_batch_simulate_fire(c_driver):
    """70,000 engagements (two random streams: the chunk boundary) equal batch.simulate_fire."""
    assert aa.batch.SIMULATE_CHUNK == 65536   # AA_SIMULATE_CHUNK in atomic_africa.h
    header = (INCLUDE / "atomic_africa.h").read_text()
    assert f"#define AA_SIMULATE_CHUNK {aa.batch.SIMULATE_CHUNK}\n" in header
    for seed, n in ((0, 70000), (12345, 1000)):
        r = aa.batch.simulate_fire(n, "d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=1,
                                   range_band=2, armor=2, cover=aa.Cover.LIGHT, seed=seed)
        out = dict(line.split() for line in _run([c_driver, "sim", seed, n]).stdout.splitlines())
        assert int(out["M"], 16) == _fnv(r.markers.astype("<i1").tobytes())
        assert int(out["X"], 16) == _fnv(r.wounds.astype("<i2").tobytes())


def _plan_ops(rng: np.random.Generator, every: float, last: int = 300) -> list:
    """Planning calls at random decisions: determinize for a random player (seeds over the whole
    uint64 range, its ends included) or reseed."""
    ops, seeds = [], iter([0, 2**64 - 1])
    for k in range(last):
        if rng.random() < every:
            s = next(seeds, None)
            s = int(rng.integers(2**64, dtype=np.uint64)) if s is None else s
            ops.append((k, "d", int(rng.integers(2)), s) if rng.random() < 0.7 else (k, "r", s))
    return ops


def _op_arg(op) -> str:
    return ":".join(str(x) for x in op)


@pytest.mark.parametrize("seed", [0, 3, 12])
def test_determinize_and_reseed_equal_the_python_game(c_driver, seed):
    """aa_game_determinize(g, p, s) is Game.determinize(p, s) and aa_game_reseed(g, s) is
    Game.reseed(s): after each call both players' observations and the legal ids equal the Python
    game's, and the game played on by the same agents stays equal step for step to its end (the
    winner and both final observations too)."""
    ops = _plan_ops(np.random.default_rng(seed), every=0.08)
    assert any(op[1] == "d" for op in ops) and any(op[1] == "r" for op in ops)
    out = _run([c_driver, "plan", seed, *map(_op_arg, ops)]).stdout.splitlines()
    lines, winner, g = _python_play(seed, ops)
    assert sum(line.startswith("D ") for line in lines) >= 5, "the game ended before the planning calls"
    assert out[:-1] == lines, f"seed {seed}: the C game differs from Game after a planning call"
    last = out[-1].split()
    assert last[0] == "W" and int(last[1]) == winner
    for p in range(2):
        assert int(last[4 + p], 16) == _fnv(g.observation(p).astype("<f4").tobytes()), p


def test_a_determinized_copy_leaves_the_original_alone(c_driver):
    """aa_game_copy, then aa_game_determinize of the copy and play on it: the original's observations
    (both players), legal ids and event records are what they were; the copy is Python's
    Game.clone().determinize(p, s), and the determinizing player sees what it saw."""
    for seed, steps, p, s in ((1, 25, 0, 9), (4, 60, 1, 2**64 - 1), (6, 0, 1, 3), (2, 41, 0, 17)):
        v1, w, v2, e = (line.split() for line in _run([c_driver, "copydet", seed, steps, p, s]).stdout.splitlines())
        assert v1[0] == "V" and v1[1:] == v2[1:], (seed, "the original changed")
        assert e[0] == "E" and e[1] == e[2], (seed, "the original's events changed")
        g = Game(None, seed)
        agents = [RandomAgent(AGENT_SEED + 2 * seed + q) for q in range(2)]
        for _ in range(steps):
            g.apply(agents[g.current_player].act(g))
        assert " ".join(v1) == _view_line("V", g)
        d = g.clone()
        d.determinize(p, s)
        assert " ".join(w) == _view_line("W", d)
        assert w[1 + p] == v1[1 + p], "the determinizing player's observation changed"
        if g.current_player == p:
            assert w[3:] == v1[3:], "the determinizing player's legal ids changed"


@pytest.mark.parametrize("sims,exploration,rollout,depth,decisions", [
    (16, 0.7, "random", 0, 40),
    (12, 1.3, "heuristic", 25, 30),
], ids=["random-rollouts", "heuristic-depth-25"])
def test_the_ismcts_agent_chooses_as_the_python_agent(c_driver, sims, exploration, rollout, depth, decisions):
    """aa_agent_new_search(AA_AGENT_ISMCTS, seed, NULL, options) for each side chooses what
    ISMCTSAgent(seed, simulations, exploration, rollout, rollout_depth) chooses in the same game (one
    agent, one stream, per side), decision for decision."""
    from atomic_africa.reference.game.agents import ISMCTSAgent
    from atomic_africa.game.native.agent_args import AGENT_KINDS

    seeds = (4, 9)
    got = [int(x) for x in _run([c_driver, "search", 8, decisions, sims, repr(exploration), AGENT_KINDS[rollout],
                                 depth, *seeds]).stdout.split()]
    agents = [ISMCTSAgent(s, simulations=sims, exploration=exploration, rollout=rollout, rollout_depth=depth)
              for s in seeds]
    g, want = Game(None, 8), []
    while not g.is_over and len(want) < decisions:
        a = agents[g.current_player].act(g)
        g.apply(a)
        want.append(a)
    assert got == want
    assert len(set(want)) > 5   # a search that plays, not one stuck action


def test_search_defaults_are_the_python_class():
    """aa_search_defaults (aa_api.c's default_search) are ISMCTSAgent's constructor defaults."""
    import inspect

    from atomic_africa.reference.game.agents import ISMCTSAgent
    from atomic_africa.game.native.agent_args import AGENT_KINDS

    text = (PKG / "csrc" / "aa_api.c").read_text()
    m = re.search(r"default_search = \{([^}]*)\};", text)
    sims, expl, rollout, depth, width = (x.strip() for x in m.group(1).split(","))
    d = {k: p.default for k, p in inspect.signature(ISMCTSAgent.__init__).parameters.items()}
    assert int(sims) == d["simulations"] and float(expl) == d["exploration"] and int(depth) == d["rollout_depth"]
    assert int(width) == d["width"]
    assert rollout == "AA_AGENT_RANDOM" and AGENT_KINDS[d["rollout"]] == 0


def test_search_defaults_through_the_api(c_driver):
    from atomic_africa._limits import MAX_SIMULATIONS
    from atomic_africa.reference.game.agents import ISMCTSAgent

    a = ISMCTSAgent()
    tag, sims, expl, rollout, depth, width = _run([c_driver, "searchdefaults"]).stdout.split()
    assert (tag, int(sims), float(expl), int(rollout), int(depth), int(width)) == (
        "SD", a.simulations, a.exploration, 0, a.rollout_depth, a.width)
    header = (INCLUDE / "atomic_africa.h").read_text()
    assert f"#define AA_MAX_SIMULATIONS {MAX_SIMULATIONS}\n" in header


def test_a_copy_goes_on_as_the_original(c_driver):
    assert _run([c_driver, "copy"]).stdout.split()[0] == "C"
    _, w1, w2, over = _run([c_driver, "copy"]).stdout.split()
    assert w1 == w2 and over == "1"


def test_a_compiled_spec_loads_and_a_corrupted_one_is_refused(drivers, tmp_path):
    good = tmp_path / "default.aaspec"
    _run([sys.executable, "-m", "atomic_africa", "compile", "default", "-o", good])
    data = bytearray(good.read_bytes())
    bad = tmp_path / "bad.aaspec"
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    short = tmp_path / "short.aaspec"
    short.write_bytes(good.read_bytes()[:40])
    for cc, exe in drivers.items():
        assert _run([exe, "spec", good]).stdout.strip() == "0", cc
        for f in (bad, short):
            status, msg = _run([exe, "spec", f]).stdout.strip().split(" ", 1)
            assert status == "2" and msg.startswith("spec file:"), (cc, f.name, status, msg)


# Every bad call of capi_driver's `errors`: its status (or the negated status of a count) and the
# message's start, which names the argument and what is allowed.
ERRORS = {
    "spec_default_null": (1, "out: NULL"),
    "spec_load_null": (1, "data: NULL"),
    "game_new_null_spec": (1, "spec: NULL; expected a spec from aa_spec_default or aa_spec_load"),
    "game_new_null_out": (1, "out: NULL; expected a pointer"),
    "num_actions_null": (-1, "spec: NULL"),
    "is_over_null": (-1, "game: NULL; expected a game from aa_game_new or aa_game_copy"),
    "copy_null": (1, "game: NULL"),
    "current_player_null": (1, "game: NULL"),
    "current_player_null_out": (1, "player: NULL"),
    # the 16 assignments of Game(default battle, seed 7) at its start (orders obligatory: no END ORDERS)
    "legal_cap_small": (-1, "cap: 1 is too small for the 16 legal actions; allowed >= 16"),
    "legal_cap_negative": (-1, "cap: -1; expected >= 0"),
    "legal_buf_null": (-1, "buf: NULL with cap 4"),
    "apply_negative": (1, "action: -1 is out of range; allowed 0..597"),
    "apply_too_large": (1, "action: 598 is out of range; allowed 0..597"),
    "apply_null": (1, "game: NULL"),
    "winner_running": (6, "game: still running (turn 1)"),
    "observe_player": (1, "player: 2; allowed 0 or 1"),
    "observe_cap": (1, "cap: 4 is too small for an observation; allowed >= 838"),
    "observe_null": (1, "out: NULL"),
    "events_null": (1, "records: NULL"),
    "record_events_bad": (1, "on: 5; allowed 0 (off) or 1 (on)"),
    "player_events_player": (1, "player: 2; allowed 0 or 1"),
    "player_events_null_n": (1, "n: NULL; expected a pointer"),
    "player_events_buf_null": (1, "buf: NULL with cap 4; expected room for cap values (or cap 0 to count them)"),
    "player_events_null_game": (1, "game: NULL"),
    "player_events_cap": (1, "cap: 1 is too small for the "),
    "agent_kind": (1, "kind: 9; allowed AA_AGENT_RANDOM (0), AA_AGENT_HEURISTIC (1), AA_AGENT_GREEDY (2), AA_AGENT_DOCTRINE (3) or AA_AGENT_ISMCTS (4)"),
    "agent_null_out": (1, "out: NULL"),
    "agent_action_null": (1, "agent: NULL"),
    "fire_null_spec": (1, "spec: NULL"),
    "fire_attack": (1, "attack: -1; allowed 0..1073741824"),
    "fire_band": (1, "range_band: 0; allowed 1..9"),
    "fire_band_high": (1, "range_band: 99; allowed 1..9"),
    "fire_defense": (1, "defense: -2; allowed 0..1073741824"),
    "fire_armor": (1, "armor: 0; allowed 1..1073741824"),
    "fire_cover": (1, "cover: 3; allowed 0 (none), 1 (light) or 2 (heavy)"),
    "fire_null_out": (1, "markers: NULL"),
    "sim_die": (1, "engagement->shooter[1]: 7; allowed dice 4, 6, 8, 10 or 12"),
    "sim_action": (1, "engagement->shooter_action: 5 makes no attack; allowed BASIC (0)"),
    "sim_ap": (1, "engagement->ap: 1; allowed -1073741824..0"),
    "sim_null_out": (1, "markers: NULL"),
    "sim_null_engagement": (1, "engagement: NULL; expected the address of an aa_engagement"),
    "reseed_null": (1, "game: NULL; expected a game from aa_game_new or aa_game_copy"),
    "determinize_null": (1, "game: NULL; expected a game from aa_game_new or aa_game_copy"),
    "determinize_player": (1, "player: 2; allowed 0 or 1"),
    "determinize_player_negative": (1, "player: -1; allowed 0 or 1"),
    "search_defaults_null": (1, "out: NULL; expected a pointer"),
    "search_null_out": (1, "out: NULL; expected a pointer"),
    "search_kind": (1, "kind: 9; allowed AA_AGENT_RANDOM (0)"),
    "search_simulations_zero": (1, "search->simulations: 0; allowed 1..1000000"),
    "search_simulations_high": (1, "search->simulations: 1000001; allowed 1..1000000"),
    "search_exploration_nan": (1, "search->exploration: nan; allowed finite numbers >= 0"),
    "search_exploration_negative": (1, "search->exploration: -0.5; allowed finite numbers >= 0"),
    "search_exploration_inf": (1, "search->exploration: inf; allowed finite numbers >= 0"),
    "search_rollout_ismcts": (1, "search->rollout: 4; allowed AA_AGENT_RANDOM (0), AA_AGENT_HEURISTIC (1), "
                                 "AA_AGENT_GREEDY (2) or AA_AGENT_DOCTRINE (3)"),
    "search_rollout_negative": (1, "search->rollout: -1; allowed AA_AGENT_RANDOM (0)"),
    "search_rollout_depth": (1, "search->rollout_depth: -1; allowed 0 (to the end of the game) or more"),
    "search_width": (1, "search->width: -1; allowed 0 (every legal action) .. 8192"),
}


def test_bad_arguments_get_a_status_and_a_message(c_driver):
    got = {}
    for line in _run([c_driver, "errors"]).stdout.splitlines():
        name, status, msg = (line.split(" ", 2) + [""])[:3]
        got[name] = (int(status), msg)
    # NULL, 0 counts the legal actions: those of Game(default battle, seed 7) at its start
    from atomic_africa.game import default_scenario
    from atomic_africa.reference.game import Game
    assert got.pop("legal_count") == (len(Game(default_scenario(), 7).legal_actions()), "")
    # aa_game_player_events(NULL, 0) counts the values (those of aa_game_events); a refused call left
    # buf (42) untouched, and its message names the size needed
    status, rest = got.pop("player_events_count")
    n_view, n_full, untouched = rest.split()
    assert status == 0 and n_view == n_full and untouched == "42"
    assert got["player_events_cap"][1].endswith(f"{n_full} event values; allowed >= {n_full}")
    # every refused aa_agent_new_search left the host's agent pointer NULL
    assert got.pop("search_out_cleared") == (1, "")
    for name, (status, start) in ERRORS.items():
        assert got[name][0] == status and got[name][1].startswith(start), (name, got[name])
    assert set(got) == set(ERRORS)


def test_the_limit_in_the_messages_is_the_python_api_s():
    from atomic_africa._limits import MAX_VALUE
    assert MAX_VALUE == 1073741824
    with pytest.raises(ValueError, match="attack"):
        aa.resolve_fire(MAX_VALUE + 1, 3, 2, 2)


def test_default_agent_options_are_the_python_classes():
    """aa_api.c's default_options are GreedyAgent's and DoctrineAgent's constructor defaults."""
    text = (PKG / "csrc" / "aa_api.c").read_text()
    m = re.search(r"default_options = \{([^}]*)\};", text)
    values = [float(x) for x in m.group(1).split(",")]
    g, d = GreedyAgent(), DoctrineAgent()
    assert values == [g.wound_value, g.marker_value, g.rally_value, g.cover_value, g.reserve_value, d.standoff_cm]


def test_the_c_api_page_example_compiles_and_prints_what_it_says(library, tmp_path):
    """docs/guide/c_api.md's complete example, compiled as it stands: it plays Game(None, 42) with
    RandomAgent(1) against HeuristicAgent() as the Python engine does."""
    from atomic_africa.reference.game.agents import HeuristicAgent

    page = (ROOT / "docs" / "guide" / "c_api.md").read_text()
    blocks = re.findall(r"```c\n(.*?)```", page, flags=re.S)
    assert len(blocks) == 1 and len(blocks[0].splitlines()) <= 45
    src = tmp_path / "example.c"
    src.write_text(blocks[0])
    exe = _compile(C_COMPILERS[0], src, library, tmp_path / "example", cxx=False)
    out = _run([exe]).stdout.splitlines()
    g, agents, decisions = Game(None, 42), [RandomAgent(1), HeuristicAgent()], 0
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
        decisions += 1
    winner = -1 if g.result.winner is None else g.result.winner
    assert out[0] == f"decisions {decisions}, winner {winner}"
    assert out[1].startswith("refused: action 0: the game is over")
    assert out[2] == "markers 2, wounds 2"


@pytest.mark.parametrize("cc", C_COMPILERS + CXX_COMPILERS)
def test_the_public_header_stands_alone(cc, tmp_path):
    """atomic_africa.h compiles on its own, twice included, as C11 and C++11 with every warning an error,
    and names nothing outside the aa_ / AA_ prefixes (a host's own names cannot clash)."""
    cxx = cc in CXX_COMPILERS
    src = tmp_path / ("use.cpp" if cxx else "use.c")
    src.write_text('#include "atomic_africa.h"\n#include "atomic_africa.h"\nint use(void) { return AA_ABI_VERSION; }\n')
    std = ["-std=c++11"] if cxx else ["-std=c11", "-pedantic"]
    _run([cc, *std, "-Wall", "-Wextra", "-Werror", "-I", INCLUDE, "-c", src, "-o", tmp_path / "use.o"])
    text = re.sub(r"/\*.*?\*/", "", (INCLUDE / "atomic_africa.h").read_text(), flags=re.S)
    declared = set(re.findall(r"\b(?:typedef\s+(?:enum|struct)\s+|#define\s+)(\w+)", text))
    # the compilers' own words in AA_API's definition (__attribute__, __declspec, defined) name nothing
    declared |= set(re.findall(r"\b(\w+)\s*\(", text)) - {"extern", "sizeof", "defined", "__attribute__",
                                                           "visibility", "__declspec"}
    declared |= set(re.findall(r"^\s+(AA_\w+)\s*=", text, flags=re.M))
    # a function-pointer typedef (the search's aa_evaluator): its return type is no name of the header's
    pointers = re.findall(r"typedef\s+(\w+)\s*\(\s*\*\s*(\w+)\s*\)", text)
    declared = (declared - {ret for ret, _ in pointers}) | {name for _, name in pointers}
    assert declared and all(n.startswith(("aa_", "AA_", "ATOMIC_AFRICA_H")) for n in declared), sorted(
        n for n in declared if not n.startswith(("aa_", "AA_")))


@pytest.mark.parametrize("kinds", [(1, 2), (3, 1), (2, 3)], ids=["heuristic-greedy", "doctrine-heuristic",
                                                                  "greedy-doctrine"])
def test_built_in_agents_choose_as_the_python_classes(c_driver, kinds):
    """aa_agent_action of the heuristic (1), greedy (2) and doctrine (3) agents, default options: the
    actions of HeuristicAgent(), GreedyAgent() and DoctrineAgent() in the same game (80 decisions),
    on the process's second aa_spec_default: the greedy agent reads the odds tables the first shared."""
    from atomic_africa.reference.game.agents import HeuristicAgent

    classes = {1: HeuristicAgent, 2: GreedyAgent, 3: DoctrineAgent}
    got = [int(x) for x in _run([c_driver, "agents", *kinds, 11, 80]).stdout.split()]
    g, agents = Game(None, 11), [classes[k]() for k in kinds]
    want = []
    while not g.is_over and len(want) < 80:
        a = agents[g.current_player].act(g)
        g.apply(a)
        want.append(a)
    assert got == want


def test_the_planning_page_example_compiles_and_prints_what_it_says(library, tmp_path):
    """docs/guide/planning.md's C example, compiled as it stands: its rollout is Game(None, 7) cloned,
    determinized for side 0 with seed 99 and played out by RandomAgent(2); its game is
    ISMCTSAgent(1, simulations=64) against HeuristicAgent(), decision for decision."""
    from atomic_africa.reference.game.agents import HeuristicAgent, ISMCTSAgent

    page = (ROOT / "docs" / "guide" / "planning.md").read_text()
    blocks = re.findall(r"```c\n(.*?)```", page, flags=re.S)
    assert len(blocks) == 1
    src = tmp_path / "planning.c"
    src.write_text(blocks[0])
    exe = _compile(C_COMPILERS[0], src, library, tmp_path / "planning", cxx=False)
    out = _run([exe]).stdout.splitlines()
    d, roller, n = Game(None, 7), RandomAgent(2), 0
    d.determinize(0, 99)
    while not d.is_over:
        d.apply(roller.act(d))
        n += 1
    assert out[0] == f"rollout: {n} decisions, winner {-1 if d.result.winner is None else d.result.winner}"
    g, agents, n = Game(None, 7), [ISMCTSAgent(1, simulations=64), HeuristicAgent()], 0
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
        n += 1
    assert out[1] == f"game: {n} decisions, winner {-1 if g.result.winner is None else g.result.winner}"
