/* Clean-up: shattered units split or removed, voluntary splits, Morale, the discard of unused
 * cards, and victory at the end of a turn; and whose turn it is in a stage with work in it (the
 * Orders phase's and the splits', aa_next_player_with). */
#include "aa_engine_internal.h"

/* Game._shattered_unit (reference/game/engine.py) */
static int shattered_unit(V *v, int u) {
    int dice[3];
    int sh;
    if (v->P->cleanup.shattered_if_morale_only && v->P->dice.shift_attr[is_vehicle(v, u)] != 2)
        return 0;
    aa_wounded_dice(v, u, dice, &sh);
    return sh;
}

/* Game._remove_unit (reference/game/engine.py) */
static void remove_unit(V *v, int u) {
    int side = u / v->C;
    cnt(v, side)[C_REMOVED] += v->figures[u];
    if (v->card[u] != NO_CARD)
        aa_discard_unit_card(v, u);
    EVN(v, E_REMOVED, u, v->name_base[u], v->name_depth[u], side, v->figures[u]);
    aa_free_slot(v, u);
}

/* halves in Game._split_unit: the larger half first (the odd one to it if odd_big). */
AA_INLINE void halves(int n, int odd_big, int *big, int *small) {
    *big = odd_big ? (n + 1) / 2 : n / 2;
    *small = n - *big;
}

/* Every unit row of slot src into slot dst (the split-off half starts as a copy). */
static void copy_unit(V *v, int src, int dst) {
    int f, U = v->U;
    for (f = 0; f < NI8; f++)
        v->g->i8[f * U + dst] = v->g->i8[f * U + src];
    for (f = 0; f < NI32; f++)
        v->g->i32[f * U + dst] = v->g->i32[f * U + src];
    for (f = 0; f < NF64; f++)
        v->g->f64[f * U + dst] = v->g->f64[f * U + src];
}

/* Game._split_unit (reference/game/engine.py): halves as equal as possible, markers and wounds divided evenly; the new
 * unit in the side's first free slot, split_offset_cm towards the table's centre. Returns it (-1: no
 * slot). */
int aa_split_unit(V *v, int u, int voluntary) {
    const aa_params *P = v->P;
    int side = u / v->C, nw = -1, t, mb, ms, wb, ws, tb, ts_, fb, fs;
    double ex, ey, r;
    for (t = side * v->C; t < (side + 1) * v->C; t++) {
        if (!v->alive[t]) {
            nw = t;
            break;
        }
    }
    if (nw < 0)   /* the slot capacity bound rules this out */
        return -1;
    fb = (v->figures[u] + 1) / 2;
    fs = v->figures[u] / 2;
    halves(v->markers[u], P->cleanup.odd_to_larger_half, &mb, &ms);
    halves(v->wounds[u], P->cleanup.odd_to_larger_half, &wb, &ws);
    halves(v->turn_markers[u], P->cleanup.odd_to_larger_half, &tb, &ts_);
    copy_unit(v, u, nw);
    v->name_depth[nw] += 1;
    v->commander[nw] = 0;
    v->card[nw] = NO_CARD;
    v->revealed[nw] = v->orders_sup[nw] = 0;
    v->figures[nw] = fs;
    v->markers[nw] = ms;
    v->wounds[nw] = ws;
    v->turn_markers[nw] = ts_;
    v->figures[u] = fb;
    v->markers[u] = mb;
    v->wounds[u] = wb;
    v->turn_markers[u] = tb;
    /* towards the table's middle (+x from the middle itself): the unit vector by a correctly rounded
     * sqrt, not an angle through the C library's atan2, sin and cos (results equal on every platform) */
    ex = P->table.mid_x - v->x[u];
    ey = P->table.mid_y - v->y[u];
    if (ex != 0.0 || ey != 0.0) {
        r = sqrt(ex * ex + ey * ey);
        ex = ex / r;
        ey = ey / r;
    } else {
        ex = 1.0;
        ey = 0.0;
    }
    aa_clamp_move(v, v->x[u], v->y[u], P->cleanup.split_offset_cm * ex, P->cleanup.split_offset_cm * ey,
                  &v->x[nw], &v->y[nw]);
    v->split_done[u] = v->split_done[nw] = 1;
    aa_clear_scratch(v, nw);
    invalidate_los(v);
    EVN(v, E_SPLIT, u, nw, voluntary, v->figures[u], v->figures[nw], v->markers[u], v->markers[nw], v->wounds[u],
        v->wounds[nw]);
    return nw;
}

/* ---------------------------------------------------------------------------------- whose work
 * The Orders phase and Clean-up's splits both pass the turn to the next player with work; here, below
 * aa_engine.c and aa_resolve.c, so that every rules file calls only the files below it. */
/* Game._note_reserve (reference/game/engine.py): when player p's Orders end with no legal assignment left, a
 * unit still without orders that is suppressed shows that p's Reserve holds no card it may take. */
void aa_note_reserve(V *v, int p) {
    int u;
    if (cnt(v, p)[C_HAND] == 0 || aa_orders_pairs(v, p, NULL) > 0)
        return;
    for (u = p * v->C; u < (p + 1) * v->C; u++)
        if (v->alive[u] && v->card[u] == NO_CARD && !v->acted[u] && v->markers[u] > 0)
            v->s[S_NOANY0 + p] = 1;
}

