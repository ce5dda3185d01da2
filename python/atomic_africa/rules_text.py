"""The prose of the players' rules reference, with a placeholder for every number of the rules data.

``{section.field}`` (optionally ``{section.field:format}``, formats ``cm``, ``die``, ``dice``, ``deg``)
stands for one value of ``data/rules.toml`` and ``{table5}`` for the whole of Table 5; each appears
exactly once, so a value is stated in one place. :mod:`atomic_africa.rules_reference` fills them in.
"""

TEMPLATE = """\
# Atomic Africa: rules reference

This is the game the `atomic-africa` engine plays, written for players. Every number, and every
choice a variant may change, comes from the rules data in force and is printed in **bold** with a
tag saying where it comes from:

- [seed]: stated in one of the original rules texts this engine is built from;
- [src]: stated elsewhere in the same rules series;
- [default]: nothing was published, so the engine makes this documented choice.

To play a variant, write an editable copy of the rules data with
`atomic-africa rules --dump-toml > my_rules.toml`, change the values, and pass `--rules my_rules.toml`
to the commands (or load it with `atomic_africa.Rules.from_toml("my_rules.toml")`);
`atomic-africa rules --rules my_rules.toml` prints this reference with your values.
Each value is followed by its tag and, in parentheses, its field in that file (section.field).

## 1. Units and dice

A unit is a group of figures, one miniature per soldier or vehicle. It is rated by three
**Attribute dice**: Training, Equipment and Morale. Each is a die type on the ladder
{dice.ladder:dice}; better troops roll bigger dice.

A unit is infantry, light infantry or a vehicle. Light infantry is infantry: it may take every
action infantry may, and Sprint as well. Each unit also has an armor value, and may have a
heavy weapon (with the target types it may engage and an armor penetration, AP, for each), the
ability to spot for off-board fire support, and tactical comms. One unit per side may be the force
commander.

A unit may be **attached** to its platoon: a vehicle always is, any other unit when the scenario
marks it `attached` (weapon teams, scouts). An attached unit needs orders like any other, but
whether it adds cards to its player's hand (section 2) is {orders.attached_add_cards}.

**Wounds** wear a unit down: each wound counter moves one of its dice one step down the ladder:
the {dice.wound_shift_infantry} die of infantry, the
{dice.wound_shift_vehicle} die of a vehicle. A die pushed off the
bottom of the ladder leaves the unit *shattered*: until Clean-up it keeps rolling a
{dice.shattered_die:die}, and at Clean-up it must split or is removed
(section 7).

Whenever a unit acts it rolls its three dice as they are after these shifts. Table 5 (section 3)
turns the three faces into the unit's scores.

## 2. Orders

Each player has an order deck of {orders.deck_cards} cards in four suits
plus {orders.jokers} Jokers. The card a unit receives decides what it may do:

- **Suit sets the posture**: Hearts and Diamonds are offensive, Clubs and Spades defensive.
- **Number cards**, Ace up to rank {orders.basic_max_rank}: a Basic action, move and shoot. The card's printed value (Ace counts 1) times {movement.basic_move_per_value} times the unit's movement increment is how far it may move.
- **Higher ranks (the face cards)**: one special action (section 4), chosen at Declaration among
  those the unit may take.
- **Joker**: the unit may announce any action, special or Basic, and its player picks the posture
  (a suppressed unit is still held to a defensive one). A Joker used for a Basic action moves as a
  printed {orders.joker_basic_value}. Seizing the initiative: a Joker's
  player becomes the Activating player of the next Activation phase: {orders.joker_takes_initiative}.

**The hand.** The number of cards a player draws in each Orders phase is its *hand*: one card for
each of its own units (an attached unit counts only as section 1 says) plus an Experience bonus of
{orders.experience_bonus}. When the units are counted:
{orders.hand_units} (`setup`: once, at set-up, so the hand stays the same for the whole battle
however many units are lost or split off; `turn`: the units on the table at each Orders phase). A
scenario may instead give a side a fixed `hand_size`, which replaces this count.

**Orders phase.** At the start of each turn each player draws its hand, then gives the cards, one
per unit and face down, to its units that may legally take them, for as long as the cards last: with
attached units and split-off halves needing orders too, a hand is often too small for every unit.
Cards left over form the **Reserve**; cards still unused at Clean-up are discarded, and the discard
pile is shuffled back into the deck when the deck runs out. **The Reserve by choice**:
{orders.reserve_by_choice} (`false`: orders are obligatory, every unit that may legally take a
card gets one while cards last, and the Reserve is what is left over, so merging units leaves more
cards in it; `true`, a variant: a player may finish its orders at any time and leave any unit
without orders, keeping its card in the Reserve). The Reserve is not idle: a unit without orders
that is forced to react, including one that has already acted this turn and so spent its card,
takes a legal card of its player's choice from the Reserve (section 6), so the Reserve is spent on
the turn's threats as they come, and a player who has *burned through* it leaves the next such
unit to react confused.

A **suppressed** unit (one with any suppression marker) may only be given a defensive card or a
Joker. A unit that gets no card (none left, no legal one, or held back) goes without orders for
the turn; it may still be forced to react when fired at (section 6).

## 3. Table 5: scores from three dice

When a unit acts, sort its three faces from low to high. Table 5 names, for each action, which
face is the *single* die and what it scores, and what the *pair* (the sum of the other two faces)
scores: Attack, Defense, Rally or Spotting. "Attacks" means the two other faces count as two
separate Attacks instead of one sum. Which face is the single one depends on the posture: `low` is
the lowest face, `high` the highest.

{table5}

The Sprint bonus is the highest face. With Split Fire the target named at Declaration receives the
higher of the two Attacks.

## 4. Special actions

A face card (or a Joker) lets a unit take one of these, if it is allowed to:

- **Infantry only** (light infantry included): Dig-in, Mass Fire, Split Fire, and Call for Fire
  (only a unit able to spot, such as a command element or scouts).
- **Light infantry and vehicles only**: Sprint.
- **Any unit**: Rally, and Fire Heavy Weapon if it carries one.

Dig-in, Mass Fire, Split Fire, Fire Heavy Weapon, Rally and Call for Fire do not move the unit.

**Fire Heavy Weapon.** A heavy weapon may only fire at the target types it is rated for: infantry
counts as a dispersed target, vehicles as point targets. Against an eligible target its AP (zero or
negative) is added to the target's armor (section 5).

**Armoured terrain features.** A terrain feature the scenario gives an armor value (a building, a
stone wall) is a point target too, aimed at its middle, while it still gives cover; it needs line of
sight like a unit, but does not hide itself. It defends with Defense {fire.feature_defense} against
its own armor, plus the weapon's AP, with no cover bonus; fire results are worked out as in section
5 but only the wounds count. Each wound lowers the cover the feature gives by
{fire.feature_cover_per_wound} level(s), from heavy to light to none; a feature knocked down to no
cover no longer blocks line of sight and can no longer be aimed at. Nothing limits the wounds of
one attack, so one shot can flatten a building: a single Fire Heavy Weapon attack that scores
enough wounds takes it from heavy cover to none at once. Units are hit first, with the cover they
had when the phase began.

**Rally.** The target is the rallying unit itself or a friendly unit. Unless the rallier is the
force commander, it must carry fewer suppression markers than its target. The Rally succeeds when
the Rally score beats the range plus the target's markers; the range of a self-Rally counts as
{rally.self_range}. Success removes {rally.markers_removed} marker(s). The rallier needs line of sight to its target, except that a unit with
tactical comms may rally a friend out of sight at the range plus {rally.comms_range_penalty}.

**Call for Fire.** The spotter picks an aiming point in its line of sight; range does not matter.
Roll two {call_for_fire.scatter_die:die}: one gives a clock direction,
the other the scatter distance. Subtract the Spotting score from the scatter distance: below zero is
a direct hit; otherwise the impact point moves that many steps of
{call_for_fire.scatter_increment_cm:cm} in the rolled
direction. On the clock, 12 o'clock is turned {call_for_fire.clock_zero_deg:deg} from the direction of the top table edge, and the hours run
clockwise: {call_for_fire.clockwise}. The side's off-board asset (its
dice, AP and blast radius are in the scenario) then attacks every unit with a figure inside the
blast radius of the impact point, friends included: {call_for_fire.blast_hits_friends}. Its Attack is scored from its own dice by Table 5 as the action
{call_for_fire.support_action} in the
{call_for_fire.support_posture} posture, at range band
{call_for_fire.support_range_band}.

**Sprint.** The unit places its Destination as for a Basic action of value
{movement.sprint_card_value}. Once all fire of the phase is resolved
it moves again, in any direction, by its Sprint bonus times
{movement.sprint_increment_cm:cm} for foot units or
{movement.vehicle_sprint_increment_cm:cm} for vehicles.

## 5. Activation, movement and fire

**The turn.** An Orders phase, then Activation phases until no unit with orders is left, then
Clean-up. The players take turns as the first Activating player, switching every turn:
{orders.first_player_alternates}, and alternate as Activating
player from phase to phase.

**An Activation phase.** The Activating player reveals the card of one of its ordered units. The
Reacting player answers with one unit of its own: an ordered one, or one forced to react
(section 6). Then, in order:

1. *Declaration*: special actions, targets, and Split Fire's choice of the target for the higher
   Attack. A fire target must be in line of sight, Start to Start: {orders.fire_needs_los}.
2. *Movement*: the Activating player places first, then the Reacting player.
3. *Action Resolution*: dice are rolled and all fire is resolved at the same time.

A target that takes no part in the phase still defends: it rolls as for a Basic action in the
{orders.bystander_posture} posture.

**Movement.** A moving unit leaves a Start figure where it stands and places a Destination figure
at most its maximum move away, with In-transit figures halfway between. The movement increment is
{movement.increment_cm:cm} for infantry and light infantry and
{movement.vehicle_increment_cm:cm} for vehicles. After
resolution the unit moves up to its Destination. In the engine's action space a Destination is one
of {movement.directions} clock directions at one of the fractions
{movement.distance_fractions} of the maximum move, or staying put. Nothing else stops a move: a unit
may end its move on or next to an enemy unit, and there is no close combat, so the two simply
share the ground and go on firing at each other.

**Merging.** A unit whose Destination ends within {movement.merge_contact_cm:cm} of a friendly unit joins it at the end of the phase: figures,
suppression markers and wound counters add up. Only units of the same kind merge:
{movement.merge_same_kind_only}; vehicles merge:
{movement.vehicles_merge}. The unit that moved joins the unit it touches, which keeps its own
profile (dice, armor, heavy weapon, spotting and tactical comms); only the force commander's star
passes on. So a headquarters that moves onto another unit loses its radio: the merged unit can no
longer Call for Fire or rally out of sight unless the unit it joined could.

**Line of sight.** Terrain that blocks sight hides what lies behind it. A unit standing inside such
terrain sees out of its edge: the terrain blocks a sight line only past
{fire.los_edge_depth_cm:cm} of that line inside it, for each end that is
inside.

**Cover.** The target's cover (none, light or heavy) is read at its Start, In-transit and
Destination points; the middle one of the three counts (light, none, heavy gives light).

**Range.** Measure between the In-transit points with the range stick. Its bands end at
{fire.band_edges_cm:cm}: a distance falls in the first band whose edge is at
least that distance, band 1 being the closest, and anything beyond the last edge is one band more.

**Fire.** Compare each Attack with two thresholds: the *range threshold* is the range band, the
*damage threshold* is the range band plus the target's Defense.

- An Attack not above the range threshold does nothing.
- Above the range threshold: suppression markers: {fire.markers_beyond_range} for infantry, {fire.vehicle_markers_beyond_range} for a vehicle.
- Above the damage threshold: suppression markers: {fire.markers_beyond_damage} for infantry, {fire.vehicle_markers_beyond_damage} for a vehicle; and wounds: the amount by which the Attack beats the
  damage threshold, divided by the effective armor and rounded down.

Effective armor is the target's armor, plus its cover bonus (none, light, heavy:
{fire.cover_armor_bonus}), plus the AP of an eligible heavy weapon; it is
never below {fire.armor_floor}. For example, an Attack of 13 at range band 3
against Defense 2, armor 2 in light cover beats the damage threshold 5 by 8; effective armor 3 gives
2 wounds.

However many attacks land, a unit takes at most {fire.turn_marker_cap} new suppression markers per
turn if it is infantry and {fire.vehicle_turn_marker_cap} if it is a
vehicle.

## 6. Confusion

A unit without orders may be **forced to react**: when the activated unit fires at it and its
player has no ordered unit left to answer with. A unit that has already acted this turn has spent
its card, so it is a unit without orders too and may be forced to react again:
{orders.spent_units_react} (`false`: a unit that has acted is never forced to react). It then takes a legal card from its player's
Reserve, the one its player chooses, and reacts normally with it (it is not confused); the card is
spent, so each such reaction leaves one card fewer in the Reserve for the rest of the turn. Only
when the Reserve holds no legal card is the unit *confused*: its player draws from the deck, showing
each card the unit may not take, until a legal card comes. A deck that runs out is made up again from the discard pile as usual, so
the draw ends without a card only when no legal card is left in the deck and the discard pile
together; the cards shown are discarded when the draw ends. The confused unit's Destination goes
in a random clock direction at the card's full move, with In-transit figures halfway, and it is
placed after the Activating player's. A confused infantry unit, light infantry included, that
reveals a face card must Dig-in; a confused vehicle must Sprint. A confused unit that reveals a Joker
still seizes the initiative and chooses its action freely.

## 7. Clean-up and victory

1. **Splitting.** A shattered unit (its {cleanup.shattered_split_die} die pushed off the ladder) must split; a unit of at least {cleanup.split_min_figures}
   figures may split if its player wishes. The two halves are as equal
   as possible, and so are its markers and wounds; the odd one goes to the larger half:
   {cleanup.odd_to_larger_half}. The smaller half is placed
   {cleanup.split_offset_cm:cm} from the larger, towards the table
   centre. A unit that must split but is too small to is removed.
2. **Morale.** Each unit with suppression markers rolls its Morale die, after wound shifts. Rule
   {cleanup.morale_success}: a roll above its number of markers removes
   {cleanup.morale_markers_removed}.
3. **Cards.** Order cards not used this turn are discarded.
4. **Victory.** A side with no units left loses at once. Otherwise the battle ends after the
   scenario's last turn: the side with more figures remaining wins, and equal numbers are a draw.

## 8. Hex artillery: the Artillery Request order

A separate mini-game on its own hex map of flat-topped hexes, columns lettered from A and rows
numbered from 1 (the command line's map is {artillery.hex_columns} columns
by {artillery.hex_rows} rows unless told otherwise). Every other column sits
half a hex lower, starting with column {artillery.low_columns}. Die faces
1 to 6 point to the compass directions {artillery.compass}.

Each player has a Fate deck whose cards each carry two six-sided dice, one white and one coloured;
every one of the 36 pairs appears {artillery.fate_card_copies} times.
Radios are intact or broken, may be able to fire smoke, and have a firepower from
{artillery.radio_firepower_min} to
{artillery.radio_firepower_max} by calibre.

**The order.** Choose one:

- *Contact Battery*, only with a broken Radio: the Radio becomes intact, and nothing else happens.
- *Fire for Effect*, only with an intact Radio and a Leader who is not broken and has not yet been
  activated this turn: the Leader is activated as the spotter.

If neither is possible the order cannot be given.

**Fire for Effect**, step by step:

1. *Accuracy.* Place the spotting round in any hex the spotter can see (impassable hexes too). A
   Radio that can fire smoke declares smoke now.
2. *Hit or miss.* Make a Targeting roll: reveal a Fate card; its score is the {artillery.targeting_score}
   of its two dice (`product` multiplies them, `sum` adds them). The score is compared with the
   range from spotter to round plus the hindrances by the test {artillery.targeting_hit}: with
   `greater` it must beat that total, with `greater_or_equal` at least equal it. Hindering hexes
   counted: {artillery.hindrance_hexes}; `between` means those strictly between spotter and round,
   `between_and_target` adds the round's own hex. On a hit, reveal a card: the round drifts one hex
   towards the white die, then one hex towards the coloured die (it may come back). On a miss it
   drifts as many hexes as the coloured die shows, towards the white die. A round that leaves the
   map, even by one hex, is removed and the order ends.
3. *Impact.* The round's hex and its six neighbours are hit, in the order the active player
   chooses. Each unit there faces an impact roll: Radio firepower plus
   {artillery.impact_attack_dice} card dice (1 means the white die
   only) against Morale plus {artillery.impact_defense_dice} card dice, with the unit's cover added to that defence:
   {artillery.impact_defense_cover}. Defence cards:
   {artillery.impact_defense_roll}; `per_unit` gives every unit its own card, `per_hex` one card
   for all units in the hex.
   A higher impact breaks the unit; an already broken unit broken again is
   {artillery.impact_broken_again}; an equal roll gives
   {artillery.impact_equal}; a lower one does nothing. A card is drawn
   for a hex with no units: {artillery.impact_empty_hex_roll}.
   A smoke mission instead puts one random smoke marker in each of the seven hexes and ends the
   order; each marker hinders by one of {artillery.smoke_values}, drawn
   with equal chances.
"""
