# Native agents: the batched twins of atomic_africa.agents (included by vgame.pyx, so they read the
# rules' helpers directly). Each `*_act(V*, ...)` returns the action its Python class's `act` returns
# in the same state: the same scores in the same floating-point order, ties to the lowest action id.
from libc.math cimport INFINITY, fabs

# The agent kinds by their atomic_africa.agents names (Engine.agent_actions takes these values).
AGENT_KINDS = {"random": AGENT_RANDOM, "heuristic": AGENT_HEURISTIC, "greedy": AGENT_GREEDY,
               "doctrine": AGENT_DOCTRINE}


# ------------------------------------------------------------------------------- shared by the agents
cdef enum:   # ActionSpace segments (atomic_africa.game.actions.SEGMENTS), in id order
    SEG_ASSIGN
    SEG_END_ORDERS
    SEG_SELECT
    SEG_DECLARE
    SEG_TARGET
    SEG_NO_TARGET
    SEG_ASSET
    SEG_MOVE
    SEG_STAY
    SEG_SPLIT
    SEG_END_SPLITS
    SEG_FEATURE


cdef int segment_of(const ActionBases* b, int a, int* k) noexcept nogil:
    """ActionSpace.decode: the segment (SEG_*) of action id a; its offset in the segment into k.
    ASSIGN's offset is card * C + slot, DECLARE's action * 2 + posture, MOVE's direction * fractions
    + fraction."""
    cdef int base[12]
    cdef int s
    base[0] = b.assign
    base[1] = b.end_orders
    base[2] = b.select
    base[3] = b.declare
    base[4] = b.target
    base[5] = b.no_target
    base[6] = b.asset
    base[7] = b.move
    base[8] = b.stay
    base[9] = b.split
    base[10] = b.end_splits
    base[11] = b.feature
    for s in range(SEG_FEATURE, -1, -1):   # the last segment starting at or before a (empty ones too)
        if a >= base[s]:
            k[0] = a - base[s]
            return s
    k[0] = a
    return SEG_ASSIGN


cdef void preview_destination(V* v, int a, double* px, double* py) noexcept nogil:
    """Game.preview_destination: where MOVE/STAY action a would put the deciding unit's Destination
    (the sprint bonus displacement in the sprint-move stage); the unit's position for any other."""
    cdef const Params* P = v.P
    cdef int u = v.s[S_DECL], k, st = v.s[S_STAGE]
    cdef int seg = segment_of(&P.base, a, &k)
    cdef int n = P.movement.n_fractions
    if st == ST_SPRINT_MOVE and seg == SEG_MOVE:
        clamp_step(v, v.dest_x[u], v.dest_y[u], P.movement.dir_angle[k // n], v.g.bonus[0], px, py)
    elif st == ST_MOVE and seg == SEG_MOVE:
        clamp_step(v, v.x[u], v.y[u], P.movement.dir_angle[k // n],
                   P.movement.distance_fractions[k % n] * max_move(v, u), px, py)
    else:
        px[0] = v.x[u]
        py[0] = v.y[u]


cdef double nearest(V* v, int side, double px, double py, double none) noexcept nogil:
    """The distance from (px, py) to the nearest live unit of `side` (Python's min over the units in
    slot order, each sqrt((t.x - px)**2 + (t.y - py)**2)); `none` if it has none."""
    cdef int t
    cdef bint found = False
    cdef double d, best = none
    for t in range(side * v.C, (side + 1) * v.C):
        if v.alive[t]:
            d = dist(v.x[t], v.y[t], px, py)
            if not found or d < best:
                best = d
                found = True
    return best


cdef inline bint better(double s, int a, double best_s, int best_a) noexcept nogil:
    """(s, -a) > (best_s, -best_a): Python's max over (score, -id) keys."""
    return s > best_s or (s == best_s and a < best_a)


cdef void sort_ids(int* a, int m) noexcept nogil:
    """Ascending, in place (insertion sort: legal_v's enumeration is sorted but for a few runs)."""
    cdef int i, j, x
    for i in range(1, m):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


# ------------------------------------------------------------------------------------------ agents
include "vagent_basic.pxi"
include "vagent_greedy.pxi"


cdef int random_act(V* v, bitgen_t* rng) noexcept nogil:
    """RandomAgent: legal action k in id order (Game.legal_actions), k one die of as many sides as
    legal actions (no draw when one is legal); -1 when none is."""
    cdef int buf[MAX_LEGAL]
    cdef int m = legal_v(v, buf)
    cdef int face = 1
    cdef uint32_t sides
    if m == 0:
        return -1
    if m > 1:
        sort_ids(buf, m)
        sides = <uint32_t>m
        roll_faces(rng, &sides, 1, reject_threshold(sides), &face)
    return buf[face - 1]


cdef int agent_action(const Params* P, Game* g, int kind, const AgentParams* ap,
                      bitgen_t* rng) noexcept nogil:
    cdef V v
    make_view(P, g, &v)
    if kind == AGENT_RANDOM:
        return random_act(&v, rng)
    if kind == AGENT_HEURISTIC:
        return heuristic_act(&v)
    if kind == AGENT_GREEDY:
        return greedy_act(&v, ap)
    if kind == AGENT_DOCTRINE:
        return doctrine_act(&v, ap)
    return -1
