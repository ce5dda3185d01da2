"""Pure-Python reference of the core kernels, written from RULES.md to be obviously right.

Same names and argument order as the public API; plain ints and tuples, no numpy in the rules
logic. Never fast: tests compare the kernels against these functions.
"""
from __future__ import annotations

import bisect
import itertools
import math

import numpy as np

from .._maths import sincos
from .._seeding import chunk_generators, seed_sequence
from ..enums import Action, Cover, Posture
from ..results import FireResult, Scatter, Scores
from ..rules import resolve_rules

__all__ = [
    "shift_die", "wounded_dice", "action_scores", "range_band", "predominant_cover",
    "effective_armor", "resolve_fire", "resolve_volley", "scatter", "roll_dice", "simulate_fire",
    "Word32Stream", "roll_faces", "fire_outcome_counts",
]

_ATTRS = ("training", "equipment", "morale")


def shift_die(die, steps, rules=None):
    """Sides of the die `steps` rungs down the ladder, or None below the bottom rung."""
    ladder = list(resolve_rules(rules).dice.ladder)
    i = ladder.index(int(die)) - steps
    return ladder[i] if i >= 0 else None


def wounded_dice(dice, wounds=0, vehicle=False, rules=None):
    """(dice after wound shifts, shattered?) with the shattered die floor."""
    rules = resolve_rules(rules)
    dice = [int(d) for d in dice]
    attr = rules.dice.wound_shift_vehicle if vehicle else rules.dice.wound_shift_infantry
    i = _ATTRS.index(attr)
    shifted = shift_die(dice[i], wounds, rules)
    dice[i] = rules.dice.shattered_die if shifted is None else shifted
    return tuple(dice), shifted is None


def action_scores(faces, posture, action, rules=None):
    """Table 5: sort the faces; the 'single' die is low or high by posture, the pair is the rest."""
    rules = resolve_rules(rules)
    low, mid, high = sorted(int(f) for f in faces)
    row = rules.table5[Action(action).name.lower()]
    which = row.offensive if Posture(posture) == Posture.OFFENSIVE else row.defensive
    single, pair = (low, (mid, high)) if which == "low" else (high, (low, mid))
    scores = {"attack": [], "defense": None, "rally": None, "spotting": None}
    for role, value in ((row.single, single), (row.pair, sum(pair))):
        if role == "attack":
            scores["attack"].append(value)
        else:
            scores[role] = value
    if row.pair == "attacks":
        scores["attack"] = [pair[0], pair[1]]
        scores["defense"] = single if row.single == "defense" else scores["defense"]
    return Scores(
        attacks=tuple(scores["attack"]),
        defense=scores["defense"],
        rally=scores["rally"],
        spotting=scores["spotting"],
        sprint_bonus=high if Action(action) == Action.SPRINT else None,
    )


def range_band(distance_cm, rules=None):
    """First band whose edge is >= the distance; beyond the stick: one past the last band."""
    edges = resolve_rules(rules).fire.band_edges_cm
    for band, edge in enumerate(edges, start=1):
        if distance_cm <= edge:
            return band
    return len(edges) + 1


def predominant_cover(start, in_transit, destination):
    """The middle of the three covers (e.g. Light, No, Heavy -> Light)."""
    return Cover(sorted([int(start), int(in_transit), int(destination)])[1])


def effective_armor(armor, cover=Cover.NONE, ap=0, rules=None):
    rules = resolve_rules(rules)
    return max(armor + rules.fire.cover_armor_bonus[int(cover)] + ap, rules.fire.armor_floor)


def resolve_fire(attack, range_band, defense, armor, cover=Cover.NONE, ap=0, vehicle=False,
                 rules=None):
    """RULES.md section 5: range threshold, damage threshold, markers and wounds of one attack."""
    rules = resolve_rules(rules)
    f = rules.fire
    range_threshold = range_band
    damage_threshold = range_band + defense
    if attack <= range_threshold:
        return FireResult(0, 0)
    if attack <= damage_threshold:
        return FireResult(f.vehicle_markers_beyond_range if vehicle else f.markers_beyond_range, 0)
    wounds = (attack - damage_threshold) // effective_armor(armor, cover, ap, rules)
    return FireResult(f.vehicle_markers_beyond_damage if vehicle else f.markers_beyond_damage, wounds)


def resolve_volley(target, attack, range_band, *, defense, armor, cover=0, ap=0, vehicle=False,
                   already=0, n_targets=None, rules=None):
    """Simultaneous attacks: per target, markers summed then capped per turn; wounds summed."""
    rules = resolve_rules(rules)
    target = [int(t) for t in target]
    m = len(target)

    def per(x, i, n):
        return x[i] if np.ndim(x) else x

    if n_targets is None:
        n_targets = max(target) + 1 if target else 0
    markers = [0] * n_targets
    wounds = [0] * n_targets
    for i in range(m):
        t = target[i]
        r = resolve_fire(int(per(attack, i, m)), int(per(range_band, i, m)), int(per(defense, t, n_targets)),
                         int(per(armor, t, n_targets)), int(per(cover, t, n_targets)), int(per(ap, i, m)),
                         bool(per(vehicle, t, n_targets)), rules)
        markers[t] += r.markers
        wounds[t] += r.wounds
    out = []
    for t in range(n_targets):
        cap = rules.fire.vehicle_turn_marker_cap if bool(per(vehicle, t, n_targets)) else rules.fire.turn_marker_cap
        room = max(cap - int(per(already, t, n_targets)), 0)
        out.append(min(markers[t], room))
    return out, wounds


