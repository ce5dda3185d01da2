# cython: language_level=3
"""Native game engine: the game's rules in the C core (csrc/aa_engine.h and the files it names), for
Python and Cython hosts; atomic_africa.game.Game is a one-game handle on it (aa_core.single).

The rules live in C: each aa_* function mirrors the reference engine's method of the same name
(atomic_africa.reference.game.Game); the order of random draws, of events and of floating-point
operations is the same, so the two engines agree bit for bit (tests/test_vector_parity.py). This module exports them as cdef functions (vgame.pxd), so a
Cython host calls them through this module without linking the C library; aa_core.vbatch's Engine
steps many games at once with the GIL released.
"""
from aa_core.vgame cimport (AA_ODDS_TABLE_BYTES, AGENT_DOCTRINE, AGENT_GREEDY, AGENT_HEURISTIC, AGENT_RANDOM,
                            N_ACTIONS, AgentParams, Game, OddsSide, Params, V, aa_agent_choose,
                            aa_apply_action, aa_fill_odds_tables, aa_is_legal, aa_legal_actions, aa_observe,
                            aa_abi_version, aa_last_error, aa_side_figures, aa_spec, aa_spec_load,
                            aa_spec_params, aa_start_game, check_abi)
from aa_core.rng cimport aa_bitgen

# The agent kinds by their atomic_africa.agents names (Engine.agent_actions takes these values).
AGENT_KINDS = {"random": AGENT_RANDOM, "heuristic": AGENT_HEURISTIC, "greedy": AGENT_GREEDY,
               "doctrine": AGENT_DOCTRINE, "ismcts": AGENT_ISMCTS}

#: Bytes of the greedy agent's odds tables (the ``odds`` array of atomic_africa.game.native.params).
ODDS_TABLE_BYTES = AA_ODDS_TABLE_BYTES


cdef void start_game(const Params* P, Game* g) noexcept nogil:
    """aa_start_game: units from the scenario, both decks shuffled, turn 1 begun."""
    aa_start_game(P, g)


cdef int legal_actions(const Params* P, Game* g, int* out) noexcept nogil:
    """Legal action ids of the player to move (unsorted) into out (>= n_actions ints); their number."""
    return aa_legal_actions(P, g, out)


cdef bint is_legal(const Params* P, Game* g, int a) noexcept nogil:
    """Whether action id a is legal now."""
    return aa_is_legal(P, g, a)


cdef void apply_action(const Params* P, Game* g, int a) noexcept nogil:
    """aa_apply_action: apply a legal action id (not checked: see is_legal) and run to the next decision."""
    aa_apply_action(P, g, a)


cdef void observe(const Params* P, Game* g, int player, float* out) noexcept nogil:
    """aa_observe: what `player` may see, into out (obs_size floats)."""
    aa_observe(P, g, player, out)


cdef int side_figures(V* v, int side) noexcept nogil:
    """aa_side_figures: figures in the live units of one side."""
    return aa_side_figures(v, side)


cdef int agent_action(const Params* P, Game* g, int kind, const AgentParams* ap,
                      aa_bitgen* rng) noexcept nogil:
    """The action native agent `kind` plays in g (-1 if none is legal); only AGENT_RANDOM draws."""
    return aa_agent_choose(P, g, kind, ap, rng)


cdef aa_spec* load_spec(data, Params* out, str what) except NULL:
    """aa_spec_load of spec file `data` into a new spec; *out: a copy of its Params (pointing into the
    spec's arrays). ValueError with the loader's message (prefixed by `what`, unless empty) or MemoryError."""
    cdef const unsigned char[::1] b = data if isinstance(data, bytes) else bytes(data)
    cdef aa_spec* s = NULL
    cdef int st
    if b.shape[0] == 0:
        raise ValueError(f"{what or 'spec'}: an empty spec file")
    with nogil:
        st = aa_spec_load(&b[0], <size_t>b.shape[0], &s)
    if st != 0:
        msg = aa_last_error().decode("utf-8", "replace")
        if st == 4:   # AA_ERR_MEMORY
            raise MemoryError(msg)
        raise ValueError(f"{what}: {msg}" if what else msg)
    out[0] = aa_spec_params(s)[0]
    return s


def fill_odds_tables(const signed char[::1] table5, unsigned char[::1] out):
    """Fill `out` (ODDS_TABLE_BYTES) with every dice triple x action x posture's score counts for
    Table 5 `table5` (Rules.table5_array, flat): Tables.odds of the native greedy agent."""
    if table5.shape[0] != N_ACTIONS * 2 * 3:
        raise ValueError(f"table5: expected {N_ACTIONS * 2 * 3} values, got {table5.shape[0]}")
    if <size_t>out.shape[0] != AA_ODDS_TABLE_BYTES:
        raise ValueError(f"out: expected {ODDS_TABLE_BYTES} bytes, got {out.shape[0]}")
    with nogil:
        aa_fill_odds_tables(&table5[0], <OddsSide*>&out[0])


cdef int abi_version() noexcept nogil:
    """The C library's aa_abi_version() (vgame.pxd's check_abi compares it with a host's)."""
    return aa_abi_version()


cdef size_t layout_size(int which) noexcept nogil:
    """sizeof Params (0), Game (1), V (2), AgentParams (3) as this module was compiled; 0 otherwise."""
    if which == 0:
        return sizeof(Params)
    if which == 1:
        return sizeof(Game)
    if which == 2:
        return sizeof(V)
    if which == 3:
        return sizeof(AgentParams)
    return 0


# This module checks itself the way a host does (the same declarations on both sides).
check_abi("aa_core.vgame")
