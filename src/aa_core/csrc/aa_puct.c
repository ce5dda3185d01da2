/* Batched PUCT over determinizations (aa_puct.h): AlphaZero's search (Silver et al. 2018) on the
 * single-observer information-set tree of the ISMCTS agent (aa_agent_ismcts.c), with leaf values and
 * priors from an outside evaluator, many trees evaluated together in waves (virtual loss).
 *
 * A node is an edge from its parent: the action, its chooser (the player to move at the parent),
 * visits N, total value W for the chooser, visits in flight VL and the prior P. Every walk copies the
 * root and determinizes it for `me` with a seed drawn from the tree's stream, so no walk reads what
 * `me` cannot know, and then selects among the children legal in that copy by
 *     Q + c_puct P sqrt(1 + sum of the legal children's N + VL) / (1 + N + VL),
 * Q = (W - VL) / (N + VL), 0 for an unvisited child (each walk in flight counts as a loss), ties to
 * the lowest action. A child legal in this copy but not when its node was evaluated (the opponent's
 * cards differ between determinizations) is added with prior 1/m over the m legal actions. The walk
 * stops at a node never evaluated (a row for the evaluator; a second walk reaching it in the same
 * wave shares the row) or at the end of the game (+1 win, -1 loss, 0 draw). Values are backed up for
 * each edge's chooser. atomic_africa.reference.puct is the Python twin: the same decisions, bit for
 * bit, for the same evaluator answers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aa_agents_internal.h"
#include "aa_maths.h"
#include "aa_pcg.h"
#include "aa_puct.h"

enum { LEAF, PENDING, EXPANDED };

typedef struct pu_node {
    int action, player;            /* the edge's action and chooser (-1 at the root) */
    int first_child, next_sibling; /* -1: none */
    int n, vl;                     /* visits; walks in flight through the edge */
    int state, row;                /* LEAF, PENDING (row: its evaluation row) or EXPANDED */
    double w, prior;
} pu_node;

typedef struct pu_tree {
    aa_state *root;
    aa_bitgen *rng;
    int me, forced;                /* forced: the decision without a search (-2: searched) */
    int started;                   /* walks started */
    pu_node *nodes;
    int n_nodes, cap;
    int *walk;                     /* this wave's walks, node indices root first, one after another */
    int walk_len, walk_cap;
    int *walk_end;                 /* wave + 1: walk j is walk[walk_end[j] .. walk_end[j + 1]) */
    int *walk_row;                 /* wave: the walk's row, or -1: the game ended (walk_r0) */
    int *walk_r0;                  /* the winner (-1 draw) of a walk that ended the game */
    int n_walks;
} pu_tree;

struct aa_puct {
    const aa_params *P;
    aa_puct_params pp;
    int n_trees, n_rows, k_rows;
    pu_tree *trees;
    float *obs, *priors, *values;
    double *rollout_z;             /* each row's rollout outcome for its player (+1, 0, -1) */
    uint8_t *masks, *kept;         /* kept: the actions a row's node gets as children (its mask, or
                                    * the greedy agent's best `width` of it) */
    double *val;                   /* n_actions: greedy values (width) */
    int *row_tree, *row_node, *row_player;
    int *legal, *child_of;
    aa_state copy;
    void *block;
    uint64_t words[AA_PCG_WORDS];
    aa_bitgen bg;
    long evaluations, waves;
};

static double unit(aa_bitgen *r) {   /* uniform on [0, 1): the top 53 bits of one draw */
    return (double)(r->next_uint64(r->state) >> 11) * (1.0 / 9007199254740992.0);
}

static double positive_unit(aa_bitgen *r) {   /* uniform on (0, 1) */
    double u;
    do
        u = unit(r);
    while (u == 0.0);
    return u;
}

static double std_normal(aa_bitgen *r) {   /* Box-Muller, the cosine half */
    double u1 = positive_unit(r), u2 = unit(r), s, c;
    aa_sincos(6.283185307179586 * u2, &s, &c);
    return sqrt(-2.0 * aa_log(u1)) * c;
}

