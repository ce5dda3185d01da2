/* Generated from atomic_africa.game.native.spec_file: do not edit by hand.
 * Regenerate: PYTHONPATH=python python -m atomic_africa.game.native.spec_file
 * (tests/test_spec_file.py fails when this file and the module differ). Included by aa_spec.c only:
 * the spec file's fields in file order, with their bounds (from atomic_africa._limits). */
#ifndef AA_SPEC_FIELDS_H
#define AA_SPEC_FIELDS_H

#include "aa_engine.h"

#define AA_SPEC_FORMAT_VERSION 1
#define AA_SPEC_HEADER_SIZE 32
#define AA_SPEC_MAX_POLYGON_POINTS 1024   /* vertices of one terrain polygon */
#define AA_SPEC_MAGIC "AA-SPEC"   /* and a NUL: 8 bytes */

enum { AA_SPEC_I8, AA_SPEC_U8, AA_SPEC_I32, AA_SPEC_I64, AA_SPEC_F64 };

/* A number field of aa_params: where it goes, its type and count. */
typedef struct aa_spec_field {
    const char *name;
    size_t offset;
    int type;
    int count;
    int positive;   /* lo excluded */
} aa_spec_field;

static const aa_spec_field AA_SPEC_PARAMS[] = {
    {"C", offsetof(aa_params, C), AA_SPEC_I32, 1, 0},
    {"U", offsetof(aa_params, U), AA_SPEC_I32, 1, 0},
    {"K", offsetof(aa_params, K), AA_SPEC_I32, 1, 0},
    {"obs_size", offsetof(aa_params, obs_size), AA_SPEC_I32, 1, 0},
    {"n_actions", offsetof(aa_params, n_actions), AA_SPEC_I32, 1, 0},
    {"base.assign", offsetof(aa_params, base.assign), AA_SPEC_I32, 1, 0},
    {"base.end_orders", offsetof(aa_params, base.end_orders), AA_SPEC_I32, 1, 0},
    {"base.select", offsetof(aa_params, base.select), AA_SPEC_I32, 1, 0},
    {"base.declare", offsetof(aa_params, base.declare), AA_SPEC_I32, 1, 0},
    {"base.target", offsetof(aa_params, base.target), AA_SPEC_I32, 1, 0},
    {"base.no_target", offsetof(aa_params, base.no_target), AA_SPEC_I32, 1, 0},
    {"base.asset", offsetof(aa_params, base.asset), AA_SPEC_I32, 1, 0},
    {"base.move", offsetof(aa_params, base.move), AA_SPEC_I32, 1, 0},
    {"base.stay", offsetof(aa_params, base.stay), AA_SPEC_I32, 1, 0},
    {"base.split", offsetof(aa_params, base.split), AA_SPEC_I32, 1, 0},
    {"base.end_splits", offsetof(aa_params, base.end_splits), AA_SPEC_I32, 1, 0},
    {"base.feature", offsetof(aa_params, base.feature), AA_SPEC_I32, 1, 0},
    {"movement.increment_cm", offsetof(aa_params, movement.increment_cm), AA_SPEC_F64, 1, 1},
    {"movement.vehicle_increment_cm", offsetof(aa_params, movement.vehicle_increment_cm), AA_SPEC_F64, 1, 1},
    {"movement.sprint_increment_cm", offsetof(aa_params, movement.sprint_increment_cm), AA_SPEC_F64, 1, 1},
    {"movement.vehicle_sprint_increment_cm", offsetof(aa_params, movement.vehicle_sprint_increment_cm), AA_SPEC_F64, 1, 1},
    {"movement.basic_move_per_value", offsetof(aa_params, movement.basic_move_per_value), AA_SPEC_I32, 1, 0},
    {"movement.sprint_card_value", offsetof(aa_params, movement.sprint_card_value), AA_SPEC_I32, 1, 0},
    {"movement.directions", offsetof(aa_params, movement.directions), AA_SPEC_I32, 1, 0},
    {"movement.distance_fractions", offsetof(aa_params, movement.distance_fractions), AA_SPEC_F64, 16, 0},
    {"movement.merge_contact_cm", offsetof(aa_params, movement.merge_contact_cm), AA_SPEC_F64, 1, 0},
    {"movement.merge_same_kind_only", offsetof(aa_params, movement.merge_same_kind_only), AA_SPEC_I32, 1, 0},
    {"movement.vehicles_merge", offsetof(aa_params, movement.vehicles_merge), AA_SPEC_I32, 1, 0},
    {"movement.n_fractions", offsetof(aa_params, movement.n_fractions), AA_SPEC_I32, 1, 0},
    {"movement.dir_angle", offsetof(aa_params, movement.dir_angle), AA_SPEC_F64, 64, 0},
    {"orders.joker_takes_initiative", offsetof(aa_params, orders.joker_takes_initiative), AA_SPEC_I32, 1, 0},
    {"orders.fire_needs_los", offsetof(aa_params, orders.fire_needs_los), AA_SPEC_I32, 1, 0},
    {"orders.first_player_alternates", offsetof(aa_params, orders.first_player_alternates), AA_SPEC_I32, 1, 0},
    {"orders.attached_add_cards", offsetof(aa_params, orders.attached_add_cards), AA_SPEC_I32, 1, 0},
    {"orders.reserve_by_choice", offsetof(aa_params, orders.reserve_by_choice), AA_SPEC_I32, 1, 0},
    {"orders.spent_units_react", offsetof(aa_params, orders.spent_units_react), AA_SPEC_I32, 1, 0},
    {"orders.bystander_posture", offsetof(aa_params, orders.bystander_posture), AA_SPEC_I32, 1, 0},
    {"orders.ranks", offsetof(aa_params, orders.ranks), AA_SPEC_I32, 1, 0},
    {"orders.draw_bonus", offsetof(aa_params, orders.draw_bonus), AA_SPEC_I32, 2, 0},
    {"orders.hand_fixed", offsetof(aa_params, orders.hand_fixed), AA_SPEC_I32, 2, 0},
    {"rally.self_range", offsetof(aa_params, rally.self_range), AA_SPEC_I32, 1, 0},
    {"rally.comms_range_penalty", offsetof(aa_params, rally.comms_range_penalty), AA_SPEC_I32, 1, 0},
    {"rally.markers_removed", offsetof(aa_params, rally.markers_removed), AA_SPEC_I32, 1, 0},
    {"call_for_fire.scatter_die", offsetof(aa_params, call_for_fire.scatter_die), AA_SPEC_I32, 1, 0},
    {"call_for_fire.support_range_band", offsetof(aa_params, call_for_fire.support_range_band), AA_SPEC_I32, 1, 0},
    {"call_for_fire.support_action", offsetof(aa_params, call_for_fire.support_action), AA_SPEC_I32, 1, 0},
    {"call_for_fire.support_posture", offsetof(aa_params, call_for_fire.support_posture), AA_SPEC_I32, 1, 0},
    {"call_for_fire.scatter_increment_cm", offsetof(aa_params, call_for_fire.scatter_increment_cm), AA_SPEC_F64, 1, 1},
    {"call_for_fire.clockwise", offsetof(aa_params, call_for_fire.clockwise), AA_SPEC_I32, 1, 0},
    {"call_for_fire.blast_hits_friends", offsetof(aa_params, call_for_fire.blast_hits_friends), AA_SPEC_I32, 1, 0},
    {"call_for_fire.clock_zero_rad", offsetof(aa_params, call_for_fire.clock_zero_rad), AA_SPEC_F64, 1, 0},
    {"call_for_fire.clock_angle", offsetof(aa_params, call_for_fire.clock_angle), AA_SPEC_F64, 64, 0},
    {"call_for_fire.n_assets", offsetof(aa_params, call_for_fire.n_assets), AA_SPEC_I32, 2, 0},
    {"call_for_fire.asset_dice", offsetof(aa_params, call_for_fire.asset_dice), AA_SPEC_I32, 96, 0},
    {"call_for_fire.asset_ap", offsetof(aa_params, call_for_fire.asset_ap), AA_SPEC_I32, 32, 0},
    {"call_for_fire.asset_r2", offsetof(aa_params, call_for_fire.asset_r2), AA_SPEC_F64, 32, 0},
    {"call_for_fire.asset_blast_cm", offsetof(aa_params, call_for_fire.asset_blast_cm), AA_SPEC_F64, 32, 0},
    {"cleanup.split_min_figures", offsetof(aa_params, cleanup.split_min_figures), AA_SPEC_I32, 1, 0},
    {"cleanup.morale_markers_removed", offsetof(aa_params, cleanup.morale_markers_removed), AA_SPEC_I32, 1, 0},
    {"cleanup.odd_to_larger_half", offsetof(aa_params, cleanup.odd_to_larger_half), AA_SPEC_I32, 1, 0},
    {"cleanup.split_offset_cm", offsetof(aa_params, cleanup.split_offset_cm), AA_SPEC_F64, 1, 1},
    {"cleanup.shattered_if_morale_only", offsetof(aa_params, cleanup.shattered_if_morale_only), AA_SPEC_I32, 1, 0},
    {"dice.ladder", offsetof(aa_params, dice.ladder), AA_SPEC_I64, 8, 0},
    {"dice.shattered_die", offsetof(aa_params, dice.shattered_die), AA_SPEC_I32, 1, 0},
    {"dice.n_ladder", offsetof(aa_params, dice.n_ladder), AA_SPEC_I32, 1, 0},
    {"dice.shift_attr", offsetof(aa_params, dice.shift_attr), AA_SPEC_I32, 2, 0},
    {"fire.rules.cover_bonus", offsetof(aa_params, fire.rules.cover_bonus), AA_SPEC_I32, 3, 0},
    {"fire.rules.armor_floor", offsetof(aa_params, fire.rules.armor_floor), AA_SPEC_I32, 1, 0},
    {"fire.rules.markers_range", offsetof(aa_params, fire.rules.markers_range), AA_SPEC_I32, 2, 0},
    {"fire.rules.markers_damage", offsetof(aa_params, fire.rules.markers_damage), AA_SPEC_I32, 2, 0},
    {"fire.rules.turn_cap", offsetof(aa_params, fire.rules.turn_cap), AA_SPEC_I32, 2, 0},
    {"fire.band_edges_cm", offsetof(aa_params, fire.band_edges_cm), AA_SPEC_F64, 32, 0},
    {"fire.feature_defense", offsetof(aa_params, fire.feature_defense), AA_SPEC_I32, 1, 0},
    {"fire.feature_cover_per_wound", offsetof(aa_params, fire.feature_cover_per_wound), AA_SPEC_I32, 1, 0},
    {"fire.n_edges", offsetof(aa_params, fire.n_edges), AA_SPEC_I32, 1, 0},
    {"table.width_cm", offsetof(aa_params, table.width_cm), AA_SPEC_F64, 1, 1},
    {"table.height_cm", offsetof(aa_params, table.height_cm), AA_SPEC_F64, 1, 1},
    {"table.mid_x", offsetof(aa_params, table.mid_x), AA_SPEC_F64, 1, 0},
    {"table.mid_y", offsetof(aa_params, table.mid_y), AA_SPEC_F64, 1, 0},
    {"table.turns", offsetof(aa_params, table.turns), AA_SPEC_I32, 1, 0},
    {"terrain.n_poly", offsetof(aa_params, terrain.n_poly), AA_SPEC_I32, 1, 0},
    {"terrain.n_circ", offsetof(aa_params, terrain.n_circ), AA_SPEC_I32, 1, 0},
    {"terrain.n_feat", offsetof(aa_params, terrain.n_feat), AA_SPEC_I32, 1, 0},
    {"terrain.edge_depth", offsetof(aa_params, terrain.edge_depth), AA_SPEC_F64, 1, 0},
};
enum { AA_SPEC_N_PARAMS = 84, AA_SPEC_N_TABLES = 27 };

