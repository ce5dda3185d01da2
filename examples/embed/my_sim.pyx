# cython: language_level=3
"""Example of embedding: another simulator's Cython module calling atomic-africa's C-level API.

Build (see build.py): cythonize with include path [aa_core.get_include(), numpy.get_include()].
Everything below runs without the GIL and without Python objects in the loop.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t

from aa_core.banding cimport range_band
from aa_core.dice cimport shift_die
from aa_core.fire cimport FireRules, cap_markers, predominant_cover, resolve_fire
from aa_core.scores cimport Scores, action_scores
from aa_core.vgame cimport (MAX_LEGAL, S_STAGE, ST_OVER, Game, Params, apply_action, check_abi,
                            legal_actions)

# Fail at import, naming both versions, if aa_core was rebuilt with another C layout since this
# module was compiled (a struct read at the wrong offsets would corrupt memory instead).
check_abi(__name__)


def duel(const int64_t[:, ::1] shooter_faces, const int64_t[:, ::1] target_faces,
         const double[::1] distances, const double[::1] edges,
         const signed char[:, :, ::1] table5, int posture_shooter, int posture_target,
         int armor, int cover, FireRules rules, int64_t[:, ::1] out):
    """Basic-action fire for rows of pre-rolled faces: out[i] = (band, markers, wounds)."""
    cdef Py_ssize_t i, n = distances.shape[0]
    cdef Scores s, t
    cdef int band, w, m
    with nogil:
        for i in range(n):
            action_scores(<int>shooter_faces[i, 0], <int>shooter_faces[i, 1], <int>shooter_faces[i, 2],
                          &table5[0, posture_shooter, 0], 0, &s)
            action_scores(<int>target_faces[i, 0], <int>target_faces[i, 1], <int>target_faces[i, 2],
                          &table5[0, posture_target, 0], 0, &t)
            band = range_band(distances[i], &edges[0], <int>edges.shape[0])
            m = resolve_fire(s.attack[0], band, t.defense, armor, cover, 0, 0, &rules, &w)
            out[i, 0] = band
            out[i, 1] = cap_markers(m, 0, 0, &rules)
            out[i, 2] = w


def median_cover(int a, int b, int c):
    return predominant_cover(a, b, c)


def shifted(int sides, int steps, const int64_t[::1] ladder):
    return shift_die(sides, steps, &ladder[0], <int>ladder.shape[0])


def play_lowest_legal(object vector_game, int env, int max_decisions):
    """Drive one game of a VectorGame from C: always take the lowest legal action id.

    The Params and Game views come from the engine's capsules; returns the decisions made.
    """
    cdef const Params* P = <const Params*>PyCapsule_GetPointer(vector_game.c_params(), "aa_core.vgame.Params")
    cdef Game* g = <Game*>PyCapsule_GetPointer(vector_game.c_game(env), "aa_core.vgame.Game")
    cdef int buf[MAX_LEGAL]
    cdef int k = 0, n, j, best
    with nogil:
        while k < max_decisions and g.s[S_STAGE] != ST_OVER:
            n = legal_actions(P, g, buf)
            best = buf[0]
            for j in range(1, n):
                if buf[j] < best:
                    best = buf[j]
            apply_action(P, g, best)
            k += 1
    return k
