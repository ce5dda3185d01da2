"""The C core in WebAssembly (issue 34, points 4 and 5): ``src/aa_core/wasm.mk`` builds it for wasm32-wasi
with ``zig cc`` from the ``ziglang`` package, and a C host compiled to wasm (tests/support/capi_driver.c)
runs under the ``wasmtime`` package. Its games equal the native host's bit for bit, the legal ids,
actions, events and observations of 200 games included, the built-in agents' choices too: the core
uses no C library maths (musl's sin and cos differ from glibc's in the last bits). The browser
example (examples/web) is tested in tests/test_web_example.py."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.wasi_run import run_wasi
from test_maths import MATHS_PROGRAM, _bits, expected_lines, inputs

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wasm")]

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "aa_core"
SUPPORT = Path(__file__).resolve().parent / "support"


def _run(args, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kw)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


def wasm_make(build: Path, *targets: str) -> None:
    """``make -f wasm.mk`` with this interpreter's ziglang, into ``build``."""
    _run(["/usr/bin/make", "-s", "-j2", "-C", PKG, "-f", "wasm.mk", f"PYTHON={sys.executable}",
          f"WASM_BUILD={build}", *targets])


@pytest.fixture(scope="module")
def wasm_build(tmp_path_factory) -> Path:
    build = tmp_path_factory.mktemp("wasm")
    wasm_make(build)
    assert (build / "libatomic_africa.a").is_file()
    return build


@pytest.fixture(scope="module")
def drivers(wasm_build, tmp_path_factory) -> dict:
    """capi_driver natively (the Makefile's library, gcc) and in WebAssembly (wasm.mk's host target)."""
    native = tmp_path_factory.mktemp("native")
    _run(["/usr/bin/make", "-s", "-j2", "-C", PKG, f"BUILD={native}", "CC=/usr/bin/gcc", "CFLAGS=-O2"])
    exe = native / "capi_driver"
    _run(["/usr/bin/gcc", "-std=c11", "-O2", "-I", PKG / "include", SUPPORT / "capi_driver.c",
          native / "libatomic_africa.a", "-lm", "-o", exe])
    wasm = wasm_build / "capi_driver.wasm"
    wasm_make(wasm_build, "host", f"HOST={SUPPORT / 'capi_driver.c'}", f"OUT={wasm}")
    return {"native": exe, "wasm": wasm}


def _both(drivers, *args) -> tuple:
    native = _run([drivers["native"], *args]).stdout
    code, wasm = run_wasi(drivers["wasm"], args)
    assert code == 0, wasm.decode()[-2000:]
    return native, wasm.decode()


def test_the_wasm_host_is_webassembly(drivers):
    assert drivers["wasm"].read_bytes()[:4] == b"\0asm"


def test_200_games_equal_native_events_included(drivers):
    """Per decision the player, the legal ids' count and digest and the action; per game the winner,
    the events' count and digest and both observations' digests."""
    native, wasm = _both(drivers, "play", "0", "200")
    assert native.count("\nW ") + native.startswith("W ") == 200
    assert wasm == native


def test_event_values_equal_native_value_for_value(drivers):
    """One game's records printed as %.17g: every coordinate of every move, scatter and split."""
    for seed in ("3", "11"):
        native, wasm = _both(drivers, "events", seed)
        assert len(native.splitlines()) > 1000 and wasm == native


@pytest.mark.parametrize("kinds", [("2", "3"), ("1", "2")])
def test_built_in_agents_choose_as_native(drivers, kinds):
    native, wasm = _both(drivers, "agents", *kinds, "5", "2000")
    assert len(native.splitlines()) > 50 and wasm == native


def test_the_search_agent_chooses_as_native(drivers):
    """ISMCTS's UCT uses the core's own log (aa_maths.h), so its choices are the same too."""
    native, wasm = _both(drivers, "search", "4", "40", "6", "0.7", "0", "8", "1", "2")
    assert len(native.splitlines()) == 40 and wasm == native


def test_the_maths_give_the_python_twin_s_bits_in_webassembly(wasm_build):
    src = wasm_build / "maths.c"
    src.write_text(MATHS_PROGRAM)
    wasm_make(wasm_build, "host", f"HOST={src}", f"OUT={wasm_build / 'maths.wasm'}")
    xs = inputs()
    code, out = run_wasi(wasm_build / "maths.wasm", stdin="".join(_bits(x) + "\n" for x in xs).encode())
    assert code == 0
    assert out.decode().splitlines() == expected_lines(xs)