/* Gamma(a, 1), a > 0: Marsaglia and Tsang (2000), with a < 1 boosted by U^(1/a). */
static double gamma_draw(aa_bitgen *r, double a) {
    double boost = 1.0, d, c, x, v, u;
    if (a < 1.0) {
        boost = aa_exp(aa_log(positive_unit(r)) / a);
        a += 1.0;
    }
    d = a - 1.0 / 3.0;
    c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        do {
            x = std_normal(r);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        u = positive_unit(r);
        if (aa_log(u) < 0.5 * x * x + d - d * v + d * aa_log(v))
            return d * v * boost;
    }
}

static void free_tree(pu_tree *t) {
    free(t->nodes);
    free(t->walk);
    free(t->walk_end);
    free(t->walk_row);
    free(t->walk_r0);
}

void aa_puct_free(aa_puct *s) {
    int i;
    if (s == NULL)
        return;
    if (s->trees != NULL)
        for (i = 0; i < s->n_trees; i++)
            free_tree(&s->trees[i]);
    free(s->trees);
    free(s->obs);
    free(s->priors);
    free(s->values);
    free(s->rollout_z);
    free(s->masks);
    free(s->kept);
    free(s->val);
    free(s->row_tree);
    free(s->row_node);
    free(s->row_player);
    free(s->legal);
    free(s->child_of);
    free(s->block);
    free(s);
}

aa_puct *aa_puct_new(const aa_params *P, int n_trees, const aa_puct_params *pp) {
    aa_puct *s = (aa_puct *)calloc(1, sizeof *s);
    size_t rows;
    int i, fail = 0;
    if (s == NULL)
        return NULL;
    s->P = P;
    s->pp = *pp;
    s->n_trees = n_trees;
    s->n_rows = n_trees * pp->wave;
    rows = (size_t)s->n_rows;
    s->trees = (pu_tree *)calloc((size_t)n_trees, sizeof(pu_tree));
    s->obs = (float *)malloc(rows * (size_t)P->obs_size * sizeof(float));
    s->priors = (float *)malloc(rows * (size_t)P->n_actions * sizeof(float));
    s->values = (float *)malloc(rows * sizeof(float));
    s->rollout_z = (double *)malloc(rows * sizeof(double));
    s->masks = (uint8_t *)malloc(rows * (size_t)P->n_actions);
    s->kept = (uint8_t *)malloc(rows * (size_t)P->n_actions);
    s->val = (double *)malloc((size_t)P->n_actions * sizeof(double));
    if (P->tables.odds == NULL)   /* no odds tables: no greedy values, every legal action */
        s->pp.width = 0;
    s->row_tree = (int *)malloc(rows * sizeof(int));
    s->row_node = (int *)malloc(rows * sizeof(int));
    s->row_player = (int *)malloc(rows * sizeof(int));
    s->legal = (int *)malloc((size_t)P->n_actions * sizeof(int));
    s->child_of = (int *)malloc((size_t)P->n_actions * sizeof(int));
    s->block = malloc(aa_state_size(P));
    if (s->trees == NULL || s->obs == NULL || s->priors == NULL || s->values == NULL || s->rollout_z == NULL || s->masks == NULL
            || s->kept == NULL || s->val == NULL
            || s->row_tree == NULL || s->row_node == NULL || s->row_player == NULL || s->legal == NULL
            || s->child_of == NULL || s->block == NULL) {
        aa_puct_free(s);
        return NULL;
    }
    for (i = 0; i < n_trees && !fail; i++) {
        pu_tree *t = &s->trees[i];
        t->walk_end = (int *)malloc((size_t)(pp->wave + 1) * sizeof(int));
        t->walk_row = (int *)malloc((size_t)pp->wave * sizeof(int));
        t->walk_r0 = (int *)malloc((size_t)pp->wave * sizeof(int));
        fail = t->walk_end == NULL || t->walk_row == NULL || t->walk_r0 == NULL;
    }
    if (fail) {
        aa_puct_free(s);
        return NULL;
    }
    for (i = 0; i < P->n_actions; i++)
        s->child_of[i] = -1;
    aa_state_bind(&s->copy, P, s->block);
    aa_pcg_bitgen(s->words, &s->bg);
    s->copy.rng = &s->bg;
    s->copy.ev = NULL;
    return s;
}

