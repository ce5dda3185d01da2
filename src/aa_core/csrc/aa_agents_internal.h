/* What the native agents share (aa_agents.c, aa_agent_basic.c, aa_agent_greedy.c): the batched
 * twins of atomic_africa.agents. Each agent's act returns the action its Python class's act returns
 * in the same state: the same scores in the same floating-point order, ties to the lowest id. */
#ifndef AA_AGENTS_INTERNAL_H
#define AA_AGENTS_INTERNAL_H

#include "aa_engine_internal.h"

enum {   /* ActionSpace segments (atomic_africa.game.actions.SEGMENTS), in id order */
    SEG_ASSIGN,
    SEG_END_ORDERS,
    SEG_SELECT,
    SEG_DECLARE,
    SEG_TARGET,
    SEG_NO_TARGET,
    SEG_ASSET,
    SEG_MOVE,
    SEG_STAY,
    SEG_SPLIT,
    SEG_END_SPLITS,
    SEG_FEATURE
};

/* ActionSpace.decode: the segment (SEG_*) of action id a; its offset in the segment into k.
 * ASSIGN's offset is card * C + slot, DECLARE's action * 2 + posture, MOVE's
 * direction * fractions + fraction. */
AA_INLINE int segment_of(const aa_action_bases *b, int a, int *k) {
    int base[12];
    int s;
    base[0] = b->assign;
    base[1] = b->end_orders;
    base[2] = b->select;
    base[3] = b->declare;
    base[4] = b->target;
    base[5] = b->no_target;
    base[6] = b->asset;
    base[7] = b->move;
    base[8] = b->stay;
    base[9] = b->split;
    base[10] = b->end_splits;
    base[11] = b->feature;
    for (s = SEG_FEATURE; s >= 0; s--) {   /* the last segment starting at or before a (empty ones too) */
        if (a >= base[s]) {
            *k = a - base[s];
            return s;
        }
    }
    *k = a;
    return SEG_ASSIGN;
}

/* Game.preview_destination: where MOVE/STAY action a would put the deciding unit's Destination
 * (the sprint bonus displacement in the sprint-move stage); the unit's position for any other. */
AA_INLINE void preview_destination(V *v, int a, double *px, double *py) {
    const aa_params *P = v->P;
    int u = v->s[S_DECL], k, st = v->s[S_STAGE];
    int seg = segment_of(&P->base, a, &k);
    int n = P->movement.n_fractions;
    if (st == ST_SPRINT_MOVE && seg == SEG_MOVE) {
        aa_clamp_step(v, v->dest_x[u], v->dest_y[u], P->movement.dir_angle[k / n], v->g->bonus[0], px, py);
    } else if (st == ST_MOVE && seg == SEG_MOVE) {
        aa_clamp_step(v, v->x[u], v->y[u], P->movement.dir_angle[k / n],
                      P->movement.distance_fractions[k % n] * max_move(v, u), px, py);
    } else {
        *px = v->x[u];
        *py = v->y[u];
    }
}

/* The distance from (px, py) to the nearest live unit of `side` (Python's min over the units in
 * slot order, each sqrt((t.x - px)**2 + (t.y - py)**2)); `none` if it has none. */
AA_INLINE double nearest(V *v, int side, double px, double py, double none) {
    int t, found = 0;
    double d, best = none;
    for (t = side * v->C; t < (side + 1) * v->C; t++) {
        if (v->alive[t]) {
            d = dist(v->x[t], v->y[t], px, py);
            if (!found || d < best) {
                best = d;
                found = 1;
            }
        }
    }
    return best;
}

/* (s, -a) > (best_s, -best_a): Python's max over (score, -id) keys. */
/* Units of `side` still without orders at Orders (ScoringAgent.units_without_orders): the agents
 * hold a card back only for the last of them, so the rest of the side still acts. */
AA_INLINE int units_without_orders(V *v, int side) {
    int u, n = 0;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        n += v->alive[u] && v->card[u] == NO_CARD && !v->acted[u];
    return n;
}

/* ScoringAgent.may_hold_back (agents/scoring.py): END ORDERS only for the last unit still without
 * orders and only once another unit of the side has orders, so a side that is behind still acts. */
AA_INLINE int may_hold_back(V *v, int side) {
    int u, ordered = 0;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        ordered |= has_orders(v, u);
    return ordered && units_without_orders(v, side) == 1;
}

AA_INLINE int better(double s, int a, double best_s, int best_a) {
    return s > best_s || (s == best_s && a < best_a);
}

/* HeuristicAgent.act (agents/basic.py): the legal action with the best one-step score. */
int aa_heuristic_act(V *v);

/* DoctrineAgent.act (agents/doctrine.py). */
int aa_doctrine_act(V *v, const aa_agent_params *ap);

/* GreedyAgent.act (agents/greedy.py), on exact odds. */
int aa_greedy_act(V *v, const aa_agent_params *ap);

/* GreedyAgent's value of each of the m legal actions acts[i] into out[i] (what aa_greedy_act
 * maximises; the odds tables must be there). */
void aa_greedy_values(V *v, const aa_agent_params *ap, const int *acts, int m, double *out);

/* Keep the greedy agent's best `width` of the m legal actions legal[] (ascending ids; ties to the
 * lowest id), in ascending id order, their values in val; returns how many are kept (the ISMCTS
 * agent's and the PUCT search's width; the odds tables must be there). */
int aa_greedy_widest(const aa_params *P, aa_state *g, const aa_agent_params *ap, int *legal, int m, double *val,
                     int width);

#endif
