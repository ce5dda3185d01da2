"""The full game of RULES.md sections 1-7 as a deterministic state machine.

``Game(scenario, seed)`` (or ``Game(spec, seed)`` with a :class:`GameSpec`); decisions through
``legal_actions()`` / ``action_mask()`` / ``apply()``; ``observation(player)``; ``to_json()`` /
``Game.from_json()``; ``clone()``. The same game natively over many envs: :class:`VectorGame`
(:mod:`.native`). Telling and drawing a played game: :mod:`atomic_africa.replay`.
"""
from .actions import ActionSpace
from .cards import Deck
from .native.single import Game
from .outcome import GameResult, IllegalActionError
from .los import TerrainArrays, cover_at, los_blocked
from .rng import RandomSource, ScriptedSource
from .scenario import Scenario, ScenarioError, default_scenario, load_scenario, packaged_scenarios
from .spec import GameSpec
from .state import Stage
from .native.vector import VectorGame

__all__ = [
    "Game", "GameSpec", "VectorGame", "GameResult", "IllegalActionError", "Scenario", "ScenarioError",
    "default_scenario", "load_scenario", "packaged_scenarios", "RandomSource", "ScriptedSource", "ActionSpace",
    "Deck", "Stage",
    "TerrainArrays", "los_blocked", "cover_at",
]
