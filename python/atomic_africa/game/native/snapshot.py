"""Checks of a :class:`~atomic_africa.game.VectorGame` snapshot (what ``pickle`` hands ``__setstate__``)
before the native engine sees it.

The kernel (``aa_core.vgame``) indexes tables and unit rows with the values of the state arrays, so a
snapshot is only loaded when every array has its key, dtype and shape (:func:`layout`) and every value
lies in the range the engine itself keeps: unit fields per slot (their bounds in
:data:`~atomic_africa.game.schema.UNIT_FIELDS`, every native field of it; empty slots exactly as the
engine frees them, the schema's defaults), scalars per stage (the units a stage works on exist, are alive and
hold what that stage reads), card piles (each card of a player in exactly one place: deck, hand,
discard or on one of its units), figures (on the table plus removed equals the set-up), terrain cover
(``0..`` the feature's set-up cover), finite positions on the table, valid random-stream words. Each
problem raises ``ValueError`` naming the array, env and field, e.g.
``state: arrays['unit_i32'][env 3, figures, slot 5] = -7; allowed 1..60``.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..._limits import MAX_EPISODE, MAX_SPRINT_CM, MAX_VALUE
from ..._validate import wrong_type
from ...enums import Action
from ..schema import (END_REASONS, SCALARS, SETS, STAGES, UNIT_FIELDS, allowed, bound_terms, depends_on_game,
                      native_rows)

__all__ = ["layout", "env_bytes", "check_arrays", "PCG_WORDS", "NC"]

#: uint64 words of one PCG64 state (src/aa_core/csrc/aa_pcg.h): state hi, lo, increment hi, lo, has_uint32,
#: the buffered uint32.
PCG_WORDS = 6
#: Columns of the counts array (vgame.pxd): deck, hand, discard, removed figures.
NC = 4
_COUNT_NAMES = ("deck", "hand", "discard", "removed")
_PILE_NAMES = ("deck", "hand", "discard")
_STAGE = {name: i for i, (name, _) in enumerate(STAGES)}
_S = {name: i for i, (name, _) in enumerate(SCALARS)}
_ROWS = {s: native_rows(s) for s in ("i8", "i32", "f64")}
# Unit rows by field name (a list field has one row per element).
_ROW = {f.name: f.row for f in UNIT_FIELDS if f.storage != "py"}
_STORAGE = {f.name: f.storage for f in UNIT_FIELDS if f.storage != "py"}


def layout(spec, num_envs: int) -> dict:
    """Every array of a VectorGame snapshot: name -> (shape, dtype), as ``aa_core.vbatch.Engine`` makes
    them (``los``, a cache rebuilt on load, is not part of a snapshot).

    Parameters
    ----------
    spec : GameSpec
    num_envs : int

    Returns
    -------
    dict
    """
    n, U, K = num_envs, 2 * spec.C, spec.deck.size
    return {
        "scalars": ((n, len(SCALARS)), np.dtype(np.int32)),
        "unit_i8": ((n, len(_ROWS["i8"]), U), np.dtype(np.int8)),
        "unit_i32": ((n, len(_ROWS["i32"]), U), np.dtype(np.int32)),
        "unit_f64": ((n, len(_ROWS["f64"]), U), np.dtype(np.float64)),
        "piles": ((n, 2, 3, K), np.dtype(np.int16)),
        "counts": ((n, 2, NC), np.dtype(np.int32)),
        "sprint_bonus": ((n, 2), np.dtype(np.float64)),
        "fcover": ((n, max(1, len(spec.scenario.terrain))), np.dtype(np.int8)),
        "rng": ((n, PCG_WORDS), np.dtype(np.uint64)),
        "agent_rng": ((n, 2, PCG_WORDS), np.dtype(np.uint64)),   # side p's native agent stream
        "episode": ((n,), np.dtype(np.int64)),
        "game_seed": ((n,), np.dtype(np.uint64)),
    }


def env_bytes(spec) -> int:
    """Bytes one env of a VectorGame needs: its state arrays (:func:`layout`, the ``los`` cache, the
    kernel's per-env view and three random streams) plus one row of observations and of action masks."""
    U = 2 * spec.C
    state = sum(int(np.prod(shape[1:])) * dt.itemsize for shape, dt in layout(spec, 1).values())
    kernel = U * U + 11 * 8 + 3 * 64          # los cache, Game view (11 pointers), 3 bitgen_t
    return state + kernel + 4 * spec.observation_size + spec.num_actions + 64


class _Checker:
    """The checks of one snapshot; `fail` raises the ValueError naming array, env and field."""

    def __init__(self, arrays: dict, spec):
        self.a, self.spec = arrays, spec
        self.C, self.U, self.K = spec.C, 2 * spec.C, spec.deck.size
        self.n = arrays["scalars"].shape[0]

    # -- messages ----------------------------------------------------------------------------------
    def where(self, key: str, idx: tuple) -> str:
        """``arrays['key'][env e, <field>, ...]`` for the index `idx` of that array."""
        e, rest = idx[0], list(idx[1:])
        if key == "scalars":
            rest = [SCALARS[rest[0]][0]]
        elif key.startswith("unit_"):
            f = _ROWS[key[5:]][rest[0]][2]
            rest = [f.name + (f"[{rest[0] - f.row}]" if f.rows > 1 else ""), f"slot {rest[1]}"]
        elif key == "piles":
            rest = [f"player {rest[0]}", _PILE_NAMES[rest[1]], f"position {rest[2]}"]
        elif key == "counts":
            rest = [f"player {rest[0]}", _COUNT_NAMES[rest[1]]]
        elif key == "rng":
            rest = [f"word {rest[0]}"]
        elif key == "agent_rng":
            rest = [f"side {rest[0]}", f"word {rest[1]}"]
        elif key == "fcover":
            rest = [f"feature {rest[0]}"]
        elif key == "sprint_bonus":
            rest = [f"pending {rest[0]}"]
        return f"arrays[{key!r}][" + ", ".join([f"env {e}"] + [str(r) for r in rest]) + "]"

    def fail(self, key: str, idx: tuple, allowed: str):
        value = self.a[key][idx].item()
        raise ValueError(f"state: {self.where(key, idx)} = {value!r}; allowed {allowed}")

    def first(self, key: str, bad: np.ndarray, allowed: str):
        """Fail at the first True of `bad` (same shape as arrays[key])."""
        if bad.any():
            self.fail(key, tuple(int(i) for i in np.argwhere(bad)[0]), allowed)

    # -- views -------------------------------------------------------------------------------------
    def unit(self, name: str, k: int = 0) -> np.ndarray:
        """(n, U) view of a unit field (element k of a list field)."""
        return self.a["unit_" + _STORAGE[name]][:, _ROW[name] + k, :]

    def unit_fail(self, name: str, bad: np.ndarray, allowed: str, k: int = 0):
        """Fail at the first (env, slot) where `bad` ((n, U)) holds."""
        if bad.any():
            e, u = (int(i) for i in np.argwhere(bad)[0])
            self.fail("unit_" + _STORAGE[name], (e, _ROW[name] + k, u), allowed)

    def scalar(self, name: str) -> np.ndarray:
        return self.a["scalars"][:, _S[name]]

    def scalar_fail(self, name: str, bad: np.ndarray, allowed: str):
        if bad.any():
            self.fail("scalars", (int(np.flatnonzero(bad)[0]), _S[name]), allowed)


def _range(lo, hi) -> str:
    return f"{lo}..{hi}"


def check_arrays(arrays, spec, num_envs: int) -> dict:
    """The arrays of a snapshot, checked against the game's spec and ready for ``Engine.load``.

    Parameters
    ----------
    arrays : dict of ndarray
        ``VectorGame.__getstate__()["arrays"]``.
    spec : GameSpec
    num_envs : int

    Returns
    -------
    dict of ndarray
        The same arrays, C-contiguous.

    Raises
    ------
    TypeError
        If ``arrays`` is not a dict or an entry not a numpy array.
    ValueError
        If a key is missing or unknown, a dtype or shape is wrong, or a value is outside what the
        engine keeps (the message names the array, env and field and gives the allowed values).
    """
    if not isinstance(arrays, dict):
        raise TypeError(wrong_type("state: arrays", "a dict of numpy arrays", arrays))
    want = layout(spec, num_envs)
    missing, extra = sorted(set(want) - set(arrays), key=str), sorted(set(arrays) - set(want), key=str)
    if missing or extra:
        raise ValueError("state: arrays: " + (f"missing {missing}" if missing else "")
                         + ("; " if missing and extra else "") + (f"unknown {extra}" if extra else "")
                         + f"; expected the keys {sorted(want)}")
    out = {}
    for k, (shape, dtype) in want.items():
        a = arrays[k]
        if not isinstance(a, np.ndarray):
            raise TypeError(wrong_type(f"state: arrays[{k!r}]", f"a numpy array of {dtype}", a))
        if a.dtype != dtype:
            raise ValueError(f"state: arrays[{k!r}]: dtype {a.dtype}; expected {dtype}")
        if a.shape != shape:
            raise ValueError(f"state: arrays[{k!r}]: shape {a.shape}; expected {shape} "
                             f"(num_envs {num_envs})")
        out[k] = np.ascontiguousarray(a)
    c = _Checker(out, spec)
    _units(c)
    _piles(c)
    _scalars(c)
    _rest(c)
    return out


# -- units -----------------------------------------------------------------------------------------
def _defaults(c: _Checker) -> dict:
    """storage -> (rows,) the values free_slot writes in an empty slot (the schema defaults)."""
    out = {}
    for s, rows in _ROWS.items():
        out[s] = np.array([(f.default[r - f.row] if f.rows > 1 else f.default) for r, _, f in rows],
                          dtype=c.a["unit_" + s].dtype)
    return out


def _units(c: _Checker) -> None:
    spec, U, C = c.spec, c.U, c.C
    c.first("unit_f64", ~np.isfinite(c.a["unit_f64"]), "finite numbers")
    alive = c.unit("alive")
    c.unit_fail("alive", (alive != 0) & (alive != 1), "0, 1")
    live = alive == 1
    # an empty slot holds exactly what the engine's free_slot writes
    dflt = _defaults(c)
    for s, d in dflt.items():
        a = c.a["unit_" + s]
        bad = (a != d[None, :, None]) & ~live[:, None, :]
        if bad.any():
            e, r, u = (int(i) for i in np.argwhere(bad)[0])
            c.fail("unit_" + s, (e, r, u), f"{d[r]!r} in an empty slot (alive 0)")
    side = np.arange(U) // C
    terms = [bound_terms(spec, p) for p in (0, 1)]
    for f in UNIT_FIELDS:
        if f.storage != "py":
            _unit_field(c, f, live, side, terms)
    for name in ("markers", "wounds", "turn_markers"):
        v = np.where(live, c.unit(name), 0).astype(np.int64)
        for p in range(2):
            tot = v[:, p * C:(p + 1) * C].sum(axis=1)
            if (tot > MAX_VALUE).any():
                e = int(np.flatnonzero(tot > MAX_VALUE)[0])
                raise ValueError(f"state: arrays['unit_i32'][env {e}, {name}]: side {p}'s units hold {tot[e]}; "
                                 f"allowed at most {MAX_VALUE} in all")
    commanders = np.where(live, c.unit("commander"), 0)
    for p in range(2):
        many = commanders[:, p * C:(p + 1) * C].sum(axis=1) > 1
        if many.any():
            e = int(np.flatnonzero(many)[0])
            raise ValueError(f"state: arrays['unit_i8'][env {e}, commander]: side {p} has "
                             f"{int(commanders[e, p * C:(p + 1) * C].sum())} commanders; allowed at most 1")
    # the feature a unit aims at must be one of the heavy weapon's (resolve reads it as a feature)
    feat = live & (c.unit("target") >= U)
    c.unit_fail("target", feat & (c.unit("action") != Action.HEAVY_WEAPON),
                f"-1..{U - 1} unless the unit's action is HEAVY_WEAPON (a terrain feature)")


def _unit_field(c: _Checker, f, live: np.ndarray, side: np.ndarray, terms: list) -> None:
    """Every live slot's value of the native field ``f`` within its schema bounds, resolved per side
    (a set of values of schema.SETS for each element of a list field)."""
    per_side = [allowed(f.bounds, t) for t in terms]
    for k in range(f.rows):
        v = c.unit(f.name, k)
        if isinstance(f.bounds, str):
            values = np.array(per_side[0])
            c.unit_fail(f.name, live & ~np.isin(v, values), f"{SETS[f.bounds]}: " + ", ".join(map(str, values)), k)
            continue
        cast = float if f.storage == "f64" else int
        lo = np.array([cast(per_side[0][0]), cast(per_side[1][0])])[side]
        hi = np.array([cast(per_side[0][1]), cast(per_side[1][1])])[side]
        bad = live & ((v < lo) | (v > hi))
        if bad.any():
            e, u = (int(i) for i in np.argwhere(bad)[0])
            where = f" for a slot of side {side[u]}" if depends_on_game(f.bounds) else ""
            c.unit_fail(f.name, bad, _range(lo[u], hi[u]) + where, k)


# -- cards and figures -----------------------------------------------------------------------------
def _piles(c: _Checker) -> None:
    K, C, n = c.K, c.C, c.n
    piles, counts = c.a["piles"], c.a["counts"]
    c.first("piles", (piles < 0) | (piles >= K), _range(0, K - 1))
    cnt = counts[:, :, :3]
    c.first("counts", np.concatenate([(cnt < 0) | (cnt > K), np.zeros((n, 2, 1), bool)], axis=2),
            _range(0, K))
    init = np.asarray(c.spec.initial_figures)
    rem = counts[:, :, 3]
    bad = (rem < 0) | (rem > init[None, :])
    if bad.any():
        e, p = (int(i) for i in np.argwhere(bad)[0])
        c.fail("counts", (e, p, 3), _range(0, init[p]))
    live = c.unit("alive") == 1
    figures = np.where(live, c.unit("figures"), 0).astype(np.int64)
    card = c.unit("card")
    held = np.zeros((n, 2, K), dtype=np.int64)
    pos = np.arange(K)
    for p in range(2):
        tot = figures[:, p * C:(p + 1) * C].sum(axis=1) + rem[:, p]
        if (tot != init[p]).any():
            e = int(np.flatnonzero(tot != init[p])[0])
            raise ValueError(f"state: arrays['unit_i32'][env {e}, figures]: side {p} has "
                             f"{int(tot[e] - rem[e, p])} figures on the table and {int(rem[e, p])} removed "
                             f"(counts); they must add up to its {int(init[p])} figures at set-up")
        for w in range(3):
            used = pos[None, :] < cnt[:, p, w, None]
            e_idx, j = np.nonzero(used)
            np.add.at(held, (e_idx, p, piles[e_idx, p, w, j]), 1)
        on = live[:, p * C:(p + 1) * C] & (card[:, p * C:(p + 1) * C] >= 0)
        e_idx, u = np.nonzero(on)
        np.add.at(held, (e_idx, p, card[:, p * C:(p + 1) * C][e_idx, u]), 1)
    bad = held != 1
    if bad.any():
        e, p, k = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"state: arrays['piles'][env {e}, player {p}]: card {k} is held "
                         f"{int(held[e, p, k])} times in the deck, hand, discard (first counts[env {e}, "
                         f"player {p}] cards of each) and on the side's units; each card must be in "
                         f"exactly one place")


