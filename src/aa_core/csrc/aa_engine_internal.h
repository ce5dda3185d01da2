/* The engine's helpers over a game view, shared by the rules files (aa_engine.c, aa_resolve.c,
 * aa_cleanup.c, aa_legal.c, aa_units.c, aa_observe.c) and the native agents (aa_agent*.c). Not part of any
 * interface: hosts include aa_engine.h.
 *
 * Each function mirrors the Game method of the same name (without the underscore); the order of
 * random draws, of events and of floating-point operations is the Python engine's, so the two
 * agree bit for bit (tests/test_vector_parity.py). */
#ifndef AA_ENGINE_INTERNAL_H
#define AA_ENGINE_INTERNAL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aa_engine.h"
#include "aa_banding.h"
#include "aa_dice.h"
#include "aa_fire.h"
#include "aa_geometry.h"
#include "aa_maths.h"
#include "aa_rng.h"
#include "aa_scores.h"

typedef aa_view V;

/* ---------------------------------------------------------------------------------- state access */
AA_INLINE int16_t *pile(V *v, int p, int which) { return v->g->piles + (p * 3 + which) * v->K; }
AA_INLINE int32_t *cnt(V *v, int p) { return v->g->counts + p * NC; }
AA_INLINE int die_of(V *v, int u, int k) { return v->g->i32[(F_DIE0 + k) * v->U + u]; }
AA_INLINE int is_vehicle(V *v, int u) { return v->kind[u] == K_VEHICLE; }
AA_INLINE int has_orders(V *v, int u) { return v->alive[u] && v->card[u] != NO_CARD && !v->acted[u]; }

AA_INLINE int is_fire(int a) {
    return a == A_BASIC || a == A_SPRINT || a == A_DIG_IN || a == A_MASS_FIRE || a == A_SPLIT_FIRE
        || a == A_HEAVY_WEAPON;
}

AA_INLINE int optional_target(int a) { return a == A_BASIC || a == A_SPRINT || a == A_DIG_IN; }

/* Card c may order a unit (suppressed: only the cards legal for a suppressed unit). */
AA_INLINE int legal_for(V *v, int c, int suppressed) { return !suppressed || v->P->tables.card_any[c]; }

/* ---------------------------------------------------------------------------------- events */
AA_INLINE void ev_push(aa_events *e, double x) {
    ptrdiff_t cap;
    double *d;
    if (e->size == e->cap) {
        cap = 2 * e->cap + 256;
        d = (double *)realloc(e->data, (size_t)cap * sizeof(double));
        if (d == NULL) {   /* out of memory: the record is lost; the driver sees the flag and raises */
            e->failed = 1;
            return;
        }
        e->data = d;
        e->cap = cap;
    }
    e->data[e->size] = x;
    e->size += 1;
}

AA_INLINE ptrdiff_t ev_open(V *v, int code) {
    ev_push(v->ev, code);
    ev_push(v->ev, v->s[S_TURN]);
    ev_push(v->ev, 0);
    return v->ev->size - 1;
}

AA_INLINE void ev_close(V *v, ptrdiff_t at) {
    if (at >= 0)   /* < 0 only when nothing could be stored (out of memory, flagged) */
        v->ev->data[at] = (double)(v->ev->size - at - 1);
}

/* One event record with the n values vals (the caller checks v->ev). */
void aa_ev_record(V *v, int code, int n, const double *vals);

/* One event record of the given values, converted to double (nothing when not recording). The
 * values are evaluated only when recording; every call site passes plain reads. */
#define EVN(v, code, ...)                                                                          \
    do {                                                                                           \
        if ((v)->ev != NULL) {                                                                     \
            const double ev_vals_[] = {__VA_ARGS__};                                               \
            aa_ev_record((v), (code), (int)(sizeof ev_vals_ / sizeof ev_vals_[0]), ev_vals_);      \
        }                                                                                          \
    } while (0)

/* A record of player p and n card ids. */
void aa_ev_list(V *v, int code, int p, const int16_t *cards, int n);

/* ---------------------------------------------------------------------------------- dice */
/* RandomSource.roll_many: k dice in one batched draw from the game's stream. */
AA_INLINE void roll_many(V *v, const int *sides, int k, int *faces) {
    uint32_t s[16];
    uint32_t product = 1;
    int i;
    for (i = 0; i < k; i++) {
        s[i] = (uint32_t)sides[i];
        product *= s[i];
    }
    aa_roll_faces(v->g->rng, s, k, aa_reject_threshold(product), faces);
}