def scatter(clock, distance, spotting, rules=None):
    """Offset = distance - spotting; < 0 a direct hit, else offset increments towards the clock,
    whose positions are the scatter die's faces."""
    cff = resolve_rules(rules).call_for_fire
    offset = distance - spotting
    if offset <= 0:
        return Scatter(0.0, 0.0, offset < 0)
    n = cff.scatter_die
    turn = (clock % n) * (2.0 * math.pi / n)
    angle = (turn if cff.clockwise else -turn) + math.radians(cff.clock_zero_deg)
    r = offset * cff.scatter_increment_cm
    s, c = sincos(angle)   # the engines' own: the same bits on every platform
    return Scatter(r * s, r * c, False)


class Word32Stream:
    """The 32-bit words a 64-bit numpy BitGenerator hands to C code through ``next_uint32``.

    numpy buffers each 64-bit output and returns its low half, then its high half. Reproducing it
    lets the reference consume exactly the kernel's stream (PCG64, Philox, SFC64).
    """

    def __init__(self, bit_generator):
        self.bg = bit_generator
        self.buffer = None

    def next(self) -> int:
        if self.buffer is not None:
            word, self.buffer = self.buffer, None
            return word
        raw = int(self.bg.random_raw())
        self.buffer = raw >> 32
        return raw & 0xFFFFFFFF


def roll_faces(stream: Word32Stream, sides):
    """Uniform faces 1..sides[i] from one 32-bit word each try (batched Lemire; see src/aa_core/csrc/aa_rng.h).

    Equivalent to: u = floor(word * P / 2**32) for P = prod(sides), rejected when
    (word * P) mod 2**32 < 2**32 mod P, then u written in mixed radix (first die most significant).
    """
    product = math.prod(sides)
    threshold = (2**32) % product
    while True:
        word = stream.next()
        value = word * product
        if value % 2**32 >= threshold:
            u = value >> 32
            faces = []
            for s in reversed(sides):
                u, f = divmod(u, s)
                faces.append(f + 1)
            return tuple(reversed(faces))


def roll_dice(dice, rng):
    """Faces for each row of dice, drawn as the kernel draws them (fresh 64-bit BitGenerator state)."""
    stream = Word32Stream(rng.bit_generator)
    return [roll_faces(stream, [int(s) for s in row]) for row in dice]


def fire_outcome_counts(shooter, target, *, shooter_posture, target_posture, range_band, armor,
                        shooter_action=Action.BASIC, target_action=Action.BASIC, cover=Cover.NONE, ap=0,
                        vehicle=False, rules=None):
    """{(capped markers, wounds): number of the equally likely rolls of the six dice giving it}."""
    rules = resolve_rules(rules)
    cap = rules.fire.vehicle_turn_marker_cap if vehicle else rules.fire.turn_marker_cap
    attacks, defenses = {}, {}
    for faces in itertools.product(*(range(1, int(d) + 1) for d in shooter)):
        atts = action_scores(faces, shooter_posture, shooter_action, rules).attacks
        if Action(shooter_action) == Action.SPLIT_FIRE:
            atts = (max(atts),)
        attacks[atts] = attacks.get(atts, 0) + 1
    for faces in itertools.product(*(range(1, int(d) + 1) for d in target)):
        d = action_scores(faces, target_posture, target_action, rules).defense
        defenses[d] = defenses.get(d, 0) + 1
    counts = {}
    for atts, ca in attacks.items():
        for d, cd in defenses.items():
            results = [resolve_fire(a, range_band, d, armor, cover, ap, vehicle, rules) for a in atts]
            key = (min(sum(r.markers for r in results), cap), sum(r.wounds for r in results))
            counts[key] = counts.get(key, 0) + ca * cd
    return counts


def simulate_fire(n, shooter, target, *, shooter_posture, target_posture, range_band, armor,
                  shooter_action=Action.BASIC, target_action=Action.BASIC, cover=Cover.NONE, ap=0,
                  vehicle=False, seed=None, threads=1, rules=None, chunk=1 << 16):
    """Engagement by engagement, from the same streams as the kernel: (markers list, wounds list).

    One 32-bit word per engagement: with the outcomes in (markers, wounds) order, their counts of
    the T equally likely rolls and q = 2**32 // T, a word w below T * q gives the outcome whose run
    of count * q consecutive words holds w; a word at or above T * q is rejected and the next drawn.
    """
    rules = resolve_rules(rules)
    counts = fire_outcome_counts(shooter, target, shooter_posture=shooter_posture,
                                 target_posture=target_posture, range_band=range_band, armor=armor,
                                 shooter_action=shooter_action, target_action=target_action,
                                 cover=cover, ap=ap, vehicle=vehicle, rules=rules)
    outcomes = sorted(counts)
    total = sum(counts.values())
    q = 2**32 // total
    ends = list(itertools.accumulate(counts[k] * q for k in outcomes))
    ss = seed_sequence(seed)
    n_chunks = -(-n // chunk)
    streams = [Word32Stream(bg) for bg in chunk_generators(ss, n_chunks)]
    markers, wounds = [], []
    for i in range(n):
        word = streams[i // chunk].next()
        while word >= total * q:
            word = streams[i // chunk].next()
        m, w = outcomes[bisect.bisect_right(ends, word)]
        markers.append(m)
        wounds.append(w)
    return markers, wounds
