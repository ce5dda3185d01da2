# cython: language_level=3
"""The batch driver of the native game (VectorGame's kernel side): many games' state in numpy arrays,
stepped together with the GIL released on OpenMP threads; per-env random streams (the game's and one
per side for the native agents); whole games and opponent turns played by native agents in one call;
C-level capsules. One battle for every env, or several (MixedVectorGame): each env then plays the
map its episode's seed draws, with that map's parameters, in the maps' common padded layout.

The rules themselves live in the C core (csrc/aa_engine.h: aa_start_game, aa_legal_actions,
aa_apply_action, aa_observe, aa_agent_choose) and so do the seeds (csrc/aa_pcg.h); this module only
owns storage, threads and the Python face, so another driver (a C host) reuses the rules unchanged.
"""
cimport cython
from cpython.pycapsule cimport PyCapsule_New
from cython.parallel cimport prange
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memmove, memset

from aa_core.pcg cimport (PCG_WORDS, aa_episode_seed, aa_learner_side, aa_pcg_bitgen, aa_pcg_from_seed,
                          aa_spawn_seed)
from aa_core.rng cimport aa_bitgen
from aa_core.vgame cimport *

import numpy as np


# A game can be over before its first decision (e.g. a side whose only units are attached gets no
# order cards, and Clean-up removes them in turn 1). Starting an episode skips such games and goes on
# to the next episode, at most this many episodes in a row; then the scenario is at fault.
cdef enum:
    _DECISION_TRIES = 64
DECISION_TRIES = _DECISION_TRIES

# Why opponent_turns stopped an env (its second return value).
cdef enum:
    _OPP_NO_ACTION = 1       # the agent found no legal action in a running game
    _OPP_SECOND_END = 2      # a second game ended: the learner had no decision in a whole game
    _OPP_NO_DECISION = 3     # no episode with a decision in DECISION_TRIES
OPP_NO_ACTION, OPP_SECOND_END, OPP_NO_DECISION = _OPP_NO_ACTION, _OPP_SECOND_END, _OPP_NO_DECISION


cdef struct ActionLog:       # one game's actions (play_games with record)
    int32_t* data
    Py_ssize_t size, cap


cdef bint _log_push(ActionLog* log, int a) noexcept nogil:
    """Append a; False when the list could not grow (out of memory)."""
    cdef Py_ssize_t cap
    cdef int32_t* p
    if log.size == log.cap:
        cap = 256 if log.cap == 0 else 2 * log.cap
        p = <int32_t*>realloc(log.data, cap * sizeof(int32_t))
        if p == NULL:
            return False
        log.data, log.cap = p, cap
    log.data[log.size] = a
    log.size += 1
    return True


