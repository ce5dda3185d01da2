# GreedyAgent (atomic_africa.agents.greedy) natively, on exact odds.
#
# Every value is the Python agent's canonical expression: an expectation is an exact integer count
# over the face combinations divided once by their number (correctly rounded, as Python's exact
# Fractions give it), then combined with the agent's weights in the same order.
from libc.math cimport INFINITY


# ---------------------------------------------------------------------------------------- odds tables
cdef inline int odds_row(const int* dice) noexcept nogil:
    """First OddsSide of a dice triple (Die values); add action * 2 + posture."""
    return ((((dice[0] - 4) >> 1) * ODDS_DICE + ((dice[1] - 4) >> 1)) * ODDS_DICE
            + ((dice[2] - 4) >> 1)) * (2 * N_ACTIONS)


#: Bytes of the greedy agent's odds tables (the ``odds`` array of atomic_africa.game.native.params).
ODDS_TABLE_BYTES = ODDS_ROWS * sizeof(OddsSide)


def fill_odds_tables(const signed char[::1] table5, unsigned char[::1] out):
    """Fill `out` (ODDS_TABLE_BYTES) with every dice triple x action x posture's score counts for
    Table 5 `table5` (Rules.table5_array, flat): Tables.odds of the native greedy agent."""
    if table5.shape[0] != N_ACTIONS * 2 * 3:
        raise ValueError(f"table5: expected {N_ACTIONS * 2 * 3} values, got {table5.shape[0]}")
    if out.shape[0] != ODDS_TABLE_BYTES:
        raise ValueError(f"out: expected {ODDS_TABLE_BYTES} bytes, got {out.shape[0]}")
    with nogil:
        _fill_odds(&table5[0], <OddsSide*>&out[0])


cdef void _fill_odds(const signed char* table5, OddsSide* o) noexcept nogil:
    cdef OddsSide* s
    cdef int i0, i1, i2, a, p, f0, f1, f2, x, y
    cdef int d[3]
    cdef int32_t h[ODDS_SLOTS][ODDS_SLOTS]
    cdef Scores sc
    memset(o, 0, ODDS_ROWS * sizeof(OddsSide))
    for i0 in range(ODDS_DICE):
        for i1 in range(ODDS_DICE):
            for i2 in range(ODDS_DICE):
                d[0] = 4 + 2 * i0
                d[1] = 4 + 2 * i1
                d[2] = 4 + 2 * i2
                for a in range(N_ACTIONS):
                    for p in range(2):
                        s = o + odds_row(d) + a * 2 + p
                        s.total = d[0] * d[1] * d[2]
                        memset(h, 0, sizeof(h))
                        for f0 in range(1, d[0] + 1):
                            for f1 in range(1, d[1] + 1):
                                for f2 in range(1, d[2] + 1):
                                    action_scores(f0, f1, f2, table5 + (a * 2 + p) * 3, a == A_SPRINT, &sc)
                                    h[sc.attack[0] + 1][sc.attack[1] + 1] += 1
                                    s.att0[sc.attack[0] + 1] += 1
                                    s.att1[sc.attack[1] + 1] += 1
                                    s.defense[sc.defense + 1] += 1
                                    s.rally[sc.rally + 1] += 1
                                    s.spotting[sc.spotting + 1] += 1
                        for x in range(ODDS_SLOTS):
                            for y in range(ODDS_SLOTS):
                                s.att_cum[x + 1][y + 1] = (h[x][y] + s.att_cum[x][y + 1]
                                                           + s.att_cum[x + 1][y] - s.att_cum[x][y])


# ---------------------------------------------------------------------------------------- the view
ctypedef struct GView:             # one decision's facts (the Python agent's _View), on the stack
    V* v
    const AgentParams* ap
    int row[MAX_SLOTS_TOTAL]       # odds_row of each unit's dice after wounds (-1: not yet)
    int cov[MAX_SLOTS_TOTAL]       # cover at each unit's position (-1: not yet)
    double basic[MAX_SLOTS_TOTAL * 2]               # Basic action value by unit and posture
    int8_t basic_done[MAX_SLOTS_TOTAL * 2]


