# Native agents: the batched twins of atomic_africa.agents (included by vgame.pyx, so they read the
# rules' helpers directly). Each `*_act(V*, ...)` returns the action its Python class's `act` returns
# in the same state: the same scores in the same floating-point order, ties to the lowest action id.
include "vagent_basic.pxi"
include "vagent_greedy.pxi"


cdef int random_act(V* v, bitgen_t* rng) noexcept nogil:
    """RandomAgent: legal action k of the enumeration, k one die of as many sides as legal actions
    (no draw when one is legal); -1 when none is."""
    cdef int buf[MAX_LEGAL]
    cdef int m = legal_v(v, buf)
    cdef int face = 1
    cdef uint32_t sides
    if m == 0:
        return -1
    if m > 1:
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
