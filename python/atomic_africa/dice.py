"""Attribute dice: the die ladder and wound shifts (RULES.md section 1)."""
from __future__ import annotations

from aa_core import dice as _k

from ._limits import MAX_VALUE
from ._validate import as_bool, as_enum, as_int, dice_triple
from .enums import Die
from .rules import resolve_rules

__all__ = ["shift_die", "wounded_dice", "DIE_ATTRIBUTES"]

#: A unit's three dice, in the order its ``dice`` list holds them.
DIE_ATTRIBUTES = ("training", "equipment", "morale")


def shift_die(die, steps: int, rules=None) -> Die | None:
    """The die ``steps`` types lower on the ladder (d12 > d10 > ... > d4).

    Parameters
    ----------
    die : Die or int or str
        The die to shift (``aa.Die.D8``, ``8`` or ``"d8"``); must be on the rules' ladder.
    steps : int
        Number of shifts, ``>= 0`` (one per wound counter).
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    Die or None
        The shifted die, or ``None`` when it falls below the bottom of the ladder.
    """
    rules = resolve_rules(rules)
    die = as_enum(die, Die, "die")
    steps = as_int(steps, "steps", lo=0, hi=MAX_VALUE)
    if int(die) not in rules.dice.ladder:
        raise ValueError(f"die: {die} is not on the rules' ladder {list(rules.dice.ladder)}")
    out = _k.shift_die_scalar(int(die), steps, rules.ladder_array)
    return None if out == 0 else Die(out)


def wounded_dice(dice, wounds: int = 0, vehicle: bool = False, rules=None) -> tuple[tuple, bool]:
    """The three dice a unit rolls after its wound shifts, and whether it is shattered.

    Each wound shifts Morale down one type (Equipment for vehicles, per the rules data); a die shifted
    below the ladder rolls as the rules' ``shattered_die`` until Clean-up.

    Parameters
    ----------
    dice : three Die
        Training, Equipment and Morale dice (members, ints or ``"d10,d10,d8"``).
    wounds : int
        Wound counters, ``>= 0``.
    vehicle : bool
        Shift Equipment instead of Morale (``rules.dice.wound_shift_vehicle``).
    rules : Rules, optional

    Returns
    -------
    (tuple of three Die, bool)
        The dice to roll (Training, Equipment, Morale) and ``True`` if a die fell below the ladder.
    """
    rules = resolve_rules(rules)
    dice = list(dice_triple(dice, "dice", Die))
    wounds = as_int(wounds, "wounds", lo=0, hi=MAX_VALUE)
    vehicle = as_bool(vehicle, "vehicle")
    attr = rules.dice.wound_shift_vehicle if vehicle else rules.dice.wound_shift_infantry
    idx = DIE_ATTRIBUTES.index(attr)
    shifted = shift_die(dice[idx], wounds, rules)
    shattered = shifted is None
    dice[idx] = Die(rules.dice.shattered_die) if shattered else shifted
    return tuple(dice), shattered