/* Bounds of number field k (values read before it are in P). */
AA_INLINE void aa_spec_param_bounds_(int k, const aa_params *P, double *lo, double *hi) {
    (void)P;
    switch (k) {
    case 0: *lo = 1.0; *hi = 125.0; break;
    case 1: *lo = 2.0; *hi = 250.0; break;
    case 2: *lo = 4.0; *hi = 256.0; break;
    case 3: *lo = 1.0; *hi = 16777216.0; break;
    case 4: *lo = 1.0; *hi = 8192.0; break;
    case 5: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 6: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 7: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 8: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 9: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 10: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 11: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 12: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 13: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 14: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 15: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 16: *lo = 0.0; *hi = (double)(P->n_actions); break;
    case 17: *lo = 0.0; *hi = 10000.0; break;
    case 18: *lo = 0.0; *hi = 10000.0; break;
    case 19: *lo = 0.0; *hi = 10000.0; break;
    case 20: *lo = 0.0; *hi = 10000.0; break;
    case 21: *lo = 0.0; *hi = 100.0; break;
    case 22: *lo = 1.0; *hi = 1000.0; break;
    case 23: *lo = 1.0; *hi = 64.0; break;
    case 24: *lo = 0.0; *hi = 1.0; break;
    case 25: *lo = 0.0; *hi = 10000.0; break;
    case 26: *lo = 0.0; *hi = 1.0; break;
    case 27: *lo = 0.0; *hi = 1.0; break;
    case 28: *lo = 1.0; *hi = 16.0; break;
    case 29: *lo = -12.566370614359172; *hi = 12.566370614359172; break;
    case 30: *lo = 0.0; *hi = 1.0; break;
    case 31: *lo = 0.0; *hi = 1.0; break;
    case 32: *lo = 0.0; *hi = 1.0; break;
    case 33: *lo = 0.0; *hi = 1.0; break;
    case 34: *lo = 0.0; *hi = 1.0; break;
    case 35: *lo = 0.0; *hi = 1.0; break;
    case 36: *lo = 0.0; *hi = 1.0; break;
    case 37: *lo = 1.0; *hi = 64.0; break;
    case 38: *lo = 0.0; *hi = 1000.0; break;
    case 39: *lo = -1.0; *hi = 1250.0; break;
    case 40: *lo = 0.0; *hi = 1000.0; break;
    case 41: *lo = 0.0; *hi = 1000.0; break;
    case 42: *lo = 1.0; *hi = 1000.0; break;
    case 43: *lo = 2.0; *hi = 63.0; break;
    case 44: *lo = 1.0; *hi = 33.0; break;
    case 45: *lo = 0.0; *hi = 7.0; break;
    case 46: *lo = 0.0; *hi = 1.0; break;
    case 47: *lo = 0.0; *hi = 10000.0; break;
    case 48: *lo = 0.0; *hi = 1.0; break;
    case 49: *lo = 0.0; *hi = 1.0; break;
    case 50: *lo = -6.283185307179586; *hi = 6.283185307179586; break;
    case 51: *lo = -12.566370614359172; *hi = 12.566370614359172; break;
    case 52: *lo = 0.0; *hi = 16.0; break;
    case 53: *lo = 0.0; *hi = 12.0; break;
    case 54: *lo = -100.0; *hi = 0.0; break;
    case 55: *lo = 0.0; *hi = 100000000.0; break;
    case 56: *lo = 0.0; *hi = 10000.0; break;
    case 57: *lo = 2.0; *hi = 1000.0; break;
    case 58: *lo = 1.0; *hi = 1000.0; break;
    case 59: *lo = 0.0; *hi = 1.0; break;
    case 60: *lo = 0.0; *hi = 10000.0; break;
    case 61: *lo = 0.0; *hi = 1.0; break;
    case 62: *lo = 0.0; *hi = 12.0; break;
    case 63: *lo = 4.0; *hi = 12.0; break;
    case 64: *lo = 2.0; *hi = 8.0; break;
    case 65: *lo = 0.0; *hi = 2.0; break;
    case 66: *lo = 0.0; *hi = 1073741823.0; break;
    case 67: *lo = 1.0; *hi = 1073741824.0; break;
    case 68: *lo = 0.0; *hi = 100.0; break;
    case 69: *lo = 0.0; *hi = 100.0; break;
    case 70: *lo = 0.0; *hi = 100.0; break;
    case 71: *lo = 0.0; *hi = 10000.0; break;
    case 72: *lo = 0.0; *hi = 1073741824.0; break;
    case 73: *lo = 1.0; *hi = 2.0; break;
    case 74: *lo = 1.0; *hi = 32.0; break;
    case 75: *lo = 0.0; *hi = 10000.0; break;
    case 76: *lo = 0.0; *hi = 10000.0; break;
    case 77: *lo = 0.0; *hi = 10000.0; break;
    case 78: *lo = 0.0; *hi = 10000.0; break;
    case 79: *lo = 1.0; *hi = 1000.0; break;
    case 80: *lo = 0.0; *hi = 1024.0; break;
    case 81: *lo = 0.0; *hi = 1024.0; break;
    case 82: *lo = 0.0; *hi = 1024.0; break;
    case 83: *lo = 0.0; *hi = 10000.0; break;
    default: *lo = 0.0; *hi = -1.0; break;
    }
}

