/* GreedyAgent (atomic_africa.agents.greedy) natively, on exact odds.
 *
 * Every value is the Python agent's canonical expression: an expectation is an exact integer count
 * over the face combinations divided once by their number (correctly rounded, as Python's exact
 * Fractions give it), then combined with the agent's weights in the same order. */
#include "aa_agents_internal.h"

/* ---------------------------------------------------------------------------------- odds tables */
/* First aa_odds_side of a dice triple (Die values); add action * 2 + posture. */
AA_INLINE int odds_row(const int *dice) {
    return ((((dice[0] - 4) >> 1) * ODDS_DICE + ((dice[1] - 4) >> 1)) * ODDS_DICE + ((dice[2] - 4) >> 1))
        * (2 * N_ACTIONS);
}

void aa_fill_odds_tables(const signed char *table5, aa_odds_side *o) {
    aa_odds_side *s;
    int i0, i1, i2, a, p, f0, f1, f2, x, y;
    int d[3];
    int32_t h[ODDS_SLOTS][ODDS_SLOTS];
    aa_scores sc;
    memset(o, 0, ODDS_ROWS * sizeof(aa_odds_side));
    for (i0 = 0; i0 < ODDS_DICE; i0++) {
        for (i1 = 0; i1 < ODDS_DICE; i1++) {
            for (i2 = 0; i2 < ODDS_DICE; i2++) {
                d[0] = 4 + 2 * i0;
                d[1] = 4 + 2 * i1;
                d[2] = 4 + 2 * i2;
                for (a = 0; a < N_ACTIONS; a++) {
                    for (p = 0; p < 2; p++) {
                        s = o + odds_row(d) + a * 2 + p;
                        s->total = d[0] * d[1] * d[2];
                        memset(h, 0, sizeof(h));
                        for (f0 = 1; f0 < d[0] + 1; f0++) {
                            for (f1 = 1; f1 < d[1] + 1; f1++) {
                                for (f2 = 1; f2 < d[2] + 1; f2++) {
                                    aa_action_scores(f0, f1, f2, table5 + (a * 2 + p) * 3, a == A_SPRINT, &sc);
                                    h[sc.attack[0] + 1][sc.attack[1] + 1] += 1;
                                    s->att0[sc.attack[0] + 1] += 1;
                                    s->att1[sc.attack[1] + 1] += 1;
                                    s->defense[sc.defense + 1] += 1;
                                    s->rally[sc.rally + 1] += 1;
                                    s->spotting[sc.spotting + 1] += 1;
                                }
                            }
                        }
                        for (x = 0; x < ODDS_SLOTS; x++)
                            for (y = 0; y < ODDS_SLOTS; y++)
                                s->att_cum[x + 1][y + 1] = h[x][y] + s->att_cum[x][y + 1] + s->att_cum[x + 1][y]
                                    - s->att_cum[x][y];
                    }
                }
            }
        }
    }
}

/* ---------------------------------------------------------------------------------- the view */
typedef struct gview {            /* one decision's facts (the Python agent's _View), on the stack */
    V *v;
    const aa_agent_params *ap;
    int row[MAX_SLOTS_TOTAL];     /* odds_row of each unit's dice after wounds (-1: not yet) */
    int cov[MAX_SLOTS_TOTAL];     /* cover at each unit's position (-1: not yet) */
    double basic[MAX_SLOTS_TOTAL * 2];           /* Basic action value by unit and posture */
    int8_t basic_done[MAX_SLOTS_TOTAL * 2];
} gview;

AA_INLINE const aa_odds_side *side_of(gview *c, int u, int action, int posture) {
    int d[3];
    int shattered;
    if (c->row[u] < 0) {
        aa_wounded_dice(c->v, u, d, &shattered);
        c->row[u] = odds_row(d);
    }
    return c->v->P->tables.odds + c->row[u] + action * 2 + posture;
}

/* _View.los: the engine's line of sight between a and b (its cache, kept across decisions). */
AA_INLINE int g_los(gview *c, int a, int b) { return los(c->v, a, b); }

AA_INLINE int unit_cover(gview *c, int t) {
    if (c->cov[t] < 0)
        c->cov[t] = cover_at(c->v, c->v->x[t], c->v->y[t]);
    return c->cov[t];
}

AA_INLINE int band_of(V *v, double px, double py, double qx, double qy) {
    return aa_range_band(dist(px, py, qx, qy), v->P->fire.band_edges_cm, v->P->fire.n_edges);
}

