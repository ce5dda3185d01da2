"""Exact odds: closed-form outcome distributions of engagements, Rally, Call for Fire, Sprint, Clean-up.

Every function here computes the exact probability of every outcome by counting equally likely
face combinations in the ``aa_core.odds`` kernels, never by sampling. The shooter's three dice and
the target's three dice are independent, so an engagement is the shooter's (joint) Attack pmf
combined with the target's Defense pmf through the same resolution as
:func:`atomic_africa.batch.simulate_fire`. Probabilities are floats (``count / total``, correctly
rounded) or, with ``exact=True``, :class:`fractions.Fraction` summing to exactly 1.

Memoisation: each side's score counts are cached per ``(dice, posture, action)`` and every
``fire_outcomes`` result per argument tuple, both per :class:`~atomic_africa.Rules` object (kept here,
dropped with that object), so a repeated query costs a dictionary lookup. The whole-result memo holds
at most ``MEMO_MAX`` entries and is emptied when full; :func:`clear_cache` forgets both.
"""
from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from aa_core import odds as _k

from . import _validate as v
from ._limits import MAX_GRID_AXIS, MAX_VALUE
from ._batch_core import engagement_args, scatter as _batch_scatter
from .enums import Action, Cover, Die, Posture, Role
from .rules import resolve_rules

__all__ = [
    "fire_outcomes", "split_fire_outcomes", "scores_pmf", "rally_probability", "call_for_fire_odds",
    "sprint_odds", "morale_recovery_probability", "expected_markers", "expected_wounds",
    "p_at_least_wounds", "p_at_least_markers", "fire_grid", "clear_cache",
    "FireTarget", "SplitFireOutcomes", "ScoresPmf", "CallForFireOdds", "SprintOdds",
    "GRID_AXES", "GRID_STATS", "MEMO_MAX",
]

#: Axes of :func:`fire_grid`'s array, in order.
GRID_AXES = ("shooter_posture", "target_posture", "range_band", "cover", "armor", "stat")
#: The last axis of :func:`fire_grid`: P(>= 1 marker), P(>= 1 wound), E[markers], E[wounds].
GRID_STATS = ("p_marker", "p_wound", "expected_markers", "expected_wounds")
#: Most whole-result entries memoised per Rules object before the memo is emptied.
MEMO_MAX = 1 << 16

# Histogram slots: a score s is stored at s + 1 (slot 0 = no such score); a score is at most a pair
# of the largest die.
_MAX_SCORE = 2 * max(int(d) for d in Die)
_SLOTS = _MAX_SCORE + 2
# Wounds of a volley: at most two attacks, each below _MAX_SCORE wounds at effective armor 1.
_WOUND_SLOTS = 2 * _MAX_SCORE + 1



# -- result types ------------------------------------------------------------------------------
class FireTarget(NamedTuple):
    """One target of Split Fire: its dice, posture, action and how it is shot at.

    Fields have the meaning of the same-named :func:`fire_outcomes` arguments (``dice`` is the
    target's three dice after wound shifts, ``action`` sets its Defense).
    """

    dice: object
    posture: object
    range_band: int
    armor: int
    action: object = Action.BASIC
    cover: object = Cover.NONE
    ap: int = 0
    vehicle: bool = False


class SplitFireOutcomes(NamedTuple):
    """Split Fire distributions: the declared (higher Attack) target, the other target, and their
    joint, keyed ``((markers_declared, wounds_declared), (markers_other, wounds_other))``."""

    declared: dict
    other: dict
    joint: dict


class ScoresPmf(NamedTuple):
    """Distributions of one side's Table 5 scores for an action and posture.

    ``attacks`` is keyed by the tuple of Attack scores (ascending, as
    :attr:`Scores.attacks <atomic_africa.results.Scores.attacks>`; the empty tuple when the action
    makes no attack, a pair for Mass/Split Fire, the joint pmf of the two). The other fields are
    ``{score: probability}`` or ``None`` where the action has no such score (``sprint_bonus`` only
    for Sprint).
    """

    attacks: dict
    defense: dict | None
    rally: dict | None
    spotting: dict | None
    sprint_bonus: dict | None


class CallForFireOdds(NamedTuple):
    """Call for Fire: P(direct hit); the impact offset ``{(dx, dy) cm: p}`` (a direct hit and a zero
    scatter both land at ``(0.0, 0.0)``); the offset's length ``{cm: p}``."""

    direct_hit: float | Fraction
    offset: dict
    distance: dict


class SprintOdds(NamedTuple):
    """Sprint: the bonus (highest face) ``{bonus: p}`` and the extra move ``{cm: p}``."""

    bonus: dict
    distance_cm: dict


