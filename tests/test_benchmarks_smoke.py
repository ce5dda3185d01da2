"""The benchmark files run (tiny sizes, timing disabled), so they cannot rot between releases: every
``bench_*.py`` of benchmarks/ (bench_planning.py's C loop included), each with a passing test."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.slow
def test_benchmarks_run_tiny():
    env = dict(os.environ, AA_BENCH_SCALE="0.0001")
    proc = subprocess.run([sys.executable, "-m", "pytest", str(BENCH), "-q", "-p", "no:cacheprovider",
                           "--benchmark-disable", "-x", "-rA"], capture_output=True, text=True, env=env,
                          timeout=900, cwd=BENCH.parent)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout
    files = sorted(p.name for p in BENCH.glob("bench_*.py"))
    assert "bench_planning.py" in files and "bench_c_api.py" in files
    ran = {f for f in files if f"PASSED benchmarks/{f}::" in proc.stdout}
    assert ran == set(files), f"benchmark files with no passing test: {sorted(set(files) - ran)}"
