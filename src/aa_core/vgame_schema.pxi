# Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_c: do not edit by hand.
# Regenerate: PYTHONPATH=python python -m atomic_africa.game.native.schema_c
# (tests/test_schema.py fails when this file and the schema differ). Included by vgame.pxd: the
# names of csrc/aa_schema.h, whose values the C compiler takes from the header.

cdef extern from "csrc/aa_schema.h":
    # Limits of the fixed-size arrays (schema.LIMITS).
    enum:
        MAX_ASSETS           # fire-support assets per side (Params.call_for_fire.asset_*)
        MAX_FRACS            # movement distance fractions (Params.movement.distance_fractions)
        MAX_DIRECTIONS       # movement directions (Params.movement.dir_angle)
        MAX_CLOCK            # scatter-die faces + 1 (Params.call_for_fire.clock_angle, indexed by face)
        MAX_EDGES            # range band edges (Params.fire.band_edges_cm)
        MAX_LADDER           # dice of the wound ladder (Params.dice.ladder)
        MAX_LEGAL            # actions of the action space (buffers for legal_actions)
        MAX_SLOTS_TOTAL      # unit slots of both sides (2 * C)
        MAX_CARDS            # cards in a deck (int16 card piles)
        MAX_FEATURES         # terrain features of a scenario
        MAX_TARGETS          # one declaration's targets: unit slots or features
        MAX_ATTACKS          # attacks resolved in one Activation phase
        MAX_VALUE            # largest score or armor the C API's fire functions take (aa_resolve_fire)
        MAX_MARKERS_PER_HIT  # markers of one hit and a per-turn marker cap (int8 markers)
        UNIT_FEATURES        # observation floats per unit slot
        N_STAGES             # stages (the observation's one-hot)
        N_ACTIONS            # Action values

    # Action / Posture / UnitKind values (atomic_africa.enums) and the empty card.
    enum:
        A_BASIC
        A_DIG_IN
        A_MASS_FIRE
        A_SPLIT_FIRE
        A_HEAVY_WEAPON
        A_RALLY
        A_CALL_FOR_FIRE
        A_SPRINT
        P_OFFENSIVE
        P_DEFENSIVE
        K_INFANTRY
        K_LIGHT_INFANTRY
        K_VEHICLE
        NO_CARD

    # Stages (atomic_africa.game.state.Stage).
    enum:
        ST_ORDERS           # current player assigns cards to its units
        ST_ACTIVATE         # Activating player reveals one ordered unit
        ST_DECLARE_ACTION   # choose the action (and posture, for a Joker)
        ST_DECLARE_TARGET   # fire / Rally / Call for Fire target (or none)
        ST_DECLARE_TARGET2  # Split Fire's second target (the lower Attack)
        ST_DECLARE_ASSET    # Call for Fire: which off-board asset
        ST_REACT            # Reacting player answers with one ordered unit
        ST_RESERVE_PICK     # a unit forced to react takes a legal card from the Reserve
        ST_MOVE             # place the Destination figure
        ST_SPRINT_MOVE      # after resolution: direction of the sprint bonus displacement
        ST_SPLIT            # Clean-up: voluntary splits
        ST_OVER             # the game is over

    # Game scalars: columns of the (n, NS) int32 array.
    enum:
        S_TURN        # turn number (0: set-up)
        S_STAGE       # Stage
        S_CUR         # player to move (-1: game over)
        S_FIRST       # first Activating player of this turn
        S_ACTIVATING  # Activating player of the current Activation phase
        S_NEXT_ACT    # Activating player of the next phase
        S_PHASE       # Activation phases so far (whole game)
        S_ACT         # activated unit of this phase (-1: none)
        S_REACT       # reacting unit (-1: none)
        S_DECL        # unit being declared / moved / sprinting
        S_NPEND       # units still to move or sprint
        S_PEND0       # first pending unit
        S_PEND1       # second pending unit
        S_STEP        # which player of the two is assigning orders / splitting
        S_WINNER      # -2 running, -1 draw, 0/1 winner
        S_REASON      # end reason: index into END_REASONS
        S_LAST        # player who took the last decision
        S_HIDDEN0     # cards at the bottom of player 0's discard pile discarded face down (its Reserve at Clean-up)
        S_HIDDEN1     # cards at the bottom of player 1's discard pile discarded face down
        S_NOANY0      # player 0's Reserve is known to hold no card a suppressed unit may take
        S_NOANY1      # player 1's Reserve is known to hold no card a suppressed unit may take
        NS

    # Unit int8_t fields: rows of the (n, NI8, U) array.
    enum:
        F_ALIVE       # False: an empty slot (never used, merged away or removed)
        F_KIND        # UnitKind
        F_HWD         # has a dispersed heavy weapon
        F_HWP         # has a point heavy weapon
        F_SPOTTER     # may Call for Fire
        F_COMMS       # extends Rally range
        F_COMMANDER   # commander unit
        F_REVEALED    # its order card is face up
        F_ACTED       # took its action this turn (activated or reacted)
        F_SPLIT_DONE  # already split in this Clean-up
        F_MOVES       # placed In-transit/Destination figures
        F_CONFUSED    # confused this phase
        F_BORN        # scratch: slot filled during this Clean-up's compulsory splits
        F_ATTACHED    # needs orders but adds no card to the hand (RULES.md section 1)
        F_ORDERS_SUP  # took its face-down order card while suppressed
        NI8

    # Unit int32_t fields: rows of the (n, NI32, U) array.
    enum:
        F_NAME_BASE     # index of the scenario unit the name comes from (-1: empty slot)
        F_NAME_DEPTH    # '/b' suffixes (splits)
        F_FIGURES       # figures left
        F_ARMOR         # armour value
        F_HWD_AP        # armour piercing of the dispersed heavy weapon
        F_HWP_AP        # armour piercing of the point heavy weapon
        F_MARKERS       # suppression markers
        F_WOUNDS        # wounds
        F_TURN_MARKERS  # new suppression markers received this turn (for the per-turn cap)
        F_CARD          # order card on the unit (face down until revealed)
        F_ACTION        # Activation-phase scratch: declared Action
        F_POSTURE       # Activation-phase scratch: declared Posture
        F_TARGET        # Activation-phase scratch: target uid (or feature)
        F_TARGET2       # Activation-phase scratch: Split Fire's second target
        F_ASSET         # Activation-phase scratch: Call for Fire asset
        F_DIE0          # sides of the three Attribute dice (dice[0])
        F_DIE1          # sides of the three Attribute dice (dice[1])
        F_DIE2          # sides of the three Attribute dice (dice[2])
        NI32

    # Unit double fields: rows of the (n, NF64, U) array.
    enum:
        F_X       # position (cm)
        F_Y       # position (cm)
        F_AIM_X   # Call for Fire target point
        F_AIM_Y   # Call for Fire target point
        F_DEST_X  # Destination figure
        F_DEST_Y  # Destination figure
        NF64

    # Event record codes; a record is code, turn, n, then n values (listed).
    enum:
        E_SETUP               # (no values)
        E_SHUFFLE             # player, deck...
        E_RESHUFFLE           # player, deck...
        E_DRAW                # player, cards...
        E_ASSIGN              # player, unit, card
        E_ORDERS_DONE         # player, reserve
        E_ACTIVATE            # player, unit, card
        E_REACT               # player, unit, card
        E_RESERVE_CARD        # player, unit, card
        E_CONFUSED_DRAW       # player, unit, card
        E_CONFUSED            # player, unit, card
        E_CONFUSED_DIRECTION  # unit, face, sprint
        E_NO_REACTION         # player, unit
        E_DECLARE             # unit, action, posture, confused
        E_TARGETS             # unit, target, target2, asset
        E_MOVE                # unit, start.x, start.y, dest.x, dest.y, in_transit.x, in_transit.y
        E_ROLL                # unit, dice[3], faces[3], shattered, action, posture, n_attacks, attacks[2], defense, rally, spotting, sprint_bonus
        E_BYSTANDER_ROLL      # unit, dice[3], faces[3], shattered, action, posture, n_attacks, attacks[2], defense, rally, spotting, sprint_bonus
        E_SCATTER             # unit, asset, aim.x, aim.y, clock, distance, spotting, direct_hit, impact.x, impact.y
        E_SUPPORT_ROLL        # unit, asset, faces[3], attack
        E_FIRE                # source, target, attack, range, defense, armor, cover, ap, markers, wounds
        E_FIRE_RESULT         # target, markers, wounds, total_markers, total_wounds, cover
        E_RALLY               # unit, target, rally, range, markers, los, success
        E_SPRINT              # unit, distance, dest.x, dest.y
        E_COMPLETE_MOVE       # unit, start.x, start.y, dest.x, dest.y
        E_MERGE               # unit, name_base, name_depth, into, figures[2], markers[2], wounds[2]
        E_INITIATIVE          # player
        E_SPLIT               # unit, new_unit, voluntary, figures[2], markers[2], wounds[2]
        E_REMOVED             # unit, name_base, name_depth, side, figures
        E_MORALE              # unit, die, face, markers, success
        E_DISCARD             # player, reserve
        E_TURN_END            # figures[2], units[2]
        E_GAME_OVER           # winner, reason, figures[2]
        E_FEATURE_FIRE        # source, feature, attack, range, defense, armor, ap, wounds, cover[2]

    # End reasons (S_REASON; atomic_africa.game.schema.END_REASONS).
    enum:
        R_NO_UNITS       # a side has no units left
        R_MORE_FIGURES   # turn limit: more remaining figures
        R_EQUAL_FIGURES  # turn limit: equal figures

    # An observation's head (schema.HEAD_OBSERVATION): its first float of each; the observer's hand follows.
    enum:
        OBS_TURN           # turn / turns
        OBS_STAGE          # one-hot of the stage (STAGES)
        OBS_TO_MOVE        # 1: the observer decides now
        OBS_ACTIVATING     # 1: the observer is the Activating player
        OBS_OWN_DECK       # cards in the observer's deck / cards per deck
        OBS_OWN_DISCARD    # cards in the observer's discard pile / cards per deck
        OBS_OWN_HAND       # cards in the observer's hand / cards per deck
        OBS_ENEMY_DECK     # cards in the opponent's deck / cards per deck
        OBS_ENEMY_DISCARD  # cards in the opponent's discard pile / cards per deck
        OBS_ENEMY_HAND     # cards in the opponent's hand / cards per deck
        OBS_HEAD           # floats of the head

    # A unit slot's observation floats: offsets in its UNIT_FEATURES (schema.UNIT_OBSERVATION); a one-hot's value is added to its first.
    enum:
        OBS_U_ALIVE                 # 1: the slot holds a unit (else every feature of the slot is 0)
        OBS_U_X                     # position x (0 = left table edge)
        OBS_U_Y                     # position y (0 = bottom table edge, player 0's deployment side)
        OBS_U_FIGURES               # figures left
        OBS_U_MARKERS               # suppression markers
        OBS_U_WOUNDS                # wound counters
        OBS_U_TURN_MARKERS          # suppression markers received this turn (the per-turn cap counts them)
        OBS_U_KIND_INFANTRY         # 1: the unit is infantry
        OBS_U_KIND_LIGHT_INFANTRY   # 1: the unit is light infantry
        OBS_U_KIND_VEHICLE          # 1: the unit is vehicle
        OBS_U_ARMOR                 # armour value
        OBS_U_DIE_TRAINING          # sides of the printed Training die
        OBS_U_DIE_EQUIPMENT         # sides of the printed Equipment die
        OBS_U_DIE_MORALE            # sides of the printed Morale die
        OBS_U_HW_DISPERSED          # 1: has a dispersed heavy weapon
        OBS_U_HW_POINT              # 1: has a point heavy weapon
        OBS_U_SPOTTER               # 1: may Call for Fire
        OBS_U_COMMS                 # 1: tactical comms (extends Rally range)
        OBS_U_COMMANDER             # 1: commander unit
        OBS_U_HAS_CARD              # 1: an order card lies on the unit (face down or up)
        OBS_U_CARD_KNOWN            # 1: the observer knows the card (own unit, or revealed)
        OBS_U_CARD_JOKER            # 1: the known card is a Joker
        OBS_U_CARD_HEARTS           # 1: the known card is a heart card
        OBS_U_CARD_DIAMONDS         # 1: the known card is a diamond card
        OBS_U_CARD_CLUBS            # 1: the known card is a club card
        OBS_U_CARD_SPADES           # 1: the known card is a spade card
        OBS_U_CARD_RANK             # rank of the known suited card (Ace = 1)
        OBS_U_ACTED                 # 1: took its action this turn
        OBS_U_IS_ACTIVATING         # 1: the unit activated in the current Activation phase
        OBS_U_IS_REACTING           # 1: the unit reacts in the current Activation phase
        OBS_U_IS_DECLARING          # 1: the unit is the one declaring now
        OBS_U_ACTION_BASIC          # 1: declared action basic this phase
        OBS_U_ACTION_DIG_IN         # 1: declared action dig in this phase
        OBS_U_ACTION_MASS_FIRE      # 1: declared action mass fire this phase
        OBS_U_ACTION_SPLIT_FIRE     # 1: declared action split fire this phase
        OBS_U_ACTION_HEAVY_WEAPON   # 1: declared action heavy weapon this phase
        OBS_U_ACTION_RALLY          # 1: declared action rally this phase
        OBS_U_ACTION_CALL_FOR_FIRE  # 1: declared action call for fire this phase
        OBS_U_ACTION_SPRINT         # 1: declared action sprint this phase
        OBS_U_DEST_X                # Destination figure x (the unit's own x when it does not move)
        OBS_U_DEST_Y                # Destination figure y
        OBS_U_MOVES                 # 1: placed In-transit/Destination figures this phase

    # One game's unit rows as named pointers (v.x[u] is unit u's x).
    ctypedef struct V "aa_view":
        const Params* P
        Game* g
        EventBuffer* ev
        int32_t* s
        int U, C, K
        int turn_due
        int8_t* alive
        int8_t* kind
        int8_t* hwd
        int8_t* hwp
        int8_t* spotter
        int8_t* comms
        int8_t* commander
        int8_t* revealed
        int8_t* acted
        int8_t* split_done
        int8_t* moves
        int8_t* confused
        int8_t* born
        int8_t* attached
        int8_t* orders_sup
        int32_t* name_base
        int32_t* name_depth
        int32_t* figures
        int32_t* armor
        int32_t* hwd_ap
        int32_t* hwp_ap
        int32_t* markers
        int32_t* wounds
        int32_t* turn_markers
        int32_t* card
        int32_t* action
        int32_t* posture
        int32_t* target
        int32_t* target2
        int32_t* asset
        double* x
        double* y
        double* aim_x
        double* aim_y
        double* dest_x
        double* dest_y
