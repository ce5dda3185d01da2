"""``atomic-africa odds``: exact outcome distribution of one engagement (or of both targets of a
Split Fire), the grid, a heat map; the chance of a Rally; where a Call for Fire lands."""
from __future__ import annotations

import argparse
import math

import numpy as np

from .. import odds
from .._optional import require
from ..enums import Action, Cover, Posture
from ..fire import range_band
from ..rules import resolve_rules
from .._plotting import canvas_figure, save_figure
from .._text import printable
from .common import (action_arg, add_engagement_options, add_rules_option, band_label, count_arg, cover_arg,
                     default_engagement, dice_arg, engagement_band, names, output_file, positive_count_arg,
                     posture_arg, seed_arg)
from .odds_sweep import run_sweep, sweep_arg

# The shooter's actions this command answers other than by fire_outcomes.
_NOT_FIRE = (Action.RALLY, Action.CALL_FOR_FIRE)


def register(sub):
    d = default_engagement()
    p = sub.add_parser(
        "odds",
        help="exact odds of an engagement, a Split Fire, a Rally or a Call for Fire (no sampling)",
        description=(
            "Exact probabilities of every (suppression markers, wounds) outcome of one shooter "
            "firing at one target, computed by enumerating all faces of both units' dice (the "
            "engagement `atomic-africa fire` samples). --grid adds the range band x cover table, "
            "--plot FILE.png draws it as heat maps. --action split_fire with --other-target gives "
            "both targets of a Split Fire and their joint odds; --action rally the chance that a "
            "Rally succeeds (the shooter options describe the rallying unit, --markers its target); "
            "--action call_for_fire the chance of a direct hit and how far the impact lands from "
            "the aiming point (the shooter options describe the spotter). Defaults: the packaged "
            "default engagement."
        ),
    )
    add_engagement_options(p, d)
    p.add_argument("--exact", action="store_true", help="print exact fractions")
    p.add_argument("--grid", action="store_true",
                   help="also print the range band x cover table at this armor and these postures")
    p.add_argument("--plot", type=output_file, metavar="FILE.png", default=None,
                   help="draw heat maps of P(>= 1 wound) and expected markers, band x cover")
    split = p.add_argument_group("Split Fire's other target (with --action split_fire; --target is the "
                                 "declared one, facing the higher Attack)")
    split.add_argument("--other-target", type=dice_arg, default=None, metavar="DICE",
                       help="the other target's three dice after wounds: gives both targets' odds")
    split.add_argument("--other-posture", type=posture_arg, default=Posture.DEFENSIVE, metavar="POSTURE",
                       help="its posture (default defensive)")
    split.add_argument("--other-action", type=action_arg, default=Action.BASIC, metavar="ACTION",
                       help="its action, which sets its Defense (default basic)")
    rng = split.add_mutually_exclusive_group()
    rng.add_argument("--other-range-band", type=int, default=None, metavar="BAND",
                     help="range band to it (default: --range-band's)")
    rng.add_argument("--other-distance", type=float, default=None, metavar="CM",
                     help="distance in cm to it, banded by the rules' stick")
    split.add_argument("--other-armor", type=int, default=None, metavar="N", help="its armor (default --armor's)")
    split.add_argument("--other-cover", type=cover_arg, default=None, metavar="COVER",
                       help=f"its cover: {names(Cover)} (default --cover's)")
    split.add_argument("--other-vehicle", action="store_true", help="the other target is a vehicle")
    rally = p.add_argument_group("Rally (with --action rally; --shooter and --posture are the rallying unit, "
                                 "--range-band or --distance the range to its target)")
    rally.add_argument("--markers", type=count_arg, default=1, metavar="N",
                       help="suppression markers on the rallied unit (default 1)")
    rally.add_argument("--self-rally", action="store_true", help="the unit rallies itself (range does not count)")
    rally.add_argument("--no-los", action="store_true", help="the rallied unit is out of sight")
    rally.add_argument("--comms", action="store_true",
                       help="the rallying unit has tactical comms (it may rally out of sight, at a longer range)")
    sw = p.add_argument_group("Sweeps (a table of every combination; the other options give the values "
                              "not swept)")
    sw.add_argument("--sweep", type=sweep_arg, action="append", default=None, metavar="NAME=VALUES",
                    help="vary one engagement argument (repeatable): range_band=1..9, armor=1,2,3, "
                         "cover=none,light,heavy, shooter=d10,d10,d8/d8,d8,d6 (dice separated by /), "
                         "vehicle=false,true; also target, shooter_posture, target_posture, "
                         "shooter_action, target_action, ap. One row per combination and outcome")
    sw.add_argument("--out", type=output_file, default=None, metavar="FILE.csv|FILE.parquet",
                    help="write the sweep's table there (Parquet needs the 'parquet' extra); default: CSV "
                         "on stdout")
    sw.add_argument("--samples", type=positive_count_arg, default=None, metavar="N",
                    help="Monte Carlo instead of exact odds: N engagements per combination (count and "
                         "frequency columns)")
    sw.add_argument("--seed", type=seed_arg, default=None,
                    help=f"seed of a sampled sweep (default {d['seed']}); combination i draws from child i")
    p.set_defaults(default_seed=d["seed"])
    cff = p.add_argument_group("Call for Fire (with --action call_for_fire; --shooter and --posture are the spotter)")
    cff.add_argument("--within", type=_cm_arg, action="append", default=None, metavar="CM",
                     help="also give the chance that the impact lands within CM of the aiming point "
                          "(repeatable; e.g. the asset's blast radius)")
    add_rules_option(p)
    p.set_defaults(run=run)
    return p


