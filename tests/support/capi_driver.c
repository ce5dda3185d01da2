/* A C host of the public API (include/atomic_africa.h), linked with libatomic_africa.a and no Python:
 * tests/test_c_api.py compiles it and compares what it prints with the Python engine.
 *
 *   capi_driver play SEED N     games SEED..SEED+N-1 of the default battle, both sides played by
 *                               random agents RandomAgent(AGENT_SEED + 2 * seed + side); per decision
 *                               "S player n_legal legal_digest action", per game "G seed" first and
 *                               "W winner n_events events_digest obs0_digest obs1_digest" last
 *   capi_driver events SEED     the same game's event records, one value per line (%.17g)
 *   capi_driver pevents SEED P  the same game's records as player P may know them (aa_game_player_events)
 *   capi_driver fire            the worked example: "F markers wounds"
 *   capi_driver sim SEED N      aa_simulate_fire of a fixed engagement: "M digest" of markers, "X" of wounds
 *   capi_driver spec FILE       aa_spec_load of a file: "status message"
 *   capi_driver errors          bad calls: one "name status message" line each
 *   capi_driver agents K0 K1 SEED MAX   built-in agents K0 and K1 play Game(SEED): their actions
 *   capi_driver plan SEED OP...  Game(SEED) played as `play` plays it, with planning calls between
 *                               decisions: OP is "K:d:P:S" (before decision K, aa_game_determinize(g,
 *                               P, S)) or "K:r:S" (aa_game_reseed(g, S)), K ascending; after each,
 *                               "D obs0_digest obs1_digest n_legal legal_digest"; then `play`'s lines
 *   capi_driver search SEED MAX SIMS EXPL ROLLOUT DEPTH A0 A1   two ISMCTS agents
 *                               (aa_agent_new_search, seeds A0 for side 0 and A1 for side 1) play
 *                               Game(SEED): their actions, one per line, at most MAX decisions
 *   capi_driver searchdefaults  aa_search_defaults: "SD simulations exploration rollout rollout_depth width"
 *   capi_driver copydet SEED K P S   Game(SEED) after K decisions of `play`'s agents; copied, the copy
 *                               determinized for P with S and played on: the original's "V" line
 *                               (its view digests) before and after, and the copy's
 * Digests are FNV-1a 64 over the values' little-endian bytes (int32 ids, doubles, float32). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"

#define AGENT_SEED 10000u

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

#define FNV0 14695981039346656037ull

static void die(const char *what, aa_status st) {
    printf("FAIL %s %d %s\n", what, (int)st, aa_last_error());
    exit(1);
}

/* "obs0_digest obs1_digest n_legal legal_digest" of a game: what a planning call must keep or change */
static void print_view(const aa_spec *spec, const aa_game *g, const char *tag) {
    static int32_t buf[1 << 16];
    static float obs[1 << 16];
    int p, m;
    aa_status st;
    printf("%s", tag);
    for (p = 0; p < 2; p++) {
        if ((st = aa_game_observe(g, p, obs, 1 << 16)) != AA_OK)
            die("aa_game_observe", st);
        printf(" %016llx", (unsigned long long)fnv(FNV0, obs, sizeof(float) * (size_t)aa_observation_size(spec)));
    }
    m = aa_game_legal_actions(g, buf, 1 << 16);
    if (m < 0)
        die("aa_game_legal_actions", (aa_status)-m);
    printf(" %d %016llx\n", m, (unsigned long long)fnv(FNV0, buf, sizeof(int32_t) * (size_t)m));
}

/* print_events: 0 the game's lines, 1 its event records, 2 + p player p's view of them */
/* One planning call of `plan` ("K:d:P:S" or "K:r:S") if it is due before decision k: 1 if it was. */
static int plan_op(const aa_spec *spec, aa_game *g, const char *op, int k) {
    char *end;
    long at = strtol(op, &end, 10);
    aa_status st;
    if (at != k || *end != ':')
        return 0;
    if (end[1] == 'd') {
        int player = (int)strtol(end + 3, &end, 10);
        if ((st = aa_game_determinize(g, player, strtoull(end + 1, NULL, 10))) != AA_OK)
            die("aa_game_determinize", st);
    } else if ((st = aa_game_reseed(g, strtoull(end + 3, NULL, 10))) != AA_OK) {
        die("aa_game_reseed", st);
    }
    print_view(spec, g, "D");
    return 1;
}

