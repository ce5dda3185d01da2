"""The decisions a person takes, as the game offers them: each legal action with words, where it
points on the table and, for every fire choice, its exact odds before it is chosen.

Everything here is driven by the game's own legal actions (:meth:`Game.legal_actions
<atomic_africa.game.Game.legal_actions>`), their decoding (:class:`~atomic_africa.game.actions.ActionSpace`)
and :meth:`Game.describe_action <atomic_africa.game.Game.describe_action>`: a choice of a kind this
module does not know (a new segment of the action space, a new stage) is still offered, with the
game's description and no extras, so the pages and the text mode need no change for it.

Odds are exact (:mod:`atomic_africa.odds`) for what is known when the choice is made; what is not
known yet is said in the choice's ``odds["assumes"]``: a unit that will move later shoots from where
it stands, a target that has not declared defends as a bystander (defensive Basic, the rules'
``orders.bystander_posture``), a Call for Fire's target stays where it is. Markers are cut to what
the target may still take this turn (the turn's marker cap counts earlier phases).
"""
from __future__ import annotations

import math

from .. import odds
from ..dice import wounded_dice
from ..enums import Action, Cover, Posture, UnitKind
from ..fire import band_label, predominant_cover, range_band
from ..game.los import cover_at, los_blocked
from ..game.schema import STAGES
from ..game.state import NO_CARD, Stage
from ..replay.html import feature_odds
from ..replay.narrate import card_words

__all__ = ["legal_choices", "prompt", "odds_summary"]

_ACTION_WORDS = {"BASIC": "Basic action", "SPRINT": "Sprint", "DIG_IN": "Dig-in", "MASS_FIRE": "Mass Fire",
                 "SPLIT_FIRE": "Split Fire", "HEAVY_WEAPON": "Fire Heavy Weapon", "RALLY": "Rally",
                 "CALL_FOR_FIRE": "Call for Fire"}
# Actions whose attack goes at the declared enemy unit (the engine's fire actions).
_FIRE = (Action.BASIC, Action.SPRINT, Action.DIG_IN, Action.MASS_FIRE, Action.SPLIT_FIRE, Action.HEAVY_WEAPON)
_MOVING = (Action.BASIC, Action.SPRINT)
_COVER = {0: "open ground", 1: "light cover", 2: "heavy cover"}
_STAGE_DOC = dict(STAGES)
# How the known stages ask their question ({side}, {unit}, {card}, {action} filled in); any other
# stage asks with its documentation from game.schema.STAGES.
_PROMPTS = {
    "ORDERS": "{side}: give each unit an order card, face down (the cards left form the Reserve)",
    "ACTIVATE": "{side}: activate one of your units with orders",
    "REACT": "{side}: react to {other} with one of your units with orders",
    "RESERVE_PICK": "{side}: {unit} has no orders and is forced to react: pick it a card from the Reserve",
    "DECLARE_ACTION": "{side}: {unit} reveals the {card}: declare its action",
    "DECLARE_ASSET": "{side}: {unit}'s Call for Fire: which off-board asset",
    "DECLARE_TARGET": "{side}: {unit}'s {action}: choose the target",
    "DECLARE_TARGET2": "{side}: {unit}'s Split Fire: the second target, facing the lower Attack",
    "MOVE": "{side}: place {unit}'s Destination ({action})",
    "SPRINT_MOVE": "{side}: {unit} sprints on after the fire: choose the direction",
    "SPLIT": "{side}: Clean-up: split a unit of {split_min} or more figures, or go on",
}


def _pct(p) -> str:
    p = float(p)
    return f"{100 * p:.2g}%" if 0 < p < 0.001 else f"{100 * p:.1f}%"