/* (posture, action) t rolls its Defense with: its declaration if it acts or reacts in this phase
 * and has declared, else the rules' bystander roll. */
AA_INLINE void defense_roll(V *v, int t, int *posture, int *action) {
    if ((t == v->s[S_ACT] || t == v->s[S_REACT]) && v->action[t] >= 0) {
        *posture = v->posture[t];
        *action = v->action[t];
    } else {
        *posture = v->P->orders.bystander_posture;
        *action = A_BASIC;
    }
}

AA_INLINE int cap_left(V *v, int t) {
    int left = v->P->fire.rules.turn_cap[is_vehicle(v, t)] - v->turn_markers[t];
    return left > 0 ? left : 0;
}

/* ---------------------------------------------------------------------------------- counts */
/* WOUND_QUOTIENT[eff][k] = k / eff: the wounds of beating the damage threshold by k (k <= 25) at
 * effective armor eff >= 1 (row ODDS_SLOTS: any larger armor, no wound); computed by the compiler. */
#define WQ_ROW(e) {0 / (e), 1 / (e), 2 / (e), 3 / (e), 4 / (e), 5 / (e), 6 / (e), 7 / (e), 8 / (e), \
    9 / (e), 10 / (e), 11 / (e), 12 / (e), 13 / (e), 14 / (e), 15 / (e), 16 / (e), 17 / (e), \
    18 / (e), 19 / (e), 20 / (e), 21 / (e), 22 / (e), 23 / (e), 24 / (e), 25 / (e), 26 / (e)}
static const int WOUND_QUOTIENT[ODDS_SLOTS + 1][ODDS_SLOTS + 1] = {
    {0}, WQ_ROW(1), WQ_ROW(2), WQ_ROW(3), WQ_ROW(4), WQ_ROW(5), WQ_ROW(6), WQ_ROW(7), WQ_ROW(8),
    WQ_ROW(9), WQ_ROW(10), WQ_ROW(11), WQ_ROW(12), WQ_ROW(13), WQ_ROW(14), WQ_ROW(15), WQ_ROW(16),
    WQ_ROW(17), WQ_ROW(18), WQ_ROW(19), WQ_ROW(20), WQ_ROW(21), WQ_ROW(22), WQ_ROW(23), WQ_ROW(24),
    WQ_ROW(25), WQ_ROW(26)
};
#undef WQ_ROW

/* Sums over all face combinations of min(markers, left) and of wounds: the shooter's attacks (which
 * 0: both, one volley; 1: the second only; 2: the first only) against the target's Defense. */
static void fire_counts(const aa_fire_rules *r, const aa_odds_side *sh, const aa_odds_side *tg, int which,
                        int band, int armor, int cover, int ap, int vehicle, int left, int64_t *M, int64_t *W) {
    const int S = ODDS_SLOTS;
    int i, j, ds, s, t2, hi, eff, k;
    const int *q;
    int mk[3];
    int val[3][3];
    int b[4];
    int32_t g[4][4];
    int64_t m, w;
    eff = armor + r->cover_bonus[cover] + ap;
    if (eff < r->armor_floor)
        eff = r->armor_floor;
    q = WOUND_QUOTIENT[eff < S ? eff : S];
    mk[0] = 0;
    mk[1] = r->markers_range[vehicle];
    mk[2] = r->markers_damage[vehicle];
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            val[i][j] = aa_imin(aa_cap_markers(mk[i] + mk[j], 0, vehicle, r), left);
    b[0] = 0;
    b[1] = aa_imin(band + 2, S);
    b[3] = S;
    *M = 0;
    *W = 0;
    if (which == 0 && sh->att1[0] == sh->total)
        which = 2;   /* one attack: the joint reduces to the first attack's marginal */
    for (ds = 0; ds < S; ds++) {
        if (tg->defense[ds] == 0)
            continue;
        t2 = band + ds - 1;   /* damage threshold: band + Defense */
        hi = t2 > band ? t2 : band;
        b[2] = aa_imin(hi + 2, S);
        m = 0;
        if (which == 0) {
            for (i = 0; i < 4; i++)
                for (j = 0; j < 4; j++)
                    g[i][j] = sh->att_cum[b[i]][b[j]];
            for (i = 0; i < 3; i++)
                for (j = 0; j < 3; j++)
                    if (val[i][j] != 0)
                        m += (int64_t)(g[i + 1][j + 1] - g[i][j + 1] - g[i + 1][j] + g[i][j]) * val[i][j];
        } else if (which == 1) {
            for (j = 0; j < 3; j++)
                m += (int64_t)(sh->att_cum[S][b[j + 1]] - sh->att_cum[S][b[j]]) * val[0][j];
        } else {
            for (i = 0; i < 3; i++)
                m += (int64_t)(sh->att_cum[b[i + 1]][S] - sh->att_cum[b[i]][S]) * val[i][0];
        }
        w = 0;
        for (s = b[2]; s < S; s++) {
            k = q[s - 1 - t2];
            if (which != 1)
                w += (int64_t)sh->att0[s] * k;
            if (which != 2)
                w += (int64_t)sh->att1[s] * k;
        }
        *M += m * tg->defense[ds];
        *W += w * tg->defense[ds];
    }
}