def _cm_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a distance in cm, got {text!r}") from None
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a finite distance >= 0 cm, got {text!r}")
    return value


def _dice(ds) -> str:
    return ",".join(str(x) for x in ds)


def _describe(args, band) -> tuple[str, str]:
    kind = "vehicle" if args.vehicle else "infantry"
    shooter = (f"shooter {_dice(args.shooter)} {args.shooter_posture.name.lower()} "
               f"{args.shooter_action.name.lower()}")
    target = (f"target {_dice(args.target)} {args.target_posture.name.lower()} "
              f"{args.target_action.name.lower()}, {kind}, armor {args.armor}, AP {args.ap}")
    return shooter, target


def _fmt(p, exact: bool) -> str:
    return f"{p} ({float(p):.6f})" if exact else f"{float(p):.6f}"


def _check_options(args) -> None:
    """Options that belong to another --action are refused, so that none is silently ignored."""
    a = args.shooter_action
    given = {"--other-target": args.other_target is not None, "--other-range-band": args.other_range_band is not None,
             "--other-distance": args.other_distance is not None, "--other-armor": args.other_armor is not None,
             "--other-cover": args.other_cover is not None, "--other-vehicle": args.other_vehicle}
    for opt, on in given.items():
        if on and (a != Action.SPLIT_FIRE or (opt != "--other-target" and args.other_target is None)):
            raise ValueError(f"{opt}: only with --action split_fire and --other-target DICE")
    for opt, on in (("--self-rally", args.self_rally), ("--no-los", args.no_los), ("--comms", args.comms)):
        if on and a != Action.RALLY:
            raise ValueError(f"{opt}: only with --action rally")
    if args.within is not None and a != Action.CALL_FOR_FIRE:
        raise ValueError("--within: only with --action call_for_fire")
    if args.sweep is None:
        for opt, on in (("--out", args.out is not None), ("--samples", args.samples is not None),
                        ("--seed", args.seed is not None)):
            if on:
                raise ValueError(f"{opt}: only with --sweep NAME=VALUES")
    else:
        if a in _NOT_FIRE or args.other_target is not None:
            raise ValueError("--sweep: only for fire, not with --action rally, call_for_fire or --other-target")
        for opt, on in (("--grid", args.grid), ("--plot", args.plot), ("--exact", args.exact)):
            if on:
                raise ValueError(f"{opt}: not with --sweep (the sweep's table has float64 probabilities)")
        if args.seed is not None and args.samples is None:
            raise ValueError("--seed: only with --samples N (an exact sweep draws nothing)")
    if a in _NOT_FIRE and (args.grid or args.plot):
        raise ValueError(f"--{'grid' if args.grid else 'plot'}: only for fire, not with --action {a.name.lower()}")


def run(args) -> int:
    _check_options(args)
    if args.sweep is not None:
        return run_sweep(args)
    if args.shooter_action == Action.RALLY:
        return _run_rally(args)
    if args.shooter_action == Action.CALL_FOR_FIRE:
        return _run_call_for_fire(args)
    if args.other_target is not None:
        return _run_split_fire(args)
    return _run_fire(args)


