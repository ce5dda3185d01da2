# The full game as a native state machine over struct-of-arrays storage (VectorGame's kernel).
#
# One game's state is a `Game` view: pointers into env i's rows of a few arrays, one per dtype, each
# laid out field-major (all units' x, then all units' y, ...). `Params` holds the rules and scenario
# constants, one section per rules section (every rule number comes from the rules data through
# atomic_africa.game.native.params).
# The functions mirror atomic_africa.game.engine.Game method for method; a game advanced with the
# same actions and the same PCG64 stream produces the same state, observations and event records.
#
# Other Cython code can cimport these to run games without Python:
#     start_game(&P, &g); n = legal_actions(&P, &g, buf); apply_action(&P, &g, buf[k]); observe(...)
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t
from numpy.random cimport bitgen_t

from aa_core.fire cimport FireRules
from aa_core.geometry cimport Terrain

# Limits, stages, scalars, unit rows, event codes, end reasons, Action/Posture/UnitKind codes, the
# V view and make_view: generated from atomic_africa.game.schema (python -m atomic_africa.game.native.schema_pxi).
include "vgame_schema.pxi"

# Per-player card piles (n, 2, 3, K) int16 and counts (n, 2, NC) int32.
cdef enum:
    PILE_DECK = 0
    PILE_HAND = 1
    PILE_DISCARD = 2
    C_DECK = 0
    C_HAND = 1
    C_DISCARD = 2
    C_REMOVED = 3
    NC = 4


ctypedef struct EventBuffer:
    double* data       # records: code, turn, n values, values...
    Py_ssize_t size
    Py_ssize_t cap
    bint failed        # a record could not be stored (out of memory); the driver raises MemoryError


# Params sections. Each is numbers, bints and fixed-size arrays only, so Engine fills it from a
# dict by field name (atomic_africa.game.native.params: a rules section's own fields keep their
# rules names; the values derived from them are commented; arrays are padded to their full size).
ctypedef struct ActionBases:       # first id of each segment of the action space (ActionSpace.base)
    int assign, end_orders, select, declare, target, no_target, asset, move, stay, split, end_splits
    int feature

ctypedef struct MovementParams:    # rules.movement
    double increment_cm, vehicle_increment_cm, sprint_increment_cm, vehicle_sprint_increment_cm
    int basic_move_per_value, sprint_card_value, directions
    double distance_fractions[MAX_FRACS]
    double merge_contact_cm
    bint merge_same_kind_only, vehicles_merge
    int n_fractions                # derived: len(distance_fractions)
    double dir_angle[MAX_DIRECTIONS]   # derived: angle of each direction

ctypedef struct OrdersParams:      # rules.orders
    bint joker_takes_initiative, fire_needs_los, first_player_alternates, attached_add_cards
    int bystander_posture          # Posture value
    int ranks                      # derived: cards per suit
    int draw_bonus[2]              # derived: experience_bonus of each side
    int hand_fixed[2]              # derived: cards per Orders phase; -1: own units on the table + bonus

ctypedef struct RallyParams:       # rules.rally
    int self_range, comms_range_penalty, markers_removed

ctypedef struct CallForFireParams:   # rules.call_for_fire
    int scatter_die, support_range_band
    int support_action, support_posture    # Action / Posture values
    double scatter_increment_cm
    bint clockwise, blast_hits_friends
    double clock_zero_rad          # derived: clock_zero_deg in radians
    double clock_angle[MAX_CLOCK]  # derived: direction of each scatter die face
    int n_assets[2]                # derived: each side's fire support assets
    int asset_dice[2][MAX_ASSETS][3]
    int asset_ap[2][MAX_ASSETS]
    double asset_r2[2][MAX_ASSETS]     # blast radius squared
    double asset_blast_cm[2][MAX_ASSETS]   # blast radius (the greedy agent's odds compare with it)

ctypedef struct CleanupParams:     # rules.cleanup
    int split_min_figures, morale_markers_removed
    bint odd_to_larger_half
    double split_offset_cm
    bint shattered_if_morale_only  # derived: shattered_split_die == "morale"

ctypedef struct DiceParams:        # rules.dice
    int64_t ladder[MAX_LADDER]
    int shattered_die
    int n_ladder                   # derived: len(ladder)
    int shift_attr[2]              # derived: wound_shift_infantry / _vehicle as attribute indices

ctypedef struct FireParams:        # rules.fire
    FireRules rules                # derived: Rules.fire_params (aa_core.fire)
    double band_edges_cm[MAX_EDGES]
    int feature_defense, feature_cover_per_wound
    int n_edges                    # derived: len(band_edges_cm)

