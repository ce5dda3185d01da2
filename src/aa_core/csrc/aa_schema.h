/* Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_c: do not edit by hand.
 * Regenerate: PYTHONPATH=python python -m atomic_africa.game.native.schema_c
 * (tests/test_schema.py fails when this file and the schema differ). Included by the C core
 * (aa_engine.h); Cython takes the same names from aa_core/vgame_schema.pxi. */
#ifndef AA_SCHEMA_H
#define AA_SCHEMA_H

#include "aa_common.h"

/* Limits of the fixed-size arrays (schema.LIMITS). */
enum {
    MAX_ASSETS = 16,            /* fire-support assets per side (Params.call_for_fire.asset_*) */
    MAX_FRACS = 16,             /* movement distance fractions (Params.movement.distance_fractions) */
    MAX_DIRECTIONS = 64,        /* movement directions (Params.movement.dir_angle) */
    MAX_CLOCK = 64,             /* scatter-die faces + 1 (Params.call_for_fire.clock_angle, indexed by face) */
    MAX_EDGES = 32,             /* range band edges (Params.fire.band_edges_cm) */
    MAX_LADDER = 8,             /* dice of the wound ladder (Params.dice.ladder) */
    MAX_LEGAL = 8192,           /* actions of the action space (buffers for legal_actions) */
    MAX_SLOTS_TOTAL = 250,      /* unit slots of both sides (2 * C) */
    MAX_CARDS = 32767,          /* cards in a deck (int16 card piles) */
    MAX_FEATURES = 1024,        /* terrain features of a scenario */
    MAX_TARGETS = 1024,         /* one declaration's targets: unit slots or features */
    MAX_ATTACKS = 512,          /* attacks resolved in one Activation phase */
    MAX_VALUE = 1073741824,     /* largest score or armor the C API's fire functions take (aa_resolve_fire) */
    MAX_MARKERS_PER_HIT = 100,  /* markers of one hit and a per-turn marker cap (int8 markers) */
    UNIT_FEATURES = 42,         /* observation floats per unit slot */
    N_STAGES = 12,              /* stages (the observation's one-hot) */
    N_ACTIONS = 8,              /* Action values */
};

/* Action / Posture / UnitKind values (atomic_africa.enums) and the empty card. */
enum {
    A_BASIC = 0,
    A_DIG_IN = 1,
    A_MASS_FIRE = 2,
    A_SPLIT_FIRE = 3,
    A_HEAVY_WEAPON = 4,
    A_RALLY = 5,
    A_CALL_FOR_FIRE = 6,
    A_SPRINT = 7,
    P_OFFENSIVE = 0,
    P_DEFENSIVE = 1,
    K_INFANTRY = 0,
    K_LIGHT_INFANTRY = 1,
    K_VEHICLE = 2,
    NO_CARD = -1,
};

/* Stages (atomic_africa.game.state.Stage). */
enum {
    ST_ORDERS = 0,           /* current player assigns cards to its units */
    ST_ACTIVATE = 1,         /* Activating player reveals one ordered unit */
    ST_DECLARE_ACTION = 2,   /* choose the action (and posture, for a Joker) */
    ST_DECLARE_TARGET = 3,   /* fire / Rally / Call for Fire target (or none) */
    ST_DECLARE_TARGET2 = 4,  /* Split Fire's second target (the lower Attack) */
    ST_DECLARE_ASSET = 5,    /* Call for Fire: which off-board asset */
    ST_REACT = 6,            /* Reacting player answers with one ordered unit */
    ST_RESERVE_PICK = 7,     /* a unit forced to react takes a legal card from the Reserve */
    ST_MOVE = 8,             /* place the Destination figure */
    ST_SPRINT_MOVE = 9,      /* after resolution: direction of the sprint bonus displacement */
    ST_SPLIT = 10,           /* Clean-up: voluntary splits */
    ST_OVER = 11,            /* the game is over */
};

