"""A replay as one self-contained web page: the table drawn in SVG, a slider and a play button to
step through the frames, and for every shot its exact odds.

Everything the page shows is computed here and embedded as JSON: unit positions, markers and
wounds, moves, fire lines and captions per frame (the frames of :func:`atomic_africa.replay.frames.frames`), and each
shot's outcome distribution from :mod:`atomic_africa.odds` for the dice, postures, actions, range
band, armor, cover and armor penetration of that shot. The page's script only draws; it loads
nothing from the network.
"""
from __future__ import annotations

import html
import json
import os
import re

from .. import odds
from .._atomic_write import replaced_atomically
from .._text import printable
from ..enums import Action, Cover, Posture, UnitKind
from ..fire import band_label, resolve_fire
from .frames import caption, frames, last_phase_events
from .page import PAGE

__all__ = ["replay_data", "frame_data", "board_data", "shot_odds", "feature_shot_odds", "feature_odds",
           "render_html", "save_html"]

_COVER_WORDS = {int(c): w for c, w in ((Cover.NONE, "open"), (Cover.LIGHT, "light"), (Cover.HEAVY, "heavy"))}
_SIDE_COLOURS = ("#1f5fbf", "#c0392b")


def _summary(dist: dict, actual) -> dict:
    """Outcome table (most likely first), expectations and the probability of what happened."""
    rows = sorted(([m, w, p] for (m, w), p in dist.items()), key=lambda r: (-r[2], r[0], r[1]))
    return {
        "outcomes": rows,
        "p_actual": dist.get(tuple(actual), 0.0),
        "e_markers": odds.expected_markers(dist),
        "e_wounds": odds.expected_wounds(dist),
        "p_marker": odds.p_at_least_markers(dist, 1),
        "p_wound": odds.p_at_least_wounds(dist, 1),
    }


def _capped(dist: dict, cap_left: int) -> dict:
    """``dist`` with its markers cut to the ``cap_left`` new markers the target may still take this
    turn (the odds cap a volley at the whole turn's cap; earlier fire that turn leaves less)."""
    out = {}
    for (m, w), p in dist.items():
        key = (min(m, cap_left), w)
        out[key] = out.get(key, 0.0) + p
    return out


def _end_positions(events, units) -> dict:
    """uid -> (x, y) where each unit of ``units`` stood at the end of the phase of ``events``
    (its completed move, else where it stood)."""
    pos = {u.uid: (u.x, u.y) for u in units}
    for e in events:
        if e["type"] == "complete_move":
            pos[e["unit"]] = tuple(e["dest"])
    return pos


