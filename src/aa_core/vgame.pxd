# The full game as a native state machine over struct-of-arrays storage (VectorGame's kernel).
#
# One game's state is a `Game` view: pointers into env i's rows of a few arrays, one per dtype, each
# laid out field-major (all units' x, then all units' y, ...). `Params` holds the rules and scenario
# constants (every rule number comes from the packaged rules data through atomic_africa.env.vector).
# The functions mirror atomic_africa.game.engine.Game method for method; a game advanced with the
# same actions and the same PCG64 stream produces the same state, observations and event records.
#
# Other Cython code can cimport these to run games without Python:
#     start_game(&P, &g); n = legal_actions(&P, &g, buf); apply_action(&P, &g, buf[k]); observe(...)
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t
from numpy.random cimport bitgen_t

from aa_core.fire cimport FireRules

# Limits, stages, scalars, unit rows, event codes, end reasons, Action/Posture/UnitKind codes, the
# V view and make_view: generated from atomic_africa.game.schema (python -m atomic_africa.game.schema_pxi).
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


ctypedef struct Params:
    int C, U, K, obs_size, n_actions
    # action-space segment bases (atomic_africa.game.actions)
    int b_assign, b_end_orders, b_select, b_declare, b_target, b_no_target, b_asset, b_move
    int b_stay, b_split, b_end_splits, b_feature
    # cards (tables from atomic_africa.game.cards.Deck)
    const int8_t* card_joker
    const int8_t* card_suit
    const int8_t* card_rank
    const int8_t* card_posture
    const int8_t* card_face
    const int8_t* card_any       # legal for a suppressed unit
    const int32_t* card_move
    int ranks
    # movement
    int directions, n_fracs, per_value, sprint_card_value
    double fracs[MAX_FRACS]
    double dir_angle[MAX_DIRECTIONS]
    double clock_angle[MAX_CLOCK]  # indexed by die face
    double inc[2], sprint_inc[2]   # [infantry kinds, vehicle]
    double merge_contact
    bint merge_same_kind_only, vehicles_merge
    # orders
    bint joker_takes_initiative, fire_needs_los, first_player_alternates
    int bystander_posture
    int draw_bonus[2]              # experience bonus
    int hand_fixed[2]              # cards drawn per Orders phase; -1: own units on the table + bonus
    bint attached_add_cards
    # rally
    int rally_self_range, rally_comms_penalty, rally_removed
    # call for fire
    int scatter_die, support_band, support_action, support_posture
    double scatter_inc, zero_rad
    bint clockwise, blast_hits_friends
    int n_assets[2]
    int asset_dice[2][MAX_ASSETS][3]
    int asset_ap[2][MAX_ASSETS]
    double asset_r2[2][MAX_ASSETS]
    # clean-up
    int split_min
    bint odd_to_larger, shattered_if_morale_only
    int morale_removed
    double split_offset
    # dice and scores
    int shift_attr[2]
    int64_t ladder[MAX_LADDER]
    int n_ladder, shattered_die
    const signed char* table5      # [action][posture][3]
    FireRules fire
    double band_edges[MAX_EDGES]
    int n_edges
    # terrain (geometry.pxd)
    const double* vx
    const double* vy
    const int64_t* poly_off
    const uint8_t* poly_blocks
    const int8_t* poly_cover
    int n_poly
    const double* cx
    const double* cy
    const double* cr
    const uint8_t* circ_blocks
    const int8_t* circ_cover
    int n_circ
    double edge_depth
    # terrain features as heavy-weapon targets (scenario order); poly_feat / circ_feat: feature index
    int n_feat, feature_defense, feature_per_wound
    const int32_t* feat_armor      # 0: not a target
    const double* feat_x           # aim point
    const double* feat_y
    const int8_t* feat_cover0      # cover at the start
    const int32_t* poly_feat
    const int32_t* circ_feat
    # table and game length
    double W, H, cx_mid, cy_mid
    int turns
    # initial units: pointers to one env's worth of unit arrays
    const int8_t* tmpl_i8
    const int32_t* tmpl_i32
    const double* tmpl_f64


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