class _Table:
    """What the odds of a decision read from the game: dice after wounds, points of this phase,
    cover and range (cached for one decision)."""

    def __init__(self, game):
        self.g, self.s, self.rules = game, game.s, game.rules
        self._cover = {}

    def vehicle(self, u) -> bool:
        return u.kind == UnitKind.VEHICLE

    def dice(self, u):
        return tuple(int(d) for d in wounded_dice(u.dice, u.wounds, self.vehicle(u), self.rules)[0])

    def placed(self, u) -> bool:
        """u is a unit of this phase whose Destination is placed (its move is known)."""
        return u.uid in (self.s.act_uid, self.s.react_uid) and u.moves

    def points(self, u):
        """Start, In-transit and Destination points as the engine will measure them (a unit that has
        not placed its Destination stands still)."""
        if self.placed(u):
            return ((u.x, u.y), ((u.x + u.dest_x) / 2, (u.y + u.dest_y) / 2), (u.dest_x, u.dest_y))
        return ((u.x, u.y),) * 3

    def cover(self, points) -> int:
        key = tuple(points)
        if key not in self._cover:
            c = cover_at([p[0] for p in points], [p[1] for p in points], self.g.terrain).tolist()
            self._cover[key] = int(predominant_cover(*c)) if len(c) == 3 else int(c[0])
        return self._cover[key]

    def band(self, a, b) -> int:
        return range_band(math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2), self.rules)

    def defense(self, t):
        """(posture, action, words) the target will roll its Defense with, and whether it is known."""
        if t.uid in (self.s.act_uid, self.s.react_uid) and t.action >= 0:
            return Posture(t.posture), Action(t.action), True
        return Posture[self.rules.orders.bystander_posture.upper()], Action.BASIC, False

    def cap_left(self, t) -> int:
        f = self.rules.fire
        cap = f.vehicle_turn_marker_cap if self.vehicle(t) else f.turn_marker_cap
        return max(0, cap - t.turn_markers)

    def hw_ap(self, u, t):
        if self.vehicle(t):
            return u.hw_point_ap if u.hw_point else None
        return u.hw_dispersed_ap if u.hw_dispersed else None

    def name(self, u) -> str:
        return f"{self.g.scenario.sides[u.side].name} {u.name}"


def _capped(dist, cap_left):
    out = {}
    for (m, w), p in dist.items():
        out[(min(m, cap_left), w)] = out.get((min(m, cap_left), w), 0.0) + p
    return out


def _dist_fields(dist) -> dict:
    rows = sorted(([m, w, float(p)] for (m, w), p in dist.items()), key=lambda r: (-r[2], r[0], r[1]))
    return {"outcomes": rows, "p_marker": float(odds.p_at_least_markers(dist, 1)),
            "p_wound": float(odds.p_at_least_wounds(dist, 1)), "e_markers": float(odds.expected_markers(dist)),
            "e_wounds": float(odds.expected_wounds(dist))}


def odds_summary(o) -> str:
    """One line for an ``odds`` dict of a choice (what the text mode prints, the page's first line).

    Parameters
    ----------
    o : dict
        A choice's ``odds``.

    Returns
    -------
    str
    """
    kind = o["kind"]
    if kind == "fire":
        if o.get("feature"):   # a feature takes no markers
            return f"P(\u22651 wound) {_pct(o['p_wound'])}, expected {o['e_wounds']:.2f} wounds"
        return (f"P(\u22651 marker) {_pct(o['p_marker'])}, P(\u22651 wound) {_pct(o['p_wound'])}, "
                f"expected {o['e_markers']:.2f} markers, {o['e_wounds']:.2f} wounds")
    if kind == "split":
        return (f"declared {o['declared']['target']}: {odds_summary(o['declared'])}; "
                f"this one: {odds_summary(o['other'])}")
    if kind == "rally":
        return f"P(success) {_pct(o['p_success'])}" if o["allowed"] else "not allowed (no line of sight, no comms)"
    if kind == "call_for_fire":
        return (f"P(direct hit) {_pct(o['p_direct_hit'])}, P(lands within the {o['radius']:g} cm blast) "
                f"{_pct(o['p_within'])}; then {odds_summary(o['fire'])}")
    if kind == "targets":
        if not o["targets"]:
            return "no target in view"
        best = o["targets"][0]
        return f"best: {best['target']} \u2014 {odds_summary(best)}"
    return ""


