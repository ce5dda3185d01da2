/* The native agents' entry point: the search (aa_agent_ismcts.c) or an agent that does not search
 * (aa_rollout_choose, aa_agent_basic.c). */
#include "aa_agents_internal.h"

int aa_agent_choose(const aa_params *P, aa_state *g, int kind, const aa_agent_params *ap, aa_bitgen *rng) {
    if (kind == AGENT_ISMCTS)
        return aa_ismcts_act(P, g, ap, rng);
    return aa_rollout_choose(P, g, kind, ap, rng);
}
