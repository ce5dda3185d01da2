"""The C core as libraries for hosts with no Python (docs/guide/c_api.md, "Building and linking"):

- one list of sources (src/aa_core/sources.txt) for setup.py, the Makefile and CMake, and one place
  for the release (the header's AA_VERSION_STRING, the Python package's version);
- the shared library exports exactly the functions of atomic_africa.h, under a soname carrying the
  ABI version, and aa_version() names the release;
- no public function needs more than 16 KiB of stack: GCC's call graphs of the release build bound
  every call path (tests/support/stack_usage.py), and a host thread of 32 KiB plays whole games with
  every built-in agent and simulates fire, printing what the main thread prints;
- ``cmake --install`` installs the header, both libraries, the CMake package and the pkg-config file,
  and an outside CMake project (find_package) and a Makefile host (pkg-config) build and run with
  no Python on the PATH.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from support import stack_usage

import atomic_africa

# The Makefile's build (conftest.make_build) is shared with test_c_api.py: one worker builds it.
pytestmark = pytest.mark.xdist_group("c_api")

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "aa_core"
HEADER = PKG / "include" / "atomic_africa.h"
SUPPORT = Path(__file__).resolve().parent / "support"
GCC = "/usr/bin/gcc"
CMAKE = "/usr/bin/cmake"   # Debian's, installed by the README's test command when missing
STACK_LIMIT = 16 * 1024    # the header's promise (docs/guide/c_api.md, "Stack")


def _run(args, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kw)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


def _abi() -> int:
    return int(re.search(r"^#define AA_ABI_VERSION (\d+)$", HEADER.read_text(), re.M).group(1))


def _no_python_env() -> dict:
    """A host's environment: the system's programs only (no virtualenv, no Python path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CONDA"))}
    return {**env, "PATH": "/usr/bin:/bin"}


def test_one_list_of_sources_builds_everything():
    listed = [line for line in (PKG / "sources.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert listed == sorted(f"csrc/{p.name}" for p in (PKG / "csrc").glob("*.c"))
    # each build reads the list (none globs the directory on its own)
    assert "sources.txt" in (PKG / "Makefile").read_text() and "wildcard csrc/*.c" not in (PKG / "Makefile").read_text()
    assert "sources.txt" in (PKG / "CMakeLists.txt").read_text() and "GLOB" not in (PKG / "CMakeLists.txt").read_text()
    assert '"sources.txt"' in (ROOT / "setup.py").read_text()


def test_the_release_is_the_python_package_s_version():
    """AA_VERSION_STRING (and MAJOR.MINOR.PATCH) is atomic_africa.__version__; the build files read it
    from the header (no second copy to drift)."""
    text = HEADER.read_text()
    macro = dict(re.findall(r"^#define (AA_VERSION_\w+) (\S+)$", text, re.M))
    assert macro["AA_VERSION_STRING"] == f'"{atomic_africa.__version__}"'
    assert ".".join(macro[f"AA_VERSION_{k}"] for k in ("MAJOR", "MINOR", "PATCH")) == atomic_africa.__version__
    for build in ("Makefile", "CMakeLists.txt", "atomic_africa.pc.in", "atomic_africaConfig.cmake.in"):
        assert atomic_africa.__version__ not in (PKG / build).read_text(), build


def test_the_shared_library_exports_exactly_the_header_s_functions(make_build):
    """nm -D --defined-only lists the header's functions and nothing else (the AA_API macro under
    hidden visibility); the soname carries the ABI version and the link name points to it."""
    lib = make_build / f"libatomic_africa.so.{_abi()}"
    out = _run(["/usr/bin/nm", "-D", "--defined-only", lib]).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.split()[1] in "TtWwDdBbRr"}
    declared = stack_usage.public_functions(HEADER)
    assert len(declared) >= 30 and "aa_version" in declared
    assert exported == declared, (sorted(exported - declared), sorted(declared - exported))
    assert f"Library soname: [libatomic_africa.so.{_abi()}]" in _run(["/usr/bin/readelf", "-d", lib]).stdout
    assert os.readlink(make_build / "libatomic_africa.so") == lib.name


def test_a_host_linked_with_the_shared_library_reads_the_version(make_build, tmp_path):
    src = tmp_path / "version.c"
    src.write_text('#include <stdio.h>\n#include "atomic_africa.h"\n'
                   'int main(void) { printf("%s %s %d %d\\n", aa_version(), AA_VERSION_STRING, aa_abi_version(), '
                   'AA_ABI_VERSION); return 0; }\n')
    exe = tmp_path / "version"
    _run([GCC, "-std=c11", "-Wall", "-Werror", "-I", PKG / "include", src, "-L", make_build, "-latomic_africa",
          f"-Wl,-rpath,{make_build}", "-o", exe])
    assert f"libatomic_africa.so.{_abi()} => {make_build}" in _run(["/usr/bin/ldd", exe]).stdout
    v = atomic_africa.__version__
    assert _run([exe], env=_no_python_env()).stdout.split() == [v, v, str(_abi()), str(_abi())]


def test_no_public_function_needs_more_than_16_kib_of_stack(make_build):
    """Every call path from each public function, summed frame by frame from GCC's call graphs of the
    release build (-O3), with the C library's calls counted generously: under 16 KiB."""
    assert any(make_build.glob("*.ci")), "the Makefile build is GCC's, with -fcallgraph-info=su"
    worst = stack_usage.public_stack(make_build, HEADER)
    assert set(worst) == stack_usage.public_functions(HEADER)
    name, (size, path) = max(worst.items(), key=lambda kv: kv[1][0])
    assert size < STACK_LIMIT, f"{name} needs {size} bytes: {' -> '.join(path)}"
    # the bound sees the deep paths: an agent's decision goes through the rules and a search
    assert worst["aa_agent_action"][0] > 4096 and "aa_ismcts_act" in " ".join(worst["aa_agent_action"][1])


def test_a_32_kib_thread_plays_every_agent_and_simulates_fire(make_build, tmp_path):
    """tests/support/capi_stack.c on a pthread of 32 KiB of stack (PTHREAD_STACK_MIN permitting):
    greedy, random, heuristic, doctrine and ISMCTS (greedy rollouts) games with copies,
    determinizations and observations, then Monte Carlo fire; its lines equal the main thread's.
    Linked with the shared library, as a host would."""
    exe = tmp_path / "capi_stack"
    _run([GCC, "-std=c11", "-pedantic", "-O2", "-Wall", "-Wextra", "-Werror", "-I", PKG / "include",
          SUPPORT / "capi_stack.c", "-L", make_build, "-latomic_africa", f"-Wl,-rpath,{make_build}", "-lpthread",
          "-o", exe])
    main = _run([exe, 0]).stdout.splitlines()
    small = subprocess.run([exe, "32768"], capture_output=True, text=True, timeout=900)
    assert small.returncode == 0, f"the 32 KiB thread failed (status {small.returncode}): {small.stderr[-2000:]}"
    lines = small.stdout.splitlines()
    assert lines[0] == "stack 32768" and lines[1:] == main
    assert [line.split()[0] for line in main] == ["greedy-greedy", "random-heuristic", "doctrine-greedy",
                                                 "ismcts-greedy", "fire"]


CMAKE_HOST = """\
cmake_minimum_required(VERSION 3.14)
project(host C)
find_package(atomic_africa {version} CONFIG REQUIRED)
add_executable(my_sim my_sim.c)
target_link_libraries(my_sim PRIVATE atomic_africa::atomic_africa)
add_executable(my_sim_static my_sim.c)
target_link_libraries(my_sim_static PRIVATE atomic_africa::static)
"""

MAKE_HOST = """\
# A host's Makefile: the flags come from pkg-config (PKG_CONFIG_PATH names the install's pkgconfig).
CFLAGS += $(shell pkg-config --cflags atomic_africa)
LDLIBS += $(shell pkg-config --libs atomic_africa)
LDFLAGS += -Wl,-rpath,$(shell pkg-config --variable=libdir atomic_africa)

my_sim: my_sim.c
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The prefix `cmake --install` filled from a CMake build of src/aa_core (no Python involved)."""
    assert os.access(CMAKE, os.X_OK), "install Debian's cmake (the README's test command does)"
    work = tmp_path_factory.mktemp("aa_cmake")
    env = _no_python_env()
    _run([CMAKE, "-S", PKG, "-B", work / "build", f"-DCMAKE_C_COMPILER={GCC}"], env=env)
    _run([CMAKE, "--build", work / "build", "-j", "2"], env=env)
    _run([CMAKE, "--install", work / "build", "--prefix", work / "prefix"], env=env)
    return work / "prefix"


def _example(tmp_path: Path) -> Path:
    """docs/guide/c_api.md's complete example, as my_sim.c in tmp_path."""
    page = (ROOT / "docs" / "guide" / "c_api.md").read_text()
    block = re.search(r"<!-- file: my_sim.c -->\n```c\n(.*?)```", page, re.S).group(1)
    (tmp_path / "my_sim.c").write_text(block)
    return tmp_path / "my_sim.c"


@pytest.mark.slow
def test_cmake_install_lays_out_the_packages(installed):
    abi, v = _abi(), atomic_africa.__version__
    files = {p.relative_to(installed).as_posix() for p in installed.rglob("*") if not p.is_dir()}
    assert {"include/atomic_africa.h", "lib/libatomic_africa.a", f"lib/libatomic_africa.so.{v}",
            f"lib/libatomic_africa.so.{abi}", "lib/libatomic_africa.so", "lib/pkgconfig/atomic_africa.pc",
            "lib/cmake/atomic_africa/atomic_africaConfig.cmake",
            "lib/cmake/atomic_africa/atomic_africaConfigVersion.cmake",
            "lib/cmake/atomic_africa/atomic_africaTargets.cmake"} <= files, sorted(files)
    assert (installed / "include/atomic_africa.h").read_text() == HEADER.read_text()
    pc = (installed / "lib/pkgconfig/atomic_africa.pc").read_text()
    assert f"prefix={installed}\n" in pc and f"Version: {v}\n" in pc
    env = {**_no_python_env(), "PKG_CONFIG_PATH": str(installed / "lib" / "pkgconfig")}
    assert _run(["/usr/bin/pkg-config", "--modversion", "atomic_africa"], env=env).stdout.strip() == v
    assert _run(["/usr/bin/pkg-config", "--cflags", "--libs", "atomic_africa"], env=env).stdout.split() == [
        f"-I{installed}/include", f"-L{installed}/lib", "-latomic_africa"]


def _check_example(exe: Path, shared: bool, installed: Path):
    libs = _run(["/usr/bin/ldd", exe]).stdout
    assert "python" not in libs.lower(), libs
    assert (f"libatomic_africa.so.{_abi()} => {installed}/lib/" in libs) == shared, libs
    out = _run([exe], env=_no_python_env()).stdout.splitlines()
    assert out[0].startswith("decisions ") and out[2] == "markers 2, wounds 2", out


@pytest.mark.slow
def test_an_outside_cmake_project_finds_the_package(installed, tmp_path):
    """find_package(atomic_africa <version> CONFIG REQUIRED): atomic_africa::atomic_africa links the
    shared library, atomic_africa::static the static one; both build the docs' example, which runs."""
    _example(tmp_path)
    (tmp_path / "CMakeLists.txt").write_text(CMAKE_HOST.format(version=atomic_africa.__version__))
    env = _no_python_env()
    _run([CMAKE, "-S", tmp_path, "-B", tmp_path / "build", f"-DCMAKE_C_COMPILER={GCC}",
          f"-DCMAKE_PREFIX_PATH={installed}"], env=env)
    _run([CMAKE, "--build", tmp_path / "build"], env=env)
    _check_example(tmp_path / "build" / "my_sim", shared=True, installed=installed)
    _check_example(tmp_path / "build" / "my_sim_static", shared=False, installed=installed)
    # a release it is not compatible with is refused
    (tmp_path / "CMakeLists.txt").write_text(CMAKE_HOST.format(version="99.0"))
    proc = subprocess.run([CMAKE, "-S", tmp_path, "-B", tmp_path / "build99", f"-DCMAKE_PREFIX_PATH={installed}"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode != 0 and "atomic_africa" in proc.stderr


@pytest.mark.slow
def test_a_makefile_host_builds_with_pkg_config(installed, tmp_path):
    _example(tmp_path)
    (tmp_path / "Makefile").write_text(MAKE_HOST)
    env = {**_no_python_env(), "PKG_CONFIG_PATH": str(installed / "lib" / "pkgconfig"), "CC": GCC}
    _run(["/usr/bin/make", "-C", tmp_path], env=env)
    _check_example(tmp_path / "my_sim", shared=True, installed=installed)
