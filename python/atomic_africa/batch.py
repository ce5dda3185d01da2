"""Array entry points: one validation pass, one kernel call, GIL released inside.

Every function broadcasts scalar arguments against arrays (without copying them) and returns new
arrays of the broadcast shape.
"""
from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

from aa_core import banding as _band
from aa_core import dice as _dice
from aa_core import fire as _fire
from aa_core import scores as _scores
from aa_core import simulate as _sim

from . import _validate as v
from ._limits import MAX_VALUE
from ._seeding import generator, seed_sequence
from ._batch_core import _n_bands, engagement_args, scatter
from .enums import Action, Cover, Die, Posture
from .results import FireResult
from .rules import resolve_rules

__all__ = [
    "range_band", "resolve_fire", "resolve_volley", "predominant_cover", "action_scores",
    "shift_dice", "wounded_dice", "roll_dice", "scatter", "simulate_fire", "ScoresArrays", "SIMULATE_CHUNK",
]

#: Engagements per random stream in :func:`simulate_fire`; part of the reproducibility contract.
SIMULATE_CHUNK = 1 << 16


def range_band(distances, rules=None) -> np.ndarray:
    """Range band of every distance (int8; 1..9 with the packaged stick), same shape.

    Parameters
    ----------
    distances : array_like of float
        Distances in cm; NaN, inf or negative values are rejected (the error names the element).
    rules : Rules, optional
        ``rules.fire.band_edges_cm`` is the stick.
    """
    rules = resolve_rules(rules)
    d = v.float_array(distances, "distances")
    flat = d.reshape(-1)
    out = np.empty(flat.shape[0], dtype=np.int8)
    bad = _band.range_band_array(flat, rules.band_edges, out)
    if bad >= 0:
        raise ValueError(f"distances: element {bad} is {float(flat[bad])!r}; allowed: finite values >= 0 cm")
    return out.reshape(d.shape)


def resolve_fire(attack, range_band, defense, armor, cover=0, ap=0, vehicle=False, rules=None):
    """Markers (before the per-turn cap) and wounds of many independent attacks.

    Parameters
    ----------
    attack : array_like of int
        Attack scores, ``>= 0``.
    range_band : array_like of int
        Range bands, 1..9 with the packaged stick.
    defense : array_like of int
        Targets' Defense scores, ``>= 0``.
    armor : array_like of int
        Targets' printed armor, ``>= 1``.
    cover : array_like of Cover
        Predominant cover, 0..2 or names.
    ap : array_like of int
        Armor penetration of an eligible heavy weapon, ``<= 0``.
    vehicle : array_like of bool
        Targets that are vehicles.
    rules : Rules, optional

    All arguments broadcast together (scalars are not copied); meanings as in
    :func:`atomic_africa.resolve_fire`.

    Returns
    -------
    FireResult of arrays
        ``(markers, wounds)``: int8 markers (before the per-turn cap) and int32 wounds.
    """
    rules = resolve_rules(rules)
    if type(attack) is int:   # one attack of plain ints: the scalar kernel, no arrays to validate
        r = _fire_kernel(rules).resolve(attack, range_band, defense, armor, cover, ap, vehicle)
        if r is not None:
            return _tuple_new(FireResult, (np.array(r[0], dtype=np.int8), np.array(r[1], dtype=np.int32)))
    arrays = dict(
        attack=v.int_array(attack, "attack"),
        range_band=v.int_array(range_band, "range_band"),
        defense=v.int_array(defense, "defense"),
        armor=v.int_array(armor, "armor"),
        cover=v.codes(cover, Cover, "cover"),
        ap=v.int_array(ap, "ap"),
        vehicle=v.bool_array(vehicle, "vehicle"),
    )
    flat, shape = v.broadcast(**arrays)
    n = flat[0].shape[0]
    markers = np.empty(n, dtype=np.int8)
    wounds = np.empty(n, dtype=np.int32)
    # The kernel counts out-of-domain elements in its single pass; only then name the culprit.
    if _fire.resolve_fire_array(*flat, _n_bands(rules), rules.fire_params, markers, wounds):
        for name, lo, hi in (("attack", 0, None), ("range_band", 1, _n_bands(rules)),
                             ("defense", 0, None), ("armor", 1, None), ("cover", 0, 2), ("ap", None, 0)):
            v.check_range(arrays[name], name, lo=lo, hi=hi)
            v.check_range(arrays[name], name, lo=-MAX_VALUE if lo is None else None,
                          hi=MAX_VALUE if hi is None else None)
        raise AssertionError("kernel and validation disagree")  # pragma: no cover
    return FireResult(markers.reshape(shape), wounds.reshape(shape))