/* Game scalars: columns of the (n, NS) int32 array. */
enum {
    S_TURN = 0,        /* turn number (0: set-up) */
    S_STAGE = 1,       /* Stage */
    S_CUR = 2,         /* player to move (-1: game over) */
    S_FIRST = 3,       /* first Activating player of this turn */
    S_ACTIVATING = 4,  /* Activating player of the current Activation phase */
    S_NEXT_ACT = 5,    /* Activating player of the next phase */
    S_PHASE = 6,       /* Activation phases so far (whole game) */
    S_ACT = 7,         /* activated unit of this phase (-1: none) */
    S_REACT = 8,       /* reacting unit (-1: none) */
    S_DECL = 9,        /* unit being declared / moved / sprinting */
    S_NPEND = 10,      /* units still to move or sprint */
    S_PEND0 = 11,      /* first pending unit */
    S_PEND1 = 12,      /* second pending unit */
    S_STEP = 13,       /* which player of the two is assigning orders / splitting */
    S_WINNER = 14,     /* -2 running, -1 draw, 0/1 winner */
    S_REASON = 15,     /* end reason: index into END_REASONS */
    S_LAST = 16,       /* player who took the last decision */
    S_HIDDEN0 = 17,    /* cards at the bottom of player 0's discard pile discarded face down (its Reserve at Clean-up) */
    S_HIDDEN1 = 18,    /* cards at the bottom of player 1's discard pile discarded face down */
    S_NOANY0 = 19,     /* player 0's Reserve is known to hold no card a suppressed unit may take */
    S_NOANY1 = 20,     /* player 1's Reserve is known to hold no card a suppressed unit may take */
    NS = 21,
};

/* Unit int8_t fields: rows of the (n, NI8, U) array. */
enum {
    F_ALIVE = 0,        /* False: an empty slot (never used, merged away or removed) */
    F_KIND = 1,         /* UnitKind */
    F_HWD = 2,          /* has a dispersed heavy weapon */
    F_HWP = 3,          /* has a point heavy weapon */
    F_SPOTTER = 4,      /* may Call for Fire */
    F_COMMS = 5,        /* extends Rally range */
    F_COMMANDER = 6,    /* commander unit */
    F_REVEALED = 7,     /* its order card is face up */
    F_ACTED = 8,        /* took its action this turn (activated or reacted) */
    F_SPLIT_DONE = 9,   /* already split in this Clean-up */
    F_MOVES = 10,       /* placed In-transit/Destination figures */
    F_CONFUSED = 11,    /* confused this phase */
    F_BORN = 12,        /* scratch: slot filled during this Clean-up's compulsory splits */
    F_ATTACHED = 13,    /* needs orders but adds no card to the hand (RULES.md section 1) */
    F_ORDERS_SUP = 14,  /* took its face-down order card while suppressed */
    NI8 = 15,
};

/* Unit int32_t fields: rows of the (n, NI32, U) array. */
enum {
    F_NAME_BASE = 0,     /* index of the scenario unit the name comes from (-1: empty slot) */
    F_NAME_DEPTH = 1,    /* '/b' suffixes (splits) */
    F_FIGURES = 2,       /* figures left */
    F_ARMOR = 3,         /* armour value */
    F_HWD_AP = 4,        /* armour piercing of the dispersed heavy weapon */
    F_HWP_AP = 5,        /* armour piercing of the point heavy weapon */
    F_MARKERS = 6,       /* suppression markers */
    F_WOUNDS = 7,        /* wounds */
    F_TURN_MARKERS = 8,  /* new suppression markers received this turn (for the per-turn cap) */
    F_CARD = 9,          /* order card on the unit (face down until revealed) */
    F_ACTION = 10,       /* Activation-phase scratch: declared Action */
    F_POSTURE = 11,      /* Activation-phase scratch: declared Posture */
    F_TARGET = 12,       /* Activation-phase scratch: target uid (or feature) */
    F_TARGET2 = 13,      /* Activation-phase scratch: Split Fire's second target */
    F_ASSET = 14,        /* Activation-phase scratch: Call for Fire asset */
    F_DIE0 = 15,         /* sides of the three Attribute dice (dice[0]) */
    F_DIE1 = 16,         /* sides of the three Attribute dice (dice[1]) */
    F_DIE2 = 17,         /* sides of the three Attribute dice (dice[2]) */
    NI32 = 18,
};

