# Die ladder primitives. A die is its number of sides; 0 means "shifted below the ladder".
from libc.stdint cimport int64_t

cdef inline int shift_die(int sides, int64_t steps, const int64_t* ladder, int n) noexcept nogil:
    """The die `steps` rungs below `sides` on `ladder` (n rungs), or 0 below the bottom; -1 if off-ladder."""
    cdef int i
    for i in range(n):
        if ladder[i] == sides:
            if steps > i:
                return 0
            return <int>ladder[i - steps]
    return -1