float *aa_puct_observations(aa_puct *s) { return s->obs; }
uint8_t *aa_puct_masks(aa_puct *s) { return s->masks; }
float *aa_puct_priors(aa_puct *s) { return s->priors; }
float *aa_puct_values(aa_puct *s) { return s->values; }
int aa_puct_rows(const aa_puct *s) { return s->n_rows; }
long aa_puct_evaluations(const aa_puct *s) { return s->evaluations; }
long aa_puct_waves(const aa_puct *s) { return s->waves; }

/* A new child of `parent` (the nodes may move: index, not pointer); -1 out of memory. */
static int new_node(pu_tree *t, int parent, int action, int player, double prior) {
    pu_node *n;
    if (t->n_nodes == t->cap) {
        int cap = t->cap < 64 ? 64 : 2 * t->cap;
        pu_node *nodes = (pu_node *)realloc(t->nodes, (size_t)cap * sizeof(pu_node));
        if (nodes == NULL)
            return -1;
        t->nodes = nodes;
        t->cap = cap;
    }
    n = &t->nodes[t->n_nodes];
    n->action = action;
    n->player = player;
    n->first_child = -1;
    n->n = n->vl = 0;
    n->state = LEAF;
    n->row = -1;
    n->w = 0.0;
    n->prior = prior;
    if (parent >= 0) {
        n->next_sibling = t->nodes[parent].first_child;
        t->nodes[parent].first_child = t->n_nodes;
    } else {
        n->next_sibling = -1;
    }
    return t->n_nodes++;
}

static int push_walk(pu_tree *t, int node) {
    if (t->walk_len == t->walk_cap) {
        int cap = t->walk_cap < 64 ? 64 : 2 * t->walk_cap;
        int *w = (int *)realloc(t->walk, (size_t)cap * sizeof(int));
        if (w == NULL)
            return -1;
        t->walk = w;
        t->walk_cap = cap;
    }
    t->walk[t->walk_len++] = node;
    return 0;
}

void aa_puct_begin(aa_puct *s, aa_state *const *roots, aa_bitgen *const *rngs) {
    const aa_params *P = s->P;
    int i, m;
    s->evaluations = s->waves = 0;
    for (i = 0; i < s->n_trees; i++) {
        pu_tree *t = &s->trees[i];
        t->root = roots[i];
        t->rng = rngs[i];
        t->n_nodes = 0;
        t->started = 0;
        t->n_walks = 0;
        t->forced = -1;
        if (t->root == NULL || t->root->s[S_STAGE] == ST_OVER)
            continue;
        m = aa_legal_actions(P, t->root, s->legal);
        t->me = t->root->s[S_CUR];
        if (m == 1)
            t->forced = s->legal[0];
        else if (m > 1)
            t->forced = -2;
    }
}

/* Write row r: the observation of the player to move in the copy and its legal mask. */
static void write_row(aa_puct *s, int r, int tree, int node) {
    const aa_params *P = s->P;
    aa_state *g = &s->copy;
    uint8_t *mask = s->masks + (size_t)r * P->n_actions, *kept = s->kept + (size_t)r * P->n_actions;
    int m, k, p = g->s[S_CUR];
    aa_observe(P, g, p, s->obs + (size_t)r * P->obs_size);
    memset(mask, 0, (size_t)P->n_actions);
    m = aa_legal_actions(P, g, s->legal);
    for (k = 0; k < m; k++)
        mask[s->legal[k]] = 1;
    if (s->pp.width > 0 && m > 1) {
        memset(kept, 0, (size_t)P->n_actions);
        aa_sort_ids(s->legal, m);
        m = aa_greedy_widest(P, g, &s->pp.agent, s->legal, m, s->val, s->pp.width);
        for (k = 0; k < m; k++)
            kept[s->legal[k]] = 1;
    } else {
        memcpy(kept, mask, (size_t)P->n_actions);
    }
    s->row_tree[r] = tree;
    s->row_node[r] = node;
    s->row_player[r] = p;
    s->rollout_z[r] = 0.0;
    if (node > 0 && s->pp.rollout >= 0 && s->pp.rollout_weight > 0.0) {
        /* AlphaGo's mixed leaf value: play the copy out with the rollout agent (its draws from the
         * copy's stream, seeded by this walk) and keep the outcome for p */
        int a;
        while (g->s[S_STAGE] != ST_OVER && (a = aa_rollout_choose(P, g, s->pp.rollout, &s->pp.agent, g->rng)) >= 0)
            aa_apply_action(P, g, a);
        if (g->s[S_STAGE] == ST_OVER && g->s[S_WINNER] >= 0)
            s->rollout_z[r] = g->s[S_WINNER] == p ? 1.0 : -1.0;
    }
}