AA_INLINE double dist_value(gview *c, int64_t M, int64_t W, int64_t total) {
    return c->ap->marker_value * ((double)M / (double)total) + c->ap->wound_value * ((double)W / (double)total);
}

/* ---------------------------------------------------------------------------------- values */
/* GreedyAgent.fire_value: u's action in posture at enemy t, shooting from (ox, oy). */
static double fire_value(gview *c, int u, int t, int action, int posture, double ox, double oy) {
    V *v = c->v;
    int ap = 0, tp, ta;
    int64_t M, W;
    const aa_odds_side *sh;
    const aa_odds_side *tg;
    if (action == A_HEAVY_WEAPON) {
        if (!hw_eligible(v, u, t))
            return -INFINITY;
        ap = hw_ap(v, u, t);
    }
    defense_roll(v, t, &tp, &ta);
    sh = side_of(c, u, action, posture);
    tg = side_of(c, t, ta, tp);
    fire_counts(&v->P->fire.rules, sh, tg, 0, band_of(v, ox, oy, v->x[t], v->y[t]), v->armor[t],
                unit_cover(c, t), ap, is_vehicle(v, t), cap_left(v, t), &M, &W);
    return dist_value(c, M, W, (int64_t)sh->total * tg->total);
}

/* GreedyAgent.feature_value: expected cover levels knocked off feature f x cover_value. */
static double feature_value(gview *c, int u, int f, int posture) {
    V *v = c->v;
    const aa_params *P = v->P;
    const aa_odds_side *sh = side_of(c, u, A_HEAVY_WEAPON, posture);
    int b = band_of(v, v->x[u], v->y[u], P->tables.feat_x[f], P->tables.feat_y[f]);
    int cover = v->g->fcover[f], s, w, lv;
    int64_t L = 0;
    for (s = 1; s < ODDS_SLOTS; s++) {
        if (sh->att0[s] == 0)
            continue;
        aa_resolve_attack(s - 1, b, P->fire.feature_defense, P->terrain.feat_armor[f], 0, v->hwp_ap[u], 0,
                          &P->fire.rules, &w);
        lv = w * P->fire.feature_cover_per_wound;
        L += (int64_t)sh->att0[s] * (cover < lv ? cover : lv);
    }
    return ((double)L / (double)sh->total) * c->ap->cover_value;
}

/* One target's share of Split Fire: k 0 the declared target (the higher Attack), 1 the other. */
static double split_part(gview *c, int u, int t, int posture, int k) {
    V *v = c->v;
    const aa_odds_side *sh = side_of(c, u, A_SPLIT_FIRE, posture);
    const aa_odds_side *tg;
    int tp, ta;
    int64_t M, W;
    defense_roll(v, t, &tp, &ta);
    tg = side_of(c, t, ta, tp);
    fire_counts(&v->P->fire.rules, sh, tg, 1 + k, band_of(v, v->x[u], v->y[u], v->x[t], v->y[t]), v->armor[t],
                unit_cover(c, t), 0, is_vehicle(v, t), cap_left(v, t), &M, &W);
    return dist_value(c, M, W, (int64_t)sh->total * tg->total);
}

/* The best GreedyAgent.split_value(u, a, b) over ordered pairs of u's fire targets (t1 >= 0: a = t1
 * only); 0.0 without a pair. Each share depends on its own target only, so it is taken once. */
