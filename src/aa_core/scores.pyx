# cython: language_level=3
"""Table 5 kernel over arrays of faces (the C core's csrc/aa_scores.h)."""
from libc.stdint cimport int16_t, int64_t

from aa_core.scores cimport Scores, action_scores


def action_scores_array(const int64_t[:, :] faces, const int64_t[:] posture, const int64_t[:] action,
                        const signed char[:, :, ::1] table5, int sprint_action,
                        int16_t[:, ::1] attacks, int16_t[::1] defense, int16_t[::1] rally,
                        int16_t[::1] spotting, int16_t[::1] sprint_bonus):
    """Scores of every roll into the output arrays, -1 where the action has no such score."""
    cdef Py_ssize_t i, n = faces.shape[0]
    cdef Scores s
    with nogil:
        for i in range(n):
            action_scores(<int>faces[i, 0], <int>faces[i, 1], <int>faces[i, 2],
                          &table5[action[i], posture[i], 0], action[i] == sprint_action, &s)
            attacks[i, 0] = <int16_t>s.attack[0]
            attacks[i, 1] = <int16_t>s.attack[1]
            defense[i] = <int16_t>s.defense
            rally[i] = <int16_t>s.rally
            spotting[i] = <int16_t>s.spotting
            sprint_bonus[i] = <int16_t>s.sprint_bonus


def action_scores_scalar(int a, int b, int c, int posture, int action,
                         const signed char[:, :, ::1] table5, int sprint_action):
    """Scalar twin: (attack0, attack1, defense, rally, spotting, sprint_bonus), -1 = not applicable."""
    cdef Scores s
    action_scores(a, b, c, &table5[action, posture, 0], action == sprint_action, &s)
    return (s.attack[0], s.attack[1], s.defense, s.rally, s.spotting, s.sprint_bonus)
