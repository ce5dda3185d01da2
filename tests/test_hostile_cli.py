"""Hostile input through the command line (issue 15), by class: every failure is one line
``atomic-africa CMD: error: ...`` with exit status 2 (1 for a failed write) and never a traceback;
input files are read within stated limits; outputs are replaced atomically; names from files are
printed escaped.

Every probe runs in a child process of ``sys.executable``: either the real entry point
(``python -m atomic_africa ...``) or, to keep the fast subset fast, a driver that calls the same
``main`` for a batch of probes in one process (:func:`run_batch`).
"""
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atomic_africa as aa
from atomic_africa.agents import make_agent
from atomic_africa.game import Game

PACKAGED_SCENARIO = Path(aa.__file__).parent / "data" / "scenarios" / "default.toml"
COMMANDS = ("fire", "odds", "artillery", "battle", "render", "selfplay", "league", "rules", "scenario")

# Calls atomic_africa.cli.main on each argv of the JSON list read from stdin, in this one process;
# prints one JSON object per probe: exit status, stdout, stderr, and any exception main let escape.
DRIVER = r"""
import contextlib, io, json, sys, time, traceback
from atomic_africa.cli import main
for argv in json.load(sys.stdin):
    out, err, escaped, t0 = io.StringIO(), io.StringIO(), None, time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code
        except BaseException:
            status, escaped = None, traceback.format_exc()
    print(json.dumps({"argv": argv, "status": status, "out": out.getvalue()[-2000:],
                      "err": err.getvalue(), "escaped": escaped, "seconds": time.perf_counter() - t0}),
          flush=True)
"""


def run_cli(*argv, timeout=120, **kw):
    """``python -m atomic_africa ARGV`` as a user runs it."""
    return subprocess.run([sys.executable, "-m", "atomic_africa", *map(str, argv)], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kw)


def run_batch(argvs, timeout=300):
    """Each argv through ``main`` in one child process (see DRIVER): a list of result dicts."""
    argvs = [[str(a) for a in argv] for argv in argvs]
    proc = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(argvs), capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["argv"] for r in results] == argvs
    return results


def assert_clean_failure(command, status, err, statuses=(2,)):
    """A failure reported the way the README promises: one line, the command named, no traceback."""
    assert status in statuses, (status, err)
    assert "Traceback" not in err
    lines = [x for x in err.splitlines() if not x.startswith(f"atomic-africa {command}: warning: ")]
    assert len(lines) == 1 and lines[0].startswith(f"atomic-africa {command}: error: "), err
    assert lines[0].isprintable(), lines[0]


