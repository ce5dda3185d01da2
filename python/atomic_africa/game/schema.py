"""The one declaration of what both engines share: unit fields, game scalars, stages, event records,
end reasons and the native engine's limits.

The Python engine builds :class:`~atomic_africa.game.state.Unit`, ``Stage``, ``EVENT_TYPES`` and its
end reasons from here; the native engine's Cython declarations (``src/aa_core/vgame_schema.pxi``) are
generated from here by :mod:`.schema_pxi` (``tests/test_schema.py`` fails when the committed file
differs); :mod:`.native_layout` reads the native arrays and event records through it. The sizes every
engine needs are in :mod:`atomic_africa._limits`. Orders are
layouts: the row of each native unit field, the column of each scalar and the code of each event are
their positions here, so only ever append (snapshots and pickles of ``VectorGame`` hold the arrays).

To add a unit field: one :data:`UNIT_FIELDS` line (next free ``row`` of its storage), then
regenerate the ``.pxi`` (``v.<name>[u]`` exists in the native engine) and rebuild. To add an event:
one :data:`EVENTS` entry at the end, regenerate (``E_<TYPE>``), and log it in both engines
(``self._ev(...)`` in ``Game``, ``evn(v, E_<TYPE>, n, ...)`` in ``vgame.pyx``, values in field order).
"""
from __future__ import annotations

from typing import NamedTuple

from .._limits import NATIVE_LIMITS, Limit
from ..enums import Action

__all__ = ["UnitField", "UNIT_FIELDS", "NATIVE_STORAGES", "REQUIRED", "SCALARS", "SCALAR_COLUMN", "STAGES",
           "EventField", "EVENTS", "EVENT_FIELDS", "FIELD_KINDS", "EndReason", "END_REASONS", "END_REASON",
           "NO_LEGAL_CARD", "NO_CARD", "LIMITS", "LIMIT", "native_rows"]

#: Marks a :class:`UnitField` without a default (the dataclass argument is required).
REQUIRED = object()

#: The value of ``Unit.card`` (and of the native card rows) when a unit holds no order card.
NO_CARD = -1


class UnitField(NamedTuple):
    """One field of a unit slot.

    ``storage`` is ``"i8"``, ``"i32"`` or ``"f64"`` for a row of the native ``unit_<storage>`` array
    (``row``: its first row; ``rows`` consecutive rows for a list, e.g. the three dice) or ``"py"``
    for a field only the Python ``Unit`` has. ``py_type`` is None for a field only the native engine
    has. ``c_name`` is the C spelling (``F_<C_NAME>`` row, ``V`` member) when it is not ``name``.
    """

    name: str
    storage: str
    row: int
    py_type: type | None
    default: object
    doc: str
    c_name: str = ""
    rows: int = 1

    @property
    def c(self) -> str:
        """The C spelling (lower case)."""
        return self.c_name or self.name


def _f(name, storage, row, py_type, default, doc, **kw):
    return UnitField(name, storage, row, py_type, default, doc, **kw)