def _print_dist(dist, exact: bool, title: str = "") -> None:
    """One target's outcome distribution, its expectations and P(>= k wounds)."""
    max_m = max(m for m, _ in dist)
    max_w = max(w for _, w in dist)
    if exact:
        print(f"\nOutcome distribution{title} (markers, wounds: exact probability)")
        for (m, w), p in sorted(dist.items()):
            print(f"  {m} markers, {w:2d} wounds: {str(p):>22s}  = {float(p):.6f}")
    else:
        print(f"\nOutcome distribution{title}, % (rows: suppression markers, columns: wounds)")
        print("markers " + "".join(f"{w:>8d}" for w in range(max_w + 1)) + "     all")
        table = np.zeros((max_m + 1, max_w + 1))
        for (m, w), p in dist.items():
            table[m, w] = p * 100
        for m in range(max_m + 1):
            print(f"{m:>7d} " + "".join(f"{x:8.3f}" for x in table[m]) + f"{table[m].sum():8.3f}")
        print("    all " + "".join(f"{x:8.3f}" for x in table.sum(axis=0)) + f"{table.sum():8.3f}")
    print(f"\nExpected markers {_fmt(odds.expected_markers(dist), exact)}   "
          f"expected wounds {_fmt(odds.expected_wounds(dist), exact)}")
    print("P(>= k wounds): " + "   ".join(
        f"k={k} {_fmt(odds.p_at_least_wounds(dist, k), exact)}" for k in range(1, max_w + 1)))


def _run_fire(args) -> int:
    if args.plot:
        require("matplotlib", "plot", "--plot")  # now, not after the tables are printed
    band = engagement_band(args)
    common = dict(shooter_posture=args.shooter_posture, target_posture=args.target_posture,
                  shooter_action=args.shooter_action, target_action=args.target_action, ap=args.ap,
                  vehicle=args.vehicle, rules=args.rules)
    dist = odds.fire_outcomes(args.shooter, args.target, range_band=band, armor=args.armor,
                              cover=args.cover, exact=args.exact, **common)
    shooter, target = _describe(args, band)
    where = f", distance {args.distance:g} cm" if args.distance is not None else ""
    print("Exact odds (all faces of both units' dice)")
    print(f"  {shooter}")
    print(f"  {target}, cover {args.cover.name.lower()}")
    print(f"  range {band_label(band, args.rules)}{where}")
    _print_dist(dist, args.exact)
    if args.shooter_action == Action.SPLIT_FIRE:
        print("\n(Split Fire: this is the declared target, facing the higher Attack; add --other-target DICE "
              "for the other target and the joint odds)")
    if args.grid or args.plot:
        grid = odds.fire_grid(args.shooter, args.target,
                              shooter_postures=[args.shooter_posture],
                              target_postures=[args.target_posture], armors=[args.armor],
                              **{k: v for k, v in common.items()
                                 if k not in ("shooter_posture", "target_posture")})[0, 0, :, :, 0]
        if args.grid:
            _print_grid(grid, args.armor, args.rules)
        if args.plot:
            rules = resolve_rules(args.rules)
            cap = rules.fire.vehicle_turn_marker_cap if args.vehicle else rules.fire.turn_marker_cap
            _plot(grid, args.plot, shooter, target, cap, rules)
            print(f"\nHeat map written to {printable(args.plot)}")
    return 0


def _print_grid(grid: np.ndarray, armor: int, rules) -> None:
    """Band x cover tables of P(>= 1 wound), expected markers and expected wounds."""
    covers = [c.name.lower() for c in Cover]
    stats = odds.GRID_STATS
    labels = [band_label(b + 1, rules) for b in range(grid.shape[0])]
    width = max(len(label) for label in labels)
    for stat, title in (("p_wound", "P(>= 1 wound)"), ("expected_markers", "Expected markers"),
                        ("expected_wounds", "Expected wounds")):
        s = stats.index(stat)
        print(f"\n{title} by range band x cover (armor {armor})")
        print(f"{'range':<{width}s}" + "".join(f"{c:>10s}" for c in covers))
        for b in range(grid.shape[0]):
            print(f"{labels[b]:<{width}s}" + "".join(f"{grid[b, c, s]:10.4f}" for c in range(grid.shape[1])))


