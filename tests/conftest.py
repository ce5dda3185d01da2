"""Shared fixtures, the hypothesis profile and the OpenMP wait policy of the test process."""
import os

# Before the kernels load OpenMP: threads that finish a parallel region sleep instead of spinning.
# Results do not depend on it (they are identical for every thread count); it only matters on a busy
# machine, where a spinning thread takes the core its partner needs and the thread-count tests then
# run 3-4 times slower. A value set by the caller wins.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

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