def shot_odds(events, game, units=None) -> list:
    """Every shot of one Activation phase with its exact odds.

    A shot is one fire line: a unit's attack on one target (Mass Fire's two attacks on the same
    target are one volley, one shot), or one unit caught in a fire support blast. Its odds are
    :func:`atomic_africa.odds.fire_outcomes` (:func:`~atomic_africa.odds.split_fire_outcomes` for
    Split Fire) for the dice rolled (after wound shifts), postures and actions of both sides and
    the range band, armor, cover and armor penetration the engine used, with the markers cut to
    what the target could still take this turn (RULES.md section 5: the turn's marker cap counts
    the markers of earlier phases), as the battle log tells it.

    Parameters
    ----------
    events : sequence of dict
        The phase's events, from its ``activate`` event on (see
        :func:`~atomic_africa.replay.frames.last_phase_events`).
    game : Game
        The game (its rules and scenario).
    units : sequence of Unit, optional
        The unit slots as they stood when the phase's fire was resolved
        (:attr:`Frame.phase_units <atomic_africa.replay.frames.Frame>`): they name the units, say
        which are vehicles and hold the markers each had taken earlier in the turn, even after a
        Clean-up removed or split them. By default the game's units now, which is right until the
        phase ends.

    Returns
    -------
    list of dict
        Per shot: ``source``/``target`` unit ids (``source`` -1 for fire support, then
        ``source_unit`` is the caller and ``impact`` where the fire landed), ``shooter``,
        ``target_name``, ``action``, ``attack``, ``defense``, ``band``, ``armor``, ``cover``,
        ``ap``, ``from``/``to`` (where the fire line starts and ends: the shooter, or the impact of
        fire support, and the target, at the end of the phase), ``markers_rolled`` (the volley's
        markers before any cap), ``cap`` (the turn's cap) and ``cap_left`` (new markers the
        target could still take when the shot was resolved), ``actual`` ([markers, wounds] the
        target took from this shot), and the fields of the odds summary: ``outcomes`` ([markers,
        wounds, p] rows, most likely first, markers cut at ``cap_left``), ``p_actual``,
        ``e_markers``, ``e_wounds``, ``p_marker``, ``p_wound``.
    """
    rules = game.rules
    now = units is None
    units = game.units if now else units
    rolls = {}       # uid -> roll event (dice after wound shifts, posture, action)
    support = {}     # calling uid -> support_roll event
    asset = {}       # uid -> asset index declared (targets event)
    calls = []       # (fire source, calling uid) in the order the engine resolves them
    fires, callers, impact, taken = [], [], {}, {}
    for e in events:
        t = e["type"]
        if t in ("roll", "bystander_roll"):
            rolls[e["unit"]] = e
        elif t == "targets":
            asset[e["unit"]] = e.get("asset", 0)
        elif t == "scatter":
            impact[e["unit"]] = e["impact"]
        elif t == "support_roll":
            support[e["unit"]] = e
            calls.append((-1 - asset[e["unit"]], e["unit"]))
        elif t == "fire":
            fires.append(e)
        elif t == "fire_result":
            taken[e["target"]] = e["markers"]
    # Fire support attacks carry only the asset index (-1 - index), the same for both sides' first
    # asset: the engine lists each caller's blast in turn, so match them in order by source and attack.
    for f in fires:
        while f["source"] < 0 and (calls[0][0] != f["source"] or support[calls[0][1]]["attack"] != f["attack"]):
            calls.pop(0)
        callers.append(calls[0][1] if f["source"] < 0 else f["source"])
    pos = _end_positions(events, units)
    cff = rules.call_for_fire
    shots, done, left = [], set(), {}
    for k, f in enumerate(fires):
        if k in done:
            continue
        src, tgt = f["source"], f["target"]
        tr = rolls[tgt]
        vehicle = units[tgt].kind == UnitKind.VEHICLE
        cap = rules.fire.vehicle_turn_marker_cap if vehicle else rules.fire.turn_marker_cap
        if tgt not in left:
            # Markers the target had taken this turn before this phase: the snapshot's count, or
            # (the game's units now) its count less what this phase's fire gave it.
            before = units[tgt].turn_markers - (taken.get(tgt, 0) if now else 0)
            left[tgt] = max(0, cap - max(before, 0))
        common = dict(target_posture=Posture[tr["posture"]], target_action=Action[tr["action"]],
                      range_band=f["range"], armor=f["armor"], cover=Cover(f["cover"]), ap=f["ap"],
                      vehicle=vehicle, rules=rules)
        together = [k]
        if src < 0:
            caller = callers[k]
            shooter_dice = support[caller]["dice"]
            posture, action = Posture[cff.support_posture.upper()], Action[cff.support_action.upper()]
            name = f"{support[caller]['asset']} (called by {units[caller].name})"
            dist = odds.fire_outcomes(shooter_dice, tr["dice"], shooter_posture=posture,
                                      shooter_action=action, **common)
        else:
            sr = rolls[src]
            shooter_dice, posture, action = sr["dice"], Posture[sr["posture"]], Action[sr["action"]]
            name = units[src].name
            if action == Action.SPLIT_FIRE:
                # The engine resolves the declared target's attack first, the other's second.
                pair = [j for j in range(len(fires)) if fires[j]["source"] == src]
                d0, d1 = (fires[j] for j in pair[:2])
                targets = [odds.FireTarget(rolls[d["target"]]["dice"], Posture[rolls[d["target"]]["posture"]],
                                           d["range"], d["armor"], Action[rolls[d["target"]]["action"]],
                                           Cover(d["cover"]), d["ap"],
                                           units[d["target"]].kind == UnitKind.VEHICLE) for d in (d0, d1)]
                split = odds.split_fire_outcomes(shooter_dice, *targets, shooter_posture=posture, rules=rules)
                dist = split.declared if k == pair[0] else split.other
            else:
                if action == Action.MASS_FIRE:
                    together = [j for j in range(k, len(fires))
                                if fires[j]["source"] == src and fires[j]["target"] == tgt]
                dist = odds.fire_outcomes(shooter_dice, tr["dice"], shooter_posture=posture,
                                          shooter_action=action, **common)
        done.update(together)
        rolled = sum(fires[j]["markers"] for j in together)
        # The target's markers of the phase are capped together (batch.resolve_volley): shots on
        # one target take what is left of its cap in the order the engine resolved them.
        cap_left = left[tgt]
        got = min(rolled, cap_left)
        left[tgt] -= got
        actual = [got, sum(fires[j]["wounds"] for j in together)]
        origin = impact[callers[k]] if src < 0 else pos[src]
        shots.append(dict(
            source=src if src >= 0 else -1, source_unit=callers[k], target=tgt,
            impact=impact[callers[k]] if src < 0 else None, shooter=name, target_name=units[tgt].name,
            action=action.name.replace("_", " ").lower(),
            posture=posture.name.lower(), target_stance=f"{tr['action'].replace('_', ' ').lower()} "
                                                        f"{tr['posture'].lower()}",
            shooter_dice=[int(d) for d in shooter_dice], target_dice=[int(d) for d in tr["dice"]],
            attack=[fires[j]["attack"] for j in together], defense=f["defense"],
            band=f["range"], band_words=band_label(f["range"], rules), armor=f["armor"],
            cover=_COVER_WORDS[f["cover"]], ap=f["ap"], vehicle=vehicle, cap=cap, cap_left=cap_left,
            markers_rolled=rolled, actual=actual,
            **{"from": [round(origin[0], 2), round(origin[1], 2)],
               "to": [round(pos[tgt][0], 2), round(pos[tgt][1], 2)]},
            **_summary(_capped(dist, cap_left), actual)))
    return shots


