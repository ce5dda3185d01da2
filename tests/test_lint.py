"""ruff's configuration (``[tool.ruff]`` in pyproject.toml) holds over the whole tree."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("python", "tests", "benchmarks", "examples", "setup.py", "docs")


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    # The venv's ruff (test extra), by module, never a program found on PATH.
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_tree_is_clean():
    proc = _ruff("check", "--no-cache", *TREES)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_the_configuration_catches_a_defect(tmp_path):
    """The check is not vacuous: the same configuration fails on an unused import and a line too long."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text("import os\n" + "x = " + "1 + " * 40 + "1\n")
    proc = _ruff("check", "--no-cache", "bad.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert "F401" in proc.stdout and "E501" in proc.stdout
