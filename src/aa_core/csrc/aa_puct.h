/* Batched PUCT over determinizations (aa_puct.c): the search of AlphaZero, guided by an outside
 * evaluator, over many games at once.
 *
 * Each of n trees searches one root game for its player to move (`me`), on its own random stream.
 * A search is driven in waves: aa_puct_collect walks up to `wave` simulations per tree (each on a
 * copy of the root determinized for `me`, as the ISMCTS agent's), holding each walked edge with a
 * virtual loss, and stops every walk at a node not yet evaluated; it writes that node's observation
 * (of the player to move there) and legal mask into one row. The driver evaluates the rows (priors
 * over the actions, a value in [-1, 1] for the player to move) and aa_puct_feed expands the nodes
 * and backs the values up. A tree's decisions depend only on its root, its stream, the parameters
 * and the evaluator's answers for its rows: not on the other trees or the order of the rows. */
#ifndef AA_PUCT_H
#define AA_PUCT_H

#include "aa_engine.h"

typedef struct aa_puct_params {
    int simulations;          /* walks per tree after the root's evaluation, >= 1 */
    int wave;                 /* walks per tree per evaluation batch, >= 1 */
    double c_puct;            /* exploration: Q + c_puct P sqrt(N_parent) / (1 + N), >= 0 */
    double dirichlet_alpha;   /* root noise Dirichlet(alpha) over the legal actions; 0: none */
    double noise_fraction;    /* the noise's weight in the root priors, 0..1 */
    double temperature;       /* 0: the most visited action; > 0: drawn with weights N^(1/T) */
    int rollout;              /* the rollout agent's kind (AGENT_RANDOM .. AGENT_DOCTRINE); -1: none */
    double rollout_weight;    /* lambda: a leaf's value is (1 - lambda) v + lambda z, z its rollout's */
    int width;                /* a node's children: the greedy agent's best `width` legal actions; 0: all */
    aa_agent_params agent;    /* the rollout and greedy agents' parameters */
} aa_puct_params;

typedef struct aa_puct aa_puct;

/* A search of up to n_trees trees over the battle P (NULL: out of memory). */
aa_puct *aa_puct_new(const aa_params *P, int n_trees, const aa_puct_params *pp);
void aa_puct_free(aa_puct *s);

/* Start tree i on roots[i] (NULL: not searched) with stream rngs[i]. The roots must not change until
 * aa_puct_finish. A root that is over, or has one legal action, is decided without a search. */
void aa_puct_begin(aa_puct *s, aa_state *const *roots, aa_bitgen *const *rngs);

/* The next wave: fills rows 0..k-1 of the observation and mask buffers and returns k; 0 when every
 * tree has run its simulations; -1 out of memory (the search is then unusable). */
int aa_puct_collect(aa_puct *s);

/* The row buffers: observations rows x obs_size, masks rows x n_actions (1 = legal), priors rows x
 * n_actions and values (the driver's answers for the rows of the last aa_puct_collect). */
float *aa_puct_observations(aa_puct *s);
uint8_t *aa_puct_masks(aa_puct *s);
float *aa_puct_priors(aa_puct *s);
float *aa_puct_values(aa_puct *s);
int aa_puct_rows(const aa_puct *s);   /* the buffers' rows: n_trees * wave */

/* Expand and back up the last wave with the answers in the priors and values buffers. Returns -1 on
 * success, else the first row whose answer is refused (a value not finite or outside [-1, 1], a
 * prior negative or not finite): nothing is backed up then, and the search is unusable. -2: out of
 * memory. */
int aa_puct_feed(aa_puct *s);

/* Each tree's decision: actions[i] (-1 where not searched or over), policy row i (n_actions: the
 * root's visit shares; NULL: not wanted) and value[i] (the root's mean value for `me`; NULL: not
 * wanted). Draws once from the tree's stream when temperature > 0. */
void aa_puct_finish(aa_puct *s, int *actions, float *policy, float *value);

/* Rows sent for evaluation and waves since aa_puct_begin. */
long aa_puct_evaluations(const aa_puct *s);
long aa_puct_waves(const aa_puct *s);

#endif
