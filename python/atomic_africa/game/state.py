"""Game state as plain data: units, players and the turn sequence (ints, floats, small lists).

Everything here serialises as :func:`dataclasses.asdict` would (``GameState.to_dict``) and is
rebuilt by ``from_dict``. ``Unit`` and ``Stage`` are built from :mod:`.schema`, which also lays out
the native engine's struct-of-arrays (one row per unit field).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, make_dataclass

from .schema import NO_CARD, REQUIRED, STAGES, UNIT_FIELDS

__all__ = ["Unit", "PlayerState", "GameState", "Stage", "NO_CARD"]


def _stage_class():
    ns = {"__doc__": "Decision stages of the state machine (ints; ``schema.STAGES`` documents each).",
          "__module__": __name__, "NAMES": tuple(n for n, _ in STAGES), "COUNT": len(STAGES)}
    ns.update({n: i for i, (n, _) in enumerate(STAGES)})
    return type("Stage", (), ns)


Stage = _stage_class()


def _has_orders(self) -> bool:
    """Alive, holding an order card and not yet acted this turn."""
    return self.alive and self.card != NO_CARD and not self.acted


def _clear_scratch(self) -> None:
    """Reset the Activation-phase scratch fields (Destination back to the unit's position)."""
    self.action = self.posture = self.target = self.target2 = self.asset = -1
    self.aim_x = self.aim_y = 0.0
    self.dest_x, self.dest_y = self.x, self.y
    self.moves = False
    self.confused = False


def _unit_class():
    """The ``Unit`` dataclass of the Python fields of ``schema.UNIT_FIELDS`` (same order)."""
    spec, doc = [], []
    for f in UNIT_FIELDS:
        if f.py_type is None:
            continue
        if f.default is REQUIRED:
            spec.append((f.name, f.py_type))
        elif isinstance(f.default, tuple):
            spec.append((f.name, f.py_type, field(default_factory=lambda d=f.default: list(d))))
        else:
            spec.append((f.name, f.py_type, f.default))
        doc.append(f"{f.name} : {f.py_type.__name__}\n    {f.doc[0].upper() + f.doc[1:]}.")
    cls = make_dataclass("Unit", spec, namespace={
        "__doc__": "One unit slot (``alive`` False: an empty slot); fields from ``schema.UNIT_FIELDS``.\n\n"
                   "Attributes\n----------\n" + "\n".join(doc),
        "has_orders": property(_has_orders), "clear_scratch": _clear_scratch})
    cls.__module__ = __name__
    return cls


Unit = _unit_class()


@dataclass
class PlayerState:
    """One player's cards (draw pile, Reserve hand, discard pile) and figures lost."""

    deck: list = field(default_factory=list)      # top card = last element
    hand: list = field(default_factory=list)      # drawn, unassigned cards = the Reserve
    discard: list = field(default_factory=list)   # face-down discards first (hidden_discards of them)
    removed_figures: int = 0
    hidden_discards: int = 0      # the opponent never saw the bottom cards of the discard pile
    reserve_no_any: bool = False  # the opponent knows the Reserve holds no card for a suppressed unit


@dataclass
class GameState:
    """The whole mutable state of a game (plain data; JSON-able through :meth:`~GameState.to_dict`)."""

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
        """The state as nested dicts and lists (:meth:`from_dict` restores it): what
        :func:`dataclasses.asdict` gives, built directly (asdict deep-copies field by field, most of
        the time of ``Game.to_json``, which the play server calls on every decision)."""
        d = _plain(self, _STATE_NAMES)    # units and players in their place (field order, as asdict)
        d["units"] = [_plain(u, _UNIT_NAMES) for u in self.units]
        d["players"] = [_plain(p, _PLAYER_NAMES) for p in self.players]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> GameState:
        """The state saved by :meth:`to_dict` (``d`` must hold every field)."""
        kw = {f.name: d[f.name] for f in fields(cls)}
        kw["units"] = [Unit(**u) for u in d["units"]]
        kw["players"] = [PlayerState(**p) for p in d["players"]]
        kw["pending"] = list(d["pending"])
        kw["sprint_bonus"] = list(d["sprint_bonus"])
        kw["feature_cover"] = list(d["feature_cover"])
        return cls(**kw)


_UNIT_NAMES = tuple(f.name for f in fields(Unit))
_PLAYER_NAMES = tuple(f.name for f in fields(PlayerState))
_STATE_NAMES = tuple(f.name for f in fields(GameState))


def _plain(obj, names: tuple) -> dict:
    out = {}
    for n in names:
        v = getattr(obj, n)
        out[n] = list(v) if isinstance(v, list) else v   # flat lists of scalars: asdict's deep copy
    return out
