"""``atomic-africa artillery``: exact landing odds of a Fire for Effect on a hex map."""
from __future__ import annotations

import argparse
import math

import numpy as np

from .._optional import require
from ..artillery import HexMap, landing_counts, landing_distribution, parse_hex, simulate_requests
from ..rules import resolve_rules
from .._plotting import canvas_figure, save_figure
from .._text import printable
from .common import add_rules_option, count_arg, output_file, positive_count_arg, seed_arg

CELL = 4   # characters per column in the terminal grid; a line holds every other column


def _hex_list(text: str) -> list:
    try:
        return [parse_hex(t, "hex") for t in text.replace(" ", "").split(",") if t]
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _size(text: str):
    try:
        return HexMap.parse_size(text)
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub):
    art = resolve_rules(None).artillery
    p = sub.add_parser(
        "artillery",
        help="exact landing odds of an Artillery Request (Fire for Effect) on a hex map",
        description=(
            "Exact probability that the spotting round of a Fire for Effect lands in each hex, or off "
            "the map (section 8 of 'atomic-africa rules'): Targeting roll white x coloured > range + hindrance; a hit "
            "drifts 1 hex towards the white die then 1 towards the coloured die, a miss drifts "
            "coloured-die hexes towards the white die (compass 1 = top edge, clockwise). Flat-topped "
            "hexes, columns A.. and rows 1..; columns B, D, F... sit half a hex lower."
        ),
    )
    p.add_argument("--map", type=_size, default=(art.hex_columns, art.hex_rows), metavar="COLSxROWS",
                   help=f"map size (default {art.hex_columns}x{art.hex_rows})")
    p.add_argument("--spotter", required=True, metavar="HEX", help="the spotting Leader's hex, e.g. G4")
    p.add_argument("--target", required=True, metavar="HEX", help="the spotting round's hex, e.g. J7")
    p.add_argument("--hindrance", type=int, default=0, metavar="N",
                   help="extra hindrance on the Targeting roll (added to the map's; default 0)")
    p.add_argument("--deck", choices=("independent", "fresh"), default="independent",
                   help="independent 2d6 per card, or both cards from a freshly shuffled 72-card Fate "
                        "deck, without replacement (default independent)")
    p.add_argument("--blocking", type=_hex_list, default=[], metavar="HEXES",
                   help="comma-separated hexes that block line of sight")
    p.add_argument("--hindering", type=_hex_list, default=[], metavar="HEXES",
                   help="comma-separated hexes that hinder line of sight (+1 each)")
    p.add_argument("--within", type=count_arg, action="append", default=None, metavar="N",
                   help="also give the chance that the round lands within N hexes of the spotting round "
                        "(repeatable; 0 = in its hex)")
    p.add_argument("--simulate", type=count_arg, default=0, metavar="N",
                   help="also simulate N requests with the batch kernel and compare (e.g. 1e6)")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed for --simulate (default 0)")
    p.add_argument("--threads", type=positive_count_arg, default=1, metavar="K",
                   help="OpenMP threads for --simulate (default 1; the result does not depend on it)")
    p.add_argument("--plot", type=output_file, metavar="FILE.png",
                   help="draw the landing heat map of the hex map")
    add_rules_option(p)
    p.set_defaults(run=run)
    return p


def _fmt(p: float) -> str:
    if p == 0:
        return "."
    if p < 0.005:
        return "<.01"
    return f"{p:.2f}"


