/* atomic-africa's public C API: the Atomic Africa engine for C and C++ hosts, on opaque handles.
 *
 * Link the shared library libatomic_africa.so (soname libatomic_africa.so.AA_ABI_VERSION) or the
 * static library libatomic_africa.a (no Python needed at run time; docs/guide/c_api.md says how to
 * build, install and find them: CMake's find_package(atomic_africa), pkg-config atomic_africa). Every
 * function that can fail returns an aa_status; on failure aa_last_error() holds a one-line message
 * for this thread naming the argument and what is allowed. Nothing here aborts or crashes on bad
 * input.
 *
 * Ownership and threading: a spec (rules + scenario) is immutable once made and may be shared
 * read-only by any number of threads and games; it must outlive the games made from it. A game is
 * single-threaded: one thread at a time may call ANY function on it, the const ones included
 * (aa_game_legal_actions, aa_game_observe, aa_game_player_events, aa_game_is_over ... and
 * aa_agent_action, which reads the game): a query fills caches inside the game (line of sight, the
 * legal ids, its scratch memory), so two threads querying one game at once is a data race. Give
 * each thread its own game (aa_game_copy makes one). An agent likewise (its random stream). Games,
 * agents and specs used by different threads need no lock.
 *
 * Stack: no function here needs more than 16 KiB of the calling thread's stack (large buffers live
 * in the game or on the heap), so a host thread of 32 KiB runs any of them.
 *
 * Version policy: AA_ABI_VERSION changes whenever a declaration here or a layout a compiled host
 * can see changes; aa_abi_version() is the value the library was built with. Within one ABI
 * version, functions are only ever added. AA_VERSION_STRING and aa_version() name the release
 * (atomic-africa's package version). */
#ifndef ATOMIC_AFRICA_H
#define ATOMIC_AFRICA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AA_ABI_VERSION 2

/* The release (the Python package atomic-africa of the same version; tests/test_c_api.py keeps
 * them equal). */
#define AA_VERSION_MAJOR 0
#define AA_VERSION_MINOR 1
#define AA_VERSION_PATCH 0
#define AA_VERSION_STRING "0.1.0"

/* AA_API marks the library's exported functions: the shared library is built with hidden
 * visibility, so it exports exactly the functions declared here. On Windows a host of the DLL
 * defines AA_SHARED (CMake's atomic_africa::shared target does), a host of the static library
 * nothing. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(AA_BUILDING_SHARED)
#define AA_API __declspec(dllexport)
#elif defined(AA_SHARED)
#define AA_API __declspec(dllimport)
#else
#define AA_API
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define AA_API __attribute__((visibility("default")))
#else
#define AA_API
#endif

typedef enum aa_status {
    AA_OK = 0,
    AA_ERR_ARGUMENT = 1,   /* an argument out of its allowed values (NULL, range, buffer too small) */
    AA_ERR_SPEC = 2,       /* a spec file truncated, corrupted, of another version or out of bounds */
    AA_ERR_ILLEGAL = 3,    /* an action that is not legal now (the game is unchanged) */
    AA_ERR_MEMORY = 4,     /* an allocation failed (nothing was changed) */
    AA_ERR_OVER = 5,       /* the game is over (no action to apply or choose) */
    AA_ERR_RUNNING = 6,    /* the game is not over yet (it has no winner) */
    AA_ERR_EVALUATOR = 7   /* the search's evaluator callback returned nonzero (nothing was changed) */
} aa_status;

/* Functions that return a count or a flag (aa_game_legal_actions, aa_game_is_over, the sizes) return
 * it when >= 0, and a negated aa_status (-AA_ERR_ARGUMENT ...) on failure. */

typedef struct aa_spec aa_spec;   /* rules + scenario, immutable */
typedef struct aa_game aa_game;   /* one game in play */

/* The ABI version the library was built with (compare with AA_ABI_VERSION). */
AA_API int aa_abi_version(void);

/* The release the library was built from: its AA_VERSION_STRING, e.g. "0.1.0". */
AA_API const char *aa_version(void);

/* The message of this thread's last failure ("" if none); valid until its next failing call. */
AA_API const char *aa_last_error(void);

/* ------------------------------------------------------------------------------------- specs */

/* The default battle with the packaged rules (atomic-africa's built-in scenario). The greedy agent's
 * odds tables (7 MB, ~35 ms to count) are counted once per process for each distinct Table 5 and
 * shared, read-only, by every spec that has it (kept until exit, for 8 distinct tables; past that a
 * spec owns a copy), so only the first call of a process pays for them; the later ones cost tens of
 * microseconds. Thread-safe. */
AA_API aa_status aa_spec_default(aa_spec **out);