/* A table of aa_tables / aa_terrain: its name and element type. */
typedef struct aa_spec_table {
    const char *name;
    int type;
} aa_spec_table;

static const aa_spec_table AA_SPEC_TABLES[] = {
    {"tables.card_joker", AA_SPEC_I8},
    {"tables.card_suit", AA_SPEC_I8},
    {"tables.card_rank", AA_SPEC_I8},
    {"tables.card_posture", AA_SPEC_I8},
    {"tables.card_face", AA_SPEC_I8},
    {"tables.card_any", AA_SPEC_I8},
    {"tables.card_move", AA_SPEC_I32},
    {"tables.table5", AA_SPEC_I8},
    {"tables.feat_x", AA_SPEC_F64},
    {"tables.feat_y", AA_SPEC_F64},
    {"tables.feat_cover0", AA_SPEC_I8},
    {"tables.tmpl_i8", AA_SPEC_I8},
    {"tables.tmpl_i32", AA_SPEC_I32},
    {"tables.tmpl_f64", AA_SPEC_F64},
    {"terrain.poly_off", AA_SPEC_I64},
    {"terrain.vx", AA_SPEC_F64},
    {"terrain.vy", AA_SPEC_F64},
    {"terrain.poly_blocks", AA_SPEC_U8},
    {"terrain.poly_cover", AA_SPEC_I8},
    {"terrain.poly_feat", AA_SPEC_I32},
    {"terrain.cx", AA_SPEC_F64},
    {"terrain.cy", AA_SPEC_F64},
    {"terrain.cr", AA_SPEC_F64},
    {"terrain.circ_blocks", AA_SPEC_U8},
    {"terrain.circ_cover", AA_SPEC_I8},
    {"terrain.circ_feat", AA_SPEC_I32},
    {"terrain.feat_armor", AA_SPEC_I32},
};
enum {
    AA_SPEC_T_CARD_JOKER = 0,
    AA_SPEC_T_CARD_SUIT = 1,
    AA_SPEC_T_CARD_RANK = 2,
    AA_SPEC_T_CARD_POSTURE = 3,
    AA_SPEC_T_CARD_FACE = 4,
    AA_SPEC_T_CARD_ANY = 5,
    AA_SPEC_T_CARD_MOVE = 6,
    AA_SPEC_T_TABLE5 = 7,
    AA_SPEC_T_FEAT_X = 8,
    AA_SPEC_T_FEAT_Y = 9,
    AA_SPEC_T_FEAT_COVER0 = 10,
    AA_SPEC_T_TMPL_I8 = 11,
    AA_SPEC_T_TMPL_I32 = 12,
    AA_SPEC_T_TMPL_F64 = 13,
    AA_SPEC_T_POLY_OFF = 14,
    AA_SPEC_T_VX = 15,
    AA_SPEC_T_VY = 16,
    AA_SPEC_T_POLY_BLOCKS = 17,
    AA_SPEC_T_POLY_COVER = 18,
    AA_SPEC_T_POLY_FEAT = 19,
    AA_SPEC_T_CX = 20,
    AA_SPEC_T_CY = 21,
    AA_SPEC_T_CR = 22,
    AA_SPEC_T_CIRC_BLOCKS = 23,
    AA_SPEC_T_CIRC_COVER = 24,
    AA_SPEC_T_CIRC_FEAT = 25,
    AA_SPEC_T_FEAT_ARMOR = 26,
};