AA_INLINE int roll(V *v, int sides) {
    int face;
    roll_many(v, &sides, 1, &face);
    return face;
}

/* atomic_africa.dice.wounded_dice of unit u: its dice after its wound shift, the shattered floor in place
 * of a die shifted off the ladder (*shattered set). */
void aa_wounded_dice(V *v, int u, int *dice, int *shattered);

AA_INLINE void scores_of(const aa_params *P, const int *faces, int posture, int action, aa_scores *sc) {
    aa_action_scores(faces[0], faces[1], faces[2], P->tables.table5 + (action * 2 + posture) * 3,
                     action == A_SPRINT, sc);
}

/* ---------------------------------------------------------------------------------- geometry */
/* The sight line A-B is blocked by the terrain as it stands; feature `skip` (-1: none) left out. */
AA_INLINE int blocked(V *v, double ax, double ay, double bx, double by, int skip) {
    return aa_terrain_blocked(&v->P->terrain, v->g->fcover, skip, ax, ay, bx, by);
}

/* Best current cover of the features containing the point. */
AA_INLINE int cover_at(V *v, double px, double py) {
    return aa_terrain_cover(&v->P->terrain, v->g->fcover, px, py);
}

AA_INLINE void invalidate_los(V *v) { memset(v->g->los, -1, (size_t)(v->U * v->U)); }

/* Game._los_matrix()[a, b] (reference/game/engine.py): Start to Start, the segment taken from the lower slot;
 * cached. */
AA_INLINE int los(V *v, int a, int b) {
    int lo = a < b ? a : b, hi = a < b ? b : a;
    int8_t *c;
    if (a == b)
        return 1;
    c = v->g->los + lo * v->U + hi;
    if (c[0] < 0)
        c[0] = blocked(v, v->x[lo], v->y[lo], v->x[hi], v->y[hi], -1) ? 0 : 1;
    return c[0] == 1;
}

/* Game._points (reference/game/engine.py): Start, In-transit and Destination points of u in this Activation phase. */
AA_INLINE void points(V *v, int u, double *px, double *py) {
    if ((u == v->s[S_ACT] || u == v->s[S_REACT]) && v->moves[u]) {
        px[0] = v->x[u];
        py[0] = v->y[u];
        px[1] = (v->x[u] + v->dest_x[u]) / 2;
        py[1] = (v->y[u] + v->dest_y[u]) / 2;
        px[2] = v->dest_x[u];
        py[2] = v->dest_y[u];
    } else {
        px[0] = px[1] = px[2] = v->x[u];
        py[0] = py[1] = py[2] = v->y[u];
    }
}

AA_INLINE double dist(double ax, double ay, double bx, double by) {
    double dx = ax - bx, dy = ay - by;
    return sqrt(dx * dx + dy * dy);
}

/* Game._band (reference/game/engine.py): the range band from a's In-transit point to b's. */
AA_INLINE int band(V *v, int a, int b) {
    double pax[3], pay[3], pbx[3], pby[3];
    points(v, a, pax, pay);
    points(v, b, pbx, pby);
    return aa_range_band(dist(pax[1], pay[1], pbx[1], pby[1]), v->P->fire.band_edges_cm, v->P->fire.n_edges);
}

/* End of a straight move from (x, y), shortened so that it stays on the table. */
void aa_clamp_step(V *v, double x, double y, double ang, double d, double *ox, double *oy);
void aa_clamp_move(V *v, double x, double y, double dx, double dy, double *ox, double *oy);

/* ---------------------------------------------------------------------------------- units */
/* Game._increment (reference/game/engine.py) */
AA_INLINE double increment(V *v, int u) {
    const aa_movement_params *m = &v->P->movement;
    return is_vehicle(v, u) ? m->vehicle_increment_cm : m->increment_cm;
}

AA_INLINE double sprint_increment(V *v, int u) {
    const aa_movement_params *m = &v->P->movement;
    return is_vehicle(v, u) ? m->vehicle_sprint_increment_cm : m->sprint_increment_cm;
}

/* Game._max_move (reference/game/engine.py) */
AA_INLINE double max_move(V *v, int u) {
    int value = v->action[u] == A_SPRINT ? v->P->movement.sprint_card_value : v->P->tables.card_move[v->card[u]];
    return (double)(value * v->P->movement.basic_move_per_value) * increment(v, u);
}

