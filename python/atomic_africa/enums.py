"""Enumerations of the rules vocabulary: dice, postures, cover, actions, unit kinds."""
from enum import IntEnum

__all__ = ["Die", "Posture", "Cover", "Action", "UnitKind", "Role"]


class Die(IntEnum):
    """An Attribute die; the value is its number of sides."""

    D4 = 4
    D6 = 6
    D8 = 8
    D10 = 10
    D12 = 12

    def __str__(self) -> str:
        return f"d{self.value}"


class Posture(IntEnum):
    """Posture given by the order card's suit (Hearts/Diamonds offensive, Clubs/Spades defensive)."""

    OFFENSIVE = 0
    DEFENSIVE = 1


class Cover(IntEnum):
    """Cover of a figure group; ordered so that the predominant cover is the median."""

    NONE = 0
    LIGHT = 1
    HEAVY = 2


class Action(IntEnum):
    """Basic action (Ace-10) and the special actions (face cards)."""

    BASIC = 0
    DIG_IN = 1
    MASS_FIRE = 2
    SPLIT_FIRE = 3
    HEAVY_WEAPON = 4
    RALLY = 5
    CALL_FOR_FIRE = 6
    SPRINT = 7


class UnitKind(IntEnum):
    """Unit kinds of RULES.md section 1."""

    INFANTRY = 0
    LIGHT_INFANTRY = 1
    VEHICLE = 2


class Role(IntEnum):
    """What a die (or the pair of dice) of Table 5 is used for."""

    ATTACK = 0
    DEFENSE = 1
    RALLY = 2
    SPOTTING = 3
    ATTACKS = 4  # the two pair dice are two separate attacks