/* Point table k's member of P at `mem` (its elements, of the table's type). */
AA_INLINE void aa_spec_bind_table_(int k, aa_params *P, const void *mem) {
    switch (k) {
    case 0: P->tables.card_joker = (const int8_t *)mem; break;
    case 1: P->tables.card_suit = (const int8_t *)mem; break;
    case 2: P->tables.card_rank = (const int8_t *)mem; break;
    case 3: P->tables.card_posture = (const int8_t *)mem; break;
    case 4: P->tables.card_face = (const int8_t *)mem; break;
    case 5: P->tables.card_any = (const int8_t *)mem; break;
    case 6: P->tables.card_move = (const int32_t *)mem; break;
    case 7: P->tables.table5 = (const signed char *)mem; break;
    case 8: P->tables.feat_x = (const double *)mem; break;
    case 9: P->tables.feat_y = (const double *)mem; break;
    case 10: P->tables.feat_cover0 = (const int8_t *)mem; break;
    case 11: P->tables.tmpl_i8 = (const int8_t *)mem; break;
    case 12: P->tables.tmpl_i32 = (const int32_t *)mem; break;
    case 13: P->tables.tmpl_f64 = (const double *)mem; break;
    case 14: P->terrain.poly_off = (const int64_t *)mem; break;
    case 15: P->terrain.vx = (const double *)mem; break;
    case 16: P->terrain.vy = (const double *)mem; break;
    case 17: P->terrain.poly_blocks = (const uint8_t *)mem; break;
    case 18: P->terrain.poly_cover = (const int8_t *)mem; break;
    case 19: P->terrain.poly_feat = (const int32_t *)mem; break;
    case 20: P->terrain.cx = (const double *)mem; break;
    case 21: P->terrain.cy = (const double *)mem; break;
    case 22: P->terrain.cr = (const double *)mem; break;
    case 23: P->terrain.circ_blocks = (const uint8_t *)mem; break;
    case 24: P->terrain.circ_cover = (const int8_t *)mem; break;
    case 25: P->terrain.circ_feat = (const int32_t *)mem; break;
    case 26: P->terrain.feat_armor = (const int32_t *)mem; break;
    default: break;
    }
}

