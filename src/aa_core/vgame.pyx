# cython: language_level=3
"""Native game engine: atomic_africa.game.engine.Game ported to C over struct-of-arrays storage.

Every function below mirrors the Game method of the same name (without the underscore); the order of
random draws, of events and of floating-point operations is the same, so the two engines agree bit
for bit (tests/test_vector_parity.py). `Engine` steps many games at once with the GIL released.
"""
from libc.math cimport atan2, cos, sin, sqrt, M_PI
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport realloc
from libc.string cimport memcpy, memmove, memset
from numpy.random cimport bitgen_t

from aa_core.banding cimport range_band
from aa_core.dice cimport shift_die
from aa_core.fire cimport FireRules, cap_markers, predominant_cover, resolve_fire, scatter
from aa_core.geometry cimport terrain_blocked, terrain_cover
from aa_core.rng cimport reject_threshold, roll_faces
from aa_core.scores cimport Scores, action_scores


# ---------------------------------------------------------------------------------------- helpers
cdef inline double pmin(double a, double b) noexcept nogil:
    """Python's min(a, b) (the first of equals)."""
    return b if b < a else a


cdef inline double pmax(double a, double b) noexcept nogil:
    """Python's max(a, b) (the first of equals)."""
    return b if b > a else a


cdef inline int imin(int a, int b) noexcept nogil:
    return b if b < a else a


cdef inline int16_t* pile(V* v, int p, int which) noexcept nogil:
    return v.g.piles + (p * 3 + which) * v.K


cdef inline int32_t* cnt(V* v, int p) noexcept nogil:
    return v.g.counts + p * NC


cdef inline int die_of(V* v, int u, int k) noexcept nogil:
    return v.g.i32[(F_DIE0 + k) * v.U + u]


cdef inline bint is_vehicle(V* v, int u) noexcept nogil:
    return v.kind[u] == K_VEHICLE


cdef inline bint has_orders(V* v, int u) noexcept nogil:
    return v.alive[u] and v.card[u] != NO_CARD and not v.acted[u]


cdef inline bint is_fire(int a) noexcept nogil:
    return a == A_BASIC or a == A_SPRINT or a == A_DIG_IN or a == A_MASS_FIRE or a == A_SPLIT_FIRE \
        or a == A_HEAVY_WEAPON


cdef inline bint optional_target(int a) noexcept nogil:
    return a == A_BASIC or a == A_SPRINT or a == A_DIG_IN


cdef inline bint legal_for(V* v, int c, bint suppressed) noexcept nogil:
    return (not suppressed) or v.P.tables.card_any[c]


# ---------------------------------------------------------------------------------------- events
cdef inline void ev_push(EventBuffer* e, double x) noexcept nogil:
    cdef Py_ssize_t cap
    cdef double* d
    if e.size == e.cap:
        cap = 2 * e.cap + 256
        d = <double*>realloc(e.data, cap * sizeof(double))
        if d == NULL:   # out of memory: the record is lost; the driver sees the flag and raises
            e.failed = True
            return
        e.data = d
        e.cap = cap
    e.data[e.size] = x
    e.size += 1


cdef inline Py_ssize_t ev_open(V* v, int code) noexcept nogil:
    ev_push(v.ev, code)
    ev_push(v.ev, v.s[S_TURN])
    ev_push(v.ev, 0)
    return v.ev.size - 1


cdef inline void ev_close(V* v, Py_ssize_t at) noexcept nogil:
    v.ev.data[at] = <double>(v.ev.size - at - 1)


cdef void _record(V* v, int code, int n, double a0, double a1, double a2, double a3, double a4,
                  double a5, double a6, double a7, double a8, double a9) noexcept nogil:
    cdef double vals[10]
    cdef Py_ssize_t at
    cdef int i
    vals[0] = a0; vals[1] = a1; vals[2] = a2; vals[3] = a3; vals[4] = a4
    vals[5] = a5; vals[6] = a6; vals[7] = a7; vals[8] = a8; vals[9] = a9
    at = ev_open(v, code)
    for i in range(n):
        ev_push(v.ev, vals[i])
    ev_close(v, at)


cdef inline void evn(V* v, int code, int n, double a0=0, double a1=0, double a2=0, double a3=0,
                     double a4=0, double a5=0, double a6=0, double a7=0, double a8=0,
                     double a9=0) noexcept nogil:
    """One event record with the first n of the values a0..a9 (nothing when not recording)."""
    if v.ev != NULL:
        _record(v, code, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)


cdef inline void ev_list(V* v, int code, int p, const int16_t* cards, int n) noexcept nogil:
    cdef Py_ssize_t at
    cdef int i
    if v.ev != NULL:
        at = ev_open(v, code)
        ev_push(v.ev, p)
        for i in range(n):
            ev_push(v.ev, cards[i])
        ev_close(v, at)


# ---------------------------------------------------------------------------------------- dice
cdef inline void roll_many(V* v, const int* sides, int k, int* faces) noexcept nogil:
    """RandomSource.roll_many: k dice in one batched draw."""
    cdef uint32_t s[16]
    cdef uint32_t product = 1
    cdef int i
    for i in range(k):
        s[i] = <uint32_t>sides[i]
        product *= s[i]
    roll_faces(v.g.rng, s, k, reject_threshold(product), faces)


cdef inline int roll(V* v, int sides) noexcept nogil:
    cdef int face
    roll_many(v, &sides, 1, &face)
    return face


cdef void shuffle(V* v, int16_t* cards, int n) noexcept nogil:
    """RandomSource.shuffle in place: Fisher-Yates, one die of i + 1 sides per position."""
    cdef int i, j
    cdef int16_t t
    for i in range(n - 1, 0, -1):
        j = roll(v, i + 1) - 1
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


cdef void wounded_dice(V* v, int u, int* dice, bint* shattered) noexcept nogil:
    cdef const Params* P = v.P
    cdef int k, idx = P.dice.shift_attr[is_vehicle(v, u)], d
    for k in range(3):
        dice[k] = die_of(v, u, k)
    d = shift_die(dice[idx], v.wounds[u], P.dice.ladder, P.dice.n_ladder)
    shattered[0] = d == 0
    dice[idx] = P.dice.shattered_die if d == 0 else d


cdef inline void scores_of(const Params* P, const int* faces, int posture, int action, Scores* sc) noexcept nogil:
    action_scores(faces[0], faces[1], faces[2], P.tables.table5 + (action * 2 + posture) * 3,
                  action == A_SPRINT, sc)


# ---------------------------------------------------------------------------------------- geometry
cdef inline bint blocked(V* v, double ax, double ay, double bx, double by, int skip) noexcept nogil:
    """The sight line A-B is blocked by the terrain as it stands; feature `skip` (-1: none) left out."""
    return terrain_blocked(&v.P.terrain, v.g.fcover, skip, ax, ay, bx, by)


cdef inline int cover_at(V* v, double px, double py) noexcept nogil:
    """Best current cover of the features containing the point."""
    return terrain_cover(&v.P.terrain, v.g.fcover, px, py)


cdef inline void invalidate_los(V* v) noexcept nogil:
    memset(v.g.los, -1, v.U * v.U)


cdef bint los(V* v, int a, int b) noexcept nogil:
    """Game._los_matrix()[a, b]: Start to Start, the segment taken from the lower slot."""
    cdef int lo = a if a < b else b, hi = b if a < b else a
    cdef int8_t* c
    if a == b:
        return True
    c = v.g.los + lo * v.U + hi
    if c[0] < 0:
        c[0] = 0 if blocked(v, v.x[lo], v.y[lo], v.x[hi], v.y[hi], -1) else 1
    return c[0] == 1


cdef inline void points(V* v, int u, double* px, double* py) noexcept nogil:
    """Start, In-transit and Destination points of u in this Activation phase."""
    if (u == v.s[S_ACT] or u == v.s[S_REACT]) and v.moves[u]:
        px[0] = v.x[u]
        py[0] = v.y[u]
        px[1] = (v.x[u] + v.dest_x[u]) / 2
        py[1] = (v.y[u] + v.dest_y[u]) / 2
        px[2] = v.dest_x[u]
        py[2] = v.dest_y[u]
    else:
        px[0] = px[1] = px[2] = v.x[u]
        py[0] = py[1] = py[2] = v.y[u]


cdef inline double dist(double ax, double ay, double bx, double by) noexcept nogil:
    cdef double dx = ax - bx, dy = ay - by
    return sqrt(dx * dx + dy * dy)


