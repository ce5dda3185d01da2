/* The rules engine's turn sequence up to movement: the Orders phase, the start of an Activation phase
 * (declaration, reaction, confused draws), the entry points aa_start_game / aa_apply_action and the
 * storage of a game. Movement, resolution and the next activation: aa_resolve.c; Clean-up and whose
 * turn it is: aa_cleanup.c; legal actions: aa_legal.c; the shared helpers (events, dice, units, card
 * piles): aa_units.c; observations: aa_observe.c. */
#include "aa_engine_internal.h"

/* ---------------------------------------------------------------------------------- orders phase */
/* The reshuffle of Game._draw (reference/game/engine.py): the empty deck becomes the first n cards of the discard
 * pile, shuffled; the discard pile keeps the cards after them (cards a confused draw has shown, which Game
 * keeps aside until it ends). */
static void reshuffle(V *v, int p, int n) {
    int32_t *c = cnt(v, p);
    int16_t *deck = pile(v, p, PILE_DECK);
    int16_t *dis = pile(v, p, PILE_DISCARD);
    memcpy(deck, dis, (size_t)n * sizeof(int16_t));
    memmove(dis, dis + n, (size_t)(c[C_DISCARD] - n) * sizeof(int16_t));
    c[C_DECK] = n;
    c[C_DISCARD] -= n;
    v->s[S_HIDDEN0 + p] = 0;   /* the face-down cards lie at the bottom: the first n take them all */
    aa_shuffle(v, deck, n);
    aa_ev_list(v, E_RESHUFFLE, p, deck, n);
}

/* Game._draw (reference/game/engine.py) */
static int draw(V *v, int p) {
    int32_t *c = cnt(v, p);
    if (c[C_DECK] == 0) {
        if (c[C_DISCARD] == 0)
            return NO_CARD;
        reshuffle(v, p, c[C_DISCARD]);
    }
    c[C_DECK] -= 1;
    return pile(v, p, PILE_DECK)[c[C_DECK]];
}

/* Units of a side on the table that add a card to its hand (Game.hand_size, hand_units "turn"). */
static int hand_units(V *v, int side) {
    int u, n = 0;
    for (u = side * v->C; u < (side + 1) * v->C; u++)
        if (v->alive[u] && (v->P->orders.attached_add_cards || !v->attached[u]))
            n += 1;
    return n;
}

/* Game._begin_turn (reference/game/engine.py) */
void aa_begin_turn(V *v) {
    const aa_params *P = v->P;
    int p, n, k, c, first;
    int16_t *hand;
    int32_t *cn;
    v->s[S_TURN] += 1;
    v->s[S_FIRST] = P->orders.first_player_alternates ? (v->s[S_TURN] - 1) % 2 : 0;
    v->s[S_NEXT_ACT] = v->s[S_FIRST];
    for (p = 0; p < 2; p++) {
        n = P->orders.hand_fixed[p] >= 0 ? P->orders.hand_fixed[p] : hand_units(v, p) + P->orders.draw_bonus[p];
        hand = pile(v, p, PILE_HAND);
        cn = cnt(v, p);
        first = cn[C_HAND];
        for (k = 0; k < n; k++) {
            c = draw(v, p);
            if (c == NO_CARD)
                break;
            hand[cn[C_HAND]] = (int16_t)c;
            cn[C_HAND] += 1;
        }
        aa_ev_list(v, E_DRAW, p, hand + first, cn[C_HAND] - first);
    }
    v->s[S_STAGE] = ST_ORDERS;
    v->s[S_STEP] = 0;
    aa_orders_next(v);
}

/* Game._orders_next (reference/game/engine.py) */
void aa_orders_next(V *v) {
    if (!aa_next_player_with(v, ST_ORDERS))
        aa_next_activation(v);
}

/* Game._assign (reference/game/engine.py) */
static void assign(V *v, int card, int u) {
    aa_hand_remove(v, u / v->C, card);
    v->card[u] = card;
    v->revealed[u] = 0;
    v->orders_sup[u] = v->markers[u] > 0;
    EVN(v, E_ASSIGN, u / v->C, u, card);
}

/* Game._begin_declare (reference/game/engine.py) */
void aa_begin_declare(V *v, int u) {
    int acts[2 * N_ACTIONS];
    int posts[2 * N_ACTIONS];
    v->s[S_DECL] = u;
    if (aa_action_options(v, u, acts, posts) == 1) {
        aa_set_action(v, u, acts[0], posts[0]);
    } else {
        v->s[S_STAGE] = ST_DECLARE_ACTION;
        v->s[S_CUR] = u / v->C;
    }
}

