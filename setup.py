"""The C core and the Cython kernels in src/aa_core, with compiler flags chosen per compiler
(metadata: pyproject.toml).

The C core (the sources src/aa_core/sources.txt lists, the one list the Makefile and CMake build
too: rules engine, agents, kernels) is built once into the static library ``atomic_africa``
(build_clib), which every extension links; its headers are included by the Cython modules, which
only declare and drive it (numpy.random's model). The same objects, compiled with hidden visibility,
also make the shared library ``libatomic_africa.so.N`` (N: the header's AA_ABI_VERSION; macOS
``libatomic_africa.N.dylib``) that the wheel ships beside the static one for C hosts and ctypes
(``aa_core.get_library_dir()``); with MSVC only the static library is built (CMake builds the DLL).

- GCC and clang: ``-O3``, no FMA contraction (results equal on every machine), no debug info, and
  OpenMP for the Cython drivers when a tiny OpenMP program compiles and links (Apple's clang has none
  unless libomp is installed: the kernels then run serially, with the same results). The C core is
  compiled as ISO C11 and has no threads.
- MSVC: ``/O2 /fp:precise`` (and ``/openmp`` for the drivers).

``AA_DEBUG_BUILD=1`` keeps debug info (``-g``, unstripped) for profiling and debuggers.
"""
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_clib import build_clib
from setuptools.command.build_ext import build_ext
from setuptools.modified import newer

HERE = Path(__file__).parent
CORE = Path("src") / "aa_core"            # relative: setuptools wants relative source paths
CSRC = CORE / "csrc"
C_SOURCES = [(CORE / line.strip()).as_posix() for line in (HERE / CORE / "sources.txt").read_text().splitlines()
             if line.strip().endswith(".c")]
C_HEADERS = sorted((CSRC / p.name).as_posix() for p in (HERE / CSRC).glob("*.h"))
ABI_VERSION = re.search(r"^#define AA_ABI_VERSION (\d+)", (HERE / CORE / "include" / "atomic_africa.h").read_text(),
                        re.M).group(1)


def shared_library_name() -> str | None:
    """The shared library's file name in the wheel (its soname), or None where none is built (MSVC)."""
    if sys.platform == "win32":
        return None
    return f"libatomic_africa.{ABI_VERSION}.dylib" if sys.platform == "darwin" else f"libatomic_africa.so.{ABI_VERSION}"


def _float_flags(compiler_type: str, debug: bool) -> list:
    """Optimisation, floating-point and debug flags shared by the C core and the extensions."""
    if compiler_type == "msvc":
        return ["/O2", "/fp:precise"]
    # -g0 after the interpreter's own CFLAGS (which often hold -g) drops the debug info;
    # -ffp-contract=off keeps a*b+c two roundings, as numpy and the reference compute it.
    return ["-O3", "-ffp-contract=off", "-g" if debug else "-g0"]


class BuildClib(build_clib):
    """build_clib that compiles the C core with the extensions' floating-point and optimisation flags."""

    def build_libraries(self, libraries):
        debug = os.environ.get("AA_DEBUG_BUILD") == "1"
        flags = _float_flags(self.compiler.compiler_type, debug)
        if self.compiler.compiler_type != "msvc":
            # hidden: the shared library exports only the header's AA_API functions (and the
            # extensions, linking the static one, export none of the core's)
            flags = ["-std=c11", "-fPIC", "-fvisibility=hidden"] + flags
        libraries = [(name, {**info, "cflags": flags + list(info.get("cflags", []))}) for name, info in libraries]
        super().build_libraries(libraries)
        if shared_library_name() is not None:
            for _, info in libraries:
                self._link_shared(info["sources"], debug)

    def _link_shared(self, sources, debug: bool):
        """libatomic_africa.so.N (soname) from the objects just compiled for the static library."""
        objects = self.compiler.object_filenames(sources, output_dir=self.build_temp)
        out = Path(self.build_clib) / shared_library_name()
        if sys.platform == "darwin":
            flags = ["-dynamiclib", "-install_name", f"@rpath/{out.name}"]
        else:
            flags = ["-shared", f"-Wl,-soname,{out.name}"] + ([] if debug else ["-s"])
        if self.force or any(newer(o, str(out)) for o in objects) or not out.exists():
            self.compiler.spawn(self.compiler.compiler_so[:1] + flags + objects + ["-lm", "-o", str(out)])

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

    def run(self):
        # The extensions link the C core: build it first (also for `build_ext --inplace` alone).
        self.run_command("build_clib")
        self._ship_library()
        super().run()

    def _ship_library(self):
        """Copy libatomic_africa.a and the shared library into the package's lib/
        (aa_core.get_library_dir()), so that the wheel (and an in-place or editable build) carries
        them for C and C++ hosts and ctypes."""
        clib = self.get_finalized_command("build_clib")
        dest = (HERE / "src" / "aa_core" / "lib") if self.inplace else Path(self.build_lib) / "aa_core" / "lib"
        dest.mkdir(parents=True, exist_ok=True)
        for name, _ in self.distribution.libraries or []:
            filename = self.compiler.library_filename(name) if self.compiler else f"lib{name}.a"
            self.copy_file(str(Path(clib.build_clib) / filename), str(dest / filename))
        if shared_library_name() is not None:
            self.copy_file(str(Path(clib.build_clib) / shared_library_name()), str(dest / shared_library_name()))

    def build_extensions(self):
        debug = os.environ.get("AA_DEBUG_BUILD") == "1"
        compile_args = _float_flags(self.compiler.compiler_type, debug)
        if self.compiler.compiler_type == "msvc":
            compile_args, link_args = compile_args + ["/openmp"], []
        else:
            link_args = [] if debug or sys.platform == "darwin" else ["-s"]  # strip the symbols
            omp_compile, omp_link = self._openmp_flags()
            compile_args += omp_compile
            link_args += omp_link
        clib = self.get_finalized_command("build_clib")
        library = [str(Path(clib.build_clib) / self.compiler.library_filename(name))
                   for name, _ in self.distribution.libraries or []]
        for ext in self.extensions:
            ext.extra_compile_args = compile_args + list(ext.extra_compile_args or [])
            ext.extra_link_args = link_args + list(ext.extra_link_args or [])
            ext.depends = list(ext.depends or []) + C_SOURCES + C_HEADERS + library  # relink on a core change
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


# The C core as one static library, linked into every extension (build_ext adds it to each).
LIBRARIES = [("atomic_africa", {"sources": C_SOURCES, "include_dirs": [CSRC.as_posix()],
                                "obj_deps": {"": C_HEADERS}})]

extensions = [
    Extension(
        f"aa_core.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        include_dirs=[np.get_include(), "src", "src/aa_core", CSRC.as_posix()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted((HERE / "src" / "aa_core").glob("*.pyx"))
]

setup(
    cmdclass={"build_clib": BuildClib, "build_ext": BuildExt},
    libraries=LIBRARIES,
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