/* Vertices of all polygons (poly_off is read and checked before vx), then the elements and bounds of
 * table k (the numbers are in P). */
AA_INLINE ptrdiff_t aa_spec_vertices_(const aa_params *P) {
    return P->terrain.n_poly > 0 ? (ptrdiff_t)P->terrain.poly_off[P->terrain.n_poly] : 0;
}

AA_INLINE void aa_spec_table_bounds_(int k, const aa_params *P, ptrdiff_t *count, double *lo,
                                     double *hi) {
    switch (k) {
    case 0: *count = (ptrdiff_t)(P->K); *lo = 0.0; *hi = 1.0; break;
    case 1: *count = (ptrdiff_t)(P->K); *lo = -1.0; *hi = 3.0; break;
    case 2: *count = (ptrdiff_t)(P->K); *lo = 0.0; *hi = (double)(P->orders.ranks); break;
    case 3: *count = (ptrdiff_t)(P->K); *lo = 0.0; *hi = 1.0; break;
    case 4: *count = (ptrdiff_t)(P->K); *lo = 0.0; *hi = 1.0; break;
    case 5: *count = (ptrdiff_t)(P->K); *lo = 0.0; *hi = 1.0; break;
    case 6: *count = (ptrdiff_t)(P->K); *lo = 0.0; *hi = 1000.0; break;
    case 7: *count = (ptrdiff_t)(N_ACTIONS * 2 * 3); *lo = 0.0; *hi = 4.0; break;
    case 8: *count = (ptrdiff_t)(P->terrain.n_feat); *lo = (double)(-P->table.width_cm); *hi = (double)(2 * P->table.width_cm); break;
    case 9: *count = (ptrdiff_t)(P->terrain.n_feat); *lo = (double)(-P->table.height_cm); *hi = (double)(2 * P->table.height_cm); break;
    case 10: *count = (ptrdiff_t)(P->terrain.n_feat); *lo = 0.0; *hi = 2.0; break;
    case 11: *count = (ptrdiff_t)(NI8 * P->U); *lo = -128.0; *hi = 127.0; break;
    case 12: *count = (ptrdiff_t)(NI32 * P->U); *lo = -1073741824.0; *hi = 1073741824.0; break;
    case 13: *count = (ptrdiff_t)(NF64 * P->U); *lo = -10000.0; *hi = 10000.0; break;
    case 14: *count = (ptrdiff_t)(P->terrain.n_poly + 1); *lo = 0.0; *hi = 1048576.0; break;
    case 15: *count = (ptrdiff_t)(aa_spec_vertices_(P)); *lo = -10000.0; *hi = 10000.0; break;
    case 16: *count = (ptrdiff_t)(aa_spec_vertices_(P)); *lo = -10000.0; *hi = 10000.0; break;
    case 17: *count = (ptrdiff_t)(P->terrain.n_poly); *lo = 0.0; *hi = 1.0; break;
    case 18: *count = (ptrdiff_t)(P->terrain.n_poly); *lo = 0.0; *hi = 2.0; break;
    case 19: *count = (ptrdiff_t)(P->terrain.n_poly); *lo = 0.0; *hi = (double)(P->terrain.n_feat - 1); break;
    case 20: *count = (ptrdiff_t)(P->terrain.n_circ); *lo = -10000.0; *hi = 10000.0; break;
    case 21: *count = (ptrdiff_t)(P->terrain.n_circ); *lo = -10000.0; *hi = 10000.0; break;
    case 22: *count = (ptrdiff_t)(P->terrain.n_circ); *lo = 0.0; *hi = 10000.0; break;
    case 23: *count = (ptrdiff_t)(P->terrain.n_circ); *lo = 0.0; *hi = 1.0; break;
    case 24: *count = (ptrdiff_t)(P->terrain.n_circ); *lo = 0.0; *hi = 2.0; break;
    case 25: *count = (ptrdiff_t)(P->terrain.n_circ); *lo = 0.0; *hi = (double)(P->terrain.n_feat - 1); break;
    case 26: *count = (ptrdiff_t)(P->terrain.n_feat); *lo = 0.0; *hi = 100.0; break;
    default: *count = 0; *lo = 0.0; *hi = -1.0; break;
    }
}

