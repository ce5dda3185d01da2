/* The C API's decision loop for benchmarks/bench_c_api.py (built into a shared object with
 * libatomic_africa.a and called through ctypes): whole games of the default battle, each decision
 * aa_game_legal_actions + aa_game_apply of one of them, events off, as a C host would play. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "atomic_africa.h"

/* Games seed0..seed0+games-1, action k * 7919 mod n of each decision's n legal ids; returns the
 * decisions made (-1 on a failure) and, in *cpu_ns, the thread CPU time of the decisions alone (not
 * the games' set-up; a busy machine's waits not counted). */
long aa_bench_play(unsigned long long seed0, int games, double *cpu_ns) {
    aa_spec *spec;
    aa_game *g;
    int32_t legal[8192];
    long decisions = 0;
    int k, n;
    unsigned long long s;
    struct timespec t0, t1;
    double spent = 0.0;
    if (aa_spec_default(&spec) != AA_OK)
        return -1;
    for (s = seed0; s < seed0 + (unsigned long long)games; s++) {
        if (aa_game_new(spec, s, &g) != AA_OK || aa_game_record_events(g, 0) != AA_OK)
            return -1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        for (k = 0; !aa_game_is_over(g); k++) {
            n = aa_game_legal_actions(g, legal, 8192);
            if (n <= 0 || aa_game_apply(g, legal[(k * 7919L) % n]) != AA_OK)
                return -1;
            decisions++;
        }
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        spent += (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        aa_game_free(g);
    }
    aa_spec_free(spec);
    *cpu_ns = spent;
    return decisions;
}

/* `calls` x aa_spec_default + aa_spec_free after a first call (the process's odds tables counted
 * then, as a host's first spec does); returns the thread CPU ns of one later call (-1 on a failure). */
double aa_bench_spec_default(int calls) {
    aa_spec *spec;
    struct timespec t0, t1;
    int k;
    if (aa_spec_default(&spec) != AA_OK)
        return -1.0;
    aa_spec_free(spec);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    for (k = 0; k < calls; k++) {
        if (aa_spec_default(&spec) != AA_OK)
            return -1.0;
        aa_spec_free(spec);
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    return ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / calls;
}
