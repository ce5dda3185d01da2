# cython: language_level=3
"""Dice kernels: wound shifts on the die ladder and rolling many units' dice from a BitGenerator
(the C core's csrc/aa_dice.h and csrc/aa_rng.h)."""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

from aa_core.dice cimport shift_die
from aa_core.rng cimport bitgen_layout_matches, reject_threshold, roll_faces

if not bitgen_layout_matches():
    raise ImportError("aa_core.dice: numpy's bitgen_t no longer has the layout of the core's aa_bitgen")


def shift_dice(const int64_t[:] sides, const int64_t[:] steps, const int64_t[::1] ladder,
               int64_t[:] out):
    """out[i] = shift_die(sides[i], steps[i]); returns the first index with an off-ladder die, or -1."""
    cdef Py_ssize_t i, n = sides.shape[0]
    cdef Py_ssize_t bad = -1
    cdef int nl = <int>ladder.shape[0]
    with nogil:
        for i in range(n):
            out[i] = shift_die(<int>sides[i], steps[i], &ladder[0], nl)
            if out[i] < 0 and bad < 0:
                bad = i
    return bad


def roll_dice(object bit_generator, const int64_t[:, ::1] sides, uint8_t[:, ::1] faces, uint64_t allowed=0):
    """Roll every row of `sides` (one unit's dice, product of sides <= 2**32) into `faces`.

    Returns the flat index of the first die whose sides are not in the bit set `allowed` (bit s set
    for an s-sided die, s < 64), drawing nothing, or -1 once every row is rolled; `allowed` 0 trusts
    the sides (the game's own dice) and skips the check. Draws through the
    BitGenerator's C API under its lock; the rows are rolled in order.
    """
    cdef bitgen_t* bg = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef Py_ssize_t i, n = sides.shape[0]
    cdef int j, k = <int>sides.shape[1]
    cdef uint32_t s[16]
    cdef int f[16]
    cdef uint32_t product, threshold
    cdef int64_t d
    cdef Py_ssize_t bad = -1
    if k > 16:
        raise ValueError("at most 16 dice per row")
    # The check is a pass of its own, before any draw, so a bad die leaves the generator untouched;
    # in C it costs a small part of the roll, where numpy's isin cost three times the roll itself.
    with nogil:
        for i in range(n if allowed else 0):
            for j in range(k):
                d = sides[i, j]
                if d < 0 or d > 63 or not ((allowed >> d) & 1):
                    bad = i * k + j
                    break
            if bad >= 0:
                break
    if bad >= 0:
        return bad
    with bit_generator.lock, nogil:
        for i in range(n):
            product = 1
            for j in range(k):
                s[j] = <uint32_t>sides[i, j]
                product *= s[j]
            threshold = reject_threshold(product)
            roll_faces(bg, s, k, threshold, f)
            for j in range(k):
                faces[i, j] = <uint8_t>f[j]
    return -1


def shift_die_scalar(int sides, int64_t steps, const int64_t[::1] ladder):
    """Scalar twin of shift_die: the shifted die, 0 below the ladder, -1 if `sides` is off-ladder."""
    return shift_die(sides, steps, &ladder[0], <int>ladder.shape[0])


def wounded_dice_array(const int64_t[:, :] dice, const int64_t[:] wounds, const int8_t[:] vehicle,
                       const int64_t[::1] ladder, int infantry_attr, int vehicle_attr,
                       int shattered_die, int64_t[:, ::1] out, int8_t[:] shattered):
    """Dice after wound shifts (attribute index per kind) with the shattered floor; returns the first
    row with an off-ladder die, or -1."""
    cdef Py_ssize_t i, n = dice.shape[0]
    cdef Py_ssize_t bad = -1
    cdef int j, attr, s, nl = <int>ladder.shape[0]
    with nogil:
        for i in range(n):
            attr = vehicle_attr if vehicle[i] else infantry_attr
            for j in range(3):
                out[i, j] = dice[i, j]
                if shift_die(<int>dice[i, j], 0, &ladder[0], nl) < 0 and bad < 0:
                    bad = i
            s = shift_die(<int>dice[i, attr], wounds[i], &ladder[0], nl)
            shattered[i] = s == 0
            out[i, attr] = shattered_die if s == 0 else s
    return bad