#: Every unit field, in the order of the Python ``Unit`` dataclass (its constructor, ``asdict`` and
#: the JSON of a saved game); native-only fields last. ``row`` fixes the native layout.
UNIT_FIELDS = (
    _f("uid", "py", -1, int, REQUIRED, "slot index: side * C + k"),
    _f("side", "py", -1, int, REQUIRED, "owning player (uid // C)"),
    _f("alive", "i8", 0, bool, False, "False: an empty slot (never used, merged away or removed)"),
    _f("name", "py", -1, str, "", "scenario name with '/b' per split (native: name_base, name_depth)"),
    _f("kind", "i8", 1, int, 0, "UnitKind"),
    _f("figures", "i32", 2, int, 0, "figures left"),
    _f("dice", "i32", 15, list, (0, 0, 0), "sides of the three Attribute dice", c_name="die", rows=3),
    _f("armor", "i32", 3, int, 1, "armour value"),
    _f("hw_dispersed", "i8", 2, bool, False, "has a dispersed heavy weapon", c_name="hwd"),
    _f("hw_dispersed_ap", "i32", 4, int, 0, "armour piercing of the dispersed heavy weapon", c_name="hwd_ap"),
    _f("hw_point", "i8", 3, bool, False, "has a point heavy weapon", c_name="hwp"),
    _f("hw_point_ap", "i32", 5, int, 0, "armour piercing of the point heavy weapon", c_name="hwp_ap"),
    _f("spotter", "i8", 4, bool, False, "may Call for Fire"),
    _f("comms", "i8", 5, bool, False, "extends Rally range"),
    _f("commander", "i8", 6, bool, False, "commander unit"),
    _f("attached", "i8", 13, bool, False, "needs orders but adds no card to the hand (RULES.md section 1)"),
    _f("x", "f64", 0, float, 0.0, "position (cm)"),
    _f("y", "f64", 1, float, 0.0, "position (cm)"),
    _f("markers", "i32", 6, int, 0, "suppression markers"),
    _f("wounds", "i32", 7, int, 0, "wounds"),
    _f("turn_markers", "i32", 8, int, 0, "new suppression markers received this turn (for the per-turn cap)"),
    _f("card", "i32", 9, int, NO_CARD, "order card on the unit (face down until revealed)"),
    _f("revealed", "i8", 7, bool, False, "its order card is face up"),
    _f("acted", "i8", 8, bool, False, "took its action this turn (activated or reacted)"),
    _f("split_done", "i8", 9, bool, False, "already split in this Clean-up"),
    _f("action", "i32", 10, int, -1, "Activation-phase scratch: declared Action"),
    _f("posture", "i32", 11, int, -1, "Activation-phase scratch: declared Posture"),
    _f("target", "i32", 12, int, -1, "Activation-phase scratch: target uid (or feature)"),
    _f("target2", "i32", 13, int, -1, "Activation-phase scratch: Split Fire's second target"),
    _f("asset", "i32", 14, int, -1, "Activation-phase scratch: Call for Fire asset"),
    _f("aim_x", "f64", 2, float, 0.0, "Call for Fire target point"),
    _f("aim_y", "f64", 3, float, 0.0, "Call for Fire target point"),
    _f("dest_x", "f64", 4, float, 0.0, "Destination figure"),
    _f("dest_y", "f64", 5, float, 0.0, "Destination figure"),
    _f("moves", "i8", 10, bool, False, "placed In-transit/Destination figures"),
    _f("confused", "i8", 11, bool, False, "confused this phase"),
    _f("name_base", "i32", 0, None, -1, "index of the scenario unit the name comes from (-1: empty slot)"),
    _f("name_depth", "i32", 1, None, 0, "'/b' suffixes (splits)"),
    _f("born", "i8", 12, None, 0, "scratch: slot filled during this Clean-up's compulsory splits"),
)

#: The native unit arrays, in the order of the Game struct: storage -> C element type.
NATIVE_STORAGES = {"i8": "int8_t", "i32": "int32_t", "f64": "double"}


def native_rows(storage: str) -> list:
    """The native fields of one storage in row order: ``(row, c_row_name, UnitField)`` per row."""
    out = []
    for f in UNIT_FIELDS:
        if f.storage == storage:
            for k in range(f.rows):
                out.append((f.row + k, f.c.upper() + (str(k) if f.rows > 1 else ""), f))
    return sorted(out, key=lambda r: r[0])


#: Columns of the native (num_envs, NS) int32 scalars array: (name, doc); C name ``S_<NAME>``.
SCALARS = (
    ("turn", "turn number (0: set-up)"),
    ("stage", "Stage"),
    ("cur", "player to move (-1: game over)"),
    ("first", "first Activating player of this turn"),
    ("activating", "Activating player of the current Activation phase"),
    ("next_act", "Activating player of the next phase"),
    ("phase", "Activation phases so far (whole game)"),
    ("act", "activated unit of this phase (-1: none)"),
    ("react", "reacting unit (-1: none)"),
    ("decl", "unit being declared / moved / sprinting"),
    ("npend", "units still to move or sprint"),
    ("pend0", "first pending unit"),
    ("pend1", "second pending unit"),
    ("step", "which player of the two is assigning orders / splitting"),
    ("winner", "-2 running, -1 draw, 0/1 winner"),
    ("reason", "end reason: index into END_REASONS"),
    ("last", "player who took the last decision"),
)
SCALAR_COLUMN = {name: i for i, (name, _) in enumerate(SCALARS)}

