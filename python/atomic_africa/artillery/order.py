"""The Artillery Request order (RULES.md section 8, seed 003 clauses O18-O18.2.3.1).

State objects are plain mutable dataclasses (:class:`Radio`, :class:`Unit`, :class:`Leader`,
:class:`Battlefield`); :func:`artillery_request` applies one order to a battlefield and returns an
:class:`OrderResult` with the event log. The order is all-or-nothing: it is played on a copy of the
battlefield and committed to the given objects only when it succeeds, so a rejected order (an error)
changes nothing, not even the Fate deck.

Readings of the seed (documented [default]s are fields of ``rules.artillery``):

- Two Fate cards decide the landing: the Targeting roll is a normal roll (one card), then the drift card
  is the next card ("reveal the top card of the Fate deck"). Revealed cards go to the discard pile.
- Impact: one impact roll (one card) per hex with units in it, in the active player's order; every
  unit of either side in the hex is attacked by it and draws its own defence card (rules
  ``impact_defense_roll``). Hexes of the 7 that are off the map are not attacked.
- Smoke: the seven markers go on the on-map hexes of the 7; each marker's hindrance is drawn uniformly
  from ``smoke_values`` (a "random smoke marker"); a new marker replaces one already in the hex.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum

from .. import _validate as v
from .._limits import MAX_RATING
from .._seeding import generator
from ..rules import resolve_rules
from .fate import FateCard, FateDeck
from .hexmap import Direction, Hex, HexMap, parse_hex

__all__ = [
    "Option", "Radio", "Unit", "Leader", "Battlefield", "Event", "OrderResult", "OrderError",
    "artillery_request", "legal_options",
]


class OrderError(ValueError):
    """The Artillery Request cannot be given as asked; nothing was changed."""


def _text(value, name: str) -> str:
    """A name (player, unit, radio): a str, else TypeError naming the argument."""
    if not isinstance(value, str):
        raise TypeError(v.wrong_type(name, "a string", value))
    return value


class Option(str, Enum):
    """The two choices of an Artillery Request."""

    CONTACT_BATTERY = "contact_battery"
    FIRE_FOR_EFFECT = "fire_for_effect"


@dataclass
class Radio:
    """A player's Radio: firepower (8-13 by calibre), smoke-capable or not, intact or broken."""

    owner: str
    firepower: int
    smoke: bool = False
    broken: bool = False
    name: str = "Radio"

    def __post_init__(self):
        _text(self.owner, "owner")
        _text(self.name, "name")
        self.firepower = v.as_int(self.firepower, "firepower", lo=0, hi=MAX_RATING)
        self.smoke = v.as_bool(self.smoke, "smoke")
        self.broken = v.as_bool(self.broken, "broken")


@dataclass
class Unit:
    """A unit in a hex: Morale and cover for the impact, broken/suppressed/eliminated, activated."""

    name: str
    owner: str
    hex: Hex
    morale: int
    cover: int = 0
    broken: bool = False
    suppressed: bool = False
    eliminated: bool = False
    activated: bool = False

    def __post_init__(self):
        _text(self.name, "name")
        _text(self.owner, f"{self.name}.owner")
        self.hex = parse_hex(self.hex, f"{self.name}.hex")
        self.morale = v.as_int(self.morale, f"{self.name}.morale", lo=0, hi=MAX_RATING)
        self.cover = v.as_int(self.cover, f"{self.name}.cover", lo=0, hi=MAX_RATING)
        for flag in ("broken", "suppressed", "eliminated", "activated"):
            setattr(self, flag, v.as_bool(getattr(self, flag), f"{self.name}.{flag}"))


@dataclass
class Leader(Unit):
    """A Leader: a unit that can act as the spotter of a Fire for Effect."""


