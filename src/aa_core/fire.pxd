# Fire resolution primitives (RULES.md section 5). Index [0] infantry, [1] vehicle.
from libc.math cimport sin, cos, M_PI

ctypedef struct FireRules:
    int cover_bonus[3]     # armor bonus for No, Light, Heavy cover
    int armor_floor        # effective armor never below this
    int markers_range[2]   # markers for beating only the range threshold
    int markers_damage[2]  # markers for beating the damage threshold
    int turn_cap[2]        # new markers per target per turn


cdef inline int resolve_fire(int attack, int band, int defense, int armor, int cover, int ap,
                             bint vehicle, const FireRules* r, int* wounds) noexcept nogil:
    """Markers (before the per-turn cap) of one attack; wounds written to *wounds."""
    cdef int damage_threshold = band + defense
    cdef int eff
    wounds[0] = 0
    if attack <= band:
        return 0
    if attack <= damage_threshold:
        return r.markers_range[vehicle]
    eff = armor + r.cover_bonus[cover] + ap
    if eff < r.armor_floor:
        eff = r.armor_floor
    wounds[0] = (attack - damage_threshold) // eff
    return r.markers_damage[vehicle]


cdef inline int cap_markers(int new_markers, int already, bint vehicle, const FireRules* r) noexcept nogil:
    """New markers after the per-turn cap, given markers `already` received this turn."""
    cdef int room = r.turn_cap[vehicle] - already
    if room < 0:
        room = 0
    return new_markers if new_markers < room else room


cdef inline int predominant_cover(int a, int b, int c) noexcept nogil:
    """The middle of three cover values."""
    cdef int t
    if a > b:
        t = a; a = b; b = t
    if b > c:
        b = c
    return a if a > b else b


cdef inline void scatter(int clock, int distance, int spotting, int positions, double increment,
                         double zero_rad, bint clockwise, double* dx, double* dy) noexcept nogil:
    """Impact displacement in cm for a clock face (1..positions: the scatter die's sides, the clock's
    positions) and scatter distance; 0 if a direct hit."""
    cdef int offset = distance - spotting
    cdef double ang, r
    if offset <= 0:
        dx[0] = 0.0
        dy[0] = 0.0
        return
    # 2 pi / positions: for 12 positions bit for bit pi / 6 (scaling by 2 is exact)
    ang = (clock % positions) * (2.0 * M_PI / positions)
    if not clockwise:
        ang = -ang
    ang += zero_rad
    r = offset * increment
    dx[0] = r * sin(ang)
    dy[0] = r * cos(ang)
