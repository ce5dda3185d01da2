/* The second half of an Activation phase: movement, simultaneous resolution (rolls, fire, Call for
 * Fire, Rally, heavy weapons at terrain), the sprint displacement, completed moves, merging and the
 * initiative for the next phase. */
#include "aa_engine_internal.h"

/* ---------------------------------------------------------------------------------- movement */
/* Game._place_destination (reference/game/engine.py) */
void aa_place_destination(V *v, int u, double ang, double d) {
    aa_clamp_step(v, v->x[u], v->y[u], ang, d, &v->dest_x[u], &v->dest_y[u]);
    v->moves[u] = 1;
    EVN(v, E_MOVE, u, v->x[u], v->y[u], v->dest_x[u], v->dest_y[u], (v->x[u] + v->dest_x[u]) / 2,
        (v->y[u] + v->dest_y[u]) / 2);
}

/* Game._begin_movement (reference/game/engine.py) */
void aa_begin_movement(V *v) {
    int k, u;
    v->s[S_NPEND] = 0;
    for (k = 0; k < 2; k++) {
        u = k == 0 ? v->s[S_ACT] : v->s[S_REACT];
        if (u < 0)
            continue;
        v->dest_x[u] = v->x[u];
        v->dest_y[u] = v->y[u];
        v->moves[u] = 0;
        if (v->action[u] == A_BASIC || v->action[u] == A_SPRINT) {
            v->s[S_PEND0 + v->s[S_NPEND]] = u;
            v->s[S_NPEND] += 1;
        }
    }
    aa_next_move(v);
}

/* Game._next_move (reference/game/engine.py) */
void aa_next_move(V *v) {
    int u, face;
    while (v->s[S_NPEND] > 0) {
        u = v->s[S_PEND0];
        if (v->confused[u]) {
            face = roll(v, v->P->call_for_fire.scatter_die);
            EVN(v, E_CONFUSED_DIRECTION, u, face, 0);
            aa_place_destination(v, u, v->P->call_for_fire.clock_angle[face], max_move(v, u));
            pending_pop(v);
            continue;
        }
        v->s[S_DECL] = u;
        v->s[S_STAGE] = ST_MOVE;
        v->s[S_CUR] = u / v->C;
        return;
    }
    aa_resolve(v);
}

/* ---------------------------------------------------------------------------------- resolution */
/* One phase's attacks, struct of arrays. Each of the (at most two) participants makes at most two
 * attacks of its own, or one Call for Fire on every unit in the blast: at most 2 * U + 4, under
 * MAX_ATTACKS. The arrays of `A` live in the game's scratch (aa_resolve_work_size); `F` (heavy
 * weapons at terrain features, one per participant) on the stack. */
typedef struct attacks {
    int n, cap;
    int *src, *tgt, *att, *band, *ap;
} attacks;

enum { FEATURE_ATTACKS = 2 };

AA_INLINE int attack_cap(const aa_params *P) {
    return 2 * P->U + 4 < MAX_ATTACKS ? 2 * P->U + 4 : MAX_ATTACKS;
}

/* The scratch: A's five arrays, then fire()'s six per-target arrays (a target is a unit slot). */
size_t aa_resolve_work_size(const aa_params *P) {
    return ((size_t)5 * (size_t)attack_cap(P) + (size_t)6 * (size_t)P->U) * sizeof(int);
}

static void attacks_bind(attacks *A, int *mem, int cap) {
    A->n = 0;
    A->cap = cap;
    A->src = mem;
    A->tgt = mem + cap;
    A->att = mem + 2 * cap;
    A->band = mem + 3 * cap;
    A->ap = mem + 4 * cap;
}

AA_INLINE void push_attack(attacks *A, int src, int tgt, int att, int b, int ap) {
    if (A->n < A->cap) {
        A->src[A->n] = src;
        A->tgt[A->n] = tgt;
        A->att[A->n] = att;
        A->band[A->n] = b;
        A->ap[A->n] = ap;
        A->n += 1;
    }
}

/* The scores of a roll record: n_attacks, attacks[2], defense, rally, spotting, sprint_bonus. */
static void push_scores(V *v, const aa_scores *sc) {
    ev_push(v->ev, sc->n_attacks);
    ev_push(v->ev, sc->attack[0]);
    ev_push(v->ev, sc->attack[1]);
    ev_push(v->ev, sc->defense);
    ev_push(v->ev, sc->rally);
    ev_push(v->ev, sc->spotting);
    ev_push(v->ev, sc->sprint_bonus);
}

