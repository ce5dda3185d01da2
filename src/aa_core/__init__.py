"""Cython kernels of atomic-africa (C-level API in the ``.pxd`` files beside this module).

Other Cython code can ``cimport aa_core.fire`` etc.; pass :func:`get_include` to the compiler's
include path. The kernels assume valid input: validation lives in the ``atomic_africa`` API.
"""
import os


def get_include() -> str:
    """Directory to add to Cython's include path to ``cimport aa_core``."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
