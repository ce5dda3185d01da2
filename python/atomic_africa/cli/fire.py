"""``atomic-africa fire``: simulate many engagements and print the outcome distribution."""
from __future__ import annotations

import time

import numpy as np

from .. import batch
from .common import (add_engagement_options, add_rules_option, band_label, count_arg, default_engagement,
                     engagement_band, positive_count_arg, seed_arg)


def register(sub):
    d = default_engagement()
    p = sub.add_parser(
        "fire",
        help="simulate N engagements of one shooter against one target",
        description=(
            "Roll and resolve N independent engagements (shooter's Attack(s) against the target's "
            "Defense, sections 3 and 5 of 'atomic-africa rules') and print the distribution of suppression markers x "
            "wound counters, the expectations and the throughput. Defaults: the packaged default "
            "engagement, a squad of the seed's platoon (d10,d10,d8) against an identical squad."
        ),
    )
    p.add_argument("-n", "--engagements", dest="n", type=count_arg, default=d["n"],
                   help="number of engagements, e.g. 1000000 or 1e6 (default %(default)s)")
    add_engagement_options(p, d)
    p.add_argument("--seed", type=seed_arg, default=d["seed"], help="random seed (default %(default)s)")
    p.add_argument("--threads", type=positive_count_arg, default=1, metavar="K",
                   help="OpenMP threads (default 1; the result does not depend on it)")
    add_rules_option(p)
    p.set_defaults(run=run)
    return p


def outcome_table(markers: np.ndarray, wounds: np.ndarray) -> tuple[np.ndarray, int]:
    """Counts[markers, wounds] of the sample (wounds axis up to the sample maximum)."""
    max_w = int(wounds.max()) if wounds.size else 0
    max_m = int(markers.max()) if markers.size else 0
    counts = np.bincount(markers.astype(np.int64) * (max_w + 1) + wounds,
                         minlength=(max_m + 1) * (max_w + 1)).reshape(max_m + 1, max_w + 1)
    return counts, max_w


def run(args) -> int:
    band = engagement_band(args)
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
    dist = f", distance {args.distance:g} cm" if args.distance is not None else ""
    print(f"  range {band_label(band, args.rules)}{dist}")
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
