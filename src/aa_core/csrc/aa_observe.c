/* Observations: atomic_africa.reference.game.observe.observe in C, float for float. */
#include "aa_engine_internal.h"

/* k / 20, k / 5, k / 2, k / 12 for the common small counts, as observe() rounds them (the float32
 * of a double quotient), computed by the compiler: constant tables shared by every thread. */
#define SCALE1(d, k) (float)((k) / (d))
#define SCALE4(d, k) SCALE1(d, k), SCALE1(d, (k) + 1), SCALE1(d, (k) + 2), SCALE1(d, (k) + 3)
#define SCALE16(d, k) SCALE4(d, k), SCALE4(d, (k) + 4), SCALE4(d, (k) + 8), SCALE4(d, (k) + 12)
#define SCALE64(d, k) SCALE16(d, k), SCALE16(d, (k) + 16), SCALE16(d, (k) + 32), SCALE16(d, (k) + 48)
#define SCALE256(d) SCALE64(d, 0), SCALE64(d, 64), SCALE64(d, 128), SCALE64(d, 192)

static const double SCALE_DIV[4] = {20.0, 5.0, 2.0, 12.0};
static const float SCALE_TABLE[4][256] = {{SCALE256(20.0)}, {SCALE256(5.0)}, {SCALE256(2.0)}, {SCALE256(12.0)}};

/* (float)(k / divisor) without a division for the common small counts. */
AA_INLINE float scaled(int k, int which) {
    if (0 <= k && k < 256)
        return SCALE_TABLE[which][k];
    return (float)(k / SCALE_DIV[which]);
}

/* observe._unit_features (reference/game/observe.py): the features of a live unit into f (zeroed by the caller), at
 * the offsets aa_schema.h declares (OBS_U_*, from atomic_africa.game.schema.UNIT_OBSERVATION). */
static void unit_features(V *v, int u, int visible, float *f) {
    const aa_params *P = v->P;
    int c = v->card[u], k;
    int has = c != NO_CARD;
    int known = has && (visible || v->revealed[u]);
    f[OBS_U_ALIVE] = 1.0f;
    f[OBS_U_X] = (float)(v->x[u] / P->table.width_cm);
    f[OBS_U_Y] = (float)(v->y[u] / P->table.height_cm);
    f[OBS_U_FIGURES] = scaled(v->figures[u], 0);
    f[OBS_U_MARKERS] = scaled(v->markers[u], 1);
    f[OBS_U_WOUNDS] = scaled(v->wounds[u], 1);
    f[OBS_U_TURN_MARKERS] = scaled(v->turn_markers[u], 2);
    f[OBS_U_KIND_INFANTRY + v->kind[u]] = 1.0f;
    f[OBS_U_ARMOR] = scaled(v->armor[u], 1);
    for (k = 0; k < 3; k++)
        f[OBS_U_DIE_TRAINING + k] = scaled(die_of(v, u, k), 3);
    f[OBS_U_HW_DISPERSED] = v->hwd[u];
    f[OBS_U_HW_POINT] = v->hwp[u];
    f[OBS_U_SPOTTER] = v->spotter[u];
    f[OBS_U_COMMS] = v->comms[u];
    f[OBS_U_COMMANDER] = v->commander[u];
    f[OBS_U_HAS_CARD] = (float)has;
    f[OBS_U_CARD_KNOWN] = (float)known;
    if (known) {
        if (P->tables.card_joker[c]) {
            f[OBS_U_CARD_JOKER] = 1.0f;
        } else {
            f[OBS_U_CARD_HEARTS + P->tables.card_suit[c]] = 1.0f;
            f[OBS_U_CARD_RANK] = (float)(P->tables.card_rank[c] / (double)P->orders.ranks);
        }
    }
    f[OBS_U_ACTED] = v->acted[u];
    f[OBS_U_IS_ACTIVATING] = (float)(u == v->s[S_ACT]);
    f[OBS_U_IS_REACTING] = (float)(u == v->s[S_REACT]);
    f[OBS_U_IS_DECLARING] = (float)(u == v->s[S_DECL]);
    if (v->action[u] >= 0)
        f[OBS_U_ACTION_BASIC + v->action[u]] = 1.0f;
    f[OBS_U_DEST_X] = (float)(v->dest_x[u] / P->table.width_cm);
    f[OBS_U_DEST_Y] = (float)(v->dest_y[u] / P->table.height_cm);
    f[OBS_U_MOVES] = v->moves[u];
}

void aa_observe(const aa_params *P, aa_state *g, int player, float *out) {   /* reference observe.observe */
    V v;
    int K = P->K, pos, k, uid, i, q = 1 - player, cur;
    double n = K;
    int32_t *me;
    int32_t *op;
    int16_t *hand;
    aa_make_view(P, g, &v);
    /* One libc memset of the whole row: fixed-size memsets per unit compile to `rep stos`, whose
     * start-up cost made them the slowest part of a step. */
    memset(out, 0, (size_t)P->obs_size * sizeof(float));
    me = cnt(&v, player);
    op = cnt(&v, q);
    out[OBS_TURN] = (float)(g->s[S_TURN] / (double)P->table.turns);
    out[OBS_STAGE + g->s[S_STAGE]] = 1.0f;
    cur = g->s[S_STAGE] == ST_OVER ? -1 : g->s[S_CUR];
    out[OBS_TO_MOVE] = (float)(cur == player);
    out[OBS_ACTIVATING] = (float)(g->s[S_ACTIVATING] == player);
    out[OBS_OWN_DECK] = (float)(me[C_DECK] / n);
    out[OBS_OWN_DISCARD] = (float)(me[C_DISCARD] / n);
    out[OBS_OWN_HAND] = (float)(me[C_HAND] / n);
    out[OBS_ENEMY_DECK] = (float)(op[C_DECK] / n);
    out[OBS_ENEMY_DISCARD] = (float)(op[C_DISCARD] / n);
    out[OBS_ENEMY_HAND] = (float)(op[C_HAND] / n);
    pos = OBS_HEAD;
    hand = pile(&v, player, PILE_HAND);
    for (i = 0; i < me[C_HAND]; i++)
        out[pos + hand[i]] = 1.0f;
    pos += K;
    for (k = 0; k < 2 * P->C; k++) {
        uid = k < P->C ? player * P->C + k : q * P->C + k - P->C;
        if (v.alive[uid])
            unit_features(&v, uid, uid / P->C == player, out + pos + k * UNIT_FEATURES);
    }
    pos += 2 * P->C * UNIT_FEATURES;
    for (k = 0; k < P->terrain.n_feat; k++)
        out[pos + k] = (float)(g->fcover[k] / 2.0);
}
