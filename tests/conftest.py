"""Shared fixtures and the hypothesis profile (the OpenMP wait policy is the package's own:
aa_core/__init__.py)."""
import os

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
