"""Render ``docs/observation.md``: the observation and the action space of a scenario, from the code.

Every row comes from :func:`~atomic_africa.game.observation_spec.observation_spec` (features,
scales, bounds), :class:`~atomic_africa.game.actions.ActionSpace` and
:class:`~atomic_africa.game.side_view.SideView`, so the document cannot drift from the encoders
(``tests/test_observation_spec.py`` fails when the committed file differs). Regenerate::

    PYTHONPATH=python python -m atomic_africa.game.observation_doc > docs/observation.md
"""
from __future__ import annotations

import numpy as np

from .actions import SEGMENT_MEANINGS, SEGMENTS
from .observation_spec import (UNIT_LAYOUT, compact_indices, count_limits, observation_spec, realistic_limits,
                               unit_offset)
from .observe import UNIT_FEATURES
from .schema import UNIT_OBSERVATION as _UNIT_OBS
from .side_view import VIEWS, SideView

__all__ = ["render", "measure", "DOC_PATH", "COMMAND", "MEASURED_GAMES"]

#: Games of native random play (seed 0) the document's measured figures come from.
MEASURED_GAMES = 400


def measure(spec, games: int = MEASURED_GAMES, envs: int = 100, seed: int = 0) -> dict:
    """Figures of ``games`` games of native random play (deterministic for the seed): the share of
    decisions with a single legal action (``forced``), the share of features that were 0 in every
    observation of both players (``zero``), the states observed and the largest value of each
    scaled count (``largest``: name -> value before scaling)."""
    from .native.vector import VectorGame
    vg = VectorGame(spec, envs, seed)
    rows = observation_spec(spec)
    seen = np.zeros(spec.observation_size, dtype=np.float32)
    nonzero = np.zeros(spec.observation_size, dtype=bool)
    decisions = forced = played = states = 0
    while played < games:
        for p in (0, 1):
            obs = vg.observations(player=p)
            seen = np.maximum(seen, obs.max(axis=0))
            nonzero |= (obs != 0).any(axis=0)
            states += obs.shape[0]
        legal = vg.action_masks().sum(axis=1)
        decisions += legal.size
        forced += int((legal == 1).sum())
        _, _, term, _, _ = vg.step(vg.random_actions(), observe=False)
        played += int(term.sum())
    largest = {}
    for f in UNIT_LAYOUT:
        if f.unit in ("figures", "markers", "wounds", "turn_markers"):
            idx = [r.index for r in rows if r.name.endswith("." + f.name)]
            largest[f.name] = float(seen[idx].max()) * next(u.scale for u in _UNIT_OBS if u.name == f.name)
    return {"games": played, "decisions": decisions, "forced": forced / decisions, "states": states,
            "zero": 1.0 - nonzero.mean(), "largest": largest}

#: Where the rendered document lives, relative to the repository root.
DOC_PATH = "docs/observation.md"
#: The command that writes it.
COMMAND = f"PYTHONPATH=python python -m atomic_africa.game.observation_doc > {DOC_PATH}"


def _num(v: float) -> str:
    return f"{v:.6g}"


def _table(rows, header) -> list:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return out


def _ranges(features) -> list:
    """(segment, first, last) of consecutive rows of the same segment."""
    out = []
    for f in features:
        if out and out[-1][0] == f.segment:
            out[-1][2] = f.index
        else:
            out.append([f.segment, f.index, f.index])
    return out


