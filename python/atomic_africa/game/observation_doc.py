"""Render ``docs/observation.md``: the observation and the action space of a scenario, from the code.

Every row comes from :func:`~atomic_africa.game.observation_spec.observation_spec` (features,
scales, bounds), :class:`~atomic_africa.game.actions.ActionSpace` and
:class:`~atomic_africa.game.side_view.SideView`, so the document cannot drift from the encoders
(``tests/test_observation_spec.py`` fails when the committed file differs). Regenerate::

    PYTHONPATH=python python -m atomic_africa.game.observation_doc > docs/observation.md
"""
from __future__ import annotations

from .actions import SEGMENT_MEANINGS, SEGMENTS
from .observation_spec import UNIT_LAYOUT, count_limits, observation_spec, unit_offset
from .observe import UNIT_FEATURES
from .side_view import VIEWS, SideView

__all__ = ["render", "DOC_PATH", "COMMAND"]

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
    lim = count_limits(spec)
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
        "`low`/`high` columns are true bounds over every reachable state, and are the `Box` "
        "bounds of the environments.",
        "",
        "## Layout",
        "",
    ]
    lines += _table([(seg, f"{a} .. {b}", b - a + 1) for seg, a, b in _ranges(feats)],
                    ("segment", "indices", "features"))
    lines += ["", "## Head, stage, card piles, hand, terrain", ""]
    lines += _table([(f.index, f.name, f.meaning, f.unit, _num(f.low), _num(f.high))
                     for f in feats if f.segment not in ("own_units", "enemy_units")],
                    ("index", "name", "meaning", "unit / scale", "low", "high"))
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
    lines += _table([(j, slot.name, slot.meaning, f.unit, _num(f.low), _num(f.high))
                     for j, (slot, f) in enumerate(zip(UNIT_LAYOUT, first))],
                    ("j", "feature", "meaning", "unit / scale", "low", "high"))
    lines += [
        "",
        "Where the count bounds come from (before scaling):",
        "",
        f"- figures <= {lim.figures}: the larger side's figures at set-up (merges only add up "
        "figures of one side);",
        f"- turn markers <= {lim.turn_markers}: the per-turn marker cap x slots per side (a merged "
        "unit carries both units' counts);",
        f"- markers <= {lim.markers}: markers at set-up + turns x per-turn cap x slots per side;",
        f"- wounds <= {lim.wounds}: wounds at set-up + turns x (2 x slots actions a turn) x "
        "(max(2, slots) attacks of one action on a side) x (two faces of the largest die / armour "
        "floor);",
        f"- armour <= {lim.armor} and printed dice <= d{lim.die}: the scenario's largest (never "
        "changed).",
        "",
        "The markers and wounds bounds are guarantees, far above what games reach; clip them if "
        "a fixed range matters more to you than the exact count.",
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