/* A spec from the bytes of a file written by `atomic-africa compile` (validated field by field). */
AA_API aa_status aa_spec_load(const void *data, size_t len, aa_spec **out);

/* Free a spec (NULL is allowed). */
AA_API void aa_spec_free(aa_spec *spec);

/* ------------------------------------------------------------------------------------- sizes */

/* The size of the flat action space (ids 0..n-1; also enough room for any legal-action list). */
AA_API int aa_num_actions(const aa_spec *spec);

/* Floats in one observation (aa_game_observe). */
AA_API int aa_observation_size(const aa_spec *spec);

/* ------------------------------------------------------------------------------------- games
 * A game is the Python atomic_africa.game.Game(scenario, seed) of the spec's battle: the same legal
 * ids, random draws, events and result. It points to its spec, which must outlive it. */

/* A new game of `spec` seeded with `seed` (Game(scenario, seed)); its first decision is ready (or
 * it is already over). Free it with aa_game_free. */
AA_API aa_status aa_game_new(const aa_spec *spec, uint64_t seed, aa_game **out);

/* An independent copy of a game (state, random stream and events): both go on alike. */
AA_API aa_status aa_game_copy(const aa_game *game, aa_game **out);

/* Free a game (NULL is allowed). */
AA_API void aa_game_free(aa_game *game);

/* ------------------------------------------------------------------------------------ planning
 * A copy carries the whole truth: the dice to come, the opponent's hand and both decks' order. A
 * planner that must not cheat reseeds or determinizes its copies first. */

/* A new chance stream: future dice and shuffles come from PCG64(SeedSequence(seed)), as for a game
 * made with aa_game_new(spec, seed) (Python: Game.reseed). */
AA_API aa_status aa_game_reseed(aa_game *game, uint64_t seed);

/* Resample everything hidden from `player` (0 or 1) consistently with what it has seen (Python:
 * Game.determinize, draw for draw): the game is reseeded with `seed`, then `player`'s own deck gets
 * a fresh order and the opponent's unseen cards (deck, Reserve, face-down order cards, the face-down
 * bottom of its discard pile) are dealt again. The result depends only on what `player` may know and
 * on `seed`; it is a state the engine plays, `player`'s observation is unchanged and, when `player`
 * is to move, so are its legal actions. The event records stay as they were. */
AA_API aa_status aa_game_determinize(aa_game *game, int player, uint64_t seed);

/* 1 if the game is over, 0 while it runs. */
AA_API int aa_game_is_over(const aa_game *game);

/* The player to decide next (0 or 1) into *player; -1 once the game is over. */
AA_API aa_status aa_game_current_player(const aa_game *game, int *player);

/* The legal action ids of the player to move, ascending, into buf (room for cap ids); returns
 * their number (0 once the game is over). cap too small: -AA_ERR_ARGUMENT, buf untouched;
 * buf NULL with cap 0 only counts them. aa_num_actions(spec) is always room enough. */
AA_API int aa_game_legal_actions(const aa_game *game, int32_t *buf, int cap);

/* Apply one decision of the player to move and run to the next decision. An id outside
 * 0..aa_num_actions-1 is AA_ERR_ARGUMENT, an id not legal now AA_ERR_ILLEGAL, any action once the
 * game is over AA_ERR_OVER; a refused action changes nothing. */
AA_API aa_status aa_game_apply(aa_game *game, int32_t action);

/* The winner (0 or 1; -1 a draw) into *winner once the game is over; AA_ERR_RUNNING before. */
AA_API aa_status aa_game_winner(const aa_game *game, int *winner);

/* What `player` (0 or 1) may see: aa_observation_size(spec) floats into out (room for cap), the
 * Python Game.observation(player). */
AA_API aa_status aa_game_observe(const aa_game *game, int player, float *out, int cap);

/* The game's event records since it began (set-up included), as doubles: per event its code (the
 * index of its type in atomic_africa.game.schema.EVENTS), its turn, its number of values n, then
 * the n values. *records stays valid until the game is next changed or freed. AA_ERR_MEMORY if a
 * record could not be stored (out of memory; the game itself is right). Recording is on by
 * default; aa_game_record_events(game, 0) turns it off (for speed) and drops the records. */
AA_API aa_status aa_game_events(const aa_game *game, const double **records, size_t *n);

/* The event records as `player` (0 or 1) may know them (its information set), copied into buf (room
 * for cap doubles): the records of aa_game_events, same format and lengths, with the values that
 * player cannot see set to -1 (NO_CARD): the cards of every shuffle and reshuffle (no one knows a
 * deck's order), and the cards of the other player's draws and face-down assignments (their count,
 * player and unit stay). Cards played face up, dice and fire stay (atomic_africa.game.schema.HIDDEN;
 * the Python Game.events(player=p)). *n receives the number of values. buf NULL with cap 0 only
 * counts them; cap too small: AA_ERR_ARGUMENT naming the size needed, buf untouched. AA_ERR_MEMORY as
 * aa_game_events (the values held are copied). */