#: Decision stages of the state machine, in code order: (name, doc); C name ``ST_<NAME>``.
STAGES = (
    ("ORDERS", "current player assigns cards to its units"),
    ("ACTIVATE", "Activating player reveals one ordered unit"),
    ("DECLARE_ACTION", "choose the action (and posture, for a Joker)"),
    ("DECLARE_TARGET", "fire / Rally / Call for Fire target (or none)"),
    ("DECLARE_TARGET2", "Split Fire's second target (the lower Attack)"),
    ("DECLARE_ASSET", "Call for Fire: which off-board asset"),
    ("REACT", "Reacting player answers with one ordered unit"),
    ("RESERVE_PICK", "a unit forced to react takes a legal card from the Reserve"),
    ("MOVE", "place the Destination figure"),
    ("SPRINT_MOVE", "after resolution: direction of the sprint bonus displacement"),
    ("SPLIT", "Clean-up: voluntary splits"),
    ("OVER", "the game is over"),
)


class EndReason(NamedTuple):
    """How a game ended: ``name`` (C ``R_<NAME>``) and the ``text`` of ``Game.result().reason``."""

    name: str
    text: str


#: End reasons in code order (the native ``S_REASON`` scalar and game_over record hold the index).
END_REASONS = (
    EndReason("NO_UNITS", "a side has no units left"),
    EndReason("MORE_FIGURES", "turn limit: more remaining figures"),
    EndReason("EQUAL_FIGURES", "turn limit: equal figures"),
)
END_REASON = {r.name: r.text for r in END_REASONS}

#: The reason of a no_reaction event whose unit found no legal card.
NO_LEGAL_CARD = "no legal card in deck or discard"

#: How a native event record encodes a field: kind -> (record values it takes, what it becomes).
FIELD_KINDS = {
    "int": (1, "int"),
    "bool": (1, "bool"),
    "float": (1, "float"),
    "card": (1, "the card's name (Deck.name)"),
    "action": (1, "Action name"),
    "posture": (1, "Posture name"),
    "opt_int": (1, "int, None when negative"),
    "point": (2, "[x, y] floats"),
    "ints": ("size", "list of size ints"),
    "int_rest": ("rest", "list of the record's remaining ints (last field only)"),
    "counted": ("1 + size", "a count n then size ints: the first n as a list"),
    "unit_name": (2, "unit name from (name_base, name_depth); side from the uid in field `ref`"),
    "asset": (1, "fire-support asset name from its index; side from the uid in field `ref`"),
    "asset_dice": (0, "that asset's dice (list); `ref` is the asset field"),
    "feature_name": (0, "terrain feature name; `ref` is the feature index field"),
    "reason": (1, "END_REASONS text"),
    "const": (0, "the field's `value`"),
    "scenario": (0, "the scenario's name"),
    "game_seed": (0, "the game's seed"),
    "slots": (0, "unit slots per side (C)"),
}


class EventField(NamedTuple):
    """One field of an event dict and how the native record encodes it (:data:`FIELD_KINDS`).

    ``present``: ``"always"``; ``"nonzero"`` / ``"nonnegative"`` (the field is left out when its
    record value is not); ``"with:<field>"`` (only when that earlier field is there).
    """

    name: str
    kind: str
    size: int = 0
    ref: str = ""
    present: str = "always"
    value: object = None


def _e(name, kind="int", **kw):
    return EventField(name, kind, **kw)


_UNIT_CARD = (_e("player"), _e("unit"), _e("card", "card"))
_SPLIT = (_e("figures", "ints", size=2), _e("markers", "ints", size=2), _e("wounds", "ints", size=2))
_ROLL = (_e("unit"), _e("dice", "ints", size=3), _e("faces", "ints", size=3), _e("shattered", "bool"),
         _e("action", "action"), _e("posture", "posture"), _e("attacks", "counted", size=2), _e("defense"),
         _e("rally", "opt_int"), _e("spotting", "opt_int"), _e("sprint_bonus", "opt_int"))