/* Unit double fields: rows of the (n, NF64, U) array. */
enum {
    F_X = 0,       /* position (cm) */
    F_Y = 1,       /* position (cm) */
    F_AIM_X = 2,   /* Call for Fire target point */
    F_AIM_Y = 3,   /* Call for Fire target point */
    F_DEST_X = 4,  /* Destination figure */
    F_DEST_Y = 5,  /* Destination figure */
    NF64 = 6,
};

/* Event record codes; a record is code, turn, n, then n values (listed). */
enum {
    E_SETUP = 0,                /* (no values) */
    E_SHUFFLE = 1,              /* player, deck... */
    E_RESHUFFLE = 2,            /* player, deck... */
    E_DRAW = 3,                 /* player, cards... */
    E_ASSIGN = 4,               /* player, unit, card */
    E_ORDERS_DONE = 5,          /* player, reserve */
    E_ACTIVATE = 6,             /* player, unit, card */
    E_REACT = 7,                /* player, unit, card */
    E_RESERVE_CARD = 8,         /* player, unit, card */
    E_CONFUSED_DRAW = 9,        /* player, unit, card */
    E_CONFUSED = 10,            /* player, unit, card */
    E_CONFUSED_DIRECTION = 11,  /* unit, face, sprint */
    E_NO_REACTION = 12,         /* player, unit */
    E_DECLARE = 13,             /* unit, action, posture, confused */
    E_TARGETS = 14,             /* unit, target, target2, asset */
    E_MOVE = 15,                /* unit, start.x, start.y, dest.x, dest.y, in_transit.x, in_transit.y */
    E_ROLL = 16,                /* unit, dice[3], faces[3], shattered, action, posture, n_attacks, attacks[2], defense, rally, spotting, sprint_bonus */
    E_BYSTANDER_ROLL = 17,      /* unit, dice[3], faces[3], shattered, action, posture, n_attacks, attacks[2], defense, rally, spotting, sprint_bonus */
    E_SCATTER = 18,             /* unit, asset, aim.x, aim.y, clock, distance, spotting, direct_hit, impact.x, impact.y */
    E_SUPPORT_ROLL = 19,        /* unit, asset, faces[3], attack */
    E_FIRE = 20,                /* source, target, attack, range, defense, armor, cover, ap, markers, wounds */
    E_FIRE_RESULT = 21,         /* target, markers, wounds, total_markers, total_wounds, cover */
    E_RALLY = 22,               /* unit, target, rally, range, markers, los, success */
    E_SPRINT = 23,              /* unit, distance, dest.x, dest.y */
    E_COMPLETE_MOVE = 24,       /* unit, start.x, start.y, dest.x, dest.y */
    E_MERGE = 25,               /* unit, name_base, name_depth, into, figures[2], markers[2], wounds[2] */
    E_INITIATIVE = 26,          /* player */
    E_SPLIT = 27,               /* unit, new_unit, voluntary, figures[2], markers[2], wounds[2] */
    E_REMOVED = 28,             /* unit, name_base, name_depth, side, figures */
    E_MORALE = 29,              /* unit, die, face, markers, success */
    E_DISCARD = 30,             /* player, reserve */
    E_TURN_END = 31,            /* figures[2], units[2] */
    E_GAME_OVER = 32,           /* winner, reason, figures[2] */
    E_FEATURE_FIRE = 33,        /* source, feature, attack, range, defense, armor, ap, wounds, cover[2] */
};

/* End reasons (S_REASON; atomic_africa.game.schema.END_REASONS). */
enum {
    R_NO_UNITS = 0,       /* a side has no units left */
    R_MORE_FIGURES = 1,   /* turn limit: more remaining figures */
    R_EQUAL_FIGURES = 2,  /* turn limit: equal figures */
};

