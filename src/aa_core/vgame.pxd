# The full game as a native state machine over struct-of-arrays storage: the C core's rules engine
# (csrc/aa_engine.h), declared for Cython.
#
# One game's state is a `Game` view (aa_state): pointers into env i's rows of a few arrays, one per
# dtype, each laid out field-major (all units' x, then all units' y, ...). `Params` (aa_params) holds
# the rules and scenario constants, one section per rules section (every rule number comes from the
# rules data through atomic_africa.game.native.params). The C functions mirror
# atomic_africa.reference.game.engine.Game method for method; a game advanced with the same actions and the
# same PCG64 stream produces the same state, observations and event records.
#
# Other Cython code can cimport these to run games without Python:
#     start_game(&P, &g); n = legal_actions(&P, &g, buf); apply_action(&P, &g, buf[k]); observe(...)
# Those cdef functions are aa_core.vgame's (exported through its module, so a host links nothing);
# the aa_* C functions below them are the C library's (a host that calls them links it).
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t

from aa_core.fire cimport FireRules
from aa_core.geometry cimport Terrain
from aa_core.rng cimport aa_bitgen

# Limits, stages, scalars, unit rows, event codes, end reasons, Action/Posture/UnitKind codes and
# the V view: the names of csrc/aa_schema.h, generated from atomic_africa.game.schema
# (python -m atomic_africa.game.native.schema_c).
include "vgame_schema.pxi"

# Every struct below names the fields of its C twin in csrc/aa_engine.h (tests/test_c_core.py checks
# that they agree).
cdef extern from "csrc/aa_engine.h":
    # Per-player card piles (n, 2, 3, K) int16 and counts (n, 2, NC) int32.
    enum:
        PILE_DECK
        PILE_HAND
        PILE_DISCARD
        C_DECK
        C_HAND
        C_DISCARD
        C_REMOVED
        NC

    ctypedef struct EventBuffer "aa_events":
        double* data       # records: code, turn, n values, values...
        ptrdiff_t size
        ptrdiff_t cap
        bint failed        # a record could not be stored (out of memory); the driver raises MemoryError

    # Exact odds of one side's three dice for one Table 5 row (action, posture): score s in slot s + 1.
    enum:
        ODDS_SLOTS
        ODDS_DICE
        ODDS_ROWS

    ctypedef struct OddsSide "aa_odds_side":
        int32_t total
        int32_t att_cum[ODDS_SLOTS + 1][ODDS_SLOTS + 1]
        int32_t att0[ODDS_SLOTS]
        int32_t att1[ODDS_SLOTS]
        int32_t defense[ODDS_SLOTS]
        int32_t rally[ODDS_SLOTS]
        int32_t spotting[ODDS_SLOTS]

    size_t AA_ODDS_TABLE_BYTES


# The rules and scenario constants (Params, its sections and Tables) and the native agents' options
# (AgentParams): the structs of csrc/aa_params.h, generated from their one declaration
# (atomic_africa.game.native.params_schema; python -m atomic_africa.game.native.params_c).
include "vgame_params.pxi"


cdef extern from "csrc/aa_engine.h":
    ctypedef struct Game "aa_state":
        int32_t* s          # scalars, NS
        int8_t* i8          # NI8 x U
        int32_t* i32        # NI32 x U
        double* f64         # NF64 x U
        int16_t* piles      # 2 x 3 x K
        int32_t* counts     # 2 x NC
        double* bonus       # 2 sprint bonus displacements (pending sprints)
        int8_t* los         # U x U cache: -1 unknown, 0 blocked, 1 clear
        int8_t* fcover      # n_feat: each terrain feature's current cover
        aa_bitgen* rng      # the game's stream (numpy's bitgen_t layout)
        EventBuffer* ev     # NULL: events not recorded
        void* work          # scratch of aa_work_size(P) bytes (legal-id lists...): not state, never copied

    # Native agents: batched twins of atomic_africa.agents (kind AGENT_*); only AGENT_RANDOM draws.
    enum:
        AGENT_RANDOM
        AGENT_HEURISTIC
        AGENT_GREEDY
        AGENT_DOCTRINE
        AGENT_ISMCTS
        N_AGENT_KINDS

    # The C library's entry points (see csrc/aa_engine.h for each contract).
    void make_view "aa_make_view"(const Params* P, Game* g, V* v) noexcept nogil
    size_t aa_state_size(const Params* P) noexcept nogil
    size_t aa_work_size(const Params* P) noexcept nogil
    void aa_state_bind(Game* g, const Params* P, void* mem) noexcept nogil
    void aa_start_game(const Params* P, Game* g) noexcept nogil
    int aa_legal_actions(const Params* P, Game* g, int* out) noexcept nogil
    int aa_is_legal(const Params* P, Game* g, int a) noexcept nogil
    void aa_apply_action(const Params* P, Game* g, int a) noexcept nogil
    void aa_observe(const Params* P, Game* g, int player, float* out) noexcept nogil
    void aa_determinize(const Params* P, Game* g, int player) noexcept nogil
    int aa_side_figures(const V* v, int side) noexcept nogil
    int aa_agent_choose(const Params* P, Game* g, int kind, const AgentParams* ap, aa_bitgen* rng) noexcept nogil
    void aa_fill_odds_tables(const signed char* table5, OddsSide* out) noexcept nogil