/* Game._roll_unit (reference/game/engine.py): u's dice after wounds, rolled in one draw, scored for (posture,
 * action). */
static void roll_unit(V *v, int u, int posture, int action, int code, aa_scores *sc) {
    int dice[3];
    int faces[3];
    int shattered, k;
    ptrdiff_t at;
    aa_wounded_dice(v, u, dice, &shattered);
    roll_many(v, dice, 3, faces);
    scores_of(v->P, faces, posture, action, sc);
    if (v->ev != NULL) {
        at = ev_open(v, code);
        ev_push(v->ev, u);
        for (k = 0; k < 3; k++)
            ev_push(v->ev, dice[k]);
        for (k = 0; k < 3; k++)
            ev_push(v->ev, faces[k]);
        ev_push(v->ev, shattered);
        ev_push(v->ev, action);
        ev_push(v->ev, posture);
        push_scores(v, sc);
        ev_close(v, at);
    }
}

/* Game._call_for_fire (reference/game/engine.py): scatter from the aim point, the support's roll, and an attack on
 * every unit with a point within the blast radius. */
static void call_for_fire(V *v, int u, const aa_scores *sc, attacks *A) {
    const aa_params *P = v->P;
    int side = u / v->C, k = v->asset[u], t, j;
    int sd[2];
    int cf[2];
    int faces[3];
    double dx, dy, ix, iy, r2 = P->call_for_fire.asset_r2[side][k];
    double px[3], py[3];
    aa_scores ssc;
    sd[0] = sd[1] = P->call_for_fire.scatter_die;
    roll_many(v, sd, 2, cf);
    aa_scatter(cf[0], cf[1], sc->spotting, P->call_for_fire.scatter_die, P->call_for_fire.scatter_increment_cm,
               P->call_for_fire.clock_zero_rad, P->call_for_fire.clockwise, &dx, &dy);
    ix = v->aim_x[u] + dx;
    iy = v->aim_y[u] + dy;
    EVN(v, E_SCATTER, u, k, v->aim_x[u], v->aim_y[u], cf[0], cf[1], sc->spotting, cf[1] - sc->spotting < 0, ix,
        iy);
    roll_many(v, P->call_for_fire.asset_dice[side][k], 3, faces);
    scores_of(P, faces, P->call_for_fire.support_posture, P->call_for_fire.support_action, &ssc);
    EVN(v, E_SUPPORT_ROLL, u, k, faces[0], faces[1], faces[2], ssc.attack[ssc.n_attacks - 1]);
    for (t = 0; t < v->U; t++) {
        if (!v->alive[t] || (t / v->C == side && !P->call_for_fire.blast_hits_friends))
            continue;
        points(v, t, px, py);
        for (j = 0; j < 3; j++) {
            if ((px[j] - ix) * (px[j] - ix) + (py[j] - iy) * (py[j] - iy) <= r2) {
                push_attack(A, -1 - k, t, ssc.attack[ssc.n_attacks - 1], P->call_for_fire.support_range_band,
                            P->call_for_fire.asset_ap[side][k]);
                break;
            }
        }
    }
}

/* Game._rally (reference/game/engine.py): whether u's Rally at its target succeeds (judged now, applied after the
 * fire). */
static int rally(V *v, int u, const aa_scores *sc, int *target) {
    const aa_params *P = v->P;
    int t = v->target[u], rng, clear, ok;
    double pax[3], pay[3], pbx[3], pby[3];
    if (t == u) {
        rng = P->rally.self_range;
        clear = 1;
    } else {
        points(v, u, pax, pay);
        points(v, t, pbx, pby);
        rng = aa_range_band(dist(pax[1], pay[1], pbx[1], pby[1]), P->fire.band_edges_cm, P->fire.n_edges);
        clear = !blocked(v, pax[1], pay[1], pbx[1], pby[1], -1);
        if (!clear && v->comms[u])
            rng += P->rally.comms_range_penalty;
    }
    ok = (clear || v->comms[u]) && sc->rally > rng + v->markers[t];
    EVN(v, E_RALLY, u, t, sc->rally, rng, v->markers[t], clear, ok);
    *target = t;
    return ok;
}

/* Game._fire (reference/game/engine.py): every attack of the phase on its target, simultaneously: bystanders roll their
 * Defense, cover is the predominant cover of the target's three points, markers are summed per
 * target then capped per turn, wounds summed. */