# -- per-side score counts ---------------------------------------------------------------------
class _Side:
    """Integer score counts of one side's three dice for one Table 5 row (all face triples)."""

    __slots__ = ("total", "a0", "a1", "a_count", "d", "d_count", "attacks", "defense", "rally",
                 "spotting", "bonus")

    def __init__(self, dice, row, sprint):
        self.total = math.prod(dice)
        attacks = np.empty((_SLOTS, _SLOTS), dtype=np.int64)
        hists = [np.empty(_SLOTS, dtype=np.int64) for _ in range(4)]
        _k.side_counts(dice[0], dice[1], dice[2], row, sprint, attacks, *hists)
        i, j = np.nonzero(attacks)
        self.a0 = np.ascontiguousarray(i - 1, dtype=np.int64)
        self.a1 = np.ascontiguousarray(j - 1, dtype=np.int64)
        self.a_count = np.ascontiguousarray(attacks[i, j])
        (d,) = np.nonzero(hists[0])
        self.d = np.ascontiguousarray(d - 1, dtype=np.int64)
        self.d_count = np.ascontiguousarray(hists[0][d])
        self.attacks = attacks
        self.defense, self.rally, self.spotting, self.bonus = hists


# -- memos -----------------------------------------------------------------------------------------
class _Memo:
    """What this module remembers for one Rules object."""

    __slots__ = ("sides", "results", "attacking")

    def __init__(self):
        self.clear()

    def clear(self):
        self.sides: dict = {}        # (d0, d1, d2, posture, action) -> _Side
        self.results: dict = {}      # fire_outcomes argument key -> result (at most MEMO_MAX)
        self.attacking = None        # frozenset of (action, posture) rows that make an attack


# Keyed by id(): Rules compare and hash by value, too slow for a lookup per query; a finalizer drops
# the entry with its Rules object, before the id can be reused.
_MEMOS: dict[int, _Memo] = {}


def _memo(rules) -> _Memo:
    memo = _MEMOS.get(id(rules))
    if memo is None:
        memo = _MEMOS[id(rules)] = _Memo()
        weakref.finalize(rules, _MEMOS.pop, id(rules), None).atexit = False
    return memo


def _side(rules, dice, posture, action) -> _Side:
    """Cached score counts for validated dice (Die triple), posture and action."""
    cache = _memo(rules).sides
    key = (int(dice[0]), int(dice[1]), int(dice[2]), int(posture), int(action))
    side = cache.get(key)
    if side is None:
        row = np.ascontiguousarray(rules.table5_array[int(action), int(posture)])
        side = cache[key] = _Side(key[:3], row, int(action) == int(Action.SPRINT))
    return side


def clear_cache(rules=None) -> None:
    """Forget the memoised side counts and results of ``rules`` (to time a cold query).

    Parameters
    ----------
    rules : Rules, optional
        The rules object whose caches are emptied; the packaged defaults if omitted.

    Raises
    ------
    TypeError
        If ``rules`` is neither ``None`` nor a :class:`~atomic_africa.Rules`.
    """
    _memo(resolve_rules(rules)).clear()


# -- conversions ------------------------------------------------------------------------------
def _prob(count: int, total: int, exact: bool):
    return Fraction(count, total) if exact else count / total


def _hist_dist(hist: np.ndarray, total: int, exact: bool) -> dict | None:
    """{score: p} from a slot histogram, or None if the role is absent (all mass in slot 0)."""
    (idx,) = np.nonzero(hist)
    if idx.size == 1 and idx[0] == 0:
        return None
    return {int(s) - 1: _prob(int(hist[s]), total, exact) for s in idx}


def _outcome_dist(counts: np.ndarray, total: int, exact: bool) -> dict:
    """{(markers, wounds): p} over the non-zero cells of a count matrix."""
    m, w = np.nonzero(counts)
    c = counts[m, w].tolist()
    keys = zip(m.tolist(), w.tolist())
    if exact:
        return {k: Fraction(x, total) for k, x in zip(keys, c)}
    return {k: x / total for k, x in zip(keys, c)}


def _cap(rules, vehicle: bool) -> int:
    f = rules.fire
    return f.vehicle_turn_marker_cap if vehicle else f.turn_marker_cap


# -- fire ------------------------------------------------------------------------------------
def _dice_key(value):
    """(value to validate, hashable memo key part keeping the element types); TypeError if not."""
    if type(value) is str:
        return value, value
    items = tuple(value)
    return items, (items, tuple(map(type, items)))


_DIE_TYPES = {int(d): d for d in Die}


def _attacking_rows(rules) -> frozenset:
    memo = _memo(rules)
    if memo.attacking is None:
        t5 = rules.table5_array
        memo.attacking = frozenset((int(a), int(p)) for a in Action for p in Posture
                                   if Role.ATTACK in (t5[a, p, 1], t5[a, p, 2]) or t5[a, p, 2] == Role.ATTACKS)
    return memo.attacking