static double best_split(gview *c, int u, int t1, int posture) {
    V *v = c->v;
    int e = 1 - u / v->C, t, t2, need = v->P->orders.fire_needs_los, seen = 0;
    double best = 0.0, x;
    double decl[MAX_SLOTS_TOTAL];
    double other[MAX_SLOTS_TOTAL];
    int8_t ok[MAX_SLOTS_TOTAL];
    for (t = e * v->C; t < (e + 1) * v->C; t++) {
        ok[t] = (int8_t)(v->alive[t] && (!need || g_los(c, u, t)));
        if (ok[t]) {
            if (t1 < 0 || t == t1)
                decl[t] = split_part(c, u, t, posture, 0);
            other[t] = split_part(c, u, t, posture, 1);
        }
    }
    for (t = e * v->C; t < (e + 1) * v->C; t++) {
        if (ok[t] && (t1 < 0 || t == t1)) {
            for (t2 = e * v->C; t2 < (e + 1) * v->C; t2++) {
                if (t2 != t && ok[t2]) {
                    x = decl[t] + other[t2];
                    if (!seen || x > best)
                        best = x;
                    seen = 1;
                }
            }
        }
    }
    return best;
}

/* GreedyAgent.rally_value_of: P(success) x markers removed x rally_value. */
static double rally_value_of(gview *c, int u, int t, int posture) {
    V *v = c->v;
    const aa_rally_params *rr = &v->P->rally;
    const aa_odds_side *s = side_of(c, u, A_RALLY, posture);
    int rng = 0, b, first, k;
    int64_t n = 0;
    double p;
    if (t == u) {
        rng = rr->self_range;
        first = 0;
    } else {
        b = band_of(v, v->x[u], v->y[u], v->x[t], v->y[t]);
        first = 0;
        if (g_los(c, u, t))
            rng = b;
        else if (v->comms[u])
            rng = b + rr->comms_range_penalty;
        else
            first = -1;
    }
    if (first == 0) {
        first = rng + v->markers[t] + 2;   /* success: Rally score r > range + markers, r at slot r + 1 */
        for (k = first; k < ODDS_SLOTS; k++)
            n += s->rally[k];
        p = (double)n / (double)s->total;
    } else {
        p = 0.0;
    }
    return p * (double)aa_imin(rr->markers_removed, v->markers[t]) * c->ap->rally_value;
}

/* GreedyAgent.cff_value: P(impact within the blast radius of t) x the support's attack value. */
static double cff_value(gview *c, int u, int t, int k, int posture) {
    V *v = c->v;
    const aa_call_for_fire_params *cf = &v->P->call_for_fire;
    const aa_odds_side *sp = side_of(c, u, A_CALL_FOR_FIRE, posture);
    const aa_odds_side *sh;
    const aa_odds_side *tg;
    int side = u / v->C, K = cf->scatter_die, s, dd, off, near, tp, ta;
    int64_t n_in = 0, M, W;
    double R = cf->asset_blast_cm[side][k], p_in;
    for (s = 0; s < ODDS_SLOTS; s++) {
        if (sp->spotting[s] == 0)
            continue;
        near = 0;
        for (dd = 1; dd < K + 1; dd++) {
            off = dd - (s - 1);
            if (off < 0)
                off = 0;
            if ((double)off * cf->scatter_increment_cm <= R)
                near += 1;
        }
        n_in += (int64_t)sp->spotting[s] * K * near;   /* every clock face of the direction die */
    }
    p_in = (double)n_in / (double)((int64_t)sp->total * K * K);
    sh = v->P->tables.odds + odds_row(cf->asset_dice[side][k]) + cf->support_action * 2 + cf->support_posture;
    defense_roll(v, t, &tp, &ta);
    tg = side_of(c, t, ta, tp);
    fire_counts(&v->P->fire.rules, sh, tg, 0, cf->support_range_band, v->armor[t], unit_cover(c, t),
                cf->asset_ap[side][k], is_vehicle(v, t), cap_left(v, t), &M, &W);
    return p_in * dist_value(c, M, W, (int64_t)sh->total * tg->total);
}

/* GreedyAgent.action_value: the best value of declaring (action, posture) over u's targets (0.0
 * without any); the first of equal values, as Python's max. */
