# cython: language_level=3
"""One game on the C core, for atomic_africa.game.Game: the decision path (legal actions, apply,
observation, mask, the native agents) straight into C, without numpy or a batch loop per call.

A `Handle` wraps env 0 of an aa_core.vbatch.Engine (its storage: state arrays, event buffer,
random stream) through the Engine's capsules, and keeps the Engine alive. Nothing here checks an
action: Game checks it with `is_legal` (or the sorted list of `legal`) first.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from aa_core.pcg cimport PCG_WORDS, aa_pcg_bitgen
from aa_core.rng cimport aa_bitgen
from aa_core.vgame cimport *

import numpy as np


cdef void _sort(int* a, int n) noexcept nogil:
    """Insertion sort: legal lists are short and nearly ascending."""
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef class Handle:
    """The C state of one game (env 0 of `engine`, an aa_core.vbatch.Engine with one env)."""

    cdef object engine
    cdef const Params* P
    cdef Game* g
    cdef int* buf
    cdef int n_legal       # legal ids in buf (sorted), valid while fresh
    cdef bint fresh
    cdef AgentParams ap
    cdef uint64_t words[PCG_WORDS]

    def __cinit__(self, engine):
        self.engine = engine
        self.P = <const Params*>PyCapsule_GetPointer(engine.c_params(0), "aa_core.vgame.Params")
        self.g = <Game*>PyCapsule_GetPointer(engine.c_game(0), "aa_core.vgame.Game")
        self.buf = <int*>malloc((self.P.n_actions + 1) * sizeof(int))
        if self.buf == NULL:
            raise MemoryError("cannot allocate the legal-action list")
        self.fresh = False

    def __dealloc__(self):
        free(self.buf)

    cdef inline void _legal(self) noexcept:
        if not self.fresh:
            self.n_legal = aa_legal_actions(self.P, self.g, self.buf) if self.g.s[S_STAGE] != ST_OVER else 0
            _sort(self.buf, self.n_legal)
            self.fresh = True

    def legal(self):
        """Sorted legal action ids (a new list; empty once the game is over)."""
        self._legal()
        return [self.buf[k] for k in range(self.n_legal)]

    def is_legal(self, int a):
        """Whether action id a (in range) is legal now."""
        if self.g.s[S_STAGE] == ST_OVER:
            return False
        return aa_is_legal(self.P, self.g, a) != 0

    def try_apply(self, int a):
        """Apply action id a if it is legal now (checked against the sorted legal list when it is
        at hand, else by aa_is_legal) and run to the next decision; False (nothing changed) if not."""
        cdef int lo, hi, mid
        if a < 0 or a >= self.P.n_actions or self.g.s[S_STAGE] == ST_OVER:
            return False
        if self.fresh:
            lo, hi = 0, self.n_legal
            while lo < hi:
                mid = (lo + hi) >> 1
                if self.buf[mid] < a:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == self.n_legal or self.buf[lo] != a:
                return False
        elif not aa_is_legal(self.P, self.g, a):
            return False
        aa_apply_action(self.P, self.g, a)
        self.fresh = False
        return True

    def apply(self, int a):
        """Apply action id a, which must be legal (is_legal), and run to the next decision."""
        aa_apply_action(self.P, self.g, a)
        self.fresh = False

    def mask(self, uint8_t[::1] out):
        """out[a] = 1 at the legal ids (out zeroed by the caller)."""
        cdef int k
        self._legal()
        for k in range(self.n_legal):
            out[self.buf[k]] = 1

    def observe(self, int player, float[::1] out):
        """What player may see, into out (obs_size floats)."""
        aa_observe(self.P, self.g, player, &out[0])

    def start(self):
        """aa_start_game from the stream already in the state's rng words; the event buffer emptied."""
        if self.g.ev != NULL:
            self.g.ev.size = 0
        aa_start_game(self.P, self.g)
        self.fresh = False

    def records_from(self, Py_ssize_t start):
        """The event records (float64) logged from position `start` on."""
        cdef Py_ssize_t n
        cdef double[::1] o
        if self.g.ev == NULL or start >= self.g.ev.size:
            return np.empty(0, dtype=np.float64)
        if self.g.ev.failed:
            raise MemoryError("events: a record could not be stored (out of memory)")
        n = self.g.ev.size - start
        out = np.empty(n, dtype=np.float64)
        o = out
        memcpy(&o[0], self.g.ev.data + start, n * sizeof(double))
        return out

    def records_size(self):
        """Event-record values logged so far."""
        return 0 if self.g.ev == NULL else self.g.ev.size

    def touched(self):
        """The state was changed from outside (loaded, determinized): drop the cached legal list."""
        self.fresh = False

    @property
    def over(self):
        """Whether the game is over."""
        return self.g.s[S_STAGE] == ST_OVER

    @property
    def cur(self):
        """The player to move, -1 once the game is over."""
        return -1 if self.g.s[S_STAGE] == ST_OVER else self.g.s[S_CUR]

    def scalar(self, int k):
        """Scalar k of the state (schema.SCALARS order)."""
        return self.g.s[k]

    def set_agent_params(self, dict d):
        """The native agents' parameters (AgentParams fields by name)."""
        self.ap = d

    def agent_action(self, int kind, uint64_t[::1] words):
        """The action native agent `kind` plays now, drawing from the PCG64 state `words` (updated
        in place); -1 if none is legal."""
        cdef aa_bitgen bg
        cdef int k, a
        if words.shape[0] != PCG_WORDS:
            raise ValueError(f"words: expected {PCG_WORDS} PCG64 state words, got {words.shape[0]}")
        for k in range(PCG_WORDS):
            self.words[k] = words[k]
        aa_pcg_bitgen(self.words, &bg)
        a = aa_agent_choose(self.P, self.g, kind, &self.ap, &bg)
        for k in range(PCG_WORDS):
            words[k] = self.words[k]
        return a

    def determinize(self, int player):
        """aa_determinize: resample what `player` cannot see (the game's stream draws)."""
        aa_determinize(self.P, self.g, player)
        self.fresh = False
