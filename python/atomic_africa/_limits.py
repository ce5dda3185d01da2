"""Every limit of the engines, written once: the magnitudes and counts a value may reach, the sizes of
a scenario and of the rules, the native engine's fixed-size arrays and the size of an input file.

Each number comes from how the kernels (``src/aa_core``) hold and combine values (C ``int`` sums,
``int8``/``int16`` tables, fixed-size arrays, float lengths) or from what a reader is willing to
parse. The validators (:mod:`atomic_africa.rules`, :mod:`atomic_africa.game.scenario`, saved games,
native snapshots, the API's argument checks) and the native engine's declarations
(:data:`NATIVE_LIMITS`, generated into the C core's ``src/aa_core/csrc/aa_schema.h`` by
:mod:`atomic_africa.game.native.schema_c`) all read them from here, so a limit changes in one place.
The docs' "Bad input and limits" (``docs/cli.md``) states them for users.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "MAX_VALUE", "MAX_CM", "MAX_COUNT", "MAX_ARMOR", "MAX_COVER_BONUS", "MAX_MARKERS_PER_HIT", "MAX_SPRINT_CM",
    "MAX_NAME",
    "MAX_UNITS", "MAX_ASSETS", "MAX_FEATURES", "MAX_POLYGON_POINTS",
    "MAX_DECK", "MAX_DIRECTIONS", "MAX_FRACTIONS", "MAX_SCATTER_DIE", "MAX_BAND_EDGES", "MAX_LADDER",
    "MAX_MOVE_PER_VALUE", "MAX_FATE_COPIES", "MAX_SMOKE_VALUES",
    "MAX_HEX_COLUMNS", "MAX_HEX_ROWS", "MAX_OFF_MAP", "MAX_RATING", "MAX_GRID_AXIS", "MAX_SWEEP_COMBINATIONS",
    "MAX_SIMULATIONS", "MAX_WAVE", "MAX_SWEEP_SAMPLES",
    "MAX_LEGAL", "MAX_SLOTS_TOTAL", "MAX_CARDS", "MAX_TARGETS", "MAX_ATTACKS", "MAX_ENVS", "MAX_EPISODE", "MAX_THREADS",
    "Limit", "NATIVE_LIMITS",
    "MAX_TOML_BYTES", "MAX_JSON_BYTES", "MAX_DEPTH", "MAX_SAVED_DEPTH", "MAX_SKIPPED_LINE", "MAX_RUN_FILE",
    "MAX_DIGEST_LINE",
]

# -- magnitudes and counts -------------------------------------------------------------------------
#: Largest magnitude accepted for scores, armor, markers, steps...: half of int32, so one such value
#: plus a bounded term (a range band, a cover bonus <= MAX_COVER_BONUS, an AP >= -2**30) stays
#: within the kernels' 32-bit arithmetic.
MAX_VALUE = 1 << 30
#: Longest length in cm a rules or scenario field may give (100 m; a table is about 2 m). A unit's
#: longest move is a card value (<= 1000) x ``basic_move_per_value`` (<= 100) x an increment, at most
#: 1e9 cm: finite, and its squares (distances are compared squared) stay far below float64's range.
MAX_CM = 10_000.0
#: Largest count of figures, markers, wounds, turns, cards in a hand...: sums of such counts over a
#: battle (markers merged into a unit, rally ranges plus markers) stay far within int32.
MAX_COUNT = 1000
#: Armor and AP of units, features and fire-support assets: small numbers added to a cover bonus in
#: one C int.
MAX_ARMOR = 100
#: A cover bonus is added to an armor (<= MAX_VALUE, the API's bound) and an AP (<= 0) in one C int
#: (aa_core/fire.pxd resolve_fire): MAX_VALUE + bonus <= 2**31 - 1.
MAX_COVER_BONUS = 2**31 - 1 - MAX_VALUE
#: Markers of one hit and per-turn caps are int8 in aa_core.fire.resolve_fire_array's output.
MAX_MARKERS_PER_HIT = 100
#: Largest sprint displacement in cm: a sprint score (< 100) times an increment (<= MAX_CM).
MAX_SPRINT_CM = 100 * MAX_CM
#: Longest name a scenario may give its battle, sides, units, terrain features and fire-support
#: assets, and longest reason string a saved game may hold: the one name limit. A unit split in
#: Clean-up is named after its parent plus "/b", at most once a turn, so a saved game's unit names may
#: be up to 2 x turns characters longer (the schema's ``name`` bound): every valid scenario's saved
#: games read back.
MAX_NAME = 1000

# -- sizes of a scenario ---------------------------------------------------------------------------
#: Units of a side at set-up: a side's unit slots (scenario units plus the halves its figures can
#: split into) stay <= MAX_UNITS + MAX_COUNT, so the action space stays bounded.
MAX_UNITS = 100
#: Off-board fire-support assets of a side (the native Params.call_for_fire.asset_* tables).
MAX_ASSETS = 16
#: Terrain features of a scenario (the native terrain tables).
MAX_FEATURES = 1024
#: Points of one terrain polygon.
MAX_POLYGON_POINTS = 1024

# -- sizes of the rules ----------------------------------------------------------------------------
#: Cards in a deck, Jokers included: a shuffle rolls a die of as many sides as cards, and
#: aa_core.dice.roll_dice returns faces as uint8 (a die of 257 sides would wrap). Within the native
#: engine's int16 card ids (MAX_CARDS) and int8 rank tables.
MAX_DECK = 256
#: Movement directions of the action space (the native Params.movement.dir_angle table).
MAX_DIRECTIONS = 64
#: Movement distance fractions (the native Params.movement.distance_fractions table).
MAX_FRACTIONS = 16
#: Sides of the scatter die: the native clock table is indexed by face 1..sides (MAX_CLOCK = sides + 1).
MAX_SCATTER_DIE = 63
#: Range band edges (the native Params.fire.band_edges_cm table).
MAX_BAND_EDGES = 32
#: Dice of the wound ladder (the native Params.dice.ladder table).
MAX_LADDER = 8
#: Movement per printed card value (``movement.basic_move_per_value``): a card value (<= MAX_COUNT)
#: times it is a C int product (max_move in src/aa_core/csrc/aa_engine_internal.h).
MAX_MOVE_PER_VALUE = 100
#: Copies of each Fate pair: a deck of 36 x this many cards is laid out card by card.
MAX_FATE_COPIES = 1000
#: Values of the hex artillery's smoke markers (``artillery.smoke_values``).
MAX_SMOKE_VALUES = 64

# -- the hex artillery (RULES.md section 8) and the odds tables ------------------------------------
#: Columns of a hex map: one letter per column, A..Z.
MAX_HEX_COLUMNS = 26
#: Rows of a hex map: a row is named by at most two digits.
MAX_HEX_ROWS = 99
#: Largest column or row (either sign) of an off-map hex the geometry methods take: a few map widths
#: beyond any map, and far inside the kernels' int arithmetic.
MAX_OFF_MAP = 10_000
#: Largest Morale, cover or Radio firepower (also the rules' bound on ``radio_firepower_*``): an
#: impact adds a few of them to two d6.
MAX_RATING = 1000
#: Most values along one axis of :func:`atomic_africa.odds.fire_grid` (a grid of 2 x 2 x 4096^3 cells
#: would not fit).
MAX_GRID_AXIS = 4096
#: Most combinations one :func:`atomic_africa.sweeps.fire_sweep` may ask for (each is one exact query).
MAX_SWEEP_COMBINATIONS = 1 << 20
#: Draws of one sampled sweep call (``sweeps.sampled_fire_sweep``: n per combination, all combinations).
MAX_SWEEP_SAMPLES = 10**9
#: Simulations per decision of the search agent (the C API's AA_MAX_SIMULATIONS).
MAX_SIMULATIONS = 1_000_000
#: Walks per tree per wave of the PUCT search (the C API's AA_MAX_WAVE): the evaluator's batch is
#: ``wave`` rows per searched game.
MAX_WAVE = 1024

# -- the native engine's fixed-size arrays ---------------------------------------------------------
#: Actions of the action space (buffers for legal_actions).
MAX_LEGAL = 8192
#: Unit slots of both sides (2 * C).
MAX_SLOTS_TOTAL = 250
#: Cards in a deck as the native engine stores them (int16 card piles).
MAX_CARDS = 32767
#: One declaration's targets: unit slots or terrain features.
MAX_TARGETS = max(MAX_SLOTS_TOTAL, MAX_FEATURES)
#: Attacks resolved in one Activation phase.
MAX_ATTACKS = 512
#: Envs of one VectorGame (and games of one batch of the native agents' play).
MAX_ENVS = 2**24
#: Largest episode index a snapshot may hold (the kernel counts on in int64 and seeds from it).
MAX_EPISODE = 2**62
#: Most OpenMP threads (or worker processes) a ``threads=`` / ``workers=`` argument accepts.
MAX_THREADS = 1024


class Limit(NamedTuple):
    """A size the native engine's fixed arrays need (C enum of the same name in ``vgame_schema.pxi``)."""

    name: str
    value: int
    doc: str


