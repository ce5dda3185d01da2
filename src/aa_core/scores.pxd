# Table 5: scores from three faces (the C core's csrc/aa_scores.h). `row` is table5[action, posture] of
# Rules.table5_array: (single_index 0=low/2=high, single_role, pair_role) with roles of
# atomic_africa.enums.Role.
cdef extern from "csrc/aa_scores.h" nogil:
    enum:
        ROLE_ATTACK "AA_ROLE_ATTACK"
        ROLE_DEFENSE "AA_ROLE_DEFENSE"
        ROLE_RALLY "AA_ROLE_RALLY"
        ROLE_SPOTTING "AA_ROLE_SPOTTING"
        ROLE_ATTACKS "AA_ROLE_ATTACKS"

    ctypedef struct Scores "aa_scores":
        int n_attacks      # 0, 1 or 2
        int attack[2]      # ascending when two
        int defense
        int rally          # -1 when the action has none
        int spotting       # -1 when the action has none
        int sprint_bonus   # -1 unless `sprint`

    # Scores of faces (a, b, c) in any order for one Table 5 row; sprint bonus = highest face.
    void action_scores "aa_action_scores"(int a, int b, int c, const signed char* row, bint sprint,
                                          Scores* s) noexcept
