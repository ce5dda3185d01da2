"""Shared fixtures and the hypothesis profile (the OpenMP wait policy is the package's own:
aa_core/__init__.py)."""
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

import atomic_africa as aa

# Property tests explore new examples on every local run; in CI (CI=true) they are derandomized so
# that a run is reproducible and CI never fails by luck.
settings.register_profile("aa", max_examples=200, deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("aa")


@pytest.fixture
def rules():
    return aa.Rules.default()


@pytest.fixture(scope="session")
def make_build(tmp_path_factory) -> Path:
    """The directory where the C core's Makefile alone (no Python involved) built the static and the
    shared library, with the release flags (-O3) and, from GCC, each object's stack frames and call
    graph (X.ci beside X.o: tests/support/stack_usage.py). Once per session (test_c_api.py and
    test_c_libraries.py share an xdist group, so one worker builds it)."""
    cc = next(c for c in ("/usr/bin/gcc", "/usr/bin/clang") if os.access(c, os.X_OK))
    build = tmp_path_factory.mktemp("aa_make")
    stack = " -fstack-usage -fcallgraph-info=su" if cc.endswith("gcc") else ""
    proc = subprocess.run(["/usr/bin/make", "-s", "-j2", "-C", str(Path(__file__).resolve().parents[1] / "src" / "aa_core"),
                           f"BUILD={build}", f"CC={cc}", f"CFLAGS=-O3{stack}"], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return build


@pytest.fixture(scope="session")
def capi_driver(make_build) -> Path:
    """The C API's test host (tests/support/capi_driver.c) linked with :func:`make_build`'s static library."""
    exe = make_build / "capi_driver"
    if not exe.exists():
        root = Path(__file__).resolve().parents[1]
        proc = subprocess.run(["/usr/bin/gcc", "-std=c11", "-O2", "-I", str(root / "src" / "aa_core" / "include"),
                               str(root / "tests" / "support" / "capi_driver.c"), str(make_build / "libatomic_africa.a"),
                               "-lm", "-o", str(exe)], capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return exe


def pytest_collection_modifyitems(config, items):
    """On an xdist worker, the slow tests first (each in its order): the scheduler hands out the tests
    in this order, so the long ones start early and the short ones fill in round them, and no worker
    is left running a long one after the other has finished. A plain run keeps the file order (its
    module-scoped fixtures are built once)."""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
