"""Shared fixtures."""
import pytest

import atomic_africa as aa


@pytest.fixture
def rules():
    return aa.Rules.default()
