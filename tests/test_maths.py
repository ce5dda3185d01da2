"""The engines' own sine, cosine, logarithm and exponential (issue 34, point 4): ``src/aa_core/csrc/aa_maths.h`` and its
Python twin ``atomic_africa._maths`` give the same bits (the C compiled here with gcc, and for
WebAssembly in tests/test_wasm.py), within one ulp of the exact values (mpmath at 200 bits), so no rule
outcome or event value depends on the platform's C library."""
from __future__ import annotations

import math
import random
import struct
import subprocess
from pathlib import Path

import mpmath
import pytest

from atomic_africa import _maths

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "src" / "aa_core" / "csrc"

#: Reads one double a line (16 hex digits of its bits) and prints the bits of sin, cos and log of it.
MATHS_PROGRAM = r"""#include <stdio.h>
#include <string.h>

#include "aa_maths.h"

static unsigned long long bits_(double d) {
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

int main(void) {
    unsigned long long u;
    double x, s, c;
    while (scanf("%llx", &u) == 1) {
        memcpy(&x, &u, sizeof x);
        aa_sincos(x, &s, &c);
        printf("%016llx %016llx %016llx %016llx\n", bits_(s), bits_(c), bits_(aa_log(x)), bits_(aa_exp(x)));
    }
    return 0;
}
"""


def _bits(x: float) -> str:
    return struct.pack("<d", x)[::-1].hex()


def inputs() -> list:
    """Every angle the engines compute (clock and movement directions of any count, turned by any
    whole degree), multiples of pi/2, tiny, huge and non-finite values, and a random spread."""
    rng = random.Random(34)
    xs = [2 * math.pi * d / n + math.radians(z) for n in range(1, 65) for d in range(n) for z in (0, 37, -90, 360)]
    xs += [(d % n) * (2.0 * math.pi / n) for n in range(2, 64) for d in range(1, n + 1)]
    xs += [k * math.pi / 2 for k in range(-40, 41)] + [k * math.pi / 4 for k in range(-40, 41)]
    xs += [0.0, -0.0, 5e-324, -5e-324, 1e-300, 1e-8, 0.5, 1.0, 2.0, 1e5, _maths.SINCOS_MAX, -_maths.SINCOS_MAX]
    xs += [math.nextafter(_maths.SINCOS_MAX, math.inf), 1e300, math.inf, -math.inf, math.nan]
    xs += [rng.uniform(-30.0, 30.0) for _ in range(3000)] + [rng.uniform(-1e6, 1e6) for _ in range(300)]
    xs += [float(n) for n in range(1, 3000)] + [rng.uniform(1e-5, 1e9) for _ in range(1000)]
    # exp's branches: tiny, the first reduction band, the thresholds, the subnormal results, log-scaled noise
    xs += [rng.uniform(-750.0, 710.0) for _ in range(2000)] + [rng.uniform(-1.2, 1.2) for _ in range(500)]
    xs += [-7.45133219101941108420e+02, 7.09782712893383973096e+02, -708.4, -740.0, 3.7e-9, -3.7e-9, 0.3466, -0.3466]
    return xs


def expected_lines(xs) -> list:
    out = []
    for x in xs:
        s, c = _maths.sincos(x)
        out.append(f"{_bits(s)} {_bits(c)} {_bits(_maths.log(x))} {_bits(_maths.exp(x))}")
    return out


def _ulps(got: float, exact) -> float:
    want = float(exact)
    return float(abs(mpmath.mpf(got) - exact) / math.ulp(want)) if got != want else 0.0


def test_sincos_is_within_an_ulp_of_the_exact_values():
    mpmath.mp.prec = 200
    worst = 0.0
    for x in inputs():
        if not math.isfinite(x) or abs(x) > _maths.SINCOS_MAX:
            assert all(math.isnan(v) for v in _maths.sincos(x))
            continue
        s, c = _maths.sincos(x)
        worst = max(worst, _ulps(s, mpmath.sin(x)) if x != 0 else 0.0, _ulps(c, mpmath.cos(x)))
        if x == 0:
            assert (s, c) == (x, 1.0) and math.copysign(1, s) == math.copysign(1, x)
    assert worst < 1.0, worst


def test_log_is_within_an_ulp_of_the_exact_value():
    mpmath.mp.prec = 200
    worst = 0.0
    for x in inputs():
        if not (x > 0 and math.isfinite(x)):
            assert math.isnan(_maths.log(x))
            continue
        worst = max(worst, _ulps(_maths.log(x), mpmath.log(x)) if x != 1 else abs(_maths.log(x)))
    assert worst < 1.0, worst
    assert _maths.log(1.0) == 0.0


def test_exp_is_within_an_ulp_of_the_exact_value():
    mpmath.mp.prec = 200
    worst = 0.0
    for x in inputs():
        got = _maths.exp(x)
        if math.isnan(x):
            assert math.isnan(got)
            continue
        exact = mpmath.exp(x)
        if exact > 1.7976931348623157e308:
            assert got == math.inf
        elif exact < 2.0 ** -1075:
            assert got == 0.0
        elif exact < 2.2250738585072014e-308:   # subnormal: one rounding by ldexp, within half a subnormal step
            assert abs(mpmath.mpf(got) - exact) <= 2.0 ** -1074, x
        else:
            worst = max(worst, _ulps(got, exact))
    assert worst < 1.0, worst
    assert _maths.exp(0.0) == 1.0 and _maths.exp(-math.inf) == 0.0


def test_the_clock_directions_are_exact_where_they_can_be():
    """The twelve o'clock directions: the quarter turns give exact 0 and +-1 on the axis they point."""
    for d, (s, c) in enumerate(_maths.sincos(d * (2.0 * math.pi / 12)) for d in range(12)):
        if d % 3 == 0:
            assert {abs(s), abs(c)} >= {1.0} and min(abs(s), abs(c)) < 1e-15
    assert _maths.sincos(0.0) == (0.0, 1.0)


@pytest.fixture(scope="module")
def maths_program(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("maths")
    src, exe = tmp / "maths.c", tmp / "maths"
    src.write_text(MATHS_PROGRAM)
    r = subprocess.run(["/usr/bin/gcc", "-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror",
                        f"-I{CSRC}", str(src), "-lm", "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return exe


def test_the_c_core_gives_the_python_twin_s_bits(maths_program):
    xs = inputs()
    r = subprocess.run([str(maths_program)], input="".join(_bits(x) + "\n" for x in xs), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = r.stdout.splitlines()
    want = expected_lines(xs)
    assert len(got) == len(want)
    bad = [(x, g, w) for x, g, w in zip(xs, got, want) if g != w]
    assert not bad, bad[:5]


def test_the_libraries_functions_are_gone_from_the_rules():
    """No C library trigonometry, exponential or logarithm in the core's rules and agents: aa_maths.h is
    the only maths they use beyond correctly rounded sqrt (and exact floor, frexp, isfinite)."""
    import re
    banned = re.compile(r"\b(sin|cos|tan|atan2?|asin|acos|exp|expm1|log|log2|log10|log1p|pow|hypot|cbrt)\s*\(")
    for path in sorted(CSRC.glob("*.[ch]")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        assert not banned.search(text), (path.name, banned.search(text).group(0))
    engine = (ROOT / "python/atomic_africa/reference/game/engine.py").read_text()
    assert not re.search(r"math\.(sin|cos|atan2|log)\(", engine)
