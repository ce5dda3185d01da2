"""atomic-africa: a native-accelerated rules engine for the Atomic Africa tactical wargame.

Scalar API at the top level, array API in :mod:`atomic_africa.batch`, the pure-Python reference in
:mod:`atomic_africa.reference`, rules data in :class:`Rules`.
"""
from . import artillery, batch, game, odds, reference
from .dice import shift_die, wounded_dice
from .enums import Action, Cover, Die, Posture, Role, UnitKind
from .game import Game
from .fire import effective_armor, predominant_cover, range_band, resolve_fire, scatter
from .results import FireResult, Scatter, Scores
from .rules import Rules, RulesError
from .scores import action_scores

__version__ = "0.1.0"

__all__ = [
    "Action", "Cover", "Die", "Posture", "Role", "UnitKind",
    "Rules", "RulesError",
    "Scores", "FireResult", "Scatter",
    "shift_die", "wounded_dice", "action_scores", "range_band", "predominant_cover",
    "resolve_fire", "effective_armor", "scatter",
    "artillery", "batch", "game", "odds", "reference", "Game",
]