def assert_handled(result):
    """Success, or a clean failure: never an exception escaping ``main``."""
    assert result["escaped"] is None, result["escaped"]
    if result["status"] != 0:
        command = next(a for a in result["argv"] if a in COMMANDS)
        assert_clean_failure(command, result["status"], result["err"])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Hostile input files of every kind, and a short valid replay."""
    d = tmp_path_factory.mktemp("hostile")
    out = {}
    out["deep_toml"] = d / "deep.toml"
    out["deep_toml"].write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    out["deep_json"] = d / "deep.json"
    out["deep_json"].write_text("[" * 100_000 + "]" * 100_000)
    out["deep_inline"] = d / "inline.toml"
    out["deep_inline"].write_text("a = " + "{b = " * 40 + "1" + "}" * 40 + "\n")
    out["not_utf8"] = d / "latin1.toml"
    out["not_utf8"].write_bytes('name = "Caf\xe9"\n'.encode("latin-1"))
    out["random"] = d / "random.bin"
    out["random"].write_bytes(bytes(range(256)) * 8)
    out["empty"] = d / "empty"
    out["empty"].write_bytes(b"")
    out["truncated_toml"] = d / "trunc.toml"
    out["truncated_toml"].write_text(PACKAGED_SCENARIO.read_text()[:700])
    out["huge_int"] = d / "bigint.toml"
    out["huge_int"].write_text("turns = 1" + "0" * 5000 + "\n")
    out["big"] = d / "big.toml"                       # over the 1 MiB limit, valid TOML
    out["big"].write_text("# padding\n" * 120_000)
    out["directory"] = d / "a_directory"
    out["directory"].mkdir()
    out["fifo"] = d / "fifo"
    os.mkfifo(out["fifo"])
    out["zero"] = Path("/dev/zero")
    out["null"] = Path("/dev/null")
    out["missing"] = d / "missing.toml"
    out["unreadable"] = Path("/proc/self/mem")          # opens, then every read fails (EIO)
    g = Game(None, 3)
    agents = [make_agent("random", 3), make_agent("random", 4)]
    for _ in range(8):
        g.apply(agents[g.current_player].act(g))
    out["replay"] = d / "short.json"
    out["replay"].write_text(g.to_json())
    out["dir"] = d
    return out


INPUT_FILES = ["deep_toml", "deep_json", "deep_inline", "not_utf8", "random", "empty", "truncated_toml",
               "huge_int", "big", "directory", "fifo", "zero", "null", "missing"] + \
    (["unreadable"] if Path("/proc/self/mem").exists() else [])
INPUT_OPTIONS = [["fire", "-n", "10", "--rules"], ["odds", "--rules"], ["rules", "--rules"],
                 ["artillery", "--spotter", "A1", "--target", "C3", "--rules"], ["battle", "--quiet", "--scenario"],
                 ["selfplay", "--games", "1", "--no-progress", "--scenario"],
                 ["league", "--agents", "random,heuristic", "--games", "2", "--quiet", "--scenario"],
                 ["render", "--scenario"],
                 ["render", "--html", "{dir}/page.html"]]


def test_hostile_input_files_for_every_input_option(files):
    """Deep nesting, non-UTF-8 and random bytes, empty, truncated, too large, a directory, a FIFO
    without writer, /dev/zero, /dev/null, a missing file: as every option that reads a file."""
    argvs = [[a.format(dir=files["dir"]) for a in opt] + [files[f]] for opt in INPUT_OPTIONS for f in INPUT_FILES]
    results = run_batch(argvs)
    for r in results:
        assert r["escaped"] is None, r["escaped"]
        assert_clean_failure(r["argv"][0], r["status"], r["err"])
    by = {(tuple(r["argv"][:-1]), Path(r["argv"][-1]).name): r["err"] for r in results}
    fire = ("fire", "-n", "10", "--rules")
    # The limits are stated in the messages, with the file.
    assert "nests arrays/tables 100000 levels deep; the limit is 32" in by[fire, "deep.toml"]
    assert "nests arrays/tables 40 levels deep; the limit is 32" in by[fire, "inline.toml"]
    assert f"rules file '{files['big']}' is 1,200,000 bytes; the limit is 1 MiB" in by[fire, "big.toml"]
    assert "rules file '/dev/zero' holds more than 1 MiB, the limit" in by[fire, "zero"]
    assert "is not UTF-8 text (byte 11: b'\\xe9')" in by[fire, "latin1.toml"]
    assert "argument --rules:" in by[fire, "latin1.toml"]
    html = tuple(INPUT_OPTIONS[-1][:-1]) + (f"{files['dir']}/page.html",)
    assert "deep.json line 1 nests arrays/tables 100000 levels deep; the limit is 32" in by[html, "deep.json"]
    assert "/dev/zero line 1: longer than 64 MiB" in by[html, "zero"]
    assert "empty file" in by[html, "fifo"]
    if "unreadable" in INPUT_FILES:                     # a failed read names the file
        assert all("Input/output error: '/proc/self/mem'" in by[k, "mem"] for k in (fire, html))
    assert not (files["dir"] / "page.html").exists()


HOSTILE_NUMBERS = ["1e12", "99999999999999999999999", "-1", "-99999999999999999999", "nan", "inf", "-inf",
                   "1e308", "-1e308", "", "0x10", "1e-320", "21474836480000", "9223372036854775808", "1.5", "ten",
                   "\u0661x", "1e999999"]
NUMERIC_OPTIONS = {
    ("fire", "-n", "100"): ["-n", "--seed", "--threads", "--range-band", "--distance", "--armor", "--ap"],
    ("odds",): ["--range-band", "--distance", "--armor", "--ap"],
    ("artillery", "--spotter", "A1", "--target", "C3"): ["--hindrance", "--simulate", "--seed", "--threads",
                                                         "--map"],
    ("selfplay", "--no-progress", "--agents", "random,random", "--games", "1"): ["--games", "--workers",
                                                                                  "--batch-size"],
    ("render", "{replay}", "--html", "{dir}/n.html"): ["--game", "--step", "--dpi"],
    ("league", "--quiet", "--agents", "random,heuristic", "--games", "2"):
        ["--games", "--workers", "--seed"],
}


def _numeric_probes(files, values, options=NUMERIC_OPTIONS):
    return [[a.format(replay=files["replay"], dir=files["dir"]) for a in base] + [opt, v]
            for base, opts in options.items() for opt in opts for v in values]


# The fast subset's share of HOSTILE_NUMBERS (the slow test takes them all, and random ones).
FAST_NUMBERS = ["1e12", "99999999999999999999999", "-1", "nan", "-inf", "1e308", "", "0x10", "\u0661x"]


@pytest.mark.slow
def test_all_hostile_numbers_in_every_numeric_option(files):
    for r in run_batch(_numeric_probes(files, HOSTILE_NUMBERS)):
        assert_handled(r)


def test_hostile_numbers_in_every_numeric_option(files):
    """Huge, negative, NaN/inf, empty, hex, non-ASCII digits: handled by every numeric option
    (accepted and run, or refused in one line naming the option)."""
    results = run_batch(_numeric_probes(files, FAST_NUMBERS))
    for r in results:
        assert_handled(r)
    err = {tuple(r["argv"][-2:]): r["err"] for r in results if r["argv"][0] == "fire"}
    # The engagement count that cannot fit says how much memory it needs.
    assert re.search(r"--engagements: 1,000,000,000,000 engagements .*need [\d,.]+ [GT]iB", err["-n", "1e12"])
    assert "argument -n/--engagements: must be <= 2**63-1" in err["-n", "1e308"]
    sp = {tuple(r["argv"][-2:]): r["err"] for r in results if r["argv"][0] == "selfplay"}
    assert re.search(r"--games: 1,000,000,000,000 games' results need [\d,.]+ TiB of memory", sp["--games", "1e12"])
    assert "--workers: 1000000000000 is out of range; allowed 1..1024" in sp["--workers", "1e12"]
    art = {tuple(r["argv"][-2:]): r["err"] for r in results if r["argv"][0] == "artillery"}
    assert "error: --simulate: 1000000000000 is out of range" in art["--simulate", "1e12"]


def test_one_line_errors_from_the_real_entry_point(files, tmp_path):
    """The issue's examples, as a user runs them: a failure is one line, status 2; --debug adds the
    traceback (before or after the command); a broken pipe is quiet."""
    big = run_cli("fire", "-n", "1e12")
    assert_clean_failure("fire", big.returncode, big.stderr)
    assert "--engagements: 1,000,000,000,000 engagements" in big.stderr and big.stdout == ""
    for argv in (["--debug", "fire", "-n", "1e12"], ["fire", "-n", "1e12", "--debug"]):
        debug = run_cli(*argv)
        assert debug.returncode == 2 and debug.stderr.startswith("Traceback (most recent call last):")
        assert "MemoryError" in debug.stderr
        assert debug.stderr.splitlines()[-1].startswith("atomic-africa fire: error: --engagements: ")
    # argparse's own errors: one line too (no usage block); a replay's missing field (was a KeyError
    # traceback).
    d = json.loads(files["replay"].read_text())
    del d["scenario"]
    bad = tmp_path / "no_scenario.json"
    bad.write_text(json.dumps(d))
    usage, missing = run_batch([["render", "--dpi", "1e9"], ["render", bad, "--html", tmp_path / "x.html"]])
    assert_clean_failure("render", usage["status"], usage["err"])
    assert "argument --dpi: expected an integer 10..600, got '1e9'" in usage["err"]
    assert_clean_failure("render", missing["status"], missing["err"])
    assert f"{bad} line 1: the field 'scenario' is missing" in missing["err"]


def test_output_to_dev_full_fails_with_status_1_naming_the_file(files, tmp_path):
    """A failed write (ENOSPC from /dev/full, reached through a symbolic link) exits 1 naming the
    file; the device behind the link is written in place, never replaced."""
    full = tmp_path / "full.png"
    full.symlink_to("/dev/full")
    probes = [["render", files["replay"], "--step", "0", "-o", full], ["render", files["replay"], "--html", full],
              ["battle", "--quiet", "--log", full],
              ["selfplay", "--games", "1", "--no-progress", "--agents", "random,random", "--replays", full]]
    for r in run_batch(probes):
        assert r["escaped"] is None, r["escaped"]
        assert_clean_failure(r["argv"][0], r["status"], r["err"], statuses=(1,))
        assert f"cannot write '{full}': No space left on device" in r["err"]
        assert full.is_symlink() and os.readlink(full) == "/dev/full"


def _no_temporary_files(directory):
    return not [p.name for p in Path(directory).iterdir() if p.name.endswith(".tmp")]


def test_a_write_cut_short_keeps_the_previous_file(tmp_path):
    """A write that fails half-way (the file size limit, RLIMIT_FSIZE) exits 1 naming the file and
    leaves the previous file as it was, with no temporary file behind."""
    log = tmp_path / "battle.jsonl"
    log.write_text("previous log\n")

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    out = run_cli("battle", "--quiet", "--log", log, preexec_fn=limit)
    assert_clean_failure("battle", out.returncode, out.stderr, statuses=(1,))
    assert f"cannot write '{log}': File too large" in out.stderr
    assert log.read_text() == "previous log\n" and _no_temporary_files(tmp_path)


def test_outputs_are_checked_before_the_work(tmp_path, files):
    """An output that cannot be written (its directory missing, a directory, a path under a file,
    an empty name) is refused when the options are read, naming the option."""
    targets = [tmp_path / "no" / "such" / "x.out", tmp_path, files["replay"] / "x.out", ""]
    options = [["battle", "--log"], ["selfplay", "--games", "1e12", "--out"], ["selfplay", "--games", "1e12", "--replays"],
               ["league", "--games", "1e12", "--out"], ["league", "--games", "1e12", "--png"],
               ["odds", "--plot"], ["artillery", "--spotter", "A1", "--target", "C3", "--plot"],
               ["render", "-o"], ["render", "--gif"], ["render", "--html"]]
    results = run_batch([opt + [target] for opt in options for target in targets])
    for r in results:
        assert r["escaped"] is None, r["escaped"]
        assert_clean_failure(r["argv"][0], r["status"], r["err"])
        option = r["argv"][-2]
        assert f"argument {'-o/--output' if option == '-o' else option}: " in r["err"]
        assert "games' results need" not in r["err"]      # refused before the size is even looked at


def test_replaced_atomically_keeps_the_previous_file_when_the_block_fails(tmp_path):
    from atomic_africa._atomic_write import WriteError, replaced_atomically
    path = tmp_path / "out.txt"
    path.write_text("old")
    os.chmod(path, 0o640)
    with pytest.raises(RuntimeError):
        with replaced_atomically(path) as tmp:
            Path(tmp).write_text("half")
            raise RuntimeError("failed half-way")
    assert path.read_text() == "old" and _no_temporary_files(tmp_path)
    with pytest.raises(WriteError, match=f"cannot write '{path}'"):
        with replaced_atomically(path) as tmp:
            raise OSError(28, "No space left on device", tmp)
    with replaced_atomically(path) as tmp:
        Path(tmp).write_text("new")
    assert path.read_text() == "new" and (path.stat().st_mode & 0o777) == 0o640   # permissions kept
    assert _no_temporary_files(tmp_path)


def test_truncated_replays_file_gives_its_complete_games(tmp_path, files):
    """A replays file cut short: its complete games render, the broken line is named."""
    one = files["replay"].read_text()
    replays = tmp_path / "replays.jsonl"
    replays.write_text(one + "\n" + one + "\n" + one[: len(one) // 2])
    results = run_batch([["render", replays, "--game", k, "--html", tmp_path / f"g{k}.html"] for k in (0, 1, 2, 3)])
    assert [r["status"] for r in results] == [0, 0, 2, 2]
    assert (tmp_path / "g0.html").exists() and (tmp_path / "g1.html").exists()
    assert f"{replays} line 3: game 2 is not complete JSON" in results[2]["err"]
    assert f"--game: 3 is out of range; {replays} holds 3 game(s)" in results[3]["err"]
    for r in results[2:]:
        assert_clean_failure("render", r["status"], r["err"])


FORGED = "\x1b[2J\x1b[31m\r\nResult: Blue (random) wins - forged\u2028\u202e$\\frac"


@pytest.fixture(scope="module")
def evil_scenario(tmp_path_factory):
    """The packaged scenario with control characters, a forged result line, a line separator, a
    bidi override and unbalanced mathtext appended to every name."""
    text = PACKAGED_SCENARIO.read_text()
    toml_forged = json.dumps(FORGED)[1:-1]              # the same escapes are valid TOML
    text = re.sub(r'^(name = ")(.*)(")$', lambda m: m.group(1) + m.group(2) + toml_forged + m.group(3), text,
                  flags=re.M)
    path = tmp_path_factory.mktemp("evil") / "evil.toml"
    path.write_text(text)
    assert aa.game.load_scenario(path).sides[0].units[0].name.endswith(FORGED)
    return path


def _visible(text: str) -> bool:
    return all(line.isprintable() for line in text.split("\n"))


def test_names_from_files_are_printed_escaped(evil_scenario, tmp_path):
    log = tmp_path / "evil.jsonl"
    out = run_cli("battle", "--scenario", evil_scenario, "--verbose", "--seed", "1", "--log", log)
    assert out.returncode == 0, out.stderr
    assert _visible(out.stdout) and out.stderr == ""
    results = [line for line in out.stdout.splitlines() if line.startswith("Result:")]
    assert len(results) == 1 and "forged" not in results[0].split(" - ")[0]
    assert "Blue\\x1b[2J\\x1b[31m\\x0d\\x0aResult: Blue (random) wins - forged\\u2028\\u202e$\\frac" in out.stdout
    page = tmp_path / "evil.html"
    r = run_cli("render", log, "--html", page)
    assert r.returncode == 0 and _visible(r.stdout) and r.stderr == "", r.stderr
    html = page.read_text()
    assert html.count("<script") == 2 and "\x1b" not in html.split("<script", 1)[0]
    assert "\\u003c" not in html.split('id="replay-data">', 1)[0]


@pytest.mark.slow
def test_pictures_of_hostile_names_are_drawn(evil_scenario, tmp_path):
    """Names with control characters and an unbalanced mathtext '$' in a PNG and a GIF: drawn, with
    no warning about glyphs missing from the font."""
    g = Game(aa.game.load_scenario(evil_scenario), 5)
    agents = [make_agent("greedy", 5), make_agent("greedy", 6)]
    while len(g.history) < 40 and not g.is_over:      # a replay with moves, fire and its captions
        g.apply(agents[g.current_player].act(g))
    replay = tmp_path / "evil.json"
    replay.write_text(g.to_json())
    r = run_cli("render", replay, "-o", tmp_path / "e.png", "--gif", tmp_path / "e.gif", "--dpi", "20")
    assert r.returncode == 0 and _visible(r.stdout), r.stderr
    assert "Traceback" not in r.stderr and "Glyph" not in r.stderr and "warning" not in r.stderr.lower()
    assert (tmp_path / "e.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / "e.gif").read_bytes()[:3] == b"GIF"
    # A figure that cannot be written (matplotlib's savefig on /dev/full) fails like any output.
    full = tmp_path / "full.png"
    full.symlink_to("/dev/full")
    plot = run_cli("odds", "--plot", full)
    assert_clean_failure("odds", plot.returncode, plot.stderr, statuses=(1,))
    assert f"cannot write '{full}': No space left on device" in plot.stderr and full.is_symlink()


def test_error_messages_quoting_a_value_are_escaped(tmp_path, files):
    d = json.loads(files["replay"].read_text())
    d["format"] = "x\x1b[2J\nResult: Red wins"
    bad = tmp_path / "bad_format.json"
    bad.write_text(json.dumps(d))
    r = run_batch([["render", bad, "--html", tmp_path / "x.html"],
                   ["battle", "--agents", "random,\x1b[2Jgreedy\nResult: x"]])
    for res in r:
        assert_clean_failure(res["argv"][0], res["status"], res["err"])
    assert "'format' is 'x\\x1b[2J\\nResult: Red wins'" in r[0]["err"]
    assert "unknown agent '\\x1b[2Jgreedy\\nResult: x'" in r[1]["err"]


# --------------------------------------------------------------------------- property sweeps (slow)
_NUMBER_TEXT = st.one_of(
    st.sampled_from(HOSTILE_NUMBERS),
    st.integers(min_value=2 ** 40).map(str), st.integers(max_value=-1).map(str),
    st.floats().filter(lambda x: not (math.isfinite(x) and abs(x) < 2 ** 40)).map(repr),
    st.text(max_size=12).filter(lambda t: not re.fullmatch(r"\s*[-+]?[\d._]+(e\d+)?\s*", t, re.I)),
)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(values=st.lists(_NUMBER_TEXT, min_size=6, max_size=6))
def test_random_option_values_never_escape(files, values):
    values = [v.replace("\x00", "") for v in values]    # argv cannot hold a NUL
    for r in run_batch(_numeric_probes(files, values)):
        assert_handled(r)


@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.lists(st.one_of(st.binary(max_size=3000),
                               st.tuples(st.integers(0, 4000), st.binary(max_size=8))),
                     min_size=8, max_size=8))
def test_random_bytes_and_cut_files_as_every_input(files, tmp_path_factory, data):
    """Random bytes, and the packaged scenario / a game JSON cut at a random place with random bytes
    appended, as a rules file, a scenario and a replay."""
    d = tmp_path_factory.mktemp("bytes")
    sources = [PACKAGED_SCENARIO.read_bytes(), files["replay"].read_bytes()]
    argvs = []
    for i, item in enumerate(data):
        content = item if isinstance(item, bytes) else sources[i % 2][:item[0]] + item[1]
        path = d / f"f{i}"
        path.write_bytes(content)
        argvs += [["fire", "-n", "10", "--rules", path], ["battle", "--quiet", "--scenario", path],
                  ["render", path, "--html", d / f"f{i}.html"]]
    for r in run_batch(argvs):
        assert_handled(r)


# --------------------------------------------------------------------------- the helpers, in-process
_HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


@given(st.text(alphabet=st.characters(exclude_categories=()), max_size=60))   # surrogates too
@settings(max_examples=300)
def test_printable_leaves_no_character_a_terminal_acts_on(text):
    import unicodedata
    from atomic_africa._text import printable
    shown = printable(text)
    assert not any(unicodedata.category(c) in _HIDDEN_CATEGORIES for c in shown)
    assert printable(shown) == shown                      # escaping twice changes nothing
    shown.encode("utf-8")                                 # no lone surrogate left to crash a print
    if all(unicodedata.category(c) not in _HIDDEN_CATEGORIES for c in text):
        assert shown == text                              # printable names are shown as they are


def test_brackets_inside_strings_and_comments_do_not_count_as_nesting(tmp_path):
    """The depth limit counts arrays and tables, not brackets in names or comments."""
    from atomic_africa._toml import read_toml
    path = tmp_path / "brackets.toml"
    path.write_text('a = "' + "[" * 100 + '"  # ' + "{" * 100 + "\nb = '''\n" + "[" * 100 + "\n'''\n"
                    + "c = [[1], [2]]\n")
    assert read_toml(path, ValueError, "test")["c"] == [[1], [2]]
    path.write_text("c = " + "[" * 33 + "]" * 33 + "\n")
    with pytest.raises(ValueError, match="nests arrays/tables 33 levels deep; the limit is 32"):
        read_toml(path, ValueError, "test")
