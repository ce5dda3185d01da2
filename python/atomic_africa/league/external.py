"""Matches with an outside policy, played on the native batch (:class:`~atomic_africa.game.VectorGame`).

Games are played in chunks of :data:`CHUNK` envs; chunk ``c`` of a match with seed ``S`` is a
VectorGame seeded ``SeedSequence(S, spawn_key=(c,))``'s first word, and its env ``j`` is the match's
game ``c * CHUNK + j``: it plays exactly one game (its first episode with a decision), so each game
depends only on ``S`` and its index. Each step calls the policy once with the rows of the games where
its side is to move, in the side-relative view (:class:`~atomic_africa.game.side_view.SideView`, the
environments' default: player 1 sees the table turned, own slots first), so a policy trained in the
environments plays either side in the frame it learned; its actions are mapped back to the engine's
ids. A built-in side is played by the engine's native agent
(:meth:`VectorGame.agent_actions`, the Python agent's twin), which draws only from its env's agent
stream.
"""
from __future__ import annotations

import math
import numbers
import queue
import threading

import numpy as np

from .._text import printable
from ..agents.search import search_overrides
from ..game import VectorGame
from ..game.side_view import SideView
from ..selfplay.vector_play import play_vector as _play_vector
from .entrants import Entrant, check_actions

__all__ = ["play_external", "play_vector", "CHUNK", "DEFAULT_POLICY_TIMEOUT", "PolicyError", "PolicyTimeout",
           "check_policy_timeout"]

#: Games per VectorGame; fixed, so that a game's seed never depends on how a run is split.
CHUNK = 64
#: Seconds one call of an outside policy may take (it answers up to CHUNK games at once) before the
#: league stops: far above a network's inference on 64 rows (milliseconds), short enough that a hung
#: policy is noticed.
DEFAULT_POLICY_TIMEOUT = 60.0


class PolicyError(ValueError):
    """An outside policy misbehaved: it raised (any BaseException but KeyboardInterrupt), called
    ``sys.exit``, or returned something that is not a legal action per row; the message names it."""


class PolicyTimeout(PolicyError):
    """An outside policy gave no answer within the policy timeout (``policy`` and ``timeout`` say
    which and how long)."""

    def __init__(self, policy: str, timeout: float):
        super().__init__(f"policy {policy!r} gave no answer within {timeout:g} s (the policy timeout); the "
                         f"league stopped")
        self.policy, self.timeout = policy, timeout


