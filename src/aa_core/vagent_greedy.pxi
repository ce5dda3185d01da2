# GreedyAgent (atomic_africa.agents.greedy) natively, on exact odds.

cdef int greedy_act(V* v, const AgentParams* ap) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef int m = legal_v(v, buf)
    return buf[0] if m > 0 else -1   # placeholder until the port lands (issue 13)
