/* The public C API's games, agents and fire functions (include/atomic_africa.h) over the C core.
 *
 * This layer owns what the core leaves to its drivers: memory (one block per game), the game's and
 * the random agent's PCG64 streams, the event buffer, and the checks. Every argument is checked
 * here, before the core sees it, so a bad call gets a status and a message naming the argument and
 * its allowed values, and changes nothing. The core trusts its inputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aa_engine.h"
#include "aa_error.h"
#include "aa_hidden.h"
#include "aa_odds.h"
#include "aa_pcg.h"
#include "aa_puct.h"
#include "aa_scores.h"
#include "aa_simulate.h"
#include "aa_spec.h"

#define ARG(...) aa_fail(AA_ERR_ARGUMENT, __VA_ARGS__)
/* For the functions that return a count or a flag: the negated status. */
#define NEG(st) (-(int)(st))

struct aa_game {
    const aa_params *P;
    aa_state g;                  /* its arrays live in `block`, after this struct */
    aa_events ev;
    int record;                  /* events recorded (g.ev == &ev) */
    uint64_t rng[AA_PCG_WORDS];  /* the game's PCG64 stream (Game's RandomSource) */
    aa_bitgen bg;
    int n_legal;                 /* legal ids cached by aa_game_legal_actions (-1: none since the last change) */
    int32_t *legal;              /* n_actions ids, ascending, after the state block */
    size_t block_size;           /* the state block and the cache */
    void *block;
};

struct aa_agent {
    int kind;
    aa_agent_params ap;
    uint64_t rng[AA_PCG_WORDS];  /* RandomAgent(seed)'s stream */
    aa_bitgen bg;
};

/* The Python agents' constructor defaults (atomic_africa.agents.GreedyAgent, DoctrineAgent), which
 * the C host cannot read from Python; tests/test_c_api.py checks them against the classes. */
static const aa_agent_options default_options = {3.0, 1.0, 1.5, 0.4, 3.0, 30.0};
/* atomic_africa.agents.puct.PUCT_DEFAULTS (tests/test_c_api_puct.py checks them against the module). */
static const aa_puct_options default_puct = {128, 1, 1.5, 0.0, 0.25, 0.0, AA_AGENT_GREEDY, 1.0, 2};
/* atomic_africa.agents.ISMCTSAgent's defaults (tests/test_c_api.py checks them against the class). */
static const aa_search_options default_search = {200, 0.7, AA_AGENT_RANDOM, 0, 3};

/* ------------------------------------------------------------------------------------- checks */
static aa_status check_spec(const aa_spec *spec) {
    if (spec == NULL)
        return ARG("spec: NULL; expected a spec from aa_spec_default or aa_spec_load");
    return AA_OK;
}

static aa_status check_game(const aa_game *game) {
    if (game == NULL)
        return ARG("game: NULL; expected a game from aa_game_new or aa_game_copy");
    return AA_OK;
}

static aa_status check_out(const void *out, const char *name) {
    if (out == NULL)
        return ARG("%s: NULL; expected a pointer to store the result", name);
    return AA_OK;
}

/* The core's functions take a mutable state for its line-of-sight cache; the observable state is
 * unchanged, so the API's queries keep their const contract (a game is single-threaded anyway). */
static aa_state *state_of(const aa_game *game) { return (aa_state *)&game->g; }

/* ------------------------------------------------------------------------------------- sizes */
int aa_num_actions(const aa_spec *spec) {
    aa_status st = check_spec(spec);
    return st ? NEG(st) : aa_spec_params(spec)->n_actions;
}

int aa_observation_size(const aa_spec *spec) {
    aa_status st = check_spec(spec);
    return st ? NEG(st) : aa_spec_params(spec)->obs_size;
}

/* ------------------------------------------------------------------------------------- games */
/* Room for the struct, then the state block aligned for double (aa_state_bind's requirement). */
static size_t block_offset(void) {
    size_t a = sizeof(double) > sizeof(void *) ? sizeof(double) : sizeof(void *);
    return (sizeof(aa_game) + 2 * a - 1) / (2 * a) * (2 * a);
}