AA_API aa_status aa_game_player_events(const aa_game *game, int player, double *buf, size_t cap, size_t *n);

/* Turn event recording on (1) or off (0); off drops the records held. */
AA_API aa_status aa_game_record_events(aa_game *game, int on);

/* ------------------------------------------------------------------------------------ agents
 * The built-in agents of atomic_africa.agents, each choosing the action its Python class chooses
 * in the same state. Only the random agent draws: from its own stream, RandomAgent(seed)'s. */

typedef enum aa_agent_kind {
    AA_AGENT_RANDOM = 0,      /* RandomAgent(seed) */
    AA_AGENT_HEURISTIC = 1,   /* HeuristicAgent */
    AA_AGENT_GREEDY = 2,      /* GreedyAgent(wound_value, marker_value, rally_value, cover_value, reserve_value) */
    AA_AGENT_DOCTRINE = 3,    /* DoctrineAgent(standoff_cm) */
    AA_AGENT_ISMCTS = 4       /* ISMCTSAgent: information-set MCTS (aa_search_options) */
} aa_agent_kind;

/* The Python agents' constructor arguments (finite numbers). */
typedef struct aa_agent_options {
    double wound_value, marker_value, rally_value, cover_value, reserve_value;   /* GreedyAgent */
    double standoff_cm;                                                          /* DoctrineAgent */
} aa_agent_options;

typedef struct aa_agent aa_agent;   /* one agent (its random stream), single-threaded */

/* The Python classes' defaults into *out. */
AA_API aa_status aa_agent_defaults(aa_agent_options *out);

/* A new agent of `kind` (aa_agent_kind); `seed` seeds the random agent's stream (the others ignore
 * it); options NULL: the defaults. Free it with aa_agent_free. */
AA_API aa_status aa_agent_new(int kind, uint64_t seed, const aa_agent_options *options, aa_agent **out);

/* The ISMCTS agent's search (atomic_africa.agents.ISMCTSAgent's arguments). Each simulation
 * determinizes a copy of the game for the player to move (aa_game_determinize), walks the tree by
 * UCT among the actions legal there, adds one node and plays on with the rollout agent. */
typedef struct aa_search_options {
    int simulations;      /* per decision, 1..AA_MAX_SIMULATIONS */
    double exploration;   /* the UCT constant, >= 0 */
    int rollout;          /* the rollout agent: AA_AGENT_RANDOM .. AA_AGENT_DOCTRINE */
    int rollout_depth;    /* rollout decisions at most, then the figures decide; 0: to the end */
    int width;            /* the greedy agent's best `width` actions at each node, best first; 0: all */
} aa_search_options;

#define AA_MAX_SIMULATIONS 1000000

/* The ISMCTSAgent class's defaults into *out. */
AA_API aa_status aa_search_defaults(aa_search_options *out);

/* aa_agent_new with search options (NULL: the defaults; read only by AA_AGENT_ISMCTS). The ISMCTS
 * agent draws from its own stream, seeded with `seed`: its decision depends only on what the
 * player to move may know, the stream and the options, never on the clock. */
AA_API aa_status aa_agent_new_search(int kind, uint64_t seed, const aa_agent_options *options,
                              const aa_search_options *search, aa_agent **out);

/* Free an agent (NULL is allowed). */
AA_API void aa_agent_free(aa_agent *agent);

/* The action the agent plays for the player to move in `game` into *action (the game unchanged;
 * apply it with aa_game_apply). AA_ERR_OVER once the game is over. */
AA_API aa_status aa_agent_action(aa_agent *agent, const aa_game *game, int32_t *action);

/* ------------------------------------------------------------------------ network-guided search
 * Batched PUCT (AlphaZero's search) over determinizations, its leaves evaluated by the host: each game's
 * tree walks simulations from copies of the game determinized for the player to move (as the ISMCTS
 * agent's: what that player cannot see is resampled first), and the leaves of every game searched
 * together go to one evaluator call per wave (walks in flight held apart by a virtual loss).
 * Optionally AlphaGo's mixed leaf values (a rollout agent plays each new leaf's copy to the end) and
 * the ISMCTS agent's greedy width.
 * atomic_africa.agents.puct.puct_search is this search: the same decisions for the same streams and
 * answers. */