def resolve_volley(target, attack, range_band, *, defense, armor, cover=0, ap=0, vehicle=False,
                   already=0, n_targets=None, rules=None):
    """Resolve simultaneous attacks on several targets with the per-turn marker cap.

    The fused call of an agent-based model's step: every attack of the step (on any of the targets)
    in one call, each target's markers capped once. Lists of plain ints (up to 256 attacks) are
    resolved without converting them to arrays (a one-element call costs about 2 us); arrays of any
    length go through the kernel with the GIL released.

    Parameters
    ----------
    target : array of int
        Target index (0..n_targets-1) of each attack.
    attack, range_band, ap : array or scalar
        Per attack: Attack score, range band, armor penetration (<= 0).
    defense, armor, cover, vehicle, already : array or scalar
        Per target: Defense score, armor, predominant cover, vehicle flag, and markers the target
        already received this turn (the cap counts them).
    n_targets : int, optional
        Number of targets; inferred from the per-target arrays or ``max(target) + 1``.

    Returns
    -------
    FireResult of int64 arrays, length n_targets
        New markers after the cap (infantry 2, vehicles 1 per turn, rules data) and summed wounds.
    """
    rules = resolve_rules(rules)
    if type(target) is list and len(target) <= _SMALL_VOLLEY:
        # A few attacks given as lists of plain ints (an agent-based model's step): validated and
        # resolved in one pass over the lists; anything else takes the array path below.
        r = _fire_kernel(rules).volley(target, attack, range_band, ap, defense, armor, cover, vehicle,
                                       already, n_targets)
        if r is not None:
            return _tuple_new(FireResult, r)
    tgt = v.int_array(target, "target")
    if tgt.ndim != 1:
        raise ValueError(f"target: expected a 1-D array, got shape {tgt.shape}")
    per_target = dict(
        defense=v.int_array(defense, "defense"),
        armor=v.int_array(armor, "armor"),
        cover=v.codes(cover, Cover, "cover"),
        vehicle=v.bool_array(vehicle, "vehicle"),
        already=v.int_array(already, "already"),
    )
    given = n_targets is not None
    if not given:
        sizes = {a.shape[0] for a in per_target.values() if a.ndim == 1}
        n_targets = sizes.pop() if len(sizes) == 1 else (int(tgt.max()) + 1 if tgt.size else 0)
    n_targets = v.as_int(n_targets, "n_targets", lo=0)
    for name, a in per_target.items():
        if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != n_targets):
            raise ValueError(f"{name}: expected a scalar or length {n_targets} (n_targets), got shape {a.shape}")
    v.check_range(tgt, "target", lo=0)
    if tgt.size and int(tgt.max()) >= n_targets:
        # an explicit n_targets is the likelier slip; an inferred one came from the per-target arrays
        top = int(tgt.max())
        if given:
            raise ValueError(v.out_of_range("n_targets", n_targets, f">= {top + 1} (target holds {top})"))
        raise ValueError(v.out_of_range("target", f"value {top}", f"0..{n_targets - 1} (the per-target arrays "
                                        f"hold {n_targets} targets)" if n_targets else
                                        "none: the per-target arrays are empty (no targets)"))
    v.check_range(per_target["defense"], "defense", lo=0, hi=MAX_VALUE)
    v.check_range(per_target["armor"], "armor", lo=1, hi=MAX_VALUE)
    v.check_range(per_target["cover"], "cover", lo=0, hi=2)
    v.check_range(per_target["already"], "already", lo=0, hi=MAX_VALUE)
    per_attack = dict(target=tgt, attack=v.int_array(attack, "attack"),
                      range_band=v.int_array(range_band, "range_band"), ap=v.int_array(ap, "ap"))
    v.check_range(per_attack["attack"], "attack", lo=0, hi=MAX_VALUE)
    v.check_range(per_attack["range_band"], "range_band", lo=1, hi=_n_bands(rules))
    v.check_range(per_attack["ap"], "ap", lo=-MAX_VALUE, hi=0)
    (tgt_, att, band, ap_), shape = v.broadcast(**per_attack)
    if len(shape) != 1 or shape[0] != tgt.shape[0]:
        raise ValueError(f"attack/range_band/ap: must be scalars or match target's length {tgt.shape[0]}")
    pt = [np.broadcast_to(a, (n_targets,)) for a in per_target.values()]
    # checked before allocating: numpy's own MemoryError names neither n_targets nor what would fit
    markers, wounds = v.allocate(n_targets, (np.int64, np.int64), "n_targets", "targets", _fits(16, "targets"))
    _fire.resolve_volley(tgt_, att, band, ap_, *pt, rules.fire_params, markers, wounds)
    return FireResult(markers, wounds)


