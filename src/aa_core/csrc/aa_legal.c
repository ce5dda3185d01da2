/* Legal actions: targets, action options, the Orders phase's assignments, and the legal action ids
 * of every stage (Game.legal_actions and the methods it calls). */
#include "aa_engine_internal.h"

/* Game._fire_targets / _hw_targets / _cff_targets (reference/game/engine.py): their shared walk over the enemy units */
int aa_enemy_targets(V *v, int u, int need_los, int heavy_weapon, int *out) {
    int t, n = 0, e = 1 - u / v->C;
    for (t = e * v->C; t < (e + 1) * v->C; t++) {
        if (v->alive[t] && (!need_los || los(v, u, t)) && (!heavy_weapon || hw_eligible(v, u, t))) {
            if (out != NULL)
                out[n] = t;
            n += 1;
        }
    }
    return n;
}

/* Game._feature_targets and _sees_feature (reference/game/engine.py): features u's point-target heavy weapon may aim
 * at (armor, cover left, in view from u if fire needs LOS, the feature itself not blocking). */
int aa_feature_target(V *v, int u, int f) {
    const aa_params *P = v->P;
    return P->terrain.feat_armor[f] > 0 && v->g->fcover[f] > 0
           && (!P->orders.fire_needs_los
               || !blocked(v, v->x[u], v->y[u], P->tables.feat_x[f], P->tables.feat_y[f], f));
}

int aa_feature_targets(V *v, int u, int *out) {
    const aa_params *P = v->P;
    int f, n = 0;
    if (!v->hwp[u])
        return 0;
    for (f = 0; f < P->terrain.n_feat; f++) {
        if (aa_feature_target(v, u, f)) {
            if (out != NULL)
                out[n] = f;
            n += 1;
        }
    }
    return n;
}

/* Game._rally_targets (reference/game/engine.py) */
int aa_rally_targets(V *v, int u, int *out) {
    int t, n = 0, side = u / v->C, ok;
    for (t = side * v->C; t < (side + 1) * v->C; t++) {
        if (!v->alive[t] || v->markers[t] < 1)
            continue;
        ok = t == u || ((v->markers[u] < v->markers[t] || v->commander[u]) && (v->comms[u] || los(v, u, t)));
        if (ok) {
            if (out != NULL)
                out[n] = t;
            n += 1;
        }
    }
    return n;
}

/* Game._special_ok (reference/game/engine.py) */
static int special_ok(V *v, int u, int a) {
    int k = v->kind[u];
    /* light infantry is infantry (RULES.md sections 1 and 4): only vehicles are excluded */
    if ((a == A_DIG_IN || a == A_MASS_FIRE || a == A_SPLIT_FIRE || a == A_CALL_FOR_FIRE) && k == K_VEHICLE)
        return 0;
    if (a == A_DIG_IN)
        return 1;
    if (a == A_MASS_FIRE)
        return fire_targets(v, u, NULL) > 0;
    if (a == A_SPLIT_FIRE)
        return fire_targets(v, u, NULL) >= 2;
    if (a == A_HEAVY_WEAPON)
        return (v->hwd[u] || v->hwp[u]) && (hw_targets(v, u, NULL) > 0 || aa_feature_targets(v, u, NULL) > 0);
    if (a == A_RALLY)
        return aa_rally_targets(v, u, NULL) > 0;
    if (a == A_CALL_FOR_FIRE)
        return v->spotter[u] && v->P->call_for_fire.n_assets[u / v->C] > 0 && cff_targets(v, u, NULL) > 0;
    if (a == A_SPRINT)
        return k == K_LIGHT_INFANTRY || k == K_VEHICLE;
    return a == A_BASIC;
}

