"""The full game of RULES.md sections 1-7 as a deterministic state machine, played by the C core.

``Game(scenario, seed)`` (or ``Game(spec, seed)`` with a :class:`GameSpec`) is a one-game handle on
the C core (:mod:`.native.single`); decisions through ``legal_actions()`` / ``action_mask()`` /
``apply()``; ``observation(player)``; ``to_json()`` / ``Game.from_json()``; ``clone()``. The same game
natively over many envs: :class:`VectorGame` (:mod:`.native`). Telling and drawing a played game:
:mod:`atomic_africa.replay`. The pure-Python engine the C core is checked against is the reference,
``atomic_africa.reference.game`` (tests, benchmarks and debugging options only); the pieces both share
(actions, cards, scenario, spec, state, events, outcome, observation layout, :mod:`.reading`) live here.
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