static int play_planned(const aa_spec *spec, uint64_t seed, int print_events, char **ops, int n_ops);

static int play(const aa_spec *spec, uint64_t seed, int print_events) {
    return play_planned(spec, seed, print_events, NULL, 0);
}

static int play_planned(const aa_spec *spec, uint64_t seed, int print_events, char **ops, int n_ops) {
    aa_game *g;
    aa_agent *agents[2];
    int32_t *buf;
    float *obs;
    int n_act = aa_num_actions(spec), n_obs = aa_observation_size(spec);
    int p, m, winner, decision = 0, next_op = 0;
    int32_t a;
    aa_status st;
    const double *ev;
    size_t n_ev, k;
    uint64_t h;
    buf = (int32_t *)malloc(sizeof(int32_t) * (size_t)n_act);
    obs = (float *)malloc(sizeof(float) * (size_t)n_obs);
    if ((st = aa_game_new(spec, seed, &g)) != AA_OK)
        die("aa_game_new", st);
    for (p = 0; p < 2; p++)
        if ((st = aa_agent_new(AA_AGENT_RANDOM, AGENT_SEED + 2 * seed + (uint64_t)p, NULL, &agents[p])) != AA_OK)
            die("aa_agent_new", st);
    if (!print_events)
        printf("G %llu\n", (unsigned long long)seed);
    while (!aa_game_is_over(g)) {
        while (next_op < n_ops && plan_op(spec, g, ops[next_op], decision))
            next_op++;
        decision++;
        if ((st = aa_game_current_player(g, &p)) != AA_OK)
            die("aa_game_current_player", st);
        m = aa_game_legal_actions(g, buf, n_act);
        if (m < 0)
            die("aa_game_legal_actions", (aa_status)-m);
        if ((st = aa_agent_action(agents[p], g, &a)) != AA_OK)
            die("aa_agent_action", st);
        if ((st = aa_game_apply(g, a)) != AA_OK)
            die("aa_game_apply", st);
        if (!print_events)
            printf("S %d %d %016llx %ld\n", p, m, (unsigned long long)fnv(FNV0, buf, sizeof(int32_t) * (size_t)m),
                   (long)a);
    }
    if ((st = aa_game_winner(g, &winner)) != AA_OK)
        die("aa_game_winner", st);
    if ((st = aa_game_events(g, &ev, &n_ev)) != AA_OK)
        die("aa_game_events", st);
    if (print_events >= 2) {
        double *view;
        size_t n_view;
        if ((st = aa_game_player_events(g, print_events - 2, NULL, 0, &n_view)) != AA_OK)
            die("aa_game_player_events count", st);
        view = (double *)malloc(sizeof(double) * (n_view + 1));
        if ((st = aa_game_player_events(g, print_events - 2, view, n_view, &k)) != AA_OK || k != n_view)
            die("aa_game_player_events", st);
        for (k = 0; k < n_view; k++)
            printf("%.17g\n", view[k]);
        free(view);
    } else if (print_events) {
        for (k = 0; k < n_ev; k++)
            printf("%.17g\n", ev[k]);
    } else {
        printf("W %d %lu %016llx", winner, (unsigned long)n_ev, (unsigned long long)fnv(FNV0, ev, n_ev * sizeof(double)));
        for (p = 0; p < 2; p++) {
            if ((st = aa_game_observe(g, p, obs, n_obs)) != AA_OK)
                die("aa_game_observe", st);
            h = fnv(FNV0, obs, sizeof(float) * (size_t)n_obs);
            printf(" %016llx", (unsigned long long)h);
        }
        printf("\n");
    }
    aa_agent_free(agents[0]);
    aa_agent_free(agents[1]);
    aa_game_free(g);
    free(buf);
    free(obs);
    return 0;
}

static void report(const char *name, aa_status st) { printf("%s %d %s\n", name, (int)st, aa_last_error()); }

/* Every refused aa_agent_new_search must leave *out NULL (a host frees nothing half made): 1 while so. */
static int search_out_cleared = 1;

