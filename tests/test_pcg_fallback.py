"""aa_core/pcg.pxd without a 128-bit integer type (as on MSVC): a tiny module that cimports it is built
twice, with the compiler's ``unsigned __int128`` and with ``-DAA_NO_INT128`` (the 32-bit-piece
multiply), and both must agree with Python's integers and with numpy's PCG64 bit for bit."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from test_pcg import assembled, cases

pytestmark = pytest.mark.slow  # builds two extension modules (about 10 s on an idle core)

TWIN = textwrap.dedent("""
    # cython: language_level=3
    from libc.stdint cimport uint32_t, uint64_t
    from aa_core.pcg cimport (AA_U128_NATIVE, aa_u128, aa_u128_add, aa_u128_hi, aa_u128_lo,
                              aa_u128_make, aa_u128_mul, pcg_next32, pcg_next64, pcg_seed)

    NATIVE = AA_U128_NATIVE

    def mul(uint64_t a_hi, uint64_t a_lo, uint64_t b_hi, uint64_t b_lo):
        cdef aa_u128 r = aa_u128_mul(aa_u128_make(a_hi, a_lo), aa_u128_make(b_hi, b_lo))
        return aa_u128_hi(r), aa_u128_lo(r)

    def add(uint64_t a_hi, uint64_t a_lo, uint64_t b_hi, uint64_t b_lo):
        cdef aa_u128 r = aa_u128_add(aa_u128_make(a_hi, a_lo), aa_u128_make(b_hi, b_lo))
        return aa_u128_hi(r), aa_u128_lo(r)

    def seed_and_draw(const uint32_t[::1] entropy, int n64, int n32):
        cdef uint64_t st[6]
        pcg_seed(&entropy[0], <int>entropy.shape[0], st)
        state = [st[k] for k in range(6)]
        draws64 = [pcg_next64(st) for _ in range(n64)]
        draws32 = [pcg_next32(st) for _ in range(n32)]
        return state, draws64, draws32
""")

BUILD = textwrap.dedent("""
    import sys
    import numpy as np
    from Cython.Build import cythonize
    from setuptools import Extension, setup
    import aa_core

    quick = [] if sys.platform == "win32" else ["-O1", "-g0"]  # a test build: compile fast
    exts = [Extension(name, [name + ".pyx"], include_dirs=[np.get_include()], define_macros=macros,
                      extra_compile_args=quick)
            for name, macros in (("twin_native", []), ("twin_portable", [("AA_NO_INT128", "1")]))]
    setup(name="twins", ext_modules=cythonize(exts, include_path=[aa_core.get_cython_include()], quiet=True),
          script_args=["build_ext", "--inplace", "-q"])
""")

M64 = (1 << 64) - 1


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    work = tmp_path_factory.mktemp("pcg_twins")
    for name in ("twin_native", "twin_portable"):
        (work / f"{name}.pyx").write_text(TWIN)
    (work / "build.py").write_text(BUILD)
    proc = subprocess.run([sys.executable, "build.py"], cwd=work, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    mods = {}
    for name in ("twin_native", "twin_portable"):
        so = next(p for suffix in importlib.machinery.EXTENSION_SUFFIXES
                  if (p := work / f"{name}{suffix}").is_file())
        spec = importlib.util.spec_from_file_location(name, so)
        mods[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mods[name])
    return mods["twin_native"], mods["twin_portable"]


def _u128_cases():
    rng = np.random.default_rng(2026)
    edges = [0, 1, 2, M64, M64 - 1, 1 << 32, (1 << 32) - 1, 1 << 63, 0x4385DF649FCCF645]
    for a in edges:
        for b in edges:
            yield (a, b, b, a)
    for _ in range(3000):
        yield tuple(int(x) for x in rng.integers(0, 2**64, size=4, dtype=np.uint64))


def test_the_forced_build_really_uses_the_portable_halves(twins):
    native, portable = twins
    assert portable.NATIVE == 0
    assert native.NATIVE == (0 if sys.platform == "win32" else 1)


def test_portable_multiply_and_add_equal_python_integers(twins):
    for mod in twins:
        for a_hi, a_lo, b_hi, b_lo in _u128_cases():
            a, b = a_hi << 64 | a_lo, b_hi << 64 | b_lo
            hi, lo = mod.mul(a_hi, a_lo, b_hi, b_lo)
            assert hi << 64 | lo == (a * b) % (1 << 128), (mod.__name__, a, b)
            hi, lo = mod.add(a_hi, a_lo, b_hi, b_lo)
            assert hi << 64 | lo == (a + b) % (1 << 128), (mod.__name__, a, b)


def test_portable_pcg64_equals_numpy(twins):
    for mod in twins:
        for seed, key in cases(200):
            ss = np.random.SeedSequence(seed, spawn_key=key)
            state, draws64, draws32 = mod.seed_and_draw(assembled(seed, key), 5, 4)
            ref = np.random.PCG64(ss)
            s = ref.state["state"]
            assert (state[0] << 64 | state[1], state[2] << 64 | state[3]) == (s["state"], s["inc"])
            raw = ref.random_raw(7).tolist()
            assert draws64 == raw[:5], (mod.__name__, seed, key)
            # next_uint32 halves of the following outputs: low first, then high
            assert draws32 == [raw[5] & 0xFFFFFFFF, raw[5] >> 32, raw[6] & 0xFFFFFFFF, raw[6] >> 32]