/* Game._next_player_with (reference/game/engine.py): give `stage` (ST_ORDERS or ST_SPLIT) to the first player, in
 * turn order from s[S_STEP], with work in it; 0 once both are done. A player skipped in the Orders phase
 * logs orders_done. */
int aa_next_player_with(V *v, int stage) {
    int p, work;
    while (v->s[S_STEP] < 2) {
        p = v->s[S_STEP] == 0 ? v->s[S_FIRST] : 1 - v->s[S_FIRST];
        work = stage == ST_ORDERS ? aa_orders_pairs(v, p, NULL) > 0 : aa_has_splittable(v, p);
        if (work) {
            v->s[S_STAGE] = stage;
            v->s[S_CUR] = p;
            return 1;
        }
        if (stage == ST_ORDERS) {
            aa_note_reserve(v, p);
            EVN(v, E_ORDERS_DONE, p, cnt(v, p)[C_HAND]);
        }
        v->s[S_STEP] += 1;
    }
    return 0;
}


/* Game._cleanup (reference/game/engine.py): compulsory splits and removals of shattered units, then the voluntary
 * splits. */
void aa_cleanup(V *v) {
    int u, nw;
    v->s[S_ACT] = v->s[S_REACT] = v->s[S_DECL] = -1;
    for (u = 0; u < v->U; u++)
        v->born[u] = 0;
    for (u = 0; u < v->U; u++) {
        /* Game iterates over a snapshot of the slots: units split off in this loop are not visited. */
        if (v->alive[u] && !v->born[u] && shattered_unit(v, u)) {
            if (v->figures[u] < v->P->cleanup.split_min_figures) {
                remove_unit(v, u);
            } else {
                nw = aa_split_unit(v, u, 0);
                if (nw >= 0)
                    v->born[nw] = 1;
            }
        }
    }
    for (u = 0; u < v->U; u++)
        v->born[u] = 0;
    v->s[S_STEP] = 0;
    aa_splits_next(v);
}

static void cleanup_rest(V *v);

/* Game._splits_next (reference/game/engine.py) */
void aa_splits_next(V *v) {
    if (!aa_next_player_with(v, ST_SPLIT))
        cleanup_rest(v);
}

/* Game._game_over (reference/game/engine.py) */
static void game_over(V *v, int winner, int reason) {
    v->s[S_WINNER] = winner;
    v->s[S_REASON] = reason;
    v->s[S_STAGE] = ST_OVER;
    v->s[S_CUR] = -1;
    EVN(v, E_GAME_OVER, winner, reason, aa_side_figures(v, 0), aa_side_figures(v, 1));
}

/* Game._cleanup_rest (reference/game/engine.py): Morale, the discard, the end of the turn and victory. */
static void cleanup_rest(V *v) {
    const aa_params *P = v->P;
    int u, p, face, die, nh, winner, a0, a1, f0, f1, sh, ok;
    int dice[3];
    int32_t *c;
    int16_t *hand;
    /* Morale: a roll of the (shifted) Morale die above the number of markers removes one. */
    for (u = 0; u < v->U; u++) {
        if (v->alive[u] && v->markers[u] > 0) {
            aa_wounded_dice(v, u, dice, &sh);
            die = dice[2];
            face = roll(v, die);
            ok = face > v->markers[u];
            EVN(v, E_MORALE, u, die, face, v->markers[u], ok);
            if (ok)
                v->markers[u] = v->markers[u] - P->cleanup.morale_markers_removed > 0
                    ? v->markers[u] - P->cleanup.morale_markers_removed : 0;
        }
    }
    /* Unused (and played) order cards go to the discard pile. */
    for (p = 0; p < 2; p++) {
        c = cnt(v, p);
        EVN(v, E_DISCARD, p, c[C_HAND]);
        hand = pile(v, p, PILE_HAND);
        nh = c[C_HAND];
        aa_discard_hidden(v, p, hand, nh);   /* the Reserve goes face down */
        c[C_HAND] = 0;
        v->s[S_NOANY0 + p] = 0;
    }
    for (u = 0; u < v->U; u++) {
        if (v->alive[u]) {
            if (v->card[u] != NO_CARD)
                aa_discard_unit_card(v, u);
            v->card[u] = NO_CARD;
            v->revealed[u] = v->acted[u] = v->split_done[u] = v->orders_sup[u] = 0;
            v->turn_markers[u] = 0;
            aa_clear_scratch(v, u);
        }
    }
    f0 = aa_side_figures(v, 0);
    f1 = aa_side_figures(v, 1);
    a0 = aa_side_count(v, 0);
    a1 = aa_side_count(v, 1);
    EVN(v, E_TURN_END, f0, f1, a0, a1);
    /* Victory. */
    if (a0 == 0 || a1 == 0) {
        winner = a0 == a1 ? -1 : (a1 == 0 ? 0 : 1);
        game_over(v, winner, R_NO_UNITS);
    } else if (v->s[S_TURN] >= P->table.turns) {
        winner = f0 == f1 ? -1 : (f0 > f1 ? 0 : 1);
        game_over(v, winner, winner >= 0 ? R_MORE_FIGURES : R_EQUAL_FIGURES);
    } else {
        /* the next turn begins in the entry point (aa_start_game, aa_apply_action), in a loop: turns
         * that pass with no decision (no orders, no splits) would otherwise nest one call chain per
         * turn on the stack */
        v->turn_due = 1;
    }
}