/* Per side of the templates: its live units and figures (the unit bounds' terms). */
typedef struct aa_spec_terms {
    int side_units[2];
    double side_figures[2];
} aa_spec_terms;

/* The schema's unit rows (atomic_africa.game.schema.UNIT_FIELDS): name, storage (0 i8, 1 i32, 2 f64),
 * row, value of an empty slot, whether a live slot's value is a die of the ladder. */
typedef struct aa_spec_unit_row {
    const char *name;
    int storage, row;
    double empty;
    int ladder;
} aa_spec_unit_row;

static const aa_spec_unit_row AA_SPEC_UNIT_ROWS[] = {
    {"alive", 0, 0, 0.0, 0},
    {"kind", 0, 1, 0.0, 0},
    {"hw_dispersed", 0, 2, 0.0, 0},
    {"hw_point", 0, 3, 0.0, 0},
    {"spotter", 0, 4, 0.0, 0},
    {"comms", 0, 5, 0.0, 0},
    {"commander", 0, 6, 0.0, 0},
    {"revealed", 0, 7, 0.0, 0},
    {"acted", 0, 8, 0.0, 0},
    {"split_done", 0, 9, 0.0, 0},
    {"moves", 0, 10, 0.0, 0},
    {"confused", 0, 11, 0.0, 0},
    {"born", 0, 12, 0.0, 0},
    {"attached", 0, 13, 0.0, 0},
    {"orders_suppressed", 0, 14, 0.0, 0},
    {"name_base", 1, 0, -1.0, 0},
    {"name_depth", 1, 1, 0.0, 0},
    {"figures", 1, 2, 0.0, 0},
    {"armor", 1, 3, 1.0, 0},
    {"hw_dispersed_ap", 1, 4, 0.0, 0},
    {"hw_point_ap", 1, 5, 0.0, 0},
    {"markers", 1, 6, 0.0, 0},
    {"wounds", 1, 7, 0.0, 0},
    {"turn_markers", 1, 8, 0.0, 0},
    {"card", 1, 9, -1.0, 0},
    {"action", 1, 10, -1.0, 0},
    {"posture", 1, 11, -1.0, 0},
    {"target", 1, 12, -1.0, 0},
    {"target2", 1, 13, -1.0, 0},
    {"asset", 1, 14, -1.0, 0},
    {"dice[0]", 1, 15, 0.0, 1},
    {"dice[1]", 1, 16, 0.0, 1},
    {"dice[2]", 1, 17, 0.0, 1},
    {"x", 2, 0, 0.0, 0},
    {"y", 2, 1, 0.0, 0},
    {"aim_x", 2, 2, 0.0, 0},
    {"aim_y", 2, 3, 0.0, 0},
    {"dest_x", 2, 4, 0.0, 0},
    {"dest_y", 2, 5, 0.0, 0},
};
enum { AA_SPEC_N_UNIT_ROWS = 39 };

