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

#include "aa_error.h"
#include "aa_spec.h"
#include "aa_spec_fields.h"

/* The struct members the field table stores into are C ints of 32 bits. */
typedef char aa_spec_int_is_32_bits_[sizeof(int) == 4 ? 1 : -1];

struct aa_spec {
    aa_params P;
    void *tables[AA_SPEC_N_TABLES];   /* owned: each table's elements */
    aa_odds_side *odds;               /* owned: the greedy agent's odds, from Table 5 */
};

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

/* CRC-32 (IEEE 802.3, reflected, zlib's crc32), bit by bit: a spec is a few KB. */
static uint32_t crc32_(uint32_t crc, const unsigned char *p, size_t n) {
    size_t i;
    int k;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
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
 * Role), single and pair differ, one of them Defense, the single never ATTACKS. */
static aa_status check_table5_(const aa_params *P) {
    const signed char *t = P->tables.table5;
    int row;
    for (row = 0; row < N_ACTIONS * 2; row++, t += 3) {
        if (t[0] != 0 && t[0] != 2)
            return FAIL("tables.table5[%d] = %d (action %d, posture %d: the single die); allowed 0 (low) or 2 (high)",
                        3 * row, t[0], row / 2, row % 2);
        if (t[1] > 3 || t[1] == t[2] || (t[1] != 1 && t[2] != 1))
            return FAIL("tables.table5[%d..%d] = %d, %d (action %d, posture %d: the roles of the single die and "
                        "the pair); allowed two different roles, one of them defense (1), the single not attacks (4)",
                        3 * row + 1, 3 * row + 2, t[1], t[2], row / 2, row % 2);
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
    obs = 1L + N_STAGES + 8 + P->K + 2L * P->C * UNIT_FEATURES + P->terrain.n_feat;
    if (P->obs_size != obs)
        return FAIL("obs_size = %d; allowed %ld (1 + stages + 8 + K + 2 C x unit features + features)",
                    P->obs_size, obs);
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
    for (k = 0; k < 2; k++)
        if (T.side_units[k] == 0)
            return FAIL("tables.tmpl: side %d has no unit; allowed 1 to C = %d", k, P->C);
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