/* Game._action_options (reference/game/engine.py) */
int aa_action_options(V *v, int u, int *acts, int *posts) {
    int c = v->card[u], a, p, n = 0, np_;
    int ps[2];
    if (v->P->tables.card_joker[c]) {
        if (v->markers[u] > 0) {
            ps[0] = P_DEFENSIVE;
            np_ = 1;
        } else {
            ps[0] = P_OFFENSIVE;
            ps[1] = P_DEFENSIVE;
            np_ = 2;
        }
        for (a = 0; a < N_ACTIONS; a++) {
            if (special_ok(v, u, a)) {
                for (p = 0; p < np_; p++) {
                    acts[n] = a;
                    posts[n] = ps[p];
                    n += 1;
                }
            }
        }
        return n;
    }
    p = v->P->tables.card_posture[c];
    if (v->P->tables.card_face[c]) {
        if (v->confused[u]) {
            acts[0] = v->kind[u] == K_VEHICLE ? A_SPRINT : A_DIG_IN;
            posts[0] = p;
            return 1;
        }
        for (a = 1; a < N_ACTIONS; a++) {
            if (special_ok(v, u, a)) {
                acts[n] = a;
                posts[n] = p;
                n += 1;
            }
        }
        return n;
    }
    acts[0] = A_BASIC;
    posts[0] = p;
    return 1;
}

/* The most units that can get orders (keeps_best in Game._orders_pairs): suppressed ones take only the
 * cards legal for a suppressed unit. */
AA_INLINE int max_orders(int n_sup, int n_free, int n_any, int n_off) {
    int sup = aa_imin(n_sup, n_any);
    return sup + aa_imin(n_free, n_off + n_any - sup);
}

/* Game._orders_pairs (reference/game/engine.py) */
int aa_orders_pairs(V *v, int side, int *out) {
    const aa_params *P = v->P;
    int16_t *hand = pile(v, side, PILE_HAND);
    int nh = cnt(v, side)[C_HAND];
    int u, i, c, n = 0, n_sup = 0, n_needy = 0, n_any = 0, n_free, n_off, best, sp, an;
    int ok[2][2];
    for (u = side * v->C; u < (side + 1) * v->C; u++) {
        if (v->alive[u] && v->card[u] == NO_CARD && !v->acted[u]) {
            n_needy += 1;
            n_sup += v->markers[u] > 0;
        }
    }
    if (n_needy == 0 || nh == 0)
        return 0;
    if (P->orders.reserve_by_choice) {   /* any legal card to any unit still without orders */
        for (u = side * v->C; u < (side + 1) * v->C; u++) {
            if (v->alive[u] && v->card[u] == NO_CARD && !v->acted[u]) {
                sp = v->markers[u] > 0;
                for (i = 0; i < nh; i++) {
                    if (legal_for(v, hand[i], sp)) {
                        if (out != NULL)
                            out[n] = P->base.assign + hand[i] * v->C + (u - side * v->C);
                        n += 1;
                    }
                }
            }
        }
        return n;
    }
    n_free = n_needy - n_sup;
    for (i = 0; i < nh; i++)
        n_any += P->tables.card_any[hand[i]];
    n_off = nh - n_any;
    best = max_orders(n_sup, n_free, n_any, n_off);
    for (sp = 0; sp < 2; sp++)
        for (an = 0; an < 2; an++)
            ok[sp][an] = (an || !sp)
                && max_orders(n_sup - sp, n_free - (1 - sp), n_any - an, n_off - (1 - an)) == best - 1;
    for (u = side * v->C; u < (side + 1) * v->C; u++) {
        if (v->alive[u] && v->card[u] == NO_CARD && !v->acted[u]) {
            sp = v->markers[u] > 0;
            for (i = 0; i < nh; i++) {
                c = hand[i];
                if (ok[sp][P->tables.card_any[c]]) {
                    if (out != NULL)
                        out[n] = P->base.assign + c * v->C + (u - side * v->C);
                    n += 1;
                }
            }
        }
    }
    return n;
}

