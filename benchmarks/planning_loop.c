/* The planning calls timed in C for benchmarks/bench_planning.py (built into a shared object with
 * libatomic_africa.a and called through ctypes): copy, reseed and determinize through the public API,
 * and the native ISMCTS agent against plain rollouts of the same rollout agent.
 *
 * Times are thread CPU time (a busy machine's waits not counted), medians over batches, so one
 * preempted batch does not move the figure. The search side reaches into the core's internal headers
 * (aa_engine.h) only to run the rollouts exactly as a simulation runs its own (aa_state_copy,
 * aa_determinize, aa_agent_choose, aa_apply_action, no API checks), so that the comparison is of the
 * tree alone. Linked with -Wl,--wrap=aa_apply_action, every decision the core applies outside
 * aa_engine.c (the search's and the rollouts' alike) is counted by __wrap_aa_apply_action: the
 * search's simulation lengths without touching its code. */
#define _POSIX_C_SOURCE 199309L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aa_pcg.h"
#include "aa_spec.h"

#define LIVE 16   /* copies alive at once in aa_bench_planning */

static long applied;   /* decisions applied through the wrapper (one thread: the benchmark's) */

void __real_aa_apply_action(const aa_params *P, aa_state *g, int a);

void __wrap_aa_apply_action(const aa_params *P, aa_state *g, int a) {
    applied++;
    __real_aa_apply_action(P, g, a);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, int n) {
    qsort(x, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Game(seed) of the default battle after `at` decisions, each legal id k * 7919 mod n (as
 * c_api_loop.c plays); NULL if it ends before. */
static aa_game *position(const aa_spec *spec, unsigned long long seed, int at, int events) {
    aa_game *g;
    int32_t legal[8192];
    int k, n;
    if (aa_game_new(spec, seed, &g) != AA_OK)
        return NULL;
    if (!events)
        aa_game_record_events(g, 0);
    for (k = 0; k < at; k++) {
        n = aa_game_legal_actions(g, legal, 8192);
        if (n <= 0 || aa_game_apply(g, legal[(k * 7919L) % n]) != AA_OK) {
            aa_game_free(g);
            return NULL;
        }
    }
    return g;
}

/* Median CPU ns of one call, over `batches` batches of `per_batch` calls, at decision `at` of Game(seed)
 * (events recorded or not): out[0] aa_game_copy and its aa_game_free (a planner's copy), out[1]
 * aa_game_copy alone, out[2] aa_game_reseed, out[3] aa_game_determinize for the player to move.
 * Returns 0, -1 on a failure. */
int aa_bench_planning(unsigned long long seed, int at, int events, int batches, int per_batch, double *out) {
    aa_spec *spec;
    aa_game *g, *work, **copies;
    double *ns[4], t0, t1, clock_cost;
    int b, i, k, player, rc = 0;
    unsigned long long s = 1;
    if (batches < 1 || per_batch < 1 || aa_spec_default(&spec) != AA_OK)
        return -1;
    g = position(spec, seed, at, events);
    copies = (aa_game **)malloc(LIVE * sizeof *copies);
    for (k = 0; k < 4; k++)
        ns[k] = (double *)malloc((size_t)batches * sizeof(double));
    if (g == NULL || copies == NULL || !ns[0] || !ns[1] || !ns[2] || !ns[3] || aa_game_copy(g, &work) != AA_OK) {
        rc = -1;
        goto done;
    }
    aa_game_current_player(g, &player);
    /* what one clock read costs (a thread-CPU clock is a system call): taken off the copy-alone
     * figure, whose timer runs around every LIVE copies */
    clock_cost = 1e300;
    for (i = 0; i < 64; i++) {
        t0 = now_ns();
        t1 = now_ns() - t0;
        clock_cost = t1 < clock_cost ? t1 : clock_cost;
    }
    for (b = 0; b < batches && rc == 0; b++) {
        /* LIVE copies alive at a time, as a planner holds a few: with hundreds alive and freed at
         * once, glibc gives the heap top back to the system and the next round faults its pages in
         * again, which times the kernel rather than the copy */
        double t_copy = 0.0;
        int j, m;
        t0 = now_ns();
        for (i = 0; i < per_batch; i += LIVE) {
            m = per_batch - i < LIVE ? per_batch - i : LIVE;
            for (j = 0; j < m; j++)
                if (aa_game_copy(g, &copies[j]) != AA_OK)
                    rc = -1;
            for (j = 0; j < m; j++)
                aa_game_free(copies[j]);
        }
        ns[0][b] = (now_ns() - t0) / per_batch;
        for (i = 0; i < per_batch; i += LIVE) {
            m = per_batch - i < LIVE ? per_batch - i : LIVE;
            t0 = now_ns();
            for (j = 0; j < m; j++)
                if (aa_game_copy(g, &copies[j]) != AA_OK)
                    rc = -1;
            t_copy += now_ns() - t0 - clock_cost;
            for (j = 0; j < m; j++)
                aa_game_free(copies[j]);
        }
        ns[1][b] = t_copy / per_batch;
        t0 = now_ns();
        for (i = 0; i < per_batch; i++)
            if (aa_game_reseed(work, s++) != AA_OK)
                rc = -1;
        ns[2][b] = (now_ns() - t0) / per_batch;
        /* the same game determinized again and again: each result is in the same information set,
         * so every call does the work of the first */
        t0 = now_ns();
        for (i = 0; i < per_batch; i++)
            if (aa_game_determinize(work, player, s++) != AA_OK)
                rc = -1;
        ns[3][b] = (now_ns() - t0) / per_batch;
    }
    for (k = 0; k < 4 && rc == 0; k++)
        out[k] = median(ns[k], batches);
    aa_game_free(work);
done:
    for (k = 0; k < 4; k++)
        free(ns[k]);
    free(copies);
    aa_game_free(g);
    aa_spec_free(spec);
    return rc;
}

/* One ISMCTS decision of `simulations` simulations (the rollout agent `rollout`, depth cap
 * `rollout_depth`, the greedy agent's `width` best actions per node, UCT constant 0.7, agent seed `agent_seed`) at decision `at` of Game(seed), then as
 * many plain rollouts from the same root: each a copy, a determinization for the player to move and the
 * rollout agent played to the end or the cap, as a simulation's own rollout. Into out: [0] the search's
 * CPU ns, [1] the decisions its simulations applied, [2] the rollouts' CPU ns in all, [3] their
 * decisions, [4] the CPU ns of their copies and determinizations alone, [5] the action chosen. */
int aa_bench_search(unsigned long long seed, int at, int simulations, int rollout, int rollout_depth, int width,
                    unsigned long long agent_seed, double *out) {
    aa_spec *spec;
    const aa_params *P;
    aa_agent_options o;
    aa_agent_params ap;
    aa_state root, copy;
    void *root_mem, *copy_mem;
    uint64_t root_words[AA_PCG_WORDS], copy_words[AA_PCG_WORDS], agent_words[AA_PCG_WORDS];
    aa_bitgen root_bg, copy_bg, agent_bg;
    int legal[MAX_LEGAL];
    int k, n, a, me, steps;
    long before;
    double t0, fixed = 0.0;
    if (simulations < 1 || aa_spec_default(&spec) != AA_OK || aa_agent_defaults(&o) != AA_OK)
        return -1;
    P = aa_spec_params(spec);
    root_mem = malloc(aa_state_size(P));
    copy_mem = malloc(aa_state_size(P));
    if (root_mem == NULL || copy_mem == NULL) {
        free(root_mem);
        free(copy_mem);
        aa_spec_free(spec);
        return -1;
    }
    /* the root: Game(seed) after `at` decisions of position()'s rule, in the core's own state */
    aa_state_bind(&root, P, root_mem);
    aa_pcg_from_seed(seed, root_words);
    aa_pcg_bitgen(root_words, &root_bg);
    root.rng = &root_bg;
    root.ev = NULL;
    aa_start_game(P, &root);
    for (k = 0; k < at && root.s[S_STAGE] != ST_OVER; k++) {
        int i, j, x;
        n = aa_legal_actions(P, &root, legal);
        for (i = 1; i < n; i++) {   /* ascending, as the API lists them */
            x = legal[i];
            for (j = i - 1; j >= 0 && legal[j] > x; j--)
                legal[j + 1] = legal[j];
            legal[j + 1] = x;
        }
        aa_apply_action(P, &root, legal[(k * 7919L) % n]);
    }
    if (root.s[S_STAGE] == ST_OVER) {
        free(root_mem);
        free(copy_mem);
        aa_spec_free(spec);
        return -1;
    }
    me = root.s[S_CUR];
    ap.wound_value = o.wound_value;
    ap.marker_value = o.marker_value;
    ap.rally_value = o.rally_value;
    ap.cover_value = o.cover_value;
    ap.reserve_value = o.reserve_value;
    ap.standoff_cm = o.standoff_cm;
    ap.simulations = simulations;
    ap.exploration = 0.7;
    ap.rollout = rollout;
    ap.rollout_depth = rollout_depth;
    ap.width = width;

    aa_pcg_from_seed(agent_seed, agent_words);
    aa_pcg_bitgen(agent_words, &agent_bg);
    before = applied;
    t0 = now_ns();
    out[5] = aa_agent_choose(P, &root, AGENT_ISMCTS, &ap, &agent_bg);
    out[0] = now_ns() - t0;
    out[1] = (double)(applied - before);

    /* the rollouts: determinization seeds from a stream seeded as the agent's (the search draws one
     * per simulation from its own, among its other draws); first the copies and determinizations
     * alone, then whole rollouts (no timer inside the loops: a thread-CPU clock read is a system call) */
    aa_state_bind(&copy, P, copy_mem);
    aa_pcg_bitgen(copy_words, &copy_bg);
    copy.rng = &copy_bg;
    copy.ev = NULL;
    aa_pcg_from_seed(agent_seed, agent_words);
    aa_pcg_bitgen(agent_words, &agent_bg);
    t0 = now_ns();
    for (k = 0; k < simulations; k++) {
        aa_state_copy(P, &copy, &root);
        aa_pcg_from_seed(agent_bg.next_uint64(agent_bg.state), copy_words);
        aa_determinize(P, &copy, me);
    }
    fixed = now_ns() - t0;
    aa_pcg_from_seed(agent_seed, agent_words);
    aa_pcg_bitgen(agent_words, &agent_bg);
    before = applied;
    t0 = now_ns();
    for (k = 0; k < simulations; k++) {
        aa_state_copy(P, &copy, &root);
        aa_pcg_from_seed(agent_bg.next_uint64(agent_bg.state), copy_words);
        aa_determinize(P, &copy, me);
        for (steps = 0; copy.s[S_STAGE] != ST_OVER && (rollout_depth <= 0 || steps < rollout_depth); steps++) {
            a = aa_agent_choose(P, &copy, rollout, &ap, copy.rng);
            if (a < 0)
                break;
            aa_apply_action(P, &copy, a);
        }
    }
    out[2] = now_ns() - t0;
    out[3] = (double)(applied - before);
    out[4] = fixed;
    free(root_mem);
    free(copy_mem);
    aa_spec_free(spec);
    return 0;
}
