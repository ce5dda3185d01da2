"""A battle told in plain words: one line per event of a game's event log, for players (the log of
``atomic-africa battle``, the captions of rendered replays).

:class:`Narrator` turns the events of ``Game.events`` into
lines a wargamer can follow: sides and units named together ("Blue 1st Squad"), cards written out
("Queen of Hearts"), the orders each unit revealed, every attack with its result and, in verbose
mode, the dice rolled and why each result happened (Attack against the range and damage thresholds,
range band with its span in cm and the distance, cover and effective armor). :func:`legend` explains
the cards and the fire rule once; :func:`result_line` and :func:`side_tables` close the log.

Names from the scenario (scenario, sides, units, terrain features, fire-support assets) are shown
with control characters escaped (:func:`atomic_africa._text.printable`): a name cannot move the
terminal's cursor nor start a line of its own. Everything shown is read from the events, the
scenario and the rules data; the only thing the events
do not carry, the distance of an attack, is measured between the In-transit points of the two units
(the rules' range measurement), from the positions the narrator is given between decisions.
"""
from __future__ import annotations

import math
import textwrap

from .._text import printable
from ..enums import Cover, Posture, UnitKind
from ..fire import band_label, effective_armor
from ..game.cards import SUITS, Deck

__all__ = ["Narrator", "card_words", "feature_fire_reason", "fire_reason", "hand_rule", "legend", "result_line",
           "side_tables"]

_RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_WORDS = {s[0].upper(): s.capitalize() for s in SUITS}
_ACTION_WORDS = {"BASIC": "Basic action", "SPRINT": "Sprint", "DIG_IN": "Dig-in", "MASS_FIRE": "Mass Fire",
                 "SPLIT_FIRE": "Split Fire", "HEAVY_WEAPON": "Fire Heavy Weapon", "RALLY": "Rally",
                 "CALL_FOR_FIRE": "Call for Fire"}
# How a fire line names the attack of each action ("Blue MG team (...) Mass Fire at Red Scouts").
_FIRE_VERBS = {"BASIC": "fires at", "SPRINT": "fires at", "DIG_IN": "fires from cover at",
               "MASS_FIRE": "Mass Fire at", "SPLIT_FIRE": "Split Fire at", "HEAVY_WEAPON": "Heavy Weapon at"}
