"""The C core's parameter struct and agent options, declared once.

Everything the C core reads of a battle (``aa_params``: the sizes, one section per rules section, the
arrays of ``aa_tables``) and the native agents' options (``aa_agent_params``) is declared here, field
by field, with its C type, its array sizes, its bounds in a spec file and its comment. From this one
declaration come:

- the C structs (``src/aa_core/csrc/aa_params.h``, included by ``aa_engine.h``) and their Cython
  declarations (``src/aa_core/vgame_params.pxi``, included by ``vgame.pxd``), rendered by
  :mod:`.params_c`;
- the spec file's field tables (:data:`.spec_file.PARAM_FIELDS`, :data:`.spec_file.TABLE_FIELDS`), and
  through them the loader's ``aa_spec_fields.h`` and the embedded default battle;
- the native agents' option names (:data:`AGENT_PARAM_FIELDS`).

A spec reaches the C core one way only: :func:`.spec_file.compile_spec` writes these fields' values
(:func:`.params.native_params` computes them) and ``aa_spec_load`` reads them into ``aa_params``.

A new rule flag is one :func:`flag` line in its section below (the rules data and the rule itself
aside): regenerate with ``PYTHONPATH=python python -m atomic_africa.game.native.params_c`` and
``PYTHONPATH=python python -m atomic_africa.game.native.spec_file`` (``tests/test_params_schema.py``
and ``tests/test_spec_file.py`` fail until the committed files agree). ``docs/contributing.md``
("How a rule change goes") lists every step.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ... import _limits as L
from ..schema import LIMIT

__all__ = ["Field", "Member", "Struct", "SECTIONS", "PARAMS", "TABLES", "AGENT_PARAMS", "AGENT_PARAM_FIELDS",
           "FIRE_RULES_FIELDS", "TERRAIN_FIELDS", "TERRAIN_TABLES", "spec_param_fields", "spec_table_fields",
           "flag", "num", "array"]


class Field(NamedTuple):
    """One field of a spec file (and of ``aa_params``).

    ``path``: the ``aa_params`` member (C designator; also the key path into ``native_params``'
    dicts, or the ``tables`` key of a table). ``kind``: ``i8``, ``u8``, ``i32``, ``i64`` or ``f64``.
    ``count``: values (an int for a number field; for a table, a C expression over the loaded
    ``P`` giving the element count). ``lo``/``hi``: the allowed closed range, numbers or C
    expressions over ``P`` (values read before); ``positive``: ``lo`` excluded.
    """

    path: str
    kind: str
    count: object
    lo: object
    hi: object
    positive: bool = False


class Member(NamedTuple):
    """One member of a declared C struct.

    ``ctype``: ``int``, ``double``, ``int64_t``, a pointer type (``const int8_t *``) or a struct
    declared here (a :class:`Struct`) or elsewhere (``external``: its C and Cython type names).
    ``dims``: the C array sizes (ints or :data:`~atomic_africa.game.schema.LIMIT` names). ``flag``: 0
    or 1 (``bint`` for Cython). ``lo``/``hi``/``positive``: the spec file's bounds (None: not in the
    spec file's numbers). ``table``: for a pointer, the spec file's (kind, count, lo, hi) of the array.
    ``doc``: the C comment; ``derived``: computed from the rules data, not one of its own fields.
    """

    name: str
    ctype: object
    dims: tuple = ()
    flag: bool = False
    lo: object = None
    hi: object = None
    positive: bool = False
    doc: str = ""
    derived: bool = False
    table: tuple | None = None
    external: tuple | None = None   # (C type, Cython type, spec number fields, spec tables) of a foreign struct


class Struct(NamedTuple):
    """A C struct: its C name, its Cython name, its comment and its members in order."""

    c: str
    cy: str
    doc: str
    members: tuple


def num(name, ctype, lo, hi, *, dims=(), positive=False, doc="", derived=False) -> Member:
    """A number (or a fixed-size array of numbers) with its spec-file bounds."""
    return Member(name, ctype, tuple(dims), False, lo, hi, positive, doc, derived)


def flag(name, doc="", *, derived=False) -> Member:
    """A rule flag: an int 0 or 1 (a rules boolean)."""
    return Member(name, "int", (), True, 0, 1, False, doc, derived)


def array(name, ctype, kind, count, lo, hi, doc="") -> Member:
    """A pointer to an array a spec file carries (``count``: C expression of its elements)."""
    return Member(name, f"const {ctype} *", (), False, None, None, False, doc, False, (kind, count, lo, hi))


def _section(member, struct) -> Member:
    return Member(member, struct)


_FLAG = (0, 1)
_CM = (0, L.MAX_CM)
_ANGLE = (-4 * math.pi, 4 * math.pi)
_B = (0, "P->n_actions")
_PI2 = 2 * math.pi

ACTION_BASES = Struct("aa_action_bases", "ActionBases",
                      "first id of each segment of the action space (ActionSpace.base)",
                      tuple(num(b, "int", *_B) for b in ("assign", "end_orders", "select", "declare", "target",
                                                          "no_target", "asset", "move", "stay", "split",
                                                          "end_splits", "feature")))

MOVEMENT = Struct("aa_movement_params", "MovementParams", "rules.movement", (
    *(num(n, "double", *_CM, positive=True)
      for n in ("increment_cm", "vehicle_increment_cm", "sprint_increment_cm", "vehicle_sprint_increment_cm")),
    num("basic_move_per_value", "int", 0, L.MAX_MOVE_PER_VALUE),
    num("sprint_card_value", "int", 1, L.MAX_COUNT),
    num("directions", "int", 1, L.MAX_DIRECTIONS),
    num("distance_fractions", "double", 0, 1, dims=("MAX_FRACS",)),
    num("merge_contact_cm", "double", *_CM),
    flag("merge_same_kind_only"),
    flag("vehicles_merge"),
    num("n_fractions", "int", 1, LIMIT.MAX_FRACS, doc="len(distance_fractions)", derived=True),
    num("dir_angle", "double", *_ANGLE, dims=("MAX_DIRECTIONS",), doc="angle of each direction", derived=True),
))

ORDERS = Struct("aa_orders_params", "OrdersParams", "rules.orders", (
    flag("joker_takes_initiative"),
    flag("fire_needs_los"),
    flag("first_player_alternates"),
    flag("attached_add_cards"),
    flag("reserve_by_choice", "End Orders always legal, any legal card to any unit without orders"),
    flag("spent_units_react", "a unit that has acted (its card spent) may be forced to react again"),
    num("bystander_posture", "int", 0, 1, doc="Posture value"),
    num("ranks", "int", 1, L.MAX_DECK // 4, doc="cards per suit", derived=True),
    num("draw_bonus", "int", 0, L.MAX_COUNT, dims=(2,), doc="experience_bonus of each side", derived=True),
    num("hand_fixed", "int", -1, L.MAX_COUNT + L.MAX_SLOTS_TOTAL, dims=(2,),
        doc="cards per Orders phase; -1: own units on the table + bonus", derived=True),
))

RALLY = Struct("aa_rally_params", "RallyParams", "rules.rally", (
    num("self_range", "int", 0, L.MAX_COUNT),
    num("comms_range_penalty", "int", 0, L.MAX_COUNT),
    num("markers_removed", "int", 1, L.MAX_COUNT),
))

CALL_FOR_FIRE = Struct("aa_call_for_fire_params", "CallForFireParams", "rules.call_for_fire", (
    num("scatter_die", "int", 2, L.MAX_SCATTER_DIE),
    num("support_range_band", "int", 1, L.MAX_BAND_EDGES + 1),
    num("support_action", "int", 0, LIMIT.N_ACTIONS - 1, doc="Action value"),
    num("support_posture", "int", 0, 1, doc="Posture value"),
    num("scatter_increment_cm", "double", *_CM, positive=True),
    flag("clockwise"),
    flag("blast_hits_friends"),
    num("clock_zero_rad", "double", -_PI2, _PI2, doc="clock_zero_deg in radians", derived=True),
    num("clock_angle", "double", *_ANGLE, dims=("MAX_CLOCK",), doc="direction of each scatter die face",
        derived=True),
    num("n_assets", "int", 0, L.MAX_ASSETS, dims=(2,), doc="each side's fire support assets", derived=True),
    num("asset_dice", "int", 0, 12, dims=(2, "MAX_ASSETS", 3), derived=True),
    num("asset_ap", "int", -L.MAX_ARMOR, 0, dims=(2, "MAX_ASSETS"), derived=True),
    num("asset_r2", "double", 0, L.MAX_CM * L.MAX_CM, dims=(2, "MAX_ASSETS"), doc="blast radius squared",
        derived=True),
    num("asset_blast_cm", "double", *_CM, dims=(2, "MAX_ASSETS"),
        doc="blast radius (the greedy agent's odds compare with it)", derived=True),
))

CLEANUP = Struct("aa_cleanup_params", "CleanupParams", "rules.cleanup", (
    num("split_min_figures", "int", 2, L.MAX_COUNT),
    num("morale_markers_removed", "int", 1, L.MAX_COUNT),
    flag("odd_to_larger_half"),
    num("split_offset_cm", "double", *_CM, positive=True),
    flag("shattered_if_morale_only", 'shattered_split_die == "morale"', derived=True),
))

DICE = Struct("aa_dice_params", "DiceParams", "rules.dice", (
    num("ladder", "int64_t", 0, 12, dims=("MAX_LADDER",)),
    num("shattered_die", "int", 4, 12),
    num("n_ladder", "int", 2, LIMIT.MAX_LADDER, doc="len(ladder)", derived=True),
    num("shift_attr", "int", 0, 2, dims=(2,), doc="wound_shift_infantry / _vehicle as attribute indices",
        derived=True),
))

#: The spec file's numbers of ``aa_fire_rules`` (declared in ``aa_fire.h``, which the standalone fire
#: kernels share): Rules.fire_params.
FIRE_RULES_FIELDS = (
    ("cover_bonus", "i32", 3, 0, L.MAX_COVER_BONUS),
    ("armor_floor", "i32", 1, 1, L.MAX_VALUE),
    ("markers_range", "i32", 2, 0, L.MAX_MARKERS_PER_HIT),
    ("markers_damage", "i32", 2, 0, L.MAX_MARKERS_PER_HIT),
    ("turn_cap", "i32", 2, 0, L.MAX_MARKERS_PER_HIT),
)

FIRE = Struct("aa_fire_params", "FireParams", "rules.fire", (
    Member("rules", "aa_fire_rules", doc="Rules.fire_params (aa_fire.h)", derived=True,
           external=("aa_fire_rules", "FireRules", FIRE_RULES_FIELDS, ())),
    num("band_edges_cm", "double", *_CM, dims=("MAX_EDGES",)),
    num("feature_defense", "int", 0, L.MAX_VALUE),
    num("feature_cover_per_wound", "int", 1, 2),
    num("n_edges", "int", 1, LIMIT.MAX_EDGES, doc="len(band_edges_cm)", derived=True),
))

TABLE = Struct("aa_table_params", "TableParams", "scenario: the table and the game length", (
    num("width_cm", "double", *_CM, positive=True),
    num("height_cm", "double", *_CM, positive=True),
    num("mid_x", "double", *_CM),
    num("mid_y", "double", *_CM),
    num("turns", "int", 1, L.MAX_COUNT),
))

_FEAT = (0, "P->terrain.n_feat - 1")

TABLES = Struct("aa_tables", "Tables", "arrays (atomic_africa.game.native.params: tables), never NULL", (
    array("card_joker", "int8_t", "i8", "P->K", *_FLAG,
          doc="cards (atomic_africa.game.cards.Deck), by card id"),
    array("card_suit", "int8_t", "i8", "P->K", -1, 3),
    array("card_rank", "int8_t", "i8", "P->K", 0, "P->orders.ranks"),
    array("card_posture", "int8_t", "i8", "P->K", 0, 1),
    array("card_face", "int8_t", "i8", "P->K", *_FLAG),
    array("card_any", "int8_t", "i8", "P->K", *_FLAG, doc="legal for a suppressed unit"),
    array("card_move", "int32_t", "i32", "P->K", 0, L.MAX_COUNT),
    array("table5", "signed char", "i8", "N_ACTIONS * 2 * 3", 0, 4, doc="[action][posture][3]"),
    array("feat_x", "double", "f64", "P->terrain.n_feat", "-P->table.width_cm", "2 * P->table.width_cm",
          doc="terrain features as heavy-weapon targets, by feature (scenario order): aim point"),
    array("feat_y", "double", "f64", "P->terrain.n_feat", "-P->table.height_cm", "2 * P->table.height_cm"),
    array("feat_cover0", "int8_t", "i8", "P->terrain.n_feat", 0, 2, doc="cover at the start"),
    array("tmpl_i8", "int8_t", "i8", "NI8 * P->U", -128, 127,
          doc="initial units: one game's worth of unit arrays (NI8 x U, NI32 x U, NF64 x U)"),
    array("tmpl_i32", "int32_t", "i32", "NI32 * P->U", -L.MAX_VALUE, L.MAX_VALUE),
    array("tmpl_f64", "double", "f64", "NF64 * P->U", -L.MAX_CM, L.MAX_CM),
    Member("odds", "const struct aa_odds_side *",
           doc="the greedy agent's exact odds (aa_fill_odds_tables): [dice triple][action][posture]; NULL: "
               "the greedy agent plays no action. Not in a spec file: the loader counts them from table5"),
))

#: The spec file's numbers of ``aa_terrain`` (declared in ``aa_geometry.h``, which the standalone
#: line-of-sight kernels share), and its arrays: (name, kind, count, lo, hi).
TERRAIN_FIELDS = (
    ("n_poly", "i32", 1, 0, L.MAX_FEATURES),
    ("n_circ", "i32", 1, 0, L.MAX_FEATURES),
    ("n_feat", "i32", 1, 0, L.MAX_FEATURES),
    ("edge_depth", "f64", 1, *_CM),
)
TERRAIN_TABLES = (
    ("poly_off", "i64", "P->terrain.n_poly + 1", 0, L.MAX_FEATURES * L.MAX_POLYGON_POINTS),
    ("vx", "f64", "aa_spec_vertices_(P)", -L.MAX_CM, L.MAX_CM),
    ("vy", "f64", "aa_spec_vertices_(P)", -L.MAX_CM, L.MAX_CM),
    ("poly_blocks", "u8", "P->terrain.n_poly", *_FLAG),
    ("poly_cover", "i8", "P->terrain.n_poly", 0, 2),
    ("poly_feat", "i32", "P->terrain.n_poly", *_FEAT),
    ("cx", "f64", "P->terrain.n_circ", -L.MAX_CM, L.MAX_CM),
    ("cy", "f64", "P->terrain.n_circ", -L.MAX_CM, L.MAX_CM),
    ("cr", "f64", "P->terrain.n_circ", 0, L.MAX_CM),
    ("circ_blocks", "u8", "P->terrain.n_circ", *_FLAG),
    ("circ_cover", "i8", "P->terrain.n_circ", 0, 2),
    ("circ_feat", "i32", "P->terrain.n_circ", *_FEAT),
    ("feat_armor", "i32", "P->terrain.n_feat", 0, L.MAX_ARMOR),
)

#: The rules sections of ``aa_params``, in struct order: (member, struct).
SECTIONS = (("base", ACTION_BASES), ("movement", MOVEMENT), ("orders", ORDERS), ("rally", RALLY),
            ("call_for_fire", CALL_FOR_FIRE), ("cleanup", CLEANUP), ("dice", DICE), ("fire", FIRE),
            ("table", TABLE))

PARAMS = Struct("aa_params", "Params", "the rules and scenario constants of one battle", (
    num("C", "int", 1, L.MAX_SLOTS_TOTAL // 2, doc="unit slots per side"),
    num("U", "int", 2, L.MAX_SLOTS_TOTAL, doc="2 * C"),
    num("K", "int", 4, L.MAX_DECK, doc="cards per deck"),
    num("obs_size", "int", 1, 1 << 24, doc="floats of an observation"),
    num("n_actions", "int", 1, L.MAX_LEGAL, doc="action ids"),
    *(_section(m, s) for m, s in SECTIONS),
    _section("tables", TABLES),
    Member("terrain", "aa_terrain", doc="aa_geometry.h; feat_armor 0: not a heavy-weapon target",
           external=("aa_terrain", "Terrain", TERRAIN_FIELDS, TERRAIN_TABLES)),
))

#: The native agents' options (the Python agents' constructor values, atomic_africa.agents): every
#: field a double, so that one dict of floats sets them all (VectorGame.agent_params).
AGENT_PARAMS = Struct("aa_agent_params", "AgentParams",
                      "the Python agents' constructor values (atomic_africa.agents)", (
    Member("wound_value", "double", doc="GreedyAgent"),
    Member("marker_value", "double", doc="GreedyAgent"),
    Member("rally_value", "double", doc="GreedyAgent"),
    Member("cover_value", "double", doc="GreedyAgent"),
    Member("reserve_value", "double", doc="GreedyAgent: value of keeping a card in the Reserve at Orders"),
    Member("standoff_cm", "double", doc="DoctrineAgent"),
    Member("simulations", "double", doc="ISMCTSAgent: simulations per decision (>= 1)"),
    Member("exploration", "double", doc="ISMCTSAgent: the UCT exploration constant (>= 0)"),
    Member("rollout", "double", doc="ISMCTSAgent: the rollout agent's kind (AGENT_RANDOM .. AGENT_DOCTRINE)"),
    Member("rollout_depth", "double", doc="ISMCTSAgent: rollout decisions at most (0: to the end of the game)"),
    Member("width", "double", doc="ISMCTSAgent: the tree considers the greedy agent's best `width` actions (0: all)"),
))

#: The fields of ``aa_agent_params`` in declaration order (the native agents' option names).
AGENT_PARAM_FIELDS = tuple(m.name for m in AGENT_PARAMS.members)

_KIND = {"int": "i32", "double": "f64", "int64_t": "i64"}


def _count(dims) -> int:
    n = 1
    for d in dims:
        n *= d if isinstance(d, int) else getattr(LIMIT, d)
    return n


def spec_param_fields() -> tuple:
    """The ``aa_params`` numbers of a spec file, in file order (the order of the C struct)."""
    out = []

    def walk(struct, prefix):
        for m in struct.members:
            path = prefix + m.name
            if isinstance(m.ctype, Struct):
                walk(m.ctype, path + ".")
            elif m.external is not None:
                out.extend(Field(f"{path}.{n}", kind, count, lo, hi) for n, kind, count, lo, hi in m.external[2])
            elif m.lo is not None:
                out.append(Field(path, _KIND[m.ctype], _count(m.dims), m.lo, m.hi, m.positive))

    walk(PARAMS, "")
    return tuple(out)


def spec_table_fields() -> tuple:
    """The arrays behind ``aa_tables`` and ``aa_terrain``, in file order."""
    out = [Field(f"tables.{m.name}", *m.table) for m in TABLES.members if m.table is not None]
    out += [Field(f"terrain.{n}", kind, count, lo, hi) for n, kind, count, lo, hi in TERRAIN_TABLES]
    return tuple(out)