cdef inline const OddsSide* side_of(GView* c, int u, int action, int posture) noexcept nogil:
    cdef int d[3]
    cdef bint shattered
    if c.row[u] < 0:
        wounded_dice(c.v, u, d, &shattered)
        c.row[u] = odds_row(d)
    return c.v.P.tables.odds + c.row[u] + action * 2 + posture


cdef inline bint g_los(GView* c, int a, int b) noexcept nogil:
    """_View.los: the engine's line of sight between a and b (its cache, kept across decisions)."""
    return los(c.v, a, b)


cdef inline int unit_cover(GView* c, int t) noexcept nogil:
    if c.cov[t] < 0:
        c.cov[t] = cover_at(c.v, c.v.x[t], c.v.y[t])
    return c.cov[t]


cdef inline int band_of(V* v, double px, double py, double qx, double qy) noexcept nogil:
    return range_band(dist(px, py, qx, qy), v.P.fire.band_edges_cm, v.P.fire.n_edges)


cdef inline void defense_roll(V* v, int t, int* posture, int* action) noexcept nogil:
    """(posture, action) t rolls its Defense with: its declaration if it acts or reacts in this
    phase and has declared, else the rules' bystander roll."""
    if (t == v.s[S_ACT] or t == v.s[S_REACT]) and v.action[t] >= 0:
        posture[0] = v.posture[t]
        action[0] = v.action[t]
    else:
        posture[0] = v.P.orders.bystander_posture
        action[0] = A_BASIC


cdef inline int cap_left(V* v, int t) noexcept nogil:
    cdef int left = v.P.fire.rules.turn_cap[is_vehicle(v, t)] - v.turn_markers[t]
    return left if left > 0 else 0


# ---------------------------------------------------------------------------------------- counts
# WOUND_QUOTIENT[eff][k] = k // eff: the wounds of beating the damage threshold by k (k <= 25) at
# effective armor eff >= 1 (row ODDS_SLOTS: any larger armor, no wound). Filled once at import.
cdef int WOUND_QUOTIENT[ODDS_SLOTS + 1][ODDS_SLOTS + 1]


cdef void _fill_wound_quotient() noexcept nogil:
    cdef int e, k
    for e in range(1, ODDS_SLOTS + 1):
        for k in range(ODDS_SLOTS + 1):
            WOUND_QUOTIENT[e][k] = k // e


_fill_wound_quotient()


cdef void fire_counts(const FireRules* r, const OddsSide* sh, const OddsSide* tg, int which,
                      int band, int armor, int cover, int ap, bint vehicle, int left,
                      int64_t* M, int64_t* W) noexcept nogil:
    """Sums over all face combinations of min(markers, left) and of wounds: the shooter's attacks
    (which 0: both, one volley; 1: the second only; 2: the first only) against the target's Defense."""
    cdef int S = ODDS_SLOTS, i, j, ds, s, t2, hi, eff, k
    cdef const int* q
    cdef int mk[3]
    cdef int val[3][3]
    cdef int b[4]
    cdef int32_t g[4][4]
    cdef int64_t m, w
    eff = armor + r.cover_bonus[cover] + ap
    if eff < r.armor_floor:
        eff = r.armor_floor
    q = WOUND_QUOTIENT[eff if eff < S else S]
    mk[0] = 0
    mk[1] = r.markers_range[vehicle]
    mk[2] = r.markers_damage[vehicle]
    for i in range(3):
        for j in range(3):
            val[i][j] = imin(cap_markers(mk[i] + mk[j], 0, vehicle, r), left)
    b[0] = 0
    b[1] = imin(band + 2, S)
    b[3] = S
    M[0] = 0
    W[0] = 0
    if which == 0 and sh.att1[0] == sh.total:
        which = 2   # one attack: the joint reduces to the first attack's marginal
    for ds in range(S):
        if tg.defense[ds] == 0:
            continue
        t2 = band + ds - 1           # damage threshold: band + Defense
        hi = t2 if t2 > band else band
        b[2] = imin(hi + 2, S)
        m = 0
        if which == 0:
            for i in range(4):
                for j in range(4):
                    g[i][j] = sh.att_cum[b[i]][b[j]]
            for i in range(3):
                for j in range(3):
                    if val[i][j] != 0:
                        m += <int64_t>(g[i + 1][j + 1] - g[i][j + 1] - g[i + 1][j] + g[i][j]) * val[i][j]
        elif which == 1:
            for j in range(3):
                m += <int64_t>(sh.att_cum[S][b[j + 1]] - sh.att_cum[S][b[j]]) * val[0][j]
        else:
            for i in range(3):
                m += <int64_t>(sh.att_cum[b[i + 1]][S] - sh.att_cum[b[i]][S]) * val[i][0]
        w = 0
        for s in range(b[2], S):
            k = q[s - 1 - t2]
            if which != 1:
                w += <int64_t>sh.att0[s] * k
            if which != 2:
                w += <int64_t>sh.att1[s] * k
        M[0] += m * tg.defense[ds]
        W[0] += w * tg.defense[ds]