/* One walk of tree `ti` (its stream's next seed determinizes the copy); 0, or -1 out of memory. */
static int walk(aa_puct *s, int ti) {
    const aa_params *P = s->P;
    pu_tree *t = &s->trees[ti];
    aa_state *g = &s->copy;
    int *legal = s->legal;
    int node = 0, m, i, child, best, j = t->n_walks;
    double nsum, score, best_score = 0.0, q;
    pu_node *c;
    aa_state_copy(P, g, t->root);
    aa_pcg_from_seed(t->rng->next_uint64(t->rng->state), s->words);
    aa_determinize(P, g, t->me);
    t->walk_end[j] = t->walk_len;
    if (push_walk(t, 0))
        return -1;
    for (;;) {
        pu_node *nd = &t->nodes[node];
        if (g->s[S_STAGE] == ST_OVER) {
            t->walk_row[j] = -1;
            t->walk_r0[j] = g->s[S_WINNER];
            break;
        }
        if (nd->state == PENDING) {   /* a walk of this wave got here first: share its row */
            t->walk_row[j] = nd->row;
            break;
        }
        if (nd->state == LEAF) {
            nd->state = PENDING;
            nd->row = s->k_rows;
            write_row(s, s->k_rows, ti, node);
            t->walk_row[j] = s->k_rows++;
            break;
        }
        m = aa_legal_actions(P, g, legal);
        if (m == 0) {   /* the engine always offers an action in a running game; scored as a draw */
            t->walk_row[j] = -1;
            t->walk_r0[j] = -1;
            break;
        }
        aa_sort_ids(legal, m);
        if (s->pp.width > 0 && m > 1)
            m = aa_greedy_widest(P, g, &s->pp.agent, legal, m, s->val, s->pp.width);
        for (child = nd->first_child; child >= 0; child = t->nodes[child].next_sibling)
            s->child_of[t->nodes[child].action] = child;
        for (i = 0; i < m; i++) {   /* an action this copy allows that the evaluated one did not */
            if (s->child_of[legal[i]] < 0) {
                child = new_node(t, node, legal[i], g->s[S_CUR], 1.0 / (double)m);
                if (child < 0)
                    return -1;
                s->child_of[legal[i]] = child;
            }
        }
        nsum = 0.0;
        for (i = 0; i < m; i++) {
            c = &t->nodes[s->child_of[legal[i]]];
            nsum += (double)(c->n + c->vl);
        }
        nsum = sqrt(1.0 + nsum);
        best = -1;
        for (i = 0; i < m; i++) {   /* legal is ascending: a tie keeps the lowest action */
            c = &t->nodes[s->child_of[legal[i]]];
            q = c->n + c->vl > 0 ? (c->w - (double)c->vl) / (double)(c->n + c->vl) : 0.0;
            score = q + s->pp.c_puct * c->prior * nsum / (double)(1 + c->n + c->vl);
            if (best < 0 || score > best_score) {
                best = s->child_of[legal[i]];
                best_score = score;
            }
        }
        for (child = t->nodes[node].first_child; child >= 0; child = t->nodes[child].next_sibling)
            s->child_of[t->nodes[child].action] = -1;
        t->nodes[best].vl += 1;
        aa_apply_action(P, g, t->nodes[best].action);
        node = best;
        if (push_walk(t, node))
            return -1;
    }
    t->n_walks = j + 1;
    t->walk_end[j + 1] = t->walk_len;
    return 0;
}