@dataclass
class Battlefield:
    """Everything an Artillery Request reads or changes.

    ``decks`` maps each player to its own :class:`FateDeck`; ``smoke`` maps hexes to smoke marker
    values (they hinder lines of sight); ``log`` accumulates the events of every order.
    """

    map: HexMap
    units: list = field(default_factory=list)
    radios: list = field(default_factory=list)
    decks: dict = field(default_factory=dict)
    smoke: dict = field(default_factory=dict)
    turn: int = 1
    log: list = field(default_factory=list)

    def __post_init__(self):
        if not isinstance(self.map, HexMap):
            raise TypeError(f"map: expected a HexMap, got {type(self.map).__name__}")
        for name, kind in (("units", list), ("radios", list), ("decks", dict), ("smoke", dict), ("log", list)):
            if not isinstance(getattr(self, name), kind):
                raise TypeError(v.wrong_type(name, f"a {kind.__name__}", getattr(self, name)))
        self.turn = v.as_int(self.turn, "turn", lo=1)
        for i, u in enumerate(self.units):
            if not isinstance(u, Unit):
                raise TypeError(f"units[{i}]: expected a Unit or Leader, got {type(u).__name__}")
            self.map.hex(u.hex, f"units[{i}].hex")
        for i, r in enumerate(self.radios):
            if not isinstance(r, Radio):
                raise TypeError(f"radios[{i}]: expected a Radio, got {type(r).__name__}")
        for p, d in self.decks.items():
            if not isinstance(d, FateDeck):
                raise TypeError(f"decks[{v.shown(p)}]: expected a FateDeck, got {type(d).__name__}")
        self.smoke = {self.map.hex(h, "smoke"): v.as_int(x, f"smoke[{v.shown(h)}]", lo=0)
                      for h, x in dict(self.smoke).items()}

    def new_turn(self) -> None:
        """Start the next turn: no unit is activated any more."""
        for u in self.units:
            u.activated = False
        self.turn += 1

    def units_in(self, h) -> list:
        """Units (not eliminated) in hex ``h``, in list order.

        Parameters
        ----------
        h : str, Hex or (int, int)
            An on-map hex.

        Returns
        -------
        list of Unit
        """
        h = self.map.hex(h)
        return [u for u in self.units if u.hex == h and not u.eliminated]


@dataclass(frozen=True)
class Event:
    """One step of an order: the seed clause, a kind, a readable text and the values (``data``)."""

    clause: str
    kind: str
    text: str
    data: dict = field(default_factory=dict, compare=True, hash=False)

    def __str__(self) -> str:
        return f"{self.clause:<10} {self.text}"


@dataclass(frozen=True)
class OrderResult:
    """Outcome of an Artillery Request: the option, its events and, for Fire for Effect, the spotter,
    the round's placement, the Targeting roll, the landing hex (None if off the map) and smoke."""

    option: Option
    events: tuple
    radio: Radio
    spotter: Leader | None = None
    spotting_round: Hex | None = None
    hit: bool | None = None
    landing: Hex | None = None
    off_map: bool = False
    smoke: bool = False

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.events)


# -- preconditions ----------------------------------------------------------------------------------
def _eligible_leaders(state, player) -> list:
    return [u for u in state.units if isinstance(u, Leader) and u.owner == player and not u.broken
            and not u.eliminated and not u.activated]


def _radios(state, player, broken: bool) -> list:
    return [r for r in state.radios if r.owner == player and r.broken == broken]


def legal_options(state: Battlefield, player: str) -> list:
    """The options the player may choose now (empty: the order cannot be given).

    Contact Battery needs a broken Radio; Fire for Effect an intact Radio and an unbroken Leader not
    yet activated this turn.

    Parameters
    ----------
    state : Battlefield
        Read only.
    player : str
        The player (owner of radios and leaders).

    Returns
    -------
    list of Option
        Contact Battery first, then Fire for Effect, those possible.

    Raises
    ------
    TypeError
        If ``state`` is not a Battlefield or ``player`` not a string.
    """
    if not isinstance(state, Battlefield):
        raise TypeError(f"state: expected a Battlefield, got {type(state).__name__}")
    _text(player, "player")
    out = []
    if _radios(state, player, broken=True):
        out.append(Option.CONTACT_BATTERY)
    if _radios(state, player, broken=False) and _eligible_leaders(state, player):
        out.append(Option.FIRE_FOR_EFFECT)
    return out


