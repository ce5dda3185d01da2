"""Network-guided search: batched PUCT over determinizations, in the native engine.

:func:`puct_search` runs AlphaZero's search (PUCT selection, leaf values and priors from an
evaluator; optionally AlphaGo's rollouts mixed into the leaf values, and a greedy width) for the
player to move in many games of a :class:`~atomic_africa.game.native.vector.VectorGame` at once. The
leaves of every searched game go to the evaluator together, once per *wave*: each tree walks
``wave`` simulations, holding each walked edge with a virtual loss so the walks of one wave spread
out, and the evaluator answers all of them in one call. Every walk starts from a copy of the game
determinized for the searching player (the ``ismcts`` agent's determinization: fresh dice, the
opponent's unseen cards dealt again), so the evaluator never sees what that player may not know. The
search runs in C (``csrc/aa_puct.c``; the C API's ``aa_puct_search``);
``atomic_africa.reference.puct`` is its pure-Python twin.

The evaluator contract::

    priors, values = evaluator(observations, masks)

- ``observations``: float32 ``(k, observation_size)``, each row the observation of the player to move
  at one leaf (``Game.observation(player)``'s vector; that player is the opponent at half the leaves);
- ``masks``: bool ``(k, num_actions)``, the legal actions at the leaf;
- ``priors``: ``(k, num_actions)`` finite, ``>= 0``; the search reads them at the legal actions and
  divides by their sum there (all zero: uniform);
- ``values``: ``(k,)`` (or ``(k, 1)``) in ``[-1, 1]``: the expected outcome for the player to move
  (+1 a win, -1 a loss).

The arrays passed in are fresh each call; an answer outside those values raises ``ValueError`` naming
the leaf, and nothing changes (the agents' streams are only advanced by a search that completes).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .._limits import MAX_LEGAL, MAX_SIMULATIONS, MAX_WAVE
from .._seeding import seed_sequence
from ..game.native.agent_args import AGENT_KINDS
from ..game.schema import SCALAR_COLUMN
from .builtin import ROLLOUT_AGENTS, agent_params, rollout_name

_S_CUR = SCALAR_COLUMN["cur"]


__all__ = ["PUCT_DEFAULTS", "PUCT_ROLLOUTS", "MAX_WAVE", "SearchResult", "check_puct", "puct_search", "search_game",
           "PUCTAgent"]

#: The search's parameters and their defaults (:func:`puct_search`'s keyword arguments).
#: The built-in ``puct`` agent plays with them (``play``'s expert level): AlphaGo-style greedy rollouts
#: (lambda 1: the packaged network's priors, not its value) over the greedy agent's best 2 actions,
#: one walk per network call; the strongest of the settings tried against greedy (docs: learned search).
PUCT_DEFAULTS = {"simulations": 128, "wave": 1, "c_puct": 1.5, "dirichlet_alpha": 0.0, "noise_fraction": 0.25,
                 "temperature": 0.0, "rollout": "greedy", "rollout_weight": 1.0, "width": 2}
#: The rollout agents of the mixed leaf value (``rollout``): none, or a built-in agent without search.
PUCT_ROLLOUTS = ("none",) + ROLLOUT_AGENTS


@dataclass(frozen=True)
class SearchResult:
    """What :func:`puct_search` found.

    Attributes
    ----------
    actions : numpy.ndarray
        int64 ``(num_envs,)``: the chosen action of each searched env; -1 elsewhere (not searched, or
        the game is over).
    policy : numpy.ndarray
        float32 ``(num_envs, num_actions)``: the root's visit shares (rows of searched envs sum to 1; a
        single legal action is played without a search and gets all of it; zero rows elsewhere).
        AlphaZero's policy target.
    value : numpy.ndarray
        float32 ``(num_envs,)``: the root's mean backed-up value for the player to move, in [-1, 1]
        (0 where not searched).
    evaluations : int
        Leaves sent to the evaluator.
    batches : int
        Evaluator calls.
    """

    actions: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    evaluations: int
    batches: int


def check_puct(**params) -> dict:
    """The search parameters, checked and completed with :data:`PUCT_DEFAULTS`.

    Raises
    ------
    TypeError, ValueError
        Naming the parameter and its allowed values (an unknown name too).
    """
    unknown = sorted(set(params) - set(PUCT_DEFAULTS))
    if unknown:
        raise TypeError(f"{unknown[0]}: not a search parameter; allowed: {', '.join(PUCT_DEFAULTS)}")
    p = {**PUCT_DEFAULTS, **params}
    return {"simulations": v.as_int(p["simulations"], "simulations", lo=1, hi=MAX_SIMULATIONS),
            "wave": v.as_int(p["wave"], "wave", lo=1, hi=MAX_WAVE),
            "c_puct": v.as_float(p["c_puct"], "c_puct", lo=0.0),
            "dirichlet_alpha": v.as_float(p["dirichlet_alpha"], "dirichlet_alpha", lo=0.0),
            "noise_fraction": v.as_float(p["noise_fraction"], "noise_fraction", lo=0.0, hi=1.0),
            "temperature": v.as_float(p["temperature"], "temperature", lo=0.0),
            "rollout": rollout_name(p["rollout"], PUCT_ROLLOUTS),
            "rollout_weight": v.as_float(p["rollout_weight"], "rollout_weight", lo=0.0, hi=1.0),
            "width": v.as_int(p["width"], "width", lo=0, hi=MAX_LEGAL)}


def _check_evaluator(evaluator):
    if not callable(evaluator):
        raise TypeError(f"evaluator: expected a callable evaluator(observations, masks) -> (priors, values), "
                        f"got {type(evaluator).__name__}")


def _run(engine, envs: np.ndarray, words: np.ndarray, evaluator, p: dict, ap: dict | None):
    from aa_core import puct as _puct

    kind = -1 if p["rollout"] == "none" else AGENT_KINDS[p["rollout"]]
    return _puct.run(engine, envs, words, evaluator, p["simulations"], p["wave"], p["c_puct"],
                     p["dirichlet_alpha"], p["noise_fraction"], p["temperature"], kind, p["rollout_weight"],
                     p["width"], ap if ap is not None else _default_agent_params())


@functools.cache
def _default_agent_params() -> dict:
    # Read only (copied into the search's C struct): built once, not on every decision.
    return agent_params()


def puct_search(vg, evaluator, envs=None, **params) -> SearchResult:
    """Search the player to move in several games of ``vg`` at once, leaves evaluated by ``evaluator``.

    Env ``i``'s tree draws from env ``i``'s agent stream of the side to move (the stream its native
    agents draw from: ``VectorGame.agent_seed``), which the search advances; its decision depends only
    on that stream, the parameters and the evaluator's answers for its own leaves, not on the other
    envs searched with it or their number.

    Parameters
    ----------
    vg : VectorGame
        Games of one map (not a ``MixedVectorGame``); left unchanged (only its agent streams advance).
    evaluator : callable
        ``evaluator(observations, masks) -> (priors, values)`` (the module's contract), called once
        per wave with the leaves of every searched env.
    envs : array_like of int, optional
        The envs to search (default: every env whose game is running); games that are over get -1.
    simulations : int
        Walks per searched env after its root's evaluation, ``1..1,000,000`` (default 128).
    wave : int
        Walks per env per evaluator call, ``1..1024`` (default 1: sequential PUCT, batched across the
        envs only). Larger waves make bigger batches at the cost of walks chosen with the virtual loss
        of their wave (8 at 64 simulations cost the agent most of its strength).
    c_puct : float
        The exploration constant, ``>= 0`` (default 1.5).
    dirichlet_alpha : float
        Root noise ``Dirichlet(alpha)`` over the legal actions, for self-play (default 0: none).
    noise_fraction : float
        The noise's weight in the root priors, ``0..1`` (default 0.25).
    temperature : float
        0 (default): the most visited action (ties to the lowest id); ``> 0``: an action drawn from the
        env's stream with weights ``visits ** (1 / temperature)``.
    rollout : str
        AlphaGo's mixed leaf value: a rollout agent of :data:`PUCT_ROLLOUTS` (default ``"greedy"``)
        plays each new leaf's determinized copy to the end (random: on the copy's own dice stream);
        ``"none"``: the evaluator's value alone (AlphaZero).
    rollout_weight : float
        lambda, ``0..1``: a leaf's value is ``(1 - lambda) v + lambda z``, ``v`` the evaluator's value
        and ``z`` the rollout's outcome for the player to move there (+1, 0 or -1); default 1 (the
        rollout alone, the evaluator giving the priors); 0 plays no rollout.
    width : int
        A node's children are the greedy agent's best ``width`` legal actions (exact odds, ties to
        the lowest id; the ``ismcts`` agent's width), their priors renormalised over them (default
        2); 0: every legal action.

    The greedy and doctrine agents of ``width`` and ``rollout`` play with ``vg.agent_params``, or the
    Python agents' defaults (:func:`~atomic_africa.agents.builtin.agent_params`) where it is None.

    Returns
    -------
    SearchResult

    Raises
    ------
    TypeError, ValueError
        On a bad argument (named), an evaluator answer of the wrong shape or outside its values.
    """
    from ..game.native.vector import VectorGame

    if not isinstance(vg, VectorGame) or vg._engine.maps != 1:
        raise TypeError(f"vg: expected a VectorGame of one map, got {type(vg).__name__}")
    _check_evaluator(evaluator)
    p = check_puct(**params)
    e = vg._env_index(envs)
    with vg._lock:
        arrays = vg._engine.arrays
        cur = arrays["scalars"][e, _S_CUR].astype(np.int64)
        cur = np.where(cur < 0, 0, cur)
        words = np.ascontiguousarray(arrays["agent_rng"][e, cur])
        acts, pol, val, new_words, n_eval, n_waves = _run(vg._engine, np.ascontiguousarray(e), words, evaluator, p,
                                                          vg._agent_params)
        arrays["agent_rng"][e, cur] = new_words
    n = vg.num_envs
    actions = np.full(n, -1, dtype=np.int64)
    policy = np.zeros((n, pol.shape[1]), dtype=np.float32)
    value = np.zeros(n, dtype=np.float32)
    actions[e], policy[e], value[e] = acts, pol, val
    return SearchResult(actions, policy, value, int(n_eval), int(n_waves))


def search_game(game, evaluator, words: np.ndarray, **params):
    """One search on an :class:`atomic_africa.game.Game` drawing from the PCG64 state ``words``
    (updated in place): ``(action, policy, value)``. The agents' building block."""
    engine = getattr(game, "_engine", None)
    if engine is None or not hasattr(engine, "c_game"):
        raise TypeError(f"game: expected an atomic_africa.game.Game (the C core's), got {type(game).__name__}")
    _check_evaluator(evaluator)
    p = check_puct(**params)
    acts, pol, val, new_words, _, _ = _run(engine, np.zeros(1, dtype=np.int64), words.reshape(1, -1), evaluator, p,
                                           None)
    words[:] = new_words[0]
    return int(acts[0]), pol[0], float(val[0])


