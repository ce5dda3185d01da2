"""Table 5: Attack, Defense, Rally and Spotting scores from three faces (RULES.md section 3)."""
from __future__ import annotations

from aa_core import scores as _k

from ._validate import as_enum, as_int
from .enums import Action, Posture
from .results import Scores
from .rules import resolve_rules

__all__ = ["action_scores", "faces_triple"]


def faces_triple(faces, name: str = "faces", max_face: int = 12) -> tuple[int, int, int]:
    """Validate three die faces (integers 1..max_face)."""
    try:
        items = list(faces)
    except TypeError:
        raise TypeError(f"{name}: expected three die faces, got {type(faces).__name__}") from None
    if len(items) != 3:
        raise ValueError(f"{name}: expected three die faces, got {len(items)}")
    return tuple(as_int(v, f"{name}[{i}]", lo=1, hi=max_face) for i, v in enumerate(items))


def _scores(raw) -> Scores:
    a0, a1, d, rally, spot, bonus = raw
    attacks = tuple(a for a in (a0, a1) if a >= 0)
    return Scores(attacks, d, None if rally < 0 else rally, None if spot < 0 else spot,
                  None if bonus < 0 else bonus)


def action_scores(faces, posture, action, rules=None) -> Scores:
    """Scores of one roll of three dice for an action and posture.

    Parameters
    ----------
    faces : sequence of three int
        The rolled faces, any order, each 1..12.
    posture : Posture
        ``OFFENSIVE`` (Hearts, Diamonds) or ``DEFENSIVE`` (Clubs, Spades).
    action : Action
        ``BASIC`` or a special action.
    rules : Rules, optional
        Rules data (Table 5 reading); packaged defaults if omitted.

    Returns
    -------
    Scores
        ``attacks`` (0-2 values, ascending), ``defense``, and ``rally``/``spotting``/``sprint_bonus``
        (``None`` where the action has none). Sprint bonus = highest face.
    """
    rules = resolve_rules(rules)
    a, b, c = faces_triple(faces)
    posture = as_enum(posture, Posture, "posture")
    action = as_enum(action, Action, "action")
    raw = _k.action_scores_scalar(a, b, c, int(posture), int(action), rules.table5_array,
                                  int(Action.SPRINT))
    return _scores(raw)