/* Game._legal (reference/game/engine.py) (Game.legal_actions sorts it) */
int aa_legal_v(V *v, int *out) {
    const aa_params *P = v->P;
    int st = v->s[S_STAGE], cur = v->s[S_CUR], C = v->C, n = 0, u, k, i, c, a, nh, nm;
    int acts[2 * N_ACTIONS];
    int posts[2 * N_ACTIONS];
    int sup;
    int16_t *hand;
    if (st == ST_OVER)
        return 0;
    if (st == ST_ORDERS) {
        n = aa_orders_pairs(v, cur, out);
        if (n == 0 || P->orders.reserve_by_choice) {   /* the Reserve by choice: stop at any time */
            out[n] = P->base.end_orders;
            n += 1;
        }
        return n;
    }
    if (st == ST_ACTIVATE || st == ST_REACT) {
        for (u = cur * C; u < (cur + 1) * C; u++) {
            if (has_orders(v, u)) {
                out[n] = P->base.select + u - cur * C;
                n += 1;
            }
        }
        return n;
    }
    u = v->s[S_DECL];
    if (st == ST_RESERVE_PICK) {
        sup = v->markers[u] > 0;
        hand = pile(v, u / C, PILE_HAND);
        nh = cnt(v, u / C)[C_HAND];
        for (i = 0; i < nh; i++) {
            c = hand[i];
            if (legal_for(v, c, sup)) {
                out[n] = P->base.assign + c * C + u % C;
                n += 1;
            }
        }
        return n;
    }
    if (st == ST_DECLARE_ACTION) {
        k = aa_action_options(v, u, acts, posts);
        for (i = 0; i < k; i++)
            out[i] = P->base.declare + acts[i] * 2 + posts[i];
        return k;
    }
    if (st == ST_DECLARE_ASSET) {
        for (i = 0; i < P->call_for_fire.n_assets[u / C]; i++)
            out[i] = P->base.asset + i;
        return P->call_for_fire.n_assets[u / C];
    }
    if (st == ST_DECLARE_TARGET) {
        a = v->action[u];
        /* the targets listed into out, then made ids in place (no target list on the stack) */
        if (a == A_HEAVY_WEAPON)
            k = hw_targets(v, u, out);
        else if (a == A_RALLY)
            k = aa_rally_targets(v, u, out);
        else if (a == A_CALL_FOR_FIRE)
            k = cff_targets(v, u, out);
        else
            k = fire_targets(v, u, out);
        for (i = 0; i < k; i++)
            out[i] += P->base.target;
        if (a == A_HEAVY_WEAPON) {
            n = aa_feature_targets(v, u, out + k);
            for (i = 0; i < n; i++)
                out[k + i] += P->base.feature;
            k += n;
        }
        if (optional_target(a)) {
            out[k] = P->base.no_target;
            k += 1;
        }
        return k;
    }
    if (st == ST_DECLARE_TARGET2) {
        k = fire_targets(v, u, out);
        for (i = 0; i < k; i++) {   /* in place: n <= i */
            if (out[i] != v->target[u]) {
                out[n] = P->base.target + out[i];
                n += 1;
            }
        }
        return n;
    }
    if (st == ST_MOVE) {
        if (max_move(v, u) <= 0) {
            out[0] = P->base.stay;
            return 1;
        }
        nm = P->movement.directions * P->movement.n_fractions;
        for (i = 0; i < nm; i++)
            out[i] = P->base.move + i;
        out[nm] = P->base.stay;
        return nm + 1;
    }
    if (st == ST_SPRINT_MOVE) {
        for (i = 0; i < P->movement.directions; i++)
            out[i] = P->base.move + i * P->movement.n_fractions + P->movement.n_fractions - 1;
        return P->movement.directions;
    }
    if (st == ST_SPLIT) {
        /* A voluntary split needs a free slot for the new half: without one it would change nothing and
         * stay legal (every legal action makes progress). The spec's slot capacity (aa_spec.c) always
         * leaves one; this keeps the promise for any state. */
        int room = aa_side_count(v, cur) < C;
        for (u = cur * C; u < (cur + 1) * C; u++) {
            if (room && v->alive[u] && v->figures[u] >= P->cleanup.split_min_figures && !v->split_done[u]) {
                out[n] = P->base.split + u - cur * C;
                n += 1;
            }
        }
        out[n] = P->base.end_splits;
        return n + 1;
    }
    return 0;
}

int aa_legal_actions(const aa_params *P, aa_state *g, int *out) {   /* Game._legal (reference/game/engine.py) */
    V v;
    aa_make_view(P, g, &v);
    return aa_legal_v(&v, out);
}

int aa_is_legal(const aa_params *P, aa_state *g, int a) {
    int *buf = (int *)g->work;   /* n_actions ids */
    int i, n = aa_legal_actions(P, g, buf);
    for (i = 0; i < n; i++)
        if (buf[i] == a)
            return 1;
    return 0;
}