# -- scalars, per stage ----------------------------------------------------------------------------
def _scalars(c: _Checker) -> None:
    spec, U, C, n = c.spec, c.U, c.C, c.n
    s = c.scalar
    st = s("stage")
    c.scalar_fail("stage", (st < 0) | (st >= len(STAGES)), _range(0, len(STAGES) - 1))
    over = st == _STAGE["OVER"]
    c.scalar_fail("turn", (s("turn") < 1) | (s("turn") > spec.scenario.turns), _range(1, spec.scenario.turns))
    c.scalar_fail("cur", over & (s("cur") != -1), "-1 once the game is over")
    c.scalar_fail("cur", ~over & ((s("cur") < 0) | (s("cur") > 1)), "0, 1 while the game runs")
    for name in ("first", "activating", "next_act"):
        c.scalar_fail(name, (s(name) < 0) | (s(name) > 1), "0, 1")
    c.scalar_fail("last", (s("last") < -1) | (s("last") > 1), "-1..1")
    c.scalar_fail("phase", (s("phase") < 0) | (s("phase") > MAX_VALUE), _range(0, MAX_VALUE))
    c.scalar_fail("step", (s("step") < 0) | (s("step") > 2), "0..2")
    c.scalar_fail("winner", ~over & (s("winner") != -2), "-2 while the game runs")
    c.scalar_fail("winner", over & ((s("winner") < -1) | (s("winner") > 1)), "-1..1 once the game is over")
    c.scalar_fail("reason", (s("reason") < 0) | (s("reason") >= len(END_REASONS)),
                  _range(0, len(END_REASONS) - 1))
    for name in ("act", "react", "decl", "pend0", "pend1"):
        c.scalar_fail(name, (s(name) < -1) | (s(name) >= U), _range(-1, U - 1))
    c.scalar_fail("npend", (s("npend") < 0) | (s("npend") > 2), "0..2")
    for p in range(2):
        discards = c.a["counts"][:, p, 2]
        c.scalar_fail(f"hidden{p}", (s(f"hidden{p}") < 0) | (s(f"hidden{p}") > discards),
                      f"0..player {p}'s discards (counts)")
        c.scalar_fail(f"noany{p}", (s(f"noany{p}") < 0) | (s(f"noany{p}") > 1), "0, 1")

    act, react, decl, cur = s("act"), s("react"), s("decl"), s("cur")
    e = np.arange(n)
    live = c.unit("alive") == 1
    card, action, posture = c.unit("card"), c.unit("action"), c.unit("posture")
    target, target2, asset = c.unit("target"), c.unit("target2"), c.unit("asset")

    def at(field, uid):     # field of unit `uid` per env (uid clipped: read only where uid >= 0)
        return field[e, np.clip(uid, 0, U - 1)]

    idle = np.isin(st, [_STAGE[x] for x in ("ORDERS", "ACTIVATE", "SPLIT", "OVER")])
    for name in ("act", "react", "decl"):
        c.scalar_fail(name, idle & (s(name) != -1), "-1 outside an Activation phase's declarations")
    c.scalar_fail("npend", idle & (s("npend") != 0), "0 outside an Activation phase")
    turns = np.isin(st, [_STAGE["ORDERS"], _STAGE["SPLIT"]])
    c.scalar_fail("step", turns & (s("step") > 1), "0, 1 in the Orders and Split stages")
    mover = np.where(s("step") == 0, s("first"), 1 - s("first"))
    c.scalar_fail("cur", turns & (cur != mover), "the first player at step 0, the other at step 1")
    c.scalar_fail("cur", (st == _STAGE["ACTIVATE"]) & (cur != s("activating")), "the Activating player")
    c.scalar_fail("cur", (st == _STAGE["REACT"]) & (cur != 1 - s("activating")), "the Reacting player")

    # the activated and reacting units: live, holding their card, on their sides
    busy = ~idle
    c.scalar_fail("act", busy & (act < 0), f"0..{U - 1} (a unit) during an Activation phase")
    for name, uid, sd in (("act", act, s("activating")), ("react", react, 1 - s("activating"))):
        on = uid >= 0
        c.scalar_fail(name, on & ~at(live, uid), "a live unit")
        c.scalar_fail(name, on & (at(card, uid) < 0), "a unit holding an order card")
        c.scalar_fail(name, on & (uid // C != sd), f"a unit of side {'activating' if name == 'act' else 'reacting'}")
    react_stage = np.isin(st, [_STAGE["REACT"], _STAGE["RESERVE_PICK"]])
    c.scalar_fail("react", react_stage & (react != -1), "-1 before the reaction")
    c.scalar_fail("react", (st != _STAGE["ACTIVATE"]) & busy & (decl == act) & (react != -1)
                  & ~np.isin(st, [_STAGE["MOVE"], _STAGE["SPRINT_MOVE"]]),
                  "-1 while the activated unit declares")
    # the unit a stage works on
    declaring = np.isin(st, [_STAGE[x] for x in ("DECLARE_ACTION", "DECLARE_TARGET", "DECLARE_TARGET2",
                                                   "DECLARE_ASSET")])
    moving = np.isin(st, [_STAGE["MOVE"], _STAGE["SPRINT_MOVE"]])
    pick = st == _STAGE["RESERVE_PICK"]
    needs = declaring | moving | pick
    c.scalar_fail("decl", needs & ((decl < 0) | ~at(live, decl)), "a live unit in this stage")
    c.scalar_fail("decl", needs & (decl // C != cur), "a unit of the player to move")
    c.scalar_fail("decl", (declaring | moving) & (decl != act) & (decl != react), "the act or react unit")
    c.scalar_fail("decl", pick & (at(card, decl) != -1), "a unit without an order card (Reserve pick)")
    c.scalar_fail("decl", declaring & (at(card, decl) < 0), "a unit holding an order card")
    chosen = np.isin(st, [_STAGE[x] for x in ("DECLARE_TARGET", "DECLARE_TARGET2", "DECLARE_ASSET")])
    _declared(c, chosen, decl, at, action, posture, None)
    c.scalar_fail("decl", (st == _STAGE["DECLARE_TARGET2"]) & ((at(action, decl) != Action.SPLIT_FIRE)
                                                              | (at(target, decl) < 0)
                                                              | (at(target, decl) >= U)),
                  "a Split Fire unit with its first target (DECLARE_TARGET2)")
    c.scalar_fail("decl", (st == _STAGE["DECLARE_TARGET2"]) & ~at(live, at(target, decl)),
                  "a Split Fire unit whose first target is a live unit (DECLARE_TARGET2)")
    c.scalar_fail("decl", (st == _STAGE["DECLARE_ASSET"]) & (at(action, decl) != Action.CALL_FOR_FIRE),
                  "a Call for Fire unit (DECLARE_ASSET)")
    c.scalar_fail("decl", (st == _STAGE["MOVE"]) & ~np.isin(at(action, decl), [Action.BASIC, Action.SPRINT]),
                  "a unit moving by Basic or Sprint action (MOVE)")
    # declarations the resolution will read: complete for every participant past its own
    act_done = np.isin(st, [_STAGE[x] for x in ("REACT", "RESERVE_PICK", "MOVE", "SPRINT_MOVE")]) \
        | (declaring & (decl != act))
    react_done = (react >= 0) & (moving | (declaring & (decl != react)))
    _declared(c, act_done, act, at, action, posture, (target, target2, asset, "act"))
    _declared(c, react_done, react, at, action, posture, (target, target2, asset, "react"))
    # units still to move or sprint: the participants, in order
    npend = s("npend")
    c.scalar_fail("npend", moving & (npend < 1), "1..2 while a unit moves")
    c.scalar_fail("decl", moving & (decl != s("pend0")), "the first pending unit while it moves")
    for k, name in ((1, "pend0"), (2, "pend1")):
        p = s(name)
        c.scalar_fail(name, (npend >= k) & (p < 0), "a unit while pending")
        c.scalar_fail(name, (npend >= k) & (p != act) & (p != react), "the act or react unit")
        c.scalar_fail(name, (npend >= k) & ~np.isin(at(action, p), [Action.BASIC, Action.SPRINT])
                      & (st != _STAGE["SPRINT_MOVE"]), "a unit moving by Basic or Sprint action")
        c.scalar_fail(name, (npend >= k) & (st == _STAGE["SPRINT_MOVE"]) & (at(action, p) != Action.SPRINT),
                      "a sprinting unit (SPRINT_MOVE)")


def _declared(c: _Checker, where, uid, at, action, posture, targets) -> None:
    """The units `uid` (where `where`) have declared an action and posture and, with `targets`,
    the targets their action's resolution reads."""
    U, C = c.U, c.C
    name = "decl" if targets is None else targets[3]
    a = at(action, uid)
    c.scalar_fail(name, where & ((a < 0) | (at(posture, uid) < 0)), "a unit that has declared its action")
    if targets is None:
        return
    target, target2, asset, _ = targets
    t = at(target, uid)
    live = c.unit("alive") == 1
    # the units fire and Rally resolve against are on the table (a dead slot has no dice to roll)
    c.scalar_fail(name, where & (t >= 0) & (t < U) & ~at(live, t), "a unit whose target is a live unit")
    t2 = at(target2, uid)
    c.scalar_fail(name, where & (a == Action.SPLIT_FIRE) & (t2 >= 0) & ~at(live, t2),
                  "a unit whose second target is a live unit")
    c.scalar_fail(name, where & (a == Action.RALLY) & ((t < 0) | (t >= U) | (t // C != uid // C)),
                  "a Rally unit with a friendly target")
    c.scalar_fail(name, where & (a == Action.SPLIT_FIRE) & (t >= 0) & (at(target2, uid) < 0),
                  "a Split Fire unit with both targets")
    c.scalar_fail(name, where & (a == Action.CALL_FOR_FIRE) & (at(asset, uid) < 0),
                  "a Call for Fire unit with its asset")


# -- the rest --------------------------------------------------------------------------------------
def _rest(c: _Checker) -> None:
    n_feat = len(c.spec.scenario.terrain)
    fc = c.a["fcover"]
    cover0 = np.zeros(fc.shape[1], dtype=np.int64)
    cover0[:n_feat] = [f.cover for f in c.spec.scenario.terrain]
    bad = (fc < 0) | (fc > cover0[None, :])
    if bad.any():
        e, f = (int(i) for i in np.argwhere(bad)[0])
        c.fail("fcover", (e, f), _range(0, int(cover0[f])) + (" (the feature's cover at set-up)" if f < n_feat
                                                               else " (no such feature)"))
    b = c.a["sprint_bonus"]
    c.first("sprint_bonus", ~np.isfinite(b) | (np.abs(b) > MAX_SPRINT_CM), f"finite numbers within +-{MAX_SPRINT_CM:g}")
    for key in ("rng", "agent_rng"):
        w = c.a[key]
        bad = np.zeros(w.shape, bool)
        bad[..., 3] = (w[..., 3] & np.uint64(1)) == 0
        c.first(key, bad, "an odd increment (low word; numpy's PCG64 keeps it odd)")
        bad[:] = False
        bad[..., 4] = w[..., 4] > 1
        c.first(key, bad, "0, 1 (has_uint32)")
        bad[:] = False
        bad[..., 5] = w[..., 5] > np.uint64(2**32 - 1)
        c.first(key, bad, f"0..{2**32 - 1} (the buffered uint32)")
    ep = c.a["episode"]
    bad = (ep < 0) | (ep > MAX_EPISODE)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"state: arrays['episode'][env {i}] = {int(ep[i])}; allowed 0..{MAX_EPISODE}")


def check_top(d) -> dict:
    """The scalar entries of a VectorGame snapshot (``num_envs``, ``seed``, ``threads``,
    ``record_events``; ``scenario``, ``rules``, ``agent_params`` and ``arrays`` are checked by their
    users)."""
    if not isinstance(d, dict):
        raise TypeError(wrong_type("state", "a dict (VectorGame.__getstate__())", d))
    keys = {"scenario", "rules", "num_envs", "seed", "threads", "record_events", "agent_params", "arrays"}
    if set(d) != keys:
        missing, extra = sorted(keys - set(d), key=str), sorted(set(d) - keys, key=str)
        raise ValueError("state: " + (f"missing {missing}" if missing else "")
                         + ("; " if missing and extra else "") + (f"unknown {extra}" if extra else "")
                         + f"; expected the keys {sorted(keys)}")
    for k in ("num_envs", "seed", "threads"):
        if isinstance(d[k], (bool, np.bool_)) or not isinstance(d[k], numbers.Integral):
            raise TypeError(wrong_type(f"state: {k}", "an int", d[k]))
    return d