#: Event types in native code order (C ``E_<TYPE>``) with their fields after ``type`` and ``turn``,
#: in the order of the Game's event dicts.
EVENTS = (
    ("setup", (_e("scenario", "scenario"), _e("seed", "game_seed"), _e("slots", "slots"))),
    ("shuffle", (_e("player"), _e("deck", "int_rest"))),
    ("reshuffle", (_e("player"), _e("deck", "int_rest"))),
    ("draw", (_e("player"), _e("cards", "int_rest"))),
    ("assign", _UNIT_CARD),
    ("orders_done", (_e("player"), _e("reserve"))),
    ("activate", _UNIT_CARD),
    ("react", _UNIT_CARD),
    ("reserve_card", _UNIT_CARD),
    ("confused_draw", _UNIT_CARD + (_e("legal", "const", value=False),)),
    ("confused", _UNIT_CARD),
    ("confused_direction", (_e("unit"), _e("face"), _e("sprint", "bool", present="nonzero"))),
    ("no_reaction", (_e("player"), _e("unit", present="nonnegative"),
                     _e("reason", "const", value=NO_LEGAL_CARD, present="with:unit"))),
    ("declare", (_e("unit"), _e("action", "action"), _e("posture", "posture"), _e("confused", "bool"))),
    ("targets", (_e("unit"), _e("target"), _e("target2"), _e("asset"))),
    ("move", (_e("unit"), _e("start", "point"), _e("dest", "point"), _e("in_transit", "point"))),
    ("roll", _ROLL),
    ("bystander_roll", _ROLL),
    ("scatter", (_e("unit"), _e("asset", "asset", ref="unit"), _e("aim", "point"), _e("clock"), _e("distance"),
                 _e("spotting"), _e("direct_hit", "bool"), _e("impact", "point"))),
    ("support_roll", (_e("unit"), _e("asset", "asset", ref="unit"), _e("dice", "asset_dice", ref="asset"),
                      _e("faces", "ints", size=3), _e("attack"))),
    ("fire", (_e("source"), _e("target"), _e("attack"), _e("range"), _e("defense"), _e("armor"), _e("cover"),
              _e("ap"), _e("markers"), _e("wounds"))),
    ("fire_result", (_e("target"), _e("markers"), _e("wounds"), _e("total_markers"), _e("total_wounds"),
                     _e("cover"))),
    ("rally", (_e("unit"), _e("target"), _e("rally"), _e("range"), _e("markers"), _e("los", "bool"),
               _e("success", "bool"))),
    ("sprint", (_e("unit"), _e("distance", "float"), _e("dest", "point"))),
    ("complete_move", (_e("unit"), _e("start", "point"), _e("dest", "point"))),
    ("merge", (_e("unit"), _e("from_name", "unit_name", ref="unit"), _e("into")) + _SPLIT),
    ("initiative", (_e("player"),)),
    ("split", (_e("unit"), _e("new_unit"), _e("voluntary", "bool")) + _SPLIT),
    ("removed", (_e("unit"), _e("name", "unit_name", ref="unit"), _e("side"), _e("figures"))),
    ("morale", (_e("unit"), _e("die"), _e("face"), _e("markers"), _e("success", "bool"))),
    ("discard", (_e("player"), _e("reserve"))),
    ("turn_end", (_e("figures", "ints", size=2), _e("units", "ints", size=2))),
    ("game_over", (_e("winner"), _e("reason", "reason"), _e("figures", "ints", size=2))),
    ("feature_fire", (_e("source"), _e("feature"), _e("name", "feature_name", ref="feature"), _e("attack"),
                      _e("range"), _e("defense"), _e("armor"), _e("ap"), _e("wounds"),
                      _e("cover", "ints", size=2))),
)
EVENT_FIELDS = dict(EVENTS)


#: Every number the native engine's fixed-size arrays need (C enums of the same names): the sizes
#: of :mod:`atomic_africa._limits` and the counts derived from this schema. The Python side checks
#: scenarios and rules against them before building a VectorGame.
LIMITS = NATIVE_LIMITS + (
    Limit("UNIT_FEATURES", 42, "observation floats per unit slot"),
    Limit("N_STAGES", len(STAGES), "stages (the observation's one-hot)"),
    Limit("N_ACTIONS", len(Action), "Action values"),
)
LIMIT = NamedTuple("Limits", [(x.name, int) for x in LIMITS])(*(x.value for x in LIMITS))
