/* The native ISMCTS agent: single-observer information-set Monte Carlo tree search (Cowling, Powley
 * and Whitehouse 2012; OpenSpiel's algorithms/ismcts.cc) over determinizations.
 *
 * One tree per decision, over the searching player's information set: each simulation copies the
 * state, determinizes the copy for that player (aa_determinize: fresh dice, the opponent's unseen
 * cards dealt again), walks the tree by UCT among the actions legal in that copy (availability
 * counts: an action is scored against the simulations in which it was legal), adds one node, then
 * plays on with a built-in rollout agent up to a depth cap. A finished game scores 1, 1/2, 0 for a
 * win, draw, loss; a capped one scores each side's share of the figures on the table (the turn
 * limit's victory rule). The search never reads the true hidden state: its copies are
 * determinized first, and every draw comes from the agent's own stream, so a decision depends only
 * on what the player may know, the stream and the parameters, never on the clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aa_agents_internal.h"
#include "aa_pcg.h"

typedef struct ts_node {
    int action;        /* the edge from the parent */
    int player;        /* who chose it (the player to move at the parent) */
    int first_child;   /* -1: none */
    int next_sibling;  /* -1: none */
    int visits;        /* simulations through this edge */
    int avail;         /* simulations in which the edge was legal at its parent */
    double reward;     /* the chooser's total reward */
} ts_node;

typedef struct ts_search {
    const aa_params *P;
    const aa_agent_params *ap;
    ts_node *nodes;
    int n_nodes, cap;
    int *child_of;     /* n_actions: node index of each action among the current node's children, -1 */
    int *path;         /* nodes of this simulation's walk, root first */
    int *cand;         /* n_actions: the expanded children legal at the current node */
    int *legal;        /* n_actions: the actions legal at the current node */
    double *val;       /* n_actions: the greedy values of the actions considered (width > 0) */
    int width;         /* the greedy agent's best actions considered at a node (0: every legal one) */
    int root_m;        /* the root's candidate actions (ascending) and their greedy values */
    int *root_legal;
    double *root_val;
    aa_state copy;
    void *block;
    uint64_t words[AA_PCG_WORDS];
    aa_bitgen bg;
} ts_search;

int aa_greedy_widest(const aa_params *P, aa_state *g, const aa_agent_params *ap, int *legal, int m, double *val,
                  int width) {
    V v;
    int i, j, k, a;
    double x;
    aa_make_view(P, g, &v);
    aa_greedy_values(&v, ap, legal, m, val);
    /* insertion sort by value, descending, ids ascending among equals (legal is ascending) */
    for (i = 1; i < m; i++) {
        a = legal[i];
        x = val[i];
        for (j = i - 1; j >= 0 && val[j] < x; j--) {
            legal[j + 1] = legal[j];
            val[j + 1] = val[j];
        }
        legal[j + 1] = a;
        val[j + 1] = x;
    }
    k = width < m ? width : m;
    for (i = 1; i < k; i++) {   /* the kept ones back in id order, values along */
        a = legal[i];
        x = val[i];
        for (j = i - 1; j >= 0 && legal[j] > a; j--) {
            legal[j + 1] = legal[j];
            val[j + 1] = val[j];
        }
        legal[j + 1] = a;
        val[j + 1] = x;
    }
    return k;
}

/* One uniform index below m from the agent's stream (m >= 1). */
static int uniform(aa_bitgen *rng, int m) {
    return m <= 1 ? 0 : (int)(rng->next_uint64(rng->state) % (uint64_t)m);
}

static int new_node(ts_search *t, int parent, int action, int player) {
    ts_node *n = &t->nodes[t->n_nodes];
    n->action = action;
    n->player = player;
    n->first_child = -1;
    n->next_sibling = t->nodes[parent].first_child;
    n->visits = n->avail = 0;
    n->reward = 0.0;
    t->nodes[parent].first_child = t->n_nodes;
    return t->n_nodes++;
}

/* The reward of `player` in a finished or capped game. */
static double reward_of(const aa_params *P, aa_state *g, int player) {
    V v;
    int w = g->s[S_WINNER], f0, f1;
    if (g->s[S_STAGE] == ST_OVER)
        return w == -1 ? 0.5 : (w == player ? 1.0 : 0.0);
    aa_make_view(P, g, &v);
    f0 = aa_side_figures(&v, player);
    f1 = aa_side_figures(&v, 1 - player);
    return f0 + f1 > 0 ? (double)f0 / (double)(f0 + f1) : 0.5;
}

