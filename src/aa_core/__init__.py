"""Cython kernels of atomic-africa (C-level API in the ``.pxd`` files beside this module), and the C
library for C and C++ hosts.

Three directories, one per kind of host:

- :func:`get_include`: Cython's include path (``cythonize(include_path=[aa_core.get_include()])``) to
  ``cimport aa_core.fire`` etc.; the directory that holds the ``aa_core`` package.
- :func:`get_c_include`: the C compiler's include path for ``#include "atomic_africa.h"``, the public C
  API (docs/guide/c_api.md).
- :func:`get_library_dir`: where ``libatomic_africa.a`` is (link with ``-latomic_africa -lm``).

The two include directories differ because Cython finds ``aa_core/*.pxd`` under an include root
while a C host wants the header itself in its include directory; neither layout can hold the other
without copying files. The kernels assume valid input: validation lives in the ``atomic_africa`` API
(and in the C API's functions).
"""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def get_include() -> str:
    """Directory to add to Cython's include path to ``cimport aa_core``."""
    return os.path.dirname(_HERE)


def get_c_include() -> str:
    """Directory holding ``atomic_africa.h``, the public C API, for a C or C++ compiler's ``-I``."""
    return os.path.join(_HERE, "include")


def get_library_dir() -> str:
    """Directory holding the static library ``libatomic_africa.a`` (``atomic_africa.lib`` with MSVC)."""
    return os.path.join(_HERE, "lib")