/* Game._set_action (reference/game/engine.py) */
void aa_set_action(V *v, int u, int a, int p) {
    v->action[u] = a;
    v->posture[u] = p;
    EVN(v, E_DECLARE, u, a, p, v->confused[u]);
    v->s[S_CUR] = u / v->C;
    if (optional_target(a) && fire_targets(v, u, NULL) == 0) {
        v->target[u] = -1;
        aa_after_targets(v, u);
    } else if (a == A_CALL_FOR_FIRE && v->P->call_for_fire.n_assets[u / v->C] > 1) {
        v->s[S_STAGE] = ST_DECLARE_ASSET;
    } else {
        if (a == A_CALL_FOR_FIRE)
            v->asset[u] = 0;
        v->s[S_STAGE] = ST_DECLARE_TARGET;
    }
}

static void begin_reaction(V *v);

/* Game._after_targets (reference/game/engine.py) */
void aa_after_targets(V *v, int u) {
    EVN(v, E_TARGETS, u, v->target[u], v->target2[u], v->asset[u]);
    if (u == v->s[S_ACT])
        begin_reaction(v);
    else
        aa_begin_movement(v);
}

/* A card legal for a unit (suppressed or not) among the deck and the first n_discard cards of the
 * discard pile. */
static int any_legal(V *v, int side, int sup, int n_discard) {
    int16_t *deck = pile(v, side, PILE_DECK);
    int16_t *dis = pile(v, side, PILE_DISCARD);
    int i, nd = cnt(v, side)[C_DECK];
    for (i = 0; i < nd; i++)
        if (legal_for(v, deck[i], sup))
            return 1;
    for (i = 0; i < n_discard; i++)
        if (legal_for(v, dis[i], sup))
            return 1;
    return 0;
}

/* Game._confused_draw (reference/game/engine.py) (RULES.md section 6): draw, show and discard illegal cards until a
 * legal one comes; it stops only when no legal card is left in the deck and the discard pile together. The
 * shown cards lie after the n0 older discards, and a reshuffle during the draw takes only those (as Game,
 * which keeps the shown cards aside until the draw ends). */
static void confused_draw(V *v, int t) {
    int side = t / v->C, c;
    int sup = v->markers[t] > 0;
    int32_t *cn = cnt(v, side);
    int n0 = cn[C_DISCARD];
    while (any_legal(v, side, sup, n0)) {
        if (cn[C_DECK] == 0) {
            reshuffle(v, side, n0);
            n0 = 0;
        }
        cn[C_DECK] -= 1;
        c = pile(v, side, PILE_DECK)[cn[C_DECK]];
        if (legal_for(v, c, sup)) {
            v->card[t] = c;
            v->revealed[t] = 1;
            v->confused[t] = 1;
            v->s[S_REACT] = t;
            EVN(v, E_CONFUSED, side, t, c);
            aa_begin_declare(v, t);
            return;
        }
        aa_discard(v, side, c);
        EVN(v, E_CONFUSED_DRAW, side, t, c);
    }
    EVN(v, E_NO_REACTION, side, t);
    aa_begin_movement(v);
}

/* Game._begin_reaction (reference/game/engine.py) */
static void begin_reaction(V *v) {
    int q = 1 - v->s[S_ACTIVATING], a = v->s[S_ACT], t = -1, i, nh, sup;
    int16_t *hand;
    if (aa_own_ordered(v, q)) {
        v->s[S_STAGE] = ST_REACT;
        v->s[S_CUR] = q;
        return;
    }
    if (is_fire(v->action[a]) && 0 <= v->target[a] && v->target[a] < v->U)
        t = v->target[a];
    /* No ordered unit is left to answer with, so the target is without orders: it never got a card,
     * or it has acted and spent it (RULES.md section 6, orders.spent_units_react). */
    if (t < 0 || !v->alive[t] || (v->acted[t] && !v->P->orders.spent_units_react)) {
        EVN(v, E_NO_REACTION, q, -1);
        aa_begin_movement(v);
        return;
    }
    if (v->card[t] != NO_CARD) {   /* the spent card is played out: face up to the discard pile */
        aa_discard_unit_card(v, t);
        v->card[t] = NO_CARD;
        v->revealed[t] = 0;
    }
    sup = v->markers[t] > 0;
    hand = pile(v, q, PILE_HAND);
    nh = cnt(v, q)[C_HAND];
    for (i = 0; i < nh; i++) {
        if (legal_for(v, hand[i], sup)) {
            v->s[S_DECL] = t;
            v->s[S_STAGE] = ST_RESERVE_PICK;
            v->s[S_CUR] = q;
            return;
        }
    }
    if (nh > 0)   /* a suppressed unit confused with cards in the Reserve: none of them a legal one */
        v->s[S_NOANY0 + q] = 1;
    confused_draw(v, t);
}

/* The turns Clean-up ended while this entry point ran (each ends in a call chain that returns here:
 * Clean-up's last step is its caller's last step, up to the entry point). */
