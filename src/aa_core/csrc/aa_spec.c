/* Specs: the binary spec files of `atomic-africa compile` (format: atomic_africa.game.native.spec_file)
 * read into an aa_params with the arrays it points into, owned by the spec.
 *
 * The loader trusts nothing: the header, the length and the CRC-32 first, then every value against
 * its field's bounds (aa_spec_fields.h, generated from the Python module), then the consistency of
 * the whole (sizes against the action space and the observation, padding, orderings, features, the
 * unit templates against the schema's unit bounds), so that a game made from any spec it accepts
 * only ever indexes within its arrays. Every refusal is AA_ERR_SPEC with a message naming the field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifndef __STDC_NO_ATOMICS__
#include <stdatomic.h>
#endif

#include "aa_error.h"
#include "aa_spec.h"
#include "aa_scores.h"
#include "aa_spec_fields.h"

/* The struct members the field table stores into are C ints of 32 bits. */
typedef char aa_spec_int_is_32_bits_[sizeof(int) == 4 ? 1 : -1];

struct aa_spec {
    aa_params P;
    void *tables[AA_SPEC_N_TABLES];   /* owned: each table's elements */
    aa_odds_side *odds;               /* owned: the greedy agent's odds when not shared (NULL if shared) */
};

/* ------------------------------------------------------------------------- shared odds tables */
/* The odds tables take 7 MB and ~35 ms to count, and depend on Table 5 alone, so every spec of the
 * process with the same Table 5 shares one immutable copy (kept until the process exits). Slots are
 * claimed by compare-and-swap, which needs no threads library: two threads loading the first spec
 * at once may both count it, one copy wins and the other is freed. Without C11 atomics, or past
 * ODDS_SHARED distinct tables, a spec counts and owns its own. */
#define TABLE5_BYTES (N_ACTIONS * 2 * 3)
#define ODDS_SHARED 8

typedef struct shared_odds_ {
    signed char table5[TABLE5_BYTES];
    aa_odds_side odds[ODDS_ROWS];
} shared_odds_;

#ifndef __STDC_NO_ATOMICS__
static _Atomic(shared_odds_ *) shared_odds_slots_[ODDS_SHARED];   /* zero: empty */

/* The process's odds for table5 (counted by the first caller); NULL when out of memory or slots. */
static const aa_odds_side *shared_odds_for_(const signed char *table5) {
    shared_odds_ *mine = NULL, *seen;
    int k;
    for (k = 0; k < ODDS_SHARED; k++) {
        seen = atomic_load_explicit(&shared_odds_slots_[k], memory_order_acquire);
        if (seen == NULL) {
            if (mine == NULL) {
                mine = (shared_odds_ *)malloc(sizeof *mine);
                if (mine == NULL)
                    return NULL;
                memcpy(mine->table5, table5, TABLE5_BYTES);
                aa_fill_odds_tables(table5, mine->odds);
            }
            if (atomic_compare_exchange_strong_explicit(&shared_odds_slots_[k], &seen, mine, memory_order_acq_rel,
                                                        memory_order_acquire))
                return mine->odds;
        }
        if (memcmp(seen->table5, table5, TABLE5_BYTES) == 0) {   /* seen: the slot's winner */
            free(mine);
            return seen->odds;
        }
    }
    free(mine);
    return NULL;
}
#else
static const aa_odds_side *shared_odds_for_(const signed char *table5) {
    (void)table5;
    return NULL;
}
#endif

extern const unsigned char aa_default_spec_data[];
extern const size_t aa_default_spec_size;

#define FAIL(...) aa_fail(AA_ERR_SPEC, "spec file: " __VA_ARGS__)

