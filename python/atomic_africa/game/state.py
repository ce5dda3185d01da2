"""Game state as plain data: units, players and the turn sequence (ints, floats, small lists).

Everything here serialises with :func:`dataclasses.asdict` and is rebuilt by ``from_dict``; the
layout is the struct-of-arrays the native engine mirrors (one field per array).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

__all__ = ["Unit", "PlayerState", "GameState", "Stage", "NO_CARD"]

NO_CARD = -1


class Stage:
    """Decision stages of the state machine (ints)."""

    ORDERS = 0           # current player assigns cards to its units
    ACTIVATE = 1         # Activating player reveals one ordered unit
    DECLARE_ACTION = 2   # choose the action (and posture, for a Joker)
    DECLARE_TARGET = 3   # fire / Rally / Call for Fire target (or none)
    DECLARE_TARGET2 = 4  # Split Fire's second target (the lower Attack)
    DECLARE_ASSET = 5    # Call for Fire: which off-board asset
    REACT = 6            # Reacting player answers with one ordered unit
    RESERVE_PICK = 7     # a unit forced to react takes a legal card from the Reserve
    MOVE = 8             # place the Destination figure
    SPRINT_MOVE = 9      # after resolution: direction of the sprint bonus displacement
    SPLIT = 10           # Clean-up: voluntary splits
    OVER = 11

    NAMES = ("ORDERS", "ACTIVATE", "DECLARE_ACTION", "DECLARE_TARGET", "DECLARE_TARGET2",
             "DECLARE_ASSET", "REACT", "RESERVE_PICK", "MOVE", "SPRINT_MOVE", "SPLIT", "OVER")
    COUNT = 12


@dataclass
class Unit:
    """One unit slot. ``alive`` False = empty slot (never used, merged away or removed)."""

    uid: int
    side: int
    alive: bool = False
    name: str = ""
    kind: int = 0
    figures: int = 0
    dice: list = field(default_factory=lambda: [0, 0, 0])
    armor: int = 1
    hw_dispersed: bool = False
    hw_dispersed_ap: int = 0
    hw_point: bool = False
    hw_point_ap: int = 0
    spotter: bool = False
    comms: bool = False
    commander: bool = False
    attached: bool = False     # needs orders but adds no card to the hand (RULES.md section 1)
    x: float = 0.0
    y: float = 0.0
    markers: int = 0
    wounds: int = 0
    turn_markers: int = 0      # new suppression markers received this turn (for the per-turn cap)
    card: int = NO_CARD        # order card on the unit (face down until revealed)
    revealed: bool = False
    acted: bool = False        # took its action this turn (activated or reacted)
    split_done: bool = False   # already split in this Clean-up
    # Activation-phase scratch
    action: int = -1
    posture: int = -1
    target: int = -1
    target2: int = -1
    asset: int = -1
    aim_x: float = 0.0         # Call for Fire target point
    aim_y: float = 0.0
    dest_x: float = 0.0
    dest_y: float = 0.0
    moves: bool = False        # placed In-transit/Destination figures
    confused: bool = False

    @property
    def has_orders(self) -> bool:
        """Alive, holding an order card and not yet acted this turn."""
        return self.alive and self.card != NO_CARD and not self.acted

    def clear_scratch(self) -> None:
        """Reset the Activation-phase scratch fields (Destination back to the unit's position)."""
        self.action = self.posture = self.target = self.target2 = self.asset = -1
        self.aim_x = self.aim_y = 0.0
        self.dest_x, self.dest_y = self.x, self.y
        self.moves = False
        self.confused = False


@dataclass
class PlayerState:
    """One player's cards (draw pile, Reserve hand, discard pile) and figures lost."""

    deck: list = field(default_factory=list)      # top card = last element
    hand: list = field(default_factory=list)      # drawn, unassigned cards = the Reserve
    discard: list = field(default_factory=list)
    removed_figures: int = 0


@dataclass
class GameState:
    """The whole mutable state of a game (plain data; JSON-able through :meth:`to_dict`)."""

    turn: int = 0
    stage: int = Stage.ORDERS
    current_player: int = 0
    first_player: int = 0          # first Activating player of this turn
    activating: int = 0            # Activating player of the current Activation phase
    next_activating: int = 0
    phase: int = 0                 # Activation phases so far (whole game)
    act_uid: int = -1              # activated unit of this phase
    react_uid: int = -1            # reacting unit (-1: none)
    decl_uid: int = -1             # unit being declared / moved / sprinting
    pending: list = field(default_factory=list)   # units still to move or sprint (uids, in order)
    sprint_bonus: list = field(default_factory=list)  # per pending sprint unit: displacement cm
    step: int = 0                  # which player of the two is assigning orders / splitting (0, 1)
    winner: int = -2               # -2 running, -1 draw, 0/1 winner
    reason: str = ""
    units: list = field(default_factory=list)
    players: list = field(default_factory=list)
    feature_cover: list = field(default_factory=list)  # current cover of each terrain feature

    def to_dict(self) -> dict:
        """The state as nested dicts and lists (:meth:`from_dict` restores it)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "GameState":
        """The state saved by :meth:`to_dict` (``d`` must hold every field)."""
        kw = {f.name: d[f.name] for f in fields(cls)}
        kw["units"] = [Unit(**u) for u in d["units"]]
        kw["players"] = [PlayerState(**p) for p in d["players"]]
        kw["pending"] = list(d["pending"])
        kw["sprint_bonus"] = list(d["sprint_bonus"])
        kw["feature_cover"] = list(d["feature_cover"])
        return cls(**kw)