cdef inline double dist_value(GView* c, int64_t M, int64_t W, int64_t total) noexcept nogil:
    return (c.ap.marker_value * (<double>M / <double>total)
            + c.ap.wound_value * (<double>W / <double>total))


# ---------------------------------------------------------------------------------------- values
cdef double fire_value(GView* c, int u, int t, int action, int posture, double ox, double oy) noexcept nogil:
    """GreedyAgent.fire_value: u's action in posture at enemy t, shooting from (ox, oy)."""
    cdef V* v = c.v
    cdef int ap = 0, tp, ta
    cdef int64_t M, W
    cdef const OddsSide* sh
    cdef const OddsSide* tg
    if action == A_HEAVY_WEAPON:
        if not hw_eligible(v, u, t):
            return -INFINITY
        ap = hw_ap(v, u, t)
    defense_roll(v, t, &tp, &ta)
    sh = side_of(c, u, action, posture)
    tg = side_of(c, t, ta, tp)
    fire_counts(&v.P.fire.rules, sh, tg, 0, band_of(v, ox, oy, v.x[t], v.y[t]), v.armor[t],
                unit_cover(c, t), ap, is_vehicle(v, t), cap_left(v, t), &M, &W)
    return dist_value(c, M, W, <int64_t>sh.total * tg.total)


cdef double feature_value(GView* c, int u, int f, int posture) noexcept nogil:
    """GreedyAgent.feature_value: expected cover levels knocked off feature f x cover_value."""
    cdef V* v = c.v
    cdef const Params* P = v.P
    cdef const OddsSide* sh = side_of(c, u, A_HEAVY_WEAPON, posture)
    cdef int b = band_of(v, v.x[u], v.y[u], P.tables.feat_x[f], P.tables.feat_y[f])
    cdef int cover = v.g.fcover[f], s, w, att, lv
    cdef int64_t L = 0
    for s in range(1, ODDS_SLOTS):
        if sh.att0[s] == 0:
            continue
        resolve_fire(s - 1, b, P.fire.feature_defense, P.terrain.feat_armor[f], 0, v.hwp_ap[u],
                     False, &P.fire.rules, &w)
        lv = w * P.fire.feature_cover_per_wound
        L += <int64_t>sh.att0[s] * (cover if cover < lv else lv)
    return (<double>L / <double>sh.total) * c.ap.cover_value


cdef double split_part(GView* c, int u, int t, int posture, int k) noexcept nogil:
    """One target's share of Split Fire: k 0 the declared target (the higher Attack), 1 the other."""
    cdef V* v = c.v
    cdef const OddsSide* sh = side_of(c, u, A_SPLIT_FIRE, posture)
    cdef const OddsSide* tg
    cdef int tp, ta
    cdef int64_t M, W
    defense_roll(v, t, &tp, &ta)
    tg = side_of(c, t, ta, tp)
    fire_counts(&v.P.fire.rules, sh, tg, 1 + k, band_of(v, v.x[u], v.y[u], v.x[t], v.y[t]),
                v.armor[t], unit_cover(c, t), 0, is_vehicle(v, t), cap_left(v, t), &M, &W)
    return dist_value(c, M, W, <int64_t>sh.total * tg.total)


