"""The native agents' side of :class:`~atomic_africa.game.VectorGame`: agent codes, their parameters,
the seeds of their random streams, and the checks of those arguments.

The agents themselves run in the kernel (``aa_core.vgame``: ``agent_action``); each is the batched
twin of the Python agent of the same name in :mod:`atomic_africa.agents` (which this layer cannot
import: :func:`atomic_africa.agents.native.agent_params` gives the Python classes' defaults).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from aa_core.vgame import AGENT_KINDS as _KINDS

from ... import _validate as v
from ..._limits import MAX_LEGAL as _MAX_LEGAL
from ..._limits import MAX_SIMULATIONS as _MAX_SIMULATIONS
from .params_schema import AGENT_PARAM_FIELDS as _AGENT_PARAM_FIELDS

__all__ = ["AGENT_KINDS", "AGENT_PARAM_FIELDS", "agent_seed", "learner_side", "agent_kinds", "seed_array",
           "check_agent_params", "NEEDS_PARAMS"]

#: Native agent code by name (the kernel's ``AGENT_*``), as :data:`atomic_africa.agents.AGENTS` names them.
AGENT_KINDS = dict(_KINDS)
_NAME_OF = {code: name for name, code in AGENT_KINDS.items()}
#: The fields of the kernel's ``AgentParams`` (the Python agents' constructor arguments), from their one
#: declaration (:data:`.params_schema.AGENT_PARAMS`).
AGENT_PARAM_FIELDS = _AGENT_PARAM_FIELDS
#: Agent codes that read :data:`AGENT_PARAM_FIELDS` (greedy, doctrine).
NEEDS_PARAMS = frozenset({AGENT_KINDS["greedy"], AGENT_KINDS["doctrine"], AGENT_KINDS["ismcts"]})
_ALLOWED = ", ".join(f"{name!r} ({code})" for name, code in sorted(AGENT_KINDS.items(), key=lambda x: x[1]))
_SEED_MAX = 2**64 - 1
# the rollout agents of a search: every native agent but the search itself
_ROLLOUT_CODES = frozenset(float(c) for n, c in AGENT_KINDS.items() if n != "ismcts")


def agent_seed(game_seed: int, side: int) -> int:
    """The seed of side ``side``'s agent in the game of seed ``game_seed`` when a VectorGame starts
    episodes itself (its random agent then plays as ``RandomAgent(agent_seed(game_seed, side))``).

    Parameters
    ----------
    game_seed : int
        ``>= 0`` (a VectorGame's game seeds are below 2**64).
    side : {0, 1}

    Returns
    -------
    int
        ``SeedSequence(game_seed, spawn_key=(side,)).generate_state(1, uint64)[0]``.
    """
    game_seed = v.as_int(game_seed, "game_seed", lo=0)
    side = v.as_int(side, "side", lo=0, hi=1)
    return int(np.random.SeedSequence(game_seed, spawn_key=(side,)).generate_state(1, np.uint64)[0])


def learner_side(game_seed: int) -> int:
    """The learner's side in the game of seed ``game_seed`` when a Gymnasium env plays with
    ``player="random"`` (the single and the vector env draw the same side for the same game).

    Parameters
    ----------
    game_seed : int
        ``>= 0`` (a VectorGame's game seeds are below 2**64).

    Returns
    -------
    int
        ``SeedSequence(game_seed, spawn_key=(2,)).generate_state(1, uint64)[0] & 1`` (spawn keys 0
        and 1 are the sides' agent streams, :func:`agent_seed`); the native kernel computes the same.
    """
    game_seed = v.as_int(game_seed, "game_seed", lo=0)
    return int(np.random.SeedSequence(game_seed, spawn_key=(2,)).generate_state(1, np.uint64)[0] & 1)


def _code(x, name: str) -> int:
    if isinstance(x, str):
        key = x.strip().lower()
        if key not in AGENT_KINDS:
            raise ValueError(f"{name}: unknown native agent {x!r}; allowed {_ALLOWED}")
        return AGENT_KINDS[key]
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise TypeError(v.wrong_type(name, f"an agent name or code ({_ALLOWED})", x))
    if int(x) not in _NAME_OF:
        raise ValueError(f"{name}: {int(x)} is not a native agent code; allowed {_ALLOWED}")
    return int(x)


def agent_kinds(value, name: str, shape: tuple) -> np.ndarray:
    """Agent names or codes (a scalar, or an array broadcastable to ``shape``) as a C-contiguous int8
    array of ``shape``; a ValueError/TypeError naming ``name`` and the allowed agents otherwise."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu":   # codes: checked without a loop
        bad = (value < 0) | (value > max(_NAME_OF))
        if bad.any():
            _code(int(value[bad].reshape(-1)[0]), name)   # raises, naming the value
        out = value.astype(np.int8, copy=False)
    elif isinstance(value, (str, numbers.Integral)) or np.ndim(value) == 0:
        out = np.full(shape, _code(value, name), dtype=np.int8)
    else:
        try:
            arr = np.asarray(value, dtype=object)
        except ValueError as e:   # ragged nesting
            raise ValueError(f"{name}: not a rectangular array ({e})") from None
        out = np.array([_code(x, name) for x in arr.reshape(-1)], dtype=np.int8).reshape(arr.shape)
    if out.shape == shape:
        return np.ascontiguousarray(out)
    try:
        return np.ascontiguousarray(np.broadcast_to(out, shape))
    except ValueError:
        each = "one per env" if len(shape) == 1 else "one per env and side"
        raise ValueError(f"{name}: expected one agent, or an array of agents of shape {shape} ({each}), got "
                         f"shape {out.shape}") from None


def seed_array(value, name: str, shape=None) -> np.ndarray:
    """Non-negative integer seeds below 2**64 of exactly ``shape`` (``None``: any 1-d length), as a
    C-contiguous uint64 array."""
    try:
        # Python ints stay exact (a list mixing seeds above 2**63 would become float64)
        arr = value if isinstance(value, np.ndarray) else np.asarray(value, dtype=object)
    except ValueError as e:
        raise ValueError(f"{name}: not a rectangular array ({e})") from None
    if shape is None:
        if arr.ndim != 1:
            raise ValueError(f"{name}: expected a 1-d array of seeds, got shape {arr.shape}")
        shape = arr.shape
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if arr.dtype.kind == "u":
        return np.ascontiguousarray(arr, dtype=np.uint64)
    if arr.dtype.kind == "i":
        if arr.size and arr.min() < 0:
            raise ValueError(v.out_of_range(name, f"value {int(arr.min())}", f"0..{_SEED_MAX}"))
        return np.ascontiguousarray(arr, dtype=np.uint64)
    if arr.dtype.kind != "O" and arr.size:
        raise TypeError(f"{name}: expected non-negative integer seeds, got dtype {arr.dtype}")
    out = np.empty(shape, dtype=np.uint64)
    for idx, x in np.ndenumerate(arr):
        out[idx] = v.as_int(x, f"{name}{list(idx)}", lo=0, hi=_SEED_MAX)
    return out


def check_agent_params(params, name: str = "agent_params") -> dict:
    """A dict of exactly :data:`AGENT_PARAM_FIELDS` with finite real values (floats)."""
    if not isinstance(params, dict):
        raise TypeError(v.wrong_type(name, f"a dict of {', '.join(AGENT_PARAM_FIELDS)}", params))
    missing = [k for k in AGENT_PARAM_FIELDS if k not in params]
    extra = sorted((k for k in params if k not in AGENT_PARAM_FIELDS), key=str)
    if missing or extra:
        raise ValueError(f"{name}: " + (f"missing {missing}" if missing else "")
                         + ("; " if missing and extra else "") + (f"unknown {extra}" if extra else "")
                         + f"; expected the keys {list(AGENT_PARAM_FIELDS)}")
    out = {}
    for k in AGENT_PARAM_FIELDS:
        x = params[k]
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
            raise TypeError(v.wrong_type(f"{name}[{k!r}]", "a finite real number", x))
        if not math.isfinite(float(x)):
            raise ValueError(v.out_of_range(f"{name}[{k!r}]", x, "finite numbers"))
        out[k] = float(x)
    _check_search(out, name)
    return out


def _check_search(p: dict, name: str) -> None:
    """The ISMCTS fields: whole simulations 1..MAX_SIMULATIONS, exploration >= 0, a rollout agent that
    does not search, whole rollout decisions >= 0, a whole width 0..MAX_LEGAL."""
    def bad(k, allowed):
        raise ValueError(v.out_of_range(f"{name}[{k!r}]", p[k], allowed))
    if not (p["simulations"].is_integer() and 1 <= p["simulations"] <= _MAX_SIMULATIONS):
        bad("simulations", f"whole numbers 1..{_MAX_SIMULATIONS}")
    if p["exploration"] < 0:
        bad("exploration", "numbers >= 0")
    if p["rollout"] not in _ROLLOUT_CODES:
        bad("rollout", ", ".join(f"{c} ({n!r})" for n, c in AGENT_KINDS.items() if c in _ROLLOUT_CODES))
    if not (p["rollout_depth"].is_integer() and p["rollout_depth"] >= 0):
        bad("rollout_depth", "whole numbers >= 0 (0: to the end of the game)")
    if not (p["width"].is_integer() and 0 <= p["width"] <= _MAX_LEGAL):
        bad("width", f"whole numbers 0..{_MAX_LEGAL} (0: every legal action)")
