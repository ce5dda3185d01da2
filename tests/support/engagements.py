"""Test helpers: exact enumeration of engagements and goodness-of-fit checks."""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
from scipy import stats

import atomic_africa as aa
from atomic_africa import reference as ref


def side_pmf(dice, posture, action, key):
    """Exact pmf of ``key(scores)`` over all faces of three dice, by enumeration."""
    counts = Counter()
    for faces in itertools.product(*(range(1, int(d) + 1) for d in dice)):
        counts[key(ref.action_scores(faces, posture, action))] += 1
    total = sum(counts.values())
    return {k: Fraction(c, total) for k, c in counts.items()}


def exact_engagement(shooter, target, *, shooter_posture, target_posture, range_band, armor,
                     shooter_action=aa.Action.BASIC, target_action=aa.Action.BASIC,
                     cover=aa.Cover.NONE, ap=0, vehicle=False):
    """Exact (markers, wounds) distribution of one engagement, written straight from RULES.md."""
    rules = aa.Rules.default()
    attacks = side_pmf(shooter, shooter_posture, shooter_action, lambda s: s.attacks)
    defense = side_pmf(target, target_posture, target_action, lambda s: s.defense)
    cap = rules.fire.vehicle_turn_marker_cap if vehicle else rules.fire.turn_marker_cap
    out = Counter()
    for atts, pa in attacks.items():
        if shooter_action == aa.Action.SPLIT_FIRE:
            atts = (max(atts),)
        for d, pd in defense.items():
            results = [ref.resolve_fire(a, range_band, d, armor, cover, ap, vehicle) for a in atts]
            key = (min(sum(r.markers for r in results), cap), sum(r.wounds for r in results))
            out[key] += pa * pd
    return dict(out)


def chi_square_gof(observed: Counter, expected: dict, n: int, min_expected: float = 5.0):
    """Chi-square p-value of observed counts against exact probabilities, pooling small cells."""
    keys = sorted(expected, key=lambda k: float(expected[k]))
    obs, exp = [], []
    pool_o = pool_e = 0.0
    for k in keys:
        e = float(expected[k]) * n
        if e < min_expected:
            pool_o += observed.get(k, 0)
            pool_e += e
        else:
            obs.append(observed.get(k, 0))
            exp.append(e)
    if pool_e > 0:
        if pool_e < min_expected and obs:
            # Too small to stand alone: merge into the smallest regular cell.
            obs[0] += pool_o
            exp[0] += pool_e
        else:
            obs.append(pool_o)
            exp.append(pool_e)
    extra = set(observed) - set(expected)
    assert not extra, f"sampled impossible outcomes {sorted(extra)}"
    obs, exp = np.array(obs, float), np.array(exp, float)
    exp *= obs.sum() / exp.sum()
    return stats.chisquare(obs, exp).pvalue
