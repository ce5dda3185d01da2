# Fire resolution primitives (RULES.md section 5): the C core's csrc/aa_fire.h. Index [0] infantry,
# [1] vehicle.
cdef extern from "csrc/aa_fire.h" nogil:
    ctypedef struct FireRules "aa_fire_rules":
        int cover_bonus[3]     # armor bonus for No, Light, Heavy cover
        int armor_floor        # effective armor never below this
        int markers_range[2]   # markers for beating only the range threshold
        int markers_damage[2]  # markers for beating the damage threshold
        int turn_cap[2]        # new markers per target per turn

    # Markers (before the per-turn cap) of one attack; wounds written to *wounds.
    int resolve_fire "aa_resolve_attack"(int attack, int band, int defense, int armor, int cover, int ap,
                                         bint vehicle, const FireRules* r, int* wounds) noexcept
    # New markers after the per-turn cap, given markers `already` received this turn.
    int cap_markers "aa_cap_markers"(int new_markers, int already, bint vehicle, const FireRules* r) noexcept
    # The middle of three cover values.
    int predominant_cover "aa_predominant_cover"(int a, int b, int c) noexcept
    # Impact displacement in cm for a clock face (1..positions) and scatter distance; 0 if a direct hit.
    void scatter "aa_scatter"(int clock, int distance, int spotting, int positions, double increment,
                              double zero_rad, bint clockwise, double* dx, double* dy) noexcept