def _plot(grid: np.ndarray, path: str, shooter: str, target: str, marker_cap: int, rules) -> None:
    """Two heat maps (band x cover): P(>= 1 wound) on 0..1 and expected markers on 0..the per-turn
    cap, annotated, with colour bars."""
    covers = [c.name.lower() for c in Cover]
    bands = np.arange(1, grid.shape[0] + 1)
    fig = canvas_figure((10, 6.2), 100, "--plot", layout="constrained")
    axes = fig.subplots(2, 1)
    panels = (("p_wound", "P(at least one wound)", "viridis", (0.0, 1.0)),
              ("expected_markers", "Expected suppression markers", "magma", (0.0, marker_cap or None)))
    for ax, (stat, label, cmap, (lo, hi)) in zip(axes, panels):
        data = grid[:, :, odds.GRID_STATS.index(stat)].T  # rows: cover, columns: band
        top = hi if hi is not None else max(float(data.max()), 1e-9)
        im = ax.imshow(data, cmap=cmap, vmin=lo, vmax=top, aspect="auto", origin="lower")
        # Tick "3\n45-58.5 cm": the band and its span on the stick.
        ax.set_xticks(range(len(bands)), [band_label(int(b), rules).removeprefix("band ").replace(" (", "\n(")
                                          for b in bands], fontsize=8)
        ax.set_yticks(range(len(covers)), covers)
        ax.set_xlabel("range band (1 = closest)")
        ax.set_ylabel("target cover")
        ax.set_title(label)
        for c in range(data.shape[0]):
            for b in range(data.shape[1]):
                val = data[c, b]
                ax.text(b, c, f"{val:.2f}", ha="center", va="center", fontsize=9,
                        color="white" if val < 0.55 * top else "black")
        fig.colorbar(im, ax=ax, label=label)
    fig.suptitle(f"Exact odds: {shooter}\nvs {target}", fontsize=11)
    save_figure(fig, path, dpi=110)


def _other_band(args, rules) -> int:
    if args.other_distance is not None:
        return range_band(args.other_distance, rules)
    return args.other_range_band if args.other_range_band is not None else engagement_band(args)


def _run_split_fire(args) -> int:
    """Both targets of a Split Fire (odds.split_fire_outcomes): each distribution and the joint."""
    rules = resolve_rules(args.rules)
    band = engagement_band(args)
    declared = odds.FireTarget(args.target, args.target_posture, band, args.armor, args.target_action,
                               args.cover, args.ap, args.vehicle)
    other_band = _other_band(args, rules)
    other = odds.FireTarget(args.other_target, args.other_posture, other_band,
                            args.armor if args.other_armor is None else args.other_armor, args.other_action,
                            args.cover if args.other_cover is None else args.other_cover, args.ap,
                            args.other_vehicle)
    try:
        split = odds.split_fire_outcomes(args.shooter, declared, other, shooter_posture=args.shooter_posture,
                                         exact=args.exact, rules=args.rules)
    except (TypeError, ValueError) as exc:
        raise type(exc)(_split_option(str(exc))) from None
    print("Exact odds of a Split Fire (all faces of the shooter's and both targets' dice)")
    print(f"  shooter {_dice(args.shooter)} {args.shooter_posture.name.lower()} split_fire: one roll, "
          "the higher Attack at the declared target, the lower at the other")
    for label, t in (("declared target", declared), ("other target", other)):
        kind = "vehicle" if t.vehicle else "infantry"
        print(f"  {label} {_dice(t.dice)} {t.posture.name.lower()} {t.action.name.lower()}, {kind}, "
              f"armor {t.armor}, AP {t.ap}, cover {t.cover.name.lower()}, range {band_label(t.range_band, rules)}")
    _print_dist(split.declared, args.exact, " of the declared target")
    _print_dist(split.other, args.exact, " of the other target")
    ex = args.exact
    zero = 0 if ex else 0.0

    def total(pred):
        return sum((p for (a, b), p in split.joint.items() if pred(a, b)), zero)

    print("\nBoth targets together (one roll of the shooter's dice)")
    print(f"  P(no effect on either)      {_fmt(total(lambda a, b: a == (0, 0) and b == (0, 0)), ex)}")
    print(f"  P(>= 1 marker on both)      {_fmt(total(lambda a, b: a[0] >= 1 and b[0] >= 1), ex)}")
    print(f"  P(>= 1 wound on either)     {_fmt(total(lambda a, b: a[1] >= 1 or b[1] >= 1), ex)}")
    print(f"  P(>= 1 wound on both)       {_fmt(total(lambda a, b: a[1] >= 1 and b[1] >= 1), ex)}")
    wounds = sum((p * (a[1] + b[1]) for (a, b), p in split.joint.items()), zero)
    print(f"  expected wounds in all      {_fmt(wounds, ex)}")
    return 0