static aa_game *alloc_game(const aa_params *P) {
    size_t state = (aa_state_size(P) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    size_t bytes = state + (size_t)P->n_actions * sizeof(int32_t);
    aa_game *game = (aa_game *)malloc(block_offset() + bytes);
    if (game == NULL)
        return NULL;
    memset(game, 0, sizeof *game);
    game->P = P;
    game->block_size = bytes;
    game->block = (char *)game + block_offset();
    game->legal = (int32_t *)((char *)game->block + state);
    game->n_legal = -1;
    return game;
}

/* Point the state at the game's own block, stream and events (after a malloc or a memcpy). */
static void bind_game(aa_game *game) {
    aa_state_bind(&game->g, game->P, game->block);
    aa_pcg_bitgen(game->rng, &game->bg);
    game->g.rng = &game->bg;
    game->g.ev = game->record ? &game->ev : NULL;
}

aa_status aa_game_new(const aa_spec *spec, uint64_t seed, aa_game **out) {
    aa_game *game;
    aa_status st;
    if ((st = check_out(out, "out")) != AA_OK)
        return st;
    *out = NULL;
    if ((st = check_spec(spec)) != AA_OK)
        return st;
    game = alloc_game(aa_spec_params(spec));
    if (game == NULL)
        return aa_fail(AA_ERR_MEMORY, "aa_game_new: cannot allocate a game (out of memory)");
    game->record = 1;
    aa_pcg_from_seed(seed, game->rng);   /* Game(scenario, seed): RandomSource(seed) = PCG64(SeedSequence(seed)) */
    bind_game(game);
    aa_start_game(game->P, &game->g);
    *out = game;
    return AA_OK;
}

aa_status aa_game_copy(const aa_game *game, aa_game **out) {
    aa_game *c;
    aa_status st;
    if ((st = check_out(out, "out")) != AA_OK)
        return st;
    *out = NULL;
    if ((st = check_game(game)) != AA_OK)
        return st;
    c = alloc_game(game->P);
    if (c == NULL)
        return aa_fail(AA_ERR_MEMORY, "aa_game_copy: cannot allocate a game (out of memory)");
    memcpy(c, game, block_offset() + game->block_size);
    c->block = (char *)c + block_offset();
    c->legal = (int32_t *)((char *)c + ((char *)game->legal - (char *)game));
    c->ev.data = NULL;
    c->ev.cap = 0;
    if (game->ev.size > 0) {
        c->ev.data = (double *)malloc((size_t)game->ev.size * sizeof(double));
        if (c->ev.data == NULL) {
            free(c);
            return aa_fail(AA_ERR_MEMORY, "aa_game_copy: cannot allocate the %ld event values (out of memory)",
                           (long)game->ev.size);
        }
        memcpy(c->ev.data, game->ev.data, (size_t)game->ev.size * sizeof(double));
        c->ev.cap = game->ev.size;
    }
    bind_game(c);
    *out = c;
    return AA_OK;
}

void aa_game_free(aa_game *game) {
    if (game == NULL)
        return;
    free(game->ev.data);
    free(game);
}

aa_status aa_game_reseed(aa_game *game, uint64_t seed) {
    aa_status st;
    if ((st = check_game(game)) != AA_OK)
        return st;
    aa_pcg_from_seed(seed, game->rng);
    return AA_OK;
}

aa_status aa_game_determinize(aa_game *game, int player, uint64_t seed) {
    aa_status st;
    if ((st = check_game(game)) != AA_OK)
        return st;
    if (player != 0 && player != 1)
        return ARG("player: %d; allowed 0 or 1", player);
    aa_game_reseed(game, seed);
    aa_determinize(game->P, &game->g, player);
    game->n_legal = -1;
    return AA_OK;
}

int aa_game_is_over(const aa_game *game) {
    aa_status st = check_game(game);
    return st ? NEG(st) : game->g.s[S_STAGE] == ST_OVER;
}

aa_status aa_game_current_player(const aa_game *game, int *player) {
    aa_status st;
    if ((st = check_game(game)) != AA_OK || (st = check_out(player, "player")) != AA_OK)
        return st;
    *player = game->g.s[S_STAGE] == ST_OVER ? -1 : game->g.s[S_CUR];
    return AA_OK;
}

/* The sorted legal ids in game->legal (cached until the game next changes: a host asks for them,
 * then applies one of them, and aa_game_apply checks it against the cache); their number. */
static int legal_cached(const aa_game *game) {
    int *ids = (int *)game->g.work;   /* the game's scratch: n_actions ids */
    int m, k;
    aa_game *gm = (aa_game *)game;   /* the cache is not observable state */
    if (game->n_legal >= 0)
        return game->n_legal;
    m = aa_legal_actions(game->P, state_of(game), ids);
    aa_sort_ids(ids, m);
    for (k = 0; k < m; k++)
        gm->legal[k] = (int32_t)ids[k];
    gm->n_legal = m;
    return m;
}

int aa_game_legal_actions(const aa_game *game, int32_t *buf, int cap) {
    int m;
    aa_status st = check_game(game);
    if (st)
        return NEG(st);
    if (cap < 0)
        return NEG(ARG("cap: %d; expected >= 0 (the room in buf, in ids)", cap));
    if (buf == NULL && cap > 0)
        return NEG(ARG("buf: NULL with cap %d; expected room for cap ids (or cap 0 to count them)", cap));
    m = legal_cached(game);
    if (buf == NULL)
        return m;
    if (cap < m)
        return NEG(ARG("cap: %d is too small for the %d legal actions; allowed >= %d "
                       "(aa_num_actions(spec) = %d is always enough)", cap, m, m, game->P->n_actions));
    memcpy(buf, game->legal, (size_t)m * sizeof(int32_t));
    return m;
}

/* Whether `a` is legal now: a binary search of the cached ids when the host listed them. */
static int is_legal(aa_game *game, int a) {
    int lo = 0, hi, mid;
    if (game->n_legal < 0)
        return aa_is_legal(game->P, &game->g, a);
    hi = game->n_legal;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (game->legal[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < game->n_legal && game->legal[lo] == a;
}

aa_status aa_game_apply(aa_game *game, int32_t action) {
    aa_status st = check_game(game);
    if (st)
        return st;
    if (game->g.s[S_STAGE] == ST_OVER)
        return aa_fail(AA_ERR_OVER, "action %ld: the game is over (turn %d)", (long)action, game->g.s[S_TURN]);
    if (action < 0 || action >= game->P->n_actions)
        return ARG("action: %ld is out of range; allowed 0..%d", (long)action, game->P->n_actions - 1);
    if (!is_legal(game, (int)action))
        return aa_fail(AA_ERR_ILLEGAL, "action %ld: not legal now (player %d to move; aa_game_legal_actions "
                       "lists the legal ids)", (long)action, game->g.s[S_CUR]);
    game->n_legal = -1;
    aa_apply_action(game->P, &game->g, (int)action);
    return AA_OK;
}

aa_status aa_game_winner(const aa_game *game, int *winner) {
    aa_status st;
    if ((st = check_game(game)) != AA_OK || (st = check_out(winner, "winner")) != AA_OK)
        return st;
    if (game->g.s[S_STAGE] != ST_OVER)
        return aa_fail(AA_ERR_RUNNING, "game: still running (turn %d); it has a winner once aa_game_is_over",
                       game->g.s[S_TURN]);
    *winner = game->g.s[S_WINNER];
    return AA_OK;
}

aa_status aa_game_observe(const aa_game *game, int player, float *out, int cap) {
    aa_status st;
    if ((st = check_game(game)) != AA_OK || (st = check_out(out, "out")) != AA_OK)
        return st;
    if (player != 0 && player != 1)
        return ARG("player: %d; allowed 0 or 1", player);
    if (cap < game->P->obs_size)
        return ARG("cap: %d is too small for an observation; allowed >= %d (aa_observation_size)", cap,
                   game->P->obs_size);
    aa_observe(game->P, state_of(game), player, out);
    return AA_OK;
}

aa_status aa_game_events(const aa_game *game, const double **records, size_t *n) {
    aa_status st;
    if ((st = check_game(game)) != AA_OK || (st = check_out(records, "records")) != AA_OK
        || (st = check_out(n, "n")) != AA_OK)
        return st;
    *records = game->ev.data;
    *n = (size_t)game->ev.size;
    if (game->ev.failed)
        return aa_fail(AA_ERR_MEMORY, "events: some records could not be stored (out of memory); "
                       "the %lu values held are incomplete", (unsigned long)game->ev.size);
    return AA_OK;
}

/* Hide, in the record values x (n of them) of event `code`, what `player` may not know. */
static void hide_record(int code, double *x, int n, int player) {
    int k, j, end;
    for (k = 0; k < AA_N_HIDDEN_SPANS; k++) {
        const aa_hidden_span *h = &AA_HIDDEN_SPANS[k];
        if (h->code != code || (h->owner >= 0 && h->owner < n && (int)x[h->owner] == player))
            continue;
        end = h->count < 0 ? n : h->first + h->count;
        for (j = h->first; j < end && j < n; j++)
            x[j] = NO_CARD;
    }
}

aa_status aa_game_player_events(const aa_game *game, int player, double *buf, size_t cap, size_t *n) {
    aa_status st;
    size_t size, pos, len;
    if ((st = check_game(game)) != AA_OK || (st = check_out(n, "n")) != AA_OK)
        return st;
    if (player != 0 && player != 1)
        return ARG("player: %d; allowed 0 or 1", player);
    if (buf == NULL && cap > 0)
        return ARG("buf: NULL with cap %lu; expected room for cap values (or cap 0 to count them)",
                   (unsigned long)cap);
    size = (size_t)game->ev.size;
    *n = size;
    if (buf == NULL)
        return AA_OK;
    if (cap < size)
        return ARG("cap: %lu is too small for the %lu event values; allowed >= %lu", (unsigned long)cap,
                   (unsigned long)size, (unsigned long)size);
    if (size > 0)
        memcpy(buf, game->ev.data, size * sizeof(double));
    /* records: code, turn, n, then the n values (aa_game_events) */
    for (pos = 0; pos + 3 <= size; pos += 3 + len) {
        len = (size_t)buf[pos + 2];
        if (len > size - pos - 3)   /* a record cut short by a failed store: hide nothing past the end */
            len = size - pos - 3;
        hide_record((int)buf[pos], buf + pos + 3, (int)len, player);
    }
    if (game->ev.failed)
        return aa_fail(AA_ERR_MEMORY, "events: some records could not be stored (out of memory); "
                       "the %lu values held are incomplete", (unsigned long)size);
    return AA_OK;
}

aa_status aa_game_record_events(aa_game *game, int on) {
    aa_status st = check_game(game);
    if (st)
        return st;
    if (on != 0 && on != 1)
        return ARG("on: %d; allowed 0 (off) or 1 (on)", on);
    if (!on) {
        free(game->ev.data);
        memset(&game->ev, 0, sizeof game->ev);
    }
    game->record = on;
    game->g.ev = on ? &game->ev : NULL;
    return AA_OK;
}

/* ------------------------------------------------------------------------------------ agents */
aa_status aa_agent_defaults(aa_agent_options *out) {
    aa_status st = check_out(out, "out");
    if (st)
        return st;
    *out = default_options;
    return AA_OK;
}

static aa_status check_option(double x, const char *name) {
    if (!isfinite(x))
        return ARG("options->%s: %g; allowed finite numbers", name, x);
    return AA_OK;
}

aa_status aa_search_defaults(aa_search_options *out) {
    aa_status st = check_out(out, "out");
    if (st)
        return st;
    *out = default_search;
    return AA_OK;
}

static aa_status check_search(const aa_search_options *s) {
    if (s->simulations < 1 || s->simulations > AA_MAX_SIMULATIONS)
        return ARG("search->simulations: %d; allowed 1..%d", s->simulations, AA_MAX_SIMULATIONS);
    if (!isfinite(s->exploration) || s->exploration < 0)
        return ARG("search->exploration: %g; allowed finite numbers >= 0", s->exploration);
    if (s->rollout < AA_AGENT_RANDOM || s->rollout > AA_AGENT_DOCTRINE)
        return ARG("search->rollout: %d; allowed AA_AGENT_RANDOM (0), AA_AGENT_HEURISTIC (1), AA_AGENT_GREEDY (2) "
                   "or AA_AGENT_DOCTRINE (3)", s->rollout);
    if (s->rollout_depth < 0)
        return ARG("search->rollout_depth: %d; allowed 0 (to the end of the game) or more decisions",
                   s->rollout_depth);
    if (s->width < 0 || s->width > MAX_LEGAL)
        return ARG("search->width: %d; allowed 0 (every legal action) .. %d", s->width, MAX_LEGAL);
    return AA_OK;
}

aa_status aa_agent_new(int kind, uint64_t seed, const aa_agent_options *options, aa_agent **out) {
    if (out != NULL)
        *out = NULL;
    if (kind < 0 || kind >= N_AGENT_KINDS)
        return ARG("kind: %d; allowed AA_AGENT_RANDOM (0), AA_AGENT_HEURISTIC (1), AA_AGENT_GREEDY (2), "
                   "AA_AGENT_DOCTRINE (3) or AA_AGENT_ISMCTS (4)", kind);
    return aa_agent_new_search(kind, seed, options, NULL, out);
}

aa_status aa_agent_new_search(int kind, uint64_t seed, const aa_agent_options *options,
                              const aa_search_options *search, aa_agent **out) {
    aa_agent *agent;
    aa_status st;
    const aa_agent_options *o = options != NULL ? options : &default_options;
    const aa_search_options *sr = search != NULL ? search : &default_search;
    if ((st = check_out(out, "out")) != AA_OK)
        return st;
    *out = NULL;
    if (kind < 0 || kind >= N_AGENT_KINDS)
        return ARG("kind: %d; allowed AA_AGENT_RANDOM (0), AA_AGENT_HEURISTIC (1), AA_AGENT_GREEDY (2), "
                   "AA_AGENT_DOCTRINE (3) or AA_AGENT_ISMCTS (4)", kind);
    if ((st = check_search(sr)) != AA_OK)
        return st;
    if ((st = check_option(o->wound_value, "wound_value")) != AA_OK
        || (st = check_option(o->marker_value, "marker_value")) != AA_OK
        || (st = check_option(o->rally_value, "rally_value")) != AA_OK
        || (st = check_option(o->cover_value, "cover_value")) != AA_OK
        || (st = check_option(o->reserve_value, "reserve_value")) != AA_OK
        || (st = check_option(o->standoff_cm, "standoff_cm")) != AA_OK)
        return st;
    agent = (aa_agent *)malloc(sizeof *agent);
    if (agent == NULL)
        return aa_fail(AA_ERR_MEMORY, "aa_agent_new: cannot allocate an agent (out of memory)");
    agent->kind = kind;
    agent->ap.wound_value = o->wound_value;
    agent->ap.marker_value = o->marker_value;
    agent->ap.rally_value = o->rally_value;
    agent->ap.cover_value = o->cover_value;
    agent->ap.reserve_value = o->reserve_value;
    agent->ap.standoff_cm = o->standoff_cm;
    agent->ap.simulations = sr->simulations;
    agent->ap.exploration = sr->exploration;
    agent->ap.rollout = sr->rollout;
    agent->ap.rollout_depth = sr->rollout_depth;
    agent->ap.width = sr->width;
    aa_pcg_from_seed(seed, agent->rng);   /* RandomAgent(seed): PCG64(SeedSequence(seed)) */
    aa_pcg_bitgen(agent->rng, &agent->bg);
    *out = agent;
    return AA_OK;
}

void aa_agent_free(aa_agent *agent) { free(agent); }

aa_status aa_agent_action(aa_agent *agent, const aa_game *game, int32_t *action) {
    aa_status st;
    int a, m;
    if (agent == NULL)
        return ARG("agent: NULL; expected an agent from aa_agent_new");
    if ((st = check_game(game)) != AA_OK || (st = check_out(action, "action")) != AA_OK)
        return st;
    if (game->g.s[S_STAGE] == ST_OVER)
        return aa_fail(AA_ERR_OVER, "game: over (turn %d); no action to choose", game->g.s[S_TURN]);
    aa_pcg_bitgen(agent->rng, &agent->bg);   /* the agent may have been moved in memory: rebind */
    if (agent->kind == AGENT_RANDOM) {
        /* from the host's cache of sorted legal ids, which aa_game_apply then checks the pick against */
        m = legal_cached(game);
        a = m > 0 ? (int)game->legal[aa_random_index(m, &agent->bg)] : -1;
    } else {
        a = aa_agent_choose(game->P, state_of(game), agent->kind, &agent->ap, &agent->bg);
    }
    if (a < 0)   /* the core always finds one in a running game; kept as a status, not a crash */
        return aa_fail(AA_ERR_ILLEGAL, "agent: found no legal action (player %d to move)", game->g.s[S_CUR]);
    *action = (int32_t)a;
    return AA_OK;
}

/* ------------------------------------------------------------------------ network-guided search */
aa_status aa_puct_defaults(aa_puct_options *out) {
    aa_status st = check_out(out, "out");
    if (st)
        return st;
    *out = default_puct;
    return AA_OK;
}

static aa_status check_puct(const aa_puct_options *o) {
    if (o->simulations < 1 || o->simulations > AA_MAX_SIMULATIONS)
        return ARG("options->simulations: %d; allowed 1..%d", o->simulations, AA_MAX_SIMULATIONS);
    if (o->wave < 1 || o->wave > AA_MAX_WAVE)
        return ARG("options->wave: %d; allowed 1..%d", o->wave, AA_MAX_WAVE);
    if (!isfinite(o->c_puct) || o->c_puct < 0)
        return ARG("options->c_puct: %g; allowed finite numbers >= 0", o->c_puct);
    if (!isfinite(o->dirichlet_alpha) || o->dirichlet_alpha < 0)
        return ARG("options->dirichlet_alpha: %g; allowed finite numbers >= 0 (0: no noise)", o->dirichlet_alpha);
    if (!(o->noise_fraction >= 0 && o->noise_fraction <= 1))
        return ARG("options->noise_fraction: %g; allowed 0..1", o->noise_fraction);
    if (!isfinite(o->temperature) || o->temperature < 0)
        return ARG("options->temperature: %g; allowed finite numbers >= 0", o->temperature);
    if (o->rollout < -1 || o->rollout > AA_AGENT_DOCTRINE)
        return ARG("options->rollout: %d; allowed -1 (none) or AA_AGENT_RANDOM .. AA_AGENT_DOCTRINE (0..%d)",
                   o->rollout, AA_AGENT_DOCTRINE);
    if (!(o->rollout_weight >= 0 && o->rollout_weight <= 1))
        return ARG("options->rollout_weight: %g; allowed 0..1", o->rollout_weight);
    if (o->width < 0 || o->width > MAX_LEGAL)
        return ARG("options->width: %d; allowed 0 (every legal action) .. %d", o->width, MAX_LEGAL);
    return AA_OK;
}

/* The greedy and doctrine agents' fields (aa_agent_options) of a and b are equal. */
static int same_agent_options(const aa_agent_params *a, const aa_agent_params *b) {
    return a->wound_value == b->wound_value && a->marker_value == b->marker_value && a->rally_value == b->rally_value
           && a->cover_value == b->cover_value && a->reserve_value == b->reserve_value
           && a->standoff_cm == b->standoff_cm;
}

aa_status aa_puct_search(const aa_game *const *games, aa_agent *const *agents, int32_t n,
                         const aa_puct_options *options, aa_evaluator evaluator, void *user,
                         int32_t *actions, float *policies, float *values) {
    const aa_puct_options *o = options != NULL ? options : &default_puct;
    aa_puct_params pp;
    aa_puct *s;
    aa_state **roots;
    aa_bitgen *bgs, **bgp;
    uint64_t *words;
    int *acts;
    float *pol = NULL, *val = NULL;
    const aa_params *P;
    aa_status st = AA_OK;
    int32_t i;
    int k, bad;
    if (games == NULL)
        return ARG("games: NULL; expected n games from aa_game_new");
    if (agents == NULL)
        return ARG("agents: NULL; expected n agents from aa_agent_new (their streams)");
    if (n < 1)
        return ARG("n: %d; allowed >= 1 games", (int)n);
    if (evaluator == NULL)
        return ARG("evaluator: NULL; expected an aa_evaluator callback");
    if ((st = check_out(actions, "actions")) != AA_OK || (st = check_puct(o)) != AA_OK)
        return st;
    for (i = 0; i < n; i++) {
        if (games[i] == NULL)
            return ARG("games[%d]: NULL; expected a game from aa_game_new", (int)i);
        if (agents[i] == NULL)
            return ARG("agents[%d]: NULL; expected an agent from aa_agent_new", (int)i);
        if (games[i]->P != games[0]->P)
            return ARG("games[%d]: of another spec than games[0]; a search takes games of one spec", (int)i);
        if ((o->width > 0 || (o->rollout >= 0 && o->rollout_weight > 0))
                && !same_agent_options(&agents[i]->ap, &agents[0]->ap))
            return ARG("agents[%d]: other aa_agent_options than agents[0]; a search with a rollout or a width "
                       "takes agents of one options", (int)i);
    }
    P = games[0]->P;
    pp.simulations = o->simulations;
    pp.wave = o->wave;
    pp.c_puct = o->c_puct;
    pp.dirichlet_alpha = o->dirichlet_alpha;
    pp.noise_fraction = o->noise_fraction;
    pp.temperature = o->temperature;
    pp.rollout = o->rollout_weight > 0 ? o->rollout : -1;
    pp.rollout_weight = o->rollout_weight;
    pp.width = o->width;
    pp.agent = agents[0]->ap;
    s = aa_puct_new(P, (int)n, &pp);
    roots = (aa_state **)malloc((size_t)n * sizeof *roots);
    bgs = (aa_bitgen *)malloc((size_t)n * sizeof *bgs);
    bgp = (aa_bitgen **)malloc((size_t)n * sizeof *bgp);
    words = (uint64_t *)malloc((size_t)n * AA_PCG_WORDS * sizeof *words);
    acts = (int *)malloc((size_t)n * sizeof *acts);
    if (policies != NULL)
        pol = (float *)malloc((size_t)n * (size_t)P->n_actions * sizeof *pol);
    if (values != NULL)
        val = (float *)malloc((size_t)n * sizeof *val);
    if (s == NULL || roots == NULL || bgs == NULL || bgp == NULL || words == NULL || acts == NULL
            || (policies != NULL && pol == NULL) || (values != NULL && val == NULL)) {
        st = aa_fail(AA_ERR_MEMORY, "aa_puct_search: cannot allocate the trees (out of memory)");
        goto done;
    }
    for (i = 0; i < n; i++) {   /* the streams are copied: the agents advance only on success */
        roots[i] = state_of(games[i]);
        memcpy(words + (size_t)i * AA_PCG_WORDS, agents[i]->rng, sizeof agents[i]->rng);
        aa_pcg_bitgen(words + (size_t)i * AA_PCG_WORDS, &bgs[i]);
        bgp[i] = &bgs[i];
    }
    aa_puct_begin(s, roots, bgp);
    for (;;) {
        k = aa_puct_collect(s);
        if (k < 0) {
            st = aa_fail(AA_ERR_MEMORY, "aa_puct_search: cannot grow a tree (out of memory)");
            goto done;
        }
        if (k == 0)
            break;
        if (evaluator(user, (int32_t)k, aa_puct_observations(s), aa_puct_masks(s), aa_puct_priors(s),
                      aa_puct_values(s)) != 0) {
            st = aa_fail(AA_ERR_EVALUATOR, "evaluator: returned nonzero for a batch of %d leaves; the search stopped",
                         k);
            goto done;
        }
        bad = aa_puct_feed(s);
        if (bad == -2) {
            st = aa_fail(AA_ERR_MEMORY, "aa_puct_search: cannot grow a tree (out of memory)");
            goto done;
        }
        if (bad >= 0) {
            double v = (double)aa_puct_values(s)[bad];
            if (!(v >= -1.0 && v <= 1.0))
                st = ARG("evaluator: value %g at leaf %d; allowed finite numbers in [-1, 1]", v, bad);
            else
                st = ARG("evaluator: a prior of a legal action at leaf %d is negative or not finite; allowed "
                         "finite numbers >= 0", bad);
            goto done;
        }
    }
    aa_puct_finish(s, acts, pol, val);
    for (i = 0; i < n; i++) {
        actions[i] = (int32_t)acts[i];
        memcpy(agents[i]->rng, words + (size_t)i * AA_PCG_WORDS, sizeof agents[i]->rng);
    }
    if (policies != NULL)
        memcpy(policies, pol, (size_t)n * (size_t)P->n_actions * sizeof *pol);
    if (values != NULL)
        memcpy(values, val, (size_t)n * sizeof *val);
done:
    aa_puct_free(s);
    free(roots);
    free(bgs);
    free(bgp);
    free(words);
    free(acts);
    free(pol);
    free(val);
    return st;
}

/* -------------------------------------------------------------------------------------- fire */
static aa_status check_int(int x, const char *name, int lo, int hi) {
    if (x < lo || x > hi)
        return ARG("%s: %d; allowed %d..%d", name, x, lo, hi);
    return AA_OK;
}

static aa_status check_cover(int cover, const char *name) {
    if (cover < 0 || cover > 2)
        return ARG("%s: %d; allowed 0 (none), 1 (light) or 2 (heavy)", name, cover);
    return AA_OK;
}

aa_status aa_resolve_fire(const aa_spec *spec, int attack, int range_band, int defense, int armor, int cover,
                          int *markers, int *wounds) {
    const aa_params *P;
    aa_status st;
    if ((st = check_spec(spec)) != AA_OK || (st = check_out(markers, "markers")) != AA_OK
        || (st = check_out(wounds, "wounds")) != AA_OK)
        return st;
    P = aa_spec_params(spec);
    if ((st = check_int(attack, "attack", 0, MAX_VALUE)) != AA_OK
        || (st = check_int(range_band, "range_band", 1, P->fire.n_edges + 1)) != AA_OK
        || (st = check_int(defense, "defense", 0, MAX_VALUE)) != AA_OK
        || (st = check_int(armor, "armor", 1, MAX_VALUE)) != AA_OK || (st = check_cover(cover, "cover")) != AA_OK)
        return st;
    *markers = aa_resolve_attack(attack, range_band, defense, armor, cover, 0, 0, &P->fire.rules, wounds);
    return AA_OK;
}

/* Die values (atomic_africa.enums.Die: its sides) */
static aa_status check_dice(const int *dice, const char *name) {
    int k;
    for (k = 0; k < 3; k++)
        if (dice[k] < 4 || dice[k] > 12 || dice[k] % 2 != 0)
            return ARG("engagement->%s[%d]: %d; allowed dice 4, 6, 8, 10 or 12 (sides)", name, k, dice[k]);
    return AA_OK;
}

static aa_status check_engagement(const aa_params *P, const aa_engagement *e) {
    const signed char *row;
    aa_status st;
    if ((st = check_dice(e->shooter, "shooter")) != AA_OK || (st = check_dice(e->target, "target")) != AA_OK
        || (st = check_int(e->shooter_posture, "engagement->shooter_posture", 0, 1)) != AA_OK
        || (st = check_int(e->target_posture, "engagement->target_posture", 0, 1)) != AA_OK
        || (st = check_int(e->shooter_action, "engagement->shooter_action", 0, N_ACTIONS - 1)) != AA_OK
        || (st = check_int(e->target_action, "engagement->target_action", 0, N_ACTIONS - 1)) != AA_OK
        || (st = check_int(e->range_band, "engagement->range_band", 1, P->fire.n_edges + 1)) != AA_OK
        || (st = check_int(e->armor, "engagement->armor", 1, MAX_VALUE)) != AA_OK
        || (st = check_cover(e->cover, "engagement->cover")) != AA_OK
        || (st = check_int(e->ap, "engagement->ap", -MAX_VALUE, 0)) != AA_OK
        || (st = check_int(e->vehicle, "engagement->vehicle", 0, 1)) != AA_OK)
        return st;
    row = P->tables.table5 + (e->shooter_action * 2 + e->shooter_posture) * 3;
    if (row[1] != AA_ROLE_ATTACK && row[2] != AA_ROLE_ATTACK && row[2] != AA_ROLE_ATTACKS)
        return ARG("engagement->shooter_action: %d makes no attack; allowed BASIC (%d), SPRINT (%d), "
                   "HEAVY_WEAPON (%d), MASS_FIRE (%d), SPLIT_FIRE (%d) or DIG_IN (%d)", e->shooter_action,
                   A_BASIC, A_SPRINT, A_HEAVY_WEAPON, A_MASS_FIRE, A_SPLIT_FIRE, A_DIG_IN);
    return AA_OK;
}

/* Sides' score supports as the odds module's _Side: the joint attack slots (a0, a1, count) of the
 * shooter, or the Defense histogram (d, count) of the target, nonzero entries in row-major order. */
enum { SIM_MAX_SCORE = 24, SIM_SLOTS = SIM_MAX_SCORE + 2, SIM_WOUND_SLOTS = 2 * SIM_MAX_SCORE + 1 };

/* aa_simulate_fire's counting tables, allocated once per call. */
typedef struct sim_work {
    int64_t att[SIM_SLOTS * SIM_SLOTS], hist[4][SIM_SLOTS];
    int64_t a0[SIM_SLOTS * SIM_SLOTS], a1[SIM_SLOTS * SIM_SLOTS], a_count[SIM_SLOTS * SIM_SLOTS];
    int64_t d[SIM_SLOTS], d_count[SIM_SLOTS];
    int64_t out[(MAX_MARKERS_PER_HIT + 1) * SIM_WOUND_SLOTS], counts[(MAX_MARKERS_PER_HIT + 1) * SIM_WOUND_SLOTS];
    int8_t o_markers[(MAX_MARKERS_PER_HIT + 1) * SIM_WOUND_SLOTS];
    int16_t o_wounds[(MAX_MARKERS_PER_HIT + 1) * SIM_WOUND_SLOTS];
} sim_work;

aa_status aa_simulate_fire(const aa_spec *spec, const aa_engagement *engagement, uint64_t seed, size_t n,
                           int8_t *markers, int16_t *wounds) {
    const aa_params *P;
    const aa_engagement *e = engagement;
    const signed char *t5, *row;
    aa_fire_cdf t;
    sim_work *w;
    int64_t *att, *a0, *a1, *a_count, *d, *d_count, *out, *counts;
    int8_t *o_markers;
    int16_t *o_wounds;
    uint32_t base[AA_SEED_POOL];
    uint64_t total;
    size_t c, lo, hi;
    ptrdiff_t na = 0, nd = 0, k, cap;
    int i, j, n_out = 0, status;
    aa_status st;
    if ((st = check_spec(spec)) != AA_OK)
        return st;
    if (engagement == NULL)
        return ARG("engagement: NULL; expected the address of an aa_engagement");
    if (n > 0 && ((st = check_out(markers, "markers")) != AA_OK || (st = check_out(wounds, "wounds")) != AA_OK))
        return st;
    if (n > (size_t)PTRDIFF_MAX)
        return ARG("n: %lu; allowed 0..%ld", (unsigned long)n, (long)PTRDIFF_MAX);
    P = aa_spec_params(spec);
    if ((st = check_engagement(P, e)) != AA_OK)
        return st;
    if (n == 0)
        return AA_OK;
    w = (sim_work *)malloc(sizeof *w);   /* ~116 KiB: on the heap, not the host thread's stack */
    if (w == NULL)
        return aa_fail(AA_ERR_MEMORY, "aa_simulate_fire: cannot allocate the outcome counts (out of memory)");
    att = w->att;
    a0 = w->a0;
    a1 = w->a1;
    a_count = w->a_count;
    d = w->d;
    d_count = w->d_count;
    out = w->out;
    counts = w->counts;
    o_markers = w->o_markers;
    o_wounds = w->o_wounds;
    /* the engagement's exact outcome counts, as batch.simulate_fire's table (odds._engagement_counts) */
    t5 = P->tables.table5;
    row = t5 + (e->shooter_action * 2 + e->shooter_posture) * 3;
    aa_side_counts(e->shooter[0], e->shooter[1], e->shooter[2], row, e->shooter_action == A_SPRINT, att,
                   SIM_SLOTS, SIM_SLOTS, w->hist[0], w->hist[1], w->hist[2], w->hist[3], SIM_SLOTS);
    for (i = 0; i < SIM_SLOTS; i++)
        for (j = 0; j < SIM_SLOTS; j++)
            if (att[i * SIM_SLOTS + j] != 0) {
                a0[na] = i - 1;
                a1[na] = j - 1;
                a_count[na++] = att[i * SIM_SLOTS + j];
            }
    row = t5 + (e->target_action * 2 + e->target_posture) * 3;
    aa_side_counts(e->target[0], e->target[1], e->target[2], row, e->target_action == A_SPRINT, att,
                   SIM_SLOTS, SIM_SLOTS, w->hist[0], w->hist[1], w->hist[2], w->hist[3], SIM_SLOTS);
    for (i = 0; i < SIM_SLOTS; i++)
        if (w->hist[0][i] != 0) {
            d[nd] = i - 1;
            d_count[nd++] = w->hist[0][i];
        }
    cap = P->fire.rules.turn_cap[e->vehicle ? 1 : 0];
    if (cap < 0 || cap > MAX_MARKERS_PER_HIT) {   /* the spec loader bounds it; the tables hold that many */
        free(w);
        return ARG("spec: turn marker cap %ld; allowed 0..%d", (long)cap, MAX_MARKERS_PER_HIT);
    }
    aa_engagement_counts(a0, a1, a_count, na, d, d_count, nd, e->shooter_action == A_SPLIT_FIRE, e->range_band,
                         e->armor, e->cover, e->ap, e->vehicle, &P->fire.rules, out, cap + 1, SIM_WOUND_SLOTS);
    for (k = 0; k < (cap + 1) * SIM_WOUND_SLOTS; k++)
        if (out[k] != 0) {
            counts[n_out] = out[k];
            o_markers[n_out] = (int8_t)(k / SIM_WOUND_SLOTS);
            o_wounds[n_out++] = (int16_t)(k % SIM_WOUND_SLOTS);
        }
    total = (uint64_t)e->shooter[0] * (uint64_t)e->shooter[1] * (uint64_t)e->shooter[2] * (uint64_t)e->target[0]
            * (uint64_t)e->target[1] * (uint64_t)e->target[2];
    status = aa_fire_cdf_init(&t, counts, o_markers, o_wounds, n_out, total);
    free(w);   /* the table holds copies of what it needs */
    if (status != 0) {
        aa_fire_cdf_free(&t);
        return status == AA_SIM_NO_MEMORY
                   ? aa_fail(AA_ERR_MEMORY, "aa_simulate_fire: cannot allocate the outcome table (out of memory)")
                   : ARG("engagement: its outcome table is invalid (status %d)", status);
    }
    /* chunk c draws from PCG64(SeedSequence(seed, spawn_key=(c,))): the assembled entropy without the
     * chunk's words is the seed's words padded to the pool size (batch._base_entropy) */
    base[0] = (uint32_t)seed;
    base[1] = (uint32_t)(seed >> 32);
    base[2] = base[3] = 0;
    for (c = 0, lo = 0; lo < n; c++, lo = hi) {
        hi = n - lo < (size_t)AA_SIMULATE_CHUNK ? n : lo + AA_SIMULATE_CHUNK;
        if (aa_simulate_fire_chunk(&t, base, AA_SEED_POOL, (uint64_t)c, (ptrdiff_t)lo, (ptrdiff_t)hi, markers,
                                   wounds) != 0) {
            aa_fire_cdf_free(&t);
            return aa_fail(AA_ERR_MEMORY, "aa_simulate_fire: out of memory");
        }
    }
    aa_fire_cdf_free(&t);
    return AA_OK;
}