def render(spec) -> str:
    """The Markdown document of ``spec``'s observation and action space.

    Parameters
    ----------
    spec : GameSpec

    Returns
    -------
    str
    """
    feats = observation_spec(spec)
    sc, C, space = spec.scenario, spec.C, spec.space
    lim, real = count_limits(spec), realistic_limits(spec)
    keep = compact_indices(spec)
    m = measure(spec)
    lim_name = {"figures": "figures", "markers": "markers", "wounds": "wounds", "turn_markers": "turn_markers"}
    off = unit_offset(spec)
    lines = [
        "# The observation and the action space",
        "",
        f"Generated from the code for the default scenario (*{sc.name}*, {sc.width_cm:g} x "
        f"{sc.height_cm:g} cm, {sc.turns} turns, {C} unit slots per side) by `{COMMAND}`; do not "
        "edit by hand (`tests/test_observation_spec.py` fails when this file and the code differ). "
        "For another scenario, `atomic_africa.game.observation_spec.observation_spec(GameSpec.build(scenario))` "
        "gives the same rows.",
        "",
        f"An observation is a float32 vector of {spec.observation_size} features: what one player may "
        "see (the opponent's hand, Reserve and face-down cards and both decks' order are hidden). "
        "Every feature is 0 or more; flags are 0 or 1; counts are divided by a fixed scale. The "
        "`low`/`high` columns are the realistic bounds, the environments' `Box`: true bounds for "
        "everything but the counts that grow over a battle (markers, wounds, markers this turn), "
        "where they are what a unit takes in practice (see below); `guaranteed` is the true bound "
        "over every reachable state. A feature with `high` 0 is constant in this battle (a unit "
        "kind, weapon or action no unit here has): `observation=\"compact\"` leaves those out.",
        "",
        "## Measured on this battle",
        "",
        f"{m['games']} games of native random play (seed 0; {m['decisions']:,} decisions, "
        f"{m['states']:,} observations of both players), by "
        "`atomic_africa.game.observation_doc.measure`:",
        "",
        f"- **forced decisions** (a single legal action; what `skip_forced=True` plays): "
        f"{100 * m['forced']:.1f} % of all decisions;",
        f"- **features 0 in every observation**: {100 * m['zero']:.1f} % ({round(m['zero'] * spec.observation_size)} "
        f"of {spec.observation_size}): mostly the unit slots only splits fill and the features of "
        f"units that rarely exist; {spec.observation_size - len(keep)} of them are constant for the "
        f"battle and `observation=\"compact\"` drops them ({len(keep)} features left);",
        "- **largest count on one unit**: " + ", ".join(
            f"{name} {m['largest'][name]:g} (realistic bound {getattr(real, lim_name[name]):g}, "
            f"guaranteed {getattr(lim, lim_name[name]):g})" for name in ("figures", "markers", "wounds",
                                                                           "turn_markers")) + ".",
        "",
        "## Layout",
        "",
    ]
    lines += _table([(seg, f"{a} .. {b}", b - a + 1) for seg, a, b in _ranges(feats)],
                    ("segment", "indices", "features"))
    lines += ["", "## Head, stage, card piles, hand, terrain", ""]
    lines += _table([(f.index, f.name, f.meaning, f.unit, _num(f.low), _num(f.high), _num(f.bound))
                     for f in feats if f.segment not in ("own_units", "enemy_units")],
                    ("index", "name", "meaning", "unit / scale", "low", "high", "guaranteed"))
    lines += [
        "",
        "## Unit slots",
        "",
        f"The observer's own {C} slots come first, then the enemy's {C}, each in slot order; every "
        f"slot has the {UNIT_FEATURES} features below. Own slot `k` feature `j` is at index "
        f"`{off} + k * {UNIT_FEATURES} + j`, enemy slot `k` feature `j` at "
        f"`{off + C * UNIT_FEATURES} + k * {UNIT_FEATURES} + j` (names `own<k>.<feature>`, "
        "`enemy<k>.<feature>`). An empty slot (never used, merged away or removed) is all zeros. "
        "A unit's order card shows only if it is the observer's own unit or the card is revealed.",
        "",
    ]
    first = feats[off:off + UNIT_FEATURES]
    lines += _table([(j, slot.name, slot.meaning, f.unit, _num(f.low), _num(f.high), _num(f.bound))
                     for j, (slot, f) in enumerate(zip(UNIT_LAYOUT, first))],
                    ("j", "feature", "meaning", "unit / scale", "low", "high", "guaranteed"))
    lines += [
        "",
        "Where the count bounds come from (before scaling), realistic first, then guaranteed:",
        "",
        f"- figures <= {lim.figures}: the larger side's figures at set-up (merges only add up "
        "figures of one side; both bounds);",
        f"- markers <= {real.markers} (guaranteed {lim.markers}): set-up markers + 2 x turns x the per-turn "
        "cap (a unit gains at most the cap a turn; a merge at most doubles that); guaranteed: + turns "
        "x per-turn cap x slots per side;",
        f"- turn markers <= {real.turn_markers} (guaranteed {lim.turn_markers}): 4 x the per-turn cap "
        "(its own and up to three merged units'); guaranteed: the cap x slots per side;",
        f"- wounds <= {real.wounds} (guaranteed {lim.wounds}): set-up wounds + the ladder's length + one "
        "attack's wounds (two faces of the largest die / armour floor): past the ladder a unit is "
        "shattered and splits or is removed at Clean-up; guaranteed: + turns x (2 x slots actions a "
        "turn) x (max(2, slots) attacks of one action on a side) x one attack;",
        f"- armour <= {lim.armor} and printed dice <= d{lim.die}: the scenario's largest (never "
        "changed).",
        "",
        "The realistic bounds held in every state of the measured games above and of thousands of "
        "random and greedy games of the packaged and generated battles on both engines "
        "(`tests/test_observation_spec.py`); the guaranteed ones can never be exceeded.",
        "",
        "## Actions",
        "",
        f"One `Discrete({spec.num_actions})` space; at each decision only some ids are legal (the "
        "environments give the mask: `info[\"action_mask\"]`, `action_masks()`). Segments in id "
        "order:",
        "",
    ]
    rel = SideView(spec, "relative")
    p1 = rel.to_engine[1]
    rows = []
    for name in SEGMENTS:
        b, n = space.base[name], space.size[name]
        moved = bool(n) and (p1[b:b + n] != range(b, b + n)).any()
        if name == "TARGET":
            how = f"own slots first: relative `k` = global slot `(k + {C}) mod {2 * C}`"
        elif name == "MOVE":
            how = (f"direction `d` = absolute `(d + {space.directions // 2}) mod {space.directions}` "
                   "(fraction unchanged)")
        else:
            how = "same"
        assert moved == (how != "same")
        rows.append((name, f"{b} .. {b + n - 1}" if n else "-", n, SEGMENT_MEANINGS[name], how))
    lines += _table(rows, ("segment", "ids", "size", "meaning", "player 1, relative view"))
    coords = [f.name.split(".", 1)[1] for f in first if f.frame]
    cff = spec.rules.call_for_fire
    lines += [
        "",
        f"Movement directions are {space.directions} evenly spaced directions on the Call for Fire "
        f"clock: direction `d` points `d` x {360 / space.directions:g} degrees "
        f"{'clockwise' if cff.clockwise else 'counter-clockwise'} from {cff.clock_zero_deg:g} degrees "
        "(0 = 12 o'clock = the top table edge, +y); fractions are "
        f"{list(spec.rules.movement.distance_fractions)} of the unit's maximum move.",
        "",
        "## Views",
        "",
        f"The environments take `view=` one of {', '.join(repr(v) for v in VIEWS)} (default "
        f"`{VIEWS[0]!r}`):",
        "",
        "- `\"absolute\"`: the engines' frame. Own units first, table coordinates as on the table "
        "(player 0 deploys at the bottom, player 1 at the top).",
        "- `\"relative\"`: player 1 sees the table turned by 180 degrees, so both sides see their own "
        f"deployment at the bottom: the coordinate features ({', '.join(coords)}) of every "
        "occupied slot become `1 - v` (x -> width - x, y -> height - y; empty slots stay 0), and "
        "action ids are mapped as in the table above, both ways (masks are permuted the same "
        "way; the policy's actions are mapped back before the engine sees them). Player 0's "
        "relative view is its absolute one. A callable opponent of the vector environment gets "
        "observations and masks in its own relative view and answers in it, so one policy can "
        "play either side. The mapping is `atomic_africa.game.side_view.SideView`.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    from .spec import GameSpec

    print(render(GameSpec.build()), end="")
