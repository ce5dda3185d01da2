/* The full game as a native state machine over struct-of-arrays storage (atomic_africa.reference.game.engine
 * Game, ported to C; VectorGame's kernel).
 *
 * One game's state is an aa_state: pointers into caller-owned arrays, one per dtype, each laid out
 * field-major (all units' x, then all units' y, ...). aa_params holds the rules and scenario
 * constants, one section per rules section (every rules number comes from the rules data: the
 * Python side computes them in atomic_africa.game.native.params and a spec file carries them in). The functions mirror
 * atomic_africa.reference.game.engine.Game method for method; a game advanced with the same actions and the
 * same PCG64 stream produces the same state, observations and event records, bit for bit.
 *
 *     aa_start_game(&P, &g);
 *     while (g.s[S_STAGE] != ST_OVER) {
 *         n = aa_legal_actions(&P, &g, buf);               (buf: n_actions ints)
 *         aa_apply_action(&P, &g, buf[k]);
 *     }
 *
 * A state is single-threaded; a const aa_params is shared read-only by any number of games. */
#ifndef AA_ENGINE_H
#define AA_ENGINE_H

#include "aa_common.h"
#include "aa_bitgen.h"
#include "aa_fire.h"
#include "aa_geometry.h"
#include "aa_schema.h"
#include "aa_params.h"

AA_EXTERN_C_BEGIN

/* Per-player card piles (2, 3, K) int16 and counts (2, NC) int32. */
enum {
    PILE_DECK = 0,
    PILE_HAND = 1,
    PILE_DISCARD = 2,
    C_DECK = 0,
    C_HAND = 1,
    C_DISCARD = 2,
    C_REMOVED = 3,   /* figures removed from the table (both the Python engine's and the score's) */
    NC = 4
};

/* A game's event records: code, turn, n values, values..., as doubles. The engine grows `data`
 * with realloc; when that fails the record is lost and `failed` is set (a driver reports it). */
typedef struct aa_events {
    double *data;
    ptrdiff_t size;
    ptrdiff_t cap;
    int failed;
} aa_events;

/* ---------------------------------------------------------------------------------- parameters
 * aa_params (the rules and scenario constants of one battle, one section per rules section) and the
 * native agents' options aa_agent_params are generated into aa_params.h from their one declaration,
 * atomic_africa.game.native.params_schema; a spec file carries their values into C (aa_spec.c). */

/* Exact odds of one side's three dice for one Table 5 row (action, posture), counted over all face
 * triples (atomic_africa.odds._Side): score s sits in slot s + 1 (slot 0: no such score). */
enum {
    ODDS_SLOTS = 26,    /* scores are at most a pair of d12 */
    ODDS_DICE = 5,      /* d4, d6, d8, d10, d12 (Die) */
    ODDS_ROWS = 2000    /* ODDS_DICE ** 3 dice triples x N_ACTIONS x 2 postures */
};

typedef struct aa_odds_side {
    int32_t total;                                  /* face triples */
    int32_t att_cum[ODDS_SLOTS + 1][ODDS_SLOTS + 1];   /* [x][y]: triples with attack slots < x and < y */
    int32_t att0[ODDS_SLOTS];                       /* first attack (the lower of Split Fire's pair) */
    int32_t att1[ODDS_SLOTS];                       /* second attack */
    int32_t defense[ODDS_SLOTS];
    int32_t rally[ODDS_SLOTS];
    int32_t spotting[ODDS_SLOTS];
} aa_odds_side;

/* Bytes of the greedy agent's odds tables (aa_fill_odds_tables). */
#define AA_ODDS_TABLE_BYTES ((size_t)ODDS_ROWS * sizeof(aa_odds_side))

/* ---------------------------------------------------------------------------------- one game */
typedef struct aa_state {
    int32_t *s;         /* scalars, NS */
    int8_t *i8;         /* NI8 x U */
    int32_t *i32;       /* NI32 x U */
    double *f64;        /* NF64 x U */
    int16_t *piles;     /* 2 x 3 x K */
    int32_t *counts;    /* 2 x NC */
    double *bonus;      /* 2 sprint bonus displacements (pending sprints) */
    int8_t *los;        /* U x U cache: -1 unknown, 0 blocked, 1 clear */
    int8_t *fcover;     /* max(1, n_feat): each terrain feature's current cover */
    aa_bitgen *rng;     /* the game's stream (Game's RandomSource) */
    aa_events *ev;      /* NULL: events not recorded */
    /* Scratch of aa_work_size(P) bytes, aligned for double: not state, never copied. The core keeps
     * its large buffers here instead of on the stack (docs/guide/c_api.md, "Stack"), so that no
     * call needs more than a few KiB of stack: the legal ids an agent or aa_is_legal lists, a
     * determinization's card pools, an Activation phase's attacks. Each core call uses it only
     * while it calls nothing else that does, so one buffer per game is enough; a query on a game
     * (an agent's choice, aa_is_legal) writes it, so it too is single-threaded per game. */
    void *work;
} aa_state;

/* Bytes of one game's scratch (aa_state.work) for P. */
size_t aa_work_size(const aa_params *P);

