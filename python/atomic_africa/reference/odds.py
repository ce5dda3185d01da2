"""Pure-Python reference of :mod:`atomic_africa.odds`: brute-force enumeration, exact Fractions.

Every function visits every face combination of every die involved (all six dice of an
engagement, nine for Split Fire, the spotter's three and the two scatter d12 for Call for Fire)
and scores each with :func:`reference.action_scores` / :func:`reference.resolve_fire` /
:func:`reference.scatter`. A side's scores depend only on its own faces, so they are computed once
per face triple and reused for every face combination of the other dice; nothing else is
factored. Slow on purpose: use small dice in tests.
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

from ..enums import Action, Cover
from ..rules import resolve_rules
from .core import action_scores, resolve_fire, scatter

__all__ = [
    "scores_pmf", "fire_outcomes", "split_fire_outcomes", "rally_probability",
    "call_for_fire_odds", "sprint_odds", "morale_recovery_probability", "expected_markers",
    "expected_wounds", "p_at_least_wounds", "p_at_least_markers", "fire_grid",
]


def _faces(dice):
    return product(*(range(1, int(s) + 1) for s in dice))


def _pmf(counter: Counter, total: int) -> dict:
    return {k: Fraction(c, total) for k, c in counter.items()}


def scores_pmf(dice, posture, action, *, rules=None):
    """(attacks, defense, rally, spotting, sprint_bonus) pmfs over all faces of three dice.

    ``attacks`` is keyed by the ``Scores.attacks`` tuple; a role the action lacks is ``None``.
    """
    rules = resolve_rules(rules)
    counters = [Counter() for _ in range(5)]
    for faces in _faces(dice):
        s = action_scores(faces, posture, action, rules)
        for c, value in zip(counters, (s.attacks, s.defense, s.rally, s.spotting, s.sprint_bonus)):
            c[value] += 1
    total = math.prod(int(d) for d in dice)
    out = []
    for c in counters:
        out.append(None if set(c) == {None} else _pmf(c, total))
    return tuple(out)


def _volley(attacks, band, defense, armor, cover, ap, vehicle, rules):
    """Markers summed then capped per turn, wounds summed (as reference.simulate_fire)."""
    results = [resolve_fire(a, band, defense, armor, cover, ap, vehicle, rules) for a in attacks]
    cap = rules.fire.vehicle_turn_marker_cap if vehicle else rules.fire.turn_marker_cap
    return min(sum(r.markers for r in results), cap), sum(r.wounds for r in results)


def fire_outcomes(shooter, target, *, shooter_posture, target_posture, range_band, armor,
                  shooter_action=Action.BASIC, target_action=Action.BASIC, cover=Cover.NONE, ap=0,
                  vehicle=False, rules=None):
    """{(markers, wounds): Fraction} over all faces of the shooter's and the target's six dice."""
    rules = resolve_rules(rules)
    split = Action(shooter_action) == Action.SPLIT_FIRE
    shooter_attacks = []
    for sf in _faces(shooter):
        attacks = action_scores(sf, shooter_posture, shooter_action, rules).attacks
        shooter_attacks.append((max(attacks),) if split else attacks)
    target_defense = [action_scores(tf, target_posture, target_action, rules).defense
                      for tf in _faces(target)]
    counts = Counter()
    for attacks in shooter_attacks:
        for defense in target_defense:
            counts[_volley(attacks, range_band, defense, armor, cover, ap, vehicle, rules)] += 1
    return _pmf(counts, len(shooter_attacks) * len(target_defense))


def split_fire_outcomes(shooter, declared, other, *, shooter_posture, rules=None):
    """(declared, other, joint) Fraction pmfs over all faces of the nine dice.

    ``declared`` and ``other`` are mappings with keys dice, posture, range_band, armor and
    optional action, cover, ap, vehicle; the declared target faces the higher Attack.
    """
    rules = resolve_rules(rules)
    tg = []
    for t in (declared, other):
        t = {**dict(action=Action.BASIC, cover=Cover.NONE, ap=0, vehicle=False), **dict(t)}
        defenses = [action_scores(f, t["posture"], t["action"], rules).defense
                    for f in _faces(t["dice"])]
        tg.append((t, defenses))
    (th, dh), (tl, dl) = tg
    joint = Counter()
    n = 0
    for sf in _faces(shooter):
        attacks = action_scores(sf, shooter_posture, Action.SPLIT_FIRE, rules).attacks
        hi, lo = max(attacks), min(attacks)
        # the other target's outcome for each of its face triples, given this shooter roll
        others = [_volley((lo,), tl["range_band"], d2, tl["armor"], tl["cover"], tl["ap"],
                          tl["vehicle"], rules) for d2 in dl]
        for d1 in dh:
            r1 = _volley((hi,), th["range_band"], d1, th["armor"], th["cover"], th["ap"],
                         th["vehicle"], rules)
            for r2 in others:
                joint[(r1, r2)] += 1
                n += 1
    dec, oth = Counter(), Counter()
    for (r1, r2), c in joint.items():
        dec[r1] += c
        oth[r2] += c
    return _pmf(dec, n), _pmf(oth, n), _pmf(joint, n)


def rally_probability(dice, posture, range_band, target_markers, *, los=True, comms=False,
                      self_rally=False, rules=None):
    """Fraction of face triples whose Rally score beats range + markers (0 without LOS or comms)."""
    rules = resolve_rules(rules)
    if self_rally:
        rng = rules.rally.self_range
    elif los:
        rng = range_band
    elif comms:
        rng = range_band + rules.rally.comms_range_penalty
    else:
        return Fraction(0)
    wins = total = 0
    for faces in _faces(dice):
        total += 1
        wins += action_scores(faces, posture, Action.RALLY, rules).rally > rng + target_markers
    return Fraction(wins, total)


def call_for_fire_odds(dice, posture, *, rules=None):
    """(P(direct hit), {(dx, dy): p}, {distance cm: p}) over the spotter's dice and the two d12."""
    rules = resolve_rules(rules)
    cff = rules.call_for_fire
    hits = 0
    offsets, radial = Counter(), Counter()
    n = 0
    for faces in _faces(dice):
        spotting = action_scores(faces, posture, Action.CALL_FOR_FIRE, rules).spotting
        for clock in range(1, cff.scatter_die + 1):
            for distance in range(1, cff.scatter_die + 1):
                s = scatter(clock, distance, spotting, rules)
                n += 1
                hits += s.direct_hit
                offsets[(s.dx, s.dy)] += 1
                radial[max(distance - spotting, 0) * cff.scatter_increment_cm] += 1
    return Fraction(hits, n), _pmf(offsets, n), _pmf(radial, n)