def feature_odds(dice, posture, band: int, armor: int, ap: int, rules) -> dict:
    """Exact wounds of one heavy-weapon shot at an armoured terrain feature.

    A feature does not roll: it defends with the fixed Defense ``rules.fire.feature_defense``
    against its own armor, with the weapon's AP and no cover bonus (RULES.md section 4), so the
    odds are the shooter's Attack distribution (:func:`atomic_africa.odds.scores_pmf`, action Fire
    Heavy Weapon) passed through the fire rule.

    Parameters
    ----------
    dice : three Die
        The shooter's dice after wound shifts.
    posture : Posture
    band : int
        Range band to the feature's aim point.
    armor, ap : int
        The feature's armor and the weapon's armor penetration (<= 0).
    rules : Rules

    Returns
    -------
    dict
        ``{(0, wounds): probability}``: a feature takes no markers.
    """
    pmf = odds.scores_pmf(dice, posture, Action.HEAVY_WEAPON, rules=rules).attacks
    dist = {}
    for (attack,), p in pmf.items():
        w = resolve_fire(attack, band, rules.fire.feature_defense, armor, Cover.NONE, ap, False, rules).wounds
        dist[(0, w)] = dist.get((0, w), 0.0) + p
    return dist


def feature_shot_odds(events, game, units=None) -> list:
    """Every heavy-weapon shot at a terrain feature in one Activation phase, with its exact odds.

    The odds are :func:`feature_odds` for the shooter's dice and posture: a distribution of
    wounds, each of which lowers the feature's cover by ``rules.fire.feature_cover_per_wound``
    levels.

    Parameters
    ----------
    events : sequence of dict
        The phase's events (see :func:`shot_odds`).
    game : Game
    units : sequence of Unit, optional
        The unit slots when the phase was resolved (see :func:`shot_odds`).

    Returns
    -------
    list of dict
        Shots in the fields of :func:`shot_odds` (``target`` -1, no markers: outcomes are
        ``[0, wounds, p]`` rows, ``target_dice`` empty), plus ``feature`` (its index in the
        scenario's terrain), ``aim`` (the point aimed at) and ``cover_before``/``cover_after``.
    """
    rules = game.rules
    units = game.units if units is None else units
    rolls = {e["unit"]: e for e in events if e["type"] == "roll"}
    pos = _end_positions(events, units)
    shots = []
    for e in events:
        if e["type"] != "feature_fire":
            continue
        sr, feat = rolls[e["source"]], game.scenario.terrain[e["feature"]]
        posture = Posture[sr["posture"]]
        dist = feature_odds(sr["dice"], posture, e["range"], e["armor"], e["ap"], rules)
        actual = [0, e["wounds"]]
        origin = pos[e["source"]]
        shots.append(dict(
            source=e["source"], source_unit=e["source"], target=-1, feature=e["feature"],
            aim=list(feat.aim_point), impact=None, shooter=units[e["source"]].name, target_name=feat.name,
            action="heavy weapon", posture=posture.name.lower(),
            target_stance="terrain feature: fixed Defense, no roll",
            shooter_dice=[int(d) for d in sr["dice"]], target_dice=[], attack=[e["attack"]],
            defense=e["defense"], band=e["range"], band_words=band_label(e["range"], rules),
            armor=e["armor"], cover="open", ap=e["ap"], vehicle=False, cap=0, cap_left=0,
            markers_rolled=0, actual=actual,
            cover_before=_COVER_WORDS[e["cover"][0]], cover_after=_COVER_WORDS[e["cover"][1]],
            **{"from": [round(origin[0], 2), round(origin[1], 2)], "to": list(feat.aim_point)},
            **_summary(dist, actual)))
    return shots


