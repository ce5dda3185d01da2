"""Pure-Python reference implementation: one function per kernel entry point, same names.

Slow on purpose and written straight from RULES.md; the test suite checks every kernel against it.
"""
from .core import *  # noqa: F403
from .core import __all__ as _core_all

__all__ = list(_core_all)
from . import geometry  # noqa: F401  (terrain LOS/cover twin of aa_core.geometry)
from .odds import *  # noqa: F403  (brute-force exact odds, twin of atomic_africa.odds)
from .artillery import *  # noqa: F403  (hex artillery twins of atomic_africa.artillery)
