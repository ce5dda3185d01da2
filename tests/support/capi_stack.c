/* The C API on a thread with a small stack (docs/guide/c_api.md, "Stack"): every public call runs in
 * 16 KiB of stack, so a host thread of 32 KiB plays whole games with each built-in agent (the ISMCTS
 * agent searching with greedy rollouts, the deepest call path), lists and checks actions, observes,
 * determinizes, copies, and simulates fire.
 *
 *     capi_stack STACK_BYTES     run the work on a thread of that stack (0: on the main thread)
 *
 * prints one line per part, "<part> <digest>", the same whatever the stack (the test compares a
 * 32 KiB thread's lines with the main thread's). A stack overflow is a crash (the guard page). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"

#define FNV0 14695981039346656037ULL

static uint64_t fnv(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

typedef struct result {
    char text[2048];
    int failed;
} result;

static void say(result *r, const char *part, uint64_t digest) {
    size_t len = strlen(r->text);
    snprintf(r->text + len, sizeof r->text - len, "%s %016llx\n", part, (unsigned long long)digest);
}

static int fail(result *r, const char *what) {
    size_t len = strlen(r->text);
    snprintf(r->text + len, sizeof r->text - len, "FAILED %s: %s\n", what, aa_last_error());
    r->failed = 1;
    return 1;
}

/* Two games of agent kinds a against b (agents options default; the ISMCTS one small and greedy). */
static int play(result *r, const aa_spec *spec, int a, int b, const char *part) {
    aa_search_options search;
    aa_agent *agent[2];
    aa_game *game, *copy;
    int32_t *legal;
    float *obs;
    int32_t action;
    int seed, player, winner, n, k;
    int n_obs = aa_observation_size(spec);
    uint64_t h = FNV0;
    aa_search_defaults(&search);
    search.simulations = 6;
    search.rollout = AA_AGENT_GREEDY;
    search.rollout_depth = 30;
    search.width = 4;
    legal = (int32_t *)malloc((size_t)aa_num_actions(spec) * sizeof(int32_t));
    obs = (float *)malloc((size_t)n_obs * sizeof(float));
    if (legal == NULL || obs == NULL)
        return fail(r, "malloc");
    for (seed = 0; seed < 2; seed++) {
        if (aa_agent_new_search(a, 100 + seed, NULL, &search, &agent[0]) != AA_OK
                || aa_agent_new_search(b, 200 + seed, NULL, &search, &agent[1]) != AA_OK
                || aa_game_new(spec, (uint64_t)seed, &game) != AA_OK)
            return fail(r, "new");
        for (k = 0; !aa_game_is_over(game); k++) {
            aa_game_current_player(game, &player);
            n = aa_game_legal_actions(game, legal, aa_num_actions(spec));
            if (aa_agent_action(agent[player], game, &action) != AA_OK || aa_game_apply(game, action) != AA_OK)
                return fail(r, "play");
            h = fnv(h, legal, (size_t)n * sizeof(int32_t));
            h = fnv(h, &action, sizeof action);
            if (k == 20) {   /* the planning calls once per game: a copy, determinized, observed */
                if (aa_game_copy(game, &copy) != AA_OK || aa_game_determinize(copy, 0, 7) != AA_OK
                        || aa_game_observe(copy, 0, obs, n_obs) != AA_OK)
                    return fail(r, "copy");
                h = fnv(h, obs, (size_t)n_obs * sizeof(float));
                aa_game_free(copy);
            }
        }
        aa_game_winner(game, &winner);
        h = fnv(h, &winner, sizeof winner);
        aa_game_free(game);
        aa_agent_free(agent[0]);
        aa_agent_free(agent[1]);
    }
    free(legal);
    free(obs);
    say(r, part, h);
    return 0;
}

static void *work(void *arg) {
    result *r = (result *)arg;
    aa_spec *spec;
    aa_engagement e;
    int8_t *markers = (int8_t *)malloc(3000);   /* the host's own buffers off its small stack too */
    int16_t *wounds = (int16_t *)malloc(3000 * sizeof(int16_t));
    int m, w;
    if (markers == NULL || wounds == NULL || aa_spec_default(&spec) != AA_OK) {
        fail(r, "spec");
        return NULL;
    }
    if (play(r, spec, AA_AGENT_GREEDY, AA_AGENT_GREEDY, "greedy-greedy")
            || play(r, spec, AA_AGENT_RANDOM, AA_AGENT_HEURISTIC, "random-heuristic")
            || play(r, spec, AA_AGENT_DOCTRINE, AA_AGENT_GREEDY, "doctrine-greedy")
            || play(r, spec, AA_AGENT_ISMCTS, AA_AGENT_GREEDY, "ismcts-greedy")) {
        aa_spec_free(spec);
        return NULL;
    }
    memset(&e, 0, sizeof e);
    e.shooter[0] = e.shooter[1] = 10;
    e.shooter[2] = 8;
    e.target[0] = e.target[1] = 8;
    e.target[2] = 6;
    e.target_posture = 1;
    e.range_band = 2;
    e.armor = 2;
    e.cover = 1;
    if (aa_simulate_fire(spec, &e, 12345, 3000, markers, wounds) != AA_OK || aa_resolve_fire(spec, 13, 3, 2, 2, 1, &m, &w))
        fail(r, "fire");
    else
        say(r, "fire", fnv(fnv(fnv(FNV0, markers, 3000), wounds, 3000 * sizeof(int16_t)), &m, sizeof m));
    aa_spec_free(spec);
    free(markers);
    free(wounds);
    return NULL;
}

int main(int argc, char **argv) {
    static result r;
    pthread_t thread;
    pthread_attr_t attr;
    size_t stack = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 0;
    if (stack == 0) {
        work(&r);
    } else {
#ifdef PTHREAD_STACK_MIN
        if (stack < (size_t)PTHREAD_STACK_MIN)
            stack = (size_t)PTHREAD_STACK_MIN;
#endif
        if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, stack) != 0
                || pthread_create(&thread, &attr, work, &r) != 0 || pthread_join(thread, NULL) != 0) {
            fprintf(stderr, "cannot run a thread of %lu bytes of stack\n", (unsigned long)stack);
            return 2;
        }
        printf("stack %lu\n", (unsigned long)stack);
    }
    fputs(r.text, stdout);
    return r.failed;
}
