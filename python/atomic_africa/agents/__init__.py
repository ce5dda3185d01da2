"""The built-in agents, all with ``act(game) -> int`` returning one of ``game.legal_actions()``, all
played by the C core on the game's own state (:mod:`.builtin`; their Python twins, which the parity
tests compare them with, are the reference engine's: ``atomic_africa.reference.game.agents``).

Each is built from a seed (:func:`make_agent`), so a game between agents is a function of the game
seed and the agent seeds only.

- :class:`RandomAgent` (``"random"``): masked uniform, its own PCG64 stream.
- :class:`HeuristicAgent` (``"heuristic"``): a simple one-step heuristic.
- :class:`GreedyAgent` (``"greedy"``): exact odds.
- :class:`DoctrineAgent` (``"doctrine"``): scripted fire and movement.
- :class:`ISMCTSAgent` (``"ismcts"``): information-set Monte Carlo tree search, native (:mod:`.search`).
- :class:`PUCTAgent` (``"puct"``): a policy-value network plus its batched PUCT search (:mod:`.puct`).
- :class:`NetworkAgent` (``"network"``): the network alone, its most probable legal action (:mod:`.network`).
- :func:`play`: agents play a game to the end.
"""
from __future__ import annotations

from .builtin import DoctrineAgent, GreedyAgent, HeuristicAgent, RandomAgent, play
from .learned import LEARNED_AGENTS, check_learned
from .network import NetworkAgent
from .puct import PUCTAgent
from .search import SEARCH_AGENTS, ISMCTSAgent, check_search

__all__ = ["RandomAgent", "GreedyAgent", "DoctrineAgent", "HeuristicAgent", "ISMCTSAgent", "PUCTAgent", "NetworkAgent",
           "AGENTS", "NATIVE_AGENTS", "LEARNED_AGENTS", "make_agent", "play"]

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "doctrine": DoctrineAgent,
          "heuristic": HeuristicAgent, "ismcts": ISMCTSAgent, "puct": PUCTAgent, "network": NetworkAgent}
#: The agents the C core plays by itself (the others read a network: :data:`LEARNED_AGENTS`).
NATIVE_AGENTS = tuple(a for a in AGENTS if a not in LEARNED_AGENTS)


def make_agent(name: str, seed: int = 0, search=None, network=None, puct=None):
    """A built-in agent by name.

    Parameters
    ----------
    name : str
        ``"random"``, ``"greedy"``, ``"doctrine"``, ``"heuristic"``, ``"ismcts"``, ``"puct"`` or
        ``"network"`` (case and surrounding spaces ignored).
    seed : int
        Passed to the agent's constructor (``random`` and ``ismcts`` draw from it).
    search : dict, optional
        Search parameters of an ``"ismcts"`` agent (some of ``simulations``, ``exploration``,
        ``rollout``, ``rollout_depth``: :class:`ISMCTSAgent`'s keyword arguments); checked whatever
        the agent, used by the search agents only (the others take no parameters).
    network : str or PathLike, optional
        The network file of a ``"puct"`` or ``"network"`` agent (default: the packaged network,
        loaded only for those agents).
    puct : dict, optional
        The ``"puct"`` agent's search parameters (some of ``simulations``, ``wave``, ``c_puct``,
        ``dirichlet_alpha``, ``noise_fraction``, ``temperature``: :func:`.puct.check_puct`); checked
        whatever the agent.

    Returns
    -------
    agent
        An instance of ``AGENTS[name]``, with an ``act(game) -> int`` method.

    Raises
    ------
    ValueError
        If ``name`` is not a built-in agent (or not a string), or on a bad search parameter (named).
    TypeError
        If ``search`` is not a dict or a parameter has the wrong type.
    """
    if not isinstance(name, str) or name.strip().lower() not in AGENTS:
        raise ValueError(f"agent: unknown agent {name!r}; allowed: {', '.join(sorted(AGENTS))}")
    key = name.strip().lower()
    params = check_search(search) if search is not None else {}
    learned = check_learned(network, puct)
    if key == "puct":
        return PUCTAgent(seed, learned.evaluator(), **learned.puct)
    if key == "network":
        return NetworkAgent(seed, learned.evaluator())
    if key in SEARCH_AGENTS:
        return AGENTS[key](seed, **params)
    return AGENTS[key](seed)
