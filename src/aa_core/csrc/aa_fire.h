/* Fire resolution primitives (RULES.md section 5). Index [0] infantry, [1] vehicle. */
#ifndef AA_FIRE_H
#define AA_FIRE_H

#include "aa_common.h"
#include "aa_maths.h"

typedef struct aa_fire_rules {
    int cover_bonus[3];      /* armor bonus for No, Light, Heavy cover */
    int armor_floor;         /* effective armor never below this */
    int markers_range[2];    /* markers for beating only the range threshold */
    int markers_damage[2];   /* markers for beating the damage threshold */
    int turn_cap[2];         /* new markers per target per turn */
} aa_fire_rules;

/* Markers (before the per-turn cap) of one attack; its wounds into *wounds. */
AA_INLINE int aa_resolve_attack(int attack, int band, int defense, int armor, int cover, int ap, int vehicle,
                                const aa_fire_rules *r, int *wounds) {
    int damage_threshold = band + defense;
    int eff;
    *wounds = 0;
    if (attack <= band)
        return 0;
    if (attack <= damage_threshold)
        return r->markers_range[vehicle];
    eff = armor + r->cover_bonus[cover] + ap;
    if (eff < r->armor_floor)
        eff = r->armor_floor;
    *wounds = (attack - damage_threshold) / eff;
    return r->markers_damage[vehicle];
}

/* New markers after the per-turn cap, given the markers `already` received this turn. */
AA_INLINE int aa_cap_markers(int new_markers, int already, int vehicle, const aa_fire_rules *r) {
    int room = r->turn_cap[vehicle] - already;
    if (room < 0)
        room = 0;
    return new_markers < room ? new_markers : room;
}

/* The middle of three cover values. */
AA_INLINE int aa_predominant_cover(int a, int b, int c) {
    int t;
    if (a > b) { t = a; a = b; b = t; }
    if (b > c)
        b = c;
    return a > b ? a : b;
}

/* Impact displacement in cm for a clock face (1..positions: the scatter die's sides, the clock's
 * positions) and a scatter distance; 0 if a direct hit. */
AA_INLINE void aa_scatter(int clock, int distance, int spotting, int positions, double increment,
                          double zero_rad, int clockwise, double *dx, double *dy) {
    int offset = distance - spotting;
    double ang, r, s, c;
    if (offset <= 0) {
        *dx = 0.0;
        *dy = 0.0;
        return;
    }
    /* 2 pi / positions: for 12 positions bit for bit pi / 6 (scaling by 2 is exact) */
    ang = (clock % positions) * (2.0 * AA_PI / positions);
    if (!clockwise)
        ang = -ang;
    ang += zero_rad;
    r = offset * increment;
    aa_sincos(ang, &s, &c);   /* the core's own (aa_maths.h): the same bits on every platform */
    *dx = r * s;
    *dy = r * c;
}

#endif
