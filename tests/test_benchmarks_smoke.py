"""The benchmark files run (tiny sizes, timing disabled), so they cannot rot between releases."""
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
                           "--benchmark-disable", "-x"], capture_output=True, text=True, env=env,
                          timeout=900, cwd=BENCH.parent)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout
