/* The agents that do not search: RandomAgent, HeuristicAgent and DoctrineAgent (atomic_africa.agents
 * .basic / .doctrine), natively, and aa_rollout_choose, their entry point with the greedy agent's (the
 * ISMCTS agent's rollouts call it, so it lives below aa_agent_ismcts.c and aa_agents.c). Each score is
 * the Python expression, evaluated in the same order; the best (score, -id) is played. */
#include "aa_agents_internal.h"

/* ---------------------------------------------------------------------------------- heuristic */
/* agents.basic._PREFERENCE, by Action value: BASIC, DIG_IN, MASS_FIRE, SPLIT_FIRE, HEAVY_WEAPON,
 * RALLY, CALL_FOR_FIRE, SPRINT. */
static const int HEURISTIC_PREFERENCE[N_ACTIONS] = {3, 1, 8, 6, 7, 4, 5, 2};

/* HeuristicAgent: a Joker is worth 14, a suited card its rank. */
AA_INLINE int heuristic_card_value(V *v, int card) {
    return v->P->tables.card_joker[card] ? 14 : v->P->tables.card_rank[card];
}

/* HeuristicAgent._score (and _move_scores for MOVE / STAY) */
static double heuristic_score(V *v, int a) {
    const aa_params *P = v->P;
    int k, u, c, me = v->s[S_CUR];
    int seg = segment_of(&P->base, a, &k);
    double px, py, near;
    if (seg == SEG_ASSIGN) {
        u = me * v->C + k % v->C;
        return heuristic_card_value(v, k / v->C) * 100 + v->figures[u];
    }
    if (seg == SEG_SELECT) {
        u = me * v->C + k;
        return heuristic_card_value(v, v->card[u]) * 100 + v->figures[u];
    }
    if (seg == SEG_DECLARE)
        return HEURISTIC_PREFERENCE[k / 2] * 2 + (k % 2 == P_OFFENSIVE);
    u = v->s[S_DECL];
    if (seg == SEG_TARGET) {
        if (v->action[u] == A_RALLY)
            return v->markers[k];
        return -dist(v->x[k], v->y[k], v->x[u], v->y[u]);
    }
    if (seg == SEG_FEATURE)   /* a terrain feature is a target like any other: the closest first */
        return -dist(P->tables.feat_x[k], P->tables.feat_y[k], v->x[u], v->y[u]);
    if (seg == SEG_NO_TARGET)
        return -1e9;
    if (seg == SEG_MOVE || seg == SEG_STAY) {
        preview_destination(v, a, &px, &py);
        c = cover_at(v, px, py);
        near = nearest(v, 1 - u / v->C, px, py, 0.0);
        return 3.0 * c - 0.05 * aa_pmax(0.0, near - 40.0) - 0.01 * fabs(near - 40.0);
    }
    if (seg == SEG_END_SPLITS || seg == SEG_END_ORDERS)
        return 1;
    return 0;
}

/* HeuristicAgent.act: the legal action with the best one-step score (ties: the lowest id); -1 when
 * none is legal. */
int aa_heuristic_act(V *v) {
    int *buf = (int *)v->g->work;   /* n_actions ids */
    int m = aa_legal_v(v, buf);
    int i, best_a;
    double s, best_s;
    if (m <= 1)
        return m == 1 ? buf[0] : -1;
    best_a = buf[0];
    best_s = heuristic_score(v, best_a);
    for (i = 1; i < m; i++) {
        s = heuristic_score(v, buf[i]);
        if (better(s, buf[i], best_s, best_a)) {
            best_s = s;
            best_a = buf[i];
        }
    }
    return best_a;
}

/* ---------------------------------------------------------------------------------- doctrine */
enum {   /* DoctrineAgent.role; the values are its activation ranks */
    ROLE_MANOEUVRE = 1,
    ROLE_BASE = 2,
    ROLE_RALLY = 3
};

/* DoctrineAgent._BASE_ORDER and _MANOEUVRE_ORDER */
static const int DOCTRINE_BASE_ORDER[N_ACTIONS] = {A_MASS_FIRE, A_HEAVY_WEAPON, A_SPLIT_FIRE, A_CALL_FOR_FIRE,
                                                   A_BASIC, A_DIG_IN, A_SPRINT, A_RALLY};
static const int DOCTRINE_MANOEUVRE_ORDER[N_ACTIONS] = {A_SPRINT, A_BASIC, A_HEAVY_WEAPON, A_MASS_FIRE,
                                                        A_SPLIT_FIRE, A_CALL_FOR_FIRE, A_DIG_IN, A_RALLY};

/* DoctrineAgent.role: rally when suppressed; vehicles manoeuvre; infantry alternate by slot and
 * turn. */
static int doctrine_role(V *v, int u) {
    if (v->markers[u] > 0)
        return ROLE_RALLY;
    if (v->kind[u] == K_VEHICLE)
        return ROLE_MANOEUVRE;
    return (u % v->C + v->s[S_TURN]) % 2 == 0 ? ROLE_BASE : ROLE_MANOEUVRE;
}

/* DoctrineAgent._card_score */
static double doctrine_card(V *v, int u, int card) {
    const aa_tables *T = &v->P->tables;
    int role = doctrine_role(v, u);
    int joker = T->card_joker[card], face = T->card_face[card];
    int offensive = !joker && T->card_posture[card] == P_OFFENSIVE;
    int value = joker || face ? 0 : T->card_move[card];
    if (role == ROLE_RALLY) {   /* a face card or a Joker lets it Rally */
        if (joker || face)
            return joker ? 33.0 : 32.0;
        return 30.0 + value / 20.0;
    }
    if (role == ROLE_BASE) {    /* fire specials, then steady defensive Basic fire */
        if (joker || face)
            return joker ? 21.5 : 22.0;
        return 20.5 + (offensive ? 0.0 : 0.2) + value / 40.0;
    }
    if (joker || face)          /* manoeuvre: long offensive moves */
        return joker ? 11.8 : 10.8;
    return 11.0 + value / 10.0 + (offensive ? 0.3 : 0.0);
}

/* Whether unit u sees an enemy unit (DoctrineAgent: any(view.los(u, t) for t in enemies)). */
static int sees_enemy(V *v, int u) {
    int t, e = 1 - u / v->C;
    for (t = e * v->C; t < (e + 1) * v->C; t++)
        if (v->alive[t] && los(v, u, t))
            return 1;
    return 0;
}

/* len(order) - order.index(action) */
static int order_rank(const int *order, int action) {
    int i;
    for (i = 0; i < N_ACTIONS; i++)
        if (order[i] == action)
            return N_ACTIONS - i;
    return 0;
}

/* DoctrineAgent._scores[a] (and _move_scores); `base`, `see`: the move stage's "the base of fire
 * holds its ground" condition (role base in the MOVE stage, and it sees an enemy). */