cdef double best_split(GView* c, int u, int t1, int posture) noexcept nogil:
    """The best GreedyAgent.split_value(u, a, b) over ordered pairs of u's fire targets (t1 >= 0:
    a = t1 only); 0.0 without a pair. Each share depends on its own target only, so it is taken once."""
    cdef V* v = c.v
    cdef int e = 1 - u // v.C, t, t2
    cdef bint need = v.P.orders.fire_needs_los, seen = False
    cdef double best = 0.0, x
    cdef double decl[MAX_SLOTS_TOTAL]
    cdef double other[MAX_SLOTS_TOTAL]
    cdef int8_t ok[MAX_SLOTS_TOTAL]
    for t in range(e * v.C, (e + 1) * v.C):
        ok[t] = v.alive[t] and (not need or g_los(c, u, t))
        if ok[t]:
            if t1 < 0 or t == t1:
                decl[t] = split_part(c, u, t, posture, 0)
            other[t] = split_part(c, u, t, posture, 1)
    for t in range(e * v.C, (e + 1) * v.C):
        if ok[t] and (t1 < 0 or t == t1):
            for t2 in range(e * v.C, (e + 1) * v.C):
                if t2 != t and ok[t2]:
                    x = decl[t] + other[t2]
                    if not seen or x > best:
                        best = x
                    seen = True
    return best


cdef double rally_value_of(GView* c, int u, int t, int posture) noexcept nogil:
    """GreedyAgent.rally_value_of: P(success) x markers removed x rally_value."""
    cdef V* v = c.v
    cdef const RallyParams* rr = &v.P.rally
    cdef const OddsSide* s = side_of(c, u, A_RALLY, posture)
    cdef int rng, b, first, k
    cdef int64_t n = 0
    cdef double p
    if t == u:
        rng = rr.self_range
        first = 0
    else:
        b = band_of(v, v.x[u], v.y[u], v.x[t], v.y[t])
        first = 0
        if g_los(c, u, t):
            rng = b
        elif v.comms[u]:
            rng = b + rr.comms_range_penalty
        else:
            first = -1
    if first == 0:
        first = rng + v.markers[t] + 2   # success: Rally score r > range + markers, r at slot r + 1
        for k in range(first, ODDS_SLOTS):
            n += s.rally[k]
        p = <double>n / <double>s.total
    else:
        p = 0.0
    return p * <double>imin(rr.markers_removed, v.markers[t]) * c.ap.rally_value


cdef double cff_value(GView* c, int u, int t, int k, int posture) noexcept nogil:
    """GreedyAgent.cff_value: P(impact within the blast radius of t) x the support's attack value."""
    cdef V* v = c.v
    cdef const CallForFireParams* cf = &v.P.call_for_fire
    cdef const OddsSide* sp = side_of(c, u, A_CALL_FOR_FIRE, posture)
    cdef const OddsSide* sh
    cdef const OddsSide* tg
    cdef int side = u // v.C, K = cf.scatter_die, s, dd, off, near, tp, ta
    cdef int64_t n_in = 0, M, W
    cdef double R = cf.asset_blast_cm[side][k], p_in
    for s in range(ODDS_SLOTS):
        if sp.spotting[s] == 0:
            continue
        near = 0
        for dd in range(1, K + 1):
            off = dd - (s - 1)
            if off < 0:
                off = 0
            if <double>off * cf.scatter_increment_cm <= R:
                near += 1
        n_in += <int64_t>sp.spotting[s] * K * near   # every clock face of the direction die
    p_in = <double>n_in / <double>(<int64_t>sp.total * K * K)
    sh = v.P.tables.odds + odds_row(cf.asset_dice[side][k]) + cf.support_action * 2 + cf.support_posture
    defense_roll(v, t, &tp, &ta)
    tg = side_of(c, t, ta, tp)
    fire_counts(&v.P.fire.rules, sh, tg, 0, cf.support_range_band, v.armor[t],
                unit_cover(c, t), cf.asset_ap[side][k], is_vehicle(v, t), cap_left(v, t),
                &M, &W)
    return p_in * dist_value(c, M, W, <int64_t>sh.total * tg.total)


