/* Die ladder primitives. A die is its number of sides; 0 means "shifted below the ladder". */
#ifndef AA_DICE_H
#define AA_DICE_H

#include "aa_common.h"

/* The die `steps` rungs below `sides` on `ladder` (n rungs), or 0 below the bottom; -1 if
 * `sides` is off the ladder. */
AA_INLINE int aa_shift_die(int sides, int64_t steps, const int64_t *ladder, int n) {
    int i;
    for (i = 0; i < n; i++) {
        if (ladder[i] == sides) {
            if (steps > i)
                return 0;
            return (int)ladder[i - steps];
        }
    }
    return -1;
}

#endif
