/* Table 5: scores from three faces. `row` is table5[action, posture] of Rules.table5_array:
 * (single_index 0=low/2=high, single_role, pair_role) with the roles of atomic_africa.enums.Role. */
#ifndef AA_SCORES_H
#define AA_SCORES_H

#include "aa_common.h"

enum {
    AA_ROLE_ATTACK = 0,
    AA_ROLE_DEFENSE = 1,
    AA_ROLE_RALLY = 2,
    AA_ROLE_SPOTTING = 3,
    AA_ROLE_ATTACKS = 4
};

typedef struct aa_scores {
    int n_attacks;      /* 0, 1 or 2 */
    int attack[2];      /* ascending when two */
    int defense;
    int rally;          /* -1 when the action has none */
    int spotting;       /* -1 when the action has none */
    int sprint_bonus;   /* -1 unless `sprint` */
} aa_scores;

AA_INLINE void aa_assign_score_(aa_scores *s, int role, int value) {
    if (role == AA_ROLE_ATTACK) {
        s->attack[s->n_attacks] = value;
        s->n_attacks += 1;
    } else if (role == AA_ROLE_DEFENSE) {
        s->defense = value;
    } else if (role == AA_ROLE_RALLY) {
        s->rally = value;
    } else if (role == AA_ROLE_SPOTTING) {
        s->spotting = value;
    }
}

/* Scores of faces (a, b, c) in any order for one Table 5 row; sprint bonus = the highest face. */
AA_INLINE void aa_action_scores(int a, int b, int c, const signed char *row, int sprint, aa_scores *s) {
    int t, single, p0, p1;
    if (a > b) { t = a; a = b; b = t; }
    if (b > c) { t = b; b = c; c = t; }
    if (a > b) { t = a; a = b; b = t; }
    s->n_attacks = 0;
    s->attack[0] = -1;
    s->attack[1] = -1;
    s->defense = -1;
    s->rally = -1;
    s->spotting = -1;
    s->sprint_bonus = sprint ? c : -1;
    if (row[0] == 0) {
        single = a; p0 = b; p1 = c;
    } else {
        single = c; p0 = a; p1 = b;
    }
    aa_assign_score_(s, row[1], single);
    if (row[2] == AA_ROLE_ATTACKS) {
        s->attack[0] = p0;
        s->attack[1] = p1;
        s->n_attacks = 2;
    } else {
        aa_assign_score_(s, row[2], p0 + p1);
    }
}

#endif