def _fire_odds(tab, u, t, action, posture, origin=None, cap=True) -> dict:
    """Exact odds of u's attack (action, posture) at enemy t; u shoots from ``origin`` (its In-transit
    point) if given."""
    pa = origin if origin is not None else tab.points(u)[1]
    tpts = tab.points(t)
    band = tab.band(pa, tpts[1])
    cover = tab.cover(tpts)
    ap = 0
    if action == Action.HEAVY_WEAPON:
        ap = tab.hw_ap(u, t)
        if ap is None:
            return None
    tp, ta, known = tab.defense(t)
    dist = odds.fire_outcomes(tab.dice(u), tab.dice(t), shooter_posture=Posture(posture), target_posture=tp,
                              range_band=band, armor=t.armor, shooter_action=Action(action), target_action=ta,
                              cover=Cover(cover), ap=ap, vehicle=tab.vehicle(t), rules=tab.rules)
    left = tab.cap_left(t)
    if cap:
        dist = _capped(dist, left)
    assumes = []
    if origin is None and Action(action) in _MOVING and not tab.placed(u):
        assumes.append("shooting from where it stands (the range is measured after its move)")
    if not known:
        assumes.append(f"{tab.name(t)} defends as a bystander ({tp.name.lower()} Basic) unless it reacts")
    elif t.action in _MOVING and not tab.placed(t):
        assumes.append(f"before {tab.name(t)}'s move")
    return {"kind": "fire", "target": tab.name(t), "band": band, "band_words": band_label(band, tab.rules),
            "cover": _COVER[cover], "armor": t.armor, "ap": ap, "cap_left": left,
            "shooter_dice": list(tab.dice(u)), "target_dice": list(tab.dice(t)),
            "target_stance": f"{ta.name.replace('_', ' ').lower()} {tp.name.lower()}",
            "assumes": "; ".join(assumes), **_dist_fields(dist)}


def _feature_shot(tab, u, f, posture, origin=None) -> dict:
    feat = tab.g.scenario.terrain[f]
    pa = origin if origin is not None else tab.points(u)[1]
    band = tab.band(pa, feat.aim_point)
    dist = feature_odds(tab.dice(u), Posture(posture), band, feat.armor, u.hw_point_ap, tab.rules)
    return {"kind": "fire", "feature": True, "target": feat.name, "band": band,
            "band_words": band_label(band, tab.rules), "armor": feat.armor, "ap": u.hw_point_ap,
            "cover": _COVER[tab.s.feature_cover[f]], "assumes": "each wound lowers its cover a level",
            **_dist_fields(dist)}


def _split_odds(tab, u, declared, t) -> dict:
    """Split Fire at ``declared`` (the higher Attack) and ``t`` (the lower): both targets' odds."""
    def target(x):
        tp, ta, _ = tab.defense(x)
        pts = tab.points(x)
        return odds.FireTarget(tab.dice(x), tp, tab.band(tab.points(u)[1], pts[1]), x.armor, ta,
                               Cover(tab.cover(pts)), 0, tab.vehicle(x))
    split = odds.split_fire_outcomes(tab.dice(u), target(declared), target(t), shooter_posture=Posture(u.posture),
                                     rules=tab.rules)
    one = _fire_odds(tab, u, declared, Action.SPLIT_FIRE, u.posture)
    two = _fire_odds(tab, u, t, Action.SPLIT_FIRE, u.posture)
    one.update(_dist_fields(_capped(split.declared, tab.cap_left(declared))))
    two.update(_dist_fields(_capped(split.other, tab.cap_left(t))))
    both = sum(p for (a, b), p in split.joint.items() if a[1] >= 1 or b[1] >= 1)
    return {"kind": "split", "declared": one, "other": two, "p_wound_either": float(both),
            "assumes": two["assumes"]}


