/* The helpers the rules files share over one game's units, cards and events: event records, the
 * shuffle, wounded dice, clamped moves, unit slots, side counts and the card piles. They call no other
 * rules file, so the rules files call one another in one direction only (aa_engine.c -> aa_resolve.c
 * -> aa_cleanup.c -> aa_legal.c -> aa_units.c; tests/test_c_core.py checks that no circle comes back). */
#include "aa_engine_internal.h"

/* ---------------------------------------------------------------------------------- events */
void aa_ev_record(V *v, int code, int n, const double *vals) {
    ptrdiff_t at = ev_open(v, code);
    int i;
    for (i = 0; i < n; i++)
        ev_push(v->ev, vals[i]);
    ev_close(v, at);
}

void aa_ev_list(V *v, int code, int p, const int16_t *cards, int n) {
    ptrdiff_t at;
    int i;
    if (v->ev != NULL) {
        at = ev_open(v, code);
        ev_push(v->ev, p);
        for (i = 0; i < n; i++)
            ev_push(v->ev, cards[i]);
        ev_close(v, at);
    }
}

/* ---------------------------------------------------------------------------------- dice */
/* RandomSource.shuffle (game/rng.py) in place: Fisher-Yates, one die of i + 1 sides per position. */
void aa_shuffle(V *v, int16_t *cards, int n) {
    int i, j;
    int16_t t;
    for (i = n - 1; i > 0; i--) {
        j = roll(v, i + 1) - 1;
        t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

/* atomic_africa.dice.wounded_dice of unit u (as Game._roll_unit calls it) */
void aa_wounded_dice(V *v, int u, int *dice, int *shattered) {
    const aa_params *P = v->P;
    int k, idx = P->dice.shift_attr[is_vehicle(v, u)], d;
    for (k = 0; k < 3; k++)
        dice[k] = die_of(v, u, k);
    d = aa_shift_die(dice[idx], v->wounds[u], P->dice.ladder, P->dice.n_ladder);
    *shattered = d == 0;
    dice[idx] = d == 0 ? P->dice.shattered_die : d;
}

/* ---------------------------------------------------------------------------------- geometry */
/* Game._clamp_step (reference/game/engine.py): the core's own sine and cosine (aa_maths.h), not the C
 * library's, so that a destination has the same bits on every platform. */
void aa_clamp_step(V *v, double x, double y, double ang, double d, double *ox, double *oy) {
    double s, c;
    aa_sincos(ang, &s, &c);
    aa_clamp_move(v, x, y, d * s, d * c, ox, oy);
}

/* Game._clamp_move (reference/game/engine.py): the end of the move (dx, dy) from (x, y), shortened to stay on
 * the table. */
void aa_clamp_move(V *v, double x, double y, double dx, double dy, double *ox, double *oy) {
    double t = 1.0;
    double W = v->P->table.width_cm, H = v->P->table.height_cm;
    if (dx > 0 && x + dx > W)
        t = aa_pmin(t, (W - x) / dx);
    else if (dx < 0 && x + dx < 0)
        t = aa_pmin(t, -x / dx);
    if (dy > 0 && y + dy > H)
        t = aa_pmin(t, (H - y) / dy);
    else if (dy < 0 && y + dy < 0)
        t = aa_pmin(t, -y / dy);
    t = aa_pmax(t, 0.0);
    *ox = aa_pmin(aa_pmax(x + t * dx, 0.0), W);
    *oy = aa_pmin(aa_pmax(y + t * dy, 0.0), H);
}

/* ---------------------------------------------------------------------------------- units */
/* Unit.clear_scratch (game/state.py) */
void aa_clear_scratch(V *v, int u) {
    v->action[u] = v->posture[u] = v->target[u] = v->target2[u] = v->asset[u] = -1;
    v->aim_x[u] = v->aim_y[u] = 0.0;
    v->dest_x[u] = v->x[u];
    v->dest_y[u] = v->y[u];
    v->moves[u] = 0;
    v->confused[u] = 0;
}

/* Game._free_slot (reference/game/engine.py): the slot back to Unit(uid, side) defaults. */
void aa_free_slot(V *v, int u) {
    int f, U = v->U;
    for (f = 0; f < NI8; f++)
        v->g->i8[f * U + u] = 0;
    for (f = 0; f < NI32; f++)
        v->g->i32[f * U + u] = 0;
    for (f = 0; f < NF64; f++)
        v->g->f64[f * U + u] = 0.0;
    v->name_base[u] = -1;
    v->armor[u] = 1;
    v->card[u] = NO_CARD;
    v->action[u] = v->posture[u] = v->target[u] = v->target2[u] = v->asset[u] = -1;
    invalidate_los(v);
}

/* len(Game._side_units(side)) (reference/game/engine.py) */
int aa_side_count(V *v, int side) {
    int u, n = 0;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        n += v->alive[u];
    return n;
}

int aa_side_figures(const aa_view *v, int side) {   /* Game.figures (reference/game/engine.py) */
    int u, n = 0;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        if (v->alive[u])
            n += v->figures[u];
    return n;
}

/* Game._own_ordered (reference/game/engine.py) */
int aa_own_ordered(V *v, int side) {
    int u;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        if (has_orders(v, u))
            return 1;
    return 0;
}

void aa_discard(V *v, int p, int card) {
    int32_t *c = cnt(v, p);
    pile(v, p, PILE_DISCARD)[c[C_DISCARD]] = (int16_t)card;
    c[C_DISCARD] += 1;
}

/* Game._discard_hidden (reference/game/engine.py): n cards discarded face down go under the face-up ones, after
 * the older face-down cards, so the opponent knows which discards it has seen (s[S_HIDDEN0 + p] of
 * them lie at the bottom). */
void aa_discard_hidden(V *v, int p, const int16_t *cards, int n) {
    int32_t *c = cnt(v, p);
    int16_t *dis = pile(v, p, PILE_DISCARD);
    int h = v->s[S_HIDDEN0 + p];
    memmove(dis + h + n, dis + h, (size_t)(c[C_DISCARD] - h) * sizeof(int16_t));
    memcpy(dis + h, cards, (size_t)n * sizeof(int16_t));
    c[C_DISCARD] += n;
    v->s[S_HIDDEN0 + p] = h + n;
}

/* Game._discard_card (reference/game/engine.py): unit u's card to the discard pile, face down if never revealed. */
void aa_discard_unit_card(V *v, int u) {
    int16_t card = (int16_t)v->card[u];
    if (v->revealed[u])
        aa_discard(v, u / v->C, card);
    else
        aa_discard_hidden(v, u / v->C, &card, 1);
}

void aa_hand_remove(V *v, int p, int card) {
    int16_t *hand = pile(v, p, PILE_HAND);
    int32_t *c = cnt(v, p);
    int i, j;
    for (i = 0; i < c[C_HAND]; i++) {
        if (hand[i] == card) {
            for (j = i; j < c[C_HAND] - 1; j++)
                hand[j] = hand[j + 1];
            c[C_HAND] -= 1;
            return;
        }
    }
}

/* ---------------------------------------------------------------------------------- splits */
/* Game._splittable(side) is not empty (reference/game/engine.py) */
int aa_has_splittable(V *v, int side) {
    int u;
    if (aa_side_count(v, side) >= v->C)   /* no free slot: a split could do nothing (see aa_legal.c) */
        return 0;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        if (v->alive[u] && v->figures[u] >= v->P->cleanup.split_min_figures && !v->split_done[u])
            return 1;
    return 0;
}
