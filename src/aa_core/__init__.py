"""Cython kernels of atomic-africa (C-level API in the ``.pxd`` files beside this module), and the C
library for C and C++ hosts.

Three directories, one per kind of use (numpy's model: ``numpy.get_include()`` is its C headers):

- :func:`get_include`: the C compiler's include path for ``#include "atomic_africa.h"``, the public C
  API (docs/guide/c_api.md).
- :func:`get_library_dir`: where the static library ``libatomic_africa.a`` is (link with
  ``-latomic_africa -lm``) and the shared library ``libatomic_africa.so.N`` (:func:`get_shared_library`;
  N is the header's ``AA_ABI_VERSION``), for C hosts and ``ctypes``.
- :func:`get_cython_include`: Cython's include path (``cythonize(include_path=[aa_core.get_cython_include()])``)
  to ``cimport aa_core.fire`` etc.: the directory that holds the ``aa_core`` package (an installed
  package is also found on ``sys.path``; an editable install is not).

The kernels assume valid input: validation lives in the ``atomic_africa`` API
(and in the C API's functions).
"""
import os

# Threads that finish a parallel loop sleep at once instead of spinning. libgomp reads
# OMP_WAIT_POLICY (and GOMP_SPINCOUNT) once, when it is loaded, i.e. when the first extension of this
# package that links it is imported; so this comes before any extension import (this module imports
# none, and every ``aa_core.X`` import runs it first). Its default spins for a while after each loop:
# on a machine with another busy process a spinning thread takes the core its partner needs, and
# VectorGame(threads=2) ran 39x slower than 1 thread there (6,272 vs 246,521 decisions/s); passive,
# it runs at 0.84x-1.3x (benchmarks/bench_threads.py, docs/performance.md). Results do not depend on
# it (they are identical for every thread count). A value the user set wins; an OpenMP runtime
# already loaded by another library keeps the policy it started with.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_HERE = os.path.dirname(os.path.abspath(__file__))


def get_include() -> str:
    """Directory holding ``atomic_africa.h``, the public C API, for a C or C++ compiler's ``-I``."""
    return os.path.join(_HERE, "include")


def get_cython_include() -> str:
    """Directory to add to Cython's include path to ``cimport aa_core`` (the one holding ``aa_core``)."""
    return os.path.dirname(_HERE)


def get_library_dir() -> str:
    """Directory holding the C libraries: the static ``libatomic_africa.a`` (``atomic_africa.lib`` with
    MSVC) and the shared ``libatomic_africa.so.N`` (:func:`get_shared_library`)."""
    return os.path.join(_HERE, "lib")


def get_shared_library() -> str:
    """Path of the shared C library in :func:`get_library_dir`: ``libatomic_africa.so.N`` (its soname;
    macOS ``libatomic_africa.N.dylib``), N the ABI version, e.g. for ``ctypes.CDLL``.

    Raises
    ------
    FileNotFoundError
        When the package has none: a Windows (MSVC) build ships the static library only.
    """
    lib = get_library_dir()
    names = sorted(n for n in (os.listdir(lib) if os.path.isdir(lib) else ())
                   if n.startswith("libatomic_africa.") and (".so." in n or n.endswith(".dylib")))
    if not names:
        raise FileNotFoundError(f"no shared atomic_africa library in {lib} (a Windows build ships the static "
                                "library only; CMake builds the DLL: docs/guide/c_api.md)")
    return os.path.join(lib, names[-1])
