/* The native agents' entry point and RandomAgent (atomic_africa.agents). */
#include "aa_agents_internal.h"

/* RandomAgent.act: legal action k in id order (Game.legal_actions), k one die of as many sides as
 * legal actions. */
int aa_random_index(int m, aa_bitgen *rng) {
    int face = 1;
    uint32_t sides = (uint32_t)m;
    if (m > 1)
        aa_roll_faces(rng, &sides, 1, aa_reject_threshold(sides), &face);
    return face - 1;
}

/* -1 when no action is legal. */
static int random_act(V *v, aa_bitgen *rng) {
    int *buf = (int *)v->g->work;   /* n_actions ids */
    int m = aa_legal_v(v, buf);
    if (m == 0)
        return -1;
    aa_sort_ids(buf, m);
    return buf[aa_random_index(m, rng)];
}

int aa_agent_choose(const aa_params *P, aa_state *g, int kind, const aa_agent_params *ap, aa_bitgen *rng) {
    if (kind == AGENT_ISMCTS)
        return aa_ismcts_act(P, g, ap, rng);
    return aa_rollout_choose(P, g, kind, ap, rng);
}

int aa_rollout_choose(const aa_params *P, aa_state *g, int kind, const aa_agent_params *ap, aa_bitgen *rng) {
    V v;
    aa_make_view(P, g, &v);
    if (kind == AGENT_RANDOM)
        return random_act(&v, rng);
    if (kind == AGENT_HEURISTIC)
        return aa_heuristic_act(&v);
    if (kind == AGENT_GREEDY)
        return aa_greedy_act(&v, ap);
    if (kind == AGENT_DOCTRINE)
        return aa_doctrine_act(&v, ap);
    return -1;
}