static double doctrine_score(V *v, const aa_agent_params *ap, int a, int base, int see) {
    const aa_params *P = v->P;
    int st = v->s[S_STAGE], me = v->s[S_CUR], k, u, t, role, act, c;
    int seg = segment_of(&P->base, a, &k);
    const int *order;
    double s, px, py, near, moved;
    if (st == ST_ORDERS || st == ST_RESERVE_PICK) {
        if (seg != SEG_ASSIGN)   /* END ORDERS: only the last unit without orders, never every card */
            return may_hold_back(v, me) ? 0.0 : -INFINITY;
        u = me * v->C + k % v->C;
        if (st == ST_ORDERS && may_hold_back(v, me) && doctrine_role(v, u) == ROLE_BASE
                && sees_enemy(v, u))
            return -1.0;         /* a base of fire in view of the enemy is on overwatch */
        return doctrine_card(v, u, k / v->C);
    }
    if (st == ST_ACTIVATE || st == ST_REACT) {
        u = me * v->C + k;
        s = doctrine_role(v, u) * 100 - nearest(v, 1 - me, v->x[u], v->y[u], 1e9) / 100.0;
        act = st == ST_REACT ? v->s[S_ACT] : -1;
        if (act >= 0 && los(v, u, act))
            s += 50;   /* return fire at the unit that activated */
        return s;
    }
    u = v->s[S_DECL];
    if (st == ST_DECLARE_ACTION) {
        role = doctrine_role(v, u);
        order = role == ROLE_BASE ? DOCTRINE_BASE_ORDER : DOCTRINE_MANOEUVRE_ORDER;
        c = order_rank(order, k / 2);
        if (role == ROLE_RALLY && k / 2 == A_RALLY)
            c += 100;
        return c * 2 + (k % 2 == P_OFFENSIVE);
    }
    if (st == ST_DECLARE_ASSET)
        return -k;
    if (st == ST_DECLARE_TARGET || st == ST_DECLARE_TARGET2) {
        if (seg == SEG_NO_TARGET)
            return -INFINITY;
        if (seg == SEG_FEATURE)   /* a terrain feature: by distance, like a unit */
            return -dist(P->tables.feat_x[k], P->tables.feat_y[k], v->x[u], v->y[u]);
        t = k;
        if (v->action[u] == A_RALLY)   /* self first, then the most suppressed friend */
            return v->markers[t] + (t == u ? 100 : 0);
        return -dist(v->x[t], v->y[t], v->x[u], v->y[u]) + 5.0 * v->markers[t];
    }
    if (st == ST_MOVE || st == ST_SPRINT_MOVE) {
        preview_destination(v, a, &px, &py);
        c = cover_at(v, px, py);
        if (base && see) {   /* the base of fire holds its ground */
            moved = dist(px, py, v->x[u], v->y[u]);
            return -moved + 0.5 * c;
        }
        near = nearest(v, 1 - me, px, py, 0.0);   /* bound forward to the standoff, cover to cover */
        return 2.0 * c - 0.05 * fabs(near - ap->standoff_cm) - 0.2 * aa_pmax(0.0, ap->standoff_cm - near);
    }
    if (st == ST_SPLIT)
        return seg == SEG_END_SPLITS ? 0.0 : 1.0;
    return 0.0;
}

/* DoctrineAgent.act (ScoringAgent.act): the legal action with the best doctrine score (ties: the
 * lowest id); -1 when none is legal. */
int aa_doctrine_act(V *v, const aa_agent_params *ap) {
    int *buf = (int *)v->g->work;   /* n_actions ids */
    int m = aa_legal_v(v, buf);
    int i, u, best_a, base = 0, see = 0;
    double s, best_s;
    if (m <= 1)
        return m == 1 ? buf[0] : -1;
    if (v->s[S_STAGE] == ST_MOVE) {
        u = v->s[S_DECL];
        base = doctrine_role(v, u) == ROLE_BASE;
        if (base)
            see = sees_enemy(v, u);
    }
    best_a = buf[0];
    best_s = doctrine_score(v, ap, best_a, base, see);
    for (i = 1; i < m; i++) {
        s = doctrine_score(v, ap, buf[i], base, see);
        if (better(s, buf[i], best_s, best_a)) {
            best_s = s;
            best_a = buf[i];
        }
    }
    return best_a;
}

/* ---------------------------------------------------------------------------------- random */
/* RandomAgent.act: legal action k in id order (Game.legal_actions), k one die of as many sides as
 * legal actions. */
int aa_random_index(int m, aa_bitgen *rng) {
    int face = 1;
    uint32_t sides = (uint32_t)m;
    if (m > 1)
        aa_roll_faces(rng, &sides, 1, aa_reject_threshold(sides), &face);
    return face - 1;
}

/* -1 when no action is legal. */
static int random_act(V *v, aa_bitgen *rng) {
    int *buf = (int *)v->g->work;   /* n_actions ids */
    int m = aa_legal_v(v, buf);
    if (m == 0)
        return -1;
    aa_sort_ids(buf, m);
    return buf[aa_random_index(m, rng)];
}

/* ---------------------------------------------------------------------------------- rollouts */
int aa_rollout_choose(const aa_params *P, aa_state *g, int kind, const aa_agent_params *ap, aa_bitgen *rng) {
    V v;
    aa_make_view(P, g, &v);
    if (kind == AGENT_RANDOM)
        return random_act(&v, rng);
    if (kind == AGENT_HEURISTIC)
        return aa_heuristic_act(&v);
    if (kind == AGENT_GREEDY)
        return aa_greedy_act(&v, ap);
    if (kind == AGENT_DOCTRINE)
        return aa_doctrine_act(&v, ap);
    return -1;
}
