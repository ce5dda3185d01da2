"""The Rust host (issue 34, point 6): examples/rust is a crate with hand-written bindings of
``atomic_africa.h`` and a build.rs that compiles the C core into a static library; Debian's cargo
(/usr/bin/cargo, which the README's test command installs) builds it offline with warnings as errors,
and its games equal the C host's (tests/support/capi_driver.c) line for line: per decision the legal
ids' digest and the action, per game the winner, the events' digest and the observations'."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from atomic_africa.reference.game.agents import HeuristicAgent, RandomAgent
from atomic_africa.reference.game import Game

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("rust")]

ROOT = Path(__file__).resolve().parents[1]
CRATE = ROOT / "examples" / "rust"
PKG = ROOT / "src" / "aa_core"
SUPPORT = Path(__file__).resolve().parent / "support"
CARGO = "/usr/bin/cargo"   # Debian's, installed by the README's test command when missing


def _run(args, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kw)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    assert os.access(CARGO, os.X_OK), "install Debian's cargo (the README's test command does)"
    target = tmp_path_factory.mktemp("cargo_target")
    env = dict(os.environ, CARGO_TARGET_DIR=str(target), RUSTFLAGS="-D warnings", CC="/usr/bin/gcc")
    _run([CARGO, "build", "--release", "--offline", "--locked", "--manifest-path", CRATE / "Cargo.toml"], env=env)
    exe = target / "release" / "atomic_africa_host"
    assert exe.is_file()
    return exe


@pytest.fixture(scope="module")
def c_host(capi_driver) -> Path:
    return capi_driver


def test_the_crate_has_no_dependencies():
    """Nothing to download: the crate builds with no network beyond Debian's packages."""
    manifest = (CRATE / "Cargo.toml").read_text()
    assert re.search(r"\[dependencies\]\n(\n|\[|$)", manifest)
    assert "[build-dependencies]" not in manifest
    assert re.findall(r'^name = "(.*)"', (CRATE / "Cargo.lock").read_text(), re.M) == ["atomic_africa_host"]


def test_200_games_equal_the_c_host(host, c_host):
    rust = _run([host, "play", "0", "200"]).stdout
    assert rust.count("\nW ") + rust.startswith("W ") == 200
    assert rust == _run([c_host, "play", "0", "200"]).stdout


def test_the_battle_is_the_python_game(host):
    """`battle 42` (the docs' Rust example) is Game(None, 42) of RandomAgent(1) against HeuristicAgent."""
    g = Game(None, 42)
    agents = [RandomAgent(1), HeuristicAgent()]
    n = 0
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
        n += 1
    winner = -1 if g.result.winner is None else g.result.winner
    out = _run([host, "battle", "42"]).stdout.splitlines()
    assert out[0] == f"decisions {n}, winner {winner}"
    assert out[1].startswith("refused: action 0: the game is over")
    assert out[2] == "markers 2, wounds 2"


def test_bad_arguments_are_one_line(host):
    proc = subprocess.run([str(host), "play", "x"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "atomic_africa_host: " in proc.stderr