# The API's names of a Split Fire target's fields -> the options that set them.
_SPLIT_OPTIONS = {"dice": "target", "posture": "target-posture", "range_band": "range-band", "armor": "armor",
                  "action": "target-action", "cover": "cover", "ap": "ap", "vehicle": "vehicle"}


def _split_option(message: str) -> str:
    """"other armor: 0 is out of range" -> "--other-armor: 0 is out of range"."""
    head, sep, rest = message.partition(": ")
    which, _, field = head.partition(" ")
    if sep and which in ("declared", "other") and field in _SPLIT_OPTIONS:
        name = _SPLIT_OPTIONS[field]
        if which == "other":
            name = "other-" + name.removeprefix("target-")
        return f"--{name}: {rest}"
    return message


def _run_rally(args) -> int:
    """The chance that a Rally succeeds (odds.rally_probability) and the Rally score's distribution."""
    rules = resolve_rules(args.rules)
    band = None if args.self_rally else engagement_band(args)
    los = not args.no_los
    p = odds.rally_probability(args.shooter, args.shooter_posture, band, args.markers, los=los, comms=args.comms,
                               self_rally=args.self_rally, exact=args.exact, rules=args.rules)
    rr = rules.rally
    print("Exact odds of a Rally (all faces of the rallying unit's dice)")
    print(f"  rallying unit {_dice(args.shooter)} {args.shooter_posture.name.lower()}")
    markers = f"{args.markers} suppression marker{'s' if args.markers != 1 else ''}"
    if args.self_rally:
        rng, where = rr.self_range, f"itself (range {rr.self_range})"
    elif los:
        rng, where = band, f"a friend at range {band_label(band, rules)}, in line of sight"
    elif args.comms:
        rng = band + rr.comms_range_penalty
        where = (f"a friend out of sight at range {band_label(band, rules)}, by tactical comms "
                 f"(+{rr.comms_range_penalty}: range {rng})")
    else:
        rng, where = None, f"a friend out of sight at range {band_label(band, rules)}, without tactical comms"
    print(f"  rallies {where}, which carries {markers}")
    if rng is None:
        print("  not allowed: a Rally needs line of sight, or tactical comms to rally out of sight")
    else:
        print(f"  succeeds if its Rally score > range {rng} + {args.markers} markers = {rng + args.markers}; "
              f"removes {rr.markers_removed} marker{'s' if rr.markers_removed != 1 else ''}")
    print(f"\nP(success) = {_fmt(p, args.exact)}")
    pmf = odds.scores_pmf(args.shooter, args.shooter_posture, Action.RALLY, exact=args.exact, rules=args.rules).rally
    print("\nRally score: probability")
    for score, q in sorted(pmf.items()):
        print(f"  {score:>3d}: {_fmt(q, args.exact)}")
    return 0


def _run_call_for_fire(args) -> int:
    """P(direct hit) and the impact's distance from the aiming point (odds.call_for_fire_odds)."""
    rules = resolve_rules(args.rules)
    cf = odds.call_for_fire_odds(args.shooter, args.shooter_posture, exact=args.exact, rules=args.rules)
    c = rules.call_for_fire
    ex = args.exact
    print("Exact odds of a Call for Fire (all faces of the spotter's dice and of the two scatter dice)")
    print(f"  spotter {_dice(args.shooter)} {args.shooter_posture.name.lower()}; scatter: two d{c.scatter_die} "
          f"(clock, distance), distance - Spotting < 0 is a direct hit, else that many steps of "
          f"{c.scatter_increment_cm:g} cm")
    print(f"\nP(direct hit) = {_fmt(cf.direct_hit, ex)}")
    print("\nDistance of the impact from the aiming point: probability, and probability within it")
    zero = 0 if ex else 0.0
    run = zero
    for d, p in sorted(cf.distance.items()):
        run += p
        print(f"  {d:7.2f} cm: {_fmt(p, ex)}   within {_fmt(run, ex)}")
    for r in args.within or ():
        inside = sum((p for d, p in cf.distance.items() if d <= r + 1e-9), zero)
        print(f"P(impact within {r:g} cm of the aim) = {_fmt(inside, ex)}")
    return 0