def _enum_or_int(x, enum_cls):
    """The member for an exact enum member or plain int value, else None (no coercion)."""
    t = type(x)
    if t is enum_cls:
        return x
    if t is int:
        try:
            return enum_cls(x)
        except ValueError:
            return None
    return None


def _trusted_args(shooter, target, sp, tp, band, armor, sa, ta, cover, ap, vehicle, rules):
    """engagement_args' result for arguments of exact types already in range, else None.

    A strict subset of what engagement_args accepts (Die/int dice in a tuple, enum members or plain
    ints, plain int numbers, a bool flag), giving the same values; anything else goes through
    engagement_args, so errors stay identical to simulate_fire's.
    """
    if type(shooter) is not tuple or type(target) is not tuple or len(shooter) != 3 or len(target) != 3:
        return None
    dice = []
    for x in shooter + target:
        if type(x) is Die:
            dice.append(x)
        elif type(x) is int and x in _DIE_TYPES:
            dice.append(_DIE_TYPES[x])
        else:
            return None
    sp = _enum_or_int(sp, Posture)
    tp = _enum_or_int(tp, Posture)
    sa = _enum_or_int(sa, Action)
    ta = _enum_or_int(ta, Action)
    cover = _enum_or_int(cover, Cover)
    if sp is None or tp is None or sa is None or ta is None or cover is None:
        return None
    if (type(band) is not int or type(armor) is not int or type(ap) is not int
            or type(vehicle) is not bool):
        return None
    if not (1 <= band <= len(rules.fire.band_edges_cm) + 1 and 1 <= armor <= MAX_VALUE
            and -MAX_VALUE <= ap <= 0):
        return None
    if (int(sa), int(sp)) not in _attacking_rows(rules):
        return None
    return dict(shooter=tuple(dice[:3]), target=tuple(dice[3:]), shooter_posture=sp,
                target_posture=tp, shooter_action=sa, target_action=ta, range_band=band,
                armor=armor, cover=cover, ap=ap, vehicle=vehicle)


def _engagement_counts(e: dict, rules) -> tuple[np.ndarray, int]:
    sh = _side(rules, e["shooter"], e["shooter_posture"], e["shooter_action"])
    tg = _side(rules, e["target"], e["target_posture"], e["target_action"])
    out = np.empty((_cap(rules, e["vehicle"]) + 1, _WOUND_SLOTS), dtype=np.int64)
    _k.engagement_counts(sh.a0, sh.a1, sh.a_count, tg.d, tg.d_count,
                         e["shooter_action"] == Action.SPLIT_FIRE, e["range_band"], e["armor"],
                         int(e["cover"]), e["ap"], e["vehicle"], rules.fire_params, out)
    return out, sh.total * tg.total


