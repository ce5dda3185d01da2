"""The one declaration of what both engines share: unit fields and their bounds, the per-unit
observation, game scalars, stages, event records, end reasons and the native engine's limits.

The engines build :class:`~atomic_africa.game.state.Unit`, ``Stage``, ``EVENT_TYPES`` and their end
reasons from here; the C core's declarations (``src/aa_core/csrc/aa_schema.h``) and their Cython names
(``src/aa_core/vgame_schema.pxi``) are generated from here by :mod:`.native.schema_c`
(``tests/test_schema.py`` fails when the committed files differ); :mod:`.native.layout` reads the native
arrays and event records through it. Orders are layouts: the row of each native unit field, the column
of each scalar and the code of each event are their positions here, so only ever append (snapshots and
pickles of ``VectorGame`` hold the arrays).

Every reader of a unit takes the field's bounds from its :data:`UNIT_FIELDS` line (:func:`allowed`
resolves them against a game's spec): saved games (:mod:`.saved`), native snapshots
(:mod:`.native.snapshot`) and scenario files (:mod:`.scenario`, for the fields a scenario gives, with
their :class:`Setup`). The observation of a unit slot is :data:`UNIT_OBSERVATION`, from which the
reference engine's encoder (:mod:`atomic_africa.reference.game.observe`; the C core's is its twin), its
specification (:mod:`.observation_spec`) and ``docs/observation.md`` are derived. The sizes every
engine needs are in :mod:`atomic_africa._limits`.

.. rubric:: Adding a unit field

A new unit field touches three places:

1. its :data:`UNIT_FIELDS` line here: storage and next free ``row``, Python type, default, doc,
   bounds and, if a scenario file gives it, its :class:`Setup`;
2. the reference engine's rule that uses it (:mod:`atomic_africa.reference.game.engine`);
3. the native engine's rule that uses it (``src/aa_core/csrc/*.c``: ``v->name[u]``).

Then regenerate the header and the ``.pxi`` (``PYTHONPATH=python python -m atomic_africa.game.native.schema_c``
from the repository root, a command, not an edit) and rebuild. Everything else follows from the
line: the ``Unit`` dataclass, the native rows and views, the checks of saved games, snapshots and
scenario files, the scenario's ``UnitSpec`` attribute and the set-up of the field, the values an
empty slot must hold. Two cases touch more, and a test fails until they are done: a default other
than 0 is also written in the native ``free_slot`` (it zeroes a freed slot, then writes the other
defaults; random play's snapshots are checked against the schema's), and an observed field adds its
:data:`UNIT_OBSERVATION` entry here and its line in the native ``unit_features`` (the parity tests
compare the two encoders bit for bit). ``tests/test_unit_bounds.py`` adds a field to a copy of the
schema and checks that every reader, the observation and the generated header pick it up, and fails for a
field without bounds or a reader that skips one.

.. rubric:: Adding an event

One :data:`EVENTS` entry at the end, regenerate (``E_<TYPE>``), and log it in both
engines (``self._ev(...)`` in the reference ``Game``, ``aa_ev_record(v, E_<TYPE>, n, vals)`` in
``src/aa_core/csrc``, values in field order). If a field of the new event is hidden from a player (a
card not shown at the table), add it to :data:`HIDDEN` too.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

from .. import _limits
from .._limits import NATIVE_LIMITS, Limit
from ..enums import Action, Die, Posture, UnitKind
from .cards import SUITS

__all__ = ["UnitField", "Setup", "UNIT_FIELDS", "FLAG", "BOUND_TERMS", "SETUP_TERMS", "SETS", "allowed",
           "bound_terms", "setup_terms", "depends_on_game", "setup_fields", "UnitFeature", "UNIT_OBSERVATION",
           "NATIVE_STORAGES", "REQUIRED", "SCALARS", "SCALAR_COLUMN", "STAGES", "HEAD_OBSERVATION", "EventField",
           "EVENTS",
           "EVENT_FIELDS", "Hidden", "HIDDEN", "FIELD_KINDS", "EndReason", "END_REASONS", "END_REASON", "NO_LEGAL_CARD",
           "NO_CARD", "LIMITS", "LIMIT", "native_rows"]

#: Marks a :class:`UnitField` without a default (the dataclass argument is required).
REQUIRED = object()

#: The value of ``Unit.card`` (and of the native card rows) when a unit holds no order card.
NO_CARD = -1


class Setup(NamedTuple):
    """How a scenario file's unit table gives a field (:mod:`.scenario`).

    ``key``: the table's key; the field is read as it is (an integer in ``bounds``, or true/false)
    unless ``own`` (scenario.py reads it its own way: the kind's name, the dice as ``"d8"``, the
    ``position`` point, the ``heavy_weapon`` table). ``bounds``: what a scenario may give, when
    narrower or other than what a game may reach (None: the field's bounds). ``required``: the key
    must be there (else the field's default).
    """

    key: str
    bounds: tuple | str | None = None
    required: bool = False
    own: bool = False


class UnitField(NamedTuple):
    """One field of a unit slot.

    ``storage`` is ``"i8"``, ``"i32"`` or ``"f64"`` for a row of the native ``unit_<storage>`` array
    (``row``: its first row; ``rows`` consecutive rows for a list, e.g. the three dice) or ``"py"``
    for a field only the Python ``Unit`` has. ``py_type`` is None for a field only the native engine
    has. ``c_name`` is the C spelling (``F_<C_NAME>`` row, ``V`` member) when it is not ``name``.

    ``bounds``: what a live unit may hold in any state a game reaches, ``(lo, hi)`` (inclusive; each a
    number or an expression of :data:`BOUND_TERMS`, e.g. ``"U + features - 1"``; a string's length for
    a str field) or the name of a set of :data:`SETS` (each element of a list field). An empty slot
    holds the defaults. ``setup``: how a scenario gives the field (None: it does not).
    """

    name: str
    storage: str
    row: int
    py_type: type | None
    default: object
    doc: str
    c_name: str = ""
    rows: int = 1
    bounds: tuple | str | None = None
    setup: Setup | None = None

    @property
    def c(self) -> str:
        """The C spelling (lower case)."""
        return self.c_name or self.name


def _f(name, storage, row, py_type, default, doc, **kw):
    return UnitField(name, storage, row, py_type, default, doc, **kw)


#: The bounds of a flag (a bool field; its native int8 row holds 0 or 1).
FLAG = (0, 1)
_ARMOR, _AP = (1, "MAX_ARMOR"), ("-MAX_ARMOR", 0)
_X, _Y = (0, "width"), (0, "height")

#: Every unit field, in the order of the Python ``Unit`` dataclass (its constructor, ``asdict`` and
#: the JSON of a saved game); native-only fields last. ``row`` fixes the native layout.
UNIT_FIELDS = (
    _f("uid", "py", -1, int, REQUIRED, "slot index: side * C + k", bounds=("slot", "slot")),
    _f("side", "py", -1, int, REQUIRED, "owning player (uid // C)", bounds=("side", "side")),
    _f("alive", "i8", 0, bool, False, "False: an empty slot (never used, merged away or removed)", bounds=FLAG),
    _f("name", "py", -1, str, "", "scenario name with '/b' per split (native: name_base, name_depth)",
       bounds=(0, "MAX_NAME + turns + turns"), setup=Setup("name", own=True)),
    _f("kind", "i8", 1, int, 0, "UnitKind", bounds=(min(UnitKind), max(UnitKind)),
       setup=Setup("kind", required=True, own=True)),
    # merges only add up figures of one side, so a unit never holds more than its side at set-up
    _f("figures", "i32", 2, int, 0, "figures left", bounds=(1, "side_figures"),
       setup=Setup("figures", (1, "MAX_COUNT"), required=True)),
    _f("dice", "i32", 15, list, (0, 0, 0), "sides of the three Attribute dice", c_name="die", rows=3,
       bounds="ladder", setup=Setup("dice", "dice", required=True, own=True)),
    _f("armor", "i32", 3, int, 1, "armour value", bounds=_ARMOR, setup=Setup("armor", required=True)),
    _f("hw_dispersed", "i8", 2, bool, False, "has a dispersed heavy weapon", c_name="hwd", bounds=FLAG,
       setup=Setup("heavy_weapon", own=True)),
    _f("hw_dispersed_ap", "i32", 4, int, 0, "armour piercing of the dispersed heavy weapon", c_name="hwd_ap",
       bounds=_AP, setup=Setup("heavy_weapon", own=True)),
    _f("hw_point", "i8", 3, bool, False, "has a point heavy weapon", c_name="hwp", bounds=FLAG,
       setup=Setup("heavy_weapon", own=True)),
    _f("hw_point_ap", "i32", 5, int, 0, "armour piercing of the point heavy weapon", c_name="hwp_ap",
       bounds=_AP, setup=Setup("heavy_weapon", own=True)),
    _f("spotter", "i8", 4, bool, False, "may Call for Fire", bounds=FLAG, setup=Setup("spotter")),
    _f("comms", "i8", 5, bool, False, "extends Rally range", bounds=FLAG, setup=Setup("comms")),
    _f("commander", "i8", 6, bool, False, "commander unit", bounds=FLAG, setup=Setup("commander")),
    _f("attached", "i8", 13, bool, False, "needs orders but adds no card to the hand (RULES.md section 1)",
       bounds=FLAG, setup=Setup("attached")),
    _f("x", "f64", 0, float, 0.0, "position (cm)", bounds=_X, setup=Setup("position", required=True, own=True)),
    _f("y", "f64", 1, float, 0.0, "position (cm)", bounds=_Y, setup=Setup("position", required=True, own=True)),
    # markers and wounds grow over a battle (<= MAX_COUNT turns x a per-turn cap <= 100, merged):
    # MAX_VALUE keeps them, and their sums over a side (checked by the readers), in the kernels' int32
    _f("markers", "i32", 6, int, 0, "suppression markers", bounds=(0, "MAX_VALUE"),
       setup=Setup("markers", (0, "MAX_COUNT"))),
    _f("wounds", "i32", 7, int, 0, "wounds", bounds=(0, "MAX_VALUE"), setup=Setup("wounds", (0, "MAX_COUNT"))),
    _f("turn_markers", "i32", 8, int, 0, "new suppression markers received this turn (for the per-turn cap)",
       bounds=(0, "MAX_VALUE")),
    _f("card", "i32", 9, int, NO_CARD, "order card on the unit (face down until revealed)",
       bounds=(NO_CARD, "cards - 1")),
    _f("revealed", "i8", 7, bool, False, "its order card is face up", bounds=FLAG),
    _f("acted", "i8", 8, bool, False, "took its action this turn (activated or reacted)", bounds=FLAG),
    _f("split_done", "i8", 9, bool, False, "already split in this Clean-up", bounds=FLAG),
    _f("action", "i32", 10, int, -1, "Activation-phase scratch: declared Action", bounds=(-1, max(Action))),
    _f("posture", "i32", 11, int, -1, "Activation-phase scratch: declared Posture", bounds=(-1, max(Posture))),
    # a heavy weapon's target may be a terrain feature, stored past the unit slots: 2 C + its index
    _f("target", "i32", 12, int, -1, "Activation-phase scratch: target uid (or feature)",
       bounds=(-1, "U + features - 1")),
    _f("target2", "i32", 13, int, -1, "Activation-phase scratch: Split Fire's second target", bounds=(-1, "U - 1")),
    _f("asset", "i32", 14, int, -1, "Activation-phase scratch: Call for Fire asset", bounds=(-1, "assets - 1")),
    _f("aim_x", "f64", 2, float, 0.0, "Call for Fire target point", bounds=_X),
    _f("aim_y", "f64", 3, float, 0.0, "Call for Fire target point", bounds=_Y),
    _f("dest_x", "f64", 4, float, 0.0, "Destination figure", bounds=_X),
    _f("dest_y", "f64", 5, float, 0.0, "Destination figure", bounds=_Y),
    _f("moves", "i8", 10, bool, False, "placed In-transit/Destination figures", bounds=FLAG),
    _f("confused", "i8", 11, bool, False, "confused this phase", bounds=FLAG),
    # what the opponent saw at the Orders phase: a face-down card given to a suppressed unit is one a
    # suppressed unit may take (determinize keeps it so)
    _f("orders_suppressed", "i8", 14, bool, False, "took its face-down order card while suppressed",
       c_name="orders_sup", bounds=FLAG),
    _f("name_base", "i32", 0, None, -1, "index of the scenario unit the name comes from (-1: empty slot)",
       bounds=(0, "side_units - 1")),
    # one split per unit and Clean-up at most: a name gains at most one '/b' a turn
    _f("name_depth", "i32", 1, None, 0, "'/b' suffixes (splits)", bounds=(0, "turns")),
    # scratch of one Clean-up, 0 between decisions (where a snapshot is taken)
    _f("born", "i8", 12, None, 0, "scratch: slot filled during this Clean-up's compulsory splits", bounds=(0, 0)),
)


# -- bounds ----------------------------------------------------------------------------------------
#: The names a bound may use, with what each stands for; a game's values come from :func:`bound_terms`.
#: The limits of :mod:`atomic_africa._limits` (``MAX_ARMOR``, ``MAX_VALUE`` ...) may be used too.
BOUND_TERMS = {
    "slot": "the slot's index (uid)",
    "side": "the slot's side",
    "U": "unit slots of both sides (2 C)",
    "cards": "cards in a deck",
    "features": "terrain features of the scenario",
    "assets": "fire-support assets of the slot's side",
    "side_units": "units of the slot's side in the scenario",
    "side_figures": "figures of the slot's side at set-up",
    "turns": "turns of the scenario",
    "width": "the table's width (cm)",
    "height": "the table's height (cm)",
}
#: The terms a scenario's own values may use in a :class:`Setup`'s bounds (no game exists yet).
SETUP_TERMS = ("width", "height")
#: The sets a bound may name: name -> (what it is, in messages; the values from a game's terms).
SETS = {
    "ladder": "a die of the ladder",
    "dice": "a die",
}
_LIMITS = {name: getattr(_limits, name) for name in _limits.__all__ if name.startswith("MAX_")}


def bound_terms(spec, side: int) -> dict:
    """The values of :data:`BOUND_TERMS` (and :data:`SETS`) for a slot of ``side`` in games of ``spec``
    (``slot`` is added per slot by the reader)."""
    sc = spec.scenario
    return {"side": side, "U": 2 * spec.C, "cards": spec.deck.size, "features": len(sc.terrain),
            "assets": len(spec.assets[side]), "side_units": len(sc.sides[side].units),
            "side_figures": spec.initial_figures[side], "turns": sc.turns, "width": sc.width_cm,
            "height": sc.height_cm, "ladder": tuple(sorted(spec.rules.dice.ladder)),
            "dice": tuple(int(d) for d in Die)}


def setup_terms(width: float, height: float) -> dict:
    """The values of :data:`SETUP_TERMS` (and of the ``dice`` set) for a scenario's table."""
    return {"width": width, "height": height, "dice": tuple(int(d) for d in Die)}


@functools.cache
def _parse(expr: str) -> tuple:
    """``"U + features - 1"`` -> ((1, "U"), (1, "features"), (-1, 1)): signed terms or integers."""
    out, sign = [], 1
    for tok in expr.split():
        if tok in ("+", "-"):
            sign = 1 if tok == "+" else -1
            continue
        neg = tok.startswith("-")
        name = tok[1:] if neg else tok
        out.append((-sign if neg else sign, int(name) if name.isascii() and name.isdigit() else name))
        sign = 1
    return tuple(out)


def _value(end, terms: dict):
    if not isinstance(end, str):
        return end
    total = 0
    for sign, term in _parse(end):
        total += sign * (term if isinstance(term, int) else terms[term] if term in terms else _LIMITS[term])
    return total


def allowed(bounds, terms: dict):
    """``bounds`` (a :class:`UnitField`'s or a :class:`Setup`'s) resolved with ``terms``: ``(lo, hi)``,
    or the tuple of allowed values for a set of :data:`SETS`.

    Parameters
    ----------
    bounds : tuple or str
    terms : dict
        From :func:`bound_terms` (plus ``slot``) or :func:`setup_terms`.
    """
    if isinstance(bounds, str):
        return tuple(terms[bounds])
    return (_value(bounds[0], terms), _value(bounds[1], terms))


def depends_on_game(bounds) -> bool:
    """Whether ``bounds`` use a term of the game (its scenario, rules or the slot), not limits alone."""
    if isinstance(bounds, str):
        return True
    return any(isinstance(t, str) and t not in _LIMITS
               for end in bounds if isinstance(end, str) for _, t in _parse(end))


def setup_fields(own: bool | None = None) -> tuple:
    """The fields a scenario's unit table gives (``own``: only those scenario.py reads its own way, or
    only the others), in schema order."""
    return tuple(f for f in UNIT_FIELDS if f.setup is not None and (own is None or f.setup.own == own))


# -- the observation of a unit slot ----------------------------------------------------------------
class UnitFeature(NamedTuple):
    """One float of a unit slot's observation (all 0 for an empty slot).

    ``encoding`` says how the float comes from the unit (:mod:`atomic_africa.reference.game.observe`
    computes it, the native ``unit_features`` in ``src/aa_core/csrc/aa_observe.c`` the same float bit
    for bit):

    - ``"flag"``: the bool field ``source``, 0 or 1;
    - ``"x"`` / ``"y"``: the coordinate ``source`` (cm) / the table's width / height;
    - ``"count"``: the count ``source`` / ``scale`` (element ``arg`` of a list field);
    - ``"equals"``: 1 if the field ``source`` equals ``arg`` (a one-hot of kinds, actions);
    - ``"is_unit"``: 1 if the unit is the one the game scalar ``source`` names (``act_uid`` ...);
    - ``"card_held"``, ``"card_known"``, ``"card_joker"``, ``"card_suit"`` (suit ``arg``),
      ``"card_rank"`` (rank / ranks): the order card, as far as the observer knows it (own unit or
      revealed card).

    A count's bound (before scaling) is the :func:`~atomic_africa.game.observation_spec.count_limits`
    entry ``limit`` (a bound over every reachable state, tighter than the field's), else the field's
    bounds here; ``unit`` names what is divided by ``scale`` (``"count"``, ``"sides"``).
    """

    name: str
    meaning: str
    encoding: str
    source: str = ""
    arg: int = 0
    scale: int = 1
    limit: str = ""
    unit: str = "count"


def _uf(name, meaning, encoding, source="", **kw):
    return UnitFeature(name, meaning, encoding, source or name, **kw)


def _count(name, meaning, scale, source="", arg=0, limit="", unit="count"):
    return UnitFeature(name, meaning, "count", source or name, arg, scale, limit, unit)


_KINDS = tuple(k.name.lower() for k in UnitKind)
_ACTIONS = tuple(a.name.lower() for a in Action)

#: The floats of a unit slot's observation, in vector order (``UNIT_FEATURES`` of them).
UNIT_OBSERVATION = (
    (_uf("alive", "1: the slot holds a unit (else every feature of the slot is 0)", "flag"),
     _uf("x", "position x (0 = left table edge)", "x"),
     _uf("y", "position y (0 = bottom table edge, player 0's deployment side)", "y"),
     _count("figures", "figures left", 20, limit="figures"),
     _count("markers", "suppression markers", 5, limit="markers"),
     _count("wounds", "wound counters", 5, limit="wounds"),
     _count("turn_markers", "suppression markers received this turn (the per-turn cap counts them)", 2,
            limit="turn_markers"))
    + tuple(_uf(f"kind_{k}", f"1: the unit is {k.replace('_', ' ')}", "equals", "kind", arg=i)
            for i, k in enumerate(_KINDS))
    + (_count("armor", "armour value", 5, limit="armor"),)
    + tuple(_count(f"die_{a}", f"sides of the printed {a.capitalize()} die", 12, "dice", arg=j, limit="die",
                   unit="sides") for j, a in enumerate(("training", "equipment", "morale")))
    + (_uf("hw_dispersed", "1: has a dispersed heavy weapon", "flag"),
       _uf("hw_point", "1: has a point heavy weapon", "flag"),
       _uf("spotter", "1: may Call for Fire", "flag"),
       _uf("comms", "1: tactical comms (extends Rally range)", "flag"),
       _uf("commander", "1: commander unit", "flag"),
       _uf("has_card", "1: an order card lies on the unit (face down or up)", "card_held", "card"),
       _uf("card_known", "1: the observer knows the card (own unit, or revealed)", "card_known", "card"),
       _uf("card_joker", "1: the known card is a Joker", "card_joker", "card"))
    + tuple(_uf(f"card_{s}", f"1: the known card is a {s[:-1]} card", "card_suit", "card", arg=i)
            for i, s in enumerate(SUITS))
    + (_uf("card_rank", "rank of the known suited card (Ace = 1)", "card_rank", "card"),
       _uf("acted", "1: took its action this turn", "flag"),
       _uf("is_activating", "1: the unit activated in the current Activation phase", "is_unit", "act_uid"),
       _uf("is_reacting", "1: the unit reacts in the current Activation phase", "is_unit", "react_uid"),
       _uf("is_declaring", "1: the unit is the one declaring now", "is_unit", "decl_uid"))
    + tuple(_uf(f"action_{a}", f"1: declared action {a.replace('_', ' ')} this phase", "equals", "action", arg=i)
            for i, a in enumerate(_ACTIONS))
    + (_uf("dest_x", "Destination figure x (the unit's own x when it does not move)", "x"),
       _uf("dest_y", "Destination figure y", "y"),
       _uf("moves", "1: placed In-transit/Destination figures this phase", "flag"))
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
    # what each player may know of the other's cards (determinize keeps them so)
    ("hidden0", "cards at the bottom of player 0's discard pile discarded face down (its Reserve at Clean-up)"),
    ("hidden1", "cards at the bottom of player 1's discard pile discarded face down"),
    ("noany0", "player 0's Reserve is known to hold no card a suppressed unit may take"),
    ("noany1", "player 1's Reserve is known to hold no card a suppressed unit may take"),
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

#: The head of an observation, before the observer's hand and the unit slots: (name, floats, meaning)
#: in vector order (C name ``OBS_<NAME>``, the first float; ``OBS_HEAD``: the head's floats).
HEAD_OBSERVATION = (
    ("turn", 1, "turn / turns"),
    ("stage", len(STAGES), "one-hot of the stage (STAGES)"),
    ("to_move", 1, "1: the observer decides now"),
    ("activating", 1, "1: the observer is the Activating player"),
    ("own_deck", 1, "cards in the observer's deck / cards per deck"),
    ("own_discard", 1, "cards in the observer's discard pile / cards per deck"),
    ("own_hand", 1, "cards in the observer's hand / cards per deck"),
    ("enemy_deck", 1, "cards in the opponent's deck / cards per deck"),
    ("enemy_discard", 1, "cards in the opponent's discard pile / cards per deck"),
    ("enemy_hand", 1, "cards in the opponent's hand / cards per deck"),
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


class Hidden(NamedTuple):
    """One event field a player's view of the log hides (:data:`HIDDEN`).

    ``field``: its name in :data:`EVENTS`; ``known_to``: ``"nobody"`` (hidden from both players) or
    ``"player"`` (known only to the player named by the event's ``player`` field).
    """

    field: str
    known_to: str


#: What each player may not know of the event log (its information set): event type -> the fields
#: its view hides. Every other field was seen at the table by both sides (cards played face up,
#: dice, fire, counts of cards drawn, held or discarded). No one knows a deck's order, not even its
#: owner (``shuffle``/``reshuffle``), nor the game's seed, which replays every draw (``setup``);
#: a player knows the cards it drew and the cards it put face down on its units, not the
#: opponent's (``draw``/``assign``). A hidden card is :data:`NO_CARD` in place (each card of a
#: list: counts and record lengths stay), the hidden seed ``None``. The Python view is
#: :func:`atomic_africa.game.events.player_view`; the C API's (``aa_game_player_events``) hides
#: the record values of :data:`HIDDEN` through ``src/aa_core/csrc/aa_hidden.h``, generated from
#: this table by :mod:`.native.schema_c`.
HIDDEN = {
    "setup": (Hidden("seed", "nobody"),),
    "shuffle": (Hidden("deck", "nobody"),),
    "reshuffle": (Hidden("deck", "nobody"),),
    "draw": (Hidden("cards", "player"),),
    "assign": (Hidden("card", "player"),),
}


#: Every number the native engine's fixed-size arrays need (C enums of the same names): the sizes
#: of :mod:`atomic_africa._limits` and the counts derived from this schema. The Python side checks
#: scenarios and rules against them before building a VectorGame.
LIMITS = NATIVE_LIMITS + (
    Limit("UNIT_FEATURES", len(UNIT_OBSERVATION), "observation floats per unit slot"),
    Limit("N_STAGES", len(STAGES), "stages (the observation's one-hot)"),
    Limit("N_ACTIONS", len(Action), "Action values"),
)
LIMIT = NamedTuple("Limits", [(x.name, int) for x in LIMITS])(*(x.value for x in LIMITS))