class PUCTAgent:
    """Network plus search: :func:`puct_search` on one game, an ``act(game)`` agent.

    Parameters
    ----------
    seed : int
        The agent's stream is ``PCG64(SeedSequence(seed))`` (``seed >= 0``), carried from decision to
        decision.
    evaluator : callable or str or path, optional
        The evaluator (the module's contract), or a network file :func:`~atomic_africa.agents.network.load_evaluator`
        reads; default: the packaged network (:data:`~atomic_africa.agents.network.DEFAULT_NETWORK`).
    **params
        :func:`puct_search`'s search parameters (``simulations``, ``wave``, ``c_puct``, ...).

    Raises
    ------
    TypeError, ValueError
        On a bad argument (named).
    """

    name = "puct"

    def __init__(self, seed: int = 0, evaluator=None, **params):
        from .network import load_evaluator

        self.params = check_puct(**params)
        self.evaluator = evaluator if callable(evaluator) else load_evaluator(evaluator)
        self._words = _pcg_words(seed)
        self.last_policy = None
        self.last_value = None

    def act(self, game) -> int:
        """The searched action for the player to move (``game`` is a running :class:`~atomic_africa.game.Game`)."""
        if game.is_over:
            raise ValueError("game: over; an agent acts only in a running game")
        a, self.last_policy, self.last_value = search_game(game, self.evaluator, self._words, **self.params)
        return a


def _pcg_words(seed) -> np.ndarray:
    """The PCG64 state words of ``PCG64(SeedSequence(seed))`` (the native streams' layout)."""
    from .builtin import _pcg_words as words

    return words(np.random.PCG64(seed_sequence(seed)))
