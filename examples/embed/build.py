"""Build the embedding example in place: ``python build.py build_ext --inplace``."""
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

import aa_core

setup(
    name="my_sim",
    ext_modules=cythonize(
        [Extension("my_sim", ["my_sim.pyx"], include_dirs=[np.get_include()])],
        include_path=[aa_core.get_cython_include()],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
    ),
    script_args=None,
)
