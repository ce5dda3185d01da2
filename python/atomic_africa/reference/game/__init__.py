"""The reference engine: the full game in plain Python, written straight from RULES.md, which the C
core (the product's :class:`atomic_africa.game.Game`) is checked against: parity tests, golden traces
and rule-coverage accounting compare the two step by step.

Only tests, benchmarks and explicit debugging options (``battle --engine reference``,
``selfplay --engine python``) import it; the product never does. Its Python agents are
:mod:`.agents`. The pieces both engines share (actions, scenario, spec, state, events, outcome,
observation layout) live in :mod:`atomic_africa.game` and are imported from there.
"""
from ...game.outcome import GameResult, IllegalActionError
from .engine import Game

__all__ = ["Game", "GameResult", "IllegalActionError"]