static void next_turns(V *v) {
    while (v->turn_due) {
        v->turn_due = 0;
        aa_begin_turn(v);
    }
}

/* ---------------------------------------------------------------------------------- start / apply */
void aa_start_game(const aa_params *P, aa_state *g) {   /* Game._start_game (reference/game/engine.py) */
    V v;
    int p, i, U = P->U, K = P->K;
    int16_t *deck;
    aa_make_view(P, g, &v);
    memcpy(g->i8, P->tables.tmpl_i8, (size_t)(NI8 * U) * sizeof(int8_t));
    memcpy(g->i32, P->tables.tmpl_i32, (size_t)(NI32 * U) * sizeof(int32_t));
    memcpy(g->f64, P->tables.tmpl_f64, (size_t)(NF64 * U) * sizeof(double));
    memcpy(g->fcover, P->tables.feat_cover0, (size_t)P->terrain.n_feat * sizeof(int8_t));
    memset(g->s, 0, NS * sizeof(int32_t));
    memset(g->counts, 0, 2 * NC * sizeof(int32_t));
    memset(g->piles, 0, (size_t)(2 * 3 * K) * sizeof(int16_t));
    g->bonus[0] = g->bonus[1] = 0.0;
    g->s[S_STAGE] = ST_ORDERS;
    g->s[S_ACT] = g->s[S_REACT] = g->s[S_DECL] = -1;
    g->s[S_WINNER] = -2;
    g->s[S_LAST] = -1;
    invalidate_los(&v);
    if (v.ev != NULL)
        ev_close(&v, ev_open(&v, E_SETUP));
    for (p = 0; p < 2; p++) {
        deck = pile(&v, p, PILE_DECK);
        for (i = 0; i < K; i++)
            deck[i] = (int16_t)i;
        aa_shuffle(&v, deck, K);
        cnt(&v, p)[C_DECK] = K;
        aa_ev_list(&v, E_SHUFFLE, p, deck, K);
    }
    aa_begin_turn(&v);
    next_turns(&v);
}

void aa_apply_action(const aa_params *P, aa_state *g, int a) {   /* Game._apply_action (reference/game/engine.py) */
    V v;
    int st, cur, k, u, C = P->C, d, f;
    aa_make_view(P, g, &v);
    st = g->s[S_STAGE];
    cur = g->s[S_CUR];
    g->s[S_LAST] = cur;
    if (st == ST_ORDERS) {
        if (a == P->base.end_orders) {
            aa_note_reserve(&v, cur);
            EVN(&v, E_ORDERS_DONE, cur, cnt(&v, cur)[C_HAND]);
            g->s[S_STEP] += 1;
            aa_orders_next(&v);
        } else {
            k = a - P->base.assign;
            assign(&v, k / C, cur * C + k % C);
            if (aa_orders_pairs(&v, cur, NULL) == 0) {
                aa_note_reserve(&v, cur);
                EVN(&v, E_ORDERS_DONE, cur, cnt(&v, cur)[C_HAND]);
                g->s[S_STEP] += 1;
                aa_orders_next(&v);
            }
        }
    } else if (st == ST_ACTIVATE || st == ST_REACT) {
        u = cur * C + a - P->base.select;
        if (st == ST_ACTIVATE)
            g->s[S_ACT] = u;
        else
            g->s[S_REACT] = u;
        v.revealed[u] = 1;
        EVN(&v, st == ST_ACTIVATE ? E_ACTIVATE : E_REACT, u / C, u, v.card[u]);
        aa_begin_declare(&v, u);
    } else if (st == ST_RESERVE_PICK) {
        u = g->s[S_DECL];
        k = (a - P->base.assign) / C;
        aa_hand_remove(&v, u / C, k);
        v.card[u] = k;
        v.revealed[u] = 1;
        g->s[S_REACT] = u;
        EVN(&v, E_RESERVE_CARD, u / C, u, k);
        aa_begin_declare(&v, u);
    } else if (st == ST_DECLARE_ACTION) {
        k = a - P->base.declare;
        aa_set_action(&v, g->s[S_DECL], k / 2, k % 2);
    } else if (st == ST_DECLARE_ASSET) {
        v.asset[g->s[S_DECL]] = a - P->base.asset;
        g->s[S_STAGE] = ST_DECLARE_TARGET;
    } else if (st == ST_DECLARE_TARGET) {
        u = g->s[S_DECL];
        if (a == P->base.no_target)
            v.target[u] = -1;
        else if (a >= P->base.feature)   /* a terrain feature: stored past the unit slots */
            v.target[u] = v.U + a - P->base.feature;
        else
            v.target[u] = a - P->base.target;
        if (v.action[u] == A_CALL_FOR_FIRE) {
            v.aim_x[u] = v.x[v.target[u]];
            v.aim_y[u] = v.y[v.target[u]];
        }
        if (v.action[u] == A_SPLIT_FIRE)
            g->s[S_STAGE] = ST_DECLARE_TARGET2;
        else
            aa_after_targets(&v, u);
    } else if (st == ST_DECLARE_TARGET2) {
        u = g->s[S_DECL];
        v.target2[u] = a - P->base.target;
        aa_after_targets(&v, u);
    } else if (st == ST_MOVE) {
        u = g->s[S_DECL];
        if (a == P->base.stay) {
            v.dest_x[u] = v.x[u];
            v.dest_y[u] = v.y[u];
        } else {
            d = (a - P->base.move) / P->movement.n_fractions;
            f = (a - P->base.move) % P->movement.n_fractions;
            aa_place_destination(&v, u, P->movement.dir_angle[d],
                                 P->movement.distance_fractions[f] * max_move(&v, u));
        }
        pending_pop(&v);
        aa_next_move(&v);
    } else if (st == ST_SPRINT_MOVE) {
        u = g->s[S_DECL];
        d = (a - P->base.move) / P->movement.n_fractions;
        aa_sprint_displace(&v, u, P->movement.dir_angle[d], g->bonus[0]);
        pending_pop(&v);
        aa_next_sprint(&v);
    } else if (st == ST_SPLIT) {
        if (a == P->base.end_splits) {
            g->s[S_STEP] += 1;
            aa_splits_next(&v);
        } else {
            aa_split_unit(&v, cur * C + a - P->base.split, 1);
            if (!aa_has_splittable(&v, cur)) {
                g->s[S_STEP] += 1;
                aa_splits_next(&v);
            }
        }
    }
    next_turns(&v);
}