/* One simulation from the root state `root`; the root node is 0. */
static void simulate(ts_search *t, aa_state *root, int me, aa_bitgen *rng) {
    const aa_params *P = t->P;
    aa_state *g = &t->copy;
    int *legal = t->legal;
    int m, i, k, node = 0, depth = 1, child, best, a, pick, n_new, n_cand, player, steps, ranked;
    double score, best_score, r;
    ts_node *c;

    aa_state_copy(P, g, root);
    aa_pcg_from_seed(rng->next_uint64(rng->state), t->words);
    aa_determinize(P, g, me);
    t->path[0] = 0;
    /* selection and expansion */
    while (g->s[S_STAGE] != ST_OVER) {
        ranked = t->width > 0;
        if (node == 0) {   /* the root's candidates are the same in every determinization: listed once */
            m = t->root_m;
            memcpy(legal, t->root_legal, (size_t)m * sizeof(int));
            memcpy(t->val, t->root_val, (size_t)m * sizeof(double));
        } else {
            m = aa_legal_actions(P, g, legal);
            if (m == 0)
                break;
            aa_sort_ids(legal, m);
            if (ranked && m > 1)
                m = aa_greedy_widest(P, g, t->ap, legal, m, t->val, t->width);
            else
                t->val[0] = 0.0;
        }
        player = g->s[S_CUR];
        for (child = t->nodes[node].first_child; child >= 0; child = t->nodes[child].next_sibling)
            t->child_of[t->nodes[child].action] = child;
        n_new = n_cand = 0;
        for (i = 0; i < m; i++) {
            child = t->child_of[legal[i]];
            if (child >= 0) {
                t->nodes[child].avail += 1;
                t->cand[n_cand++] = child;
            } else {
                t->val[n_new] = ranked ? t->val[i] : 0.0;
                legal[n_new++] = legal[i];   /* the unexpanded ones, packed in front (ascending) */
            }
        }
        for (child = t->nodes[node].first_child; child >= 0; child = t->nodes[child].next_sibling)
            t->child_of[t->nodes[child].action] = -1;
        if (n_new > 0 && t->n_nodes < t->cap) {
            pick = -1;
            if (ranked) {   /* expand the best-valued unexpanded action first */
                for (i = 0; i < n_new; i++)
                    if (pick < 0 || t->val[i] > t->val[pick])
                        pick = i;
            } else {   /* the rollout agent's choice first, else a uniform unexpanded action */
                a = aa_rollout_choose(P, g, (int)t->ap->rollout, t->ap, g->rng);
                for (i = 0; i < n_new && pick < 0; i++)
                    if (legal[i] == a)
                        pick = i;
                if (pick < 0)
                    pick = uniform(rng, n_new);
            }
            child = new_node(t, node, legal[pick], player);
            t->nodes[child].avail = 1;
            aa_apply_action(P, g, legal[pick]);
            t->path[depth++] = child;
            break;
        }
        /* select: UCT over the children legal in this determinization (availability counts) */
        best = -1;
        best_score = -1.0;
        for (i = 0; i < n_cand; i++) {
            c = &t->nodes[t->cand[i]];
            score = c->reward / c->visits + t->ap->exploration * sqrt(aa_log((double)c->avail) / c->visits);
            if (best < 0 || score > best_score || (score == best_score && c->action < t->nodes[best].action)) {
                best_score = score;
                best = t->cand[i];
            }
        }
        if (best < 0)
            break;
        aa_apply_action(P, g, t->nodes[best].action);
        node = best;
        t->path[depth++] = node;
    }
    /* rollout */
    for (steps = 0; g->s[S_STAGE] != ST_OVER && ((int)t->ap->rollout_depth <= 0 || steps < (int)t->ap->rollout_depth); steps++) {
        a = aa_rollout_choose(P, g, (int)t->ap->rollout, t->ap, g->rng);
        if (a < 0)
            break;
        aa_apply_action(P, g, a);
    }
    /* backpropagation: each edge gets its chooser's reward */
    r = reward_of(P, g, 0);
    for (k = 1; k < depth; k++) {
        c = &t->nodes[t->path[k]];
        c->visits += 1;
        c->reward += c->player == 0 ? r : 1.0 - r;
    }
}