def fire_outcomes(shooter, target, *, shooter_posture, target_posture, range_band, armor,
                  shooter_action=Action.BASIC, target_action=Action.BASIC, cover=Cover.NONE, ap=0,
                  vehicle=False, exact=False, rules=None) -> dict:
    """Exact distribution of (suppression markers, wounds) of one engagement.

    The same engagement that :func:`atomic_africa.batch.simulate_fire` samples, with the same
    arguments and errors: the shooter's Attack(s) from its three dice (Table 5 for
    ``shooter_action``/``shooter_posture``) against the target's Defense (``target_action``/
    ``target_posture``) at ``range_band``, ``armor``, ``cover`` and ``ap``. Mass Fire's two attacks
    come from one roll and are one volley (markers summed then capped per turn, wounds summed);
    their joint distribution is enumerated, never the product of marginals. For Split Fire this
    target is the declared one, facing the higher Attack (see :func:`split_fire_outcomes`).

    Parameters
    ----------
    shooter, target : three Die
        Dice after wound shifts, e.g. ``(aa.Die.D10, aa.Die.D10, aa.Die.D8)`` or ``"d10,d10,d8"``.
    shooter_posture, target_posture : Posture
    range_band : int
        1..9 (the number of bands of the rules' stick + 1).
    armor : int
        Printed armor, ``>= 1``.
    shooter_action, target_action : Action
        The shooter's action must make an attack.
    cover : Cover
        Target's predominant cover.
    ap : int
        Armor penetration, ``<= 0``.
    vehicle : bool
        Target is a vehicle (vehicle markers and per-turn cap).
    exact : bool
        Return :class:`fractions.Fraction` probabilities summing to exactly 1.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    dict
        ``{(markers, wounds): probability}`` over the outcomes with non-zero probability; keys are
        tuples of plain ints, markers after the per-turn cap.

    Notes
    -----
    Results are memoised (see the module notes): a repeated query is a dictionary lookup plus a
    copy of the result; the first query of a configuration enumerates both sides' dice. Medians
    from ``benchmarks/bench_odds.py`` on a 2-core machine, d10,d10,d8 against d8,d8,d6: repeated
    query ~2 us; new configuration of units already seen (e.g. another band) ~12 us; cold
    (nothing cached) ~40 us. Plain arguments (Die/int dice in a tuple, enum members or ints,
    bool flags) skip the general validation; anything else is validated exactly as
    ``simulate_fire`` validates it.

    Examples
    --------
    >>> dist = fire_outcomes("d10,d10,d8", "d8,d8,d6", shooter_posture="offensive",
    ...                      target_posture="defensive", range_band=3, armor=2, exact=True)
    >>> sum(dist.values())
    Fraction(1, 1)
    """
    rules = resolve_rules(rules)
    memo = (_MEMOS.get(id(rules)) or _memo(rules)).results  # the lookup inlined: this is the hot path
    key = None
    try:
        # The key keeps each argument's type: equal values of another type (3.0 for 3, False for
        # Posture 0) may be rejected by validation, so they must not hit a validated entry.
        shooter, sk = _dice_key(shooter)
        target, tk = _dice_key(target)
        key = (sk, tk, shooter_posture, target_posture, range_band, armor, shooter_action,
               target_action, cover, ap, vehicle, exact,
               type(shooter_posture), type(target_posture), type(range_band), type(armor),
               type(shooter_action), type(target_action), type(cover), type(ap), type(vehicle),
               type(exact))
        hit = memo.get(key)
    except TypeError:  # unhashable or not iterable: validation below reports it
        key = hit = None
    if hit is not None:
        return dict(hit)
    e = _trusted_args(shooter, target, shooter_posture, target_posture, range_band, armor,
                      shooter_action, target_action, cover, ap, vehicle, rules)
    if e is None or type(exact) is not bool:
        e = engagement_args(shooter, target, shooter_posture, target_posture, range_band, armor,
                            shooter_action, target_action, cover, ap, vehicle, rules)
        exact = v.as_bool(exact, "exact")
    counts, total = _engagement_counts(e, rules)
    result = _outcome_dist(counts, total, exact)
    if key is not None:
        if len(memo) >= MEMO_MAX:
            memo.clear()
        memo[key] = result
    return dict(result)


def _fire_target(value, name: str) -> FireTarget:
    if isinstance(value, FireTarget):
        return value
    if isinstance(value, Mapping):
        try:
            return FireTarget(**value)
        except TypeError:
            allowed = ", ".join(FireTarget._fields)
            raise TypeError(f"{name}: expected a FireTarget or a mapping with keys {allowed} "
                            f"(dice, posture, range_band, armor required), got keys "
                            f"{sorted(map(str, value))}") from None
    raise TypeError(f"{name}: expected a FireTarget or a mapping, got {type(value).__name__}")


def split_fire_outcomes(shooter, declared, other, *, shooter_posture, exact=False,
                        rules=None) -> SplitFireOutcomes:
    """Exact Split Fire distributions: the declared target, the other target and their joint.

    The shooter rolls once (Table 5 Split Fire row for ``shooter_posture``): the target declared at
    Declaration faces the higher Attack, the other target the lower; each target rolls its own
    Defense. Each target's markers are capped per turn on their own.

    Parameters
    ----------
    shooter : three Die
    declared, other : FireTarget or mapping
        Each target's ``dice, posture, range_band, armor`` and optional ``action, cover, ap,
        vehicle`` (see :class:`FireTarget`); validated as :func:`fire_outcomes` validates its
        target, errors prefixed ``declared``/``other``.
    shooter_posture : Posture
    exact : bool
        Fractions instead of floats.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    SplitFireOutcomes
        ``declared`` equals ``fire_outcomes(..., shooter_action=SPLIT_FIRE)`` for that target;
        ``joint`` is keyed ``((markers, wounds) declared, (markers, wounds) other)``.

    Raises
    ------
    TypeError, ValueError
        On an invalid argument (the message names it).
    """
    rules = resolve_rules(rules)
    shooter = v.dice_triple(shooter, "shooter", Die)
    shooter_posture = v.as_enum(shooter_posture, Posture, "shooter_posture")
    targets = []
    for name, t in (("declared", declared), ("other", other)):
        t = _fire_target(t, name)
        try:
            targets.append(engagement_args(shooter, t.dice, shooter_posture, t.posture, t.range_band,
                                           t.armor, Action.SPLIT_FIRE, t.action, t.cover, t.ap,
                                           t.vehicle, rules))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} {exc}") from None
    exact = v.as_bool(exact, "exact")
    hi, lo = targets
    sh = _side(rules, shooter, shooter_posture, Action.SPLIT_FIRE)
    th = _side(rules, hi["target"], hi["target_posture"], hi["target_action"])
    tl = _side(rules, lo["target"], lo["target_posture"], lo["target_action"])
    out = np.empty((_cap(rules, hi["vehicle"]) + 1, _WOUND_SLOTS,
                    _cap(rules, lo["vehicle"]) + 1, _WOUND_SLOTS), dtype=np.int64)
    _k.split_counts(sh.a0, sh.a1, sh.a_count,
                    th.d, th.d_count, hi["range_band"], hi["armor"], int(hi["cover"]), hi["ap"],
                    hi["vehicle"],
                    tl.d, tl.d_count, lo["range_band"], lo["armor"], int(lo["cover"]), lo["ap"],
                    lo["vehicle"], rules.fire_params, out)
    total = sh.total * th.total * tl.total
    idx = np.nonzero(out)
    counts = out[idx].tolist()
    joint = {((a, b), (c, d)): _prob(x, total, exact)
             for a, b, c, d, x in zip(*(i.tolist() for i in idx), counts)}
    declared_d = _outcome_dist(out.sum(axis=(2, 3)), total, exact)
    other_d = _outcome_dist(out.sum(axis=(0, 1)), total, exact)
    return SplitFireOutcomes(declared_d, other_d, joint)


