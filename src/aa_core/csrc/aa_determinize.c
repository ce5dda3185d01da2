/* Determinization: resample what one player cannot see (Game.determinize in reference/game/engine.py), the
 * planning primitive of information-set search (OpenSpiel's ResampleFromInfostate).
 *
 * Player p sees the table, its own hand and face-down cards, every card shown, and the counts of
 * every pile. Hidden from p: its own deck's order, and where each of the opponent's unseen cards is
 * (its deck, its Reserve, its face-down order cards, the face-down bottom of its discard pile). The
 * resample depends only on what p may know: each pool of unseen cards is listed in card order, then
 * shuffled, then dealt back into the same places, keeping what p has seen the opponent's cards to be:
 *   - a face-down card given to a suppressed unit is one a suppressed unit may take (orders_sup);
 *   - a Reserve known to hold no such card (s[S_NOANY0 + q]) gets none;
 *   - while the opponent must pick a Reserve card for a suppressed unit, its Reserve holds one, so
 *     the engine always has a legal action.
 * A constrained place takes the first fitting card of the shuffled pool; the rest go in pool order. */
#include "aa_engine_internal.h"

/* The next card of the shuffled pool that fits (any: a suppressed unit may take it; -1 no
 * constraint, 0 it must not be such a card), marking it taken; the first untaken card when none
 * fits (a state inconsistent with its own history still gets every place filled). */
static int16_t take(const aa_params *P, const int16_t *pool, uint8_t *taken, int n, int *first, int any) {
    int i, pick = -1;
    while (*first < n && taken[*first])
        *first += 1;
    if (any < 0) {
        pick = *first;
    } else {
        for (i = *first; i < n; i++) {
            if (!taken[i] && (P->tables.card_any[pool[i]] != 0) == (any != 0)) {
                pick = i;
                break;
            }
        }
        if (pick < 0)
            pick = *first;
    }
    taken[pick] = 1;
    return pool[pick];
}

/* Shuffle player p's deck as p knows it: its cards in card order, then a fresh order. */
static void own_deck(V *v, int p, uint8_t *mark) {
    int K = v->P->K, i, n = 0, c;
    int16_t *deck = pile(v, p, PILE_DECK);
    int nd = cnt(v, p)[C_DECK];
    memset(mark, 0, (size_t)K);
    for (i = 0; i < nd; i++)
        mark[deck[i]] = 1;
    for (c = 0; c < K; c++)
        if (mark[c])
            deck[n++] = (int16_t)c;
    aa_shuffle(v, deck, n);
}

void aa_determinize(const aa_params *P, aa_state *g, int player) {
    int16_t *pool = (int16_t *)g->work;                 /* K cards each, in the game's scratch */
    uint8_t *mark = (uint8_t *)(pool + P->K);
    V v;
    int q = 1 - player, K = P->K, C = P->C, i, u, c, n = 0, first = 0, need_any;
    int16_t *deck, *hand, *dis;
    int32_t *cq;
    int h;
    aa_make_view(P, g, &v);
    own_deck(&v, player, mark);

    cq = cnt(&v, q);
    deck = pile(&v, q, PILE_DECK);
    hand = pile(&v, q, PILE_HAND);
    dis = pile(&v, q, PILE_DISCARD);
    h = g->s[S_HIDDEN0 + q];
    memset(mark, 0, (size_t)K);
    for (i = 0; i < cq[C_DECK]; i++)
        mark[deck[i]] = 1;
    for (i = 0; i < cq[C_HAND]; i++)
        mark[hand[i]] = 1;
    for (i = 0; i < h; i++)
        mark[dis[i]] = 1;
    for (u = q * C; u < (q + 1) * C; u++)
        if (v.alive[u] && v.card[u] != NO_CARD && !v.revealed[u])
            mark[v.card[u]] = 1;
    for (c = 0; c < K; c++)
        if (mark[c])
            pool[n++] = (int16_t)c;
    aa_shuffle(&v, pool, n);

    memset(mark, 0, (size_t)n);   /* now: pool position taken */
    for (u = q * C; u < (q + 1) * C; u++)
        if (v.alive[u] && v.card[u] != NO_CARD && !v.revealed[u])
            v.card[u] = take(P, pool, mark, n, &first, v.orders_sup[u] ? 1 : -1);
    need_any = g->s[S_STAGE] == ST_RESERVE_PICK && g->s[S_CUR] == q && v.markers[g->s[S_DECL]] > 0;
    for (i = 0; i < cq[C_HAND]; i++)
        hand[i] = take(P, pool, mark, n, &first, need_any && i == 0 ? 1 : (g->s[S_NOANY0 + q] ? 0 : -1));
    for (i = 0; i < h; i++)
        dis[i] = take(P, pool, mark, n, &first, -1);
    for (i = 0; i < cq[C_DECK]; i++)
        deck[i] = take(P, pool, mark, n, &first, -1);
}