_CLEANUP = ("split", "removed", "morale", "discard")
# The events of one Action Resolution: a Rally's markers come off once they are all told.
_RESOLUTION = ("roll", "bystander_roll", "scatter", "support_roll", "rally", "fire", "fire_result", "feature_fire")
_COVER_WORDS = {Cover.NONE: "no cover", Cover.LIGHT: "light cover", Cover.HEAVY: "heavy cover"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{'no' if n == 0 else n} {word}s"


def _a(words: str) -> str:
    return f"{'an' if words[0] in 'aeiouAEIOU' else 'a'} {words}"


def _cm(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def card_words(name: str) -> str:
    """A card's short name written out: ``'QH'`` -> ``'Queen of Hearts'``, ``'Joker2'`` -> ``'Joker'``.

    Parameters
    ----------
    name : str
        A name as in the event log (:meth:`Deck.name <atomic_africa.game.cards.Deck.name>`).

    Returns
    -------
    str
    """
    if name.startswith("Joker"):
        return "Joker"
    rank, suit = name[:-1], name[-1]
    return f"{_RANK_WORDS.get(rank, rank)} of {_SUIT_WORDS[suit]}"


def fire_reason(attack: int, band: int, defense: int, armor: int, cover: int, ap: int, markers: int,
                wounds: int, vehicle: bool, rules) -> str:
    """Why one attack had its result, in the rules' terms (RULES.md section 5).

    Parameters
    ----------
    attack, band, defense, armor, cover, ap : int
        The attack as the event log records it (``fire`` event): Attack score, range band (the range
        threshold), target's Defense, printed armor, predominant cover (0 none, 1 light, 2 heavy) and
        armor penetration (<= 0).
    markers, wounds : int
        The attack's result as recorded (before the per-turn marker cap).
    vehicle : bool
        The target is a vehicle (fewer markers).
    rules : Rules

    Returns
    -------
    str
        E.g. ``'Attack 13 > 3 + Defense 2 = 5: 2 markers; armor 2 + 1 light cover = 3; wounds =
        floor((13 - 5) / 3) = 2'`` (the seed's worked example).
    """
    result = _plural(markers, "marker") + (" (vehicle)" if vehicle else "")
    threshold = band + defense
    if attack <= band:
        return f"Attack {attack} <= range {band}: no effect"
    if attack <= threshold:
        return f"Attack {attack} > range {band} but <= {band} + Defense {defense} = {threshold}: {result}"
    eff = effective_armor(armor, cover, ap, rules)
    bonus = rules.fire.cover_armor_bonus[cover]
    if bonus or ap:
        parts = f"armor {armor}" + (f" + {bonus} for {_COVER_WORDS[cover]}" if bonus else "") + \
            (f" - AP {-ap}" if ap else "")
        floor_note = f" (at least {rules.fire.armor_floor})" if eff != armor + bonus + ap else ""
        armor_text = f"effective {parts} = {eff}{floor_note}"
    else:
        armor_text = f"armor {eff}"
    return (f"Attack {attack} > range {band} + Defense {defense} = {threshold}: {result}; "
            f"{armor_text}: wounds = floor(({attack} - {threshold}) / {eff}) = {wounds}")


def feature_fire_reason(attack: int, band: int, defense: int, armor: int, ap: int, wounds: int,
                        cover: tuple, rules) -> str:
    """Why a heavy weapon's shot at an armoured terrain feature had its result (RULES.md section 4).

    Parameters
    ----------
    attack, band, defense, armor, ap : int
        The shot as the event log records it (``feature_fire`` event): Attack score, range band,
        the feature's Defense (``fire.feature_defense``), its armor and the weapon's AP (<= 0).
    wounds : int
        Wounds the feature took.
    cover : tuple of two int
        The feature's cover before and after (0 none, 1 light, 2 heavy).
    rules : Rules

    Returns
    -------
    str
        E.g. ``'Attack 11 > range 2 + Defense 0 = 2; armor 4 - AP 2 = 2 (no cover bonus): wounds =
        floor((11 - 2) / 2) = 4; cover down 4 x 1 level: heavy cover -> no cover'``.
    """
    threshold = band + defense
    if attack <= threshold:
        return f"Attack {attack} <= range {band} + Defense {defense} = {threshold}: no wound"
    eff = effective_armor(armor, Cover.NONE, ap, rules)
    floor_note = f" (at least {rules.fire.armor_floor})" if eff != armor + ap else ""
    armor_text = f"armor {armor}" + (f" - AP {-ap} = {eff}{floor_note}" if ap else "")
    step = rules.fire.feature_cover_per_wound
    return (f"Attack {attack} > range {band} + Defense {defense} = {threshold}; {armor_text} (no cover "
            f"bonus): wounds = floor(({attack} - {threshold}) / {eff}) = {wounds}; cover down "
            f"{wounds} x {_plural(step, 'level')}: {_COVER_WORDS[Cover(cover[0])]} -> "
            f"{_COVER_WORDS[Cover(cover[1])]}")


def hand_rule(rules) -> str:
    """The order-card hand in one sentence, as the rules data set it (RULES.md section 2).

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    str
    """
    o = rules.orders
    when = "at set-up" if o.hand_units == "setup" else "on the table that turn"
    attached = "" if o.attached_add_cards else " (attached units add none)"
    hold = (" and may hold cards back in the Reserve, leaving units without orders"
            if o.reserve_by_choice else ", and gives every unit a card while they last (the rest is its Reserve)")
    spent = " (a unit that has acted has spent its card)" if o.spent_units_react else ""
    return (f"Hand: each turn a side draws one order card per own unit {when}{attached} plus its "
            f"experience bonus, unless the scenario sets its hand size{hold}; a unit without orders{spent}, "
            "fired on with no friend to answer, reacts with a legal Reserve card of its side's choice, or, "
            "with none, confused (a card drawn until a legal one comes, a random direction, face cards "
            "Dig-in, or Sprint for vehicles).")


def legend(rules) -> list[str]:
    """Lines explaining the cards, the range bands and the fire rule, printed once before a battle.

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    list of str
    """
    deck, o, m, f = Deck(rules), rules.orders, rules.movement, rules.fire
    suits = [SUITS[s].capitalize() for s in range(4)]
    offensive = [s for k, s in enumerate(suits) if deck.posture(k * deck.ranks) == Posture.OFFENSIVE]
    defensive = [s for s in suits if s not in offensive]
    per = f"{m.basic_move_per_value} x " if m.basic_move_per_value != 1 else ""
    top = _RANK_WORDS.get({1: "A"}.get(o.basic_max_rank, ""), str(o.basic_max_rank))
    bands = ", ".join(band_label(b, rules).removeprefix("band ") for b in range(1, len(f.band_edges_cm) + 2))
    cap, vcap = f.turn_marker_cap, f.vehicle_turn_marker_cap
    lines = [
        "How to read this log:",
        f"  Cards: {' and '.join(offensive)} give an offensive posture, {' and '.join(defensive)} a "
        f"defensive one.",
        f"  Ace to {top}: a Basic action, move up to the card's value x {per}{m.increment_cm:g} cm "
        f"(vehicles {m.vehicle_increment_cm:g} cm; Ace = 1) and fire.",
        "  Jack, Queen, King: a special action (Mass Fire, Split Fire, Fire Heavy Weapon, Dig-in, Rally, "
        "Call for Fire, Sprint).",
        "  Joker: any action in either posture" +
        ("; its side takes the initiative for the next phase." if o.joker_takes_initiative else "."),
        f"  Range bands (between In-transit points): {bands}.",
        f"  Fire: Attack above the range band gives {_plural(f.markers_beyond_range, 'suppression marker')}; "
        f"above range + the target's Defense, {f.markers_beyond_damage} markers and a wound per full "
        f"effective armor (armor + cover {'/'.join(map(str, f.cover_armor_bonus))} for none/light/heavy) "
        "beyond it.",
        f"  At most {cap} new markers a turn ({vcap} for vehicles); a unit with markers is suppressed "
        "(defensive cards and Jokers only); wounds shift its Morale die down.",
        f"  {hand_rule(rules)}",
    ]
    return [w for line in lines for w in textwrap.wrap(line, 100, subsequent_indent="    ",
                                                        break_on_hyphens=False)]


def result_line(game, agents=None) -> str:
    """``'Result: Red (greedy) wins - turn limit: more remaining figures; figures Blue 21, Red 28'``.

    Parameters
    ----------
    game : Game
        A finished game.
    agents : sequence of two str, optional
        Agent names shown after the side names.

    Returns
    -------
    str
    """
    sides = _side_labels(game.scenario, agents)
    res = game.result
    who = "draw" if res.winner is None else f"{sides[res.winner]} wins"
    names = [printable(s.name) for s in game.scenario.sides]
    return printable(f"Result: {who} - {res.reason}; figures {names[0]} {res.figures[0]}, "
                     f"{names[1]} {res.figures[1]}")


def side_tables(game, agents=None) -> list[str]:
    """A closing table per side: each live unit's figures, markers and wounds, and the totals.

    Parameters
    ----------
    game : Game
    agents : sequence of two str, optional
        Agent names shown after the side names.

    Returns
    -------
    list of str
    """
    sides = _side_labels(game.scenario, agents)
    lines = []
    for p in range(2):
        units = [u for u in game.units if u.alive and u.side == p]
        figs = sum(u.figures for u in units)
        lines.append(f"{sides[p]}: {_plural(len(units), 'unit')}, {figs} of "
                     f"{game.initial_figures[p]} figures left")
        if not units:
            continue
        width = max(len("total"), *(len(printable(u.name)) for u in units))
        lines.append(f"  {'unit':<{width}}  figures  markers  wounds")
        rows = [(printable(u.name), u.figures, u.markers, u.wounds) for u in units]
        rows.append(("total", figs, sum(u.markers for u in units), sum(u.wounds for u in units)))
        lines += [f"  {n:<{width}}  {a:>7}  {b:>7}  {c:>6}" for n, a, b, c in rows]
    return lines


def _side_labels(scenario, agents):
    names = [printable(s.name) for s in scenario.sides]
    return [printable(f"{n} ({a})") for n, a in zip(names, agents)] if agents else names


class _Seen:
    """What the log needs of a unit: side, name, kind and position."""

    __slots__ = ("side", "name", "vehicle", "x", "y")

    def __init__(self, u):
        self.side, self.name, self.vehicle = u.side, printable(u.name), u.kind == UnitKind.VEHICLE
        self.x, self.y = u.x, u.y


class Narrator:
    """Turns a game's events into the battle log, batch by batch as the game is played.

    Parameters
    ----------
    game : Game
        The game being played (its scenario, rules and units as they are now, before the events
        fed next).
    verbose : bool
        Add the dice rolled, Attack against the range and damage thresholds, range band with its
        span and the distance, cover, effective armor and the reason of each result.

    Notes
    -----
    Feed the new events after every decision (:meth:`feed` with ``game.units``): units are named,
    and attack distances measured, as they were when they acted, since Clean-up splits may reuse
    the slot of a unit removed or merged in the same decision.
    """

    def __init__(self, game, verbose: bool = False):
        self.rules, self.verbose, self.seed = game.rules, verbose, game.seed
        self.scenario = game.scenario
        self.sides = [printable(s.name) for s in game.scenario.sides]
        self.turns = game.scenario.turns
        self._deck = Deck(game.rules)
        self._slots = game.C   # a heavy weapon aimed at terrain feature f has the target 2 C + f
        # The hand as of set-up (fixed for the battle with rules orders.hand_units = "setup").
        self._hands = [game.hand_size(p) for p in range(2)]
        self._drawn = [0, 0]
        self._units = {}
        self._sync(game.units)
        self._turn, self._phase, self._cleanup = 0, 0, False
        self._assigned = [0, 0]
        self._revealed = {}   # uid -> (how it got its card, card name), until its targets are declared
        self._declared = {}   # uid -> (action, posture)
        self._played = {}     # uid -> (card name, posture, action) in this Activation phase
        self._transit = {}    # uid -> In-transit point in this Activation phase
        self._hit = {}        # target uid -> markers of this phase's attacks before the turn cap
        self._assets = {}     # fire-event source of an off-board asset -> its label
        self._attacks = {}    # source uid -> attacks fired this phase (Mass Fire numbers them)
        self._rallied = []    # (target uid, its markers before the fire) of this phase's successful Rallies
        self._totals = {}     # target uid -> its markers after this phase's fire
        self._acted = set()   # uids that activated or reacted this turn
        self._activated = None  # (uid, action, target) of the phase's activated unit, once declared

    # ------------------------------------------------------------------ public
    def opening(self, agents=None) -> list[str]:
        """The title line (scenario, sides, agents, seed, turns), the forces and the :func:`legend`.

        Parameters
        ----------
        agents : sequence of two str, optional
            Agent names shown after the side names.

        Returns
        -------
        list of str
        """
        sc = self.scenario
        labels = _side_labels(sc, agents)
        lines = [f"{printable(sc.name)}: {labels[0]} vs {labels[1]}, seed {self.seed}, {self.turns} turns"]
        for p, side in enumerate(sc.sides):
            units = ", ".join(f"{printable(u.name)} ({u.figures}{', attached' if u.attached else ''})"
                              for u in side.units)
            lines.append(f"{self.sides[p]} ({side.experience}, "
                         f"{sum(u.figures for u in side.units)} figures, "
                         f"{_plural(self._hands[p], 'order card')} a turn): {units}")
        armoured = [t for t in sc.terrain if t.armor]
        if armoured:
            f = self.rules.fire
            lines += textwrap.wrap(
                "Armoured features: "
                + ", ".join(f"{printable(t.name)} (armor {t.armor}, {_COVER_WORDS[Cover(t.cover)]})"
                            for t in armoured)
                + f"; heavy weapons rated for point targets may fire at them (Defense {f.feature_defense}, "
                f"no cover bonus); each wound takes {_plural(f.feature_cover_per_wound, 'level')} off "
                "their cover, and with no cover left they no longer block line of sight.",
                100, subsequent_indent="    ", break_on_hyphens=False)
        return [printable(x) for x in lines] + legend(self.rules)

    def feed(self, events, units) -> list[str]:
        """Log lines of new events.

        Parameters
        ----------
        events : iterable of dict
            Events not fed before, in order (e.g. ``game.events[n:]`` after a decision).
        units : sequence of Unit
            The unit slots after these events (``game.units``): they name the units these events
            create (split halves) and place every unit for the next batch.

        Returns
        -------
        list of str
        """
        lines = []
        for e in events:
            t = e["type"]
            if e["turn"] > self._turn:
                self._new_turn(e["turn"], lines)
            if self._rallied and t not in _RESOLUTION:
                lines += self._rally_totals()
            if t in _CLEANUP and not self._cleanup:
                self._cleanup = True
                lines.append("  Clean-up")
            handler = getattr(self, f"_on_{t}", None)
            if handler is not None:
                out = handler(e, units)
                if out:
                    lines += [out] if isinstance(out, str) else out
        if self._rallied:   # a decision's events hold the whole of a resolution
            lines += self._rally_totals()
        self._sync(units)
        return [printable(x) for x in lines]    # names in events (features, assets, merged units) too

    # ------------------------------------------------------------------ helpers
    def _sync(self, units):
        # Freed slots keep their last unit, so that later events of the same decision still name it.
        self._units = {u.uid: _Seen(u) for u in units if u.alive} | \
            {uid: s for uid, s in self._units.items() if not units[uid].alive}

    def _new_turn(self, turn, lines):
        self._turn, self._phase, self._cleanup = turn, 0, False
        self._assigned = [0, 0]
        self._acted = set()
        lines.append(f"Turn {turn} of {self.turns}")

    def _name(self, uid) -> str:
        s = self._units.get(uid)
        return f"unit {uid}" if s is None else f"{self.sides[s.side]} {s.name}"

    def _point(self, uid):
        if uid in self._transit:
            return self._transit[uid]
        s = self._units[uid]
        return s.x, s.y

    # ------------------------------------------------------------------ orders
    def _on_draw(self, e, units):
        self._drawn[e["player"]] = len(e["cards"])
        if self.verbose:
            drawn = f"  {self.sides[e['player']]} draws {_plural(len(e['cards']), 'card')}"
            # A player's view of the log (game.events(player=p)) hides the other side's draws as
            # NO_CARD: how many, never which (a hidden card is no card of the deck).
            if any(c < 0 for c in e["cards"]):
                return drawn + " (face down)"
            cards = ", ".join(card_words(self._deck.name(c)) for c in e["cards"])
            return drawn + (f": {cards}" if cards else "")

    def _on_reshuffle(self, e, units):
        return (f"  {self.sides[e['player']]} shuffles its discard pile into a new deck of "
                f"{_plural(len(e['deck']), 'card')}")

    def _on_assign(self, e, units):
        self._assigned[e["player"]] += 1

    def _on_orders_done(self, e, units):
        p = e["player"]
        n = sum(1 for u in units if u.alive and u.side == p)
        left = n - self._assigned[p]
        without = f"; {_plural(left, 'unit')} without orders" if left else ""
        drawn = "" if self.verbose else f" ({_plural(self._drawn[p], 'card')} drawn)"  # verbose: the draw line
        return (f"  {self.sides[p]} gives orders to {self._assigned[p]} of its {_plural(n, 'unit')}{drawn}, "
                f"{_plural(e['reserve'], 'card')} in Reserve{without}")

    # ------------------------------------------------------------------ declaration
    def _on_activate(self, e, units):
        self._phase += 1
        self._played, self._transit, self._hit, self._attacks = {}, {}, {}, {}
        self._rallied, self._totals, self._activated = [], {}, None
        self._acted.add(e["unit"])
        self._revealed[e["unit"]] = ("Phase {phase}: {unit} activates with the {card}", e["card"])

    def _on_react(self, e, units):
        self._acted.add(e["unit"])
        self._revealed[e["unit"]] = ("  {unit} reacts with the {card}", e["card"])

    def _on_reserve_card(self, e, units):
        self._acted.add(e["unit"])
        self._revealed[e["unit"]] = ("  {unit}, without orders, reacts with the {card} from the Reserve",
                                     e["card"])

    def _on_confused(self, e, units):
        self._acted.add(e["unit"])
        self._revealed[e["unit"]] = ("  {unit}, without orders, is confused: reacts with the {card} drawn "
                                     "from the deck", e["card"])

    def _on_confused_draw(self, e, units):
        if self.verbose:
            return (f"    {self._name(e['unit'])} draws the {card_words(e['card'])}: not legal for a "
                    "suppressed unit, shown and discarded")

    def _on_no_reaction(self, e, units):
        if "unit" in e:
            return f"    {self._name(e['unit'])} cannot react: {e['reason']}"
        return f"    {self.sides[e['player']]} does not react: no unit with orders left, and {self._why_unforced()}"

    def _why_unforced(self) -> str:
        """Why no unit without orders is forced to react (RULES.md section 6): only the target of the
        activated unit's own fire is (with ``orders.spent_units_react = false``, only if it has not
        acted this turn)."""
        if self._activated is None:     # pragma: no cover - the engine declares before it asks
            return "no unit is forced to react"
        uid, action, t = self._activated
        if action not in _FIRE_VERBS:
            return f"{self._name(uid)}'s {_ACTION_WORDS[action]} is not an attack on a unit"
        if t is None or t < 0:
            return f"{self._name(uid)} fires at no one"
        if t >= 2 * self._slots:
            return f"{self._name(uid)} fires at the {self.scenario.terrain[t - 2 * self._slots].name}, not at a unit"
        if t in self._acted:
            return f"{self._name(t)}, its target, has already acted this turn"
        return f"{self._name(t)}, its target, cannot be forced to react"   # pragma: no cover

    def _on_declare(self, e, units):
        self._declared[e["unit"]] = (e["action"], e["posture"].lower())

    def _on_targets(self, e, units):
        uid = e["unit"]
        how, card = self._revealed.pop(uid)
        action, posture = self._declared.pop(uid)
        self._played[uid] = (card, posture, action)
        if self._activated is None:
            self._activated = (uid, action, e["target"])
        if action == "CALL_FOR_FIRE":
            side = self._units[uid].side
            asset = self.scenario.sides[side].fire_support[e["asset"]]
            self._assets[-1 - e["asset"]] = f"{self.sides[side]} {asset.name}"
        chosen = " chosen" if card.startswith("Joker") else ""
        head = how.format(phase=self._phase, unit=self._name(uid), card=card_words(card))
        return f"  {head} ({posture}{chosen}): {self._intent(action, e)}"

    def _intent(self, action, e) -> str:
        words, t, t2 = _ACTION_WORDS[action], e["target"], e.get("target2", -1)
        if action == "RALLY":
            return f"{words} of {'itself' if t == e['unit'] else self._name(t)}"
        if action == "CALL_FOR_FIRE":
            asset = self.scenario.sides[self._units[e["unit"]].side].fire_support[e["asset"]]
            return f"{words}: {asset.name} on {self._name(t)}"
        if t is None or t < 0:
            return f"{words}, no target"
        if t >= 2 * self._slots:
            return f"{words} at the {self.scenario.terrain[t - 2 * self._slots].name}"
        if action == "SPLIT_FIRE":
            return f"{words} at {self._name(t)} (higher Attack) and {self._name(t2)}"
        return f"{words} at {self._name(t)}"

    # ------------------------------------------------------------------ movement
    def _on_confused_direction(self, e, units):
        verb = "sprints" if e.get("sprint") else "moves"
        die = self.rules.call_for_fire.scatter_die
        return f"    {self._name(e['unit'])} is confused and {verb} towards {e['face']} o'clock (d{die})"

    def _on_move(self, e, units):
        (x0, y0), (x1, y1) = e["start"], e["dest"]
        self._transit[e["unit"]] = tuple(e["in_transit"])
        where = f" from ({_cm(x0)}, {_cm(y0)}) to ({_cm(x1)}, {_cm(y1)})" if self.verbose else ""
        return f"    {self._name(e['unit'])} moves {_cm(math.dist((x0, y0), (x1, y1)))} cm{where}"

    def _on_sprint(self, e, units):
        return f"    {self._name(e['unit'])} sprints a further {_cm(e['distance'])} cm"

    def _on_merge(self, e, units):
        into = self._units[e["into"]]
        f, m, w = (sum(e[k]) for k in ("figures", "markers", "wounds"))
        return (f"    {self.sides[into.side]} {e['from_name']} joins {self._name(e['into'])}: now "
                f"{_plural(f, 'figure')}, {_plural(m, 'marker')}, {_plural(w, 'wound')}")

    def _on_initiative(self, e, units):
        return f"    {self.sides[e['player']]} played a Joker and takes the initiative for the next phase"

    # ------------------------------------------------------------------ resolution
    def _on_roll(self, e, units):
        if self.verbose:
            return f"    {self._name(e['unit'])} rolls {self._dice(e)}"

    def _on_bystander_roll(self, e, units):
        if self.verbose:
            return (f"    {self._name(e['unit'])}, fired on outside the phase, rolls "
                    f"{self._dice(e, defense_only=True)}")

    def _dice(self, e, defense_only=False) -> str:
        """'d10 d10 d8 for an offensive Basic action: 4 7 9 -> Defense 4 (low die), Attack 7 + 9 = 16'."""
        row = self.rules.table5[e["action"].lower()]
        faces = sorted(e["faces"])
        low = (row.offensive if e["posture"] == Posture.OFFENSIVE.name else row.defensive) == "low"
        single, pair = (faces[0], faces[1:]) if low else (faces[2], faces[:2])
        scores = {"defense": e["defense"], "attack": (e["attacks"] or [None])[0], "rally": e["rally"],
                  "spotting": e["spotting"]}
        parts = [f"{row.single.capitalize()} {single} ({'low' if low else 'high'} die)"]
        if row.pair == "attacks":
            parts.append(f"Attacks {pair[0]} and {pair[1]}")
        else:
            parts.append(f"{row.pair.capitalize()} {pair[0]} + {pair[1]} = {scores[row.pair]}")
        if defense_only:
            parts = [p for p in parts if p.startswith("Defense")]
        if e.get("sprint_bonus") is not None and not defense_only:
            parts.append(f"sprint bonus {e['sprint_bonus']} (high die)")
        what = f"{e['posture'].lower()} {_ACTION_WORDS[e['action']]}"
        what = f"Defense (as {_a(what)})" if defense_only else _a(what)
        shattered = " (shattered)" if e["shattered"] else ""
        return (f"{' '.join(f'd{d}' for d in e['dice'])}{shattered} for {what}: "
                f"{' '.join(map(str, e['faces']))} -> {', '.join(parts)}")

    def _on_scatter(self, e, units):
        label = f"{self.sides[self._units[e['unit']].side]} {e['asset']}"
        off, inc = e["distance"] - e["spotting"], self.rules.call_for_fire.scatter_increment_cm
        if e["direct_hit"]:
            line, why = f"    {label} fire lands on target", "direct hit"
        else:
            line = f"    {label} fire scatters {_cm(max(off, 0) * inc)} cm towards {e['clock']} o'clock"
            why = f"{max(off, 0)} x {inc:g} cm"
        if self.verbose:
            ix, iy = e["impact"]
            line += (f": scatter d{self.rules.call_for_fire.scatter_die} {e['distance']} - Spotting "
                     f"{e['spotting']} = {off}, {why}; impact at ({_cm(ix)}, {_cm(iy)})")
        return line

    def _on_support_roll(self, e, units):
        if self.verbose:
            cff = self.rules.call_for_fire
            scored_as = _a(f"{cff.support_posture} {_ACTION_WORDS[cff.support_action.upper()]}")
            return (f"    {self.sides[self._units[e['unit']].side]} {e['asset']} rolls "
                    f"{' '.join(f'd{d}' for d in e['dice'])} (as {scored_as}): "
                    f"{' '.join(map(str, e['faces']))} -> Attack {e['attack']}")

    def _on_rally(self, e, units):
        whom = "itself" if e["target"] == e["unit"] else self._name(e["target"])
        line = f"    {self._name(e['unit'])} rallies {whom}: {'succeeds' if e['success'] else 'fails'}"
        if self.verbose:
            need = e["range"] + e["markers"]
            cmp = ">" if e["rally"] > need else "<="
            sight = "" if e["los"] else " (no line of sight: comms)"
            line += (f", Rally {e['rally']} {cmp} range {e['range']} + {_plural(e['markers'], 'marker')}"
                     f" = {need}{sight}")
        if e["success"]:
            line += f"; {_plural(self.rules.rally.markers_removed, 'marker')} off after the fire"
            self._rallied.append((e["target"], e["markers"]))
        return line

    def _rally_totals(self) -> list:
        """After the phase's fire, each rallied unit's markers as the Rally leaves them (the fire's
        "in all" totals are counted before the Rally takes its markers off)."""
        lines = []
        for t, before in self._rallied:
            now = self._totals.get(t, before)
            off = min(self.rules.rally.markers_removed, now)
            self._totals[t] = now - off
            lines.append(f"    {self._name(t)} loses {_plural(off, 'marker')} to the Rally: "
                         f"{_plural(now - off, 'marker')} in all")
        self._rallied = []
        return lines

    def _on_fire(self, e, units):
        src, t = e["source"], e["target"]
        if src < 0:
            head = f"{self._assets.get(src, 'Fire support')} fire hits"
        else:
            card, posture, action = self._played[src]
            self._attacks[src] = self._attacks.get(src, 0) + 1
            nth = f" ({('first', 'second')[self._attacks[src] - 1]} attack)" if action == "MASS_FIRE" else ""
            head = f"{self._name(src)} ({card_words(card)}, {posture}) {_FIRE_VERBS[action]}"
            head = head.replace(" at", f"{nth} at") if nth else head
        self._hit[t] = self._hit.get(t, 0) + e["markers"]
        if e["markers"] or e["wounds"]:
            result = _plural(e["markers"], "marker") + (f", {_plural(e['wounds'], 'wound')}"
                                                        if e["wounds"] else "")
        else:
            result = "no effect"
        lines = [f"    {head} {self._name(t)}: {result}"]
        if self.verbose:
            if src < 0:
                where = f"range band {e['range']} (fire support)"
            else:
                (ax, ay), (bx, by) = self._point(src), self._point(t)
                where = (f"range {band_label(e['range'], self.rules)}, "
                         f"{_cm(math.dist((ax, ay), (bx, by)))} cm apart")
            cover = _COVER_WORDS[Cover(e["cover"])]
            why = fire_reason(e["attack"], e["range"], e["defense"], e["armor"], e["cover"], e["ap"],
                              e["markers"], e["wounds"], self._units[t].vehicle, self.rules)
            lines.append(f"      {where}, {cover}: {why}")
        return lines

    def _on_feature_fire(self, e, units):
        src = e["source"]
        card, posture, _ = self._played[src]
        before, after = (Cover(c) for c in e["cover"])
        if e["wounds"]:
            result = f"{_plural(e['wounds'], 'wound')}, {_COVER_WORDS[before]} down to {_COVER_WORDS[after]}"
            if after == Cover.NONE and self.scenario.terrain[e["feature"]].blocks_los:
                result += ", no longer blocks line of sight"
        else:
            result = f"no effect, still {_COVER_WORDS[before]}"
        lines = [f"    {self._name(src)} ({card_words(card)}, {posture}) Heavy Weapon at the {e['name']}: "
                 f"{result}"]
        if self.verbose:
            (ax, ay), (bx, by) = self._point(src), self.scenario.terrain[e["feature"]].aim_point
            why = feature_fire_reason(e["attack"], e["range"], e["defense"], e["armor"], e["ap"],
                                      e["wounds"], e["cover"], self.rules)
            lines.append(f"      range {band_label(e['range'], self.rules)}, "
                         f"{_cm(math.dist((ax, ay), (bx, by)))} cm to its middle: {why}")
        return lines

    def _on_fire_result(self, e, units):
        t, m, w = e["target"], e["markers"], e["wounds"]
        self._totals[t] = e["total_markers"]
        hit = self._hit.pop(t, m)
        if not (hit or w):
            return None
        cap = self.rules.fire.vehicle_turn_marker_cap if self._units[t].vehicle else \
            self.rules.fire.turn_marker_cap
        lost = f" ({hit - m} more would pass the limit of {cap} new a turn)" if hit > m else ""
        took = _plural(m, "marker") + lost + (f" and {_plural(w, 'wound')}" if w else "")
        return (f"    {self._name(t)} takes {took}: {_plural(e['total_markers'], 'marker')}, "
                f"{_plural(e['total_wounds'], 'wound')} in all")

    # ------------------------------------------------------------------ clean-up
    def _on_split(self, e, units):
        if units[e["new_unit"]].alive:
            self._units[e["new_unit"]] = _Seen(units[e["new_unit"]])
        why = "by choice" if e["voluntary"] else f"forced: {self._shattered(e['unit'])}"
        half = [f"{_plural(f, 'figure')} ({_plural(m, 'marker')}, {_plural(w, 'wound')})"
                for f, m, w in zip(e["figures"], e["markers"], e["wounds"])]
        return (f"    {self._name(e['unit'])} splits ({why}): keeps {half[0]}; "
                f"{self._name(e['new_unit'])} takes {half[1]}")

    def _shattered(self, uid) -> str:
        d = self.rules.dice
        attr = d.wound_shift_vehicle if self._units[uid].vehicle else d.wound_shift_infantry
        return f"wounds shifted its {attr.capitalize()} die below d{self.rules.dice.ladder[0]}"

    def _on_removed(self, e, units):
        need = self.rules.cleanup.split_min_figures
        return (f"    {self._name(e['unit'])} is removed, {_plural(e['figures'], 'figure')} lost: "
                f"{self._shattered(e['unit'])} and it is too small to split (under {need} figures)")

    def _on_morale(self, e, units):
        why = f" (d{e['die']} rolled {e['face']} {'>' if e['success'] else '<='} " \
              f"{_plural(e['markers'], 'marker')})" if self.verbose else ""
        if e["success"]:
            removed = self.rules.cleanup.morale_markers_removed
            return f"    {self._name(e['unit'])} passes Morale{why}: {_plural(removed, 'marker')} removed"
        return f"    {self._name(e['unit'])} fails Morale{why}: keeps {_plural(e['markers'], 'marker')}"

    def _on_turn_end(self, e, units):
        (f0, f1), (u0, u1) = e["figures"], e["units"]
        return (f"  End of turn {e['turn']}: {self.sides[0]} {f0} figures in {_plural(u0, 'unit')}, "
                f"{self.sides[1]} {f1} figures in {_plural(u1, 'unit')}")