def _as_option(option) -> Option:
    if isinstance(option, Option):
        return option
    if isinstance(option, str):
        key = option.strip().lower().replace("-", "_").replace(" ", "_")
        for o in Option:
            if key == o.value:
                return o
    raise ValueError(f"option: {v.shown(option)} is not an Artillery Request option; allowed: "
                     f"{', '.join(repr(o.value) for o in Option)}")


def _pick(obj, candidates: list, state_list: list, name: str, what: str):
    """The object ``obj`` (must be one of ``candidates``), or the only candidate if ``obj`` is None."""
    if obj is None:
        if len(candidates) == 1:
            return candidates[0]
        names = ", ".join(repr(c.name) for c in candidates)
        raise OrderError(f"{name}: several {what} qualify ({names}); pass one")
    if not any(obj is x for x in state_list):
        raise OrderError(f"{name}: {v.shown(obj)} is not on this battlefield")
    if not any(obj is c for c in candidates):
        names = ", ".join(repr(c.name) for c in candidates) or "none"
        raise OrderError(f"{name}: {getattr(obj, 'name', obj)!r} is not {what}; qualifying: {names}")
    return obj


# -- the order --------------------------------------------------------------------------------------
def artillery_request(state: Battlefield, player: str, option, *, radio: Radio | None = None,
                      leader: Leader | None = None, spotting_round=None, smoke: bool = False,
                      impact_order=None, hindrance: int = 0, rng=None, rules=None) -> OrderResult:
    """Give an Artillery Request order for ``player`` (RULES.md section 8).

    Parameters
    ----------
    state : Battlefield
        Changed in place when the order succeeds; unchanged when it raises.
    player : str
        The active player (owner of radios, leaders, deck).
    option : Option or "contact_battery" / "fire_for_effect"
        Contact Battery (needs a broken Radio: it is flipped intact; nothing is activated) or Fire for
        Effect (needs an intact Radio and an unbroken Leader not yet activated this turn).
    radio, leader : optional
        Which Radio / spotting Leader; may be omitted when exactly one qualifies.
    spotting_round : hex
        Fire for Effect: the hex of the spotting round, in the Leader's LOS (impassable hexes allowed).
    smoke : bool
        Fire for Effect: declare Smoke (before the Targeting roll; the Radio must be smoke-capable).
    impact_order : sequence of hexes or callable, optional
        The active player's order of the impact hexes: a permutation of the on-map hexes of the
        landing hex and its neighbours, or ``f(landing, hexes) -> that permutation``. Default: the
        landing hex, then its neighbours N, NE, SE, S, SW, NW.
    hindrance : int
        Extra hindrance for the Targeting roll on top of the LOS's (terrain and smoke markers).
    rng : Generator or seed, optional
        Draws the random smoke markers' values; default: the player's Fate deck's Generator.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    OrderResult

    Raises
    ------
    OrderError
        If neither option is possible, the chosen option's precondition fails, or an argument does not
        fit the order (a ValueError; nothing is changed).
    """
    rules = resolve_rules(rules)
    if not isinstance(state, Battlefield):
        raise TypeError(f"state: expected a Battlefield, got {type(state).__name__}")
    possible = legal_options(state, player)
    if not possible:
        raise OrderError(
            f"Artillery Request cannot be given by {player!r}: Contact Battery needs a broken Radio and "
            f"Fire for Effect needs an intact Radio and an unbroken Leader not yet activated this turn; "
            f"{player!r} has neither")
    option = _as_option(option)
    if option not in possible:
        if option is Option.CONTACT_BATTERY:
            raise OrderError(f"option: Contact Battery needs a broken Radio; {player!r} has none "
                             f"(possible: {', '.join(o.value for o in possible)})")
        raise OrderError(f"option: Fire for Effect needs an intact Radio and an unbroken Leader not yet "
                         f"activated this turn; {player!r} lacks one "
                         f"(possible: {', '.join(o.value for o in possible)})")
    if option is Option.CONTACT_BATTERY:
        if leader is not None or spotting_round is not None or smoke or impact_order is not None:
            raise OrderError("Contact Battery takes only a radio: leader, spotting_round, smoke and "
                             "impact_order belong to Fire for Effect")
        r = _pick(radio, _radios(state, player, broken=True), state.radios, "radio", "a broken Radio of "
                  f"{player!r}")
        return _commit(state, _contact_battery(state, player, r))

    r = _pick(radio, _radios(state, player, broken=False), state.radios, "radio",
              f"an intact Radio of {player!r}")
    ldr = _pick(leader, _eligible_leaders(state, player), state.units, "leader",
                f"an unbroken Leader of {player!r} not yet activated this turn")
    lo, hi = rules.artillery.radio_firepower_min, rules.artillery.radio_firepower_max
    if not lo <= r.firepower <= hi:
        raise OrderError(f"radio: {r.name!r} has firepower {r.firepower}; allowed {lo}..{hi} "
                         "(rules artillery.radio_firepower_min/max)")
    if spotting_round is None:
        raise OrderError("spotting_round: Fire for Effect needs the hex of the spotting round")
    target = state.map.hex(spotting_round, "spotting_round")
    smoke = v.as_bool(smoke, "smoke")
    if smoke and not r.smoke:
        raise OrderError(f"smoke: Radio {r.name!r} cannot fire smoke (no 'Smoke' on it)")
    hindrance = v.as_int(hindrance, "hindrance", lo=0)
    los = state.map.line_of_sight(ldr.hex, target, smoke=state.smoke, rules=rules)
    if not los.visible:
        raise OrderError(f"spotting_round: {target.label} is not in the line of sight of {ldr.name!r} at "
                         f"{ldr.hex.label} (blocked by {los.blocked_by.label})")
    if player not in state.decks:
        raise OrderError(f"state.decks: no Fate deck for {player!r}")
    if impact_order is not None and not callable(impact_order):
        if isinstance(impact_order, (str, bytes)) or not hasattr(impact_order, "__iter__"):
            raise TypeError("impact_order: expected a sequence of hexes or a callable(landing, hexes)")
        impact_order = [parse_hex(h, f"impact_order[{i}]") for i, h in enumerate(impact_order)]
    work = copy.deepcopy(state)
    w_radio = work.radios[_index(state.radios, r)]
    w_leader = work.units[_index(state.units, ldr)]
    play = _FireForEffect(work, player, w_radio, w_leader, target, smoke, impact_order, hindrance,
                          los.hindrance, rng, rules)
    result = play.run()
    return _commit(state, result, work)