cdef int band(V* v, int a, int b) noexcept nogil:
    cdef double pax[3], pay[3], pbx[3], pby[3]
    points(v, a, pax, pay)
    points(v, b, pbx, pby)
    return range_band(dist(pax[1], pay[1], pbx[1], pby[1]), v.P.fire.band_edges_cm, v.P.fire.n_edges)


cdef void clamp_step(V* v, double x, double y, double ang, double d, double* ox, double* oy) noexcept nogil:
    """End of a straight move from (x, y), shortened so that it stays on the table."""
    cdef double dx = d * sin(ang), dy = d * cos(ang), t = 1.0
    cdef double W = v.P.table.width_cm, H = v.P.table.height_cm
    if dx > 0 and x + dx > W:
        t = pmin(t, (W - x) / dx)
    elif dx < 0 and x + dx < 0:
        t = pmin(t, -x / dx)
    if dy > 0 and y + dy > H:
        t = pmin(t, (H - y) / dy)
    elif dy < 0 and y + dy < 0:
        t = pmin(t, -y / dy)
    t = pmax(t, 0.0)
    ox[0] = pmin(pmax(x + t * dx, 0.0), W)
    oy[0] = pmin(pmax(y + t * dy, 0.0), H)


# ---------------------------------------------------------------------------------------- units
cdef void clear_scratch(V* v, int u) noexcept nogil:
    v.action[u] = v.posture[u] = v.target[u] = v.target2[u] = v.asset[u] = -1
    v.aim_x[u] = v.aim_y[u] = 0.0
    v.dest_x[u] = v.x[u]
    v.dest_y[u] = v.y[u]
    v.moves[u] = 0
    v.confused[u] = 0


cdef void free_slot(V* v, int u) noexcept nogil:
    """Game._free_slot: the slot back to Unit(uid, side) defaults."""
    cdef int f, U = v.U
    for f in range(NI8):
        v.g.i8[f * U + u] = 0
    for f in range(NI32):
        v.g.i32[f * U + u] = 0
    for f in range(NF64):
        v.g.f64[f * U + u] = 0.0
    v.name_base[u] = -1
    v.armor[u] = 1
    v.card[u] = NO_CARD
    v.action[u] = v.posture[u] = v.target[u] = v.target2[u] = v.asset[u] = -1
    invalidate_los(v)


cdef void copy_unit(V* v, int src, int dst) noexcept nogil:
    cdef int f, U = v.U
    for f in range(NI8):
        v.g.i8[f * U + dst] = v.g.i8[f * U + src]
    for f in range(NI32):
        v.g.i32[f * U + dst] = v.g.i32[f * U + src]
    for f in range(NF64):
        v.g.f64[f * U + dst] = v.g.f64[f * U + src]


cdef int side_count(V* v, int side) noexcept nogil:
    cdef int u, n = 0
    for u in range(side * v.C, (side + 1) * v.C):
        n += v.alive[u]
    return n


cdef int side_figures(V* v, int side) noexcept nogil:
    cdef int u, n = 0
    for u in range(side * v.C, (side + 1) * v.C):
        if v.alive[u]:
            n += v.figures[u]
    return n


cdef bint own_ordered(V* v, int side) noexcept nogil:
    cdef int u
    for u in range(side * v.C, (side + 1) * v.C):
        if has_orders(v, u):
            return True
    return False


cdef inline double increment(V* v, int u) noexcept nogil:
    cdef const MovementParams* m = &v.P.movement
    return m.vehicle_increment_cm if is_vehicle(v, u) else m.increment_cm


cdef inline double sprint_increment(V* v, int u) noexcept nogil:
    cdef const MovementParams* m = &v.P.movement
    return m.vehicle_sprint_increment_cm if is_vehicle(v, u) else m.sprint_increment_cm


cdef inline double max_move(V* v, int u) noexcept nogil:
    cdef int value = (v.P.movement.sprint_card_value if v.action[u] == A_SPRINT
                      else v.P.tables.card_move[v.card[u]])
    return <double>(value * v.P.movement.basic_move_per_value) * increment(v, u)


# ---------------------------------------------------------------------------------------- targets
cdef inline bint hw_eligible(V* v, int u, int t) noexcept nogil:
    return v.hwp[u] if is_vehicle(v, t) else v.hwd[u]


cdef int enemy_targets(V* v, int u, bint need_los, bint heavy_weapon, int* out) noexcept nogil:
    """Live enemy units u may aim at (in view if need_los; fit for its heavy weapon if
    heavy_weapon), into out unless NULL; returns their number."""
    cdef int t, n = 0, e = 1 - u // v.C
    for t in range(e * v.C, (e + 1) * v.C):
        if v.alive[t] and (not need_los or los(v, u, t)) and (not heavy_weapon or hw_eligible(v, u, t)):
            if out != NULL:
                out[n] = t
            n += 1
    return n


cdef inline int fire_targets(V* v, int u, int* out) noexcept nogil:
    return enemy_targets(v, u, v.P.orders.fire_needs_los, False, out)


cdef inline int hw_ap(V* v, int u, int t) noexcept nogil:
    return v.hwp_ap[u] if is_vehicle(v, t) else v.hwd_ap[u]


cdef inline int hw_targets(V* v, int u, int* out) noexcept nogil:
    return enemy_targets(v, u, v.P.orders.fire_needs_los, True, out)


cdef int feature_targets(V* v, int u, int* out) noexcept nogil:
    """Game._feature_targets: features u's point-target heavy weapon may aim at (armor, cover left,
    in view from u if fire needs LOS, the feature itself not blocking); into out unless NULL."""
    cdef const Params* P = v.P
    cdef int f, n = 0
    if not v.hwp[u]:
        return 0
    for f in range(P.terrain.n_feat):
        if P.terrain.feat_armor[f] > 0 and v.g.fcover[f] > 0 and (
                not P.orders.fire_needs_los
                or not blocked(v, v.x[u], v.y[u], P.tables.feat_x[f], P.tables.feat_y[f], f)):
            if out != NULL:
                out[n] = f
            n += 1
    return n


cdef int rally_targets(V* v, int u, int* out) noexcept nogil:
    cdef int t, n = 0, side = u // v.C
    cdef bint ok
    for t in range(side * v.C, (side + 1) * v.C):
        if not v.alive[t] or v.markers[t] < 1:
            continue
        ok = t == u or ((v.markers[u] < v.markers[t] or v.commander[u]) and (v.comms[u] or los(v, u, t)))
        if ok:
            if out != NULL:
                out[n] = t
            n += 1
    return n


cdef inline int cff_targets(V* v, int u, int* out) noexcept nogil:
    # a Call for Fire target is always one the spotter sees, whatever fire_needs_los says
    return enemy_targets(v, u, True, False, out)


