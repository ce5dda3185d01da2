# The full game as a native state machine over struct-of-arrays storage (VectorGame's kernel).
#
# One game's state is a `Game` view: pointers into env i's rows of a few arrays, one per dtype, each
# laid out field-major (all units' x, then all units' y, ...). `Params` holds the rules and scenario
# constants, one section per rules section (every rule number comes from the rules data through
# atomic_africa.game.native_params).
# The functions mirror atomic_africa.game.engine.Game method for method; a game advanced with the
# same actions and the same PCG64 stream produces the same state, observations and event records.
#
# Other Cython code can cimport these to run games without Python:
#     start_game(&P, &g); n = legal_actions(&P, &g, buf); apply_action(&P, &g, buf[k]); observe(...)
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t
from numpy.random cimport bitgen_t

from aa_core.fire cimport FireRules
from aa_core.geometry cimport Terrain

cdef enum:
    MAX_ASSETS = 16
    MAX_FRACS = 16
    MAX_DIRECTIONS = 64
    MAX_CLOCK = 64
    MAX_EDGES = 32
    MAX_LADDER = 8
    MAX_LEGAL = 8192
    UNIT_FEATURES = 42
    N_STAGES = 12
    N_ACTIONS = 8

# Stages (atomic_africa.game.state.Stage).
cdef enum:
    ST_ORDERS = 0
    ST_ACTIVATE = 1
    ST_DECLARE_ACTION = 2
    ST_DECLARE_TARGET = 3
    ST_DECLARE_TARGET2 = 4
    ST_DECLARE_ASSET = 5
    ST_REACT = 6
    ST_RESERVE_PICK = 7
    ST_MOVE = 8
    ST_SPRINT_MOVE = 9
    ST_SPLIT = 10
    ST_OVER = 11

# Game scalars: columns of the (n, NS) int32 array.
cdef enum:
    S_TURN = 0
    S_STAGE = 1
    S_CUR = 2
    S_FIRST = 3
    S_ACTIVATING = 4
    S_NEXT_ACT = 5
    S_PHASE = 6
    S_ACT = 7
    S_REACT = 8
    S_DECL = 9
    S_NPEND = 10
    S_PEND0 = 11
    S_PEND1 = 12
    S_STEP = 13
    S_WINNER = 14
    S_REASON = 15
    S_LAST = 16        # player who took the last decision
    NS = 17

# Unit int8 fields (rows of the (n, NI8, U) array).
cdef enum:
    F_ALIVE = 0
    F_KIND = 1
    F_HWD = 2
    F_HWP = 3
    F_SPOTTER = 4
    F_COMMS = 5
    F_COMMANDER = 6
    F_REVEALED = 7
    F_ACTED = 8
    F_SPLIT_DONE = 9
    F_MOVES = 10
    F_CONFUSED = 11
    F_BORN = 12        # scratch: slot filled during this Clean-up's compulsory splits
    F_ATTACHED = 13    # needs orders, adds no card to the hand
    NI8 = 14

# Unit int32 fields (rows of the (n, NI32, U) array).
cdef enum:
    F_NAME_BASE = 0    # index of the scenario unit the name comes from (-1: empty slot)
    F_NAME_DEPTH = 1   # "/b" suffixes (splits)
    F_FIGURES = 2
    F_ARMOR = 3
    F_HWD_AP = 4
    F_HWP_AP = 5
    F_MARKERS = 6
    F_WOUNDS = 7
    F_TURN_MARKERS = 8
    F_CARD = 9
    F_ACTION = 10
    F_POSTURE = 11
    F_TARGET = 12
    F_TARGET2 = 13
    F_ASSET = 14
    F_DIE0 = 15
    F_DIE1 = 16
    F_DIE2 = 17
    NI32 = 18

# Unit float64 fields (rows of the (n, NF64, U) array).
cdef enum:
    F_X = 0
    F_Y = 1
    F_AIM_X = 2
    F_AIM_Y = 3
    F_DEST_X = 4
    F_DEST_Y = 5
    NF64 = 6

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

# Event record codes (atomic_africa.env.vector decodes them into Game's event dicts).
cdef enum:
    E_SETUP = 0
    E_SHUFFLE = 1
    E_RESHUFFLE = 2
    E_DRAW = 3
    E_ASSIGN = 4
    E_ORDERS_DONE = 5
    E_ACTIVATE = 6
    E_REACT = 7
    E_RESERVE_CARD = 8
    E_CONFUSED_DRAW = 9
    E_CONFUSED = 10
    E_CONFUSED_DIRECTION = 11
    E_NO_REACTION = 12
    E_DECLARE = 13
    E_TARGETS = 14
    E_MOVE = 15
    E_ROLL = 16
    E_BYSTANDER_ROLL = 17
    E_SCATTER = 18
    E_SUPPORT_ROLL = 19
    E_FIRE = 20
    E_FIRE_RESULT = 21
    E_RALLY = 22
    E_SPRINT = 23
    E_COMPLETE_MOVE = 24
    E_MERGE = 25
    E_INITIATIVE = 26
    E_SPLIT = 27
    E_REMOVED = 28
    E_MORALE = 29
    E_DISCARD = 30
    E_TURN_END = 31
    E_GAME_OVER = 32
    E_FEATURE_FIRE = 33


ctypedef struct EventBuffer:
    double* data       # records: code, turn, n values, values...
    Py_ssize_t size
    Py_ssize_t cap


# Params sections. Each is numbers, bints and fixed-size arrays only, so Engine fills it from a
# dict by field name (atomic_africa.game.native_params: a rules section's own fields keep their
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

ctypedef struct Tables:            # arrays (atomic_africa.game.native_params: tables)
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
