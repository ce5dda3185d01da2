"""The Cython kernels in src/aa_core, with compiler flags chosen per compiler (metadata: pyproject.toml).

- GCC and clang: ``-O3``, no FMA contraction (results equal on every machine), no debug info, and
  OpenMP when a tiny OpenMP program compiles and links (Apple's clang has none unless libomp is
  installed: the kernels then run serially, with the same results).
- MSVC: ``/O2 /fp:precise /openmp``.

``AA_DEBUG_BUILD=1`` keeps debug info (``-g``, unstripped) for profiling and debuggers.
"""
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent

# OpenMP compile and link flags to try, in order, per platform (the first that builds is used).
_OPENMP_CANDIDATES = {
    "darwin": [(["-Xpreprocessor", "-fopenmp"], ["-lomp"]), (["-fopenmp"], ["-fopenmp"])],
}
_OPENMP_DEFAULT = [(["-fopenmp"], ["-fopenmp"])]
_OPENMP_PROBE = "#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n"


class BuildExt(build_ext):
    """build_ext that picks optimisation, floating-point, debug and OpenMP flags for the compiler."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:  # the modules are independent: compile them on every core
            self.parallel = os.cpu_count() or 1

    def build_extensions(self):
        debug = os.environ.get("AA_DEBUG_BUILD") == "1"
        if self.compiler.compiler_type == "msvc":
            compile_args, link_args = ["/O2", "/fp:precise", "/openmp"], []
        else:
            # -g0 after the interpreter's own CFLAGS (which often hold -g) drops the debug info;
            # -ffp-contract=off keeps a*b+c two roundings, as numpy and the reference compute it.
            compile_args = ["-O3", "-ffp-contract=off", "-g" if debug else "-g0"]
            link_args = [] if debug or sys.platform == "darwin" else ["-s"]  # strip the symbols
            omp_compile, omp_link = self._openmp_flags()
            compile_args += omp_compile
            link_args += omp_link
        for ext in self.extensions:
            ext.extra_compile_args = compile_args + list(ext.extra_compile_args or [])
            ext.extra_link_args = link_args + list(ext.extra_link_args or [])
        super().build_extensions()

    def _openmp_flags(self):
        """The first OpenMP flags that compile and link a tiny program, or none (serial kernels)."""
        for compile_args, link_args in _OPENMP_CANDIDATES.get(sys.platform, _OPENMP_DEFAULT):
            if self._try_build(_OPENMP_PROBE, compile_args, link_args):
                return compile_args, link_args
        print("atomic-africa: no OpenMP found; the kernels are built serial (same results, "
              "threads= has no effect)", file=sys.stderr)
        return [], []

    def _try_build(self, source: str, compile_args, link_args) -> bool:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "probe.c"
            src.write_text(source)
            try:
                objects = self.compiler.compile([str(src)], output_dir=tmp, extra_postargs=compile_args)
                self.compiler.link_executable(objects, "probe", output_dir=tmp, extra_postargs=link_args)
            except Exception:  # CompileError, LinkError: this compiler cannot do it
                return False
        return True


extensions = [
    Extension(
        f"aa_core.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        include_dirs=[np.get_include(), "src"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted((HERE / "src" / "aa_core").glob("*.pyx"))
]

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        extensions,
        include_path=["src"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            "embedsignature": True,  # help() and the first docstring line show each def's parameters
        },
    ),
)