def _unit_row(u, x=None, y=None) -> list:
    return [u.uid, u.name, u.side, int(u.kind), round(u.x if x is None else x, 2),
            round(u.y if y is None else y, 2), u.figures, u.markers, u.wounds, bool(u.commander)]


def frame_data(game, lines=(), step=None, phase_units=None, phase=None, label=None) -> dict:
    """One frame of the replay page (and of the ``play`` page): the table now and the last phase.

    Parameters
    ----------
    game : Game
        The game at the frame.
    lines : sequence of str
        Battle log lines for the caption (see :func:`~atomic_africa.replay.frames.caption`).
    step : int, optional
        Actions applied (default: the game's history length).
    phase_units : sequence of Unit, optional
        The unit slots when the last phase's fire was resolved
        (:class:`~atomic_africa.replay.frames.PhaseUnits`).
    phase : sequence of dict, optional
        The events of the phase whose moves and fire are drawn (default: the last phase,
        :func:`~atomic_africa.replay.frames.last_phase_events`).
    label : (int, str), optional
        Turn and words of the phase the frame shows (:attr:`~atomic_africa.replay.frames.Frame.label`);
        default: the game's turn and the stage of its next decision.

    Returns
    -------
    dict
        The fields of one of :func:`replay_data`'s frames.
    """
    phase = last_phase_events(game) if phase is None else phase
    units = game.units if phase_units is None else phase_units
    moves = [e["start"] + e["dest"] for e in phase
             if e["type"] in ("move", "complete_move", "sprint") and "start" in e]
    impacts = [e["impact"] for e in phase if e["type"] == "scatter"]
    shots = shot_odds(phase, game, phase_units) + feature_shot_odds(phase, game, phase_units)
    pos = _end_positions(phase, units)
    strikes = []
    for e in phase:
        if e["type"] == "scatter":
            side = units[e["unit"]].side
            assets = game.scenario.sides[side].fire_support
            radius = next((a.blast_radius_cm for a in assets if a.name == e["asset"]), 0.0)
            strikes.append({"at": e["impact"], "aim": e["aim"], "radius": radius, "asset": e["asset"],
                            "direct_hit": bool(e["direct_hit"]), "caller": e["unit"],
                            "from": [round(c, 2) for c in pos[e["unit"]]]})
    # The units the phase's fire involved that are gone from the table now (removed at Clean-up,
    # or merged into a friend): drawn where they stood, so their fire lines keep both ends.
    alive = {u.uid: u for u in game.units if u.alive}
    how = {e["unit"]: "removed" for e in phase if e["type"] == "removed"}
    how |= {e["unit"]: "merged" for e in phase if e["type"] == "merge"}
    gone = []
    involved = {s["target"] for s in shots if s["target"] >= 0} | {s["source_unit"] for s in shots}
    for uid in sorted(involved):
        u, now = units[uid], alive.get(uid)
        if u.alive and (now is None or (now.name, now.side, now.kind) != (u.name, u.side, u.kind)):
            gone.append(_unit_row(u, *pos[uid]) + [how.get(uid, "removed")])
    turn, stage = (game.s.turn, game.stage.lower()) if label is None else label
    return {
        "step": len(game.history) if step is None else step, "turn": turn, "stage": stage,
        "covers": [_COVER_WORDS[int(c)] for c in game.s.feature_cover],
        "caption": caption(game, lines, label).splitlines(),
        "units": [_unit_row(u) for u in game.units if u.alive],
        "gone": gone, "moves": moves, "impacts": impacts, "strikes": strikes, "shots": shots,
    }


def board_data(scenario) -> dict:
    """What never changes on the table of a scenario: its size, sides (name, colour) and terrain.

    Parameters
    ----------
    scenario : Scenario

    Returns
    -------
    dict
        ``title``, ``table`` (``width``, ``height`` in cm), ``sides`` (name, colour) and ``terrain``
        (name, shape, points or center/radius, cover word at set-up, blocks_los, armor).
    """
    terrain = []
    for t in scenario.terrain:
        d = {"name": t.name, "shape": t.shape, "cover": _COVER_WORDS[int(t.cover)], "blocks_los": bool(t.blocks_los),
             "armor": t.armor}
        if t.shape == "polygon":
            d["points"] = [list(p) for p in t.points]
        else:
            d["center"], d["radius"] = list(t.center), t.radius
        terrain.append(d)
    return {"title": scenario.name, "table": {"width": scenario.width_cm, "height": scenario.height_cm},
            "sides": [{"name": s.name, "colour": c} for s, c in zip(scenario.sides, _SIDE_COLOURS)],
            "terrain": terrain}


