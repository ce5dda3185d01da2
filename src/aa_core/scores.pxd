# Table 5: scores from three faces. `row` is table5[action, posture] of Rules.table5_array:
# (single_index 0=low/2=high, single_role, pair_role) with roles of atomic_africa.enums.Role.
cdef enum:
    ROLE_ATTACK = 0
    ROLE_DEFENSE = 1
    ROLE_RALLY = 2
    ROLE_SPOTTING = 3
    ROLE_ATTACKS = 4

ctypedef struct Scores:
    int n_attacks      # 0, 1 or 2
    int attack[2]      # ascending when two
    int defense
    int rally          # -1 when the action has none
    int spotting       # -1 when the action has none
    int sprint_bonus   # -1 unless `sprint`


cdef inline void _assign(Scores* s, int role, int value) noexcept nogil:
    if role == ROLE_ATTACK:
        s.attack[s.n_attacks] = value
        s.n_attacks += 1
    elif role == ROLE_DEFENSE:
        s.defense = value
    elif role == ROLE_RALLY:
        s.rally = value
    elif role == ROLE_SPOTTING:
        s.spotting = value


cdef inline void action_scores(int a, int b, int c, const signed char* row, bint sprint,
                               Scores* s) noexcept nogil:
    """Scores of faces (a, b, c) in any order for one Table 5 row; sprint bonus = highest face."""
    cdef int t
    if a > b:
        t = a; a = b; b = t
    if b > c:
        t = b; b = c; c = t
    if a > b:
        t = a; a = b; b = t
    s.n_attacks = 0
    s.attack[0] = -1
    s.attack[1] = -1
    s.defense = -1
    s.rally = -1
    s.spotting = -1
    s.sprint_bonus = c if sprint else -1
    cdef int single, p0, p1
    if row[0] == 0:
        single = a; p0 = b; p1 = c
    else:
        single = c; p0 = a; p1 = b
    _assign(s, row[1], single)
    if row[2] == ROLE_ATTACKS:
        s.attack[0] = p0
        s.attack[1] = p1
        s.n_attacks = 2
    else:
        _assign(s, row[2], p0 + p1)