def _rally_odds(tab, u, t) -> dict:
    rules = tab.rules
    if t.uid == u.uid:
        p = odds.rally_probability(tab.dice(u), Posture(u.posture), None, t.markers, self_rally=True, rules=rules)
        return {"kind": "rally", "allowed": True, "p_success": float(p), "band": rules.rally.self_range,
                "markers": t.markers, "assumes": ""}
    pa, pb = tab.points(u)[1], tab.points(t)[1]
    band = tab.band(pa, pb)
    los = not bool(los_blocked([pa[0]], [pa[1]], [pb[0]], [pb[1]], tab.g.terrain)[0])
    p = odds.rally_probability(tab.dice(u), Posture(u.posture), band, t.markers, los=los, comms=bool(u.comms),
                               rules=rules)
    return {"kind": "rally", "allowed": bool(los or u.comms), "p_success": float(p), "band": band,
            "markers": t.markers, "los": los,
            "assumes": "judged on its markers before this phase's fire" if t.markers else ""}


def _cff_odds(tab, u, t) -> dict:
    rules, cff = tab.rules, tab.rules.call_for_fire
    asset = tab.g.assets[u.side][max(u.asset, 0)]
    cf = odds.call_for_fire_odds(tab.dice(u), Posture(u.posture), rules=rules)
    r = asset.blast_radius_cm
    inside = sum(p for d, p in cf.distance.items() if d <= r + 1e-9)
    tp, ta, known = tab.defense(t)
    pts = tab.points(t)
    hit = odds.fire_outcomes(tuple(int(d) for d in asset.dice), tab.dice(t),
                             shooter_posture=Posture[cff.support_posture.upper()], target_posture=tp,
                             range_band=cff.support_range_band, armor=t.armor,
                             shooter_action=Action[cff.support_action.upper()], target_action=ta,
                             cover=Cover(tab.cover(pts)), ap=asset.ap, vehicle=tab.vehicle(t), rules=rules)
    hit = _capped(hit, tab.cap_left(t))
    # The fire lands inside the blast radius of the aim (the target's position) or misses it: a
    # mixture of the asset's attack and no effect.
    dist = {k: inside * p for k, p in hit.items()}
    dist[(0, 0)] = dist.get((0, 0), 0.0) + (1 - inside)
    friends = [tab.name(f) for f in tab.g.units if f.alive and f.side == u.side and cff.blast_hits_friends
               and math.dist((f.x, f.y), (t.x, t.y)) <= r]
    assumes = [f"{tab.name(t)} stays where it stands"]
    if friends:
        assumes.append("friends in the blast are hit too: " + ", ".join(friends))
    fire = {"kind": "fire", "target": tab.name(t), "assumes": "", **_dist_fields(dist)}
    return {"kind": "call_for_fire", "asset": asset.name, "radius": r, "p_direct_hit": float(cf.direct_hit),
            "p_within": float(inside), "fire": fire, "assumes": "; ".join(assumes)}


def _lookahead(game, action):
    """The game after ``action`` without its log or history: to read the next decision's options
    (the declaration stages draw nothing from the randomness source; the copy has its own)."""
    g = game.fork()
    g.apply(action)
    return g


def _target_odds(game, tab, seg):
    """Odds of a TARGET / FEATURE choice of the deciding unit, or None."""
    s = game.s
    u = s.units[s.decl_uid]
    a = Action(u.action)
    if seg[0] == "FEATURE":
        return _feature_shot(tab, u, seg[1], u.posture)
    t = s.units[seg[1]]
    if s.stage == Stage.DECLARE_TARGET2:
        return _split_odds(tab, u, s.units[u.target], t)
    if a == Action.RALLY:
        return _rally_odds(tab, u, t)
    if a == Action.CALL_FOR_FIRE:
        return _cff_odds(tab, u, t)
    if a in _FIRE:
        o = _fire_odds(tab, u, t, a, u.posture)
        if o is not None and a == Action.SPLIT_FIRE:
            o["assumes"] = "; ".join(x for x in ("the higher of the two Attacks: the second target comes next",
                                                 o["assumes"]) if x)
        return o
    return None