# -- one side's scores, Rally, Call for Fire, Sprint, Clean-up --------------------------------
def _side_args(dice, posture, rules):
    return v.dice_triple(dice, "dice", Die), v.as_enum(posture, Posture, "posture")


def scores_pmf(dice, posture, action, *, exact=False, rules=None) -> ScoresPmf:
    """Exact distributions of one side's Table 5 scores (all faces of its three dice).

    Parameters
    ----------
    dice : three Die
        The side's dice after wound shifts (Die members, ints or a ``"d8,d8,d6"`` string).
    posture : Posture
        Offensive or defensive (member, int or name).
    action : Action
        The Table 5 row read (member, int or name).
    exact : bool
        Fractions instead of floats.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    ScoresPmf
        Attack, Defense, Rally, Spotting and Sprint-bonus distributions (``None`` where the action
        has no such score).

    Raises
    ------
    TypeError, ValueError
        On an invalid argument (the message names it).
    """
    rules = resolve_rules(rules)
    dice, posture = _side_args(dice, posture, rules)
    action = v.as_enum(action, Action, "action")
    exact = v.as_bool(exact, "exact")
    s = _side(rules, dice, posture, action)
    attacks = {}
    for a0, a1, c in zip(s.a0.tolist(), s.a1.tolist(), s.a_count.tolist()):
        attacks[tuple(a for a in (a0, a1) if a >= 0)] = _prob(c, s.total, exact)
    return ScoresPmf(attacks, _hist_dist(s.defense, s.total, exact),
                     _hist_dist(s.rally, s.total, exact), _hist_dist(s.spotting, s.total, exact),
                     _hist_dist(s.bonus, s.total, exact))


def rally_probability(dice, posture, range_band, target_markers, *, los=True, comms=False,
                      self_rally=False, exact=False, rules=None):
    """Probability that a Rally succeeds: Rally score > range + the target's markers.

    Parameters
    ----------
    dice : three Die
        The rallying unit's dice after wound shifts.
    posture : Posture
        Its posture (Table 5 Rally row).
    range_band : int or None
        Range band 1..9 to the rallied unit; ignored (may be ``None``) for a self-Rally, whose range
        is ``rules.rally.self_range`` (0).
    target_markers : int
        Suppression markers on the rallied unit, ``>= 0``.
    los : bool
        Line of sight to the rallied unit.
    comms : bool
        The rallying unit has tactical comms: without LOS the Rally is still allowed at range +
        ``rules.rally.comms_range_penalty``.
    self_rally : bool
        The unit rallies itself (LOS and comms do not matter).
    exact : bool
        Fractions instead of floats.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    float or Fraction
        The success probability. Without LOS and without comms the Rally is not allowed: the
        probability is 0 (documented choice, so agents can score every option uniformly).

    Notes
    -----
    Whether the Rally may be taken at all by marker counts (the rallying unit must have fewer
    markers than the target unless it is the force commander) is a legality check, not odds.
    """
    rules = resolve_rules(rules)
    dice, posture = _side_args(dice, posture, rules)
    n_bands = len(rules.fire.band_edges_cm) + 1
    self_rally = v.as_bool(self_rally, "self_rally")
    if range_band is not None or not self_rally:
        range_band = v.as_int(range_band, "range_band", lo=1, hi=n_bands)
    target_markers = v.as_int(target_markers, "target_markers", lo=0, hi=MAX_VALUE)
    los = v.as_bool(los, "los")
    comms = v.as_bool(comms, "comms")
    exact = v.as_bool(exact, "exact")
    if self_rally:
        rng = rules.rally.self_range
    elif los:
        rng = range_band
    elif comms:
        rng = range_band + rules.rally.comms_range_penalty
    else:
        return _prob(0, 1, exact)
    s = _side(rules, dice, posture, Action.RALLY)
    # slot of score r is r + 1: success needs r > rng + markers
    first = rng + target_markers + 2
    return _prob(int(s.rally[first:].sum()) if first < _SLOTS else 0, s.total, exact)