cdef double action_value(GView* c, int u, int action, int posture) noexcept nogil:
    """GreedyAgent.action_value: the best value of declaring (action, posture) over u's targets
    (0.0 without any); the first of equal values, as Python's max."""
    cdef V* v = c.v
    cdef int side = u // v.C, e = 1 - side, C = v.C, t, k, nf, i
    cdef bint need = v.P.orders.fire_needs_los, seen = False
    cdef double best = 0.0, x
    cdef int fs[MAX_FEATURES]
    if action == A_BASIC and c.basic_done[u * 2 + posture]:
        return c.basic[u * 2 + posture]
    if action == A_RALLY:
        for t in range(side * C, (side + 1) * C):
            if v.alive[t] and v.markers[t] > 0:
                x = rally_value_of(c, u, t, posture)
                if not seen or x > best:
                    best = x
                seen = True
        return best
    if action == A_CALL_FOR_FIRE:
        for t in range(e * C, (e + 1) * C):
            if v.alive[t] and g_los(c, u, t):
                for k in range(v.P.call_for_fire.n_assets[side]):
                    x = cff_value(c, u, t, k, posture)
                    if not seen or x > best:
                        best = x
                    seen = True
        return best
    if action == A_SPLIT_FIRE:
        return best_split(c, u, -1, posture)
    for t in range(e * C, (e + 1) * C):
        if v.alive[t] and (not need or g_los(c, u, t)):
            x = fire_value(c, u, t, action, posture, v.x[u], v.y[u])
            if not seen or x > best:
                best = x
            seen = True
    if action == A_HEAVY_WEAPON:
        nf = feature_targets(v, u, fs)
        for i in range(nf):
            best = pmax(best, feature_value(c, u, fs[i], posture))
    if action == A_BASIC:
        c.basic[u * 2 + posture] = best
        c.basic_done[u * 2 + posture] = 1
    return best


cdef double card_value(GView* c, int u, int card) noexcept nogil:
    """GreedyAgent.card_value: u's best Basic fire in the card's posture plus the card's bonus."""
    cdef const Tables* T = &c.v.P.tables
    cdef double base
    if T.card_joker[card]:
        if c.v.markers[u] > 0:
            base = action_value(c, u, A_BASIC, P_DEFENSIVE)
        else:
            base = pmax(action_value(c, u, A_BASIC, P_OFFENSIVE), action_value(c, u, A_BASIC, P_DEFENSIVE))
        return base + 1.0
    base = action_value(c, u, A_BASIC, T.card_posture[card])
    return base + (0.75 if T.card_face[card] else 0.05 * <double>T.card_move[card])


cdef double target_value(GView* c, int u, int t, bint second) noexcept nogil:
    """GreedyAgent._target_value: the value of aiming u's declared action at unit t."""
    cdef V* v = c.v
    cdef int action = v.action[u], posture = v.posture[u]
    if action == A_RALLY:
        return rally_value_of(c, u, t, posture)
    if action == A_CALL_FOR_FIRE:
        return cff_value(c, u, t, v.asset[u] if v.asset[u] > 0 else 0, posture)
    if action == A_SPLIT_FIRE:
        if second:
            return split_part(c, u, v.target[u], posture, 0) + split_part(c, u, t, posture, 1)
        return best_split(c, u, t, posture)
    return fire_value(c, u, t, action, posture, v.x[u], v.y[u])