static double action_value(gview *c, int u, int action, int posture) {
    V *v = c->v;
    int side = u / v->C, e = 1 - side, C = v->C, t, k, nf, i, n_assets, need = v->P->orders.fire_needs_los;
    int seen = 0;
    double best = 0.0, x;
    int fs[MAX_FEATURES];
    if (action == A_BASIC && c->basic_done[u * 2 + posture])
        return c->basic[u * 2 + posture];
    if (action == A_RALLY) {
        for (t = side * C; t < (side + 1) * C; t++) {
            if (v->alive[t] && v->markers[t] > 0) {
                x = rally_value_of(c, u, t, posture);
                if (!seen || x > best)
                    best = x;
                seen = 1;
            }
        }
        return best;
    }
    if (action == A_CALL_FOR_FIRE) {
        n_assets = v->P->call_for_fire.n_assets[side];
        for (t = e * C; t < (e + 1) * C; t++) {
            if (v->alive[t] && g_los(c, u, t)) {
                for (k = 0; k < n_assets; k++) {
                    x = cff_value(c, u, t, k, posture);
                    if (!seen || x > best)
                        best = x;
                    seen = 1;
                }
            }
        }
        return best;
    }
    if (action == A_SPLIT_FIRE)
        return best_split(c, u, -1, posture);
    for (t = e * C; t < (e + 1) * C; t++) {
        if (v->alive[t] && (!need || g_los(c, u, t))) {
            x = fire_value(c, u, t, action, posture, v->x[u], v->y[u]);
            if (!seen || x > best)
                best = x;
            seen = 1;
        }
    }
    if (action == A_HEAVY_WEAPON) {
        nf = aa_feature_targets(v, u, fs);
        for (i = 0; i < nf; i++) {
            x = feature_value(c, u, fs[i], posture);
            best = aa_pmax(best, x);
        }
    }
    if (action == A_BASIC) {
        c->basic[u * 2 + posture] = best;
        c->basic_done[u * 2 + posture] = 1;
    }
    return best;
}

/* GreedyAgent.card_value: u's best Basic fire in the card's posture plus the card's bonus. */
static double card_value(gview *c, int u, int card) {
    const aa_tables *T = &c->v->P->tables;
    double base, off, def;
    if (T->card_joker[card]) {
        if (c->v->markers[u] > 0) {
            base = action_value(c, u, A_BASIC, P_DEFENSIVE);
        } else {
            off = action_value(c, u, A_BASIC, P_OFFENSIVE);
            def = action_value(c, u, A_BASIC, P_DEFENSIVE);
            base = aa_pmax(off, def);
        }
        return base + 1.0;
    }
    base = action_value(c, u, A_BASIC, T->card_posture[card]);
    return base + (T->card_face[card] ? 0.75 : 0.05 * (double)T->card_move[card]);
}

/* GreedyAgent._target_value: the value of aiming u's declared action at unit t. */
static double target_value(gview *c, int u, int t, int second) {
    V *v = c->v;
    int action = v->action[u], posture = v->posture[u];
    double decl;
    if (action == A_RALLY)
        return rally_value_of(c, u, t, posture);
    if (action == A_CALL_FOR_FIRE)
        return cff_value(c, u, t, v->asset[u] > 0 ? v->asset[u] : 0, posture);
    if (action == A_SPLIT_FIRE) {
        if (second) {
            decl = split_part(c, u, v->target[u], posture, 0);
            return decl + split_part(c, u, t, posture, 1);
        }
        return best_split(c, u, t, posture);
    }
    return fire_value(c, u, t, action, posture, v->x[u], v->y[u]);
}

/* GreedyAgent._move_values for one MOVE/STAY action: cover at the Destination plus the fire at
 * `target` from the In-transit point (-1: none; then the distance to the nearest enemy). */
static double move_value(gview *c, int u, int a, int target, double *band_val, int8_t *band_done) {
    V *v = c->v;
    const aa_params *P = v->P;
    int i, b, e = 1 - u / v->C, seen = 0;
    double dx, dy, val, near, d, edge, ex, ey, mx, my;
    if (v->s[S_STAGE] == ST_SPRINT_MOVE) {
        i = (a - P->base.move) / P->movement.n_fractions;
        aa_clamp_step(v, v->dest_x[u], v->dest_y[u], P->movement.dir_angle[i], v->g->bonus[0], &dx, &dy);
    } else if (a == P->base.stay) {
        dx = v->x[u];
        dy = v->y[u];
    } else {
        i = a - P->base.move;
        aa_clamp_step(v, v->x[u], v->y[u], P->movement.dir_angle[i / P->movement.n_fractions],
                      P->movement.distance_fractions[i % P->movement.n_fractions] * max_move(v, u), &dx, &dy);
    }
    val = c->ap->cover_value * (double)cover_at(v, dx, dy);
    if (target >= 0 && v->alive[target]) {
        mx = (v->x[u] + dx) / 2;
        my = (v->y[u] + dy) / 2;
        b = band_of(v, mx, my, v->x[target], v->y[target]);
        if (!band_done[b]) {   /* the fire depends on the origin through its range band only */
            band_val[b] = fire_value(c, u, target, v->action[u], v->posture[u], mx, my);
            band_done[b] = 1;
        }
        return val + band_val[b];
    }
    near = 0.0;
    for (i = e * v->C; i < (e + 1) * v->C; i++) {
        if (v->alive[i]) {
            ex = v->x[i] - dx;
            ey = v->y[i] - dy;
            d = sqrt(ex * ex + ey * ey);
            if (!seen || d < near)
                near = d;
            seen = 1;
        }
    }
    edge = P->fire.band_edges_cm[0];
    return val - (0.01 * aa_pmax(0.0, near - 2 * edge) + 0.02 * aa_pmax(0.0, edge - near));
}