def _index(items: list, obj) -> int:
    return next(i for i, x in enumerate(items) if x is obj)


def _contact_battery(state, player, radio) -> OrderResult:
    events = [
        Event("O18", "order", f"Artillery Request ({player}): Contact Battery",
              {"player": player, "option": Option.CONTACT_BATTERY.value}),
        Event("O18.1", "radio_repaired", f"{radio.name} flipped to its intact side: ready for use; "
              "no unit is activated", {"radio": radio.name}),
    ]
    return OrderResult(Option.CONTACT_BATTERY, tuple(events), radio), radio


def _commit(state: Battlefield, outcome, work: Battlefield | None = None) -> OrderResult:
    """Apply a finished order to ``state``'s own objects and append its events to the log."""
    if work is None:                      # Contact Battery: the one change, made only now
        result, radio = outcome
        radio.broken = False
        state.log.extend(result.events)
        return result
    result = outcome
    for a, b in zip(state.units, work.units):
        a.__dict__.update(b.__dict__)
    for a, b in zip(state.radios, work.radios):
        a.__dict__.update(b.__dict__)
    for p, d in state.decks.items():
        d._assign(work.decks[p])
    state.smoke.clear()
    state.smoke.update(work.smoke)
    state.log.extend(result.events)
    # Hand back the caller's own objects, not the working copies.
    spotter = state.units[_index(work.units, result.spotter)]
    radio = state.radios[_index(work.radios, result.radio)]
    return OrderResult(result.option, result.events, radio, spotter, result.spotting_round, result.hit,
                       result.landing, result.off_map, result.smoke)