def call_for_fire_odds(dice, posture, *, exact=False, rules=None) -> CallForFireOdds:
    """Call for Fire: P(direct hit) and the distribution of the impact point's offset.

    The spotter's Spotting score comes from its three dice (Table 5 Call for Fire row); then two
    ``rules.call_for_fire.scatter_die`` (d12) give the clock direction and the scatter distance.
    Scatter distance - Spotting < 0 is a direct hit; otherwise the impact moves that many increments
    towards the clock position (the semantics and floating-point values of
    :func:`atomic_africa.batch.scatter`).

    Parameters
    ----------
    dice : three Die
        The spotter's dice after wound shifts (Die members, ints or a ``"d8,d8,d6"`` string).
    posture : Posture
        The spotter's posture (Table 5 Call for Fire row).
    exact : bool
        Fractions instead of floats.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    CallForFireOdds
        ``direct_hit`` probability, ``offset`` ``{(dx, dy) cm: p}`` and ``distance`` ``{cm: p}``.

    Raises
    ------
    TypeError, ValueError
        On an invalid argument, or if the rules' Call for Fire row has no Spotting score.
    """
    rules = resolve_rules(rules)
    dice, posture = _side_args(dice, posture, rules)
    exact = v.as_bool(exact, "exact")
    s = _side(rules, dice, posture, Action.CALL_FOR_FIRE)
    (slots,) = np.nonzero(s.spotting)
    spotting = slots - 1
    if spotting.min() < 0:
        raise ValueError("rules: the Table 5 call_for_fire row has no spotting score")
    k = rules.call_for_fire.scatter_die
    faces = np.arange(1, k + 1)
    sp, clock, dist = np.meshgrid(spotting, faces, faces, indexing="ij")
    dx, dy, hit = _batch_scatter(clock, dist, sp, rules)
    weight = np.broadcast_to(s.spotting[slots][:, None, None], sp.shape)
    total = s.total * k * k
    cells: dict = {}
    radial: dict = {}
    off = np.maximum(dist - sp, 0) * rules.call_for_fire.scatter_increment_cm
    for x, y, r, c in zip(dx.ravel().tolist(), dy.ravel().tolist(), off.ravel().tolist(),
                          weight.ravel().tolist()):
        cells[(x, y)] = cells.get((x, y), 0) + c
        radial[r] = radial.get(r, 0) + c
    n_hit = int(weight[hit].sum())
    return CallForFireOdds(_prob(n_hit, total, exact),
                           {key: _prob(c, total, exact) for key, c in cells.items()},
                           {key: _prob(c, total, exact) for key, c in sorted(radial.items())})


def sprint_odds(dice, posture, vehicle=False, *, exact=False, rules=None) -> SprintOdds:
    """Sprint: the bonus (highest face of the three dice) and the extra move after fire.

    The extra distance is bonus x ``rules.movement.sprint_increment_cm`` (4.5 cm), or
    ``vehicle_sprint_increment_cm`` (9 cm) for vehicles. The posture does not change the bonus; it
    is validated for symmetry with the other calls.

    Parameters
    ----------
    dice : three Die
        The sprinting unit's dice after wound shifts (Die members, ints or a ``"d8,d8,d6"``
        string).
    posture : Posture
        Its posture (validated only).
    vehicle : bool
        The unit is a vehicle (larger sprint increment).
    exact : bool
        Fractions instead of floats.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    SprintOdds
        ``bonus`` ``{bonus: p}`` and ``distance_cm`` ``{extra cm: p}``.

    Raises
    ------
    TypeError, ValueError
        On an invalid argument (the message names it).
    """
    rules = resolve_rules(rules)
    dice, posture = _side_args(dice, posture, rules)
    vehicle = v.as_bool(vehicle, "vehicle")
    exact = v.as_bool(exact, "exact")
    s = _side(rules, dice, posture, Action.SPRINT)
    bonus = _hist_dist(s.bonus, s.total, exact)
    mv = rules.movement
    step = mv.vehicle_sprint_increment_cm if vehicle else mv.sprint_increment_cm
    return SprintOdds(bonus, {b * step: p for b, p in bonus.items()})


