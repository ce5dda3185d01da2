"""Packaging as a user meets it: the sdist holds what its tests need, the C core's sources and no
generated C; a wheel built from it (by pip, with build isolation, as ``pip install
atomic-africa-X.tar.gz`` builds it) carries the license, the .pxd files and C headers, the rules data
and kernels without debug info; installed in a fresh venv,
the sdist's own tests pass against it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import atomic_africa

# One xdist worker runs the module (--dist loadgroup), so its module-scoped build happens once.
pytestmark = pytest.mark.xdist_group("packaging")

ROOT = Path(__file__).resolve().parents[1]
# The tests that use `built` are slow: it builds the kernels from source in a fresh venv.

# What the subset below needs beyond the base install: pytest, the conftest's hypothesis, and the
# gym extra (installed as a user would, through the wheel's metadata) for the registration test.
TEST_TOOLS = ["pytest", "hypothesis"]
EXTRA = "gym"
# A fast subset run from the unpacked sdist against the installed wheel: the kernels against the
# reference, the C PCG against numpy, and the optional-dependency messages, for real in an install
# without matplotlib, Ray, pyarrow or PettingZoo.
SUBSET = ["tests/test_kernels_vs_reference.py", "tests/test_pcg.py", "tests/test_optional_deps.py",
          "-m", "not slow"]


def _child_env() -> dict:
    # Without the caller's PYTHONPATH: a relative one (a developer's `PYTHONPATH=python:src`) would
    # point into the unpacked sdist and import its uncompiled sources instead of the installed wheel.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(cmd, cwd=None, timeout=900):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=_child_env())
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def _venv_python(env_dir: Path) -> Path:
    return env_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(sdist path, wheel path, venv python, unpacked sdist root), built once for this module."""
    work = tmp_path_factory.mktemp("packaging")
    dist = work / "dist"
    # Built from a copy of the tree: setuptools stages the sdist in the project directory, which
    # other tests (and other xdist workers) share; what goes in is decided by MANIFEST.in as in ROOT.
    src = work / "tree"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", ".hypothesis", ".benchmarks", "build", "dist", "*.egg-info"))
    code = f"from setuptools import build_meta; print(build_meta.build_sdist({str(dist)!r}))"
    sdist = dist / _run([sys.executable, "-c", code], cwd=src).strip().splitlines()[-1]
    env_dir = work / "venv"
    _run([sys.executable, "-m", "venv", env_dir])  # no --system-site-packages: nothing leaks in
    py = _venv_python(env_dir)
    _run([py, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, sdist])
    wheel = next(dist.glob("*.whl"))
    _run([py, "-m", "pip", "install", "-q", f"{wheel}[{EXTRA}]", *TEST_TOOLS])
    with tarfile.open(sdist) as tar:
        # The "data" filter (refuse links and paths out of the tree) exists from 3.11.4 on.
        tar.extractall(work / "unpacked", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return sdist, wheel, py, next((work / "unpacked").iterdir())


@pytest.mark.slow
def test_sdist_has_the_tests_and_no_generated_c(built):
    sdist = built[0]
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        pkg_info = tar.extractfile(next(n for n in tar.getnames() if n.endswith("/PKG-INFO")
                                        and n.count("/") == 1)).read().decode()
    # The C core's sources are hand-written (src/aa_core/csrc); Cython's generated C never ships.
    hand_written = {"tests/support/capi_driver.c", "benchmarks/c_api_loop.c",   # C API hosts (MANIFEST.in)
                    "benchmarks/planning_loop.c", "tests/support/capi_stack.c",
                        "tests/support/capi_puct.c"}
    assert hand_written <= names
    assert not [n for n in names if n.endswith(".c") and not n.startswith("src/aa_core/csrc/") and n not in hand_written]
    core = {p.relative_to(ROOT).as_posix() for p in (ROOT / "src" / "aa_core" / "csrc").iterdir()}
    assert core and core <= names, sorted(core - names)
    # ... and the files that build it without Python (make, CMake and its package, pkg-config)
    for build in ("Makefile", "CMakeLists.txt", "sources.txt", "atomic_africa.pc.in", "atomic_africaConfig.cmake.in"):
        assert f"src/aa_core/{build}" in names, build
    for need in ("LICENSE", "README.md", "MANIFEST.in", "pyproject.toml", "setup.py",
                 "tests/conftest.py", "tests/support/engagements.py", "tests/test_pcg.py",
                 "examples/embed/my_sim.pyx", "examples/embed/build.py", "benchmarks/conftest.py",
                 "benchmarks/_scale.py",
                 "src/aa_core/pcg.pxd", "src/aa_core/vgame_schema.pxi", "src/aa_core/vgame_params.pxi",
                 "src/aa_core/vgame.pyx", "src/aa_core/single.pyx",
                 "python/atomic_africa/data/rules.toml"):
        assert need in names, need
    golden = sorted((ROOT / "tests" / "golden").iterdir())
    assert golden and all(f"tests/golden/{p.name}" in names for p in golden)
    assert "License-Expression: MIT" in pkg_info
    assert f"\nVersion: {atomic_africa.__version__}\n" in pkg_info


def test_version_lives_in_one_place():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in meta["project"] and "version" in meta["project"]["dynamic"]
    text = (ROOT / "python" / "atomic_africa" / "_version.py").read_text()
    assert re.search(r'^__version__ = "(.+)"$', text, re.M).group(1) == atomic_africa.__version__


@pytest.mark.slow
def test_wheel_contents(built):
    wheel = built[1]
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        libs = [n for n in names if n.startswith("aa_core/") and n.endswith((".so", ".pyd"))]
        assert len(libs) == len(list((ROOT / "src" / "aa_core").glob("*.pyx")))
        if sys.platform.startswith("linux"):
            # Release builds carry no DWARF sections (-g0): a debug build has .debug_info.
            for lib in libs:
                assert b".debug_info" not in zf.read(lib), lib
    assert any(re.fullmatch(r"atomic_africa-[^/]+\.dist-info/licenses/LICENSE", n) for n in names)
    assert "aa_core/pcg.pxd" in names and "atomic_africa/data/rules.toml" in names
    for pxi in ("vgame_schema.pxi", "vgame_params.pxi"):   # vgame.pxd includes them: cimport needs them installed
        assert f"aa_core/{pxi}" in names, pxi
    # The .pxd files declare the C core's headers: a Cython host compiles against them.
    headers = {f"aa_core/csrc/{p.name}" for p in (ROOT / "src" / "aa_core" / "csrc").glob("*.h")}
    assert headers and headers <= set(names), sorted(headers - set(names))
    assert not [n for n in names if n.endswith(".c")]
    # The C API for C and C++ hosts: its header (aa_core.get_include()), the static library and the
    # shared one (aa_core.get_library_dir(), get_shared_library()), whose file is its soname.
    assert "aa_core/include/atomic_africa.h" in names
    assert ("aa_core/lib/atomic_africa.lib" if sys.platform == "win32" else "aa_core/lib/libatomic_africa.a") in names
    abi = re.search(r"^#define AA_ABI_VERSION (\d+)", zf_header(wheel), re.M).group(1)
    if sys.platform.startswith("linux"):
        assert f"aa_core/lib/libatomic_africa.so.{abi}" in names
    # Built libraries, not the core's sources nor its build files (a Makefile without its .c files
    # would archive an empty library): the sdist has both.
    build_files = [n for n in names if n.startswith("aa_core/") and Path(n).name in
                   ("Makefile", "CMakeLists.txt", "sources.txt", "atomic_africa.pc.in", "atomic_africaConfig.cmake.in")]
    assert build_files == [], build_files


def zf_header(wheel) -> str:
    with zipfile.ZipFile(wheel) as zf:
        return zf.read("aa_core/include/atomic_africa.h").decode()


@pytest.mark.slow
def test_sdist_tests_pass_against_the_installed_wheel(built):
    _, _, py, src = built
    where = _run([py, "-c", "import atomic_africa, aa_core; print(atomic_africa.__file__); "
                            "print(aa_core.__file__)"], cwd=src)
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip())
    assert all(Path(p).is_relative_to(site) for p in where.split()), where  # not the unpacked sources
    out = _run([py, "-m", "pytest", *SUBSET, "-q", "-p", "no:cacheprovider"], cwd=src)
    passed = re.search(r"(\d+) passed", out)
    assert passed and int(passed.group(1)) >= 40 and "failed" not in out, out[-2000:]
    missing = _run([py, "-c", "import importlib.util as u; print([m for m in ('matplotlib', 'ray', "
                               "'pyarrow', 'pettingzoo') if u.find_spec(m)])"])
    assert missing.strip() == "[]"  # so the messages above were tested without the packages