int aa_puct_collect(aa_puct *s) {
    int i, k, n;
    s->k_rows = 0;
    for (;;) {
        int walked = 0;
        for (i = 0; i < s->n_trees; i++) {
            pu_tree *t = &s->trees[i];
            t->n_walks = 0;
            t->walk_len = 0;
            if (t->forced != -2)
                continue;
            if (t->n_nodes == 0) {   /* the root's evaluation first: a determinized copy, me to move */
                if (new_node(t, -1, -1, -1, 0.0) < 0)
                    return -1;
                aa_state_copy(s->P, &s->copy, t->root);
                aa_pcg_from_seed(t->rng->next_uint64(t->rng->state), s->words);
                aa_determinize(s->P, &s->copy, t->me);
                t->nodes[0].state = PENDING;
                t->nodes[0].row = s->k_rows;
                write_row(s, s->k_rows++, i, 0);
                continue;
            }
            n = s->pp.simulations - t->started;
            if (n > s->pp.wave)
                n = s->pp.wave;
            for (k = 0; k < n; k++)
                if (walk(s, i))
                    return -1;
            t->started += n;
            walked += n;
        }
        if (s->k_rows > 0 || walked == 0)
            break;
        /* every walk of this wave ended the game: back them up and walk again */
        if (aa_puct_feed(s) != -1)
            return -1;
    }
    if (s->k_rows > 0) {
        s->evaluations += s->k_rows;
        s->waves += 1;
    }
    return s->k_rows;
}

int aa_puct_feed(aa_puct *s) {
    const aa_params *P = s->P;
    int r, a, i, j, k, node, child, m, chooser;
    double sum, v, val;
    const float *pr;
    const uint8_t *mask;
    for (r = 0; r < s->k_rows; r++) {   /* refuse a bad answer before anything changes */
        v = (double)s->values[r];
        if (!(v >= -1.0 && v <= 1.0))
            return r;
        pr = s->priors + (size_t)r * P->n_actions;
        mask = s->masks + (size_t)r * P->n_actions;
        for (a = 0; a < P->n_actions; a++)
            if (mask[a] && !(pr[a] >= 0.0f && isfinite(pr[a])))
                return r;
    }
    for (r = 0; r < s->k_rows; r++) {   /* expand: the evaluated node's children, priors over its mask */
        pu_tree *t = &s->trees[s->row_tree[r]];
        node = s->row_node[r];
        pr = s->priors + (size_t)r * P->n_actions;
        mask = s->kept + (size_t)r * P->n_actions;
        sum = 0.0;
        m = 0;
        for (a = 0; a < P->n_actions; a++) {
            if (mask[a]) {
                sum += (double)pr[a];
                m++;
            }
        }
        for (a = 0; a < P->n_actions; a++) {
            if (mask[a]) {
                child = new_node(t, node, a, s->row_player[r], sum > 0.0 ? (double)pr[a] / sum : 1.0 / (double)m);
                if (child < 0)
                    return -2;
            }
        }
        t->nodes[node].state = EXPANDED;
        if (node == 0 && s->pp.dirichlet_alpha > 0.0 && s->pp.noise_fraction > 0.0) {
            /* the children were prepended: walk them back to ascending order through child_of */
            double gsum = 0.0, eps = s->pp.noise_fraction, *g = (double *)malloc((size_t)m * sizeof(double));
            int *ids = (int *)malloc((size_t)m * sizeof(int));
            if (g == NULL || ids == NULL) {
                free(g);
                free(ids);
                return -2;
            }
            k = m;
            for (child = t->nodes[0].first_child; child >= 0; child = t->nodes[child].next_sibling)
                ids[--k] = child;   /* prepended in ascending order: the list is descending */
            for (k = 0; k < m; k++) {
                g[k] = gamma_draw(t->rng, s->pp.dirichlet_alpha);
                gsum += g[k];
            }
            if (gsum > 0.0)
                for (k = 0; k < m; k++)
                    t->nodes[ids[k]].prior = (1.0 - eps) * t->nodes[ids[k]].prior + eps * (g[k] / gsum);
            free(g);
            free(ids);
        }
    }
    for (i = 0; i < s->n_trees; i++) {   /* back up each walk, in the order walked */
        pu_tree *t = &s->trees[i];
        for (j = 0; j < t->n_walks; j++) {
            r = t->walk_row[j];
            for (k = t->walk_end[j] + 1; k < t->walk_end[j + 1]; k++) {
                pu_node *n = &t->nodes[t->walk[k]];
                chooser = n->player;
                if (r >= 0) {
                    val = (double)s->values[r];
                    if (s->pp.rollout >= 0 && s->pp.rollout_weight > 0.0)
                        val = (1.0 - s->pp.rollout_weight) * val + s->pp.rollout_weight * s->rollout_z[r];
                    val = chooser == s->row_player[r] ? val : -val;
                } else {
                    val = t->walk_r0[j] < 0 ? 0.0 : (chooser == t->walk_r0[j] ? 1.0 : -1.0);
                }
                n->vl -= 1;
                n->n += 1;
                n->w += val;
            }
        }
        t->n_walks = 0;
        t->walk_len = 0;
    }
    return -1;
}