/* ------------------------------------------------------------------------------- bytes */
static uint64_t le_(const unsigned char *p, int n) {
    uint64_t v = 0;
    int i;
    for (i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* CRC-32 (IEEE 802.3, reflected, zlib's crc32) a byte at a time: bit by bit took ~60 us of the
 * default spec's load, most of it once the odds tables were shared. The table is constant (entry n:
 * n's eight bit steps, poly 0xEDB88320) so that no first call has to fill it under threads. */
static const uint32_t crc32_table_[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du
};

static uint32_t crc32_(uint32_t crc, const unsigned char *p, size_t n) {
    size_t i;
    crc = ~crc;
    for (i = 0; i < n; i++)
        crc = (crc >> 8) ^ crc32_table_[(crc ^ p[i]) & 0xFFu];
    return ~crc;
}

static size_t type_size_(int type) {
    return type == AA_SPEC_I8 || type == AA_SPEC_U8 ? 1 : type == AA_SPEC_I32 ? 4 : 8;
}

/* One element of `type` at p as a double (exact for every value within the bounds). */
static double decode_(const unsigned char *p, int type) {
    uint64_t u;
    double d;
    switch (type) {
    case AA_SPEC_I8: return p[0] < 128 ? (double)p[0] : (double)p[0] - 256.0;
    case AA_SPEC_U8: return (double)p[0];
    case AA_SPEC_I32:
        u = le_(p, 4);
        return u < 0x80000000u ? (double)u : (double)u - 4294967296.0;
    case AA_SPEC_I64:
        u = le_(p, 8);
        return u <= (uint64_t)INT64_MAX ? (double)u : -(double)(~u) - 1.0;
    default:
        u = le_(p, 8);
        memcpy(&d, &u, sizeof d);
        return d;
    }
}

/* Store v (within its bounds, so exact) as element i of an array of `type` at base. */
static void store_(void *base, ptrdiff_t i, int type, int as_int, double v) {
    char *b = (char *)base;
    int8_t i8;
    uint8_t u8;
    int i32;
    int32_t s32;
    int64_t i64;
    switch (type) {
    case AA_SPEC_I8: i8 = (int8_t)v; memcpy(b + i, &i8, 1); break;
    case AA_SPEC_U8: u8 = (uint8_t)v; memcpy(b + i, &u8, 1); break;
    case AA_SPEC_I32:
        if (as_int) { i32 = (int)v; memcpy(b + i * (ptrdiff_t)sizeof i32, &i32, sizeof i32); }
        else { s32 = (int32_t)v; memcpy(b + i * (ptrdiff_t)sizeof s32, &s32, sizeof s32); }
        break;
    case AA_SPEC_I64: i64 = (int64_t)v; memcpy(b + i * 8, &i64, 8); break;
    default: memcpy(b + i * 8, &v, 8); break;
    }
}

typedef struct reader_ {
    const unsigned char *p;
    size_t pos, len;
} reader_;

/* Whether v is allowed: finite, an integer for an integer type, within [lo, hi] ((lo, hi] if positive). */
static int allowed_(double v, int type, double lo, double hi, int positive) {
    if (!isfinite(v))
        return 0;
    if (type != AA_SPEC_F64 && v != floor(v))
        return 0;
    return positive ? v > lo && v <= hi : v >= lo && v <= hi;
}

static aa_status out_of_bounds_(const char *name, ptrdiff_t i, int many, double v, double lo, double hi, int positive) {
    if (many)
        return FAIL("%s[%ld] = %.17g is out of bounds; allowed %s%.17g, %.17g]", name, (long)i, v,
                    positive ? "(" : "[", lo, hi);
    return FAIL("%s = %.17g is out of bounds; allowed %s%.17g, %.17g]", name, v, positive ? "(" : "[", lo, hi);
}

/* ------------------------------------------------------------------------------- reading */
static aa_status read_params_(reader_ *r, aa_params *P) {
    int k, i;
    double lo, hi, v;
    for (k = 0; k < AA_SPEC_N_PARAMS; k++) {
        const aa_spec_field *f = &AA_SPEC_PARAMS[k];
        size_t size = type_size_(f->type);
        if ((r->len - r->pos) / size < (size_t)f->count)
            return FAIL("truncated at %s (byte %lu of %lu)", f->name, (unsigned long)r->pos, (unsigned long)r->len);
        aa_spec_param_bounds_(k, P, &lo, &hi);
        for (i = 0; i < f->count; i++) {
            v = decode_(r->p + r->pos, f->type);
            r->pos += size;
            if (!allowed_(v, f->type, lo, hi, f->positive))
                return out_of_bounds_(f->name, i, f->count > 1, v, lo, hi, f->positive);
            store_((char *)P + f->offset, i, f->type, 1, v);
        }
    }
    return AA_OK;
}

static aa_status check_poly_off_(const aa_params *P) {
    const int64_t *off = P->terrain.poly_off;
    int k;
    if (off[0] != 0)
        return FAIL("terrain.poly_off[0] = %ld; allowed 0 (the first polygon's first vertex)", (long)off[0]);
    for (k = 0; k < P->terrain.n_poly; k++)
        if (off[k + 1] - off[k] < 3 || off[k + 1] - off[k] > AA_SPEC_MAX_POLYGON_POINTS)
            return FAIL("terrain.poly_off[%d] = %ld: polygon %d has %ld vertices; allowed 3 to %d", k + 1,
                        (long)off[k + 1], k, (long)(off[k + 1] - off[k]), AA_SPEC_MAX_POLYGON_POINTS);
    return AA_OK;
}

/* Table 5 rows as Rules.table5_array makes them: (single die 0 low or 2 high, its Role, the pair's
 * Role), single and pair differ, one of them Defense, the single never ATTACKS; an action's two
 * posture rows have the same roles (a rules row has one single and one pair role), and an attacking
 * action (Rules.from_dict's: basic, sprint, heavy weapon, mass fire, split fire, dig-in) has an attack
 * (the fire code reads its last attack score). */
static aa_status check_table5_(const aa_params *P) {
    const signed char *t = P->tables.table5;
    int row, a, attacking;
    for (row = 0; row < N_ACTIONS * 2; row++, t += 3) {
        a = row / 2;
        attacking = a == A_BASIC || a == A_SPRINT || a == A_HEAVY_WEAPON || a == A_MASS_FIRE || a == A_SPLIT_FIRE
                    || a == A_DIG_IN;
        if (t[0] != 0 && t[0] != 2)
            return FAIL("tables.table5[%d] = %d (action %d, posture %d: the single die); allowed 0 (low) or 2 (high)",
                        3 * row, t[0], row / 2, row % 2);
        if (t[1] > 3 || t[1] == t[2] || (t[1] != 1 && t[2] != 1))
            return FAIL("tables.table5[%d..%d] = %d, %d (action %d, posture %d: the roles of the single die and "
                        "the pair); allowed two different roles, one of them defense (1), the single not attacks (4)",
                        3 * row + 1, 3 * row + 2, t[1], t[2], row / 2, row % 2);
        if (row % 2 == 1 && (t[1] != t[-2] || t[2] != t[-1]))
            return FAIL("tables.table5[%d..%d] = %d, %d (action %d, posture 1: the roles of the single die and the "
                        "pair); allowed posture 0's roles %d, %d (a rules row gives both postures the same roles)",
                        3 * row + 1, 3 * row + 2, t[1], t[2], a, t[-2], t[-1]);
        if (attacking && t[1] != AA_ROLE_ATTACK && t[2] != AA_ROLE_ATTACK && t[2] != AA_ROLE_ATTACKS)
            return FAIL("tables.table5[%d..%d] = %d, %d (action %d, posture %d: an attacking action); allowed an "
                        "attack role: the single or the pair attack (0), or the pair attacks (4)", 3 * row + 1,
                        3 * row + 2, t[1], t[2], a, row % 2);
    }
    return AA_OK;
}

static aa_status read_tables_(reader_ *r, aa_spec *S) {
    aa_params *P = &S->P;
    int k;
    ptrdiff_t i, count;
    double lo, hi, v;
    aa_status st;
    for (k = 0; k < AA_SPEC_N_TABLES; k++) {
        const aa_spec_table *t = &AA_SPEC_TABLES[k];
        size_t size = type_size_(t->type), n;
        aa_spec_table_bounds_(k, P, &count, &lo, &hi);
        if (r->len - r->pos < 4)
            return FAIL("truncated at %s's count (byte %lu of %lu)", t->name, (unsigned long)r->pos,
                        (unsigned long)r->len);
        n = (size_t)le_(r->p + r->pos, 4);
        r->pos += 4;
        if (n != (size_t)count)
            return FAIL("%s: %lu elements; allowed exactly %ld (from the numbers before it)", t->name,
                        (unsigned long)n, (long)count);
        if ((r->len - r->pos) / size < n)
            return FAIL("truncated at %s (byte %lu of %lu)", t->name, (unsigned long)r->pos, (unsigned long)r->len);
        /* never empty: the engine reads element 0 of some tables before it checks a count */
        S->tables[k] = calloc(n > 0 ? n : 1, size);
        if (S->tables[k] == NULL)
            return aa_fail(AA_ERR_MEMORY, "spec file: cannot allocate %s (%lu bytes)", t->name,
                           (unsigned long)(n * size));
        for (i = 0; i < count; i++) {
            v = decode_(r->p + r->pos, t->type);
            r->pos += size;
            if (!allowed_(v, t->type, lo, hi, 0))
                return out_of_bounds_(t->name, i, 1, v, lo, hi, 0);
            store_(S->tables[k], i, t->type, 0, v);
        }
        aa_spec_bind_table_(k, P, S->tables[k]);
        if (k == AA_SPEC_T_POLY_OFF && (st = check_poly_off_(P)) != AA_OK)
            return st;
        if (k == AA_SPEC_T_TABLE5 && (st = check_table5_(P)) != AA_OK)
            return st;
    }
    return AA_OK;
}

/* ------------------------------------------------------------------------------- consistency */
static int is_die_(double d) { return d == 4 || d == 6 || d == 8 || d == 10 || d == 12; }

/* Values [n, size) of a padded array are 0. */
#define CHECK_PADDING(name, a, n, size)                                                           \
    do {                                                                                          \
        int i_;                                                                                   \
        for (i_ = (n); i_ < (size); i_++)                                                         \
            if ((a)[i_] != 0)                                                                     \
                return FAIL("%s[%d] = %.17g past its %d values; allowed 0 (padding)", name, i_,  \
                            (double)(a)[i_], (int)(n));                                           \
    } while (0)

static aa_status check_sizes_(const aa_params *P) {
    const aa_action_bases *b = &P->base;
    int n_assets = aa_imax(P->call_for_fire.n_assets[0], P->call_for_fire.n_assets[1]);
    int k, pos = 0;
    const int *got[12];
    static const char *const names[12] = {"assign", "end_orders", "select", "declare", "target", "no_target",
                                          "asset", "move", "stay", "split", "end_splits", "feature"};
    int sizes[12];
    long obs;
    if (P->U != 2 * P->C)
        return FAIL("U = %d; allowed 2 * C = %d", P->U, 2 * P->C);
    /* the action space (atomic_africa.game.actions.ActionSpace), segment by segment */
    sizes[0] = P->K * P->C; sizes[1] = 1; sizes[2] = P->C; sizes[3] = N_ACTIONS * 2; sizes[4] = 2 * P->C;
    sizes[5] = 1; sizes[6] = aa_imax(n_assets, 1); sizes[7] = P->movement.directions * P->movement.n_fractions;
    sizes[8] = 1; sizes[9] = P->C; sizes[10] = 1; sizes[11] = P->terrain.n_feat;
    got[0] = &b->assign; got[1] = &b->end_orders; got[2] = &b->select; got[3] = &b->declare;
    got[4] = &b->target; got[5] = &b->no_target; got[6] = &b->asset; got[7] = &b->move; got[8] = &b->stay;
    got[9] = &b->split; got[10] = &b->end_splits; got[11] = &b->feature;
    for (k = 0; k < 12; k++) {
        if (*got[k] != pos)
            return FAIL("base.%s = %d; allowed %d (the action space of C, K, the assets, directions, fractions "
                        "and features)", names[k], *got[k], pos);
        pos += sizes[k];
    }
    if (P->n_actions != pos)
        return FAIL("n_actions = %d; allowed %d (the action space)", P->n_actions, pos);
    obs = (long)OBS_HEAD + P->K + 2L * P->C * UNIT_FEATURES + P->terrain.n_feat;
    if (P->obs_size != obs)
        return FAIL("obs_size = %d; allowed %ld (%d head floats + K + 2 C x unit features + features)",
                    P->obs_size, obs, (int)OBS_HEAD);
    return AA_OK;
}

static aa_status check_numbers_(const aa_params *P) {
    const aa_movement_params *m = &P->movement;
    const aa_call_for_fire_params *c = &P->call_for_fire;
    const aa_dice_params *d = &P->dice;
    const aa_fire_params *f = &P->fire;
    int i, p, a, on_ladder = 0;
    for (i = 0; i < m->n_fractions; i++)
        if (!(m->distance_fractions[i] > (i ? m->distance_fractions[i - 1] : 0.0)))
            return FAIL("movement.distance_fractions[%d] = %.17g; allowed strictly increasing values in (0, 1]",
                        i, m->distance_fractions[i]);
    CHECK_PADDING("movement.distance_fractions", m->distance_fractions, m->n_fractions, MAX_FRACS);
    CHECK_PADDING("movement.dir_angle", m->dir_angle, m->directions, MAX_DIRECTIONS);
    CHECK_PADDING("call_for_fire.clock_angle", c->clock_angle, c->scatter_die + 1, MAX_CLOCK);
    for (p = 0; p < 2; p++) {
        for (a = 0; a < MAX_ASSETS; a++) {
            int live = a < c->n_assets[p];
            for (i = 0; i < 3; i++)
                if (live ? !is_die_(c->asset_dice[p][a][i]) : c->asset_dice[p][a][i] != 0)
                    return FAIL("call_for_fire.asset_dice[%d][%d][%d] = %d; allowed %s", p, a, i,
                                c->asset_dice[p][a][i], live ? "4, 6, 8, 10 or 12" : "0 (past n_assets)");
            if (!live && (c->asset_ap[p][a] != 0 || c->asset_blast_cm[p][a] != 0))
                return FAIL("call_for_fire.asset_ap/asset_blast_cm[%d][%d]: past n_assets[%d] = %d; allowed 0",
                            p, a, p, c->n_assets[p]);
            if (c->asset_r2[p][a] != c->asset_blast_cm[p][a] * c->asset_blast_cm[p][a])
                return FAIL("call_for_fire.asset_r2[%d][%d] = %.17g; allowed asset_blast_cm squared (%.17g)", p, a,
                            c->asset_r2[p][a], c->asset_blast_cm[p][a] * c->asset_blast_cm[p][a]);
        }
    }
    for (i = 0; i < d->n_ladder; i++) {
        if (!is_die_((double)d->ladder[i]) || (i > 0 && d->ladder[i] <= d->ladder[i - 1]))
            return FAIL("dice.ladder[%d] = %ld; allowed strictly increasing dice among 4, 6, 8, 10, 12", i,
                        (long)d->ladder[i]);
        on_ladder |= d->ladder[i] == d->shattered_die;
    }
    CHECK_PADDING("dice.ladder", d->ladder, d->n_ladder, MAX_LADDER);
    if (!on_ladder)
        return FAIL("dice.shattered_die = %d; allowed a die of dice.ladder", d->shattered_die);
    for (i = 0; i < f->n_edges; i++)
        if (!(f->band_edges_cm[i] > (i ? f->band_edges_cm[i - 1] : 0.0)))
            return FAIL("fire.band_edges_cm[%d] = %.17g; allowed strictly increasing positive values", i,
                        f->band_edges_cm[i]);
    CHECK_PADDING("fire.band_edges_cm", f->band_edges_cm, f->n_edges, MAX_EDGES);
    a = c->support_action;
    if (a != A_BASIC && a != A_HEAVY_WEAPON && a != A_SPRINT && a != A_DIG_IN)
        return FAIL("call_for_fire.support_action = %d; allowed %d (basic), %d (heavy_weapon), %d (sprint) or "
                    "%d (dig_in)", a, A_BASIC, A_HEAVY_WEAPON, A_SPRINT, A_DIG_IN);
    if (c->support_range_band > f->n_edges + 1)
        return FAIL("call_for_fire.support_range_band = %d; allowed 1 to n_edges + 1 = %d", c->support_range_band,
                    f->n_edges + 1);
    if (4 * P->orders.ranks > P->K)
        return FAIL("orders.ranks = %d; allowed at most K / 4 = %d", P->orders.ranks, P->K / 4);
    if (P->table.mid_x != P->table.width_cm / 2 || P->table.mid_y != P->table.height_cm / 2)
        return FAIL("table.mid_x, mid_y = %.17g, %.17g; allowed half the width and height (%.17g, %.17g)",
                    P->table.mid_x, P->table.mid_y, P->table.width_cm / 2, P->table.height_cm / 2);
    if (P->terrain.n_poly + P->terrain.n_circ != P->terrain.n_feat)
        return FAIL("terrain.n_feat = %d; allowed n_poly + n_circ = %d", P->terrain.n_feat,
                    P->terrain.n_poly + P->terrain.n_circ);
    return AA_OK;
}

/* Each feature is exactly one shape. */
static aa_status check_features_(const aa_params *P) {
    unsigned char seen[MAX_FEATURES];
    int k, fe;
    memset(seen, 0, sizeof seen);
    for (k = 0; k < P->terrain.n_poly + P->terrain.n_circ; k++) {
        int poly = k < P->terrain.n_poly;
        fe = poly ? P->terrain.poly_feat[k] : P->terrain.circ_feat[k - P->terrain.n_poly];
        if (seen[fe])
            return FAIL("terrain.%s[%d] = %d: feature %d has two shapes; allowed each feature once",
                        poly ? "poly_feat" : "circ_feat", poly ? k : k - P->terrain.n_poly, fe, fe);
        seen[fe] = 1;
    }
    return AA_OK;
}

/* The unit templates against the schema's unit bounds: a live slot within them, an empty one the
 * defaults. */
static aa_status check_units_(const aa_params *P) {
    aa_spec_terms T;
    const int U = P->U;
    int u, k, i;
    double v, lo, hi;
    memset(&T, 0, sizeof T);
    for (u = 0; u < U; u++)
        if (P->tables.tmpl_i8[F_ALIVE * U + u]) {
            T.side_units[u / P->C]++;
            T.side_figures[u / P->C] += P->tables.tmpl_i32[F_FIGURES * U + u];
        }
    for (u = 0; u < U; u++) {
        int live = P->tables.tmpl_i8[F_ALIVE * U + u] != 0;
        for (k = 0; k < AA_SPEC_N_UNIT_ROWS; k++) {
            const aa_spec_unit_row *r = &AA_SPEC_UNIT_ROWS[k];
            ptrdiff_t at = (ptrdiff_t)r->row * U + u;
            v = r->storage == 0 ? P->tables.tmpl_i8[at] : r->storage == 1 ? P->tables.tmpl_i32[at] : P->tables.tmpl_f64[at];
            if (!live) {
                if (v != r->empty)
                    return FAIL("tables.tmpl (unit slot %d, empty): %s = %.17g; allowed %.17g", u, r->name, v, r->empty);
            } else if (r->ladder) {
                int ok = 0;
                for (i = 0; i < P->dice.n_ladder; i++)
                    ok |= P->dice.ladder[i] == v;
                if (!ok)
                    return FAIL("tables.tmpl (unit slot %d): %s = %.17g; allowed a die of dice.ladder", u, r->name, v);
            } else {
                aa_spec_unit_bounds_(k, P, &T, u, &lo, &hi);
                if (!(v >= lo && v <= hi))
                    return FAIL("tables.tmpl (unit slot %d): %s = %.17g is out of bounds; allowed [%.17g, %.17g]", u,
                                r->name, v, lo, hi);
            }
        }
    }
    for (k = 0; k < 2; k++) {
        /* atomic_africa.game.spec.slot_capacity: splits cut units of >= split_min_figures figures
         * into halves of >= split_min_figures / 2, so a side holds at most its units plus its figures
         * divided by that half; a split past the side's C slots would have nowhere to go */
        int half = aa_imax(1, P->cleanup.split_min_figures / 2);
        double cap = T.side_units[k] + floor(T.side_figures[k] / half);
        if (T.side_units[k] == 0)
            return FAIL("tables.tmpl: side %d has no unit; allowed 1 to C = %d", k, P->C);
        if (cap > P->C)
            return FAIL("tables.tmpl: side %d has %d units and %.17g figures, which splits into halves of %d or "
                        "more can make %.17g units; allowed at most C = %d (the unit slots per side)",
                        k, T.side_units[k], T.side_figures[k], half, cap, P->C);
    }
    return AA_OK;
}

/* ------------------------------------------------------------------------------- the API */
void aa_spec_free(aa_spec *spec) {
    int k;
    if (spec == NULL)
        return;
    for (k = 0; k < AA_SPEC_N_TABLES; k++)
        free(spec->tables[k]);
    free(spec->odds);
    free(spec);
}

const aa_params *aa_spec_params(const aa_spec *spec) { return spec == NULL ? NULL : &spec->P; }

static aa_status load_(const unsigned char *p, size_t len, aa_spec *S) {
    reader_ r;
    uint64_t payload;
    aa_status st;
    if (len < AA_SPEC_HEADER_SIZE)
        return FAIL("%lu bytes; a spec file has a %d-byte header at least", (unsigned long)len, AA_SPEC_HEADER_SIZE);
    if (memcmp(p, AA_SPEC_MAGIC, 8) != 0)
        return FAIL("not a spec file (its first 8 bytes are not \"AA-SPEC\\0\"; write one with atomic-africa compile)");
    if (le_(p + 8, 4) != AA_SPEC_FORMAT_VERSION)
        return FAIL("format version %lu; this library reads version %d (recompile it with atomic-africa compile)",
                    (unsigned long)le_(p + 8, 4), AA_SPEC_FORMAT_VERSION);
    if (le_(p + 12, 4) != AA_ABI_VERSION)
        return FAIL("ABI version %lu; this library is ABI version %d (recompile it with atomic-africa compile)",
                    (unsigned long)le_(p + 12, 4), AA_ABI_VERSION);
    payload = le_(p + 16, 8);
    if (payload != len - AA_SPEC_HEADER_SIZE)
        return FAIL("%lu bytes, the header says %llu + %d (truncated or extended)", (unsigned long)len,
                    (unsigned long long)payload, AA_SPEC_HEADER_SIZE);
    if (le_(p + 24, 4) != 0)
        return FAIL("header flags = %lu; allowed 0", (unsigned long)le_(p + 24, 4));
    if (crc32_(crc32_(0, p, 28), p + AA_SPEC_HEADER_SIZE, len - AA_SPEC_HEADER_SIZE) != (uint32_t)le_(p + 28, 4))
        return FAIL("checksum mismatch (CRC-32): the file is corrupted");
    r.p = p + AA_SPEC_HEADER_SIZE;
    r.pos = 0;
    r.len = len - AA_SPEC_HEADER_SIZE;
    if ((st = read_params_(&r, &S->P)) != AA_OK || (st = check_sizes_(&S->P)) != AA_OK
        || (st = check_numbers_(&S->P)) != AA_OK || (st = read_tables_(&r, S)) != AA_OK
        || (st = check_features_(&S->P)) != AA_OK || (st = check_units_(&S->P)) != AA_OK)
        return st;
    if (r.pos != r.len)
        return FAIL("%lu bytes after the last table; allowed none", (unsigned long)(r.len - r.pos));
    S->P.tables.odds = shared_odds_for_(S->P.tables.table5);
    if (S->P.tables.odds != NULL)
        return AA_OK;
    S->odds = (aa_odds_side *)malloc(AA_ODDS_TABLE_BYTES);
    if (S->odds == NULL)
        return aa_fail(AA_ERR_MEMORY, "spec file: cannot allocate the greedy agent's odds tables (%lu bytes)",
                       (unsigned long)AA_ODDS_TABLE_BYTES);
    aa_fill_odds_tables(S->P.tables.table5, S->odds);
    S->P.tables.odds = S->odds;
    return AA_OK;
}

aa_status aa_spec_load(const void *data, size_t len, aa_spec **out) {
    aa_spec *S;
    aa_status st;
    if (out == NULL)
        return aa_fail(AA_ERR_ARGUMENT, "out: NULL; allowed the address of an aa_spec pointer");
    *out = NULL;
    if (data == NULL)
        return aa_fail(AA_ERR_ARGUMENT, "data: NULL; allowed the bytes of a spec file");
    S = (aa_spec *)calloc(1, sizeof *S);
    if (S == NULL)
        return aa_fail(AA_ERR_MEMORY, "spec: cannot allocate %lu bytes", (unsigned long)sizeof *S);
    st = load_((const unsigned char *)data, len, S);
    if (st != AA_OK) {
        aa_spec_free(S);
        return st;
    }
    *out = S;
    return AA_OK;
}

aa_status aa_spec_default(aa_spec **out) {
    return aa_spec_load(aa_default_spec_data, aa_default_spec_size, out);
}