static void fire(V *v, attacks *A, const int *parts, const aa_scores *scores, int n_parts) {
    const aa_params *P = v->P;
    int *targets = A->src + 5 * A->cap;   /* the scratch after A's arrays: U each (distinct targets) */
    int *defense = targets + v->U;
    int *cover = defense + v->U;
    int *mk = cover + v->U;
    int *wd = mk + v->U;
    int *index = wd + v->U;
    int nt = 0, i, j, t, k, m, w, c0, c1, c2, found, veh;
    double px[3], py[3];
    aa_scores sc;
    if (A->n == 0)
        return;
    for (t = 0; t < v->U; t++)
        index[t] = -1;
    for (i = 0; i < A->n; i++)
        index[A->tgt[i]] = 0;
    for (t = 0; t < v->U; t++) {
        if (index[t] == 0) {
            index[t] = nt;
            targets[nt] = t;
            nt += 1;
        }
    }
    for (i = 0; i < nt; i++) {
        t = targets[i];
        found = 0;
        for (k = 0; k < n_parts; k++) {
            if (parts[k] == t) {
                defense[i] = scores[k].defense;
                found = 1;
            }
        }
        if (!found) {
            roll_unit(v, t, P->orders.bystander_posture, A_BASIC, E_BYSTANDER_ROLL, &sc);
            defense[i] = sc.defense;
        }
    }
    for (i = 0; i < nt; i++) {
        points(v, targets[i], px, py);
        c0 = cover_at(v, px[0], py[0]);
        c1 = cover_at(v, px[1], py[1]);
        c2 = cover_at(v, px[2], py[2]);
        cover[i] = aa_predominant_cover(c0, c1, c2);
        mk[i] = 0;
        wd[i] = 0;
    }
    for (j = 0; j < A->n; j++) {
        i = index[A->tgt[j]];
        t = targets[i];
        veh = is_vehicle(v, t);
        m = aa_resolve_attack(A->att[j], A->band[j], defense[i], v->armor[t], cover[i], A->ap[j], veh,
                              &P->fire.rules, &w);
        mk[i] += m;
        wd[i] += w;
        EVN(v, E_FIRE, A->src[j], t, A->att[j], A->band[j], defense[i], v->armor[t], cover[i], A->ap[j], m, w);
    }
    for (i = 0; i < nt; i++) {
        t = targets[i];
        m = aa_cap_markers(mk[i], v->turn_markers[t], is_vehicle(v, t), &P->fire.rules);
        v->markers[t] += m;
        v->turn_markers[t] += m;
        v->wounds[t] += wd[i];
        EVN(v, E_FIRE_RESULT, t, m, wd[i], v->markers[t], v->wounds[t], cover[i]);
    }
}

/* Game._fire_on_features (reference/game/engine.py): Defense feature_defense against the feature's armor (AP
 * applies, no cover bonus); each wound lowers its cover. */
static void fire_on_features(V *v, attacks *F) {
    const aa_params *P = v->P;
    int j, f, w, before, after;
    for (j = 0; j < F->n; j++) {
        f = F->tgt[j];
        aa_resolve_attack(F->att[j], F->band[j], P->fire.feature_defense, P->terrain.feat_armor[f], 0, F->ap[j],
                          0, &P->fire.rules, &w);
        before = v->g->fcover[f];
        after = before - w * P->fire.feature_cover_per_wound;
        if (after < 0)
            after = 0;
        v->g->fcover[f] = (int8_t)after;
        if (after != before)
            invalidate_los(v);
        EVN(v, E_FEATURE_FIRE, F->src[j], f, F->att[j], F->band[j], P->fire.feature_defense,
            P->terrain.feat_armor[f], F->ap[j], w, before, after);
    }
}