def sprint_odds(dice, posture, vehicle=False, *, rules=None):
    """({bonus: p}, {extra cm: p}): bonus = highest face, times the sprint increment."""
    rules = resolve_rules(rules)
    mv = rules.movement
    step = mv.vehicle_sprint_increment_cm if vehicle else mv.sprint_increment_cm
    bonus = Counter(action_scores(f, posture, Action.SPRINT, rules).sprint_bonus
                    for f in _faces(dice))
    total = sum(bonus.values())
    return _pmf(bonus, total), {b * step: Fraction(c, total) for b, c in bonus.items()}


def morale_recovery_probability(morale_die, markers, *, rules=None):
    """Fraction of Morale die faces above the markers (0 for a unit without markers)."""
    if markers == 0:
        return Fraction(0)
    return Fraction(sum(f > markers for f in range(1, int(morale_die) + 1)), int(morale_die))


def expected_markers(dist):
    return sum(p * m for (m, w), p in dist.items())


def expected_wounds(dist):
    return sum(p * w for (m, w), p in dist.items())


def p_at_least_wounds(dist, k):
    return sum(p for (m, w), p in dist.items() if w >= k)


def p_at_least_markers(dist, k):
    return sum(p for (m, w), p in dist.items() if m >= k)


def fire_grid(shooter, target, *, shooter_postures, target_postures, bands, covers, armors,
              shooter_action=Action.BASIC, target_action=Action.BASIC, ap=0, vehicle=False,
              rules=None):
    """Nested lists [sp][tp][band][cover][armor] of (P(>=1 marker), P(>=1 wound), E[m], E[w])."""
    out = []
    for sp in shooter_postures:
        row_sp = []
        for tp in target_postures:
            row_tp = []
            for b in bands:
                row_b = []
                for c in covers:
                    row_c = []
                    for a in armors:
                        d = fire_outcomes(shooter, target, shooter_posture=sp, target_posture=tp,
                                          range_band=b, armor=a, shooter_action=shooter_action,
                                          target_action=target_action, cover=c, ap=ap,
                                          vehicle=vehicle, rules=rules)
                        row_c.append((p_at_least_markers(d, 1), p_at_least_wounds(d, 1),
                                      expected_markers(d), expected_wounds(d)))
                    row_b.append(row_c)
                row_tp.append(row_b)
            row_sp.append(row_tp)
        out.append(row_sp)
    return out