typedef struct aa_puct_options {
    int simulations;          /* walks per game after its root's evaluation, 1..AA_MAX_SIMULATIONS */
    int wave;                 /* walks per game per evaluator call, 1..AA_MAX_WAVE */
    double c_puct;            /* exploration: Q + c_puct P sqrt(N_parent) / (1 + N), >= 0 */
    double dirichlet_alpha;   /* root noise Dirichlet(alpha) over the legal actions, >= 0 (0: none) */
    double noise_fraction;    /* the noise's weight in the root priors, 0..1 */
    double temperature;       /* 0: the most visited action; > 0: drawn with weights visits^(1/T) */
    int rollout;              /* the rollout agent, AA_AGENT_RANDOM .. AA_AGENT_DOCTRINE, or -1: none */
    double rollout_weight;    /* lambda, 0..1: a leaf's value is (1 - lambda) v + lambda z, v the
                               * evaluator's and z the rollout's outcome (+1, 0, -1); 0: no rollout */
    int width;                /* a node's children: the greedy agent's best `width` legal actions
                               * (priors renormalised over them), >= 0; 0: every legal one */
} aa_puct_options;

#define AA_MAX_WAVE 1024

/* atomic_africa.agents.puct.PUCT_DEFAULTS into *out. */
AA_API aa_status aa_puct_defaults(aa_puct_options *out);

/* The evaluator: n leaves; observations n x aa_observation_size floats (each the observation of the
 * player to move at the leaf), masks n x aa_num_actions bytes (1: legal). It writes priors
 * n x aa_num_actions (finite, >= 0 at the legal actions; divided by their sum there, all zero:
 * uniform) and values n (in [-1, 1], the expected outcome for the player to move), and returns 0; any
 * other return stops the search with AA_ERR_EVALUATOR. The buffers are the search's, valid during the
 * call. */
typedef int (*aa_evaluator)(void *user, int32_t n, const float *observations, const uint8_t *masks, float *priors,
                            float *values);

/* Search the player to move in games[0..n) (all of one spec) at once: game i's tree draws from
 * agents[i]'s stream (an agent of any kind; only its stream is used, and advanced; with a rollout
 * or a width, the greedy and doctrine agents there play with agents[0]'s aa_agent_options, which
 * every agent must share). actions[i] gets the
 * decision (-1 for a game that is over), policies (n x aa_num_actions, or NULL) the root's visit
 * shares, values (n, or NULL) the root's mean value for the player to move. The games are unchanged.
 * A refused answer (a value outside [-1, 1], a negative or non-finite prior at a legal action) is
 * AA_ERR_ARGUMENT naming the leaf; on any failure the agents' streams and the outputs are unchanged. */
AA_API aa_status aa_puct_search(const aa_game *const *games, aa_agent *const *agents, int32_t n,
                                const aa_puct_options *options, aa_evaluator evaluator, void *user,
                                int32_t *actions, float *policies, float *values);

/* -------------------------------------------------------------------------------------- fire */

/* The markers (before the per-turn cap) and wounds of one attack under the spec's rules
 * (atomic_africa.resolve_fire): attack >= 0 against range band 1..bands, defense >= 0, armor >= 1,
 * cover 0 (none), 1 (light) or 2 (heavy); no armor penetration, an infantry target. */
AA_API aa_status aa_resolve_fire(const aa_spec *spec, int attack, int range_band, int defense, int armor, int cover,
                          int *markers, int *wounds);

/* One shooter's engagement of one target, as atomic_africa.batch.simulate_fire takes it. */
typedef struct aa_engagement {
    int shooter[3], target[3];            /* dice (sides 4, 6, 8, 10 or 12) after wound shifts */
    int shooter_posture, target_posture;  /* 0 offensive, 1 defensive */
    int shooter_action, target_action;    /* Action values 0..7; the shooter's makes an attack */
    int range_band, armor, cover, ap;     /* band 1..bands, armor >= 1, cover 0..2, ap <= 0 */
    int vehicle;                          /* 0 or 1: the target is a vehicle */
} aa_engagement;

/* Engagements per random stream of aa_simulate_fire (atomic_africa.batch.SIMULATE_CHUNK). */
#define AA_SIMULATE_CHUNK 65536

/* Roll and resolve n independent engagements: markers[i] (after the per-turn cap) and wounds[i],
 * equal to atomic_africa.batch.simulate_fire(n, ..., seed=seed): engagements
 * [c * AA_SIMULATE_CHUNK, (c + 1) * AA_SIMULATE_CHUNK) draw from child c of SeedSequence(seed). */
AA_API aa_status aa_simulate_fire(const aa_spec *spec, const aa_engagement *engagement, uint64_t seed, size_t n,
                           int8_t *markers, int16_t *wounds);

#ifdef __cplusplus
}
#endif

#endif