/* An observation's head (schema.HEAD_OBSERVATION): its first float of each; the observer's hand follows. */
enum {
    OBS_TURN = 0,            /* turn / turns */
    OBS_STAGE = 1,           /* one-hot of the stage (STAGES) */
    OBS_TO_MOVE = 13,        /* 1: the observer decides now */
    OBS_ACTIVATING = 14,     /* 1: the observer is the Activating player */
    OBS_OWN_DECK = 15,       /* cards in the observer's deck / cards per deck */
    OBS_OWN_DISCARD = 16,    /* cards in the observer's discard pile / cards per deck */
    OBS_OWN_HAND = 17,       /* cards in the observer's hand / cards per deck */
    OBS_ENEMY_DECK = 18,     /* cards in the opponent's deck / cards per deck */
    OBS_ENEMY_DISCARD = 19,  /* cards in the opponent's discard pile / cards per deck */
    OBS_ENEMY_HAND = 20,     /* cards in the opponent's hand / cards per deck */
    OBS_HEAD = 21,           /* floats of the head */
};

/* A unit slot's observation floats: offsets in its UNIT_FEATURES (schema.UNIT_OBSERVATION); a one-hot's value is added to its first. */
enum {
    OBS_U_ALIVE = 0,                  /* 1: the slot holds a unit (else every feature of the slot is 0) */
    OBS_U_X = 1,                      /* position x (0 = left table edge) */
    OBS_U_Y = 2,                      /* position y (0 = bottom table edge, player 0's deployment side) */
    OBS_U_FIGURES = 3,                /* figures left */
    OBS_U_MARKERS = 4,                /* suppression markers */
    OBS_U_WOUNDS = 5,                 /* wound counters */
    OBS_U_TURN_MARKERS = 6,           /* suppression markers received this turn (the per-turn cap counts them) */
    OBS_U_KIND_INFANTRY = 7,          /* 1: the unit is infantry */
    OBS_U_KIND_LIGHT_INFANTRY = 8,    /* 1: the unit is light infantry */
    OBS_U_KIND_VEHICLE = 9,           /* 1: the unit is vehicle */
    OBS_U_ARMOR = 10,                 /* armour value */
    OBS_U_DIE_TRAINING = 11,          /* sides of the printed Training die */
    OBS_U_DIE_EQUIPMENT = 12,         /* sides of the printed Equipment die */
    OBS_U_DIE_MORALE = 13,            /* sides of the printed Morale die */
    OBS_U_HW_DISPERSED = 14,          /* 1: has a dispersed heavy weapon */
    OBS_U_HW_POINT = 15,              /* 1: has a point heavy weapon */
    OBS_U_SPOTTER = 16,               /* 1: may Call for Fire */
    OBS_U_COMMS = 17,                 /* 1: tactical comms (extends Rally range) */
    OBS_U_COMMANDER = 18,             /* 1: commander unit */
    OBS_U_HAS_CARD = 19,              /* 1: an order card lies on the unit (face down or up) */
    OBS_U_CARD_KNOWN = 20,            /* 1: the observer knows the card (own unit, or revealed) */
    OBS_U_CARD_JOKER = 21,            /* 1: the known card is a Joker */
    OBS_U_CARD_HEARTS = 22,           /* 1: the known card is a heart card */
    OBS_U_CARD_DIAMONDS = 23,         /* 1: the known card is a diamond card */
    OBS_U_CARD_CLUBS = 24,            /* 1: the known card is a club card */
    OBS_U_CARD_SPADES = 25,           /* 1: the known card is a spade card */
    OBS_U_CARD_RANK = 26,             /* rank of the known suited card (Ace = 1) */
    OBS_U_ACTED = 27,                 /* 1: took its action this turn */
    OBS_U_IS_ACTIVATING = 28,         /* 1: the unit activated in the current Activation phase */
    OBS_U_IS_REACTING = 29,           /* 1: the unit reacts in the current Activation phase */
    OBS_U_IS_DECLARING = 30,          /* 1: the unit is the one declaring now */
    OBS_U_ACTION_BASIC = 31,          /* 1: declared action basic this phase */
    OBS_U_ACTION_DIG_IN = 32,         /* 1: declared action dig in this phase */
    OBS_U_ACTION_MASS_FIRE = 33,      /* 1: declared action mass fire this phase */
    OBS_U_ACTION_SPLIT_FIRE = 34,     /* 1: declared action split fire this phase */
    OBS_U_ACTION_HEAVY_WEAPON = 35,   /* 1: declared action heavy weapon this phase */
    OBS_U_ACTION_RALLY = 36,          /* 1: declared action rally this phase */
    OBS_U_ACTION_CALL_FOR_FIRE = 37,  /* 1: declared action call for fire this phase */
    OBS_U_ACTION_SPRINT = 38,         /* 1: declared action sprint this phase */
    OBS_U_DEST_X = 39,                /* Destination figure x (the unit's own x when it does not move) */
    OBS_U_DEST_Y = 40,                /* Destination figure y */
    OBS_U_MOVES = 41,                 /* 1: placed In-transit/Destination figures this phase */
};