/* ---------------------------------------------------------------------------------- storage */
/* The arrays of aa_state in one block, doubles first so every array is aligned for its type. */
static size_t state_layout(const aa_params *P, aa_state *g, char *mem) {
    size_t U = (size_t)P->U, K = (size_t)P->K, off = 0;
    size_t n_feat = P->terrain.n_feat > 0 ? (size_t)P->terrain.n_feat : 1;
#define AA_PLACE(field, type, count)                                       \
    do {                                                                   \
        if (g != NULL)                                                     \
            g->field = (type *)(void *)(mem + off);                        \
        off += (count) * sizeof(type);                                     \
    } while (0)
    AA_PLACE(f64, double, NF64 * U);
    AA_PLACE(bonus, double, 2);
    AA_PLACE(s, int32_t, NS);
    AA_PLACE(i32, int32_t, NI32 * U);
    AA_PLACE(counts, int32_t, 2 * NC);
    AA_PLACE(piles, int16_t, 2 * 3 * K);
    AA_PLACE(i8, int8_t, NI8 * U);
    AA_PLACE(los, int8_t, U * U);
    AA_PLACE(fcover, int8_t, n_feat);
    off = (off + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    AA_PLACE(work, char, aa_work_size(P));
#undef AA_PLACE
    return off;
}

size_t aa_work_size(const aa_params *P) {
    size_t ids = (size_t)P->n_actions * sizeof(int);                  /* a legal-id list */
    size_t cards = (size_t)P->K * (sizeof(int16_t) + sizeof(uint8_t));  /* aa_determinize's pool */
    size_t attacks = aa_resolve_work_size(P);                          /* aa_resolve's attacks */
    size_t n = ids > cards ? ids : cards;
    n = n > attacks ? n : attacks;
    return (n + sizeof(double) - 1) / sizeof(double) * sizeof(double);
}

size_t aa_state_size(const aa_params *P) {
    return state_layout(P, NULL, NULL);
}

void aa_state_bind(aa_state *g, const aa_params *P, void *mem) {
    state_layout(P, g, (char *)mem);
}

void aa_state_copy(const aa_params *P, aa_state *dst, const aa_state *src) {
    size_t U = (size_t)P->U, K = (size_t)P->K;
    size_t n_feat = P->terrain.n_feat > 0 ? (size_t)P->terrain.n_feat : 1;
    memcpy(dst->s, src->s, NS * sizeof(int32_t));
    memcpy(dst->i8, src->i8, NI8 * U * sizeof(int8_t));
    memcpy(dst->i32, src->i32, NI32 * U * sizeof(int32_t));
    memcpy(dst->f64, src->f64, NF64 * U * sizeof(double));
    memcpy(dst->piles, src->piles, 2 * 3 * K * sizeof(int16_t));
    memcpy(dst->counts, src->counts, 2 * NC * sizeof(int32_t));
    memcpy(dst->bonus, src->bonus, 2 * sizeof(double));
    memcpy(dst->los, src->los, U * U * sizeof(int8_t));
    memcpy(dst->fcover, src->fcover, n_feat * sizeof(int8_t));
}