void aa_puct_finish(aa_puct *s, int *actions, float *policy, float *value) {
    const aa_params *P = s->P;
    int i, child, best, a;
    double total, u, acc, wsum, wgt, root_w;
    for (i = 0; i < s->n_trees; i++) {
        pu_tree *t = &s->trees[i];
        float *row = policy != NULL ? policy + (size_t)i * P->n_actions : NULL;
        if (row != NULL)
            memset(row, 0, (size_t)P->n_actions * sizeof(float));
        if (value != NULL)
            value[i] = 0.0f;
        if (t->forced != -2) {
            actions[i] = t->forced >= 0 ? t->forced : -1;
            if (row != NULL && t->forced >= 0)
                row[t->forced] = 1.0f;
            continue;
        }
        total = root_w = 0.0;
        best = -1;
        for (child = t->nodes[0].first_child; child >= 0; child = t->nodes[child].next_sibling) {
            pu_node *c = &t->nodes[child];
            total += (double)c->n;
            root_w += c->w;
            if (best < 0 || c->n > t->nodes[best].n || (c->n == t->nodes[best].n && c->action < t->nodes[best].action))
                best = child;
        }
        if (row != NULL && total > 0.0)
            for (child = t->nodes[0].first_child; child >= 0; child = t->nodes[child].next_sibling)
                row[t->nodes[child].action] = (float)((double)t->nodes[child].n / total);
        if (value != NULL && total > 0.0)
            value[i] = (float)(root_w / total);
        a = t->nodes[best].action;
        if (s->pp.temperature > 0.0 && total > 0.0) {
            /* ascending action order: the children list is descending, so scan the ids */
            wsum = 0.0;
            for (child = t->nodes[0].first_child; child >= 0; child = t->nodes[child].next_sibling)
                s->child_of[t->nodes[child].action] = child;
            for (a = 0; a < P->n_actions; a++) {
                if (s->child_of[a] >= 0) {
                    int n = t->nodes[s->child_of[a]].n;
                    wgt = n == 0 ? 0.0 : (s->pp.temperature == 1.0 ? (double)n
                                                                  : aa_exp(aa_log((double)n) / s->pp.temperature));
                    wsum += wgt;
                }
            }
            u = unit(t->rng) * wsum;
            acc = 0.0;
            best = -1;
            for (a = 0; a < P->n_actions && best < 0; a++) {
                if (s->child_of[a] >= 0) {
                    int n = t->nodes[s->child_of[a]].n;
                    wgt = n == 0 ? 0.0 : (s->pp.temperature == 1.0 ? (double)n
                                                                  : aa_exp(aa_log((double)n) / s->pp.temperature));
                    acc += wgt;
                    if (wgt > 0.0 && u < acc)
                        best = a;
                }
            }
            if (best < 0)   /* rounding left u at the total: the last action with weight */
                for (a = P->n_actions - 1; a >= 0 && best < 0; a--)
                    if (s->child_of[a] >= 0 && t->nodes[s->child_of[a]].n > 0)
                        best = a;
            for (child = t->nodes[0].first_child; child >= 0; child = t->nodes[child].next_sibling)
                s->child_of[t->nodes[child].action] = -1;
            a = best;
        }
        actions[i] = a;
    }
}