def _declare_odds(game, a):
    """For a DECLARE choice: the odds of each target it would then offer, best first."""
    try:
        g = _lookahead(game, a)
    except ValueError:   # pragma: no cover - a legal action is always accepted
        return None
    if g.stage == "DECLARE_ASSET":
        g = _lookahead(g, g.legal_actions()[0])
    if g.stage != "DECLARE_TARGET":
        return None
    tab = _Table(g)
    out = []
    for b in g.legal_actions():
        seg = g.space.decode(b)
        if seg[0] in ("TARGET", "FEATURE"):
            o = _target_odds(g, tab, seg)
            if o is not None and o["kind"] == "fire":
                out.append(o)
            elif o is not None and o["kind"] in ("rally", "call_for_fire"):
                o["target"] = tab.name(g.s.units[seg[1]])
                out.append(o)
    if not out:
        return None
    key = {"fire": lambda o: (o["p_wound"], o["e_wounds"], o["p_marker"]),
           "rally": lambda o: (o["p_success"],), "call_for_fire": lambda o: (o["fire"]["p_wound"],)}
    out.sort(key=lambda o: key[o["kind"]](o), reverse=True)
    return {"kind": "targets", "targets": out, "assumes": "at each target it could then choose"}


def _clock(game, d) -> int:
    """The hour (1..12) of action-space direction ``d`` on the table, 12 o'clock = the top edge."""
    deg = math.degrees(game.spec.dir_angle[d]) % 360
    hour = round(deg / 30) % 12
    return 12 if hour == 0 else hour


def _card_group(game, card, u=None) -> str:
    deck, rules = game.deck, game.rules
    words = card_words(deck.name(card))
    if deck.is_joker(card):
        seize = "; seizes the initiative" if rules.orders.joker_takes_initiative else ""
        return f"{words}: any action, posture of your choice{seize}"
    posture = deck.posture(card).name.lower()
    if deck.is_face(card):
        return f"{words} ({posture}): a special action"
    return f"{words} ({posture}): Basic action, value {deck.move_value(card)}"


def _move_cm(game, u, card) -> float:
    m = game.rules.movement
    inc = m.vehicle_increment_cm if u.kind == UnitKind.VEHICLE else m.increment_cm
    return game.deck.move_value(card) * m.basic_move_per_value * inc