cdef double move_value(GView* c, int u, int a, int target, double* band_val, int8_t* band_done) noexcept nogil:
    """GreedyAgent._move_values for one MOVE/STAY action: cover at the Destination plus the fire at
    `target` from the In-transit point (-1: none; then the distance to the nearest enemy)."""
    cdef V* v = c.v
    cdef const Params* P = v.P
    cdef int i, b, e = 1 - u // v.C
    cdef double dx, dy, val, near, d, edge, ex, ey, mx, my
    cdef bint seen = False
    if v.s[S_STAGE] == ST_SPRINT_MOVE:
        i = (a - P.base.move) // P.movement.n_fractions
        clamp_step(v, v.dest_x[u], v.dest_y[u], P.movement.dir_angle[i], v.g.bonus[0], &dx, &dy)
    elif a == P.base.stay:
        dx = v.x[u]
        dy = v.y[u]
    else:
        i = a - P.base.move
        clamp_step(v, v.x[u], v.y[u], P.movement.dir_angle[i // P.movement.n_fractions],
                   P.movement.distance_fractions[i % P.movement.n_fractions] * max_move(v, u), &dx, &dy)
    val = c.ap.cover_value * <double>cover_at(v, dx, dy)
    if target >= 0 and v.alive[target]:
        mx = (v.x[u] + dx) / 2
        my = (v.y[u] + dy) / 2
        b = band_of(v, mx, my, v.x[target], v.y[target])
        if not band_done[b]:   # the fire depends on the origin through its range band only
            band_val[b] = fire_value(c, u, target, v.action[u], v.posture[u], mx, my)
            band_done[b] = 1
        return val + band_val[b]
    near = 0.0
    for i in range(e * v.C, (e + 1) * v.C):
        if v.alive[i]:
            ex = v.x[i] - dx
            ey = v.y[i] - dy
            d = sqrt(ex * ex + ey * ey)
            if not seen or d < near:
                near = d
            seen = True
    edge = P.fire.band_edges_cm[0]
    return val - (0.01 * pmax(0.0, near - 2 * edge) + 0.02 * pmax(0.0, edge - near))


# ---------------------------------------------------------------------------------------- decision
cdef int greedy_act(V* v, const AgentParams* ap) noexcept nogil:
    """GreedyAgent.act: the legal action of the highest value, ties to the lowest id; -1 if none is
    legal (or the odds tables are missing)."""
    cdef const Params* P = v.P
    cdef int buf[MAX_LEGAL]
    cdef int m = legal_v(v, buf)
    cdef int st = v.s[S_STAGE], me = v.s[S_CUR], C = v.C, U = v.U, i, a, u = -1, best_a = -1
    cdef int target = -1, k, t
    cdef double x, best = 0.0
    cdef double band_val[MAX_EDGES + 2]
    cdef int8_t band_done[MAX_EDGES + 2]
    cdef GView c
    if m <= 1:
        return buf[0] if m == 1 else -1
    if P.tables.odds == NULL:
        return -1
    c.v = v
    c.ap = ap
    for i in range(U):
        c.row[i] = -1
        c.cov[i] = -1
    memset(c.basic_done, 0, 2 * U)
    memset(band_done, 0, sizeof(band_done))
    if v.s[S_DECL] >= 0:
        u = v.s[S_DECL]
    if st == ST_MOVE and is_fire(v.action[u]) and v.action[u] != A_SPLIT_FIRE \
            and 0 <= v.target[u] < U:
        target = v.target[u]
    for i in range(m):
        a = buf[i]
        if st == ST_ORDERS or st == ST_RESERVE_PICK:
            if a == P.base.end_orders:
                x = -INFINITY
            else:
                k = a - P.base.assign
                x = card_value(&c, me * C + k % C, k // C)
        elif st == ST_ACTIVATE or st == ST_REACT:
            t = me * C + a - P.base.select
            x = card_value(&c, t, v.card[t])
        elif st == ST_DECLARE_ACTION:
            k = a - P.base.declare
            x = action_value(&c, u, k // 2, k % 2)
        elif st == ST_DECLARE_ASSET:
            x = 0.0
            k = 0
            for t in range((1 - u // C) * C, (2 - u // C) * C):
                if v.alive[t] and g_los(&c, u, t):
                    if k == 0:
                        x = cff_value(&c, u, t, a - P.base.asset, v.posture[u])
                    else:
                        x = pmax(x, cff_value(&c, u, t, a - P.base.asset, v.posture[u]))
                    k = 1
        elif st == ST_DECLARE_TARGET or st == ST_DECLARE_TARGET2:
            if a == P.base.no_target:
                x = -INFINITY
            elif a >= P.base.feature:
                x = feature_value(&c, u, a - P.base.feature, v.posture[u])
            else:
                x = target_value(&c, u, a - P.base.target, st == ST_DECLARE_TARGET2)
        elif st == ST_MOVE or st == ST_SPRINT_MOVE:
            x = move_value(&c, u, a, target, band_val, band_done)
        elif st == ST_SPLIT:
            x = 0.0 if a == P.base.end_splits else 1.0
        else:
            x = 0.0
        if best_a < 0 or x > best or (x == best and a < best_a):
            best = x
            best_a = a
    return best_a
