"""The OpenMP wait policy the package sets for itself (issue 33): passive unless the user chose one.

Each case runs in a fresh interpreter, since libgomp reads the policy once, when it is loaded; what is
checked is the environment libgomp sees, not a timing (``benchmarks/bench_threads.py`` measures what
the policy is for).
"""
import os
import subprocess
import sys

import pytest

_PROBE = ("import os, sys; import aa_core; policy = os.environ.get('OMP_WAIT_POLICY'); "
          "import aa_core.vbatch; print(policy, os.environ.get('OMP_WAIT_POLICY'), "
          "'aa_core.vbatch' in sys.modules)")


def _policy_after_import(env_policy):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if env_policy is not None:
        env["OMP_WAIT_POLICY"] = env_policy
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_importing_aa_core_sets_the_passive_policy_before_any_kernel_loads():
    # Set by the package's __init__, i.e. before an extension (and libgomp with it) is loaded.
    assert _policy_after_import(None) == ["PASSIVE", "PASSIVE", "True"]


@pytest.mark.parametrize("value", ["active", "ACTIVE", "passive"])
def test_a_policy_the_user_set_is_left_alone(value):
    after = _policy_after_import(value)
    assert after == [value, value, "True"]
