# Die ladder primitives: the C core's csrc/aa_dice.h. A die is its number of sides; 0 means
# "shifted below the ladder".
from libc.stdint cimport int64_t

cdef extern from "csrc/aa_dice.h" nogil:
    # The die `steps` rungs below `sides` on `ladder` (n rungs), or 0 below the bottom; -1 if off-ladder.
    int shift_die "aa_shift_die"(int sides, int64_t steps, const int64_t* ladder, int n) noexcept
