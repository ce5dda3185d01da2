"""Who plays in a league: built-in and game agents by name, outside policies by ``module:callable``.

A policy is any callable ``policy(observations, action_masks) -> actions`` on a batch: float32
observations of shape ``(k, observation_size)`` (each row the observation of the player to move, the
policy's side, as ``VectorGame.observations()``), bool masks of shape ``(k, num_actions)``, and it
returns ``k`` legal integer action ids. A *game agent* (:data:`GAME_AGENTS`, e.g.
``"openspiel-ismcts"`` with the ``open_spiel`` extra) is an agent of another library that plays one
:class:`~atomic_africa.game.Game` at a time, ``act(game) -> int``. A policy is
imported with :mod:`importlib` (the working directory first on the path, as ``python -m`` would), so
a file ``my_policy.py`` beside the command is ``my_policy:act``; ``package.module:object.method``
reaches attributes of attributes.
"""
from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from collections.abc import Callable

import numpy as np

from .._optional import require
from ..agents import AGENTS, LEARNED_AGENTS

__all__ = ["Entrant", "parse_entrants", "resolve_policy", "check_actions", "GAME_AGENTS"]


def _openspiel_ismcts(seed: int, search: dict):
    from ..env.open_spiel import OpenSpielISMCTSAgent   # needs the open_spiel extra
    return OpenSpielISMCTSAgent(seed, simulations=search["simulations"], exploration=search["exploration"])


#: Game agents by name: ``make(seed, search) -> agent`` with ``act(game) -> int``, given the league's
#: search parameters completed with their defaults (:func:`atomic_africa.agents.search.check_search`).
#: ``"openspiel-ismcts"``: OpenSpiel's ``ISMCTSBot`` (:class:`atomic_africa.env.open_spiel.OpenSpielISMCTSAgent`),
#: which takes ``simulations`` and ``exploration`` (its rollouts are OpenSpiel's random ones).
GAME_AGENTS = {"openspiel-ismcts": _openspiel_ismcts}
# The optional package each game agent needs and its extra: checked when the agent is named, before
# any game is played.
_NEEDS = {"openspiel-ismcts": ("pyspiel", "open_spiel")}


@dataclass(frozen=True)
class Entrant:
    """One agent of a league: a built-in agent (``policy`` and ``agent`` None; native, or learned:
    ``"puct"``, ``"network"``), an outside policy, or a game agent (``agent``: its maker, a value of
    :data:`GAME_AGENTS`)."""

    name: str
    policy: Callable | None = None
    agent: Callable | None = None

    @property
    def builtin(self) -> bool:
        """Played by the C core alone (a native built-in agent: not a policy, a learned or a game agent)."""
        return self.policy is None and self.agent is None and self.name not in LEARNED_AGENTS


def parse_entrants(text, name: str = "agents") -> list:
    """The entrants of a comma-separated list (or a sequence of names).

    Parameters
    ----------
    text : str or sequence of str
        Built-in agent names (:data:`atomic_africa.agents.AGENTS`, any case), game agents
        (:data:`GAME_AGENTS`) and ``module:callable`` policies; at least two, no repeats.
    name : str
        The argument's name for error messages.

    Returns
    -------
    list of Entrant

    Raises
    ------
    ValueError
        Naming ``name`` and the entry: fewer than two agents, an empty or repeated entry, an unknown
        built-in name, or a policy that cannot be resolved (see :func:`resolve_policy`).
    MissingExtraError
        A game agent's optional package is not installed (the message names the extra).
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    out, seen = [], set()
    for raw in items:
        item = str(raw).strip()
        if not item:
            raise ValueError(f"{name}: empty agent name in {text!r}")
        if ":" in item:
            entrant = Entrant(item, resolve_policy(item, name))
        elif item.lower() in GAME_AGENTS:
            item = item.lower()
            require(*_NEEDS[item], item)
            entrant = Entrant(item, agent=GAME_AGENTS[item])
        else:
            item = item.lower()
            if item not in AGENTS:
                raise ValueError(f"{name}: unknown agent {item!r}; allowed: {', '.join(sorted(AGENTS))}, "
                                 f"{', '.join(sorted(GAME_AGENTS))} or a policy as module:callable")
            entrant = Entrant(item)
        if entrant.name in seen:
            raise ValueError(f"{name}: {entrant.name!r} is listed twice")
        seen.add(entrant.name)
        out.append(entrant)
    if len(out) < 2:
        raise ValueError(f"{name}: a league needs at least two agents, got {len(out)} ({text!r})")
    return out


def resolve_policy(spec: str, name: str = "agents") -> Callable:
    """The callable named by ``"module:attribute"`` (the attribute may be dotted).

    Raises
    ------
    ValueError
        Naming ``name`` and ``spec``: malformed, module not found, import failed, attribute missing,
        or not callable.
    """
    module_name, _, attr = spec.partition(":")
    module_name, attr = module_name.strip(), attr.strip()
    if not module_name or not attr or ":" in attr:
        raise ValueError(f"{name}: {spec!r} is not a policy; expected module:callable, e.g. my_policy:act")
    # The working directory first, as `python -m` has it; restored afterwards (no lasting change).
    sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise ValueError(f"{name}: policy {spec!r}: no module named {exc.name!r} (looked in the "
                             f"working directory and sys.path)") from None
        raise ValueError(f"{name}: policy {spec!r}: importing {module_name!r} failed: {exc}") from exc
    except Exception as exc:   # the policy's own module is broken: say so, keep the cause for --debug
        raise ValueError(f"{name}: policy {spec!r}: importing {module_name!r} failed: "
                         f"{type(exc).__name__}: {exc}") from exc
    finally:
        sys.path.remove(os.getcwd())
    obj = module
    for i, part in enumerate(attr.split(".")):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            where = module_name + "".join("." + p for p in attr.split(".")[:i])
            raise ValueError(f"{name}: policy {spec!r}: {where!r} has no attribute {part!r}") from None
    if not callable(obj):
        raise ValueError(f"{name}: policy {spec!r} is not callable (it is {type(obj).__name__}); expected "
                         f"a function policy(observations, action_masks) -> actions")
    return obj


def check_actions(actions, masks: np.ndarray, policy_name: str) -> np.ndarray:
    """A policy's answer as int64 ``(k,)``, checked: integer dtype, shape, every action legal.

    Raises
    ------
    ValueError, TypeError
        Naming the policy, the row and the action.
    """
    k = masks.shape[0]
    try:
        a = np.asarray(actions)
    except Exception as exc:
        raise TypeError(f"policy {policy_name!r} returned {type(actions).__name__}, not an array of "
                        f"action ids ({exc})") from None
    if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"policy {policy_name!r} returned dtype {a.dtype}; expected integer action ids "
                        f"(e.g. int64)")
    if a.shape != (k,):
        raise ValueError(f"policy {policy_name!r} returned shape {a.shape}; expected ({k},), one action "
                         f"per observation row")
    a = a.astype(np.int64)
    n_actions = masks.shape[1]
    in_range = (a >= 0) & (a < n_actions)
    legal = in_range.copy()
    legal[in_range] = masks[np.flatnonzero(in_range), a[in_range]]
    if not legal.all():
        row = int(np.flatnonzero(~legal)[0])
        raise ValueError(f"policy {policy_name!r} returned illegal action {int(a[row])} in row {row} "
                         f"(legal there: {np.count_nonzero(masks[row])} of 0..{n_actions - 1}, per "
                         f"action_masks[{row}])")
    return a
