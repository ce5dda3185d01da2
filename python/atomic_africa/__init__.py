"""atomic-africa: a native-accelerated rules engine for the Atomic Africa tactical wargame.

Scalar API at the top level, array API in :mod:`atomic_africa.batch`, the pure-Python reference in
:mod:`atomic_africa.reference`, rules data in :class:`Rules`.
"""
from . import _gymnasium, artillery, batch, game, odds, reference
from ._optional import MissingExtraError
from ._version import __version__
from .dice import shift_die, wounded_dice
from .enums import Action, Cover, Die, Posture, Role, UnitKind
from .game import Game
from .fire import effective_armor, predominant_cover, range_band, resolve_fire, scatter
from .results import FireResult, Scatter, Scores
from .rules import Rules, RulesError
from .scores import action_scores

_gymnasium.register()  # gymnasium.make("AtomicAfrica-v0") works once atomic_africa is imported

__all__ = [
    "Action", "Cover", "Die", "Posture", "Role", "UnitKind",
    "Rules", "RulesError", "MissingExtraError",
    "Scores", "FireResult", "Scatter",
    "shift_die", "wounded_dice", "action_scores", "range_band", "predominant_cover",
    "resolve_fire", "effective_armor", "scatter",
    "artillery", "batch", "game", "odds", "reference", "Game", "__version__",
]