static void report_search(const char *name, int kind, const aa_search_options *so) {
    static aa_search_options sentinel;
    aa_agent *agent = (aa_agent *)(void *)&sentinel;   /* never dereferenced: only compared */
    report(name, aa_agent_new_search(kind, 0, NULL, so, &agent));
    if (agent != NULL) {
        search_out_cleared = 0;
        if (agent != (aa_agent *)(void *)&sentinel)
            aa_agent_free(agent);
    }
}

static void errors(const aa_spec *spec) {
    aa_game *g = NULL, *c = NULL;
    aa_spec *s2 = NULL;
    aa_agent *ag = NULL;
    int32_t buf[4];
    float obs[4];
    int mk, w, p;
    int32_t a;
    const double *ev;
    size_t n;
    aa_engagement e = {{10, 10, 8}, {8, 8, 6}, 0, 1, 0, 0, 2, 2, 1, 0, 0};
    aa_engagement bad = e;
    int8_t m8[4];
    int16_t w16[4];
    report("spec_default_null", aa_spec_default(NULL));
    report("spec_load_null", aa_spec_load(NULL, 10, &s2));
    report("game_new_null_spec", aa_game_new(NULL, 0, &g));
    report("game_new_null_out", aa_game_new(spec, 0, NULL));
    printf("num_actions_null %d %s\n", aa_num_actions(NULL), aa_last_error());
    printf("is_over_null %d %s\n", aa_game_is_over(NULL), aa_last_error());
    report("copy_null", aa_game_copy(NULL, &c));
    report("current_player_null", aa_game_current_player(NULL, &p));
    if (aa_game_new(spec, 7, &g) != AA_OK)
        die("aa_game_new", AA_ERR_ARGUMENT);
    report("current_player_null_out", aa_game_current_player(g, NULL));
    printf("legal_cap_small %d %s\n", aa_game_legal_actions(g, buf, 1), aa_last_error());
    printf("legal_cap_negative %d %s\n", aa_game_legal_actions(g, buf, -1), aa_last_error());
    printf("legal_buf_null %d %s\n", aa_game_legal_actions(g, NULL, 4), aa_last_error());
    printf("legal_count %d\n", aa_game_legal_actions(g, NULL, 0));
    report("apply_negative", aa_game_apply(g, -1));
    report("apply_too_large", aa_game_apply(g, aa_num_actions(spec)));
    report("apply_null", aa_game_apply(NULL, 0));
    report("winner_running", aa_game_winner(g, &w));
    report("observe_player", aa_game_observe(g, 2, obs, 4));
    report("observe_cap", aa_game_observe(g, 0, obs, 4));
    report("observe_null", aa_game_observe(g, 0, NULL, 4));
    report("events_null", aa_game_events(g, NULL, &n));
    (void)ev;
    {
        double one[1] = {42.0};
        size_t need = 0;
        report("player_events_player", aa_game_player_events(g, 2, NULL, 0, &n));
        report("player_events_null_n", aa_game_player_events(g, 0, NULL, 0, NULL));
        report("player_events_buf_null", aa_game_player_events(g, 0, NULL, 4, &n));
        report("player_events_null_game", aa_game_player_events(NULL, 0, NULL, 0, &n));
        report("player_events_cap", aa_game_player_events(g, 0, one, 1, &n));
        aa_game_events(g, &ev, &need);
        printf("player_events_count %d %lu %lu %g\n", (int)aa_game_player_events(g, 1, NULL, 0, &n),
               (unsigned long)n, (unsigned long)need, one[0]);
    }
    report("record_events_bad", aa_game_record_events(g, 5));
    report("agent_kind", aa_agent_new(9, 0, NULL, &ag));
    report("agent_null_out", aa_agent_new(0, 0, NULL, NULL));
    report("agent_action_null", aa_agent_action(NULL, g, &a));
    {
        aa_search_options so, bad;
        aa_search_defaults(&so);
        report("reseed_null", aa_game_reseed(NULL, 1));
        report("determinize_null", aa_game_determinize(NULL, 0, 1));
        report("determinize_player", aa_game_determinize(g, 2, 1));
        report("determinize_player_negative", aa_game_determinize(g, -1, 1));
        report("search_defaults_null", aa_search_defaults(NULL));
        report("search_null_out", aa_agent_new_search(AA_AGENT_ISMCTS, 0, NULL, &so, NULL));
        report_search("search_kind", 9, &so);
        bad = so;
        bad.simulations = 0;
        report_search("search_simulations_zero", AA_AGENT_ISMCTS, &bad);
        bad.simulations = AA_MAX_SIMULATIONS + 1;
        report_search("search_simulations_high", AA_AGENT_ISMCTS, &bad);
        bad = so;
        bad.exploration = NAN;
        report_search("search_exploration_nan", AA_AGENT_ISMCTS, &bad);
        bad.exploration = -0.5;
        report_search("search_exploration_negative", AA_AGENT_ISMCTS, &bad);
        bad.exploration = INFINITY;
        report_search("search_exploration_inf", AA_AGENT_ISMCTS, &bad);
        bad = so;
        bad.rollout = AA_AGENT_ISMCTS;   /* a search does not roll out with a search */
        report_search("search_rollout_ismcts", AA_AGENT_ISMCTS, &bad);
        bad.rollout = -1;
        report_search("search_rollout_negative", AA_AGENT_ISMCTS, &bad);
        bad = so;
        bad.rollout_depth = -1;
        report_search("search_rollout_depth", AA_AGENT_ISMCTS, &bad);
        bad = so;
        bad.width = -1;
        report_search("search_width", AA_AGENT_ISMCTS, &bad);
        printf("search_out_cleared %d\n", search_out_cleared);
    }
    report("fire_null_spec", aa_resolve_fire(NULL, 13, 3, 2, 2, 1, &mk, &w));
    report("fire_attack", aa_resolve_fire(spec, -1, 3, 2, 2, 1, &mk, &w));
    report("fire_band", aa_resolve_fire(spec, 13, 0, 2, 2, 1, &mk, &w));
    report("fire_band_high", aa_resolve_fire(spec, 13, 99, 2, 2, 1, &mk, &w));
    report("fire_defense", aa_resolve_fire(spec, 13, 3, -2, 2, 1, &mk, &w));
    report("fire_armor", aa_resolve_fire(spec, 13, 3, 2, 0, 1, &mk, &w));
    report("fire_cover", aa_resolve_fire(spec, 13, 3, 2, 2, 3, &mk, &w));
    report("fire_null_out", aa_resolve_fire(spec, 13, 3, 2, 2, 1, NULL, &w));
    bad.shooter[1] = 7;
    report("sim_die", aa_simulate_fire(spec, &bad, 0, 4, m8, w16));
    bad = e;
    bad.shooter_action = 5;   /* RALLY makes no attack */
    report("sim_action", aa_simulate_fire(spec, &bad, 0, 4, m8, w16));
    bad = e;
    bad.ap = 1;
    report("sim_ap", aa_simulate_fire(spec, &bad, 0, 4, m8, w16));
    report("sim_null_out", aa_simulate_fire(spec, &e, 0, 4, NULL, w16));
    report("sim_null_engagement", aa_simulate_fire(spec, NULL, 0, 4, m8, w16));
    aa_game_free(g);
}