static void release(ts_search *t) {
    free(t->nodes);
    free(t->child_of);
    free(t->path);
    free(t->cand);
    free(t->legal);
    free(t->val);
    free(t->root_legal);
    free(t->root_val);
    free(t->block);
}

int aa_ismcts_act(const aa_params *P, aa_state *g, const aa_agent_params *ap, aa_bitgen *rng) {
    ts_search t;
    int m, s, child, best = -1, me = g->s[S_CUR], cap, depth_max, first;
    size_t bytes;
    if (g->s[S_STAGE] == ST_OVER)
        return -1;
    m = aa_legal_actions(P, g, (int *)g->work);   /* the game's scratch: n_actions ids */
    if (m <= 1)
        return m == 1 ? ((int *)g->work)[0] : -1;
    first = ((int *)g->work)[0];
    cap = (int)ap->simulations + 1;
    depth_max = cap + 1;
    bytes = aa_state_size(P);
    t.P = P;
    t.ap = ap;
    t.n_nodes = 1;
    t.cap = cap;
    t.nodes = (ts_node *)malloc((size_t)cap * sizeof(ts_node));
    t.child_of = (int *)malloc((size_t)P->n_actions * sizeof(int));
    t.path = (int *)malloc((size_t)depth_max * sizeof(int));
    t.cand = (int *)malloc((size_t)P->n_actions * sizeof(int));
    t.legal = (int *)malloc((size_t)P->n_actions * sizeof(int));
    t.val = (double *)malloc((size_t)P->n_actions * sizeof(double));
    t.root_legal = (int *)malloc((size_t)P->n_actions * sizeof(int));
    t.root_val = (double *)malloc((size_t)P->n_actions * sizeof(double));
    t.width = P->tables.odds != NULL ? (int)ap->width : 0;   /* no odds tables: no greedy values */
    t.block = malloc(bytes);
    if (t.nodes == NULL || t.child_of == NULL || t.path == NULL || t.cand == NULL || t.legal == NULL || t.val == NULL
            || t.root_legal == NULL || t.root_val == NULL || t.block == NULL) {
        /* out of memory: the rollout agent's own choice (the search is an improvement, not a need) */
        release(&t);
        return aa_rollout_choose(P, g, (int)ap->rollout, ap, rng);
    }
    for (s = 0; s < P->n_actions; s++)
        t.child_of[s] = -1;
    aa_state_bind(&t.copy, P, t.block);
    aa_pcg_bitgen(t.words, &t.bg);
    t.copy.rng = &t.bg;
    t.copy.ev = NULL;
    t.nodes[0].action = -1;
    t.nodes[0].player = -1;
    t.nodes[0].first_child = t.nodes[0].next_sibling = -1;
    t.nodes[0].visits = t.nodes[0].avail = 0;
    t.nodes[0].reward = 0.0;
    /* the root's candidates, read in a determinized copy (its own legal actions and their greedy
     * values are what the player may know, whatever the copy) */
    aa_state_copy(P, &t.copy, g);
    aa_pcg_from_seed(rng->next_uint64(rng->state), t.words);
    aa_determinize(P, &t.copy, me);
    t.root_m = aa_legal_actions(P, &t.copy, t.root_legal);
    aa_sort_ids(t.root_legal, t.root_m);
    for (s = 0; s < t.root_m; s++)
        t.root_val[s] = 0.0;
    if (t.width > 0)
        t.root_m = aa_greedy_widest(P, &t.copy, ap, t.root_legal, t.root_m, t.root_val, t.width);
    for (s = 0; s < (int)ap->simulations; s++)
        simulate(&t, g, me, rng);
    /* the most visited root action (ties: the lowest id); every root child is legal at the root */
    for (child = t.nodes[0].first_child; child >= 0; child = t.nodes[child].next_sibling) {
        if (best < 0 || t.nodes[child].visits > t.nodes[best].visits
                || (t.nodes[child].visits == t.nodes[best].visits && t.nodes[child].action < t.nodes[best].action))
            best = child;
    }
    s = best >= 0 ? t.nodes[best].action : first;
    release(&t);
    return s;
}
