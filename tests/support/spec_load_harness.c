/* Feeds spec files to aa_spec_load (tests/test_spec_file.py compiles it, under sanitizers for the fuzz
 * run): stdin holds frames (u32 little-endian length, then that many bytes); for each, one line
 * "status<TAB>message" on stdout, and a spec that loads plays one game of random legal actions
 * (observed at every decision), so that the engine runs on every spec the loader accepts. With the
 * argument "default", loads aa_spec_default instead and prints its sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"
#include "aa_pcg.h"
#include "aa_spec.h"

/* One game from P with seed `seed`, random legal actions (a fixed LCG), at most 3000 decisions;
 * returns the decisions taken, -1 if memory ran out. */
static long play_(const aa_params *P, uint64_t seed) {
    static int buf[MAX_LEGAL];
    uint64_t st[6], pick = seed;
    aa_bitgen bg;
    aa_state g;
    long steps = 0;
    void *mem = malloc(aa_state_size(P));
    float *obs = (float *)malloc((size_t)P->obs_size * sizeof(float));
    if (mem == NULL || obs == NULL) {
        free(mem);
        free(obs);
        return -1;
    }
    aa_state_bind(&g, P, mem);
    aa_pcg_from_seed(seed, st);
    aa_pcg_bitgen(st, &bg);
    g.rng = &bg;
    g.ev = NULL;
    aa_start_game(P, &g);
    while (steps < 3000) {
        int n = aa_legal_actions(P, &g, buf);
        if (n == 0)
            break;
        aa_observe(P, &g, g.s[S_CUR], obs);
        pick = pick * 6364136223846793005u + 1442695040888963407u;
        aa_apply_action(P, &g, buf[(pick >> 33) % (uint64_t)n]);
        steps++;
    }
    free(mem);
    free(obs);
    return steps;
}

int main(int argc, char **argv) {
    unsigned char head[4];
    aa_spec *spec = NULL;
    aa_status st;
    if (argc > 1 && strcmp(argv[1], "default") == 0) {
        const aa_params *P;
        st = aa_spec_default(&spec);
        if (st != AA_OK) {
            printf("%d\t%s\n", (int)st, aa_last_error());
            return 1;
        }
        P = aa_spec_params(spec);
        printf("%d\tC=%d K=%d n_actions=%d obs_size=%d n_feat=%d\n", (int)st, P->C, P->K, P->n_actions,
               P->obs_size, P->terrain.n_feat);
        aa_spec_free(spec);
        return 0;
    }
    while (fread(head, 1, 4, stdin) == 4) {
        size_t n = (size_t)head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
        /* a separate allocation of exactly n bytes: AddressSanitizer sees any read past the end */
        unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
        if (buf == NULL || fread(buf, 1, n, stdin) != n) {
            free(buf);
            return 2;
        }
        st = aa_spec_load(buf, n, &spec);
        if ((st == AA_OK) != (spec != NULL))
            return 3;
        if (st == AA_OK)
            printf("%d\tplayed %ld decisions\n", (int)st, play_(aa_spec_params(spec), (uint64_t)n));
        else
            printf("%d\t%s\n", (int)st, aa_last_error());
        aa_spec_free(spec);
        spec = NULL;
        free(buf);
    }
    return 0;
}