# Specs: the one way a battle's Params reach the C core. A spec file (atomic_africa.game.native.spec_file:
# compile_spec writes it from a GameSpec) is read by aa_spec_load into a Params whose arrays the aa_spec
# owns (aa_spec_params); aa_core.vbatch's Engine and aa_core.spec load every battle so.
cdef extern from "include/atomic_africa.h":
    ctypedef struct aa_spec:
        pass
    int aa_spec_load(const void* data, size_t len, aa_spec** out) noexcept nogil
    int aa_spec_default(aa_spec** out) noexcept nogil
    void aa_spec_free(aa_spec* spec) noexcept nogil
    const char* aa_last_error() noexcept nogil

cdef extern from "csrc/aa_spec.h":
    const Params* aa_spec_params(const aa_spec* spec) noexcept nogil


# aa_core.vgame's cdef twins of the entry points, for Cython hosts that link nothing.
cdef void start_game(const Params* P, Game* g) noexcept nogil
cdef int legal_actions(const Params* P, Game* g, int* out) noexcept nogil
cdef bint is_legal(const Params* P, Game* g, int a) noexcept nogil
cdef void apply_action(const Params* P, Game* g, int a) noexcept nogil
cdef void observe(const Params* P, Game* g, int player, float* out) noexcept nogil
cdef int side_figures(V* v, int side) noexcept nogil      # Game.figures(side)
cdef int agent_action(const Params* P, Game* g, int kind, const AgentParams* ap,
                      aa_bitgen* rng) noexcept nogil
# A battle's Params from its spec file (bytes): the one transport of a battle into C, for every Cython
# host (aa_core.vbatch's Engine, a one-game handle). Returns the loaded spec, which owns the arrays *out
# points into (free it with aa_spec_free after the last use of *out); ValueError naming the field (and
# `what`) or MemoryError when aa_spec_load refuses the bytes.
cdef aa_spec* load_spec(data, Params* out, str what) except NULL


# ------------------------------------------------------------------------------------- ABI guard
# A host compiled against these declarations (and the C headers beside them) must run with the
# aa_core.vgame built from the same ones: a struct that gained a field would be read at the wrong
# offsets. AA_ABI_VERSION and sizeof(...) below are the host's compile-time values; abi_version()
# and layout_size() are the installed module's. A host calls check_abi(__name__) at module level,
# so that an import against another layout fails at once, naming both versions.
cdef extern from "include/atomic_africa.h":
    int AA_ABI_VERSION
    int aa_abi_version() noexcept nogil

cdef int abi_version() noexcept nogil                # the installed library's aa_abi_version()
cdef size_t layout_size(int which) noexcept nogil    # sizeof Params (0), Game (1), V (2), AgentParams (3)


cdef inline int check_abi(str host) except -1:
    """ImportError unless this host's C ABI and struct layouts are the installed aa_core.vgame's."""
    cdef size_t mine[4]
    mine[0], mine[1], mine[2], mine[3] = sizeof(Params), sizeof(Game), sizeof(V), sizeof(AgentParams)
    theirs = [layout_size(k) for k in range(4)]
    if abi_version() != AA_ABI_VERSION or theirs != [mine[k] for k in range(4)]:
        raise ImportError(
            f"{host}: compiled against the atomic-africa C ABI version {AA_ABI_VERSION} (sizes of Params, "
            f"Game, V, AgentParams: {[mine[k] for k in range(4)]}), but the installed aa_core is ABI version "
            f"{abi_version()} ({theirs}); rebuild {host} against this atomic-africa "
            f"(include_path=[aa_core.get_cython_include()])")
    return 0