struct aa_params;
struct aa_state;
struct aa_events;

/* One game's unit rows as named pointers (v->x[u] is unit u's x); aa_make_view (aa_engine.h)
 * fills it. */
typedef struct aa_view {
    const struct aa_params *P;
    struct aa_state *g;
    struct aa_events *ev;
    int32_t *s;
    int U, C, K;
    int turn_due;   /* Clean-up ended a turn: the entry point begins the next (a loop) */
    int8_t *alive;
    int8_t *kind;
    int8_t *hwd;
    int8_t *hwp;
    int8_t *spotter;
    int8_t *comms;
    int8_t *commander;
    int8_t *revealed;
    int8_t *acted;
    int8_t *split_done;
    int8_t *moves;
    int8_t *confused;
    int8_t *born;
    int8_t *attached;
    int8_t *orders_sup;
    int32_t *name_base;
    int32_t *name_depth;
    int32_t *figures;
    int32_t *armor;
    int32_t *hwd_ap;
    int32_t *hwp_ap;
    int32_t *markers;
    int32_t *wounds;
    int32_t *turn_markers;
    int32_t *card;
    int32_t *action;
    int32_t *posture;
    int32_t *target;
    int32_t *target2;
    int32_t *asset;
    double *x;
    double *y;
    double *aim_x;
    double *aim_y;
    double *dest_x;
    double *dest_y;
} aa_view;

/* Point v's unit rows into one game's storage: i8 (NI8 x U), i32 (NI32 x U), f64 (NF64 x U). */
AA_INLINE void aa_view_rows(aa_view *v, int8_t *i8, int32_t *i32, double *f64, int U) {
    v->alive = i8 + F_ALIVE * U;
    v->kind = i8 + F_KIND * U;
    v->hwd = i8 + F_HWD * U;
    v->hwp = i8 + F_HWP * U;
    v->spotter = i8 + F_SPOTTER * U;
    v->comms = i8 + F_COMMS * U;
    v->commander = i8 + F_COMMANDER * U;
    v->revealed = i8 + F_REVEALED * U;
    v->acted = i8 + F_ACTED * U;
    v->split_done = i8 + F_SPLIT_DONE * U;
    v->moves = i8 + F_MOVES * U;
    v->confused = i8 + F_CONFUSED * U;
    v->born = i8 + F_BORN * U;
    v->attached = i8 + F_ATTACHED * U;
    v->orders_sup = i8 + F_ORDERS_SUP * U;
    v->name_base = i32 + F_NAME_BASE * U;
    v->name_depth = i32 + F_NAME_DEPTH * U;
    v->figures = i32 + F_FIGURES * U;
    v->armor = i32 + F_ARMOR * U;
    v->hwd_ap = i32 + F_HWD_AP * U;
    v->hwp_ap = i32 + F_HWP_AP * U;
    v->markers = i32 + F_MARKERS * U;
    v->wounds = i32 + F_WOUNDS * U;
    v->turn_markers = i32 + F_TURN_MARKERS * U;
    v->card = i32 + F_CARD * U;
    v->action = i32 + F_ACTION * U;
    v->posture = i32 + F_POSTURE * U;
    v->target = i32 + F_TARGET * U;
    v->target2 = i32 + F_TARGET2 * U;
    v->asset = i32 + F_ASSET * U;
    v->x = f64 + F_X * U;
    v->y = f64 + F_Y * U;
    v->aim_x = f64 + F_AIM_X * U;
    v->aim_y = f64 + F_AIM_Y * U;
    v->dest_x = f64 + F_DEST_X * U;
    v->dest_y = f64 + F_DEST_Y * U;
}

#endif