def grid_text(odds) -> str:
    """The landing probabilities (%) as a staggered hex grid, column letters on top, rows on the left."""
    hm = odds.hexmap
    pct = odds.probabilities * 100
    left = 5
    width = left + CELL * hm.columns + 4

    def put(line: list, col: int, text: str):
        center = left + CELL * col + 2
        start = max(center - len(text) // 2, 0)
        line[start:start + len(text)] = list(text)

    header = [" "] * width
    for c in range(hm.columns):
        put(header, c, chr(ord("A") + c))
    lines = ["".join(header).rstrip()]
    lower = hm.parity          # columns with col % 2 == parity sit half a hex lower
    for r in range(hm.rows):
        upper_line, lower_line = [" "] * width, [" "] * width
        upper_line[0:3] = list(f"{r + 1:>3d}")
        for c in range(hm.columns):
            h = (c, r)
            text = _fmt(pct[r, c])
            if h == tuple(odds.target):
                text = f"[{text}]"
            elif h == tuple(odds.spotter):
                text = "S" if text == "." else f"S{text}"
            elif h in hm.blocking:
                text = "#" if text == "." else f"#{text}"
            elif h in hm.hindrance:
                text = "~" if text == "." else f"~{text}"
            put(lower_line if c % 2 == lower else upper_line, c, text)
        lines.append("".join(upper_line).rstrip())
        lines.append("".join(lower_line).rstrip())
    return "\n".join(lines)


def run(args) -> int:
    if args.plot:
        require("matplotlib", "plot", "--plot")  # now, not after the grid is printed
    rules = resolve_rules(args.rules)
    cols, rows = args.map
    hm = HexMap(cols, rows, blocking=args.blocking, hindering=args.hindering, rules=rules)
    odds = landing_distribution(hm, args.spotter, args.target, hindrance=args.hindrance, deck=args.deck,
                                rules=rules)
    art = rules.artillery
    score = "white x coloured" if art.targeting_score == "product" else "white + coloured"
    cmp = ">" if art.targeting_hit == "greater" else ">="
    lower = "B, D, F" if hm.parity else "A, C, E"
    los_h = odds.hindrance - args.hindrance
    deck = ("independent 2d6 (36 equally likely pairs per card)" if args.deck == "independent" else
            "a fresh 72-card Fate deck, two cards drawn without replacement")
    best, p_best = odds.most_likely()
    print(f"Artillery Request, Fire for Effect on a {cols}x{rows} hex map")
    print(f"  spotter {odds.spotter.label} -> spotting round {odds.target.label}: range {odds.range}, "
          f"hindrance {odds.hindrance} (line of sight {los_h} + extra {args.hindrance})")
    print(f"  Targeting roll: hit if {score} {cmp} {odds.range} + {odds.hindrance} = {odds.threshold}; "
          f"cards: {deck}")
    print(f"  P(hit)      = {float(odds.hit) * 100:6.2f}%  ({odds.hit})")
    print(f"  P(off map)  = {float(odds.off_map) * 100:6.2f}%  ({odds.off_map}): the round is removed "
          "and the order ends")
    print(f"  P(on map)   = {float(1 - odds.off_map) * 100:6.2f}%;  most likely landing hex "
          f"{best.label}: {float(p_best) * 100:.2f}% ({p_best})")
    print()
    print("Landing probability (%) per hex.  [x] = spotting round, S = spotter, # = blocking, "
          "~ = hindering, . = 0, <.01 = under 0.01%.")
    print(f"Columns {lower}, ... sit half a hex lower: their values are on the line under each row "
          "number.")
    print(grid_text(odds))
    print(f"\nOff the map: {float(odds.off_map) * 100:.2f}%")
    for n in args.within or ():
        p = odds.within(n)
        print(f"P(lands within {n} hex{'es' if n != 1 else ''} of {odds.target.label}) = "
              f"{float(p) * 100:6.2f}%  ({p})")
    if args.simulate:
        sample = simulate_requests(args.simulate, hm, args.spotter, args.target, hindrance=args.hindrance,
                                   deck=args.deck, seed=args.seed, threads=args.threads, rules=rules)
        counts, off = landing_counts(sample.landing, hm)
        dev = np.abs(counts / args.simulate - odds.probabilities).max()
        print(f"Simulated {args.simulate:,} requests (batch kernel, seed {args.seed}): off map "
              f"{off / args.simulate * 100:.2f}%, hit {sample.hit.mean() * 100:.2f}%, largest per-hex "
              f"deviation from the exact odds {dev * 100:.3f} points")
    if args.plot:
        plot_landing(odds, args.plot, deck=args.deck)
        print(f"Heat map written to {printable(args.plot)}")
    return 0


def plot_landing(odds, path: str, deck: str = "independent") -> None:
    """Heat map of the landing probabilities on the hex map: flat-topped hexagons, labels, colour bar."""
    require("matplotlib", "plot", "plot_landing")
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import RegularPolygon

    hm = odds.hexmap
    pct = odds.probabilities * 100
    root3 = math.sqrt(3.0)

    def center(c, r):
        return 1.5 * c, -root3 * (r + (0.5 if c % 2 == hm.parity else 0.0))

    patches, values = [], []
    for r in range(hm.rows):
        for c in range(hm.columns):
            patches.append(RegularPolygon(center(c, r), numVertices=6, radius=1.0, orientation=math.pi / 6))
            values.append(pct[r, c])
    fig = canvas_figure((1.0 + 0.62 * hm.columns * 1.5, 1.6 + 0.62 * hm.rows * root3), 100,
                        "plot_landing", layout="constrained")
    ax = fig.subplots()
    coll = PatchCollection(patches, cmap="YlOrRd", edgecolor="0.55", linewidth=0.6)
    coll.set_array(np.array(values))
    coll.set_clim(0.0, max(float(pct.max()), 1e-9))
    ax.add_collection(coll)
    top = float(pct.max()) or 1.0
    for r in range(hm.rows):
        for c in range(hm.columns):
            x, y = center(c, r)
            colour = "white" if pct[r, c] > 0.6 * top else "black"
            ax.text(x, y + 0.45, f"{chr(ord('A') + c)}{r + 1}", ha="center", va="center", fontsize=5.5,
                    color=colour, alpha=0.8)
            if pct[r, c] > 0:
                ax.text(x, y - 0.12, f"{pct[r, c]:.1f}" if pct[r, c] >= 0.05 else "<.1", ha="center",
                        va="center", fontsize=7, color=colour, fontweight="bold")
    for h, style in ((odds.target, dict(edgecolor="blue", linewidth=2.2)),
                     (odds.spotter, dict(edgecolor="green", linewidth=2.2))):
        ax.add_patch(RegularPolygon(center(*h), numVertices=6, radius=0.97, orientation=math.pi / 6,
                                    facecolor="none", **style))
    for h in hm.blocking:
        ax.add_patch(RegularPolygon(center(*h), numVertices=6, radius=1.0, orientation=math.pi / 6,
                                    facecolor="none", hatch="///", edgecolor="0.6", linewidth=0.6))
    for h in hm.hindrance:
        ax.add_patch(RegularPolygon(center(*h), numVertices=6, radius=0.9, orientation=math.pi / 6,
                                    facecolor="none", edgecolor="purple", linewidth=1.2, linestyle="--"))
    ax.set_xlim(-1.3, 1.5 * (hm.columns - 1) + 1.3)
    ax.set_ylim(-root3 * (hm.rows + 0.5) - 0.2, root3 * 0.5 + 0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.colorbar(coll, ax=ax, label="landing probability (%)", shrink=0.8)
    cards = "independent 2d6" if deck == "independent" else f"{deck} Fate deck"
    fig.suptitle(
        f"Fire for Effect: spotter {odds.spotter.label} (green), spotting round {odds.target.label} "
        f"(blue), {hm.columns}x{hm.rows} map\n"
        f"range {odds.range}, hindrance {odds.hindrance}: P(hit) {float(odds.hit) * 100:.1f}%, "
        f"P(off map) {float(odds.off_map) * 100:.2f}%  ({cards})"
        + ("\nhatched: blocks line of sight; dashed purple: hinders it" if hm.blocking or hm.hindrance else ""),
        fontsize=10)
    save_figure(fig, path, dpi=130)