ctypedef struct TableParams:       # scenario: the table and the game length
    double width_cm, height_cm, mid_x, mid_y
    int turns

# Exact odds of one side's three dice for one Table 5 row (action, posture), counted over all face
# triples (atomic_africa.odds._Side): score s sits in slot s + 1 (slot 0: no such score).
cdef enum:
    ODDS_SLOTS = 26                # scores are at most a pair of d12
    ODDS_DICE = 5                  # d4, d6, d8, d10, d12 (Die)
    ODDS_ROWS = 2000               # ODDS_DICE ** 3 dice triples x N_ACTIONS x 2 postures

ctypedef struct OddsSide:
    int32_t total                  # face triples
    int32_t att_cum[ODDS_SLOTS + 1][ODDS_SLOTS + 1]   # [x][y]: triples with attack slots < x and < y
    int32_t att0[ODDS_SLOTS]       # first attack (the lower of Split Fire's pair)
    int32_t att1[ODDS_SLOTS]       # second attack
    int32_t defense[ODDS_SLOTS]
    int32_t rally[ODDS_SLOTS]
    int32_t spotting[ODDS_SLOTS]


ctypedef struct Tables:            # arrays (atomic_africa.game.native.params: tables)
    # cards (atomic_africa.game.cards.Deck), by card id
    const int8_t* card_joker
    const int8_t* card_suit
    const int8_t* card_rank
    const int8_t* card_posture
    const int8_t* card_face
    const int8_t* card_any         # legal for a suppressed unit
    const int32_t* card_move
    const signed char* table5      # [action][posture][3]
    # terrain features as heavy-weapon targets, by feature (scenario order)
    const double* feat_x           # aim point
    const double* feat_y
    const int8_t* feat_cover0      # cover at the start
    # initial units: one env's worth of unit arrays
    const int8_t* tmpl_i8
    const int32_t* tmpl_i32
    const double* tmpl_f64
    # the greedy agent's exact odds (vagent_greedy.pxi odds_tables): [dice triple][action][posture]
    const OddsSide* odds


ctypedef struct Params:
    int C, U, K, obs_size, n_actions
    ActionBases base
    MovementParams movement
    OrdersParams orders
    RallyParams rally
    CallForFireParams call_for_fire
    CleanupParams cleanup
    DiceParams dice
    FireParams fire
    TableParams table
    Tables tables
    Terrain terrain                # geometry.pxd; feat_armor 0: not a heavy-weapon target


ctypedef struct Game:
    int32_t* s          # scalars, NS
    int8_t* i8          # NI8 x U
    int32_t* i32        # NI32 x U
    double* f64         # NF64 x U
    int16_t* piles      # 2 x 3 x K
    int32_t* counts     # 2 x NC
    double* bonus       # 2 sprint bonus displacements (pending sprints)
    int8_t* los         # U x U cache: -1 unknown, 0 blocked, 1 clear
    int8_t* fcover      # n_feat: each terrain feature's current cover
    bitgen_t* rng
    EventBuffer* ev     # NULL: events not recorded


cdef void start_game(const Params* P, Game* g) noexcept nogil
cdef int legal_actions(const Params* P, Game* g, int* out) noexcept nogil
cdef bint is_legal(const Params* P, Game* g, int a) noexcept nogil
cdef void apply_action(const Params* P, Game* g, int a) noexcept nogil
cdef void observe(const Params* P, Game* g, int player, float* out) noexcept nogil
cdef int side_figures(V* v, int side) noexcept nogil      # Game.figures(side)


# Native agents (vagents.pxi, included by vgame.pyx): batched twins of atomic_africa.agents, each
# step for step equal to its Python class (the reference). `agent_action` returns the action the
# agent of `kind` plays in g (-1 if none is legal); only AGENT_RANDOM draws, from `rng`.
cdef enum:
    AGENT_RANDOM = 0
    AGENT_HEURISTIC = 1
    AGENT_GREEDY = 2
    AGENT_DOCTRINE = 3
    N_AGENT_KINDS = 4

ctypedef struct AgentParams:       # the Python agents' constructor values (atomic_africa.agents)
    double wound_value, marker_value, rally_value, cover_value   # GreedyAgent
    double standoff_cm                                           # DoctrineAgent

cdef int agent_action(const Params* P, Game* g, int kind, const AgentParams* ap,
                      bitgen_t* rng) noexcept nogil