def _fits(each: int, what: str) -> str:
    """``"at most about N <what> fit"`` for items of ``each`` bytes in the memory available now."""
    avail = v.available_memory()
    return "" if avail is None else f"at most about {avail // each:,} {what} fit"


#: Longest ``target`` list :func:`resolve_volley` resolves without converting it to arrays.
_SMALL_VOLLEY = 256


def _fire_kernel(rules):
    """The rules' FireKernel (its fire rules as a C struct), made once per Rules object."""
    memo = _TABLE_MEMOS.get(id(rules)) or _table_memo(rules)
    k = memo.get("fire_kernel")
    if k is None:
        k = memo["fire_kernel"] = _fire.FireKernel(rules.fire_params, _n_bands(rules))
    return k


def predominant_cover(start, in_transit, destination) -> np.ndarray:
    """Predominant cover of many targets: the middle of their three covers.

    Parameters
    ----------
    start, in_transit, destination : array_like of Cover
        Cover at each target's Start, In-transit and Destination points (0..2 or names), broadcast.

    Returns
    -------
    ndarray of int8
        0 (No), 1 (Light) or 2 (Heavy), the broadcast shape.
    """
    arrays = {name: v.enum_array(a, Cover, name) for name, a in
              (("start", start), ("in_transit", in_transit), ("destination", destination))}
    flat, shape = v.broadcast(**arrays)
    out = np.empty(flat[0].shape[0], dtype=np.int8)
    _fire.predominant_cover_array(*flat, out)
    return out.reshape(shape)


class ScoresArrays(NamedTuple):
    """Table 5 scores for many rolls (int16 arrays, -1 where the action has no such score)."""

    attacks: np.ndarray       # shape (..., 2): [:, 0] the only/lower attack, [:, 1] the higher of two
    defense: np.ndarray
    rally: np.ndarray
    spotting: np.ndarray
    sprint_bonus: np.ndarray


def action_scores(faces, posture, action, rules=None) -> ScoresArrays:
    """Table 5 scores of many rolls of three dice.

    Parameters
    ----------
    faces : array_like of int, shape (..., 3)
        Rolled faces, 1..12, any order within a roll.
    posture, action : Posture, Action or arrays of them (or names)
        Broadcast against the rolls ``faces.shape[:-1]``.
    rules : Rules, optional
        Table 5 reading; the packaged defaults if omitted.

    Returns
    -------
    ScoresArrays
        int16 arrays shaped like the rolls (``attacks`` with a last axis of 2: the only or lower
        attack, then the higher of two); -1 where the action has no such score.
    """
    rules = resolve_rules(rules)
    f = v.int_array(faces, "faces")
    if f.ndim < 1 or f.shape[-1] != 3:
        raise ValueError(f"faces: expected shape (..., 3), got {f.shape}")
    v.check_range(f, "faces", lo=1, hi=12)
    p = v.enum_array(posture, Posture, "posture")
    a = v.enum_array(action, Action, "action")
    lead = f.shape[:-1]
    try:
        shape = np.broadcast_shapes(lead, p.shape, a.shape)
    except ValueError:
        raise ValueError(f"shape mismatch: faces{f.shape} (rolls {lead}), posture{p.shape}, "
                         f"action{a.shape}") from None
    if shape != lead:
        raise ValueError(f"posture/action: shape {shape} does not fit the rolls of faces {lead}")
    p_ = np.broadcast_to(p, lead).reshape(-1)
    a_ = np.broadcast_to(a, lead).reshape(-1)
    ff = f.reshape(-1, 3)
    n = ff.shape[0]
    out = ScoresArrays(np.empty((n, 2), np.int16), *(np.empty(n, np.int16) for _ in range(4)))
    _scores.action_scores_array(ff, p_, a_, rules.table5_array, int(Action.SPRINT), *out)
    return ScoresArrays(out.attacks.reshape(lead + (2,)),
                        *(a.reshape(lead) for a in out[1:]))