def check_policy_timeout(value, name: str = "policy_timeout") -> float | None:
    """``value`` as seconds > 0, or None for no timeout (``None`` or 0).

    Raises
    ------
    TypeError, ValueError
        Naming ``name``: not a number, negative, NaN or infinite.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected seconds (a number >= 0, 0 or None: no timeout), got "
                        f"{type(value).__name__} {printable(repr(value))[:40]}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name}: {value!r} is out of range; allowed finite seconds >= 0 (0 or None: no timeout)")
    return float(value) or None


def _why(exc: BaseException) -> str:
    """``"Type: message"`` of an exception a policy raised, in one line, whatever its ``__str__`` does."""
    try:
        text = str(exc)
    except BaseException as inner:      # noqa: B036 - the policy's own code: anything may come out
        text = f"(its message cannot be shown: {type(inner).__name__})"
    text = " ".join(printable(text).split())
    if len(text) > 300:
        text = text[:300] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _answer(policy, obs, masks):
    """Call the policy and turn its answer into an array, catching everything it may raise:
    ``("ok", array)``, ``("interrupt", None)``, ``("exit", code)``, ``("raised", why)`` or
    ``("not array", (type name, why))``."""
    try:
        answer = policy(obs, masks)
    except KeyboardInterrupt:
        return "interrupt", None
    except SystemExit as exc:
        return "exit", exc.code
    except BaseException as exc:        # noqa: B036 - a BaseException subclass is the policy's too
        return "raised", _why(exc)
    try:
        return "ok", np.asarray(answer)
    except KeyboardInterrupt:
        return "interrupt", None
    except BaseException as exc:        # noqa: B036
        return "not array", (type(answer).__name__, _why(exc))


class _PolicyThread:
    """The thread one outside policy is called on, so that a call can be timed out: the same thread
    for every call (a policy may keep thread-local state); a daemon, so that a call that never
    returns does not keep the process alive once the league has stopped."""

    def __init__(self, name: str):
        self.requests = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name=f"policy {name}", daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            policy, obs, masks, box, done = self.requests.get()
            box.append(_answer(policy, obs, masks))
            done.set()

    def call(self, policy, obs, masks, timeout: float):
        box, done = [], threading.Event()
        self.requests.put((policy, obs, masks, box, done))
        if not done.wait(timeout):        # Ctrl-C interrupts the wait (KeyboardInterrupt)
            return None
        return box[0]


_THREADS: dict = {}
_THREADS_LOCK = threading.Lock()


def _call(entrant: Entrant, obs, masks, timeout: float | None) -> np.ndarray:
    """The policy's answer as an array, or PolicyError / PolicyTimeout naming it (KeyboardInterrupt
    passes: it stops the league as Ctrl-C does)."""
    if timeout is None:
        outcome = _answer(entrant.policy, obs, masks)
    else:
        key = id(entrant.policy)
        with _THREADS_LOCK:
            worker = _THREADS.get(key)
            if worker is None or worker[0] is not entrant.policy:
                worker = _THREADS[key] = (entrant.policy, _PolicyThread(entrant.name))
        outcome = worker[1].call(entrant.policy, obs, masks, timeout)
        if outcome is None:
            with _THREADS_LOCK:             # that thread is busy for good: a later call gets a new one
                if _THREADS.get(key) is worker:
                    del _THREADS[key]
            raise PolicyTimeout(entrant.name, timeout)
    kind, value = outcome
    if kind == "ok":
        return value
    if kind == "interrupt":
        raise KeyboardInterrupt
    if kind == "exit":
        raise PolicyError(f"policy {entrant.name!r} called sys.exit({printable(repr(value))[:40]}); a policy must "
                          f"return actions, not end the program")
    if kind == "raised":
        raise PolicyError(f"policy {entrant.name!r} raised {value}")
    raise PolicyError(f"policy {entrant.name!r} returned {value[0]}, not an array of action ids ({value[1]})")


def _chunk_seed(seed: int, chunk: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(1, np.uint64)[0])


def _policy_actions(entrant: Entrant, view: SideView, obs, masks, cur, rows, timeout) -> tuple:
    """(env indices, their checked engine actions) of the policy's rows; the policy sees and answers
    in ``view`` of the side to move (``cur``)."""
    idx = np.flatnonzero(rows)
    side = cur[idx]
    seen = view.action_mask(masks[idx], side)    # fresh arrays: the policy may write into them
    answer = _call(entrant, view.observation(obs[idx], side), seen.copy(), timeout)
    try:
        actions = check_actions(answer, seen, entrant.name)
    except (TypeError, ValueError) as exc:
        raise PolicyError(str(exc)) from None
    return idx, view.action_to_engine(actions, side)


def play_external(entrants, n_games: int, seed: int, *, scenario=None, rules=None,
                  alternate: bool = True, policy_timeout=DEFAULT_POLICY_TIMEOUT, search=None, learned=None) -> list:
    """Play ``n_games`` between entrants A and B where at least one is an outside policy or a learned
    agent (``"puct"``, ``"network"``).

    Parameters
    ----------
    entrants : (Entrant, Entrant)
        A and B.
    n_games : int
    seed : int
        The match seed (non-negative).
    scenario, rules
        As for :class:`~atomic_africa.game.VectorGame`.
    alternate : bool
        A plays side ``i % 2`` of game ``i`` (else side 0), as :func:`atomic_africa.selfplay.play_games`.
    policy_timeout : float or None
        Seconds one call of a policy may take (:data:`DEFAULT_POLICY_TIMEOUT`); None or 0: no
        timeout. With a timeout each policy is called on a thread of its own (the same one for every
        call, a daemon: a call that never returns is left behind when the league stops); without,
        on the calling thread.
    search : dict, optional
        Search parameters of an ``"ismcts"`` entrant (:func:`atomic_africa.agents.search.check_search`).
    learned : Learned, optional
        The network and search of ``"puct"`` / ``"network"`` entrants
        (:func:`atomic_africa.agents.learned.check_learned`; default: the packaged network).

    Returns
    -------
    list of dict
        One record per game, keyed by :data:`atomic_africa.selfplay.COLUMNS`; ``seed`` is the game
        seed (``Game(scenario, seed)`` replays the game's dice).

    Raises
    ------
    PolicyError
        A ValueError naming the policy: it raised (any exception, a BaseException subclass
        included), called ``sys.exit``, or returned a wrong type, shape, dtype or an illegal action.
    PolicyTimeout
        A PolicyError: a policy call took longer than ``policy_timeout``.
    KeyboardInterrupt
        Ctrl-C, or a policy that raised KeyboardInterrupt.
    """
    timeout = check_policy_timeout(policy_timeout)
    overrides = search_overrides(search)
    records = []
    for c, lo in enumerate(range(0, n_games, CHUNK)):
        m = min(CHUNK, n_games - lo)
        records += _play_chunk(entrants, range(lo, lo + m), _chunk_seed(seed, c), scenario, rules, alternate,
                               timeout, overrides, learned)
    return records


def _play_chunk(entrants, games, vg_seed, scenario, rules, alternate, timeout, overrides=None, learned=None) -> list:
    vg = VectorGame(scenario, len(games), vg_seed, rules=rules, record_events=True)
    return play_vector(vg, entrants, games, alternate, timeout=timeout, overrides=overrides, learned=learned)


def play_vector(vg, entrants, games, alternate: bool, *, timeout=None, overrides=None, learned=None,
                actions=None) -> list:
    """:func:`atomic_africa.selfplay.vector_play.play_vector` with outside policies called in the
    side-relative view, each call limited to ``timeout`` seconds (None: no limit)."""
    view = SideView(vg.spec)                    # what an outside policy sees: the relative view

    def policy_actions(entrant, obs, masks, cur, rows):
        return _policy_actions(entrant, view, obs, masks, cur, rows, timeout)
    return _play_vector(vg, entrants, games, alternate, overrides=overrides, learned=learned, actions=actions,
                        policy_actions=policy_actions)