AA_INLINE int hw_eligible(V *v, int u, int t) { return is_vehicle(v, t) ? v->hwp[u] : v->hwd[u]; }
/* Game._hw_ap (reference/game/engine.py) */
AA_INLINE int hw_ap(V *v, int u, int t) { return is_vehicle(v, t) ? v->hwp_ap[u] : v->hwd_ap[u]; }

/* ---------------------------------------------------------------------------------- targets */
/* Live enemy units u may aim at (in view if need_los; fit for its heavy weapon if heavy_weapon),
 * into out unless NULL; returns their number. */
int aa_enemy_targets(V *v, int u, int need_los, int heavy_weapon, int *out);

AA_INLINE int fire_targets(V *v, int u, int *out) {
    return aa_enemy_targets(v, u, v->P->orders.fire_needs_los, 0, out);
}

AA_INLINE int hw_targets(V *v, int u, int *out) {
    return aa_enemy_targets(v, u, v->P->orders.fire_needs_los, 1, out);
}

/* A Call for Fire target is always one the spotter sees, whatever fire_needs_los says. */
AA_INLINE int cff_targets(V *v, int u, int *out) { return aa_enemy_targets(v, u, 1, 0, out); }

/* Game._feature_targets: features u's point-target heavy weapon may aim at; into out unless NULL. */
int aa_feature_targets(V *v, int u, int *out);
/* Whether feature f is one of them (u's heavy weapon a point-target one). */
int aa_feature_target(V *v, int u, int f);

/* Units u may Rally (itself first if suppressed); into out unless NULL. */
int aa_rally_targets(V *v, int u, int *out);

/* Legal (action, posture) pairs for u's revealed card, in Game._action_options' order. */
int aa_action_options(V *v, int u, int *acts, int *posts);

/* Game._orders_pairs as action ids (ASSIGN card x own slot) into out unless NULL; their number. */
int aa_orders_pairs(V *v, int side, int *out);

/* The legal action ids of the player to move (unsorted) into out; their number. */
int aa_legal_v(V *v, int *out);

/* The first pending mover or sprinter is done: the second (if any) moves up. */
AA_INLINE void pending_pop(V *v) {
    v->s[S_PEND0] = v->s[S_PEND1];
    v->g->bonus[0] = v->g->bonus[1];
    v->s[S_NPEND] -= 1;
}

/* ---------------------------------------------------------------------------------- phases
 * The turn sequence, file by file: orders and activation (aa_engine.c), movement, resolution, the end
 * of a phase and the next activation (aa_resolve.c), Clean-up, victory and whose turn it is
 * (aa_cleanup.c); the helpers below them all (aa_units.c). Each file calls only files after it in
 * that list (tests/test_c_core.py checks the call graph has no circle). */
int aa_side_count(V *v, int side);
int aa_own_ordered(V *v, int side);
int aa_has_splittable(V *v, int side);
void aa_clear_scratch(V *v, int u);
void aa_free_slot(V *v, int u);
void aa_discard(V *v, int p, int card);
void aa_shuffle(V *v, int16_t *cards, int n);   /* RandomSource.shuffle in place */
void aa_discard_hidden(V *v, int p, const int16_t *cards, int n);
void aa_discard_unit_card(V *v, int u);
void aa_note_reserve(V *v, int p);
void aa_hand_remove(V *v, int p, int card);
void aa_begin_turn(V *v);
int aa_next_player_with(V *v, int stage);
void aa_orders_next(V *v);
void aa_next_activation(V *v);
void aa_begin_declare(V *v, int u);
void aa_set_action(V *v, int u, int a, int p);
void aa_after_targets(V *v, int u);
void aa_begin_movement(V *v);
void aa_place_destination(V *v, int u, double ang, double d);
void aa_next_move(V *v);
void aa_resolve(V *v);
/* Bytes of aa_resolve's scratch (its attacks and their targets, in aa_state.work). */
size_t aa_resolve_work_size(const aa_params *P);
void aa_sprint_displace(V *v, int u, double ang, double d);
void aa_next_sprint(V *v);
void aa_cleanup(V *v);
void aa_splits_next(V *v);
int aa_split_unit(V *v, int u, int voluntary);

#endif