def shift_dice(dice, steps, rules=None) -> np.ndarray:
    """Dice shifted down the ladder, many at once.

    Parameters
    ----------
    dice : array_like of int
        Sides of each die (on the rules' ladder).
    steps : array_like of int
        Shifts, ``>= 0``; broadcast against ``dice``.
    rules : Rules, optional

    Returns
    -------
    ndarray of int64
        The shifted sides; 0 where a die falls below the ladder.
    """
    rules = resolve_rules(rules)
    d = v.int_array(dice, "dice")
    s = v.int_array(steps, "steps")
    v.check_range(s, "steps", lo=0, hi=MAX_VALUE)
    flat, shape = v.broadcast(dice=d, steps=s)
    out = np.empty(flat[0].shape[0], dtype=np.int64)
    bad = _dice.shift_dice(flat[0], flat[1], np.array(rules.dice.ladder, dtype=np.int64), out)
    if bad >= 0:
        raise ValueError(f"dice: element {bad} is d{flat[0][bad]}, not on the ladder "
                         f"{[f'd{s}' for s in rules.dice.ladder]}")
    return out.reshape(shape)


def wounded_dice(dice, wounds=0, vehicle=False, rules=None):
    """Dice many units roll after their wound shifts, and which units are shattered.

    Parameters
    ----------
    dice : array of int, shape (n, 3)
        Training, Equipment, Morale sides of each unit.
    wounds : int or array of int, shape (n,)
        Wound counters (>= 0); each shifts Morale one type lower (Equipment for vehicles).
    vehicle : bool or array of bool, shape (n,)

    Returns
    -------
    (dice, shattered) : int64 array (n, 3) and bool array (n,)
        A die shifted below the ladder rolls as ``rules.dice.shattered_die`` until Clean-up.
    """
    rules = resolve_rules(rules)
    d = v.int_array(dice, "dice")
    if d.ndim != 2 or d.shape[1] != 3:
        raise ValueError(f"dice: expected shape (n, 3), got {d.shape}")
    n = d.shape[0]
    w = v.int_array(wounds, "wounds")
    veh = v.bool_array(vehicle, "vehicle")
    v.check_range(w, "wounds", lo=0, hi=MAX_VALUE)
    for name, a in (("wounds", w), ("vehicle", veh)):
        if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != n):
            raise ValueError(f"{name}: expected a scalar or length {n} (rows of dice), got shape {a.shape}")
    attrs = ("training", "equipment", "morale")
    out = np.empty((n, 3), dtype=np.int64)
    shattered = np.empty(n, dtype=np.int8)
    ladder = np.array(rules.dice.ladder, dtype=np.int64)
    bad = _dice.wounded_dice_array(d, np.broadcast_to(w, (n,)), np.broadcast_to(veh, (n,)), ladder,
                                   attrs.index(rules.dice.wound_shift_infantry),
                                   attrs.index(rules.dice.wound_shift_vehicle),
                                   rules.dice.shattered_die, out, shattered)
    if bad >= 0:
        raise ValueError(f"dice: row {bad} is {d[bad].tolist()}, not dice of the ladder "
                         f"{list(rules.dice.ladder)}")
    return out, shattered.view(bool)


def roll_dice(dice, rng=None) -> np.ndarray:
    """Roll many units' dice at once: ``dice`` of shape (n, k) sides -> faces (uint8, same shape).

    Parameters
    ----------
    dice : array of int, shape (n, k) or (k,)
        Sides of each die (4, 6, 8, 10 or 12); one row per unit, typically k = 3.
    rng : numpy.random.Generator or seed
        Drawn through the generator's C API under its lock; an int or None makes a PCG64 Generator.
    """
    d = v.int_array(dice, "dice")
    if d.ndim not in (1, 2) or d.shape[-1] < 1 or d.shape[-1] > 6:
        raise ValueError(f"dice: expected shape (n, k) with 1 <= k <= 6, got {d.shape}")
    g = generator(rng)
    d2 = np.ascontiguousarray(d.reshape(-1, d.shape[-1]))
    faces = np.empty(d2.shape, dtype=np.uint8)
    bad = _dice.roll_dice(g.bit_generator, d2, faces, _DIE_SIDES_MASK)
    if bad >= 0:
        raise ValueError(f"dice: {int(d2.reshape(-1)[bad])} is not a die; allowed sides {[int(x) for x in Die]}")
    return faces.reshape(d.shape)


#: Bit s set for each die of s sides: the kernel's one-pass check of roll_dice's dice.
_DIE_SIDES_MASK = sum(1 << int(x) for x in Die)