def morale_recovery_probability(morale_die, markers, *, exact=False, rules=None):
    """Clean-up: probability that a unit's free Morale roll removes a suppression marker.

    The unit rolls its (shifted) Morale die; a roll above its number of markers removes one
    (``rules.cleanup.morale_success = "above_markers"``). A unit without markers does not roll and
    removes nothing: probability 0.

    Parameters
    ----------
    morale_die : Die
        The Morale die after wound shifts (a shattered unit rolls ``rules.dice.shattered_die``).
    markers : int
        Suppression markers, ``>= 0``.
    exact : bool
        Return a :class:`fractions.Fraction` instead of a float.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    float or Fraction
        P(a marker is removed); 0 when ``markers == 0``.

    Raises
    ------
    TypeError, ValueError
        On an invalid argument (the message names it).
    """
    rules = resolve_rules(rules)
    die = int(v.as_enum(morale_die, Die, "morale_die"))
    markers = v.as_int(markers, "markers", lo=0, hi=MAX_VALUE)
    exact = v.as_bool(exact, "exact")
    if rules.cleanup.morale_success != "above_markers":  # pragma: no cover - the only rule today
        raise ValueError(f"rules: cleanup.morale_success {rules.cleanup.morale_success!r} unsupported")
    wins = max(die - markers, 0) if markers > 0 else 0
    return _prob(wins, die, exact)


# -- helpers for agents -------------------------------------------------------------------------
#: Slack allowed above 1 in a distribution's total (float rounding of summed probabilities).
_TOTAL_SLACK = 1e-9


def _check_dist(dist) -> Mapping:
    """``dist`` if it is a distribution: (markers, wounds) keys of integers >= 0, probabilities finite
    in 0..1 (floats or Fractions) summing to at most 1; else TypeError / ValueError naming the entry."""
    if not isinstance(dist, Mapping):
        raise TypeError(f"dist: expected a mapping {{(markers, wounds): probability}}, "
                        f"got {type(dist).__name__}")
    if not dist:
        # an empty mapping is no distribution (its probabilities sum to 0): an expectation of 0 from it
        # would pass for the odds of an attack that never hurts
        raise ValueError("dist: empty; expected at least one (markers, wounds) outcome with its probability, "
                         "e.g. from fire_outcomes()")
    total = 0
    for k, p in dist.items():
        if not (isinstance(k, tuple) and len(k) == 2):
            raise ValueError(f"dist: keys must be (markers, wounds) tuples, got {v.shown(k)}")
        v.as_int(k[0], f"dist key {v.shown(k)}: markers", lo=0)
        v.as_int(k[1], f"dist key {v.shown(k)}: wounds", lo=0)
        name = f"dist[{v.shown(k)}]"
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, float, Fraction, np.integer, np.floating)):
            raise TypeError(v.wrong_type(name, "a probability (float or Fraction)", p))
        if not (0 <= p <= 1) or (isinstance(p, (float, np.floating)) and not math.isfinite(p)):
            raise ValueError(v.out_of_range(name, v.shown(p), "probabilities 0..1"))
        total += p
    if total > 1 + _TOTAL_SLACK:
        raise ValueError(f"dist: probabilities sum to {float(total):.12g}; allowed at most 1")
    return dist


_DIST_DOC = """{summary} of a ``{{(markers, wounds): p}}`` distribution.

    Parameters
    ----------
    dist : mapping
        ``{{(markers, wounds): probability}}``, e.g. from :func:`fire_outcomes`.{k_param}

    Returns
    -------
    float or Fraction
        {returns} (a Fraction if the probabilities are{empty}).

    Raises
    ------
    TypeError
        If ``dist`` is not a mapping, a probability is not a number{k_type}.
    ValueError
        If ``dist`` is empty, {k_value}a key is not a ``(markers, wounds)`` tuple of integers
        ``>= 0``, a probability is not in 0..1 (NaN included) or they sum to more than 1.
    """


def _expectation_doc(field: str):
    """Give an ``E[field]`` helper the shared numpydoc docstring (written once in ``_DIST_DOC``)."""
    def apply(func):
        func.__doc__ = _DIST_DOC.format(
            summary=f"E[{field}]", k_param="", returns=f"The expected number of {field}",
            empty="", k_type="", k_value="")
        return func
    return apply


def _threshold_doc(field: str):
    """Give a ``P(field >= k)`` helper the shared numpydoc docstring (written once in ``_DIST_DOC``)."""
    def apply(func):
        func.__doc__ = _DIST_DOC.format(
            summary=f"P({field} >= k)", k_param="\n    k : int\n        Threshold, ``>= 0``.",
            returns=f"The summed probability of the outcomes with at least ``k`` {field}",
            empty="", k_type=" or ``k`` is not an integer", k_value="``k < 0`` or ")
        return func
    return apply


@_expectation_doc("markers")
def expected_markers(dist):
    return sum((p * k[0] for k, p in _check_dist(dist).items()), 0)


@_expectation_doc("wounds")
def expected_wounds(dist):
    return sum((p * k[1] for k, p in _check_dist(dist).items()), 0)


@_threshold_doc("wounds")
def p_at_least_wounds(dist, k):
    k = v.as_int(k, "k", lo=0)
    return sum((p for key, p in _check_dist(dist).items() if key[1] >= k), 0)


