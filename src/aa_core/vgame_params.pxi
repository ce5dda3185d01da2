# Generated from atomic_africa.game.native.params_schema by atomic_africa.game.native.params_c: do not
# edit by hand. Regenerate:
#     PYTHONPATH=python python -m atomic_africa.game.native.params_c
# (tests/test_params_schema.py fails when this file and the declaration differ). Included by
# vgame.pxd (after OddsSide, FireRules and Terrain): the structs of csrc/aa_params.h.

cdef extern from "csrc/aa_params.h":
    ctypedef struct ActionBases "aa_action_bases":   # first id of each segment of the action space (ActionSpace.base)
        int assign
        int end_orders
        int select
        int declare
        int target
        int no_target
        int asset
        int move
        int stay
        int split
        int end_splits
        int feature

    ctypedef struct MovementParams "aa_movement_params":   # rules.movement
        double increment_cm
        double vehicle_increment_cm
        double sprint_increment_cm
        double vehicle_sprint_increment_cm
        int basic_move_per_value
        int sprint_card_value
        int directions
        double distance_fractions[MAX_FRACS]
        double merge_contact_cm
        bint merge_same_kind_only
        bint vehicles_merge
        int n_fractions                   # derived: len(distance_fractions)
        double dir_angle[MAX_DIRECTIONS]  # derived: angle of each direction

    ctypedef struct OrdersParams "aa_orders_params":   # rules.orders
        bint joker_takes_initiative
        bint fire_needs_los
        bint first_player_alternates
        bint attached_add_cards
        bint reserve_by_choice  # End Orders always legal, any legal card to any unit without orders
        bint spent_units_react  # a unit that has acted (its card spent) may be forced to react again
        int bystander_posture   # Posture value
        int ranks               # derived: cards per suit
        int draw_bonus[2]       # derived: experience_bonus of each side
        int hand_fixed[2]       # derived: cards per Orders phase; -1: own units on the table + bonus

    ctypedef struct RallyParams "aa_rally_params":   # rules.rally
        int self_range
        int comms_range_penalty
        int markers_removed

    ctypedef struct CallForFireParams "aa_call_for_fire_params":   # rules.call_for_fire
        int scatter_die
        int support_range_band
        int support_action                    # Action value
        int support_posture                   # Posture value
        double scatter_increment_cm
        bint clockwise
        bint blast_hits_friends
        double clock_zero_rad                 # derived: clock_zero_deg in radians
        double clock_angle[MAX_CLOCK]         # derived: direction of each scatter die face
        int n_assets[2]                       # derived: each side's fire support assets
        int asset_dice[2][MAX_ASSETS][3]      # derived
        int asset_ap[2][MAX_ASSETS]           # derived
        double asset_r2[2][MAX_ASSETS]        # derived: blast radius squared
        double asset_blast_cm[2][MAX_ASSETS]  # derived: blast radius (the greedy agent's odds compare with it)

    ctypedef struct CleanupParams "aa_cleanup_params":   # rules.cleanup
        int split_min_figures
        int morale_markers_removed
        bint odd_to_larger_half
        double split_offset_cm
        bint shattered_if_morale_only  # derived: shattered_split_die == "morale"

    ctypedef struct DiceParams "aa_dice_params":   # rules.dice
        int64_t ladder[MAX_LADDER]
        int shattered_die
        int n_ladder       # derived: len(ladder)
        int shift_attr[2]  # derived: wound_shift_infantry / _vehicle as attribute indices

    ctypedef struct FireParams "aa_fire_params":   # rules.fire
        FireRules rules  # derived: Rules.fire_params (aa_fire.h)
        double band_edges_cm[MAX_EDGES]
        int feature_defense
        int feature_cover_per_wound
        int n_edges      # derived: len(band_edges_cm)

    ctypedef struct TableParams "aa_table_params":   # scenario: the table and the game length
        double width_cm
        double height_cm
        double mid_x
        double mid_y
        int turns

    ctypedef struct Tables "aa_tables":   # arrays (atomic_africa.game.native.params: tables), never NULL
        const int8_t* card_joker   # cards (atomic_africa.game.cards.Deck), by card id
        const int8_t* card_suit
        const int8_t* card_rank
        const int8_t* card_posture
        const int8_t* card_face
        const int8_t* card_any     # legal for a suppressed unit
        const int32_t* card_move
        const signed char* table5  # [action][posture][3]
        # terrain features as heavy-weapon targets, by feature (scenario order): aim point
        const double* feat_x
        const double* feat_y
        const int8_t* feat_cover0  # cover at the start
        const int8_t* tmpl_i8      # initial units: one game's worth of unit arrays (NI8 x U, NI32 x U, NF64 x U)
        const int32_t* tmpl_i32
        const double* tmpl_f64
        # the greedy agent's exact odds (aa_fill_odds_tables): [dice triple][action][posture]; NULL: the greedy
        # agent plays no action. Not in a spec file: the loader counts them from table5
        const OddsSide* odds

    ctypedef struct Params "aa_params":   # the rules and scenario constants of one battle
        int C                            # unit slots per side
        int U                            # 2 * C
        int K                            # cards per deck
        int obs_size                     # floats of an observation
        int n_actions                    # action ids
        ActionBases base                 # first id of each segment of the action space (ActionSpace.base)
        MovementParams movement          # rules.movement
        OrdersParams orders              # rules.orders
        RallyParams rally                # rules.rally
        CallForFireParams call_for_fire  # rules.call_for_fire
        CleanupParams cleanup            # rules.cleanup
        DiceParams dice                  # rules.dice
        FireParams fire                  # rules.fire
        TableParams table                # scenario: the table and the game length
        Tables tables                    # arrays (atomic_africa.game.native.params: tables), never NULL
        Terrain terrain                  # aa_geometry.h; feat_armor 0: not a heavy-weapon target

    ctypedef struct AgentParams "aa_agent_params":   # the Python agents' constructor values (atomic_africa.agents)
        double wound_value    # GreedyAgent
        double marker_value   # GreedyAgent
        double rally_value    # GreedyAgent
        double cover_value    # GreedyAgent
        double reserve_value  # GreedyAgent: value of keeping a card in the Reserve at Orders
        double standoff_cm    # DoctrineAgent
        double simulations    # ISMCTSAgent: simulations per decision (>= 1)
        double exploration    # ISMCTSAgent: the UCT exploration constant (>= 0)
        double rollout        # ISMCTSAgent: the rollout agent's kind (AGENT_RANDOM .. AGENT_DOCTRINE)
        double rollout_depth  # ISMCTSAgent: rollout decisions at most (0: to the end of the game)
        double width          # ISMCTSAgent: the tree considers the greedy agent's best `width` actions (0: all)