#: The native engine's sizes, in the order of the C enum (``atomic_africa.game.schema.LIMITS`` adds
#: the counts derived from the schema: UNIT_FEATURES, N_STAGES, N_ACTIONS).
NATIVE_LIMITS = (
    Limit("MAX_ASSETS", MAX_ASSETS, "fire-support assets per side (Params.call_for_fire.asset_*)"),
    Limit("MAX_FRACS", MAX_FRACTIONS, "movement distance fractions (Params.movement.distance_fractions)"),
    Limit("MAX_DIRECTIONS", MAX_DIRECTIONS, "movement directions (Params.movement.dir_angle)"),
    Limit("MAX_CLOCK", MAX_SCATTER_DIE + 1,
          "scatter-die faces + 1 (Params.call_for_fire.clock_angle, indexed by face)"),
    Limit("MAX_EDGES", MAX_BAND_EDGES, "range band edges (Params.fire.band_edges_cm)"),
    Limit("MAX_LADDER", MAX_LADDER, "dice of the wound ladder (Params.dice.ladder)"),
    Limit("MAX_LEGAL", MAX_LEGAL, "actions of the action space (buffers for legal_actions)"),
    Limit("MAX_SLOTS_TOTAL", MAX_SLOTS_TOTAL, "unit slots of both sides (2 * C)"),
    Limit("MAX_CARDS", MAX_CARDS, "cards in a deck (int16 card piles)"),
    Limit("MAX_FEATURES", MAX_FEATURES, "terrain features of a scenario"),
    Limit("MAX_TARGETS", MAX_TARGETS, "one declaration's targets: unit slots or features"),
    Limit("MAX_ATTACKS", MAX_ATTACKS, "attacks resolved in one Activation phase"),
    Limit("MAX_VALUE", MAX_VALUE, "largest score or armor the C API's fire functions take (aa_resolve_fire)"),
    Limit("MAX_MARKERS_PER_HIT", MAX_MARKERS_PER_HIT, "markers of one hit and a per-turn marker cap (int8 markers)"),
)

# -- inputs ----------------------------------------------------------------------------------------
# Far above what the project writes (a rules or scenario file is ~10 kB and nests 3 levels; a game
# JSON of a 1,000-turn game ~20 MB and 6 levels); the errors state them.
#: Largest rules or scenario TOML file read.
MAX_TOML_BYTES = 1 << 20
#: Largest game JSON, battle log, or line of a replays file read.
MAX_JSON_BYTES = 64 << 20
#: Deepest nesting of arrays and tables/objects accepted in a TOML or JSON input.
MAX_DEPTH = 32
#: Deepest nesting of lists and tables read from a saved game: it needs 7 (a terrain polygon's point).
MAX_SAVED_DEPTH = 8
#: Longest line of a replays file skipped unread to reach the games after it (a line longer than
#: MAX_JSON_BYTES is not a game; /dev/zero has no line end at all).
MAX_SKIPPED_LINE = 4 << 30
#: Largest self-play run file read (``<out>.partial.json``: one JSON object of about 300 bytes).
MAX_RUN_FILE = 64 << 10
#: Longest line of a self-play run's digests file read (``<out>.partial.digests``: about 200 bytes).
MAX_DIGEST_LINE = 4096