/* Bytes of one game's arrays for P in one block, its scratch last (aa_state_bind lays them out). */
size_t aa_state_size(const aa_params *P);

/* Point g's arrays and scratch into `mem` (aa_state_size(P) bytes, aligned for double); g->rng and
 * g->ev are left to the caller. A game copies as that block plus its stream. */
void aa_state_bind(aa_state *g, const aa_params *P, void *mem);

/* Copy src's arrays into dst's (the stream, event and scratch pointers stay dst's own; the
 * scratch is not copied). */
void aa_state_copy(const aa_params *P, aa_state *dst, const aa_state *src);

/* Game._start_game: units from the scenario, both decks shuffled, turn 1 begun (events cleared by the
 * caller). */
void aa_start_game(const aa_params *P, aa_state *g);

/* Game.legal_actions, unsorted: the legal action ids of the player to move into out (room for
 * n_actions ints: the ids are distinct, below n_actions); returns their number (0 once the game is
 * over). */
int aa_legal_actions(const aa_params *P, aa_state *g, int *out);

/* Legal action ids ascending, in place (Game.legal_actions' order): the core lists them nearly
 * sorted (a few runs), so insertion sort. */
AA_INLINE void aa_sort_ids(int *a, int m) {
    int i, j, x;
    for (i = 1; i < m; i++) {
        x = a[i];
        for (j = i - 1; j >= 0 && a[j] > x; j--)
            a[j + 1] = a[j];
        a[j + 1] = x;
    }
}

/* Whether action id a is legal now. */
int aa_is_legal(const aa_params *P, aa_state *g, int a);

/* Game.apply (Game._apply_action): apply a legal action id (not checked: see aa_is_legal) and run to the
 * next decision. */
void aa_apply_action(const aa_params *P, aa_state *g, int a);

/* Game.determinize: resample everything hidden from `player` (its own deck's order; where each of
 * the opponent's unseen cards lies) consistently with what `player` has seen, drawing from g->rng
 * (aa_determinize.c says how). The result is a state the engine plays, with the same observation
 * for `player` and, when `player` is to move, the same legal actions. */
void aa_determinize(const aa_params *P, aa_state *g, int player);

/* atomic_africa.reference.game.observe.observe: what `player` may see, into out (obs_size floats). */
void aa_observe(const aa_params *P, aa_state *g, int player, float *out);

/* One game's unit rows as named pointers (aa_view, generated in aa_schema.h). */
AA_INLINE void aa_make_view(const aa_params *P, aa_state *g, aa_view *v) {
    v->P = P;
    v->g = g;
    v->ev = g->ev;
    v->s = g->s;
    v->U = P->U;
    v->C = P->C;
    v->K = P->K;
    v->turn_due = 0;
    aa_view_rows(v, g->i8, g->i32, g->f64, P->U);
}

/* Game.figures(side): the figures of side's units on the table. */
int aa_side_figures(const aa_view *v, int side);

/* ---------------------------------------------------------------------------------- agents
 * Native twins of atomic_africa.agents, each step for step equal to its Python class (the
 * reference). aa_agent_choose returns the action the agent of `kind` plays in g (-1 if none is
 * legal); only AGENT_RANDOM draws, from `rng` (the agent's own stream: RandomAgent(seed)). */
enum {
    AGENT_RANDOM = 0,
    AGENT_HEURISTIC = 1,
    AGENT_GREEDY = 2,
    AGENT_DOCTRINE = 3,
    AGENT_ISMCTS = 4,   /* information-set MCTS (aa_agent_ismcts.c); draws from `rng` too */
    N_AGENT_KINDS = 5
};

int aa_agent_choose(const aa_params *P, aa_state *g, int kind, const aa_agent_params *ap, aa_bitgen *rng);

/* aa_agent_choose for the agents that do not search (AGENT_RANDOM .. AGENT_DOCTRINE; -1 for any
 * other kind): the ISMCTS agent's rollouts call this one, so no call path leads from the search
 * back into itself (tests/support/stack_usage.py bounds the stack of every path). */
int aa_rollout_choose(const aa_params *P, aa_state *g, int kind, const aa_agent_params *ap, aa_bitgen *rng);

/* RandomAgent's pick among m >= 1 legal actions in id order: its index (no draw when m == 1), for a
 * host that has the sorted legal ids already (aa_api.c's cache) and need not list them again. */
int aa_random_index(int m, aa_bitgen *rng);

/* The ISMCTS agent's action (aa_agent_ismcts.c): its decision depends on what the player to move
 * may know, on `rng` and on ap's search fields only. */
int aa_ismcts_act(const aa_params *P, aa_state *g, const aa_agent_params *ap, aa_bitgen *rng);

/* Fill out (ODDS_ROWS entries, AA_ODDS_TABLE_BYTES) with every dice triple x action x posture's
 * score counts for Table 5 `table5` (N_ACTIONS x 2 x 3 values): aa_tables.odds. */
void aa_fill_odds_tables(const signed char *table5, aa_odds_side *out);

AA_EXTERN_C_END

#endif
