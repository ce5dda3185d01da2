# cython: language_level=3
"""Table 5 kernel over arrays of faces."""
from libc.stdint cimport int64_t, uint8_t

from aa_core.scores cimport Scores, action_scores


def action_scores_array(const int64_t[:, :] faces, const int64_t[:] posture, const int64_t[:] action,
                        const signed char[:, :, ::1] table5, int sprint_action,
                        int64_t[:, ::1] out):
    """out[i] = (attack0, attack1, defense, rally, spotting, sprint_bonus), -1 where not applicable."""
    cdef Py_ssize_t i, n = faces.shape[0]
    cdef Scores s
    with nogil:
        for i in range(n):
            action_scores(<int>faces[i, 0], <int>faces[i, 1], <int>faces[i, 2],
                          &table5[action[i], posture[i], 0], action[i] == sprint_action, &s)
            out[i, 0] = s.attack[0]
            out[i, 1] = s.attack[1]
            out[i, 2] = s.defense
            out[i, 3] = s.rally
            out[i, 4] = s.spotting
            out[i, 5] = s.sprint_bonus


def action_scores_scalar(int a, int b, int c, int posture, int action,
                         const signed char[:, :, ::1] table5, int sprint_action):
    """Scalar twin: (attack0, attack1, defense, rally, spotting, sprint_bonus), -1 = not applicable."""
    cdef Scores s
    action_scores(a, b, c, &table5[action, posture, 0], action == sprint_action, &s)
    return (s.attack[0], s.attack[1], s.defense, s.rally, s.spotting, s.sprint_bonus)