/* Bounds of unit row k for live slot u at set-up (not for a ladder row): the field's, narrowed to
 * what a scenario may give where the schema says so. */
AA_INLINE void aa_spec_unit_bounds_(int k, const aa_params *P, const aa_spec_terms *T, int u,
                                    double *lo, double *hi) {
    (void)P; (void)T; (void)u;
    switch (k) {
    case 0: *lo = 0.0; *hi = 1.0; break;
    case 1: *lo = 0.0; *hi = 2.0; break;
    case 2: *lo = 0.0; *hi = 1.0; break;
    case 3: *lo = 0.0; *hi = 1.0; break;
    case 4: *lo = 0.0; *hi = 1.0; break;
    case 5: *lo = 0.0; *hi = 1.0; break;
    case 6: *lo = 0.0; *hi = 1.0; break;
    case 7: *lo = 0.0; *hi = 1.0; break;
    case 8: *lo = 0.0; *hi = 1.0; break;
    case 9: *lo = 0.0; *hi = 1.0; break;
    case 10: *lo = 0.0; *hi = 1.0; break;
    case 11: *lo = 0.0; *hi = 1.0; break;
    case 12: *lo = 0.0; *hi = 0.0; break;
    case 13: *lo = 0.0; *hi = 1.0; break;
    case 14: *lo = 0.0; *hi = 1.0; break;
    case 15: *lo = 0.0; *hi = (double)(T->side_units[u / P->C] - 1); break;
    case 16: *lo = 0.0; *hi = (double)(P->table.turns); break;
    case 17: *lo = aa_pmax(1.0, 1.0); *hi = aa_pmin((double)(T->side_figures[u / P->C]), (double)(1000.0)); break;
    case 18: *lo = 1.0; *hi = (double)(100.0); break;
    case 19: *lo = (double)(- 100.0); *hi = 0.0; break;
    case 20: *lo = (double)(- 100.0); *hi = 0.0; break;
    case 21: *lo = aa_pmax(0.0, 0.0); *hi = aa_pmin((double)(1073741824.0), (double)(1000.0)); break;
    case 22: *lo = aa_pmax(0.0, 0.0); *hi = aa_pmin((double)(1073741824.0), (double)(1000.0)); break;
    case 23: *lo = 0.0; *hi = (double)(1073741824.0); break;
    case 24: *lo = -1.0; *hi = (double)(P->K - 1); break;
    case 25: *lo = -1.0; *hi = 7.0; break;
    case 26: *lo = -1.0; *hi = 1.0; break;
    case 27: *lo = -1.0; *hi = (double)(P->U + P->terrain.n_feat - 1); break;
    case 28: *lo = -1.0; *hi = (double)(P->U - 1); break;
    case 29: *lo = -1.0; *hi = (double)(P->call_for_fire.n_assets[u / P->C] - 1); break;
    case 33: *lo = 0.0; *hi = (double)(P->table.width_cm); break;
    case 34: *lo = 0.0; *hi = (double)(P->table.height_cm); break;
    case 35: *lo = 0.0; *hi = (double)(P->table.width_cm); break;
    case 36: *lo = 0.0; *hi = (double)(P->table.height_cm); break;
    case 37: *lo = 0.0; *hi = (double)(P->table.width_cm); break;
    case 38: *lo = 0.0; *hi = (double)(P->table.height_cm); break;
    default: *lo = 0.0; *hi = 0.0; break;
    }
}

#endif