cdef bint special_ok(V* v, int u, int a) noexcept nogil:
    cdef int k = v.kind[u]
    # light infantry is infantry (RULES.md sections 1 and 4): only vehicles are excluded
    if (a == A_DIG_IN or a == A_MASS_FIRE or a == A_SPLIT_FIRE or a == A_CALL_FOR_FIRE) \
            and k == K_VEHICLE:
        return False
    if a == A_DIG_IN:
        return True
    if a == A_MASS_FIRE:
        return fire_targets(v, u, NULL) > 0
    if a == A_SPLIT_FIRE:
        return fire_targets(v, u, NULL) >= 2
    if a == A_HEAVY_WEAPON:
        return (v.hwd[u] or v.hwp[u]) and (hw_targets(v, u, NULL) > 0 or feature_targets(v, u, NULL) > 0)
    if a == A_RALLY:
        return rally_targets(v, u, NULL) > 0
    if a == A_CALL_FOR_FIRE:
        return v.spotter[u] and v.P.call_for_fire.n_assets[u // v.C] > 0 and cff_targets(v, u, NULL) > 0
    if a == A_SPRINT:
        return k == K_LIGHT_INFANTRY or k == K_VEHICLE
    return a == A_BASIC


cdef int action_options(V* v, int u, int* acts, int* posts) noexcept nogil:
    """Legal (action, posture) pairs for u's revealed card, in Game._action_options' order."""
    cdef int c = v.card[u], a, p, n = 0, np_
    cdef int ps[2]
    if v.P.tables.card_joker[c]:
        if v.markers[u] > 0:
            ps[0] = P_DEFENSIVE
            np_ = 1
        else:
            ps[0] = P_OFFENSIVE
            ps[1] = P_DEFENSIVE
            np_ = 2
        for a in range(N_ACTIONS):
            if special_ok(v, u, a):
                for p in range(np_):
                    acts[n] = a
                    posts[n] = ps[p]
                    n += 1
        return n
    p = v.P.tables.card_posture[c]
    if v.P.tables.card_face[c]:
        if v.confused[u]:
            acts[0] = A_SPRINT if v.kind[u] == K_VEHICLE else A_DIG_IN
            posts[0] = p
            return 1
        for a in range(1, N_ACTIONS):
            if special_ok(v, u, a):
                acts[n] = a
                posts[n] = p
                n += 1
        return n
    acts[0] = A_BASIC
    posts[0] = p
    return 1


cdef inline int max_orders(int n_sup, int n_free, int n_any, int n_off) noexcept nogil:
    cdef int sup = imin(n_sup, n_any)
    return sup + imin(n_free, n_off + n_any - sup)


cdef int orders_pairs(V* v, int side, int* out) noexcept nogil:
    """Game._orders_pairs as action ids (ASSIGN card x own slot); returns their number."""
    cdef const Params* P = v.P
    cdef int16_t* hand = pile(v, side, PILE_HAND)
    cdef int nh = cnt(v, side)[C_HAND]
    cdef int u, i, c, n = 0, n_sup = 0, n_needy = 0, n_any = 0, n_free, n_off, best, sp, an
    cdef bint ok[2][2]
    for u in range(side * v.C, (side + 1) * v.C):
        if v.alive[u] and v.card[u] == NO_CARD and not v.acted[u]:
            n_needy += 1
            n_sup += v.markers[u] > 0
    if n_needy == 0 or nh == 0:
        return 0
    n_free = n_needy - n_sup
    for i in range(nh):
        n_any += P.tables.card_any[hand[i]]
    n_off = nh - n_any
    best = max_orders(n_sup, n_free, n_any, n_off)
    for sp in range(2):
        for an in range(2):
            ok[sp][an] = (an or not sp) and max_orders(n_sup - sp, n_free - (1 - sp), n_any - an,
                                                       n_off - (1 - an)) == best - 1
    for u in range(side * v.C, (side + 1) * v.C):
        if v.alive[u] and v.card[u] == NO_CARD and not v.acted[u]:
            sp = v.markers[u] > 0
            for i in range(nh):
                c = hand[i]
                if ok[sp][P.tables.card_any[c]]:
                    if out != NULL:
                        out[n] = P.base.assign + c * v.C + (u - side * v.C)
                    n += 1
    return n


# ---------------------------------------------------------------------------------------- legal actions
cdef int legal_v(V* v, int* out) noexcept nogil:
    cdef const Params* P = v.P
    cdef int st = v.s[S_STAGE], cur = v.s[S_CUR], C = v.C, n = 0, u, k, i, c, a, t
    cdef int acts[2 * N_ACTIONS]
    cdef int posts[2 * N_ACTIONS]
    cdef int ts[MAX_TARGETS]
    cdef bint sup
    cdef int16_t* hand
    if st == ST_OVER:
        return 0
    if st == ST_ORDERS:
        n = orders_pairs(v, cur, out)
        if n == 0:
            out[0] = P.base.end_orders
            n = 1
        return n
    if st == ST_ACTIVATE or st == ST_REACT:
        for u in range(cur * C, (cur + 1) * C):
            if has_orders(v, u):
                out[n] = P.base.select + u - cur * C
                n += 1
        return n
    u = v.s[S_DECL]
    if st == ST_RESERVE_PICK:
        sup = v.markers[u] > 0
        hand = pile(v, u // C, PILE_HAND)
        for i in range(cnt(v, u // C)[C_HAND]):
            c = hand[i]
            if legal_for(v, c, sup):
                out[n] = P.base.assign + c * C + u % C
                n += 1
        return n
    if st == ST_DECLARE_ACTION:
        k = action_options(v, u, acts, posts)
        for i in range(k):
            out[i] = P.base.declare + acts[i] * 2 + posts[i]
        return k
    if st == ST_DECLARE_ASSET:
        for i in range(P.call_for_fire.n_assets[u // C]):
            out[i] = P.base.asset + i
        return P.call_for_fire.n_assets[u // C]
    if st == ST_DECLARE_TARGET:
        a = v.action[u]
        if a == A_HEAVY_WEAPON:
            k = hw_targets(v, u, ts)
        elif a == A_RALLY:
            k = rally_targets(v, u, ts)
        elif a == A_CALL_FOR_FIRE:
            k = cff_targets(v, u, ts)
        else:
            k = fire_targets(v, u, ts)
        for i in range(k):
            out[i] = P.base.target + ts[i]
        if a == A_HEAVY_WEAPON:
            n = feature_targets(v, u, ts)
            for i in range(n):
                out[k + i] = P.base.feature + ts[i]
            k += n
        if optional_target(a):
            out[k] = P.base.no_target
            k += 1
        return k
    if st == ST_DECLARE_TARGET2:
        k = fire_targets(v, u, ts)
        for i in range(k):
            if ts[i] != v.target[u]:
                out[n] = P.base.target + ts[i]
                n += 1
        return n
    if st == ST_MOVE:
        if max_move(v, u) <= 0:
            out[0] = P.base.stay
            return 1
        for i in range(P.movement.directions * P.movement.n_fractions):
            out[i] = P.base.move + i
        out[P.movement.directions * P.movement.n_fractions] = P.base.stay
        return P.movement.directions * P.movement.n_fractions + 1
    if st == ST_SPRINT_MOVE:
        for i in range(P.movement.directions):
            out[i] = P.base.move + i * P.movement.n_fractions + P.movement.n_fractions - 1
        return P.movement.directions
    if st == ST_SPLIT:
        for u in range(cur * C, (cur + 1) * C):
            if v.alive[u] and v.figures[u] >= P.cleanup.split_min_figures and not v.split_done[u]:
                out[n] = P.base.split + u - cur * C
                n += 1
        out[n] = P.base.end_splits
        return n + 1
    return 0


cdef int legal_actions(const Params* P, Game* g, int* out) noexcept nogil:
    """Legal action ids of the player to move (unsorted) into out (>= n_actions ints); their number."""
    cdef V v
    make_view(P, g, &v)
    return legal_v(&v, out)


cdef bint is_legal(const Params* P, Game* g, int a) noexcept nogil:
    """Whether action id a is legal now."""
    cdef int buf[MAX_LEGAL]
    cdef int i, n = legal_actions(P, g, buf)
    for i in range(n):
        if buf[i] == a:
            return True
    return False


# ---------------------------------------------------------------------------------------- orders phase
cdef void reshuffle(V* v, int p, int n) noexcept nogil:
    """The empty deck becomes the first n cards of the discard pile, shuffled; the discard pile keeps
    the cards after them (cards a confused draw has shown, Game keeps them aside until it ends)."""
    cdef int32_t* c = cnt(v, p)
    cdef int16_t* deck = pile(v, p, PILE_DECK)
    cdef int16_t* dis = pile(v, p, PILE_DISCARD)
    memcpy(deck, dis, n * sizeof(int16_t))
    memmove(dis, dis + n, (c[C_DISCARD] - n) * sizeof(int16_t))
    c[C_DECK] = n
    c[C_DISCARD] -= n
    shuffle(v, deck, n)
    ev_list(v, E_RESHUFFLE, p, deck, n)


cdef int draw(V* v, int p) noexcept nogil:
    cdef int32_t* c = cnt(v, p)
    if c[C_DECK] == 0:
        if c[C_DISCARD] == 0:
            return NO_CARD
        reshuffle(v, p, c[C_DISCARD])
    c[C_DECK] -= 1
    return pile(v, p, PILE_DECK)[c[C_DECK]]


cdef inline void discard(V* v, int p, int card) noexcept nogil:
    cdef int32_t* c = cnt(v, p)
    pile(v, p, PILE_DISCARD)[c[C_DISCARD]] = <int16_t>card
    c[C_DISCARD] += 1


cdef void hand_remove(V* v, int p, int card) noexcept nogil:
    cdef int16_t* hand = pile(v, p, PILE_HAND)
    cdef int32_t* c = cnt(v, p)
    cdef int i, j
    for i in range(c[C_HAND]):
        if hand[i] == card:
            for j in range(i, c[C_HAND] - 1):
                hand[j] = hand[j + 1]
            c[C_HAND] -= 1
            return


cdef int hand_units(V* v, int side) noexcept nogil:
    """Units of a side on the table that add a card to its hand (Game.hand_size, hand_units "turn")."""
    cdef int u, n = 0
    for u in range(side * v.C, (side + 1) * v.C):
        if v.alive[u] and (v.P.orders.attached_add_cards or not v.attached[u]):
            n += 1
    return n


cdef void begin_turn(V* v) noexcept nogil:
    cdef const Params* P = v.P
    cdef int p, n, k, c, first
    cdef int16_t* hand
    cdef int32_t* cn
    cdef Py_ssize_t at = 0
    v.s[S_TURN] += 1
    v.s[S_FIRST] = (v.s[S_TURN] - 1) % 2 if P.orders.first_player_alternates else 0
    v.s[S_NEXT_ACT] = v.s[S_FIRST]
    for p in range(2):
        n = (P.orders.hand_fixed[p] if P.orders.hand_fixed[p] >= 0
             else hand_units(v, p) + P.orders.draw_bonus[p])
        hand = pile(v, p, PILE_HAND)
        cn = cnt(v, p)
        first = cn[C_HAND]
        for k in range(n):
            c = draw(v, p)
            if c == NO_CARD:
                break
            hand[cn[C_HAND]] = <int16_t>c
            cn[C_HAND] += 1
        ev_list(v, E_DRAW, p, hand + first, cn[C_HAND] - first)
    v.s[S_STAGE] = ST_ORDERS
    v.s[S_STEP] = 0
    orders_next(v)


cdef bint next_player_with(V* v, int stage) noexcept nogil:
    """Game._next_player_with: give `stage` (ST_ORDERS or ST_SPLIT) to the first player, in turn
    order from s[S_STEP], with work in it; False once both are done. A player skipped in the
    Orders phase logs orders_done."""
    cdef int p
    cdef bint work
    while v.s[S_STEP] < 2:
        p = v.s[S_FIRST] if v.s[S_STEP] == 0 else 1 - v.s[S_FIRST]
        work = orders_pairs(v, p, NULL) > 0 if stage == ST_ORDERS else has_splittable(v, p)
        if work:
            v.s[S_STAGE] = stage
            v.s[S_CUR] = p
            return True
        if stage == ST_ORDERS:
            evn(v, E_ORDERS_DONE, 2, p, cnt(v, p)[C_HAND])
        v.s[S_STEP] += 1
    return False


cdef void orders_next(V* v) noexcept nogil:
    if not next_player_with(v, ST_ORDERS):
        next_activation(v)


cdef void assign(V* v, int card, int u) noexcept nogil:
    hand_remove(v, u // v.C, card)
    v.card[u] = card
    v.revealed[u] = 0
    evn(v, E_ASSIGN, 3, u // v.C, u, card)


# ---------------------------------------------------------------------------------------- activation
cdef void next_activation(V* v) noexcept nogil:
    cdef bint o0 = own_ordered(v, 0), o1 = own_ordered(v, 1)
    cdef int p
    if not o0 and not o1:
        cleanup(v)
        return
    p = v.s[S_NEXT_ACT]
    if not (o1 if p == 1 else (o0 if p == 0 else False)):
        p = 0 if o0 else 1
    v.s[S_ACTIVATING] = p
    v.s[S_PHASE] += 1
    v.s[S_ACT] = v.s[S_REACT] = v.s[S_DECL] = -1
    v.s[S_STAGE] = ST_ACTIVATE
    v.s[S_CUR] = p


cdef void begin_declare(V* v, int u) noexcept nogil:
    cdef int acts[2 * N_ACTIONS]
    cdef int posts[2 * N_ACTIONS]
    v.s[S_DECL] = u
    if action_options(v, u, acts, posts) == 1:
        set_action(v, u, acts[0], posts[0])
    else:
        v.s[S_STAGE] = ST_DECLARE_ACTION
        v.s[S_CUR] = u // v.C


cdef void set_action(V* v, int u, int a, int p) noexcept nogil:
    v.action[u] = a
    v.posture[u] = p
    evn(v, E_DECLARE, 4, u, a, p, v.confused[u])
    v.s[S_CUR] = u // v.C
    if optional_target(a) and fire_targets(v, u, NULL) == 0:
        v.target[u] = -1
        after_targets(v, u)
    elif a == A_CALL_FOR_FIRE and v.P.call_for_fire.n_assets[u // v.C] > 1:
        v.s[S_STAGE] = ST_DECLARE_ASSET
    else:
        if a == A_CALL_FOR_FIRE:
            v.asset[u] = 0
        v.s[S_STAGE] = ST_DECLARE_TARGET


cdef void after_targets(V* v, int u) noexcept nogil:
    evn(v, E_TARGETS, 4, u, v.target[u], v.target2[u], v.asset[u])
    if u == v.s[S_ACT]:
        begin_reaction(v)
    else:
        begin_movement(v)


cdef void begin_reaction(V* v) noexcept nogil:
    cdef int q = 1 - v.s[S_ACTIVATING], a = v.s[S_ACT], t = -1, i
    cdef bint sup
    cdef int16_t* hand
    if own_ordered(v, q):
        v.s[S_STAGE] = ST_REACT
        v.s[S_CUR] = q
        return
    if is_fire(v.action[a]) and 0 <= v.target[a] < v.U:
        t = v.target[a]
    if t < 0 or not v.alive[t] or v.card[t] != NO_CARD or v.acted[t]:
        evn(v, E_NO_REACTION, 2, q, -1)
        begin_movement(v)
        return
    sup = v.markers[t] > 0
    hand = pile(v, q, PILE_HAND)
    for i in range(cnt(v, q)[C_HAND]):
        if legal_for(v, hand[i], sup):
            v.s[S_DECL] = t
            v.s[S_STAGE] = ST_RESERVE_PICK
            v.s[S_CUR] = q
            return
    confused_draw(v, t)


cdef bint any_legal(V* v, int side, bint sup, int n_discard) noexcept nogil:
    """A card legal for a unit (suppressed or not) among the deck and the first n_discard cards of
    the discard pile."""
    cdef int16_t* deck = pile(v, side, PILE_DECK)
    cdef int16_t* dis = pile(v, side, PILE_DISCARD)
    cdef int i
    for i in range(cnt(v, side)[C_DECK]):
        if legal_for(v, deck[i], sup):
            return True
    for i in range(n_discard):
        if legal_for(v, dis[i], sup):
            return True
    return False


cdef void confused_draw(V* v, int t) noexcept nogil:
    """RULES.md section 6: draw, show and discard illegal cards until a legal one comes; it stops
    only when no legal card is left in the deck and the discard pile together. The shown cards lie
    after the n0 older discards, and a reshuffle during the draw takes only those (as Game, which
    keeps the shown cards aside until the draw ends)."""
    cdef int side = t // v.C, c
    cdef bint sup = v.markers[t] > 0
    cdef int32_t* cn = cnt(v, side)
    cdef int n0 = cn[C_DISCARD]
    while any_legal(v, side, sup, n0):
        if cn[C_DECK] == 0:
            reshuffle(v, side, n0)
            n0 = 0
        cn[C_DECK] -= 1
        c = pile(v, side, PILE_DECK)[cn[C_DECK]]
        if legal_for(v, c, sup):
            v.card[t] = c
            v.revealed[t] = 1
            v.confused[t] = 1
            v.s[S_REACT] = t
            evn(v, E_CONFUSED, 3, side, t, c)
            begin_declare(v, t)
            return
        discard(v, side, c)
        evn(v, E_CONFUSED_DRAW, 3, side, t, c)
    evn(v, E_NO_REACTION, 2, side, t)
    begin_movement(v)


# ---------------------------------------------------------------------------------------- movement
cdef void place_destination(V* v, int u, double ang, double d) noexcept nogil:
    clamp_step(v, v.x[u], v.y[u], ang, d, &v.dest_x[u], &v.dest_y[u])
    v.moves[u] = 1
    evn(v, E_MOVE, 7, u, v.x[u], v.y[u], v.dest_x[u], v.dest_y[u], (v.x[u] + v.dest_x[u]) / 2,
        (v.y[u] + v.dest_y[u]) / 2)


cdef inline void pending_pop(V* v) noexcept nogil:
    v.s[S_PEND0] = v.s[S_PEND1]
    v.g.bonus[0] = v.g.bonus[1]
    v.s[S_NPEND] -= 1


cdef void begin_movement(V* v) noexcept nogil:
    cdef int k, u
    v.s[S_NPEND] = 0
    for k in range(2):
        u = v.s[S_ACT] if k == 0 else v.s[S_REACT]
        if u < 0:
            continue
        v.dest_x[u] = v.x[u]
        v.dest_y[u] = v.y[u]
        v.moves[u] = 0
        if v.action[u] == A_BASIC or v.action[u] == A_SPRINT:
            v.s[S_PEND0 + v.s[S_NPEND]] = u
            v.s[S_NPEND] += 1
    next_move(v)


cdef void next_move(V* v) noexcept nogil:
    cdef int u, face
    while v.s[S_NPEND] > 0:
        u = v.s[S_PEND0]
        if v.confused[u]:
            face = roll(v, v.P.call_for_fire.scatter_die)
            evn(v, E_CONFUSED_DIRECTION, 3, u, face, 0)
            place_destination(v, u, v.P.call_for_fire.clock_angle[face], max_move(v, u))
            pending_pop(v)
            continue
        v.s[S_DECL] = u
        v.s[S_STAGE] = ST_MOVE
        v.s[S_CUR] = u // v.C
        return
    resolve(v)


# ---------------------------------------------------------------------------------------- resolution
ctypedef struct Attacks:
    int n
    int src[MAX_ATTACKS]
    int tgt[MAX_ATTACKS]
    int att[MAX_ATTACKS]
    int band[MAX_ATTACKS]
    int ap[MAX_ATTACKS]


cdef inline void push_attack(Attacks* A, int src, int tgt, int att, int b, int ap) noexcept nogil:
    if A.n < MAX_ATTACKS:
        A.src[A.n] = src
        A.tgt[A.n] = tgt
        A.att[A.n] = att
        A.band[A.n] = b
        A.ap[A.n] = ap
        A.n += 1


cdef void push_scores(V* v, const Scores* sc) noexcept nogil:
    ev_push(v.ev, sc.n_attacks)
    ev_push(v.ev, sc.attack[0])
    ev_push(v.ev, sc.attack[1])
    ev_push(v.ev, sc.defense)
    ev_push(v.ev, sc.rally)
    ev_push(v.ev, sc.spotting)
    ev_push(v.ev, sc.sprint_bonus)


cdef void roll_unit(V* v, int u, int posture, int action, int code, Scores* sc) noexcept nogil:
    cdef int dice[3]
    cdef int faces[3]
    cdef bint shattered
    cdef int k
    cdef Py_ssize_t at
    wounded_dice(v, u, dice, &shattered)
    roll_many(v, dice, 3, faces)
    scores_of(v.P, faces, posture, action, sc)
    if v.ev != NULL:
        at = ev_open(v, code)
        ev_push(v.ev, u)
        for k in range(3):
            ev_push(v.ev, dice[k])
        for k in range(3):
            ev_push(v.ev, faces[k])
        ev_push(v.ev, shattered)
        ev_push(v.ev, action)
        ev_push(v.ev, posture)
        push_scores(v, sc)
        ev_close(v, at)


cdef void call_for_fire(V* v, int u, const Scores* sc, Attacks* A) noexcept nogil:
    cdef const Params* P = v.P
    cdef int side = u // v.C, k = v.asset[u], t, j
    cdef int sd[2]
    cdef int cf[2]
    cdef int faces[3]
    cdef double dx, dy, ix, iy, r2 = P.call_for_fire.asset_r2[side][k]
    cdef double px[3], py[3]
    cdef Scores ssc
    sd[0] = sd[1] = P.call_for_fire.scatter_die
    roll_many(v, sd, 2, cf)
    scatter(cf[0], cf[1], sc.spotting, P.call_for_fire.scatter_die, P.call_for_fire.scatter_increment_cm,
            P.call_for_fire.clock_zero_rad, P.call_for_fire.clockwise, &dx, &dy)
    ix = v.aim_x[u] + dx
    iy = v.aim_y[u] + dy
    evn(v, E_SCATTER, 10, u, k, v.aim_x[u], v.aim_y[u], cf[0], cf[1], sc.spotting, cf[1] - sc.spotting < 0, ix, iy)
    roll_many(v, P.call_for_fire.asset_dice[side][k], 3, faces)
    scores_of(P, faces, P.call_for_fire.support_posture, P.call_for_fire.support_action, &ssc)
    evn(v, E_SUPPORT_ROLL, 6, u, k, faces[0], faces[1], faces[2], ssc.attack[ssc.n_attacks - 1])
    for t in range(v.U):
        if not v.alive[t] or (t // v.C == side and not P.call_for_fire.blast_hits_friends):
            continue
        points(v, t, px, py)
        for j in range(3):
            if (px[j] - ix) * (px[j] - ix) + (py[j] - iy) * (py[j] - iy) <= r2:
                push_attack(A, -1 - k, t, ssc.attack[ssc.n_attacks - 1], P.call_for_fire.support_range_band,
                            P.call_for_fire.asset_ap[side][k])
                break


cdef bint rally(V* v, int u, const Scores* sc, int* target) noexcept nogil:
    cdef const Params* P = v.P
    cdef int t = v.target[u], rng
    cdef bint clear, ok
    cdef double pax[3], pay[3], pbx[3], pby[3]
    if t == u:
        rng = P.rally.self_range
        clear = True
    else:
        points(v, u, pax, pay)
        points(v, t, pbx, pby)
        rng = range_band(dist(pax[1], pay[1], pbx[1], pby[1]), P.fire.band_edges_cm, P.fire.n_edges)
        clear = not blocked(v, pax[1], pay[1], pbx[1], pby[1], -1)
        if not clear and v.comms[u]:
            rng += P.rally.comms_range_penalty
    ok = (clear or v.comms[u]) and sc.rally > rng + v.markers[t]
    evn(v, E_RALLY, 7, u, t, sc.rally, rng, v.markers[t], clear, ok)
    target[0] = t
    return ok


cdef void fire(V* v, Attacks* A, const int* parts, const Scores* scores, int n_parts) noexcept nogil:
    cdef const Params* P = v.P
    cdef int targets[MAX_ATTACKS]
    cdef int defense[MAX_ATTACKS]
    cdef int cover[MAX_ATTACKS]
    cdef int mk[MAX_ATTACKS]
    cdef int wd[MAX_ATTACKS]
    cdef int nt = 0, i, j, t, k, m, w, c0, c1, c2
    cdef int index[MAX_TARGETS]
    cdef double px[3], py[3]
    cdef Scores sc
    cdef bint found, veh
    if A.n == 0:
        return
    for t in range(v.U):
        index[t] = -1
    for i in range(A.n):
        index[A.tgt[i]] = 0
    for t in range(v.U):
        if index[t] == 0:
            index[t] = nt
            targets[nt] = t
            nt += 1
    for i in range(nt):
        t = targets[i]
        found = False
        for k in range(n_parts):
            if parts[k] == t:
                defense[i] = scores[k].defense
                found = True
        if not found:
            roll_unit(v, t, P.orders.bystander_posture, A_BASIC, E_BYSTANDER_ROLL, &sc)
            defense[i] = sc.defense
    for i in range(nt):
        points(v, targets[i], px, py)
        c0 = cover_at(v, px[0], py[0])
        c1 = cover_at(v, px[1], py[1])
        c2 = cover_at(v, px[2], py[2])
        cover[i] = predominant_cover(c0, c1, c2)
        mk[i] = 0
        wd[i] = 0
    for j in range(A.n):
        i = index[A.tgt[j]]
        t = targets[i]
        veh = is_vehicle(v, t)
        m = resolve_fire(A.att[j], A.band[j], defense[i], v.armor[t], cover[i], A.ap[j], veh, &P.fire.rules,
                         &w)
        mk[i] += m
        wd[i] += w
        evn(v, E_FIRE, 10, A.src[j], t, A.att[j], A.band[j], defense[i], v.armor[t], cover[i], A.ap[j], m, w)
    for i in range(nt):
        t = targets[i]
        m = cap_markers(mk[i], v.turn_markers[t], is_vehicle(v, t), &P.fire.rules)
        v.markers[t] += m
        v.turn_markers[t] += m
        v.wounds[t] += wd[i]
        evn(v, E_FIRE_RESULT, 6, t, m, wd[i], v.markers[t], v.wounds[t], cover[i])


cdef void fire_on_features(V* v, Attacks* F) noexcept nogil:
    """Game._fire_on_features: Defense feature_defense against the feature's armor (AP applies, no
    cover bonus); each wound lowers its cover."""
    cdef const Params* P = v.P
    cdef int j, f, w, before, after
    for j in range(F.n):
        f = F.tgt[j]
        resolve_fire(F.att[j], F.band[j], P.fire.feature_defense, P.terrain.feat_armor[f], 0, F.ap[j], False,
                     &P.fire.rules, &w)
        before = v.g.fcover[f]
        after = before - w * P.fire.feature_cover_per_wound
        if after < 0:
            after = 0
        v.g.fcover[f] = <int8_t>after
        if after != before:
            invalidate_los(v)
        evn(v, E_FEATURE_FIRE, 10, F.src[j], f, F.att[j], F.band[j], P.fire.feature_defense,
            P.terrain.feat_armor[f], F.ap[j], w, before, after)


cdef void resolve(V* v) noexcept nogil:
    cdef const Params* P = v.P
    cdef int parts[2]
    cdef Scores scores[2]
    cdef int np_ = 0, k, u, a, t, b, i
    cdef bint ok[2]
    cdef int rtarget[2]
    cdef bint is_rally[2]
    cdef Attacks A
    cdef Attacks F          # heavy weapons at terrain features: tgt = feature index
    cdef double px[3], py[3]
    A.n = 0
    F.n = 0
    if v.s[S_ACT] >= 0:
        parts[np_] = v.s[S_ACT]
        np_ += 1
    if v.s[S_REACT] >= 0:
        parts[np_] = v.s[S_REACT]
        np_ += 1
    for k in range(np_):
        u = parts[k]
        roll_unit(v, u, v.posture[u], v.action[u], E_ROLL, &scores[k])
    for k in range(np_):
        u = parts[k]
        a = v.action[u]
        t = v.target[u]
        if t >= v.U:
            points(v, u, px, py)
            push_attack(&F, u, t - v.U, scores[k].attack[0],
                        range_band(dist(px[1], py[1], P.tables.feat_x[t - v.U], P.tables.feat_y[t - v.U]),
                                   P.fire.band_edges_cm, P.fire.n_edges), v.hwp_ap[u])
        elif is_fire(a) and t >= 0:
            b = band(v, u, t)
            if a == A_MASS_FIRE:
                for i in range(scores[k].n_attacks):
                    push_attack(&A, u, t, scores[k].attack[i], b, 0)
            elif a == A_SPLIT_FIRE:
                push_attack(&A, u, t, scores[k].attack[scores[k].n_attacks - 1], b, 0)
                push_attack(&A, u, v.target2[u], scores[k].attack[0], band(v, u, v.target2[u]), 0)
            elif a == A_HEAVY_WEAPON:
                push_attack(&A, u, t, scores[k].attack[0], b, hw_ap(v, u, t))
            else:
                push_attack(&A, u, t, scores[k].attack[0], b, 0)
        elif a == A_CALL_FOR_FIRE:
            call_for_fire(v, u, &scores[k], &A)
    # Rally is judged against the markers before this phase's fire (simultaneous resolution).
    for k in range(np_):
        is_rally[k] = v.action[parts[k]] == A_RALLY
        if is_rally[k]:
            ok[k] = rally(v, parts[k], &scores[k], &rtarget[k])
    fire(v, &A, parts, scores, np_)
    fire_on_features(v, &F)
    for k in range(np_):
        if is_rally[k] and ok[k]:
            t = rtarget[k]
            v.markers[t] = (v.markers[t] - P.rally.markers_removed
                            if v.markers[t] - P.rally.markers_removed > 0 else 0)
    # Sprint displacement comes after all fire (RULES.md section 4).
    v.s[S_NPEND] = 0
    for k in range(np_):
        u = parts[k]
        if v.action[u] == A_SPRINT:
            v.s[S_PEND0 + v.s[S_NPEND]] = u
            v.g.bonus[v.s[S_NPEND]] = scores[k].sprint_bonus * sprint_increment(v, u)
            v.s[S_NPEND] += 1
    next_sprint(v)


cdef void sprint_displace(V* v, int u, double ang, double d) noexcept nogil:
    clamp_step(v, v.dest_x[u], v.dest_y[u], ang, d, &v.dest_x[u], &v.dest_y[u])
    v.moves[u] = 1
    evn(v, E_SPRINT, 4, u, d, v.dest_x[u], v.dest_y[u])


cdef void next_sprint(V* v) noexcept nogil:
    cdef int u, face
    while v.s[S_NPEND] > 0:
        u = v.s[S_PEND0]
        if v.confused[u]:
            face = roll(v, v.P.call_for_fire.scatter_die)
            evn(v, E_CONFUSED_DIRECTION, 3, u, face, 1)
            sprint_displace(v, u, v.P.call_for_fire.clock_angle[face], v.g.bonus[0])
            pending_pop(v)
            continue
        v.s[S_DECL] = u
        v.s[S_STAGE] = ST_SPRINT_MOVE
        v.s[S_CUR] = u // v.C
        return
    finish_phase(v)


cdef inline bint may_merge(V* v, int u, int t) noexcept nogil:
    if (is_vehicle(v, u) or is_vehicle(v, t)) and not v.P.movement.vehicles_merge:
        return False
    return v.kind[t] == v.kind[u] or not v.P.movement.merge_same_kind_only


cdef void merge(V* v, int u, int t) noexcept nogil:
    """u joins t: figures, markers and wounds add up; u's played card goes to the discard."""
    evn(v, E_MERGE, 10, u, v.name_base[u], v.name_depth[u], t, v.figures[u], v.figures[t], v.markers[u], v.markers[t], v.wounds[u], v.wounds[t])
    v.figures[t] += v.figures[u]
    v.markers[t] += v.markers[u]
    v.wounds[t] += v.wounds[u]
    v.turn_markers[t] += v.turn_markers[u]
    v.commander[t] = v.commander[t] or v.commander[u]
    if v.card[u] != NO_CARD:
        discard(v, u // v.C, v.card[u])
    free_slot(v, u)


cdef void finish_phase(V* v) noexcept nogil:
    cdef const Params* P = v.P
    cdef int parts[2]
    cdef int cards[2]
    cdef int np_ = 0, k, u, t, best, side, joker_sides = 0, jside = -1
    cdef double d, best_d
    if v.s[S_ACT] >= 0:
        parts[np_] = v.s[S_ACT]
        np_ += 1
    if v.s[S_REACT] >= 0:
        parts[np_] = v.s[S_REACT]
        np_ += 1
    for k in range(np_):
        u = parts[k]
        cards[k] = v.card[u]
        if v.moves[u]:
            evn(v, E_COMPLETE_MOVE, 5, u, v.x[u], v.y[u], v.dest_x[u], v.dest_y[u])
            v.x[u] = v.dest_x[u]
            v.y[u] = v.dest_y[u]
            invalidate_los(v)
    # Merging (RULES.md section 5): a moved unit whose Destination touches a friendly unit.
    for k in range(np_):
        u = parts[k]
        if not (v.alive[u] and v.moves[u]):
            continue
        best = -1
        best_d = 0.0
        side = u // v.C
        for t in range(side * v.C, (side + 1) * v.C):
            if not v.alive[t] or t == u or not may_merge(v, u, t):
                continue
            d = dist(v.x[t], v.y[t], v.x[u], v.y[u])
            if d <= P.movement.merge_contact_cm and (best < 0 or d < best_d):
                best = t
                best_d = d
        if best >= 0:
            merge(v, u, best)
            parts[k] = -1 - u       # the slot is free now: later steps skip it (Game keeps the old object)
    # Joker: its player seizes the initiative for the next Activation phase.
    for k in range(np_):
        if cards[k] != NO_CARD and P.tables.card_joker[cards[k]]:
            u = parts[k] if parts[k] >= 0 else -1 - parts[k]
            side = u // v.C
            if jside != side:
                joker_sides += 1
                jside = side
    if P.orders.joker_takes_initiative and joker_sides == 1:
        v.s[S_NEXT_ACT] = jside
        evn(v, E_INITIATIVE, 1, jside)
    else:
        v.s[S_NEXT_ACT] = 1 - v.s[S_ACTIVATING]
    for k in range(np_):
        if parts[k] >= 0:
            v.acted[parts[k]] = 1
            clear_scratch(v, parts[k])
    v.s[S_NPEND] = 0
    next_activation(v)


# ---------------------------------------------------------------------------------------- clean-up
cdef bint shattered_unit(V* v, int u) noexcept nogil:
    cdef int dice[3]
    cdef bint sh
    if v.P.cleanup.shattered_if_morale_only and v.P.dice.shift_attr[is_vehicle(v, u)] != 2:
        return False
    wounded_dice(v, u, dice, &sh)
    return sh


cdef bint has_splittable(V* v, int side) noexcept nogil:
    cdef int u
    for u in range(side * v.C, (side + 1) * v.C):
        if v.alive[u] and v.figures[u] >= v.P.cleanup.split_min_figures and not v.split_done[u]:
            return True
    return False


cdef void remove_unit(V* v, int u) noexcept nogil:
    cdef int side = u // v.C
    cnt(v, side)[C_REMOVED] += v.figures[u]
    if v.card[u] != NO_CARD:
        discard(v, side, v.card[u])
    evn(v, E_REMOVED, 5, u, v.name_base[u], v.name_depth[u], side, v.figures[u])
    free_slot(v, u)


cdef inline void halves(int n, bint odd_big, int* big, int* small) noexcept nogil:
    big[0] = (n + 1) // 2 if odd_big else n // 2
    small[0] = n - big[0]


cdef int split_unit(V* v, int u, bint voluntary) noexcept nogil:
    """Clean-up splitting: halves as equal as possible, markers and wounds divided evenly."""
    cdef const Params* P = v.P
    cdef int side = u // v.C, nw = -1, t, mb, ms, wb, ws, tb, ts_, fb, fs
    cdef double ang
    for t in range(side * v.C, (side + 1) * v.C):
        if not v.alive[t]:
            nw = t
            break
    if nw < 0:      # the slot capacity bound rules this out
        return -1
    fb = (v.figures[u] + 1) // 2
    fs = v.figures[u] // 2
    halves(v.markers[u], P.cleanup.odd_to_larger_half, &mb, &ms)
    halves(v.wounds[u], P.cleanup.odd_to_larger_half, &wb, &ws)
    halves(v.turn_markers[u], P.cleanup.odd_to_larger_half, &tb, &ts_)
    copy_unit(v, u, nw)
    v.name_depth[nw] += 1
    v.commander[nw] = 0
    v.card[nw] = NO_CARD
    v.revealed[nw] = 0
    v.figures[nw] = fs
    v.markers[nw] = ms
    v.wounds[nw] = ws
    v.turn_markers[nw] = ts_
    v.figures[u] = fb
    v.markers[u] = mb
    v.wounds[u] = wb
    v.turn_markers[u] = tb
    if P.table.mid_x != v.x[u] or P.table.mid_y != v.y[u]:
        ang = atan2(P.table.mid_x - v.x[u], P.table.mid_y - v.y[u])
    else:
        ang = M_PI / 2
    clamp_step(v, v.x[u], v.y[u], ang, P.cleanup.split_offset_cm, &v.x[nw], &v.y[nw])
    v.split_done[u] = v.split_done[nw] = 1
    clear_scratch(v, nw)
    invalidate_los(v)
    evn(v, E_SPLIT, 9, u, nw, voluntary, v.figures[u], v.figures[nw], v.markers[u], v.markers[nw], v.wounds[u], v.wounds[nw])
    return nw


cdef void cleanup(V* v) noexcept nogil:
    cdef int u, nw
    v.s[S_ACT] = v.s[S_REACT] = v.s[S_DECL] = -1
    for u in range(v.U):
        v.born[u] = 0
    for u in range(v.U):
        # Game iterates over a snapshot of the slots: units split off in this loop are not visited.
        if v.alive[u] and not v.born[u] and shattered_unit(v, u):
            if v.figures[u] < v.P.cleanup.split_min_figures:
                remove_unit(v, u)
            else:
                nw = split_unit(v, u, False)
                if nw >= 0:
                    v.born[nw] = 1
    for u in range(v.U):
        v.born[u] = 0
    v.s[S_STEP] = 0
    splits_next(v)


cdef void splits_next(V* v) noexcept nogil:
    if not next_player_with(v, ST_SPLIT):
        cleanup_rest(v)


cdef void cleanup_rest(V* v) noexcept nogil:
    cdef const Params* P = v.P
    cdef int u, p, face, die, i, winner, a0, a1, f0, f1
    cdef int dice[3]
    cdef bint sh, ok
    cdef int32_t* c
    cdef int16_t* hand
    # Morale: a roll of the (shifted) Morale die above the number of markers removes one.
    for u in range(v.U):
        if v.alive[u] and v.markers[u] > 0:
            wounded_dice(v, u, dice, &sh)
            die = dice[2]
            face = roll(v, die)
            ok = face > v.markers[u]
            evn(v, E_MORALE, 5, u, die, face, v.markers[u], ok)
            if ok:
                v.markers[u] = (v.markers[u] - P.cleanup.morale_markers_removed
                                if v.markers[u] - P.cleanup.morale_markers_removed > 0 else 0)
    # Unused (and played) order cards go to the discard pile.
    for p in range(2):
        c = cnt(v, p)
        evn(v, E_DISCARD, 2, p, c[C_HAND])
        hand = pile(v, p, PILE_HAND)
        for i in range(c[C_HAND]):
            discard(v, p, hand[i])
        c[C_HAND] = 0
    for u in range(v.U):
        if v.alive[u]:
            if v.card[u] != NO_CARD:
                discard(v, u // v.C, v.card[u])
            v.card[u] = NO_CARD
            v.revealed[u] = v.acted[u] = v.split_done[u] = 0
            v.turn_markers[u] = 0
            clear_scratch(v, u)
    f0 = side_figures(v, 0)
    f1 = side_figures(v, 1)
    a0 = side_count(v, 0)
    a1 = side_count(v, 1)
    evn(v, E_TURN_END, 4, f0, f1, a0, a1)
    # Victory.
    if a0 == 0 or a1 == 0:
        winner = -1 if a0 == a1 else (0 if a1 == 0 else 1)
        game_over(v, winner, R_NO_UNITS)
    elif v.s[S_TURN] >= P.table.turns:
        winner = -1 if f0 == f1 else (0 if f0 > f1 else 1)
        game_over(v, winner, R_MORE_FIGURES if winner >= 0 else R_EQUAL_FIGURES)
    else:
        begin_turn(v)


cdef void game_over(V* v, int winner, int reason) noexcept nogil:
    v.s[S_WINNER] = winner
    v.s[S_REASON] = reason
    v.s[S_STAGE] = ST_OVER
    v.s[S_CUR] = -1
    evn(v, E_GAME_OVER, 4, winner, reason, side_figures(v, 0), side_figures(v, 1))


# ---------------------------------------------------------------------------------------- start / apply
cdef void start_game(const Params* P, Game* g) noexcept nogil:
    """Game._start: units from the scenario, both decks shuffled, turn 1 begun."""
    cdef V v
    cdef int p, i, U = P.U, K = P.K
    cdef int16_t* deck
    make_view(P, g, &v)
    memcpy(g.i8, P.tables.tmpl_i8, NI8 * U * sizeof(int8_t))
    memcpy(g.i32, P.tables.tmpl_i32, NI32 * U * sizeof(int32_t))
    memcpy(g.f64, P.tables.tmpl_f64, NF64 * U * sizeof(double))
    memcpy(g.fcover, P.tables.feat_cover0, P.terrain.n_feat * sizeof(int8_t))
    memset(g.s, 0, NS * sizeof(int32_t))
    memset(g.counts, 0, 2 * NC * sizeof(int32_t))
    memset(g.piles, 0, 2 * 3 * K * sizeof(int16_t))
    g.bonus[0] = g.bonus[1] = 0.0
    g.s[S_STAGE] = ST_ORDERS
    g.s[S_ACT] = g.s[S_REACT] = g.s[S_DECL] = -1
    g.s[S_WINNER] = -2
    g.s[S_LAST] = -1
    invalidate_los(&v)
    if v.ev != NULL:
        ev_close(&v, ev_open(&v, E_SETUP))
    for p in range(2):
        deck = pile(&v, p, PILE_DECK)
        for i in range(K):
            deck[i] = <int16_t>i
        shuffle(&v, deck, K)
        cnt(&v, p)[C_DECK] = K
        ev_list(&v, E_SHUFFLE, p, deck, K)
    begin_turn(&v)


cdef void apply_action(const Params* P, Game* g, int a) noexcept nogil:
    """Game._dispatch: apply a legal action id (not checked: see is_legal) and run to the next decision."""
    cdef V v
    cdef int st, cur, k, u, C = P.C, d, f
    make_view(P, g, &v)
    st = g.s[S_STAGE]
    cur = g.s[S_CUR]
    g.s[S_LAST] = cur
    if st == ST_ORDERS:
        if a == P.base.end_orders:
            evn(&v, E_ORDERS_DONE, 2, cur, cnt(&v, cur)[C_HAND])
            g.s[S_STEP] += 1
            orders_next(&v)
        else:
            k = a - P.base.assign
            assign(&v, k // C, cur * C + k % C)
            if orders_pairs(&v, cur, NULL) == 0:
                evn(&v, E_ORDERS_DONE, 2, cur, cnt(&v, cur)[C_HAND])
                g.s[S_STEP] += 1
                orders_next(&v)
    elif st == ST_ACTIVATE or st == ST_REACT:
        u = cur * C + a - P.base.select
        if st == ST_ACTIVATE:
            g.s[S_ACT] = u
        else:
            g.s[S_REACT] = u
        v.revealed[u] = 1
        evn(&v, E_ACTIVATE if st == ST_ACTIVATE else E_REACT, 3, u // C, u, v.card[u])
        begin_declare(&v, u)
    elif st == ST_RESERVE_PICK:
        u = g.s[S_DECL]
        k = (a - P.base.assign) // C
        hand_remove(&v, u // C, k)
        v.card[u] = k
        v.revealed[u] = 1
        g.s[S_REACT] = u
        evn(&v, E_RESERVE_CARD, 3, u // C, u, k)
        begin_declare(&v, u)
    elif st == ST_DECLARE_ACTION:
        k = a - P.base.declare
        set_action(&v, g.s[S_DECL], k // 2, k % 2)
    elif st == ST_DECLARE_ASSET:
        v.asset[g.s[S_DECL]] = a - P.base.asset
        g.s[S_STAGE] = ST_DECLARE_TARGET
    elif st == ST_DECLARE_TARGET:
        u = g.s[S_DECL]
        if a == P.base.no_target:
            v.target[u] = -1
        elif a >= P.base.feature:       # a terrain feature: stored past the unit slots
            v.target[u] = v.U + a - P.base.feature
        else:
            v.target[u] = a - P.base.target
        if v.action[u] == A_CALL_FOR_FIRE:
            v.aim_x[u] = v.x[v.target[u]]
            v.aim_y[u] = v.y[v.target[u]]
        if v.action[u] == A_SPLIT_FIRE:
            g.s[S_STAGE] = ST_DECLARE_TARGET2
        else:
            after_targets(&v, u)
    elif st == ST_DECLARE_TARGET2:
        u = g.s[S_DECL]
        v.target2[u] = a - P.base.target
        after_targets(&v, u)
    elif st == ST_MOVE:
        u = g.s[S_DECL]
        if a == P.base.stay:
            v.dest_x[u] = v.x[u]
            v.dest_y[u] = v.y[u]
        else:
            d = (a - P.base.move) // P.movement.n_fractions
            f = (a - P.base.move) % P.movement.n_fractions
            place_destination(&v, u, P.movement.dir_angle[d],
                              P.movement.distance_fractions[f] * max_move(&v, u))
        pending_pop(&v)
        next_move(&v)
    elif st == ST_SPRINT_MOVE:
        u = g.s[S_DECL]
        d = (a - P.base.move) // P.movement.n_fractions
        sprint_displace(&v, u, P.movement.dir_angle[d], g.bonus[0])
        pending_pop(&v)
        next_sprint(&v)
    elif st == ST_SPLIT:
        if a == P.base.end_splits:
            g.s[S_STEP] += 1
            splits_next(&v)
        else:
            split_unit(&v, cur * C + a - P.base.split, True)
            if not has_splittable(&v, cur):
                g.s[S_STEP] += 1
                splits_next(&v)


# ---------------------------------------------------------------------------------------- observation
cdef float SCALE_TABLE[4][256]    # k / 20, k / 5, k / 2, k / 12 as observe() rounds them (float32 of a double)
cdef double SCALE_DIV[4]
SCALE_DIV[0] = 20.0
SCALE_DIV[1] = 5.0
SCALE_DIV[2] = 2.0
SCALE_DIV[3] = 12.0
for _t in range(4):
    for _k in range(256):
        SCALE_TABLE[_t][_k] = <float>(_k / SCALE_DIV[_t])


cdef inline float scaled(int k, int which) noexcept nogil:
    """<float>(k / divisor) without a division for the common small counts."""
    if 0 <= k < 256:
        return SCALE_TABLE[which][k]
    return <float>(k / SCALE_DIV[which])


cdef void unit_features(V* v, int u, bint visible, float* f) noexcept nogil:
    """observe._unit_features: the features of a live unit into f (zeroed by the caller)."""
    cdef const Params* P = v.P
    cdef int c = v.card[u], k
    cdef bint has = c != NO_CARD
    cdef bint known = has and (visible or v.revealed[u])
    f[0] = 1.0
    f[1] = <float>(v.x[u] / P.table.width_cm)
    f[2] = <float>(v.y[u] / P.table.height_cm)
    f[3] = scaled(v.figures[u], 0)
    f[4] = scaled(v.markers[u], 1)
    f[5] = scaled(v.wounds[u], 1)
    f[6] = scaled(v.turn_markers[u], 2)
    f[7 + v.kind[u]] = 1.0
    f[10] = scaled(v.armor[u], 1)
    for k in range(3):
        f[11 + k] = scaled(die_of(v, u, k), 3)
    f[14] = v.hwd[u]
    f[15] = v.hwp[u]
    f[16] = v.spotter[u]
    f[17] = v.comms[u]
    f[18] = v.commander[u]
    f[19] = has
    f[20] = known
    if known:
        if P.tables.card_joker[c]:
            f[21] = 1.0
        else:
            f[22 + P.tables.card_suit[c]] = 1.0
            f[26] = <float>(P.tables.card_rank[c] / <double>P.orders.ranks)
    f[27] = v.acted[u]
    f[28] = u == v.s[S_ACT]
    f[29] = u == v.s[S_REACT]
    f[30] = u == v.s[S_DECL]
    if v.action[u] >= 0:
        f[31 + v.action[u]] = 1.0
    f[39] = <float>(v.dest_x[u] / P.table.width_cm)
    f[40] = <float>(v.dest_y[u] / P.table.height_cm)
    f[41] = v.moves[u]


cdef void observe(const Params* P, Game* g, int player, float* out) noexcept nogil:
    """atomic_africa.game.observe.observe: what `player` may see, into out (obs_size floats)."""
    cdef V v
    cdef int K = P.K, pos, k, uid, i, q = 1 - player, cur
    cdef double n = K
    cdef int32_t* me
    cdef int32_t* op
    cdef int16_t* hand
    make_view(P, g, &v)
    # One libc memset of the whole row: fixed-size memsets per unit compile to `rep stos`, whose
    # start-up cost made them the slowest part of a step.
    memset(out, 0, P.obs_size * sizeof(float))
    me = cnt(&v, player)
    op = cnt(&v, q)
    out[0] = <float>(g.s[S_TURN] / <double>P.table.turns)
    out[1 + g.s[S_STAGE]] = 1.0
    cur = -1 if g.s[S_STAGE] == ST_OVER else g.s[S_CUR]
    pos = 1 + N_STAGES
    out[pos] = cur == player
    out[pos + 1] = g.s[S_ACTIVATING] == player
    out[pos + 2] = <float>(me[C_DECK] / n)
    out[pos + 3] = <float>(me[C_DISCARD] / n)
    out[pos + 4] = <float>(me[C_HAND] / n)
    out[pos + 5] = <float>(op[C_DECK] / n)
    out[pos + 6] = <float>(op[C_DISCARD] / n)
    out[pos + 7] = <float>(op[C_HAND] / n)
    pos += 8
    hand = pile(&v, player, PILE_HAND)
    for i in range(me[C_HAND]):
        out[pos + hand[i]] = 1.0
    pos += K
    for k in range(2 * P.C):
        uid = player * P.C + k if k < P.C else q * P.C + k - P.C
        if v.alive[uid]:
            unit_features(&v, uid, uid // P.C == player, out + pos + k * UNIT_FEATURES)
    pos += 2 * P.C * UNIT_FEATURES
    for k in range(P.terrain.n_feat):
        out[pos + k] = <float>(g.fcover[k] / 2.0)


# ------------------------------------------------------------------------------------- agents
include "vagents.pxi"
