"""``atomic-africa fire``: simulate many engagements and print the outcome distribution."""
from __future__ import annotations

import time
import tomllib
from importlib import resources

import numpy as np

from .. import batch
from ..enums import Action, Cover
from ..fire import range_band as _range_band
from .common import action_arg, add_rules_option, cover_arg, dice_arg, names, posture_arg


def default_engagement() -> dict:
    """The packaged default engagement (``data/default_engagement.toml``) with parsed values."""
    text = resources.files("atomic_africa").joinpath("data/default_engagement.toml").read_text()
    raw = tomllib.loads(text)
    return dict(
        n=raw["n"], seed=raw["seed"], range_band=raw["range_band"], armor=raw["armor"], ap=raw["ap"],
        vehicle=raw["vehicle"],
        shooter=dice_arg(",".join(raw["shooter"])), target=dice_arg(",".join(raw["target"])),
        shooter_posture=posture_arg(raw["shooter_posture"]),
        target_posture=posture_arg(raw["target_posture"]),
        shooter_action=action_arg(raw["shooter_action"]), target_action=action_arg(raw["target_action"]),
        cover=cover_arg(raw["cover"]),
    )


def register(sub):
    d = default_engagement()
    p = sub.add_parser(
        "fire",
        help="simulate N engagements of one shooter against one target",
        description=(
            "Roll and resolve N independent engagements (shooter's Attack(s) against the target's "
            "Defense, RULES.md sections 3 and 5) and print the distribution of suppression markers x "
            "wound counters, the expectations and the throughput. Defaults: the packaged default "
            "engagement, a squad of the seed's platoon (d10,d10,d8) against an identical squad."
        ),
    )
    p.add_argument("-n", "--engagements", dest="n", type=int, default=d["n"],
                   help="number of engagements (default %(default)s)")
    p.add_argument("--shooter", type=dice_arg, default=d["shooter"], metavar="DICE",
                   help="shooter's Training,Equipment,Morale dice after wounds (default d10,d10,d8)")
    p.add_argument("--target", type=dice_arg, default=d["target"], metavar="DICE",
                   help="target's three dice after wounds (default d10,d10,d8)")
    p.add_argument("--shooter-posture", "--posture", type=posture_arg, default=d["shooter_posture"],
                   metavar="POSTURE", help="offensive/off or defensive/def (default offensive)")
    p.add_argument("--target-posture", type=posture_arg, default=d["target_posture"],
                   metavar="POSTURE", help="target's posture (default defensive)")
    p.add_argument("--action", "--shooter-action", dest="shooter_action", type=action_arg,
                   default=d["shooter_action"], metavar="ACTION",
                   help=f"shooter's action: {names(Action)} (default basic)")
    p.add_argument("--target-action", type=action_arg, default=d["target_action"], metavar="ACTION",
                   help="target's action, which sets its Defense (default basic)")
    rng = p.add_mutually_exclusive_group()
    rng.add_argument("--range-band", type=int, default=None, metavar="1-9",
                     help=f"range band (default {d['range_band']})")
    rng.add_argument("--distance", type=float, default=None, metavar="CM",
                     help="distance in cm between In-transit points, banded by the rules' stick")
    p.add_argument("--armor", type=int, default=d["armor"], help="target armor (default %(default)s)")
    p.add_argument("--cover", type=cover_arg, default=d["cover"], metavar="COVER",
                   help=f"target's predominant cover: {names(Cover)} (default light)")
    p.add_argument("--ap", type=int, default=d["ap"], help="armor penetration, <= 0 (default 0)")
    p.add_argument("--vehicle", action="store_true", default=d["vehicle"], help="the target is a vehicle")
    p.add_argument("--seed", type=int, default=d["seed"], help="random seed (default %(default)s)")
    p.add_argument("--threads", type=int, default=1, help="OpenMP threads (default 1)")
    add_rules_option(p)
    p.set_defaults(run=run, default_band=d["range_band"])
    return p


def outcome_table(markers: np.ndarray, wounds: np.ndarray) -> tuple[np.ndarray, int]:
    """Counts[markers, wounds] of the sample (wounds axis up to the sample maximum)."""
    max_w = int(wounds.max()) if wounds.size else 0
    max_m = int(markers.max()) if markers.size else 0
    counts = np.bincount(markers.astype(np.int64) * (max_w + 1) + wounds,
                         minlength=(max_m + 1) * (max_w + 1)).reshape(max_m + 1, max_w + 1)
    return counts, max_w


def run(args) -> int:
    if args.distance is not None:
        band = _range_band(args.distance, args.rules)
    else:
        band = args.range_band if args.range_band is not None else args.default_band
    kwargs = dict(shooter_posture=args.shooter_posture, target_posture=args.target_posture,
                  range_band=band, armor=args.armor, shooter_action=args.shooter_action,
                  target_action=args.target_action, cover=args.cover, ap=args.ap,
                  vehicle=args.vehicle, seed=args.seed, threads=args.threads, rules=args.rules)
    t0 = time.perf_counter()
    markers, wounds = batch.simulate_fire(args.n, args.shooter, args.target, **kwargs)
    elapsed = time.perf_counter() - t0
    n = args.n
    kind = "vehicle" if args.vehicle else "infantry"
    dice = lambda ds: ", ".join(str(x) for x in ds)  # noqa: E731
    print(f"Engagement: {n:,} rolls, seed {args.seed}, {args.threads} thread(s)")
    print(f"  shooter  {dice(args.shooter)}  {args.shooter_posture.name.lower()} "
          f"{args.shooter_action.name.lower()}")
    print(f"  target   {dice(args.target)}  {args.target_posture.name.lower()} "
          f"{args.target_action.name.lower()}, {kind}, armor {args.armor}, "
          f"cover {args.cover.name.lower()}, AP {args.ap}")
    dist = f" ({args.distance:g} cm)" if args.distance is not None else ""
    print(f"  range band {band}{dist}")
    if n == 0:
        print("No engagements.")
        return 0
    counts, max_w = outcome_table(markers, wounds)
    print("\nOutcome distribution, % of engagements (rows: suppression markers, columns: wounds)")
    header = "markers " + "".join(f"{w:>8d}" for w in range(max_w + 1)) + "     all"
    print(header)
    for m in range(counts.shape[0]):
        row = counts[m] / n * 100
        print(f"{m:>7d} " + "".join(f"{x:8.3f}" for x in row) + f"{row.sum():8.3f}")
    col = counts.sum(axis=0) / n * 100
    print("    all " + "".join(f"{x:8.3f}" for x in col) + f"{100:8.3f}")
    print(f"\nExpected markers {markers.mean():.4f}   expected wounds {wounds.mean():.4f}   "
          f"P(>= 1 wound) {(wounds > 0).mean():.4f}")
    rate = n / elapsed if elapsed > 0 else float("inf")
    print(f"Throughput: {rate:,.0f} engagements/s ({elapsed * 1e3:.1f} ms)")
    return 0