/* Game._resolve (reference/game/engine.py) */
void aa_resolve(V *v) {
    const aa_params *P = v->P;
    int parts[2];
    aa_scores scores[2];
    int np_ = 0, k, u, a, t, b, i;
    int ok[2] = {0, 0};
    int rtarget[2] = {0, 0};
    int is_rally[2];
    attacks A;
    attacks F;   /* heavy weapons at terrain features: tgt = feature index */
    int f_mem[5 * FEATURE_ATTACKS];
    double px[3], py[3];
    attacks_bind(&A, (int *)v->g->work, attack_cap(P));
    attacks_bind(&F, f_mem, FEATURE_ATTACKS);
    if (v->s[S_ACT] >= 0)
        parts[np_++] = v->s[S_ACT];
    if (v->s[S_REACT] >= 0)
        parts[np_++] = v->s[S_REACT];
    for (k = 0; k < np_; k++) {
        u = parts[k];
        roll_unit(v, u, v->posture[u], v->action[u], E_ROLL, &scores[k]);
    }
    for (k = 0; k < np_; k++) {
        u = parts[k];
        a = v->action[u];
        t = v->target[u];
        if (t >= v->U) {
            points(v, u, px, py);
            push_attack(&F, u, t - v->U, scores[k].attack[0],
                        aa_range_band(dist(px[1], py[1], P->tables.feat_x[t - v->U], P->tables.feat_y[t - v->U]),
                                      P->fire.band_edges_cm, P->fire.n_edges),
                        v->hwp_ap[u]);
        } else if (is_fire(a) && t >= 0) {
            b = band(v, u, t);
            if (a == A_MASS_FIRE) {
                for (i = 0; i < scores[k].n_attacks; i++)
                    push_attack(&A, u, t, scores[k].attack[i], b, 0);
            } else if (a == A_SPLIT_FIRE) {
                push_attack(&A, u, t, scores[k].attack[scores[k].n_attacks - 1], b, 0);
                push_attack(&A, u, v->target2[u], scores[k].attack[0], band(v, u, v->target2[u]), 0);
            } else if (a == A_HEAVY_WEAPON) {
                push_attack(&A, u, t, scores[k].attack[0], b, hw_ap(v, u, t));
            } else {
                push_attack(&A, u, t, scores[k].attack[0], b, 0);
            }
        } else if (a == A_CALL_FOR_FIRE) {
            call_for_fire(v, u, &scores[k], &A);
        }
    }
    /* Rally is judged against the markers before this phase's fire (simultaneous resolution). */
    for (k = 0; k < np_; k++) {
        is_rally[k] = v->action[parts[k]] == A_RALLY;
        if (is_rally[k])
            ok[k] = rally(v, parts[k], &scores[k], &rtarget[k]);
    }
    fire(v, &A, parts, scores, np_);
    fire_on_features(v, &F);
    for (k = 0; k < np_; k++) {
        if (is_rally[k] && ok[k]) {
            t = rtarget[k];
            v->markers[t] = v->markers[t] - P->rally.markers_removed > 0 ? v->markers[t] - P->rally.markers_removed
                                                                          : 0;
        }
    }
    /* Sprint displacement comes after all fire (RULES.md section 4). */
    v->s[S_NPEND] = 0;
    for (k = 0; k < np_; k++) {
        u = parts[k];
        if (v->action[u] == A_SPRINT) {
            v->s[S_PEND0 + v->s[S_NPEND]] = u;
            v->g->bonus[v->s[S_NPEND]] = scores[k].sprint_bonus * sprint_increment(v, u);
            v->s[S_NPEND] += 1;
        }
    }
    aa_next_sprint(v);
}

/* Game._sprint_displace (reference/game/engine.py) */
void aa_sprint_displace(V *v, int u, double ang, double d) {
    aa_clamp_step(v, v->dest_x[u], v->dest_y[u], ang, d, &v->dest_x[u], &v->dest_y[u]);
    v->moves[u] = 1;
    EVN(v, E_SPRINT, u, d, v->dest_x[u], v->dest_y[u]);
}

static void finish_phase(V *v);

/* Game._next_sprint (reference/game/engine.py) */
void aa_next_sprint(V *v) {
    int u, face;
    while (v->s[S_NPEND] > 0) {
        u = v->s[S_PEND0];
        if (v->confused[u]) {
            face = roll(v, v->P->call_for_fire.scatter_die);
            EVN(v, E_CONFUSED_DIRECTION, u, face, 1);
            aa_sprint_displace(v, u, v->P->call_for_fire.clock_angle[face], v->g->bonus[0]);
            pending_pop(v);
            continue;
        }
        v->s[S_DECL] = u;
        v->s[S_STAGE] = ST_SPRINT_MOVE;
        v->s[S_CUR] = u / v->C;
        return;
    }
    finish_phase(v);
}

/* ---------------------------------------------------------------------------------- end of a phase */
AA_INLINE int may_merge(V *v, int u, int t) {   /* Game._may_merge (reference/game/engine.py) */
    if ((is_vehicle(v, u) || is_vehicle(v, t)) && !v->P->movement.vehicles_merge)
        return 0;
    return v->kind[t] == v->kind[u] || !v->P->movement.merge_same_kind_only;
}