@cython.final
cdef class Engine:
    """Many games stepped together; state lives in the numpy arrays of `arrays` (batch first).

    Built by atomic_africa.game.native.vector.VectorGame, which validates every argument and owns the
    per-env bit generators; the methods here trust their inputs.

    One battle (its spec file: one transport carries a battle into C), or several (a list of spec files,
    one per map, and `padding`):
    then each env plays the map its game seed draws (_pick, as ScenarioSampler.pick), and the Python
    face speaks the maps' common padded layout (atomic_africa.game.scenarios.PaddedSpec): padded
    observation rows and masks, padded action ids, converted here per env. Every env's state row has
    room for the largest map and holds its own map's arrays at the start of each row (the C core
    takes every stride from the map's Params).
    """
    cdef Params* Ps              # each map's rules and scenario constants (maps >= 1)
    cdef aa_spec** specs         # each map's loaded spec: owns the arrays its Params point into
    cdef readonly int maps
    cdef int32_t* map_w          # env i plays map map_w[i] (arrays["map"] with several maps)
    cdef readonly int obs_size   # an observation row: the padded layout's with several maps
    cdef readonly int n_actions  # a mask row, the action ids (padded with several maps)
    cdef bint padded
    # The padding as a few blocks per map (PaddedSpec._blocks), not as tables of every id: a few
    # hundred bytes a map, which stay in cache with 64 maps where id tables would not.
    cdef const int32_t* act_blocks  # (maps, act_w, 5): action blocks (own start, padded start, rows,
                                    # own row width, padded row width), ascending, covering own ids
    cdef const int32_t* n_act       # (maps,)
    cdef const int32_t* blocks      # (maps, blk_w, 3): observation blocks (own start, padded start, length)
    cdef const int32_t* n_blocks    # (maps,)
    cdef const double* cum          # (maps,) cumulative weights of the maps
    cdef int act_w, blk_w
    cdef Game* games
    cdef EventBuffer* evs
    cdef char* work              # each env's scratch (aa_state.work): work_size bytes at i * work_size
    cdef size_t work_size
    cdef readonly int n
    cdef readonly bint record_events
    cdef readonly dict arrays
    cdef list _keep
    cdef aa_bitgen* game_bg      # env i's game stream: an aa_bitgen over arrays["rng"][i]
    cdef aa_bitgen* agent_bg     # side p's agent stream in env i (at 2 * i + p): arrays["agent_rng"][i, p]
    cdef uint64_t* rng_w         # the data of arrays["rng"], ["agent_rng"], ["game_seed"] (fixed buffers)
    cdef uint64_t* agent_w
    cdef uint64_t* seed_w
    cdef uint32_t seed_words[16]
    cdef int n_seed_words
    cdef AgentParams agent_params  # the native agents' constructor values (set_agent_params)

    def __cinit__(self, *args, **kwargs):
        self.Ps = NULL
        self.specs = NULL
        self.maps = 0
        self.games = NULL
        self.evs = NULL
        self.work = NULL
        self.game_bg = NULL
        self.agent_bg = NULL

    def __init__(self, specs, int n, bint record_events, dict padding=None):
        """`specs`: one battle's spec file (bytes: atomic_africa.game.native.spec_file.compile_spec), or a
        list of them, one per map, with `padding` (atomic_africa.game.native.mixed.engine_maps). Each map's
        Params come from aa_spec_load (csrc/aa_spec.c), the one way a battle reaches the C core: the loader
        checks every value and owns the arrays Params points into (freed with this Engine)."""
        cdef int i, j, U, K, F
        cdef int32_t[::1] mw
        slist = [specs] if isinstance(specs, (bytes, bytearray, memoryview)) else list(specs)
        if not slist:
            raise ValueError("specs: expected one spec file, or a list of them (one per map); got none")
        if len(slist) > 1 and padding is None:
            raise ValueError("padding: several maps need their padded layout")
        self.n = n
        self.record_events = record_events
        self.maps = len(slist)
        self.Ps = <Params*>calloc(self.maps, sizeof(Params))
        self.specs = <aa_spec**>calloc(self.maps, sizeof(aa_spec*))
        if self.Ps == NULL or self.specs == NULL:
            raise MemoryError("scenario: cannot allocate the maps' parameters")
        self._keep = [padding]
        U = K = F = 1
        for j in range(self.maps):
            self.specs[j] = load_spec(slist[j], &self.Ps[j], "" if j == 0 else f"map {j}")
            U, K, F = max(U, self.Ps[j].U), max(K, self.Ps[j].K), max(F, self.Ps[j].terrain.n_feat)
        self.padded = padding is not None
        if self.padded:
            self._bind_padding(padding)
        else:
            self.obs_size, self.n_actions = self.Ps[0].obs_size, self.Ps[0].n_actions
        self.arrays = {
            "scalars": np.zeros((n, NS), dtype=np.int32),
            "unit_i8": np.zeros((n, NI8, U), dtype=np.int8),
            "unit_i32": np.zeros((n, NI32, U), dtype=np.int32),
            "unit_f64": np.zeros((n, NF64, U), dtype=np.float64),
            "piles": np.zeros((n, 2, 3, K), dtype=np.int16),
            "counts": np.zeros((n, 2, NC), dtype=np.int32),
            "sprint_bonus": np.zeros((n, 2), dtype=np.float64),
            "los": np.full((n, U * U), -1, dtype=np.int8),
            "fcover": np.zeros((n, F), dtype=np.int8),
            "rng": np.zeros((n, PCG_WORDS), dtype=np.uint64),
            "agent_rng": np.zeros((n, 2, PCG_WORDS), dtype=np.uint64),
            "episode": np.zeros(n, dtype=np.int64),
            "game_seed": np.zeros(n, dtype=np.uint64),
        }
        env_map = np.zeros(n, dtype=np.int32)
        if self.padded:
            self.arrays["map"] = env_map      # part of the state (copy_envs, load)
        else:
            self._keep.append(env_map)
        mw = env_map
        self.map_w = &mw[0]
        self.games = <Game*>malloc(n * sizeof(Game))
        if self.games == NULL:
            raise MemoryError("num_envs: cannot allocate the game views")
        # The core keeps its large buffers (legal-id lists, a phase's attacks) in each game's
        # scratch, not on the stack: one per env, allocated here, so the parallel loops allocate nothing.
        self.work_size = 0
        for j in range(self.maps):      # the largest map's: any env may play any map
            self.work_size = max(self.work_size, aa_work_size(&self.Ps[j]))
        self.work = <char*>malloc(n * self.work_size)
        if self.work == NULL:
            raise MemoryError("num_envs: cannot allocate the games' scratch")
        if record_events:
            self.evs = <EventBuffer*>malloc(n * sizeof(EventBuffer))
            if self.evs == NULL:
                raise MemoryError("num_envs: cannot allocate the event buffers")
            for i in range(n):
                self.evs[i].data = NULL
                self.evs[i].size = self.evs[i].cap = 0
                self.evs[i].failed = False
        self.game_bg = <aa_bitgen*>malloc(n * sizeof(aa_bitgen))
        self.agent_bg = <aa_bitgen*>malloc(2 * n * sizeof(aa_bitgen))
        if self.game_bg == NULL or self.agent_bg == NULL:
            raise MemoryError("num_envs: cannot allocate the random streams")
        self.n_seed_words = 1
        self.seed_words[0] = 0
        self._bind()

    cdef _bind_padding(self, dict pad):
        """The padded layout's blocks (checked here: the kernels index with them unchecked)."""
        cdef int m = self.maps
        cdef const int32_t[:, :, ::1] ab = pad["act_blocks"]
        cdef const int32_t[::1] na = pad["n_act_blocks"]
        cdef const int32_t[:, :, ::1] bl = pad["obs_blocks"]
        cdef const int32_t[::1] nb = pad["n_blocks"]
        cdef const double[::1] cum = pad["cum"]
        cdef int j, k, end, pend
        self.obs_size, self.n_actions = pad["obs_size"], pad["n_actions"]
        if ab.shape[0] != m or na.shape[0] != m or bl.shape[0] != m or nb.shape[0] != m or cum.shape[0] != m \
                or ab.shape[2] != 5 or bl.shape[2] != 3:
            raise ValueError("padding: expected one row per map of every table")
        for j in range(m):
            if not 0 <= na[j] <= ab.shape[1] or not 0 <= nb[j] <= bl.shape[1]:
                raise ValueError(f"padding: map {j}'s block counts")
            end = pend = 0
            for k in range(na[j]):      # own ids back to back; padded ids ascending, apart, in range
                if ab[j, k, 0] != end or ab[j, k, 1] < pend or ab[j, k, 2] < 1 or ab[j, k, 3] < 1 \
                        or ab[j, k, 4] < ab[j, k, 3] \
                        or <int64_t>ab[j, k, 1] + <int64_t>ab[j, k, 2] * ab[j, k, 4] > self.n_actions:
                    raise ValueError(f"padding: map {j}'s action block {k}")
                end = ab[j, k, 0] + ab[j, k, 2] * ab[j, k, 3]
                pend = ab[j, k, 1] + ab[j, k, 2] * ab[j, k, 4]
            if end != self.Ps[j].n_actions:
                raise ValueError(f"padding: map {j}'s action blocks do not cover its actions")
            end = pend = 0
            for k in range(nb[j]):      # the same for the observation (one row per block)
                if bl[j, k, 0] != end or bl[j, k, 1] < pend or bl[j, k, 1] < bl[j, k, 0] or bl[j, k, 2] < 0 \
                        or bl[j, k, 1] + bl[j, k, 2] > self.obs_size:
                    raise ValueError(f"padding: map {j}'s observation block {k}")
                end = bl[j, k, 0] + bl[j, k, 2]
                pend = bl[j, k, 1] + bl[j, k, 2]
            if end != self.Ps[j].obs_size:
                raise ValueError(f"padding: map {j}'s observation blocks do not cover its observation")
        self.act_blocks, self.n_act = &ab[0, 0, 0], &na[0]
        self.blocks, self.n_blocks, self.cum = &bl[0, 0, 0], &nb[0], &cum[0]
        self.act_w, self.blk_w = ab.shape[1], bl.shape[1]

    cdef inline const Params* _P(self, Py_ssize_t i) noexcept nogil:
        """Env i's map's parameters."""
        return &self.Ps[self.map_w[i]]

    @cython.cdivision(True)
    cdef inline int _pick(self, uint64_t gs) noexcept nogil:
        """ScenarioSampler.pick: the first uint64 of SeedSequence(gs, spawn_key=(3,)) as a number in
        [0, 1) (rounded to a double as Python's int / float does), placed on the cumulative weights
        (numpy's searchsorted, side "right"), at most the last map."""
        cdef int lo = 0, hi = self.maps, mid
        cdef double u
        if self.maps == 1:
            return 0
        u = <double>aa_spawn_seed(gs, 3) / 18446744073709551616.0
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cum[mid] <= u:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < self.maps else self.maps - 1

    @cython.cdivision(True)
    cdef inline int _engine_id(self, Py_ssize_t i, int64_t a) noexcept nogil:
        """Env i's engine action id of the caller's id a (padded with several maps); -1 if none:
        the block holding padded id a, then its row and column there (a column past the map's
        row width is a slot the map does not have)."""
        cdef const int32_t* b
        cdef int k, nb, row, col
        cdef int64_t off
        if a < 0 or a >= self.n_actions:
            return -1
        if not self.padded:
            return <int>a
        b = self.act_blocks + <Py_ssize_t>self.map_w[i] * self.act_w * 5
        nb = self.n_act[self.map_w[i]]
        for k in range(nb):
            off = a - b[5 * k + 1]
            if off < 0:
                return -1
            if off < <int64_t>b[5 * k + 2] * b[5 * k + 4]:
                if b[5 * k + 2] == 1:
                    return b[5 * k] + <int>off if off < b[5 * k + 3] else -1
                row, col = <int>(off // b[5 * k + 4]), <int>(off % b[5 * k + 4])
                return b[5 * k] + row * b[5 * k + 3] + col if col < b[5 * k + 3] else -1
        return -1

    cdef inline int _block_of(self, const int32_t* b, int nb, int e, int k) noexcept nogil:
        """The action block (of nb at b) holding own id e, searched from block k (0 if e is below
        it): the ids of a legal list are nearly ascending, so this is mostly k itself."""
        if k >= nb or e < b[5 * k]:
            k = 0
        while k + 1 < nb and e >= b[5 * (k + 1)]:
            k += 1
        return k

    @cython.cdivision(True)
    cdef inline int64_t _padded_id(self, const int32_t* b, int k, int e) noexcept nogil:
        """Own id e of action block k (at b) as a padded id."""
        cdef int off = e - b[5 * k]
        if b[5 * k + 2] == 1:
            return b[5 * k + 1] + off
        return b[5 * k + 1] + (off // b[5 * k + 3]) * b[5 * k + 4] + off % b[5 * k + 3]

    cdef inline int64_t _caller_id(self, Py_ssize_t i, int a) noexcept nogil:
        """The caller's id (padded with several maps) of env i's engine action id a (-1 stays -1)."""
        cdef const int32_t* b
        cdef int nb
        if a < 0 or not self.padded:
            return a
        b = self.act_blocks + <Py_ssize_t>self.map_w[i] * self.act_w * 5
        nb = self.n_act[self.map_w[i]]
        return self._padded_id(b, self._block_of(b, nb, a, 0), a)

    cdef void _observe(self, Py_ssize_t i, int player, float* out) noexcept nogil:
        """Env i's observation for `player` into out (obs_size floats): the map's own observation,
        then (several maps) its blocks moved up to their padded places, last first (each block's
        place is at or after its own, past the blocks below it), and the rest zeroed."""
        cdef const int32_t* b
        cdef int k, nb, end = 0
        aa_observe(self._P(i), &self.games[i], player, out)
        if not self.padded:
            return
        b = self.blocks + <Py_ssize_t>self.map_w[i] * self.blk_w * 3
        nb = self.n_blocks[self.map_w[i]]
        for k in range(nb - 1, -1, -1):
            if b[3 * k + 1] != b[3 * k]:
                memmove(out + b[3 * k + 1], out + b[3 * k], b[3 * k + 2] * sizeof(float))
        for k in range(nb):
            if b[3 * k + 1] > end:
                memset(out + end, 0, (b[3 * k + 1] - end) * sizeof(float))
            end = b[3 * k + 1] + b[3 * k + 2]
        if self.obs_size > end:
            memset(out + end, 0, (self.obs_size - end) * sizeof(float))

    @cython.cdivision(True)
    cdef void _mask_row(self, Py_ssize_t i, uint8_t* row) noexcept nogil:
        """row[a] = 1 where the caller's action id a is legal in env i, else 0. The legal-action
        buffer is the game's scratch (as in is_legal): nothing inside the parallel loops can fail.
        Padded: own ids [lo, hi) are padded ids from `base` on (one row of a block), found again
        only when an id falls outside (the legal ids come in runs)."""
        cdef int* buf = <int*>self.games[i].work
        cdef int k, m, e, r, blk = 0, nb, lo = 0, hi = 0, base = 0
        cdef const int32_t* b
        memset(row, 0, self.n_actions)
        m = aa_legal_actions(self._P(i), &self.games[i], buf)
        if self.padded:
            b = self.act_blocks + <Py_ssize_t>self.map_w[i] * self.act_w * 5
            nb = self.n_act[self.map_w[i]]
            for k in range(m):
                e = buf[k]
                if e < lo or e >= hi:
                    blk = self._block_of(b, nb, e, blk)
                    r = 0 if b[5 * blk + 2] == 1 else (e - b[5 * blk]) // b[5 * blk + 3]
                    lo = b[5 * blk] + r * b[5 * blk + 3]
                    hi = lo + b[5 * blk + 3]
                    base = b[5 * blk + 1] + r * b[5 * blk + 4]
                row[base + e - lo] = 1
        else:
            for k in range(m):
                row[buf[k]] = 1

    def env_maps(self, int32_t[::1] out):
        """out[i] = the map env i plays."""
        cdef Py_ssize_t i
        for i in range(self.n):
            out[i] = self.map_w[i]

    def side_totals(self, int64_t[:, :, ::1] out):
        """out[i, p] = the figures, wounds and markers of side p's live units in env i."""
        cdef Py_ssize_t i
        cdef int p, u
        cdef V v
        with nogil:
            for i in range(self.n):
                make_view(self._P(i), &self.games[i], &v)
                for p in range(2):
                    out[i, p, 0] = out[i, p, 1] = out[i, p, 2] = 0
                    for u in range(p * v.C, (p + 1) * v.C):
                        if v.alive[u]:
                            out[i, p, 0] += v.figures[u]
                            out[i, p, 1] += v.wounds[u]
                            out[i, p, 2] += v.markers[u]

    cdef _bind(self):
        cdef int32_t[:, ::1] s = self.arrays["scalars"]
        cdef int8_t[:, :, ::1] i8 = self.arrays["unit_i8"]
        cdef int32_t[:, :, ::1] i32 = self.arrays["unit_i32"]
        cdef double[:, :, ::1] f64 = self.arrays["unit_f64"]
        cdef int16_t[:, :, :, ::1] piles = self.arrays["piles"]
        cdef int32_t[:, :, ::1] counts = self.arrays["counts"]
        cdef double[:, ::1] bonus = self.arrays["sprint_bonus"]
        cdef int8_t[:, ::1] lv = self.arrays["los"]
        cdef int8_t[:, ::1] fc = self.arrays["fcover"]
        cdef uint64_t[:, ::1] rng = self.arrays["rng"]
        cdef uint64_t[:, :, ::1] arng = self.arrays["agent_rng"]
        cdef uint64_t[::1] gsd = self.arrays["game_seed"]
        cdef int i
        self.rng_w, self.agent_w, self.seed_w = &rng[0, 0], &arng[0, 0, 0], &gsd[0]
        for i in range(self.n):
            self.games[i].s = &s[i, 0]
            self.games[i].i8 = &i8[i, 0, 0]
            self.games[i].i32 = &i32[i, 0, 0]
            self.games[i].f64 = &f64[i, 0, 0]
            self.games[i].piles = &piles[i, 0, 0, 0]
            self.games[i].counts = &counts[i, 0, 0]
            self.games[i].bonus = &bonus[i, 0]
            self.games[i].los = &lv[i, 0]
            self.games[i].fcover = &fc[i, 0]
            aa_pcg_bitgen(&rng[i, 0], &self.game_bg[i])
            aa_pcg_bitgen(&arng[i, 0, 0], &self.agent_bg[2 * i])
            aa_pcg_bitgen(&arng[i, 1, 0], &self.agent_bg[2 * i + 1])
            self.games[i].rng = &self.game_bg[i]
            self.games[i].ev = &self.evs[i] if self.evs != NULL else NULL
            self.games[i].work = self.work + i * self.work_size

    def __dealloc__(self):
        cdef int i
        if self.evs != NULL:
            for i in range(self.n):
                free(self.evs[i].data)
            free(self.evs)
        free(self.games)
        free(self.work)
        free(self.Ps)
        if self.specs != NULL:
            for i in range(self.maps):
                aa_spec_free(self.specs[i])
            free(self.specs)
        free(self.game_bg)
        free(self.agent_bg)

    def c_params(self, int j=0):
        """PyCapsule "aa_core.vgame.Params" holding map j's const Params* (valid while this Engine lives)."""
        if not 0 <= j < self.maps:
            raise IndexError(f"j: {j} is not a map index; allowed 0..{self.maps - 1}")
        return PyCapsule_New(&self.Ps[j], "aa_core.vgame.Params", NULL)

    def c_game(self, int i):
        """PyCapsule "aa_core.vgame.Game" holding env i's Game* (valid while this Engine lives)."""
        if not 0 <= i < self.n:
            raise IndexError(f"i: {i} is not an env index; allowed 0..{self.n - 1}")
        return PyCapsule_New(&self.games[i], "aa_core.vgame.Game", NULL)

    def load(self, dict arrays):
        """Copy a state snapshot (the `arrays` of an Engine of the same shape, all but "los") into this
        one. Keys, shapes and dtypes are checked here; the values must have been checked against the
        scenario first (atomic_africa.game.native.snapshot.check_arrays): the kernels index with them."""
        want = set(self.arrays) - {"los"}
        if set(arrays) != want:
            raise ValueError(f"arrays: expected the keys {sorted(want)}, got {sorted(arrays)}")
        for k, a in arrays.items():
            if not isinstance(a, np.ndarray) or a.dtype != self.arrays[k].dtype \
                    or a.shape != self.arrays[k].shape:
                raise ValueError(f"arrays[{k!r}]: expected a {self.arrays[k].dtype} array of shape "
                                 f"{self.arrays[k].shape}")
        if "map" in arrays and arrays["map"].size and not 0 <= arrays["map"].min() <= arrays["map"].max() < self.maps:
            raise ValueError(f"arrays['map']: expected map indices 0..{self.maps - 1}")
        for k, a in arrays.items():
            np.copyto(self.arrays[k], a)
        self.arrays["los"].fill(-1)

    def set_seed(self, const uint32_t[::1] words):
        """The VectorGame seed as numpy's SeedSequence words (low first, at most 16)."""
        if not 1 <= words.shape[0] <= 16:
            raise ValueError("seed: must be below 2**512")
        self.n_seed_words = <int>words.shape[0]
        for k in range(self.n_seed_words):
            self.seed_words[k] = words[k]

    cdef void _seed_env(self, Py_ssize_t i, uint64_t gs, uint64_t s0, uint64_t s1) noexcept nogil:
        """Env i's streams for Game(spec, gs) with RandomAgent(s0) playing side 0 and RandomAgent(s1)
        side 1: each PCG64(SeedSequence(seed)); with several maps, the map gs draws."""
        self.seed_w[i] = gs
        self.map_w[i] = self._pick(gs)
        aa_pcg_from_seed(gs, self.rng_w + i * PCG_WORDS)
        aa_pcg_from_seed(s0, self.agent_w + 2 * i * PCG_WORDS)
        aa_pcg_from_seed(s1, self.agent_w + (2 * i + 1) * PCG_WORDS)

    cdef void _seed_episode(self, Py_ssize_t i, int64_t* episode) noexcept nogil:
        """Env i's streams for its current episode: game seed
        gs = SeedSequence(seed, spawn_key=(i, episode)).generate_state(1, uint64)[0], side p's agent
        seed aa_spawn_seed(gs, p)."""
        cdef uint64_t gs = aa_episode_seed(self.seed_words, self.n_seed_words, <uint64_t>i, <uint64_t>episode[i])
        self._seed_env(i, gs, aa_spawn_seed(gs, 0), aa_spawn_seed(gs, 1))

    cdef bint _start_decided(self, Py_ssize_t i, int64_t* episode) noexcept nogil:
        """Start env i's game of episode[i]; while that game is over before its first decision, go
        on to the next episode (its event records dropped). False if _DECISION_TRIES episodes in a
        row were all over (the env is left on the last of them)."""
        cdef Game* g = &self.games[i]
        cdef Py_ssize_t mark = g.ev.size if g.ev != NULL else 0
        cdef int k
        for k in range(_DECISION_TRIES):
            if k > 0:
                episode[i] += 1
                if g.ev != NULL:
                    g.ev.size = mark
            self._seed_episode(i, episode)
            aa_start_game(self._P(i), g)
            if g.s[S_STAGE] != ST_OVER:
                return True
        return False

    def start(self, int threads):
        """Start every env's game of its current episode (arrays["episode"]) or, where that game is
        over before a decision, of the first later episode with one; events cleared. Returns the
        first env that found none in DECISION_TRIES episodes, or -1."""
        cdef Py_ssize_t i, n = self.n
        cdef int64_t[::1] ep = self.arrays["episode"]
        cdef uint8_t[::1] ok = np.empty(n, dtype=np.uint8)
        cdef Game* g
        with nogil:
            for i in prange(n, num_threads=threads, schedule="dynamic", chunksize=4):
                g = &self.games[i]
                if g.ev != NULL:
                    g.ev.size = 0
                ok[i] = self._start_decided(i, &ep[0])
        self._check_events()
        for i in range(n):
            if not ok[i]:
                return i
        return -1

    def restart(self, const int64_t[::1] envs, float[:, ::1] obs, float[:, :, ::1] final, int threads,
                bint observe_all=True):
        """Automatic reset: final[j] = env envs[j]'s finished game seen by player 0 and 1; then the
        env starts its next episode with a decision (as start) after its event records, and its
        first observation (player to move) goes into obs[env]. Returns the first env that found
        no such episode in DECISION_TRIES, or -1."""
        cdef Py_ssize_t j, m = envs.shape[0]
        cdef int64_t[::1] ep = self.arrays["episode"]
        cdef uint8_t[::1] ok = np.empty(max(m, 1), dtype=np.uint8)
        cdef Game* g
        with nogil:
            for j in prange(m, num_threads=threads, schedule="dynamic", chunksize=4):
                g = &self.games[envs[j]]
                self._observe(envs[j], 0, &final[j, 0, 0])
                self._observe(envs[j], 1, &final[j, 1, 0])
                ep[envs[j]] += 1
                ok[j] = self._start_decided(envs[j], &ep[0])
                if observe_all and ok[j]:
                    self._observe(envs[j], g.s[S_CUR], &obs[envs[j], 0])
        self._check_events()
        for j in range(m):
            if not ok[j]:
                return envs[j]
        return -1

    def step(self, const int64_t[::1] actions, const uint8_t[::1] active, float[:, ::1] obs,
             float[:, ::1] rewards, uint8_t[::1] terminated, int8_t[::1] winner, int threads,
             bint observe_all=True):
        """Check every active env's action, then (if all are legal) apply them and write the
        observations of the player to move (the last mover's for finished games), rewards and
        termination flags. Returns the first env with an illegal action (nothing applied), or -1.

        Two parallel loops (Cython's prange inside one parallel block ends without a barrier).
        Dynamic chunks: steps differ in cost (a Clean-up does more than an order), and a thread
        that the OS delays leaves its work to the others."""
        cdef Py_ssize_t i, n = self.n
        cdef Game* g
        cdef int cur
        cdef uint8_t[::1] ok = np.empty(n, dtype=np.uint8)
        cdef int32_t[::1] ea = np.empty(n, dtype=np.int32)     # the engine's ids
        with nogil:
            for i in prange(n, num_threads=threads, schedule="dynamic", chunksize=4):
                ea[i] = self._engine_id(i, actions[i]) if active[i] else -1
                ok[i] = not active[i] or (ea[i] >= 0 and aa_is_legal(self._P(i), &self.games[i], ea[i]))
        for i in range(n):
            if not ok[i]:
                return i
        with nogil:
            for i in prange(n, num_threads=threads, schedule="dynamic", chunksize=4):
                g = &self.games[i]
                rewards[i, 0] = 0.0
                rewards[i, 1] = 0.0
                terminated[i] = 0
                winner[i] = -2
                if g.ev != NULL:
                    g.ev.size = 0        # an inactive env logs nothing in this step
                if active[i]:
                    aa_apply_action(self._P(i), g, ea[i])
                    if g.s[S_STAGE] == ST_OVER:
                        terminated[i] = 1
                        winner[i] = _score_end(g, &rewards[i, 0])
                if observe_all:
                    cur = g.s[S_CUR] if g.s[S_STAGE] != ST_OVER else g.s[S_LAST]
                    self._observe(i, cur if cur >= 0 else 0, &obs[i, 0])
        self._check_events()
        return -1

    def observe(self, const int64_t[::1] envs, const int32_t[::1] players, float[:, ::1] out, int threads):
        """out[j] = env envs[j]'s observation for players[j] (-1: the player to move)."""
        cdef Py_ssize_t j, m = envs.shape[0]
        cdef Game* g
        cdef int p
        with nogil:
            for j in prange(m, num_threads=threads, schedule="dynamic", chunksize=4):
                g = &self.games[envs[j]]
                p = players[j]
                if p < 0:
                    p = g.s[S_CUR] if g.s[S_STAGE] != ST_OVER else g.s[S_LAST]
                    if p < 0:
                        p = 0
                self._observe(envs[j], p, &out[j, 0])

    cdef int _check_events(self) except -1:
        """MemoryError if an env's event records could not grow in the last call (flags cleared)."""
        cdef Py_ssize_t i
        cdef Py_ssize_t bad = -1
        if self.evs == NULL:
            return 0
        for i in range(self.n):
            if self.evs[i].failed:
                self.evs[i].failed = False
                if bad < 0:
                    bad = i
        if bad >= 0:
            raise MemoryError(f"record_events: env {bad}'s event records could not grow beyond "
                              f"{self.evs[bad].cap} values (out of memory); some of this call's events "
                              f"are lost: use fewer envs or record_events=False")
        return 0

    def masks(self, uint8_t[:, ::1] out, int threads):
        """out[i, a] = 1 where action a is legal in env i."""
        cdef Py_ssize_t i, n = self.n
        with nogil:
            for i in prange(n, num_threads=threads, schedule="dynamic", chunksize=4):
                self._mask_row(i, &out[i, 0])

    def masks_at(self, const int64_t[::1] envs, uint8_t[:, ::1] out, int threads):
        """out[j, a] = 1 where action a is legal in env envs[j]."""
        cdef Py_ssize_t j, m = envs.shape[0]
        with nogil:
            for j in prange(m, num_threads=threads, schedule="dynamic", chunksize=4):
                self._mask_row(envs[j], &out[j, 0])

    def random_actions(self, const uint8_t[::1] active, int64_t[::1] out, int threads):
        """A uniformly random legal action per active env (-1 elsewhere and where the game is over):
        the native random agent of the player to move, drawing from that side's agent stream (one
        die of n sides; no draw when one action is legal, nor for an inactive env)."""
        cdef int8_t[::1] kinds = np.full(self.n, AGENT_RANDOM, dtype=np.int8)
        self.agent_actions(kinds, active, out, threads)

    def set_agent_params(self, dict values):
        """The native agents' constructor values, by AgentParams field name (atomic_africa.agents)."""
        self.agent_params = values

    def agent_actions(self, const int8_t[::1] kinds, const uint8_t[::1] active, int64_t[::1] out,
                      int threads):
        """The action of native agent kinds[i] (AGENT_*) for the player to move in each active env
        (-1 elsewhere and where the game is over), as the caller's id (padded with several maps);
        AGENT_RANDOM draws from the agent stream of the side to move."""
        cdef Py_ssize_t i, n = self.n
        with nogil:
            for i in prange(n, num_threads=threads, schedule="dynamic", chunksize=4):
                out[i] = self._caller_id(i, self._agent_move(i, kinds[i])) if active[i] else -1

    cdef inline int _agent_move(self, Py_ssize_t i, int kind) noexcept nogil:
        """Native agent `kind`'s action for the player to move in env i (-1 if the game is over or no
        action is legal)."""
        cdef Game* g = &self.games[i]
        cdef int cur = g.s[S_CUR]
        if g.s[S_STAGE] == ST_OVER or cur < 0:
            return -1
        return aa_agent_choose(self._P(i), g, kind, &self.agent_params, &self.agent_bg[2 * i + cur])

    def copy_envs(self, const int64_t[::1] src, const int64_t[::1] dst):
        """Env dst[j] becomes a copy of env src[j] (state, streams, episode, events): each pair is
        copied from the state before the call (a source is never one of the destinations: checked by
        the caller)."""
        cdef Py_ssize_t j, m = src.shape[0]
        cdef Py_ssize_t a, b
        cdef EventBuffer* e
        cdef double* d
        s, t = np.asarray(src), np.asarray(dst)
        for arr in self.arrays.values():
            arr[t] = arr[s]
        if self.evs != NULL:
            for j in range(m):
                a, b = src[j], dst[j]
                e = &self.evs[b]
                if e.cap < self.evs[a].size:
                    d = <double*>realloc(e.data, self.evs[a].size * sizeof(double))
                    if d == NULL:
                        e.size = 0
                        raise MemoryError("envs: cannot copy the event records (out of memory)")
                    e.data, e.cap = d, self.evs[a].size
                if self.evs[a].size > 0:
                    memcpy(e.data, self.evs[a].data, self.evs[a].size * sizeof(double))
                e.size = self.evs[a].size
                e.failed = self.evs[a].failed

    def reseed(self, const int64_t[::1] envs, const uint64_t[::1] seeds):
        """Env envs[j]'s game stream becomes PCG64(SeedSequence(seeds[j]))."""
        cdef Py_ssize_t j, m = envs.shape[0]
        with nogil:
            for j in range(m):
                aa_pcg_from_seed(seeds[j], self.rng_w + envs[j] * PCG_WORDS)

    def determinize(self, const int64_t[::1] envs, const int8_t[::1] players, const uint64_t[::1] seeds,
                    int threads):
        """Env envs[j] reseeded with seeds[j], then everything hidden from players[j] resampled
        (aa_determinize); envs distinct (checked by the caller)."""
        cdef Py_ssize_t j, m = envs.shape[0]
        with nogil:
            for j in prange(m, num_threads=threads, schedule="static"):
                aa_pcg_from_seed(seeds[j], self.rng_w + envs[j] * PCG_WORDS)
                aa_determinize(self._P(envs[j]), &self.games[envs[j]], players[j])

    def start_seeded(self, const int64_t[::1] envs, const uint64_t[::1] game_seeds,
                     const uint64_t[:, ::1] agent_seeds, int threads):
        """Env envs[j] starts Game(spec, game_seeds[j]) (kept even if it is over before a decision),
        side p's agent stream RandomAgent(agent_seeds[j, p]); its events hold the set-up."""
        cdef Py_ssize_t j, m = envs.shape[0]
        cdef Game* g
        with nogil:
            for j in prange(m, num_threads=threads, schedule="dynamic", chunksize=4):
                g = &self.games[envs[j]]
                if g.ev != NULL:
                    g.ev.size = 0
                self._seed_env(envs[j], game_seeds[j], agent_seeds[j, 0], agent_seeds[j, 1])
                aa_start_game(self._P(envs[j]), g)
        self._check_events()

    def play_games(self, const uint64_t[::1] game_seeds, const uint64_t[:, ::1] agent_seeds,
                   const int8_t[:, ::1] kinds, int8_t[::1] winner, int8_t[::1] reason, int32_t[::1] turns,
                   int64_t[::1] decisions, int32_t[:, ::1] figures, bint record, int threads):
        """Game j (j < n) in env j: Game(spec, game_seeds[j]) played to its end, side p by native agent
        kinds[j, p] drawing from RandomAgent(agent_seeds[j, p])'s stream; then its winner (-1 draw),
        end reason (END_REASONS index), turn, decisions and figures per side. Returns each game's
        actions (int32 arrays) with `record`, else None. RuntimeError if an agent found no action in
        a running game; MemoryError if an action list could not grow."""
        cdef Py_ssize_t j, m = game_seeds.shape[0]
        cdef ActionLog* logs = NULL
        cdef int8_t[::1] bad = np.zeros(max(m, 1), dtype=np.int8)
        cdef int32_t[::1] arr
        if record:
            logs = <ActionLog*>calloc(max(m, 1), sizeof(ActionLog))
            if logs == NULL:
                raise MemoryError("record_actions: cannot allocate the action lists")
        try:
            with nogil:
                for j in prange(m, num_threads=threads, schedule="dynamic", chunksize=1):
                    bad[j] = self._play_one(j, game_seeds[j], agent_seeds[j, 0], agent_seeds[j, 1],
                                            kinds[j, 0], kinds[j, 1], &logs[j] if record else NULL,
                                            &winner[j], &reason[j], &turns[j], &decisions[j],
                                            &figures[j, 0])
            self._check_events()
            for j in range(m):
                if bad[j] == 1:
                    raise RuntimeError(f"game {j} (seed {game_seeds[j]}): a native agent found no legal "
                                       f"action in a running game")
                if bad[j] == 2:
                    raise MemoryError(f"record_actions: game {j}'s action list could not grow beyond "
                                      f"{logs[j].cap} actions (out of memory)")
            if not record:
                return None
            out = []
            for j in range(m):
                a = np.empty(logs[j].size, dtype=np.int32)
                arr = a
                if logs[j].size:
                    memcpy(&arr[0], logs[j].data, logs[j].size * sizeof(int32_t))
                out.append(a)
            return out
        finally:
            if logs != NULL:
                for j in range(m):
                    free(logs[j].data)
                free(logs)

    cdef int8_t _play_one(self, Py_ssize_t j, uint64_t gs, uint64_t s0, uint64_t s1, int k0, int k1,
                          ActionLog* log, int8_t* winner, int8_t* reason, int32_t* turns,
                          int64_t* decisions, int32_t* figures) noexcept nogil:
        """play_games' game j; 0, or 1 (an agent found no action), 2 (the action list is full)."""
        cdef Game* g = &self.games[j]
        cdef V v
        cdef int a
        cdef int8_t status = 0
        cdef int64_t d = 0
        if g.ev != NULL:
            g.ev.size = 0
        self._seed_env(j, gs, s0, s1)
        aa_start_game(self._P(j), g)
        while g.s[S_STAGE] != ST_OVER:
            a = self._agent_move(j, k1 if g.s[S_CUR] == 1 else k0)
            if a < 0:
                status = 1
                break
            if log != NULL and not _log_push(log, a):
                status = 2
                break
            aa_apply_action(self._P(j), g, a)
            d += 1
        make_view(self._P(j), g, &v)
        winner[0] = <int8_t>g.s[S_WINNER]
        reason[0] = <int8_t>g.s[S_REASON]
        turns[0] = g.s[S_TURN]
        decisions[0] = d
        figures[0] = aa_side_figures(&v, 0)
        figures[1] = aa_side_figures(&v, 1)
        return status

    def opponent_turns(self, const int8_t[::1] kinds, const int8_t[::1] learner, const uint8_t[::1] active,
                       float[:, ::1] obs, float[:, ::1] rewards, uint8_t[::1] ended, int8_t[::1] winner,
                       float[:, :, ::1] final, int64_t[::1] decisions, int threads, bint observe_all=True):
        """In each active env, native agent kinds[i] plays every decision until learner[i] is to move
        (learner[i] = -1: the side aa_learner_side draws from the game's seed, drawn again for a new game).
        A game that ends meanwhile sets ended[i], winner[i] and rewards[i] (Game.returns), is seen by
        both players in final[i], and the env goes on to its next episode with a decision (as restart)
        where the agent plays on. decisions[i] counts the agent's decisions; obs[i] is then the
        observation of the player to move (of every env, as step). Events: this call's only.
        Returns (-1, 0), or (env, OPP_*) for the first env that stopped early (the others completed)."""
        cdef Py_ssize_t i, n = self.n
        cdef int64_t[::1] ep = self.arrays["episode"]
        cdef int8_t[::1] why = np.zeros(n, dtype=np.int8)
        cdef Game* g
        cdef int a, cur, side
        with nogil:
            for i in prange(n, num_threads=threads, schedule="dynamic", chunksize=4):
                g = &self.games[i]
                side = learner[i] if learner[i] >= 0 else aa_learner_side(self.seed_w[i])
                rewards[i, 0] = 0.0
                rewards[i, 1] = 0.0
                ended[i] = 0
                winner[i] = -2
                decisions[i] = 0
                if g.ev != NULL:
                    g.ev.size = 0
                if active[i]:
                    while g.s[S_STAGE] != ST_OVER and g.s[S_CUR] != side:
                        a = self._agent_move(i, kinds[i])
                        if a < 0:
                            why[i] = _OPP_NO_ACTION
                            break
                        aa_apply_action(self._P(i), g, a)
                        decisions[i] += 1
                        if g.s[S_STAGE] == ST_OVER:
                            if ended[i]:
                                why[i] = _OPP_SECOND_END
                                break
                            ended[i] = 1
                            winner[i] = _score_end(g, &rewards[i, 0])
                            self._observe(i, 0, &final[i, 0, 0])
                            self._observe(i, 1, &final[i, 1, 0])
                            ep[i] += 1
                            if not self._start_decided(i, &ep[0]):
                                why[i] = _OPP_NO_DECISION
                                break
                            if learner[i] < 0:      # the new game's own side
                                side = aa_learner_side(self.seed_w[i])
                if observe_all:
                    cur = g.s[S_CUR] if g.s[S_STAGE] != ST_OVER else g.s[S_LAST]
                    self._observe(i, cur if cur >= 0 else 0, &obs[i, 0])
        self._check_events()
        for i in range(n):
            if why[i]:
                return i, why[i]
        return -1, 0

    def learner_sides(self, int8_t[::1] out):
        """out[i] = the side aa_learner_side draws from env i's game seed (player="random")."""
        cdef Py_ssize_t i
        for i in range(self.n):
            out[i] = <int8_t>aa_learner_side(self.seed_w[i])

    def events(self, int i):
        """Env i's event records since its last step/start (float64 array)."""
        if self.evs == NULL:
            raise ValueError("record_events: this VectorGame was built with record_events=False")
        if not 0 <= i < self.n:
            raise IndexError(f"i: {i} is not an env index; allowed 0..{self.n - 1}")
        cdef EventBuffer* e = &self.evs[i]
        out = np.empty(e.size, dtype=np.float64)
        cdef double[::1] o = out
        if e.size:
            memcpy(&o[0], e.data, e.size * sizeof(double))
        return out


cdef inline int8_t _score_end(Game* g, float* rewards) noexcept nogil:
    """The winner of g's finished game (-1: a draw); rewards[winner] = +1, rewards[loser] = -1."""
    cdef int w = g.s[S_WINNER]
    if w >= 0:
        rewards[w] = 1.0
        rewards[1 - w] = -1.0
    return <int8_t>w