def legal_choices(game) -> list:
    """The current player's legal actions, each as a choice a person can read.

    Parameters
    ----------
    game : Game

    Returns
    -------
    list of dict
        One per legal action, in id order: ``id`` (the action id), ``segment`` (its segment of the
        action space), ``describe`` (:meth:`Game.describe_action`), ``label`` (in words), ``group``
        (a heading shared by related choices, e.g. the card being given, or None), ``unit`` (the
        unit it names, a uid, or None), ``point`` (the table point it names, ``[x, y]`` cm, or
        None), ``odds`` (exact odds, see the module notes, or None) and ``summary`` (the odds in one
        line, or None).
    """
    s, sp = game.s, game.space
    tab = _Table(game)
    legal = game.legal_actions()
    u = s.units[s.decl_uid] if s.decl_uid >= 0 else None
    moves = [a for a in legal if sp.decode(a)[0] == "MOVE"]
    dests = {a: game.preview_destination(a) for a in moves}
    covers = {}
    if dests:
        pts = list(dests.values())
        c = cover_at([p[0] for p in pts], [p[1] for p in pts], game.terrain).tolist()
        covers = {a: int(x) for a, x in zip(dests, c)}
    out = []
    for a in legal:
        seg = sp.decode(a)
        name = seg[0]
        c = {"id": a, "segment": name, "describe": game.describe_action(a), "label": game.describe_action(a),
             "group": None, "unit": None, "point": None, "odds": None}
        if name == "ASSIGN":
            t = s.units[s.current_player * game.C + seg[2]]
            c["unit"], c["group"] = t.uid, _card_group(game, seg[1])
            c["label"] = t.name
            if game.deck.is_basic(seg[1]) or game.deck.is_joker(seg[1]):
                c["label"] += f" (Basic: up to {_move_cm(game, t, seg[1]):g} cm)"
            if t.markers:
                c["label"] += f", suppressed ({t.markers} marker{'s' if t.markers > 1 else ''})"
        elif name == "END_ORDERS":
            c["label"] = "Finish orders (the cards left stay in the Reserve)"
        elif name in ("SELECT", "SPLIT"):
            t = s.units[s.current_player * game.C + seg[1]]
            c["unit"] = t.uid
            if name == "SELECT":
                card = f" \u2014 {card_words(game.deck.name(t.card))}" if t.card != NO_CARD else ""
                c["label"] = f"{t.name}{card}"
            else:
                c["label"] = f"Split {t.name} ({t.figures} figures into {(t.figures + 1) // 2} and {t.figures // 2})"
        elif name == "END_SPLITS":
            c["label"] = "No more splits"
        elif name == "DECLARE":
            action, posture = seg[1], seg[2]
            c["label"] = f"{_ACTION_WORDS[action.name]} ({posture.name.lower()})"
            c["odds"] = _declare_odds(game, a)
        elif name in ("TARGET", "FEATURE"):
            if name == "TARGET":
                t = s.units[seg[1]]
                c["unit"], c["label"] = t.uid, tab.name(t)
            else:
                feat = game.scenario.terrain[seg[1]]
                c["point"] = [round(x, 2) for x in feat.aim_point]
                c["label"] = f"the {feat.name} ({_COVER[s.feature_cover[seg[1]]]}, armor {feat.armor})"
            c["odds"] = _target_odds(game, tab, seg)
        elif name == "NO_TARGET":
            c["label"] = "No target" + (" (move only)" if u is not None and u.action in _MOVING else "")
        elif name == "ASSET":
            asset = game.assets[s.current_player][seg[1]]
            dice = ",".join(f"d{int(d)}" for d in asset.dice)
            c["label"] = f"{asset.name} ({dice}, AP {asset.ap}, blast {asset.blast_radius_cm:g} cm)"
        elif name in ("MOVE", "STAY"):
            x, y = dests[a] if name == "MOVE" else (u.x, u.y)
            cover = covers.get(a, tab.cover([(x, y)]))
            c["point"] = [round(x, 2), round(y, 2)]
            dist = math.dist((u.x, u.y) if s.stage != Stage.SPRINT_MOVE else (u.dest_x, u.dest_y), (x, y))
            where = "open" if cover == 0 else _COVER[cover]
            if name == "STAY":
                c["label"] = f"Stay where it stands ({where})"
            else:
                c["label"] = f"{_clock(game, seg[1])} o'clock, {dist:.1f} cm ({where})"
                c["group"] = "Destination" if s.stage == Stage.MOVE else "Sprint"
            if s.stage == Stage.MOVE and u.target >= 0:
                # The declared attack, from the In-transit point this Destination gives.
                mid = ((u.x + x) / 2, (u.y + y) / 2)
                f = u.target - 2 * game.C
                if f >= 0:
                    c["odds"] = _feature_shot(tab, u, f, u.posture, origin=mid)
                elif Action(u.action) in _FIRE:
                    c["odds"] = _fire_odds(tab, u, s.units[u.target], u.action, u.posture, origin=mid)
        c["summary"] = odds_summary(c["odds"]) if c["odds"] else None
        out.append(c)
    return out


def prompt(game) -> str:
    """The question the current decision asks, in words (e.g. ``"Blue: 1st Squad reveals the Queen
    of Spades: declare its action"``).

    Parameters
    ----------
    game : Game

    Returns
    -------
    str
        Empty once the game is over. A stage this module does not phrase is asked with its
        documentation in :data:`atomic_africa.game.schema.STAGES`.
    """
    if game.is_over:
        return ""
    s = game.s
    side = game.scenario.sides[s.current_player].name
    u = s.units[s.decl_uid] if 0 <= s.decl_uid < len(s.units) else None
    act = s.units[s.act_uid] if 0 <= s.act_uid < len(s.units) else None
    fields = {"side": side, "unit": u.name if u is not None else "the unit",
              "card": card_words(game.deck.name(u.card)) if u is not None and u.card != NO_CARD else "card",
              "action": _ACTION_WORDS[Action(u.action).name] if u is not None and u.action >= 0 else "action",
              "other": f"{game.scenario.sides[act.side].name} {act.name}" if act is not None else "the activated unit"}
    text = _PROMPTS.get(game.stage)
    if text is None:
        return f"{side}: {_STAGE_DOC.get(game.stage, game.stage.lower())}"
    return text.format(split_min=game.rules.cleanup.split_min_figures, **fields)