/* Game._merge (reference/game/engine.py): u joins t: figures, markers and wounds add up; u's played card goes to the
 * discard. */
static void merge(V *v, int u, int t) {
    EVN(v, E_MERGE, u, v->name_base[u], v->name_depth[u], t, v->figures[u], v->figures[t], v->markers[u],
        v->markers[t], v->wounds[u], v->wounds[t]);
    v->figures[t] += v->figures[u];
    v->markers[t] += v->markers[u];
    v->wounds[t] += v->wounds[u];
    v->turn_markers[t] += v->turn_markers[u];
    v->commander[t] = v->commander[t] || v->commander[u];
    if (v->card[u] != NO_CARD)
        aa_discard_unit_card(v, u);
    aa_free_slot(v, u);
}

/* Game._finish_phase (reference/game/engine.py): moves completed, merges, the Joker's initiative, the next
 * Activation phase. */
static void finish_phase(V *v) {
    const aa_params *P = v->P;
    int parts[2];
    int cards[2];
    int np_ = 0, k, u, t, best, side, joker_sides = 0, jside = -1;
    double d, best_d;
    if (v->s[S_ACT] >= 0)
        parts[np_++] = v->s[S_ACT];
    if (v->s[S_REACT] >= 0)
        parts[np_++] = v->s[S_REACT];
    for (k = 0; k < np_; k++) {
        u = parts[k];
        cards[k] = v->card[u];
        if (v->moves[u]) {
            EVN(v, E_COMPLETE_MOVE, u, v->x[u], v->y[u], v->dest_x[u], v->dest_y[u]);
            v->x[u] = v->dest_x[u];
            v->y[u] = v->dest_y[u];
            invalidate_los(v);
        }
    }
    /* Merging (RULES.md section 5): a moved unit whose Destination touches a friendly unit. */
    for (k = 0; k < np_; k++) {
        u = parts[k];
        if (!(v->alive[u] && v->moves[u]))
            continue;
        best = -1;
        best_d = 0.0;
        side = u / v->C;
        for (t = side * v->C; t < (side + 1) * v->C; t++) {
            if (!v->alive[t] || t == u || !may_merge(v, u, t))
                continue;
            d = dist(v->x[t], v->y[t], v->x[u], v->y[u]);
            if (d <= P->movement.merge_contact_cm && (best < 0 || d < best_d)) {
                best = t;
                best_d = d;
            }
        }
        if (best >= 0) {
            merge(v, u, best);
            parts[k] = -1 - u;   /* the slot is free now: later steps skip it (Game keeps the old object) */
        }
    }
    /* Joker: its player seizes the initiative for the next Activation phase. */
    for (k = 0; k < np_; k++) {
        if (cards[k] != NO_CARD && P->tables.card_joker[cards[k]]) {
            u = parts[k] >= 0 ? parts[k] : -1 - parts[k];
            side = u / v->C;
            if (jside != side) {
                joker_sides += 1;
                jside = side;
            }
        }
    }
    if (P->orders.joker_takes_initiative && joker_sides == 1) {
        v->s[S_NEXT_ACT] = jside;
        EVN(v, E_INITIATIVE, jside);
    } else {
        v->s[S_NEXT_ACT] = 1 - v->s[S_ACTIVATING];
    }
    for (k = 0; k < np_; k++) {
        if (parts[k] >= 0) {
            v->acted[parts[k]] = 1;
            aa_clear_scratch(v, parts[k]);
        }
    }
    v->s[S_NPEND] = 0;
    aa_next_activation(v);
}

/* ---------------------------------------------------------------------------------- next activation
 * The end of a phase leads to the next Activation phase, or to Clean-up (aa_cleanup.c) when no unit has
 * orders left; the Orders phase's end comes here too (aa_engine.c). */
/* Game._next_activation (reference/game/engine.py) */
void aa_next_activation(V *v) {
    int o0 = aa_own_ordered(v, 0), o1 = aa_own_ordered(v, 1);
    int p;
    if (!o0 && !o1) {
        aa_cleanup(v);
        return;
    }
    p = v->s[S_NEXT_ACT];
    if (!(p == 1 ? o1 : (p == 0 ? o0 : 0)))
        p = o0 ? 0 : 1;
    v->s[S_ACTIVATING] = p;
    v->s[S_PHASE] += 1;
    v->s[S_ACT] = v->s[S_REACT] = v->s[S_DECL] = -1;
    v->s[S_STAGE] = ST_ACTIVATE;
    v->s[S_CUR] = p;
}
