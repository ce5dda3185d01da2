"""Compatibility: the self-play job lives in :mod:`atomic_africa.selfplay`."""
from ..selfplay import *  # noqa: F401,F403
from ..selfplay import __all__  # noqa: F401