@_threshold_doc("markers")
def p_at_least_markers(dist, k):
    k = v.as_int(k, "k", lo=0)
    return sum((p for key, p in _check_dist(dist).items() if key[0] >= k), 0)


# -- the designers' grid ------------------------------------------------------------------------


def _seq(value, default, name, convert):
    if value is None:
        value = default
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name}: expected a sequence, got {type(value).__name__} {v.shown(value)}")
    out = []
    for i, x in enumerate(value):
        if i == MAX_GRID_AXIS:
            raise ValueError(f"{name}: more than {MAX_GRID_AXIS} values; allowed 1..{MAX_GRID_AXIS}")
        out.append(convert(x, f"{name}[{i}]"))
    if not out:
        raise ValueError(f"{name}: empty; a grid axis needs 1..{MAX_GRID_AXIS} values")
    return out


def fire_grid(shooter, target, *, shooter_postures=None, target_postures=None, bands=None,
              covers=None, armors=None, shooter_action=Action.BASIC, target_action=Action.BASIC,
              ap=0, vehicle=False, rules=None) -> np.ndarray:
    """Outcome summaries of one shooter against one target over a whole grid, in one call.

    Parameters
    ----------
    shooter, target : three Die
    shooter_postures, target_postures : sequence of Posture, optional
        Default: both postures, offensive then defensive.
    bands : sequence of int, optional
        Range bands; default 1..9 (all bands of the rules' stick and beyond).
    covers : sequence of Cover, optional
        Default: none, light, heavy.
    armors : sequence of int, optional
        Printed armor values; default 1..6.
    shooter_action, target_action, ap, vehicle, rules
        As in :func:`fire_outcomes` (common to every cell).

    Returns
    -------
    ndarray of float64, shape (shooter postures, target postures, bands, covers, armors, 4)
        Axes :data:`GRID_AXES`; the last axis is :data:`GRID_STATS`: P(>= 1 marker),
        P(>= 1 wound), expected markers, expected wounds. Cell ``[i, j, b, c, a]`` equals the
        summary of ``fire_outcomes(shooter_posture=shooter_postures[i], target_posture=
        target_postures[j], range_band=bands[b], cover=covers[c], armor=armors[a], ...)``.

    Raises
    ------
    TypeError, ValueError
        On an invalid argument (named), an empty axis or one of more than ``MAX_GRID_AXIS`` values.
    MemoryError
        If the grid does not fit in the memory available.
    """
    rules = resolve_rules(rules)
    n_bands = len(rules.fire.band_edges_cm) + 1
    sps = _seq(shooter_postures, list(Posture), "shooter_postures",
               lambda x, n: v.as_enum(x, Posture, n))
    tps = _seq(target_postures, list(Posture), "target_postures",
               lambda x, n: v.as_enum(x, Posture, n))
    bands = _seq(bands, range(1, n_bands + 1), "bands", lambda x, n: v.as_int(x, n, lo=1, hi=n_bands))
    covers = _seq(covers, list(Cover), "covers", lambda x, n: v.as_enum(x, Cover, n))
    armors = _seq(armors, range(1, 7), "armors", lambda x, n: v.as_int(x, n, lo=1, hi=MAX_VALUE))
    shape = (len(sps), len(tps), len(bands), len(covers), len(armors), len(GRID_STATS))
    v.check_memory(8 * math.prod(shape), "bands x covers x armors", f"{math.prod(shape[:-1]):,} grid cells",
                   "ask for fewer values")
    out = np.zeros(shape)
    # Validate dice, actions, ap and vehicle exactly as fire_outcomes does (valid dummy cell).
    base = [engagement_args(shooter, target, sp, tp, 1, 1, shooter_action, target_action,
                            Cover.NONE, ap, vehicle, rules) for sp in sps for tp in tps]
    b_arr = np.array(bands, dtype=np.int64)
    c_arr = np.array([int(c) for c in covers], dtype=np.int64)
    a_arr = np.array(armors, dtype=np.int64)
    counts = np.empty((len(bands), len(covers), len(armors), len(GRID_STATS)), dtype=np.int64)
    params = rules.fire_params
    for idx, e in enumerate(base):
        i, j = divmod(idx, len(tps))
        sh = _side(rules, e["shooter"], e["shooter_posture"], e["shooter_action"])
        tg = _side(rules, e["target"], e["target_posture"], e["target_action"])
        _k.grid_counts(sh.a0, sh.a1, sh.a_count, tg.d, tg.d_count,
                       e["shooter_action"] == Action.SPLIT_FIRE, b_arr, c_arr, a_arr, e["ap"],
                       e["vehicle"], params, counts)
        np.divide(counts, sh.total * tg.total, out=out[i, j])
    return out