int main(int argc, char **argv) {
    aa_spec *spec = NULL;
    aa_status st;
    if (argc < 2)
        return 2;
    if (aa_abi_version() != AA_ABI_VERSION) {
        printf("FAIL abi %d != %d\n", aa_abi_version(), AA_ABI_VERSION);
        return 1;
    }
    if (strcmp(argv[1], "spec") == 0) {
        FILE *f = fopen(argv[2], "rb");
        static unsigned char data[1 << 22];
        size_t len = f ? fread(data, 1, sizeof data, f) : 0;
        if (f)
            fclose(f);
        st = aa_spec_load(data, len, &spec);
        printf("%d %s\n", (int)st, aa_last_error());
        aa_spec_free(spec);
        return 0;
    }
    if ((st = aa_spec_default(&spec)) != AA_OK)
        die("aa_spec_default", st);
    if (strcmp(argv[1], "play") == 0) {
        uint64_t s0 = strtoull(argv[2], NULL, 10), n = strtoull(argv[3], NULL, 10), s;
        for (s = s0; s < s0 + n; s++)
            play(spec, s, 0);
    } else if (strcmp(argv[1], "events") == 0) {
        play(spec, strtoull(argv[2], NULL, 10), 1);
    } else if (strcmp(argv[1], "pevents") == 0) {
        play(spec, strtoull(argv[2], NULL, 10), 2 + atoi(argv[3]));
    } else if (strcmp(argv[1], "fire") == 0) {
        int markers, wounds;
        if ((st = aa_resolve_fire(spec, 13, 3, 2, 2, 1, &markers, &wounds)) != AA_OK)
            die("aa_resolve_fire", st);
        printf("F %d %d\n", markers, wounds);
    } else if (strcmp(argv[1], "sim") == 0) {
        aa_engagement e = {{10, 10, 8}, {8, 8, 6}, 0, 1, 0, 0, 2, 2, 1, 0, 0};
        size_t n = (size_t)strtoull(argv[3], NULL, 10);
        int8_t *m = (int8_t *)malloc(n);
        int16_t *w = (int16_t *)malloc(2 * n);
        if ((st = aa_simulate_fire(spec, &e, strtoull(argv[2], NULL, 10), n, m, w)) != AA_OK)
            die("aa_simulate_fire", st);
        printf("M %016llx\nX %016llx\n", (unsigned long long)fnv(FNV0, m, n),
               (unsigned long long)fnv(FNV0, w, 2 * n));
        free(m);
        free(w);
    } else if (strcmp(argv[1], "agents") == 0) {
        /* agents K0 K1 SEED MAX: kinds K0 (side 0) and K1 (side 1), default options, agent seeds 1 and
         * 2; one action per line, at most MAX decisions */
        aa_game *g;
        aa_agent *ag[2];
        int32_t x;
        int p, k, max = atoi(argv[5]);
        /* a second default spec: the greedy agent then reads the odds tables the first one counted
         * and left shared (aa_spec.c), which must be the same games */
        aa_spec_free(spec);
        if ((st = aa_spec_default(&spec)) != AA_OK)
            die("aa_spec_default", st);
        aa_game_new(spec, strtoull(argv[4], NULL, 10), &g);
        for (p = 0; p < 2; p++)
            if ((st = aa_agent_new(atoi(argv[2 + p]), 1 + (uint64_t)p, NULL, &ag[p])) != AA_OK)
                die("aa_agent_new", st);
        for (k = 0; k < max && !aa_game_is_over(g); k++) {
            aa_game_current_player(g, &p);
            if ((st = aa_agent_action(ag[p], g, &x)) != AA_OK || (st = aa_game_apply(g, x)) != AA_OK)
                die("agents", st);
            printf("%ld\n", (long)x);
        }
        aa_game_free(g);
        aa_agent_free(ag[0]);
        aa_agent_free(ag[1]);
    } else if (strcmp(argv[1], "plan") == 0) {
        play_planned(spec, strtoull(argv[2], NULL, 10), 0, argv + 3, argc - 3);
    } else if (strcmp(argv[1], "search") == 0) {
        /* search SEED MAX SIMS EXPL ROLLOUT DEPTH A0 A1: ISMCTSAgent(A0, SIMS, EXPL, ROLLOUT, DEPTH) for
         * side 0 and the same with seed A1 for side 1 (one stream per agent, as the Python agents) */
        aa_game *g;
        aa_agent *ag[2];
        aa_search_options so;
        int32_t x;
        int p, k, max = atoi(argv[3]);
        if ((st = aa_search_defaults(&so)) != AA_OK)
            die("aa_search_defaults", st);
        so.simulations = atoi(argv[4]);
        so.exploration = strtod(argv[5], NULL);
        so.rollout = atoi(argv[6]);
        so.rollout_depth = atoi(argv[7]);
        if ((st = aa_game_new(spec, strtoull(argv[2], NULL, 10), &g)) != AA_OK)
            die("aa_game_new", st);
        for (p = 0; p < 2; p++)
            if ((st = aa_agent_new_search(AA_AGENT_ISMCTS, strtoull(argv[8 + p], NULL, 10), NULL, &so, &ag[p]))
                != AA_OK)
                die("aa_agent_new_search", st);
        for (k = 0; k < max && !aa_game_is_over(g); k++) {
            aa_game_current_player(g, &p);
            if ((st = aa_agent_action(ag[p], g, &x)) != AA_OK || (st = aa_game_apply(g, x)) != AA_OK)
                die("search", st);
            printf("%ld\n", (long)x);
        }
        aa_game_free(g);
        aa_agent_free(ag[0]);
        aa_agent_free(ag[1]);
    } else if (strcmp(argv[1], "searchdefaults") == 0) {
        aa_search_options so;
        if ((st = aa_search_defaults(&so)) != AA_OK)
            die("aa_search_defaults", st);
        printf("SD %d %.17g %d %d %d\n", so.simulations, so.exploration, so.rollout, so.rollout_depth, so.width);
    } else if (strcmp(argv[1], "copydet") == 0) {
        /* copydet SEED K P S: the original's view ("V"), the copy's after aa_game_determinize ("W"),
         * the original's again after the copy played on ("V"), and both games' event counts ("E") */
        aa_game *g, *c;
        aa_agent *ag[2];
        const double *ev;
        size_t n0, n1, n2;
        int32_t x;
        int p, k, steps = atoi(argv[3]);
        uint64_t seed = strtoull(argv[2], NULL, 10);
        if ((st = aa_game_new(spec, seed, &g)) != AA_OK)
            die("aa_game_new", st);
        for (p = 0; p < 2; p++)
            if ((st = aa_agent_new(AA_AGENT_RANDOM, AGENT_SEED + 2 * seed + (uint64_t)p, NULL, &ag[p])) != AA_OK)
                die("aa_agent_new", st);
        for (k = 0; k < steps && !aa_game_is_over(g); k++) {
            aa_game_current_player(g, &p);
            if ((st = aa_agent_action(ag[p], g, &x)) != AA_OK || (st = aa_game_apply(g, x)) != AA_OK)
                die("copydet", st);
        }
        print_view(spec, g, "V");
        aa_game_events(g, &ev, &n0);
        if ((st = aa_game_copy(g, &c)) != AA_OK)
            die("aa_game_copy", st);
        if ((st = aa_game_determinize(c, atoi(argv[4]), strtoull(argv[5], NULL, 10))) != AA_OK)
            die("aa_game_determinize", st);
        print_view(spec, c, "W");
        for (k = 0; k < 20 && !aa_game_is_over(c); k++) {   /* the copy plays on: still none of g's business */
            aa_game_current_player(c, &p);
            if ((st = aa_agent_action(ag[p], c, &x)) != AA_OK || (st = aa_game_apply(c, x)) != AA_OK)
                die("copydet copy", st);
        }
        print_view(spec, g, "V");
        aa_game_events(g, &ev, &n1);
        aa_game_events(c, &ev, &n2);
        printf("E %lu %lu %lu\n", (unsigned long)n0, (unsigned long)n1, (unsigned long)n2);
        aa_game_free(g);
        aa_game_free(c);
        aa_agent_free(ag[0]);
        aa_agent_free(ag[1]);
    } else if (strcmp(argv[1], "errors") == 0) {
        errors(spec);
    } else if (strcmp(argv[1], "copy") == 0) {
        /* a copy mid-game goes on as the original: both finish alike */
        aa_game *g, *c;
        aa_agent *a1, *a2;
        int32_t x, y;
        int w1, w2;
        int k;
        aa_game_new(spec, 5, &g);
        aa_agent_new(AA_AGENT_RANDOM, 3, NULL, &a1);
        for (k = 0; k < 40 && !aa_game_is_over(g); k++) {
            aa_agent_action(a1, g, &x);
            aa_game_apply(g, x);
        }
        if ((st = aa_game_copy(g, &c)) != AA_OK)
            die("aa_game_copy", st);
        aa_agent_new(AA_AGENT_HEURISTIC, 0, NULL, &a2);
        while (!aa_game_is_over(g)) {
            aa_agent_action(a2, g, &x);
            aa_agent_action(a2, c, &y);
            if (x != y)
                die("copy diverged", AA_ERR_ARGUMENT);
            aa_game_apply(g, x);
            aa_game_apply(c, y);
        }
        aa_game_winner(g, &w1);
        aa_game_winner(c, &w2);
        printf("C %d %d %d\n", w1, w2, aa_game_is_over(c));
        aa_game_free(g);
        aa_game_free(c);
        aa_agent_free(a1);
        aa_agent_free(a2);
    }
    aa_spec_free(spec);
    return 0;
}