class _FireForEffect:
    """O18.2 on a working copy: Accuracy, Hit, Impact, each step logged."""

    def __init__(self, state, player, radio, leader, target, smoke, impact_order, extra, los_hindrance,
                 rng, rules):
        self.s = state
        self.player = player
        self.radio = radio
        self.leader = leader
        self.target = target
        self.smoke = smoke
        self.impact_order = impact_order
        self.extra = extra
        self.los_hindrance = los_hindrance
        self.rng = rng
        self.rules = rules
        self.art = rules.artillery
        self.deck = state.decks[player]
        self.events = []

    def log(self, clause, kind, text, **data):
        self.events.append(Event(clause, kind, text, data))

    def result(self, hit=None, landing=None, off_map=False) -> OrderResult:
        return OrderResult(Option.FIRE_FOR_EFFECT, tuple(self.events), self.radio, self.leader, self.target,
                           hit, landing, off_map, self.smoke)

    def run(self) -> OrderResult:
        hm, ldr, t = self.s.map, self.leader, self.target
        self.log("O18", "order", f"Artillery Request ({self.player}): Fire for Effect with {self.radio.name} "
                 f"(firepower {self.radio.firepower})", player=self.player,
                 option=Option.FIRE_FOR_EFFECT.value, radio=self.radio.name)
        ldr.activated = True
        self.log("O18.2", "spotter_activated", f"Leader {ldr.name!r} at {ldr.hex.label} is activated as "
                 "the spotter", leader=ldr.name, hex=ldr.hex.label)
        # (1) Accuracy
        note = " (impassable hex: allowed)" if t in hm.impassable else ""
        self.log("O18.2.1", "spotting_round_placed", f"Spotting round placed in {t.label}, in the "
                 f"spotter's LOS{note}", hex=t.label, impassable=t in hm.impassable)
        if self.smoke:
            self.log("O18.2.1.1", "smoke_declared", f"Smoke declared with {self.radio.name}, before the "
                     "Targeting roll", radio=self.radio.name)
        # (2) Hit
        rng_ = hm.distance(ldr.hex, t)
        hind = self.los_hindrance + self.extra
        threshold = rng_ + hind
        card = self.deck.draw()
        score = card.product if self.art.targeting_score == "product" else card.total
        hit = score > threshold if self.art.targeting_hit == "greater" else score >= threshold
        op = "x" if self.art.targeting_score == "product" else "+"
        cmp = (">" if hit else "<=") if self.art.targeting_hit == "greater" else (">=" if hit else "<")
        self.log("O18.2.2", "targeting_roll",
                 f"Targeting roll {card}: {card.white} {op} {card.coloured} = {score} {cmp} range {rng_} + "
                 f"hindrance {hind} = {threshold}: {'hit' if hit else 'miss'}",
                 card=tuple(card), score=score, range=rng_, hindrance=hind, threshold=threshold, hit=hit)
        drift = self.deck.draw()
        dw = Direction.of_face(drift.white, self.rules)
        if hit:
            dc = Direction.of_face(drift.coloured, self.rules)
            steps = [dw, dc]
            self.log("O18.2.2.1", "drift_card", f"Accurate: drift card {drift} revealed (not a roll: no "
                     f"triggers): 1 hex {dw.name} (white {drift.white}), then 1 hex {dc.name} "
                     f"(coloured {drift.coloured})", card=tuple(drift), directions=[dw.name, dc.name])
            clause = "O18.2.2.1"
        else:
            steps = [dw] * drift.coloured
            self.log("O18.2.2.2", "drift_card", f"Inaccurate: drift card {drift} revealed (not a roll: no "
                     f"triggers): {drift.coloured} hex(es) {dw.name} (white {drift.white})",
                     card=tuple(drift), directions=[dw.name] * drift.coloured)
            clause = "O18.2.2.2"
        here = t
        for d in steps:
            nxt = hm.step(here, d)
            if not hm.contains(nxt):
                self.log("O18.2.2.3", "off_map", f"Drift {d.name} from {here.label} leaves the map: the "
                         "round is removed without effect and the order ends", last_hex=here.label,
                         direction=d.name)
                return self.result(hit, None, True)
            self.log(clause, "drift_step", f"Round drifts {d.name}: {here.label} -> {nxt.label}",
                     start=here.label, end=nxt.label, direction=d.name)
            here = nxt
        notes = []
        if here == t:
            notes.append("back in the spotting hex")
        if here in hm.impassable:
            notes.append("an impassable hex: allowed")
        own = [u.name for u in self.s.units_in(here) if u.owner == self.player]
        if own:
            notes.append(f"on our own troops: {', '.join(own)}")
        self.log("O18.2.3", "landed", f"Round lands in {here.label}" + (f" ({'; '.join(notes)})" if notes else ""),
                 hex=here.label, same_hex=here == t, own_units=own)
        # (3) Impact
        area = hm.impact_hexes(here)
        if self.smoke:
            return self.place_smoke(here, area, hit)
        order = self.order_hexes(here, area)
        self.log("O18.2.3", "impact_order", f"Impact on {here.label} and its neighbours, in the order "
                 + ", ".join(h.label for h in order), hexes=[h.label for h in order])
        for h in order:
            self.impact(h)
        self.log("O18.2.3", "order_end", "Fire for Effect complete; the spotting round is removed")
        return self.result(hit, here, False)

    def order_hexes(self, center, area) -> list:
        want = self.impact_order
        if want is None:
            return list(area)
        if callable(want):
            got = want(center, list(area))
            if isinstance(got, (str, bytes)) or not hasattr(got, "__iter__"):
                raise OrderError("impact_order: the callable must return a sequence of hexes")
            want = [parse_hex(h, f"impact_order[{i}]") for i, h in enumerate(got)]
        if len(want) != len(area) or set(want) != set(area):
            raise OrderError("impact_order: must list each impact hex on the map exactly once: "
                             f"{', '.join(h.label for h in area)} (got "
                             f"{', '.join(str(h) for h in want)})")
        return list(want)

    def dice(self, card: FateCard, n: int) -> int:
        return card.total if n == 2 else card.white

    def impact(self, h) -> None:
        units = self.s.units_in(h)
        if not units and not self.art.impact_empty_hex_roll:
            self.log("O18.2.3", "impact_skipped", f"{h.label}: no units, no impact roll", hex=h.label)
            return
        card = self.deck.draw()
        attack = self.radio.firepower + self.dice(card, self.art.impact_attack_dice)
        self.log("O18.2.3", "impact_roll", f"Impact roll on {h.label}: {card} firepower "
                 f"{self.radio.firepower} + {self.dice(card, self.art.impact_attack_dice)} = {attack}",
                 hex=h.label, card=tuple(card), attack=attack)
        shared = None
        for u in units:
            if self.art.impact_defense_roll == "per_hex":
                shared = shared or self.deck.draw()
                dcard = shared
            else:
                dcard = self.deck.draw()
            cover = u.cover if self.art.impact_defense_cover else 0
            roll = self.dice(dcard, self.art.impact_defense_dice)
            defense = u.morale + cover + roll
            if attack > defense:
                if u.broken and self.art.impact_broken_again == "eliminated":
                    u.eliminated = True
                    outcome = "eliminated"
                else:
                    u.broken = True
                    outcome = "broken"
            elif attack == defense and self.art.impact_equal == "suppressed":
                u.suppressed = True
                outcome = "suppressed"
            else:
                outcome = "no effect"
            self.log("O18.2.3", "impact_result", f"  {u.name!r} ({u.owner}) defence {dcard} morale "
                     f"{u.morale} + cover {cover} + {roll} = {defense} vs {attack}: {outcome}",
                     hex=h.label, unit=u.name, owner=u.owner, card=tuple(dcard), defense=defense,
                     attack=attack, outcome=outcome)

    def place_smoke(self, center, area, hit) -> OrderResult:
        g = self.deck.rng if self.rng is None else generator(self.rng)
        values = self.art.smoke_values
        for h in area:
            value = values[int(g.integers(len(values)))]
            self.s.smoke[h] = value
            self.log("O18.2.3.1", "smoke_placed", f"Smoke marker (hindrance {value}) placed in {h.label}",
                     hex=h.label, value=value)
        self.log("O18.2.3.1", "order_end", "Smoke screen laid: the order ends, the spotting round is "
                 "removed")
        return self.result(hit, center, False)