def replay_data(scenario, rules, seed, actions, every: str = "phase") -> dict:
    """Everything the replay page shows, as a JSON-able dict.

    Parameters
    ----------
    scenario, rules, seed, actions : dict, dict, int, sequence of int
        The replay, as returned by :func:`~atomic_africa.replay.frames.load_replay`: scenario and
        rules dicts, game seed, action ids.
    every : {"phase", "action"}
        A frame per phase or per action (see :func:`~atomic_africa.replay.frames.frames`).

    Returns
    -------
    dict
        ``title``, ``table`` (``width``, ``height`` in cm), ``sides`` (name, colour), ``terrain``
        (name, shape, points or center/radius, cover word at set-up, blocks_los, armor), ``actions`` (number of
        actions) and ``frames`` (one dict per frame: ``step``, ``turn`` and ``stage``, the phase the
        frame shows (:attr:`~atomic_africa.replay.frames.Frame.label`: ``"set-up"``, ``"orders"``,
        ``"activation phase K"``, ``"clean-up"``, or ``"activation phase K and clean-up"`` for the
        turn's last phase), ``caption``
        lines, ``covers`` (each terrain feature's cover word now: heavy weapons lower the cover of
        armoured features), ``units`` rows ``[uid, name, side, kind, x, y, figures, markers,
        wounds, commander]``, ``gone`` (rows of the same form, plus ``"removed"`` or ``"merged"``:
        units the last phase's fire involved that are no longer on the table, where they stood),
        ``moves`` ``[x0, y0, x1, y1]``, ``impacts`` ``[x, y]``, ``strikes`` (per fire-support
        impact: ``at``, ``aim``, blast ``radius``, ``asset``, ``direct_hit``, ``caller`` and its
        position ``from``) and ``shots`` as returned by :func:`shot_odds`, then those of
        :func:`feature_shot_odds`).
    """
    out = []
    for f in frames(scenario, rules, seed, actions, every):
        out.append(frame_data(f.game, f.lines, f.step, f.phase_units, label=f.label))
    board = board_data(f.game.scenario)
    result = None
    if f.game.is_over:
        r = f.game.result
        sides = f.game.scenario.sides
        result = f"{'Draw' if r.winner is None else sides[r.winner].name + ' wins'} ({r.reason})"
    return {
        "format": "atomic-africa-replay-page/1", "title": board["title"], "seed": seed, "actions": len(actions),
        "table": board["table"], "sides": board["sides"], "terrain": board["terrain"], "result": result,
        "frames": out,
    }


def render_html(data: dict) -> str:
    """The page for :func:`replay_data`'s dict: one HTML document with the data, styles and script
    inline.

    Parameters
    ----------
    data : dict

    Returns
    -------
    str
    """
    # No "<", ">" or "&" in the script element, whatever the names hold ("</script>", "<!--"): their
    # \u escapes are the same strings to JSON.parse.
    payload = (json.dumps(data, separators=(",", ":"), allow_nan=False)
               .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
    title = html.escape(printable(data["title"]))
    return fill_template(PAGE, {"TITLE": title, "DATA": payload})


_MARKER = re.compile(r"\{\{([A-Z]+)\}\}")


def fill_template(page: str, values: dict) -> str:
    """``page`` with each ``{{NAME}}`` marker replaced by ``values[NAME]``, in one pass.

    What is filled in is never searched for markers again, so a scenario named ``{{DATA}}`` shows
    as that text (issue 27: replacing one marker after the other poured the replay's JSON into the
    title). The values must already be escaped for where they go (HTML text, a JSON script).

    Raises
    ------
    KeyError
        If the page holds a marker ``values`` does not name (a bug in the page, never the input).
    """
    return _MARKER.sub(lambda m: values[m.group(1)], page)


def save_html(scenario, rules, seed, actions, path, every: str = "phase") -> int:
    """Write a replay as one self-contained HTML page (see :func:`replay_data`).

    Parameters
    ----------
    scenario, rules, seed, actions : dict, dict, int, sequence of int
        The replay, as returned by :func:`~atomic_africa.replay.frames.load_replay`: scenario and
        rules dicts, game seed, action ids.
    path : str or PathLike
        Destination, written under a temporary name and renamed into place.
    every : {"phase", "action"}
        A frame per phase or per action.

    Returns
    -------
    int
        Number of frames in the page.
    """
    data = replay_data(scenario, rules, seed, actions, every)
    text = render_html(data)
    with replaced_atomically(os.fspath(path)) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
    return len(data["frames"])