/* ---------------------------------------------------------------------------------- decision */
/* GreedyAgent.act: the legal action of the highest value, ties to the lowest id; -1 if none is
 * legal (or the odds tables are missing). */
int aa_greedy_act(V *v, const aa_agent_params *ap) {
    int buf[MAX_LEGAL];
    double val[MAX_LEGAL];
    int m = aa_legal_v(v, buf), i, best_a = -1;
    double best = 0.0;
    if (m <= 1)
        return m == 1 ? buf[0] : -1;
    if (v->P->tables.odds == NULL)
        return -1;
    aa_greedy_values(v, ap, buf, m, val);
    for (i = 0; i < m; i++) {
        if (best_a < 0 || val[i] > best || (val[i] == best && buf[i] < best_a)) {
            best = val[i];
            best_a = buf[i];
        }
    }
    return best_a;
}

void aa_greedy_values(V *v, const aa_agent_params *ap, const int *buf, int m, double *out) {
    const aa_params *P = v->P;
    int st = v->s[S_STAGE], me = v->s[S_CUR], C = v->C, U = v->U, i, a, u = -1;
    int target = -1, k, t;
    double x, y;
    double band_val[MAX_EDGES + 2];
    int8_t band_done[MAX_EDGES + 2];
    gview c;
    c.v = v;
    c.ap = ap;
    for (i = 0; i < U; i++) {
        c.row[i] = -1;
        c.cov[i] = -1;
    }
    memset(c.basic_done, 0, (size_t)(2 * U));
    memset(band_done, 0, sizeof(band_done));
    if (v->s[S_DECL] >= 0)
        u = v->s[S_DECL];
    if (st == ST_MOVE && is_fire(v->action[u]) && v->action[u] != A_SPLIT_FIRE && 0 <= v->target[u]
            && v->target[u] < U)
        target = v->target[u];
    for (i = 0; i < m; i++) {
        a = buf[i];
        if (st == ST_ORDERS || st == ST_RESERVE_PICK) {
            if (a == P->base.end_orders) {   /* the cards left are worth this much in the Reserve */
                x = may_hold_back(v, me) ? ap->reserve_value : -INFINITY;
            } else {
                k = a - P->base.assign;
                x = card_value(&c, me * C + k % C, k / C);
            }
        } else if (st == ST_ACTIVATE || st == ST_REACT) {
            t = me * C + a - P->base.select;
            x = card_value(&c, t, v->card[t]);
        } else if (st == ST_DECLARE_ACTION) {
            k = a - P->base.declare;
            x = action_value(&c, u, k / 2, k % 2);
        } else if (st == ST_DECLARE_ASSET) {
            x = 0.0;
            k = 0;
            for (t = (1 - u / C) * C; t < (2 - u / C) * C; t++) {
                if (v->alive[t] && g_los(&c, u, t)) {
                    y = cff_value(&c, u, t, a - P->base.asset, v->posture[u]);
                    x = k == 0 ? y : aa_pmax(x, y);
                    k = 1;
                }
            }
        } else if (st == ST_DECLARE_TARGET || st == ST_DECLARE_TARGET2) {
            if (a == P->base.no_target)
                x = -INFINITY;
            else if (a >= P->base.feature)
                x = feature_value(&c, u, a - P->base.feature, v->posture[u]);
            else
                x = target_value(&c, u, a - P->base.target, st == ST_DECLARE_TARGET2);
        } else if (st == ST_MOVE || st == ST_SPRINT_MOVE) {
            x = move_value(&c, u, a, target, band_val, band_done);
        } else if (st == ST_SPLIT) {
            x = a == P->base.end_splits ? 0.0 : 1.0;
        } else {
            x = 0.0;
        }
        out[i] = x;
    }
}