def simulate_fire(n, shooter, target, *, shooter_posture, target_posture, range_band, armor,
                  shooter_action=Action.BASIC, target_action=Action.BASIC, cover=Cover.NONE, ap=0,
                  vehicle=False, seed=None, threads=1, rules=None):
    """Roll and resolve ``n`` independent engagements of one shooter against one target.

    Each engagement: the shooter rolls its three dice and scores its Attack(s) by Table 5 for
    ``shooter_action``/``shooter_posture``; the target rolls its three dice for its Defense
    (``target_action``/``target_posture``); the attack(s) are resolved at ``range_band`` against
    ``armor``, ``cover`` and ``ap``. Mass Fire's two attacks are one volley: markers summed and capped
    per turn (2 infantry, 1 vehicle), wounds summed. For Split Fire this target is the one declared
    to face the higher Attack, and only that attack is resolved here.

    Parameters
    ----------
    n : int
        Number of engagements, ``>= 0``; ``n`` whose output (3 bytes each) exceeds the memory
        available is refused with a MemoryError naming ``n`` and the memory needed.
    shooter, target : three Die
        Dice after wound shifts (e.g. ``(aa.Die.D10, aa.Die.D10, aa.Die.D8)`` or ``"d10,d10,d8"``).
    shooter_posture, target_posture : Posture
        Postures of the two order cards (``OFFENSIVE`` Hearts/Diamonds, ``DEFENSIVE`` Clubs/Spades).
    range_band : int
        Range band, 1..9 with the packaged stick.
    armor : int
        Target's printed armor, ``>= 1``.
    shooter_action : Action
        An action with an attack: BASIC, SPRINT, HEAVY_WEAPON, MASS_FIRE, SPLIT_FIRE or DIG_IN.
    target_action : Action
        The target's own action, which decides how its Defense is scored.
    cover : Cover
        Target's predominant cover.
    ap : int
        Armor penetration (``<= 0``) of an eligible heavy weapon, else 0.
    vehicle : bool
        The target is a vehicle (vehicle marker rule and per-turn cap).
    seed : None, int, SeedSequence or Generator
        Engagements ``[c*SIMULATE_CHUNK, (c+1)*SIMULATE_CHUNK)`` draw from child ``c`` of
        ``SeedSequence(seed)``: results are identical for every ``threads`` and a smaller ``n`` gives
        a prefix of a larger one. A Generator gives ``SeedSequence`` of four words drawn from it
        (``integers(0, 2**63, size=4, dtype=np.uint64)``, drawn in C under its bit generator's lock).
        An int below 2**64 or a Generator costs no more than a repeated seed.
    threads : int
        OpenMP threads, 1..1024; more than the cores available gives a RuntimeWarning.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    FireResult of arrays
        ``(markers, wounds)``: int8 and int16 arrays of length n, markers after the per-turn cap.

    Notes
    -----
    One 32-bit word per engagement, mapped through the engagement's exact outcome table (the odds
    kernels' counts of the equally likely rolls, as runs of words; see docs/reproducibility.md), so
    the samples follow the exact distribution of :func:`atomic_africa.odds.fire_outcomes`. The table
    is memoised per engagement and Rules object: a repeated small call costs a few microseconds.
    """
    rules = resolve_rules(rules)
    tables = _TABLE_MEMOS.get(id(rules)) or _table_memo(rules)
    # Arguments of the plain types (str or tuple-of-int/Die dice, enum members or ints, int numbers,
    # a bool flag) key the table memo by value: equal values of these types give the same table.
    # Anything else (3.0 for 3, np.int64, lists) goes through the full validation every time.
    key = None
    if ((type(shooter) is str or (type(shooter) is tuple and len(shooter) == 3 and type(shooter[0]) in _DIE_T
                                  and type(shooter[1]) in _DIE_T and type(shooter[2]) in _DIE_T))
            and (type(target) is str or (type(target) is tuple and len(target) == 3 and type(target[0]) in _DIE_T
                                         and type(target[1]) in _DIE_T and type(target[2]) in _DIE_T))
            and type(shooter_posture) in _POSTURE_T and type(target_posture) in _POSTURE_T
            and type(shooter_action) in _ACTION_T and type(target_action) in _ACTION_T
            and type(cover) in _COVER_T and type(range_band) is int and type(armor) is int and type(ap) is int
            and type(vehicle) is bool):
        key = (shooter, target, shooter_posture, target_posture, range_band, armor, shooter_action,
               target_action, cover, ap, vehicle)
        table = tables.get(key)
    else:
        table = None
    if table is None:
        table = _fire_cdf(shooter, target, shooter_posture, target_posture, range_band, armor,
                          shooter_action, target_action, cover, ap, vehicle, rules)
        if key is not None:
            if len(tables) >= _TABLE_MEMO_MAX:
                tables.clear()
            tables[key] = table
    # Plain small calls skip the general checks (same values, same errors otherwise).
    if type(n) is not int or n < 0:
        n = v.as_int(n, "n", lo=0)
    if type(threads) is not int or threads != 1:
        threads = v.as_threads(threads)
    if n > _SMALL:
        v.check_memory(3 * n, "n", f"{n:,} engagements at 3 bytes each", "simulate in smaller batches")
    try:
        # The seed's words are assembled in C for the two common seeds (an int below 2**64, a
        # Generator): making a SeedSequence, or drawing through Generator.integers, costs more than
        # the small call's whole work.
        if type(seed) is int and 0 <= seed < _U64:
            r = table.sample_int(seed, n, SIMULATE_CHUNK, threads)
        elif type(seed) is np.random.Generator:
            r = table.sample_bitgen(seed.bit_generator, n, SIMULATE_CHUNK, threads)
        else:
            r = table.sample(_base_entropy(seed_sequence(seed)), n, SIMULATE_CHUNK, threads)
    except MemoryError:
        if n <= _SMALL:
            raise
        raise v.memory_error(3 * n, "n", f"{n:,} engagements at 3 bytes each",
                             "simulate in smaller batches") from None
    return _tuple_new(FireResult, r)


