"""Compatibility: the built-in agents live in :mod:`atomic_africa.agents`."""
from ..agents import AGENTS, DoctrineAgent, GreedyAgent, HeuristicAgent, RandomAgent, make_agent, play

__all__ = ["RandomAgent", "GreedyAgent", "DoctrineAgent", "HeuristicAgent", "AGENTS", "make_agent", "play"]
