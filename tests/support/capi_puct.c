/* A C host of the network-guided search (aa_puct_search), for tests/test_c_api_puct.py.
 *
 * usage: capi_puct SIMS WAVE C_PUCT ALPHA FRACTION TEMPERATURE MODE SEED MOVES [SEED MOVES ...]
 * Starts one default-battle game per (SEED, MOVES) pair, plays MOVES moves into it (legal[(7 k) % m]
 * at step k), gives game i an agent seeded 100 + i, searches all games at once with the evaluator
 * below and prints, per game, "action value:HEX a:HEX ..." (the visit shares of the visited
 * actions, C99 hex floats), then "batches N rows R". MODE "leaf:R:L:W" searches with rollout R (an
 * AA_AGENT_ kind or -1), rollout_weight L and width W; "mixed:R:L:W" the same with the last game's
 * agent given another wound_value than the others. MODE "fail" makes the evaluator return 1 on its
 * second call, "range" answer a value of 2 there; the host then prints the status and message, and
 * searches again normally to show the streams were left as they were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"

typedef struct counter {
    int calls, rows, num_actions, obs_size, mode;
} counter;

/* priors 1 + (a mod 5) at the legal actions; value s / (1 + |s|), s from three observation entries */
static int evaluate(void *user, int32_t n, const float *obs, const uint8_t *masks, float *priors, float *values) {
    counter *c = (counter *)user;
    int32_t i;
    int a;
    c->calls += 1;
    c->rows += n;
    if (c->mode == 1 && c->calls == 2)
        return 1;
    for (i = 0; i < n; i++) {
        const float *o = obs + (size_t)i * c->obs_size;
        double s = (double)o[0] * 0.5 - (double)o[1] * 0.25 + (double)o[2] * 0.125;
        for (a = 0; a < c->num_actions; a++)
            priors[(size_t)i * c->num_actions + a] = masks[(size_t)i * c->num_actions + a] ? (float)(1 + a % 5) : 0.0f;
        values[i] = (float)(s / (1.0 + (s < 0 ? -s : s)));
        if (c->mode == 2 && c->calls == 2 && i == n - 1)
            values[i] = 2.0f;
    }
    return 0;
}

int main(int argc, char **argv) {
    aa_spec *spec;
    aa_puct_options o;
    aa_agent_options other;
    counter c;
    int mixed;
    int n = (argc - 8) / 2, i, k, m, a, pass;
    aa_game **games;
    aa_agent **agents;
    int32_t *actions, *legal;
    float *policies, *values;
    aa_status st;
    if (argc < 10 || (argc - 8) % 2 != 0) {
        fprintf(stderr, "usage: capi_puct SIMS WAVE C_PUCT ALPHA FRACTION TEMPERATURE MODE SEED MOVES ...\n");
        return 2;
    }
    if (aa_spec_default(&spec) != AA_OK || aa_puct_defaults(&o) != AA_OK)
        return 1;
    o.simulations = atoi(argv[1]);
    o.wave = atoi(argv[2]);
    o.c_puct = atof(argv[3]);
    o.dirichlet_alpha = atof(argv[4]);
    o.noise_fraction = atof(argv[5]);
    o.temperature = atof(argv[6]);
    memset(&c, 0, sizeof c);
    c.mode = strcmp(argv[7], "fail") == 0 ? 1 : strcmp(argv[7], "range") == 0 ? 2 : 0;
    mixed = strncmp(argv[7], "mixed:", 6) == 0;
    if ((strncmp(argv[7], "leaf:", 5) == 0 || mixed)
            && sscanf(argv[7] + (mixed ? 6 : 5), "%d:%lf:%d", &o.rollout, &o.rollout_weight, &o.width) != 3)
        return 2;
    if (aa_agent_defaults(&other) != AA_OK)
        return 1;
    other.wound_value += 1.0;
    c.num_actions = aa_num_actions(spec);
    c.obs_size = aa_observation_size(spec);
    games = (aa_game **)calloc((size_t)n, sizeof *games);
    agents = (aa_agent **)calloc((size_t)n, sizeof *agents);
    actions = (int32_t *)malloc((size_t)n * sizeof *actions);
    legal = (int32_t *)malloc((size_t)c.num_actions * sizeof *legal);
    policies = (float *)malloc((size_t)n * (size_t)c.num_actions * sizeof *policies);
    values = (float *)malloc((size_t)n * sizeof *values);
    for (i = 0; i < n; i++) {
        if (aa_game_new(spec, (uint64_t)strtoull(argv[8 + 2 * i], NULL, 10), &games[i]) != AA_OK
                || aa_agent_new(AA_AGENT_RANDOM, (uint64_t)(100 + i), mixed && i == n - 1 ? &other : NULL,
                                &agents[i]) != AA_OK)
            return 1;
        for (k = 0; k < atoi(argv[9 + 2 * i]); k++) {
            m = aa_game_legal_actions(games[i], legal, c.num_actions);
            if (m <= 0 || aa_game_apply(games[i], legal[(7 * k) % m]) != AA_OK)
                return 1;
        }
    }
    for (pass = 0; pass < 2; pass++) {
        c.calls = c.rows = 0;
        st = aa_puct_search((const aa_game *const *)games, agents, n, &o, evaluate, &c, actions, policies, values);
        if (st != AA_OK) {
            printf("status %d %s\n", (int)st, aa_last_error());
            c.mode = 0;
            continue;
        }
        for (i = 0; i < n; i++) {
            printf("%d value:%a", (int)actions[i], (double)values[i]);
            for (a = 0; a < c.num_actions; a++)
                if (policies[(size_t)i * c.num_actions + a] > 0.0f)
                    printf(" %d:%a", a, (double)policies[(size_t)i * c.num_actions + a]);
            printf("\n");
        }
        printf("batches %d rows %d\n", c.calls, c.rows);
        break;
    }
    for (i = 0; i < n; i++) {
        aa_game_free(games[i]);
        aa_agent_free(agents[i]);
    }
    aa_spec_free(spec);
    free(games);
    free(agents);
    free(actions);
    free(legal);
    free(policies);
    free(values);
    return 0;
}