_U64 = 1 << 64
_DIE_T = frozenset((int, Die))
_POSTURE_T = frozenset((int, Posture))
_ACTION_T = frozenset((int, Action))
_COVER_T = frozenset((int, Cover))
_tuple_new = tuple.__new__   # a NamedTuple without its Python-level __new__

#: Calls of at most this many engagements (768 bytes of output) skip the memory check, which reads
#: the process's status and cgroup files (tens of microseconds).
_SMALL = 256
_TABLE_MEMO_MAX = 1 << 12
# Exact outcome tables per Rules object (keyed by id(): see odds._MEMOS).
_TABLE_MEMOS: dict[int, dict] = {}


def _table_memo(rules) -> dict:
    memo = _TABLE_MEMOS.get(id(rules))
    if memo is None:
        memo = _TABLE_MEMOS[id(rules)] = {}
        weakref.finalize(rules, _TABLE_MEMOS.pop, id(rules), None).atexit = False
    return memo


def _fire_cdf(shooter, target, shooter_posture, target_posture, range_band, armor, shooter_action,
              target_action, cover, ap, vehicle, rules):
    """The validated engagement's exact outcome table (counts from the odds kernels)."""
    from . import odds   # odds imports this module

    e = odds._trusted_args(shooter, target, shooter_posture, target_posture, range_band, armor,
                           shooter_action, target_action, cover, ap, vehicle, rules)
    if e is None:
        e = engagement_args(shooter, target, shooter_posture, target_posture, range_band, armor,
                            shooter_action, target_action, cover, ap, vehicle, rules)
    counts, total = odds._engagement_counts(e, rules)
    m, w = np.nonzero(counts)   # row-major: outcomes in (markers, wounds) order
    return _sim.FireCdf(np.ascontiguousarray(counts[m, w], dtype=np.int64), m.astype(np.int8),
                        w.astype(np.int16), total)


def _words(x) -> list:
    """numpy's uint32 words of a non-negative int (low first, [0] for 0) or of a sequence of them."""
    if isinstance(x, (int, np.integer)):
        x = int(x)
        out = [x & 0xFFFFFFFF]
        x >>= 32
        while x:
            out.append(x & 0xFFFFFFFF)
            x >>= 32
        return out
    return [w for item in x for w in _words(item)]


def _base_entropy(ss: np.random.SeedSequence) -> np.ndarray:
    """Assembled entropy of ``ss``'s children without the child index: SeedSequence(ss.entropy,
    spawn_key=ss.spawn_key + (i,)) assembles this plus the words of i (the child key is never
    empty, so the entropy is zero-padded to the pool size, as numpy does)."""
    run = _words(ss.entropy)
    run += [0] * (ss.pool_size - len(run))
    return np.array(run + _words(ss.spawn_key), dtype=np.uint32)
