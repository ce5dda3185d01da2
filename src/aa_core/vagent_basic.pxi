# HeuristicAgent and DoctrineAgent (atomic_africa.agents.basic / .doctrine), natively: each score is
# the Python expression, evaluated in the same order; the best (score, -id) is played.

# ---------------------------------------------------------------------------------------- heuristic
cdef int HEURISTIC_PREFERENCE[N_ACTIONS]   # agents.basic._PREFERENCE, by Action value
HEURISTIC_PREFERENCE[:] = [3, 1, 8, 6, 7, 4, 5, 2]   # BASIC, DIG_IN, MASS_FIRE, SPLIT_FIRE,
                                                     # HEAVY_WEAPON, RALLY, CALL_FOR_FIRE, SPRINT


cdef inline int heuristic_card_value(V* v, int card) noexcept nogil:
    """HeuristicAgent: a Joker is worth 14, a suited card its rank."""
    return 14 if v.P.tables.card_joker[card] else v.P.tables.card_rank[card]


cdef double heuristic_score(V* v, int a) noexcept nogil:
    """HeuristicAgent._score (and _move_scores for MOVE / STAY)."""
    cdef const Params* P = v.P
    cdef int k, u, c, me = v.s[S_CUR]
    cdef int seg = segment_of(&P.base, a, &k)
    cdef double px, py, near
    if seg == SEG_ASSIGN:
        u = me * v.C + k % v.C
        return heuristic_card_value(v, k // v.C) * 100 + v.figures[u]
    if seg == SEG_SELECT:
        u = me * v.C + k
        return heuristic_card_value(v, v.card[u]) * 100 + v.figures[u]
    if seg == SEG_DECLARE:
        return HEURISTIC_PREFERENCE[k // 2] * 2 + (k % 2 == P_OFFENSIVE)
    u = v.s[S_DECL]
    if seg == SEG_TARGET:
        if v.action[u] == A_RALLY:
            return v.markers[k]
        return -dist(v.x[k], v.y[k], v.x[u], v.y[u])
    if seg == SEG_FEATURE:   # a terrain feature is a target like any other: the closest first
        return -dist(P.tables.feat_x[k], P.tables.feat_y[k], v.x[u], v.y[u])
    if seg == SEG_NO_TARGET:
        return -1e9
    if seg == SEG_MOVE or seg == SEG_STAY:
        preview_destination(v, a, &px, &py)
        c = cover_at(v, px, py)
        near = nearest(v, 1 - u // v.C, px, py, 0.0)
        return 3.0 * c - 0.05 * pmax(0.0, near - 40.0) - 0.01 * fabs(near - 40.0)
    if seg == SEG_END_SPLITS or seg == SEG_END_ORDERS:
        return 1
    return 0


cdef int heuristic_act(V* v) noexcept nogil:
    """HeuristicAgent.act: the legal action with the best one-step score (ties: lowest id); -1 when
    none is legal."""
    cdef int buf[MAX_LEGAL]
    cdef int m = legal_v(v, buf)
    cdef int i, best_a
    cdef double s, best_s
    if m <= 1:
        return buf[0] if m == 1 else -1
    best_a = buf[0]
    best_s = heuristic_score(v, best_a)
    for i in range(1, m):
        s = heuristic_score(v, buf[i])
        if better(s, buf[i], best_s, best_a):
            best_s = s
            best_a = buf[i]
    return best_a


# ---------------------------------------------------------------------------------------- doctrine
cdef enum:   # DoctrineAgent.role; the values are its activation ranks
    ROLE_MANOEUVRE = 1
    ROLE_BASE = 2
    ROLE_RALLY = 3

cdef int DOCTRINE_BASE_ORDER[N_ACTIONS]        # DoctrineAgent._BASE_ORDER
cdef int DOCTRINE_MANOEUVRE_ORDER[N_ACTIONS]   # DoctrineAgent._MANOEUVRE_ORDER
DOCTRINE_BASE_ORDER[:] = [A_MASS_FIRE, A_HEAVY_WEAPON, A_SPLIT_FIRE, A_CALL_FOR_FIRE, A_BASIC, A_DIG_IN,
                          A_SPRINT, A_RALLY]
DOCTRINE_MANOEUVRE_ORDER[:] = [A_SPRINT, A_BASIC, A_HEAVY_WEAPON, A_MASS_FIRE, A_SPLIT_FIRE,
                               A_CALL_FOR_FIRE, A_DIG_IN, A_RALLY]


cdef int doctrine_role(V* v, int u) noexcept nogil:
    """DoctrineAgent.role: rally when suppressed; vehicles manoeuvre; infantry alternate by slot and
    turn."""
    if v.markers[u] > 0:
        return ROLE_RALLY
    if v.kind[u] == K_VEHICLE:
        return ROLE_MANOEUVRE
    return ROLE_BASE if (u % v.C + v.s[S_TURN]) % 2 == 0 else ROLE_MANOEUVRE


cdef double doctrine_card(V* v, int u, int card) noexcept nogil:
    """DoctrineAgent._card_score."""
    cdef const Tables* T = &v.P.tables
    cdef int role = doctrine_role(v, u)
    cdef bint joker = T.card_joker[card], face = T.card_face[card]
    cdef bint offensive = not joker and T.card_posture[card] == P_OFFENSIVE
    cdef int value = 0 if joker or face else T.card_move[card]
    if role == ROLE_RALLY:        # a face card or a Joker lets it Rally
        if joker or face:
            return 33.0 if joker else 32.0
        return 30.0 + value / 20.0
    if role == ROLE_BASE:         # fire specials, then steady defensive Basic fire
        if joker or face:
            return 21.5 if joker else 22.0
        return 20.5 + (0.0 if offensive else 0.2) + value / 40.0
    if joker or face:             # manoeuvre: long offensive moves
        return 11.8 if joker else 10.8
    return 11.0 + value / 10.0 + (0.3 if offensive else 0.0)


cdef int order_rank(const int* order, int action) noexcept nogil:
    """len(order) - order.index(action)."""
    cdef int i
    for i in range(N_ACTIONS):
        if order[i] == action:
            return N_ACTIONS - i
    return 0


cdef double doctrine_score(V* v, const AgentParams* ap, int a, bint base, bint see) noexcept nogil:
    """DoctrineAgent._scores[a] (and _move_scores); `base`, `see`: the move stage's "the base of fire
    holds its ground" condition (role base in the MOVE stage, and it sees an enemy)."""
    cdef const Params* P = v.P
    cdef int st = v.s[S_STAGE], me = v.s[S_CUR], k, u, t, role, act, c
    cdef int seg = segment_of(&P.base, a, &k)
    cdef const int* order
    cdef double s, px, py, near, moved
    if st == ST_ORDERS or st == ST_RESERVE_PICK:
        if seg != SEG_ASSIGN:
            return -INFINITY
        return doctrine_card(v, me * v.C + k % v.C, k // v.C)
    if st == ST_ACTIVATE or st == ST_REACT:
        u = me * v.C + k
        s = doctrine_role(v, u) * 100 - nearest(v, 1 - me, v.x[u], v.y[u], 1e9) / 100.0
        act = v.s[S_ACT] if st == ST_REACT else -1
        if act >= 0 and los(v, u, act):
            s += 50   # return fire at the unit that activated
        return s
    u = v.s[S_DECL]
    if st == ST_DECLARE_ACTION:
        role = doctrine_role(v, u)
        order = &DOCTRINE_BASE_ORDER[0] if role == ROLE_BASE else &DOCTRINE_MANOEUVRE_ORDER[0]
        c = order_rank(order, k // 2)
        if role == ROLE_RALLY and k // 2 == A_RALLY:
            c += 100
        return c * 2 + (k % 2 == P_OFFENSIVE)
    if st == ST_DECLARE_ASSET:
        return -k
    if st == ST_DECLARE_TARGET or st == ST_DECLARE_TARGET2:
        if seg == SEG_NO_TARGET:
            return -INFINITY
        if seg == SEG_FEATURE:   # a terrain feature: by distance, like a unit
            return -dist(P.tables.feat_x[k], P.tables.feat_y[k], v.x[u], v.y[u])
        t = k
        if v.action[u] == A_RALLY:   # self first, then the most suppressed friend
            return v.markers[t] + (100 if t == u else 0)
        return -dist(v.x[t], v.y[t], v.x[u], v.y[u]) + 5.0 * v.markers[t]
    if st == ST_MOVE or st == ST_SPRINT_MOVE:
        preview_destination(v, a, &px, &py)
        c = cover_at(v, px, py)
        if base and see:   # the base of fire holds its ground
            moved = dist(px, py, v.x[u], v.y[u])
            return -moved + 0.5 * c
        near = nearest(v, 1 - me, px, py, 0.0)   # bound forward to the standoff, cover to cover
        return 2.0 * c - 0.05 * fabs(near - ap.standoff_cm) - 0.2 * pmax(0.0, ap.standoff_cm - near)
    if st == ST_SPLIT:
        return 0.0 if seg == SEG_END_SPLITS else 1.0
    return 0.0


cdef int doctrine_act(V* v, const AgentParams* ap) noexcept nogil:
    """DoctrineAgent.act (ScoringAgent.act): the legal action with the best doctrine score (ties:
    lowest id); -1 when none is legal."""
    cdef int buf[MAX_LEGAL]
    cdef int m = legal_v(v, buf)
    cdef int i, t, u, best_a, me = v.s[S_CUR]
    cdef bint base = False, see = False
    cdef double s, best_s
    if m <= 1:
        return buf[0] if m == 1 else -1
    if v.s[S_STAGE] == ST_MOVE:
        u = v.s[S_DECL]
        base = doctrine_role(v, u) == ROLE_BASE
        if base:
            for t in range((1 - me) * v.C, (2 - me) * v.C):
                if v.alive[t] and los(v, u, t):
                    see = True
                    break
    best_a = buf[0]
    best_s = doctrine_score(v, ap, best_a, base, see)
    for i in range(1, m):
        s = doctrine_score(v, ap, buf[i], base, see)
        if better(s, buf[i], best_s, best_a):
            best_s = s
            best_a = buf[i]
    return best_a
