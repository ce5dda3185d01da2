"""The reference engine's agents: the built-in agents written in Python over a Game's plain-data
state, each with ``act(game) -> int``. The C core's native agents (:mod:`atomic_africa.agents`, the
product's) are their twins: the agent parity tests hold the two equal decision for decision.

- :class:`RandomAgent` (``"random"``): masked uniform, its own PCG64 stream (:mod:`.basic`).
- :class:`HeuristicAgent` (``"heuristic"``): a simple one-step heuristic (:mod:`.basic`).
- :class:`GreedyAgent` (``"greedy"``): exact odds (:mod:`.greedy`).
- :class:`DoctrineAgent` (``"doctrine"``): scripted fire and movement (:mod:`.doctrine`).
- :class:`ISMCTSAgent` (``"ismcts"``): the search, native even here (:mod:`atomic_africa.agents.search`:
  it plays a reference game through a native mirror of it).
- :func:`play`: agents play a game to the end.
"""
from __future__ import annotations

from ....agents.search import SEARCH_AGENTS, ISMCTSAgent, check_search
from ....agents.builtin import play   # one loop for every engine: it only calls apply and act
from .basic import HeuristicAgent, RandomAgent
from .doctrine import DoctrineAgent
from .greedy import GreedyAgent

__all__ = ["RandomAgent", "GreedyAgent", "DoctrineAgent", "HeuristicAgent", "ISMCTSAgent", "AGENTS", "make_agent",
           "play"]

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "doctrine": DoctrineAgent,
          "heuristic": HeuristicAgent, "ismcts": ISMCTSAgent}


def make_agent(name: str, seed: int = 0, search=None):
    """A reference agent by name (as :func:`atomic_africa.agents.make_agent`, which makes the native ones).

    Parameters
    ----------
    name : str
        ``"random"``, ``"greedy"``, ``"doctrine"``, ``"heuristic"`` or ``"ismcts"`` (case and
        surrounding spaces ignored).
    seed : int
        Passed to the agent's constructor.
    search : dict, optional
        Search parameters of an ``"ismcts"`` agent (checked whatever the agent).

    Returns
    -------
    agent

    Raises
    ------
    ValueError, TypeError
        As :func:`atomic_africa.agents.make_agent`.
    """
    if not isinstance(name, str) or name.strip().lower() not in AGENTS:
        raise ValueError(f"agent: unknown agent {name!r}; allowed: {', '.join(sorted(AGENTS))}")
    key = name.strip().lower()
    params = check_search(search) if search is not None else {}
    if key in SEARCH_AGENTS:
        return AGENTS[key](seed, **params)
    return AGENTS[key](seed)
