"""The Cython ABI guard: a host compiled against aa_core's declarations of another C layout (a
struct that gained a field, another AA_ABI_VERSION) refuses to import, naming both versions, instead
of reading structs at the wrong offsets; a host compiled against the installed ones imports."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import aa_core

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("embedding")]

HOST = '''# cython: language_level=3
from aa_core.vgame cimport check_abi
check_abi(__name__)


def answer():
    return 42
'''

BUILD = '''import sys
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
setup(name="host", ext_modules=cythonize([Extension("host", ["host.pyx"], include_dirs=[np.get_include()])],
                                         include_path=[sys.argv.pop(1)], quiet=True),
      script_args=["build_ext", "--inplace"])
'''


def _build_host(work: Path, include: Path) -> None:
    work.mkdir()
    (work / "host.pyx").write_text(HOST)
    (work / "build.py").write_text(BUILD)
    proc = subprocess.run([sys.executable, "build.py", str(include)], cwd=work, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]


def _import(work: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import host; print(host.answer())"], cwd=work,
                          capture_output=True, text=True, timeout=120)


def _other_layout(root: Path) -> Path:
    """A copy of aa_core's declarations and headers whose aa_params gained a field, ABI version 99."""
    src = Path(aa_core.get_cython_include()) / "aa_core"
    dst = root / "aa_core"
    dst.mkdir(parents=True)
    for pattern in ("*.pxd", "*.pxi", "__init__.py"):
        for f in src.glob(pattern):
            shutil.copy(f, dst / f.name)
    for sub in ("csrc", "include"):
        (dst / sub).mkdir()
        for f in (src / sub).glob("*.h"):
            shutil.copy(f, dst / sub / f.name)
    header = dst / "include" / "atomic_africa.h"
    text = header.read_text()
    assert "#define AA_ABI_VERSION 2\n" in text
    header.write_text(text.replace("#define AA_ABI_VERSION 2\n", "#define AA_ABI_VERSION 99\n"))
    params = dst / "csrc" / "aa_params.h"   # aa_params, generated from its declaration (params_schema)
    text = params.read_text()
    anchor = "    aa_terrain terrain;"
    assert anchor in text
    params.write_text(text.replace(anchor, anchor + "\n    int gained_a_field;", 1))
    return root


def test_a_host_of_the_installed_layout_imports(tmp_path):
    _build_host(tmp_path / "same", Path(aa_core.get_cython_include()))
    proc = _import(tmp_path / "same")
    assert proc.returncode == 0 and proc.stdout.strip() == "42", proc.stderr[-2000:]


def test_a_host_of_another_layout_fails_at_import_naming_both_versions(tmp_path):
    _build_host(tmp_path / "other", _other_layout(tmp_path / "decl"))
    proc = _import(tmp_path / "other")
    assert proc.returncode != 0
    assert "ImportError: host: compiled against the atomic-africa C ABI version 99" in proc.stderr, proc.stderr
    assert "the installed aa_core is ABI version 2" in proc.stderr
    assert "rebuild host" in proc.stderr
