"""``atomic-africa odds``: exact outcome distribution of one engagement, the grid, a heat map."""
from __future__ import annotations

import numpy as np

from .. import odds
from .._optional import require
from ..enums import Cover
from ..rules import resolve_rules
from .._plotting import canvas_figure, save_figure
from .._text import printable
from .common import (add_engagement_options, add_rules_option, band_label, default_engagement, engagement_band,
                     output_file)


def register(sub):
    d = default_engagement()
    p = sub.add_parser(
        "odds",
        help="exact outcome distribution of one engagement (no sampling)",
        description=(
            "Exact probabilities of every (suppression markers, wounds) outcome of one shooter "
            "firing at one target, computed by enumerating all faces of both units' dice (the "
            "engagement `atomic-africa fire` samples). --grid adds the range band x cover table, "
            "--plot FILE.png draws it as heat maps. Defaults: the packaged default engagement."
        ),
    )
    add_engagement_options(p, d)
    p.add_argument("--exact", action="store_true", help="print exact fractions")
    p.add_argument("--grid", action="store_true",
                   help="also print the range band x cover table at this armor and these postures")
    p.add_argument("--plot", type=output_file, metavar="FILE.png", default=None,
                   help="draw heat maps of P(>= 1 wound) and expected markers, band x cover")
    add_rules_option(p)
    p.set_defaults(run=run)
    return p


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


def run(args) -> int:
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
    max_m = max(m for m, _ in dist)
    max_w = max(w for _, w in dist)
    if args.exact:
        print("\nOutcome distribution (markers, wounds: exact probability)")
        for (m, w), p in sorted(dist.items()):
            print(f"  {m} markers, {w:2d} wounds: {str(p):>22s}  = {float(p):.6f}")
    else:
        print("\nOutcome distribution, % (rows: suppression markers, columns: wounds)")
        print("markers " + "".join(f"{w:>8d}" for w in range(max_w + 1)) + "     all")
        table = np.zeros((max_m + 1, max_w + 1))
        for (m, w), p in dist.items():
            table[m, w] = p * 100
        for m in range(max_m + 1):
            print(f"{m:>7d} " + "".join(f"{x:8.3f}" for x in table[m]) + f"{table[m].sum():8.3f}")
        print("    all " + "".join(f"{x:8.3f}" for x in table.sum(axis=0)) + f"{table.sum():8.3f}")
    ex = args.exact
    print(f"\nExpected markers {_fmt(odds.expected_markers(dist), ex)}   "
          f"expected wounds {_fmt(odds.expected_wounds(dist), ex)}")
    print("P(>= k wounds): " + "   ".join(
        f"k={k} {_fmt(odds.p_at_least_wounds(dist, k), ex)}" for k in range(1, max_w + 1)))
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
