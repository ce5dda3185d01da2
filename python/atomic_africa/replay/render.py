"""Drawing a game state with matplotlib: terrain, units with markers and wounds, moves and fire lines,
a legend, and labels placed so that they do not overlap.

matplotlib (and pillow for GIFs) are optional dependencies, imported on first use. Only matplotlib's
object API is used (a :class:`~matplotlib.figure.Figure` on its own Agg canvas): no pyplot, no
backend switch, no change to ``rcParams``, so drawing is safe inside any application.
"""
from __future__ import annotations

import os

from .._atomic_write import replaced_atomically
from .._plotting import canvas_figure, plain, save_figure
from .._optional import require
from .._progress import Progress
from ..enums import Cover, UnitKind
from ..game import Game
from .frames import caption as _caption, frames, game_at, last_phase_events, load_replay

__all__ = ["draw", "save_png", "save_gif", "load_replay", "game_at", "FIGSIZE", "DPI", "GIF_DPI"]

#: Figure size in inches: with :data:`DPI`, a 1600 x 1100 pixel picture, readable on a laptop.
FIGSIZE = (16.0, 11.0)
#: Dots per inch of a PNG.
DPI = 100
#: Dots per inch of GIF frames (1280 x 880 pixels: every frame is stored, so a little smaller).
GIF_DPI = 80

_COVER_COLOURS = {Cover.NONE: "#e8e0c8", Cover.LIGHT: "#9cc48a", Cover.HEAVY: "#8f8f8f"}
_COVER_WORDS = {Cover.NONE: "open ground", Cover.LIGHT: "light cover", Cover.HEAVY: "heavy cover"}
_SIDE_COLOURS = ("#1f5fbf", "#c0392b")
_HIT, _MISS = "#e67e22", "#b0b0b0"          # fire lines with / without effect
_IMPACT = "#d35400"                          # fire support impact
_WOUND = "#8e0000"
_LABEL_PT = 9.0                              # unit label font size (points)
_CAPTION_LINES = 9                           # caption lines drawn below the table


def _renderer(fig):
    """A renderer to measure text with: the figure's own if it has one, else a detached Agg one."""
    get = getattr(fig.canvas, "get_renderer", None)
    if get is not None:
        return get()
    from matplotlib.backends.backend_agg import RendererAgg
    w, h = fig.get_size_inches() * fig.dpi
    return RendererAgg(int(w), int(h), fig.dpi)


def _unit_size(u) -> float:
    """Half-size of a unit's symbol in cm: grows with its figures."""
    return 2.0 + min(u.figures, 14) * 0.25


def _feature_patch(t, cover, **kw):
    """A terrain feature's patch in the colour of ``cover``, hatched while it blocks line of sight
    (an armoured feature knocked down to no cover no longer does)."""
    from matplotlib.patches import Circle, Polygon
    kw = dict(facecolor=_COVER_COLOURS[Cover(cover)], edgecolor="#444", alpha=0.85, linewidth=0.8,
              hatch="///" if t.blocks_los and not (t.armor and cover == Cover.NONE) else None) | kw
    return Polygon(t.points, closed=True, **kw) if t.shape == "polygon" else Circle(t.center, t.radius, **kw)


def _draw_terrain(ax, sc):
    """Table and terrain as set up (the static layer); returns the terrain labels."""
    from matplotlib.patches import Rectangle
    ax.add_patch(Rectangle((0, 0), sc.width_cm, sc.height_cm, facecolor=_COVER_COLOURS[Cover.NONE],
                           edgecolor="k", zorder=0))
    texts = []
    for t in sc.terrain:
        ax.add_patch(_feature_patch(t, t.cover, zorder=1))
        if t.shape == "polygon":
            cx = sum(p[0] for p in t.points) / len(t.points)
            cy = sum(p[1] for p in t.points) / len(t.points)
        else:
            cx, cy = t.center
        txt = ax.text(cx, cy, plain(t.name), fontsize=8, ha="center", va="center", color="#222", style="italic",
                      zorder=2, bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.55))
        txt.set_gid("terrain-label")
        texts.append(txt)
    return texts


def _draw_damaged_terrain(ax, game):
    """Features whose cover heavy weapons have lowered, drawn over the static layer in their current
    cover (opaque, so the set-up colour does not show through)."""
    for t, cover in zip(game.scenario.terrain, game.s.feature_cover):
        if cover != t.cover:
            ax.add_patch(_feature_patch(t, cover, zorder=1.5, alpha=1.0, gid="damaged-terrain"))


def _draw_actions(ax, game, units):
    """Moves, fire arrows and fire-support impacts of the last Activation phase."""
    ax.apply_aspect()
    (x0, _), (x1, _) = ax.transData.transform([(0.0, 0.0), (1.0, 0.0)])
    pt_per_cm = (x1 - x0) * 72.0 / ax.figure.dpi       # arrows stop short of their target's symbol
    for e in last_phase_events(game):
        if e["type"] in ("move", "complete_move", "sprint") and "start" in e:
            (x0, y0), (x1, y1) = e["start"], e["dest"]
            ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=3,
                        arrowprops=dict(arrowstyle="-|>", color="#444", lw=1.4, ls="--",
                                        shrinkA=0, shrinkB=0, mutation_scale=14))
        elif e["type"] == "fire" and e["source"] >= 0 and e["source"] in units and e["target"] in units:
            s, t = units[e["source"]], units[e["target"]]
            hit = e["markers"] or e["wounds"]
            # An arrowhead at the target: who fired at whom, also where two units fired at each other.
            # It stops at the target's symbol; its last stretch is drawn again above the labels, so
            # that a label placed beside the target never hides the head.
            style = dict(arrowstyle="-|>", color=_HIT if hit else _MISS, lw=1.5 + e["wounds"] * 0.8, alpha=0.9,
                         shrinkA=0, shrinkB=_unit_size(t) * pt_per_cm, mutation_scale=12 + 3 * min(e["wounds"], 4))
            ax.annotate("", xy=(t.x, t.y), xytext=(s.x, s.y), zorder=3, gid=f"fire:{e['source']}:{e['target']}",
                        arrowprops=style)
            length = max(((t.x - s.x) ** 2 + (t.y - s.y) ** 2) ** 0.5, 1e-9)
            back = min(1.0, (_unit_size(t) + 4.0) / length)
            ax.annotate("", xy=(t.x, t.y), xytext=(t.x - back * (t.x - s.x), t.y - back * (t.y - s.y)), zorder=7.5,
                        gid=f"fire-head:{e['source']}:{e['target']}", arrowprops=style)
        elif e["type"] == "scatter":
            ax.plot(*e["impact"], marker="*", color=_IMPACT, ms=18, mec="k", mew=0.6, zorder=6)


def _draw_units(ax, units):
    """Unit symbols, commander stars, marker dots and wound crosses; returns, per unit, the label
    text and the data-space box its symbols cover."""
    from matplotlib.patches import Circle, Rectangle
    out, stars, dots, crosses = [], [], [], []
    for u in units.values():
        colour, size = _SIDE_COLOURS[u.side], _unit_size(u)
        if u.kind == UnitKind.VEHICLE:
            ax.add_patch(Rectangle((u.x - size, u.y - size * 0.6), 2 * size, 1.2 * size, facecolor=colour,
                                   edgecolor="k", zorder=4))
        else:
            ax.add_patch(Circle((u.x, u.y), size, facecolor=colour, edgecolor="k", lw=1.2, zorder=4,
                                linestyle="-" if u.kind == UnitKind.INFANTRY else ":"))
        if u.commander:
            stars.append((u.x, u.y))
        dots += [(u.x + size + 1 + 1.6 * k, u.y + size) for k in range(min(u.markers, 6))]
        crosses += [(u.x + size + 1 + 1.6 * k, u.y + size - 2) for k in range(min(u.wounds, 6))]
        # Past six counters the row would run into the neighbours: six of them and the number.
        for kind, n, y, colour in (("markers", u.markers, u.y + size, "k"),
                                   ("wounds", u.wounds, u.y + size - 2, _WOUND)):
            if n > 6:
                ax.text(u.x + size + 1 + 1.6 * 6 - 0.6, y, f"\u00d7{n}", fontsize=8, fontweight="bold", color=colour,
                        ha="left", va="center", zorder=5, gid=f"count:{kind}:{u.uid}")
        right = u.x + size
        label = f"{plain(u.name)} ({u.figures})"
        if u.markers or u.wounds:
            most = max(u.markers, u.wounds)
            right = u.x + size + 2 + 1.6 * min(most, 6) + (3.5 if most > 6 else 0)
            label += f"\nS{u.markers} W{u.wounds}"
        out.append((u, label, (u.x - size, u.y - size, right, u.y + size + 1)))
    # One artist per kind of symbol: a frame draws faster than with one per dot.
    for points, kw in ((stars, dict(marker="*", color="gold", ms=11, mec="k")),
                       (dots, dict(marker="o", color="k", ms=4)),
                       (crosses, dict(marker="x", color=_WOUND, ms=5, mew=1.6))):
        if points:
            ax.plot(*zip(*points), ls="none", zorder=5, **kw)
    return out


# Label candidates around a unit: (dx, dy) direction and the text alignment that keeps the text on
# that side of its anchor. Below first (where labels are expected), then the other sides.
_DIRECTIONS = (((0, -1), "center", "top"), ((0, 1), "center", "bottom"), ((1, 0), "left", "center"),
               ((-1, 0), "right", "center"), ((1, -1), "left", "top"), ((-1, -1), "right", "top"),
               ((1, 1), "left", "bottom"), ((-1, 1), "right", "bottom"))
_RINGS = 14          # candidate distances tried before giving up on a free place
_RING_PT = 12.0      # distance between rings (points)


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place_labels(ax, placed_units, fixed_texts):
    """Put each unit's label at the nearest place around it that overlaps no other label.

    Greedy: labels are placed one by one; each tries rings of candidate positions around its unit
    (below, above, right, left, diagonals), nearest ring first, and takes the first one that
    overlaps no label placed so far, no other unit's symbols and stays inside the axes. If no
    candidate is free of other units, the one overlapping them least (but no label) is used; a label
    moved beyond the first ring gets a thin leader line to its unit.
    """
    from matplotlib.transforms import offset_copy
    fig = ax.figure
    renderer = _renderer(fig)
    ax.apply_aspect()
    to_px = ax.transData.transform
    frame = ax.get_window_extent(renderer).extents
    pt = fig.dpi / 72.0
    labels = [t.get_window_extent(renderer).extents for t in fixed_texts]
    symbols = []
    for _, _, (x0, y0, x1, y1) in placed_units:
        (a, b), (c, d) = to_px([(x0, y0), (x1, y1)])
        symbols.append((a, b, c, d))
    # Crowded units first: they have the fewest free places.
    def crowding(i):
        s = symbols[i]
        return -sum(_overlap((s[0] - 60, s[1] - 60, s[2] + 60, s[3] + 60), o) > 0 for o in symbols)
    order = sorted(range(len(placed_units)), key=crowding)
    texts = []
    for i in order:
        u, label, _ = placed_units[i]
        sym = symbols[i]
        cx, cy = to_px((u.x, u.y))
        # Distances (points) from the unit's centre to the edges of its symbols' box.
        reach = {(1, 0): (sym[2] - cx) / pt, (-1, 0): (cx - sym[0]) / pt,
                 (0, 1): (sym[3] - cy) / pt, (0, -1): (cy - sym[1]) / pt, (0, 0): 0.0}
        txt = ax.text(u.x, u.y, label, fontsize=_LABEL_PT, color=_SIDE_COLOURS[u.side], zorder=7,
                      linespacing=1.05, fontweight="bold",
                      bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none", alpha=0.7))
        txt.set_gid(f"unit-label:{u.uid}")
        best = None
        for ring in range(_RINGS):
            gap = 2 + ring * _RING_PT
            for (dx, dy), ha, va in _DIRECTIONS:
                ox = dx * (reach[(dx, 0)] + gap)
                oy = dy * (reach[(0, dy)] + gap)
                txt.set_transform(offset_copy(ax.transData, fig=fig, x=ox, y=oy, units="points"))
                txt.set_ha(ha)
                txt.set_va(va)
                box = txt.get_window_extent(renderer).extents
                if any(_overlap(box, o) for o in labels):
                    continue
                inside = frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]
                cost = sum(_overlap(box, o) for j, o in enumerate(symbols) if j != i) + (0 if inside else 1e7)
                if best is None or cost < best[0]:
                    best = (cost, ring, (ox, oy), ha, va, box)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        if best is None:   # nowhere free: keep the first place (cannot happen on a sane table)
            best = (0, 0, (0, -reach[(0, -1)] - 2), "center", "top", None)
        _, ring, (ox, oy), ha, va, box = best
        txt.set_transform(offset_copy(ax.transData, fig=fig, x=ox, y=oy, units="points"))
        txt.set_ha(ha)
        txt.set_va(va)
        if box is None:
            box = txt.get_window_extent(renderer).extents
        labels.append(box)
        if ring > 0:
            ax.annotate("", xy=(u.x, u.y), xytext=(ox, oy), textcoords="offset points", zorder=6,
                        arrowprops=dict(arrowstyle="-", color=_SIDE_COLOURS[u.side], lw=0.6, alpha=0.8,
                                        shrinkA=0, shrinkB=0))
        texts.append(txt)
    return texts


def _legend_handles(sc):
    from matplotlib.legend_handler import HandlerPatch
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch, Rectangle

    def arrow(legend, orig_handle, xdescent, ydescent, width, height, fontsize):
        # Each arrow of the legend in its handle's line: the dashed move, the fire arrows.
        return FancyArrowPatch((-xdescent, height / 2 - ydescent), (width - xdescent, height / 2 - ydescent),
                               arrowstyle="-|>", mutation_scale=12, lw=orig_handle.get_linewidth(),
                               ls=orig_handle.get_linestyle(), color=orig_handle.get_edgecolor())

    def none(**kw):
        return Line2D([], [], ls="none", **kw)

    move = FancyArrowPatch((0, 0), (1, 0), lw=1.4, ls="--", color="#444")
    handles = [
        (none(marker="o", ms=12, mfc=_SIDE_COLOURS[0], mec="k"), f"{plain(sc.sides[0].name)} unit"),
        (none(marker="o", ms=12, mfc=_SIDE_COLOURS[1], mec="k"), f"{plain(sc.sides[1].name)} unit"),
        (none(marker="o", ms=12, mfc="white", mec="k"), "infantry (solid edge)"),
        (Patch(facecolor="white", edgecolor="k", ls=":"), "light infantry (dotted edge)"),
        (Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="k"), "vehicle (rectangle)"),
        (none(marker="*", ms=13, mfc="gold", mec="k"), "commander"),
        (none(marker="o", ms=5, color="k"), "suppression marker (one dot each,\n\u00d7N past six)"),
        (none(marker="x", ms=6, mew=1.6, color=_WOUND), "wound (one cross each, \u00d7N past six)"),
        (none(), "label 'Name (5) S2 W1': 5 figures,\n2 suppression markers, 1 wound"),
        (move, "move this phase (dashed arrow)"),
        (FancyArrowPatch((0, 0), (1, 0), color=_HIT, lw=2.3),
         "fire with effect, at the\narrowhead (thicker = more wounds)"),
        (FancyArrowPatch((0, 0), (1, 0), color=_MISS, lw=1.5), "fire without effect"),
        (none(marker="*", ms=15, color=_IMPACT, mec="k"), "fire support impact"),
    ]
    handles += [(Patch(facecolor=_COVER_COLOURS[c], edgecolor="#444"), _COVER_WORDS[c]) for c in Cover]
    handles.append((Patch(facecolor="white", edgecolor="#444", hatch="///"), "hatched: blocks line of sight"))
    return [h for h, _ in handles], [t for _, t in handles], {FancyArrowPatch: HandlerPatch(patch_func=arrow)}


def _draw_static(ax, sc, legend: bool):
    """What every frame of a game shares: table, terrain, axes and legend; returns the terrain
    labels (which unit labels must avoid)."""
    fixed = _draw_terrain(ax, sc)
    ax.set_xlim(-2, sc.width_cm + 2)
    ax.set_ylim(-2, sc.height_cm + 2)
    ax.set_aspect("equal")
    ax.set_xlabel("cm", labelpad=1)
    ax.tick_params(labelsize=8)
    if legend:
        handles, texts, handler_map = _legend_handles(sc)
        ax.legend(handles, texts, handler_map=handler_map, loc="upper left", bbox_to_anchor=(1.015, 1.0),
                  borderaxespad=0, fontsize=9.5, title="Legend", title_fontsize=11, labelspacing=0.9,
                  handlelength=2.4, frameon=True)
    return fixed


def _draw_state(ax, game, title, caption, fixed, label=None):
    """What changes from frame to frame: moves, fire, units, labels, title and caption (``label``:
    turn and words of the phase shown, :attr:`~atomic_africa.replay.frames.Frame.label`)."""
    sc = game.scenario
    units = {u.uid: u for u in game.units if u.alive}
    _draw_damaged_terrain(ax, game)
    _draw_actions(ax, game, units)
    placed = _draw_units(ax, units)
    turn, words = (game.s.turn, game.stage.lower()) if label is None else label
    status = f"turn {turn}, {words}"
    if game.is_over:
        r = game.result
        status += f" - {'draw' if r.winner is None else plain(sc.sides[r.winner].name) + ' wins'}"
    ax.set_title(plain(title) if title else f"{plain(sc.name)}: {status}", fontsize=13)
    if caption is None:
        caption = _caption(game, [])
    lines = [plain(x) for x in caption.splitlines()]
    if len(lines) > _CAPTION_LINES:
        lines = lines[:_CAPTION_LINES - 1] + [f"... and {len(lines) - _CAPTION_LINES + 1} more"]
    ax.text(0.0, -0.05, "\n".join(lines), transform=ax.transAxes, ha="left", va="top", fontsize=10.5,
            family="monospace", linespacing=1.25, gid="caption")
    _place_labels(ax, placed, fixed)


def _new_axes(dpi=DPI):
    fig = canvas_figure(FIGSIZE, dpi)
    # Table left, legend right, caption below: fixed places, so GIF frames line up.
    return fig.add_axes((0.035, 0.2, 0.74, 0.75))


def draw(game: Game, ax=None, title=None, caption=None, legend: bool = True, label=None):
    """Draw ``game``'s current state on a matplotlib axis.

    Parameters
    ----------
    game : Game
    ax : matplotlib Axes, optional
        Axis to draw on; a new :data:`FIGSIZE` figure (on its own Agg canvas) is made if omitted.
    title : str, optional
        Replaces the default title (scenario name and status).
    caption : str, optional
        Text under the table (e.g. :func:`~atomic_africa.replay.frames.caption`); by default the
        turn and stage.
    legend : bool
        Draw the legend right of the table.
    label : (int, str), optional
        Turn and words of the phase shown, for the default title (a replay frame's
        :attr:`~atomic_africa.replay.frames.Frame.label`); default: the game's turn and the stage of
        its next decision.

    Returns
    -------
    matplotlib Figure
        The figure holding ``ax``.
    """
    if ax is None:
        ax = _new_axes()
    fixed = _draw_static(ax, game.scenario, legend)
    _draw_state(ax, game, title, caption, fixed, label)
    return ax.figure


def _save(fig, path, dpi):
    if isinstance(path, (str, os.PathLike)):
        save_figure(fig, path, dpi=dpi)
    else:
        fig.savefig(path, dpi=dpi, format="png")


def save_png(game: Game, path, title=None, dpi: int = DPI, caption=None) -> None:
    """Draw ``game``'s current state (see :func:`draw`) and save it as an image.

    Parameters
    ----------
    game : Game
    path : str, PathLike or file object
        Destination, written under a temporary name and renamed into place; matplotlib picks the
        format from the extension (PNG for ``.png``; a file object gets PNG).
    title, caption : str, optional
        As in :func:`draw`.
    dpi : int
        Dots per inch; the default gives a :data:`FIGSIZE` figure of 1600 x 1100 pixels.
    """
    fig = draw(game, title=title, caption=caption)
    _save(fig, path, dpi)


class _Animator:
    """GIF frames fast: the static layer (terrain, axes, legend) is drawn once and copied back
    under each frame, on which only the changing artists are drawn (matplotlib's blitting)."""

    def __init__(self, scenario, dpi):
        self.ax = ax = _new_axes(dpi)
        self.fig, self.canvas = ax.figure, ax.figure.canvas
        self.fixed = _draw_static(ax, scenario, True)
        ax.set_title(" ", fontsize=13)
        # The labels of armoured features are left out of the background and drawn with each frame,
        # above the feature as heavy weapons leave it (_draw_damaged_terrain), as draw() stacks them.
        self.relabelled = [txt for txt, t in zip(self.fixed, scenario.terrain) if t.armor]
        for txt in self.relabelled:
            txt.set_visible(False)
        self.canvas.draw()
        self.background = self.canvas.copy_from_bbox(self.fig.bbox)
        for txt in self.relabelled:
            txt.set_visible(True)
        self.static = set(ax.get_children()) - set(self.relabelled)

    def frame(self, game, caption, label=None):
        """The picture of ``game`` with ``caption``, as an RGB PIL image."""
        from PIL import Image
        ax = self.ax
        self.canvas.restore_region(self.background)
        _draw_state(ax, game, None, caption, self.fixed, label)
        changing = sorted((a for a in ax.get_children() if a not in self.static), key=lambda a: a.get_zorder())
        for a in changing:
            ax.draw_artist(a)
        ax.draw_artist(ax.title)
        w, h = self.canvas.get_width_height()
        image = Image.frombuffer("RGBA", (w, h), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
        for a in changing:
            if a not in self.relabelled:
                a.remove()
        return image


def save_gif(scenario, rules, seed, actions, path, every: str = "phase", duration_ms: int = 900,
             dpi: int = GIF_DPI, progress: bool = False) -> int:
    """Animate a replay as a GIF: the initial state, then one frame per phase or per action, each
    captioned with its turn, stage and what happened since the previous frame.

    Parameters
    ----------
    scenario, rules, seed, actions : dict, dict, int, sequence of int
        The replay, as returned by :func:`load_replay`: scenario and rules dicts, game seed, action ids.
    path : str, PathLike or file object
        Destination of the GIF (written under a temporary name and renamed into place).
    every : {"phase", "action"}
        ``"action"``: a frame after every action; ``"phase"``: a frame after each action that
        completes a move, resolves fire, or ends a turn or the game.
    duration_ms : int
        Display time of each frame.
    dpi : int
        Dots per inch of the frames (:data:`GIF_DPI`: 1280 x 880 pixels).
    progress : bool
        Show a progress bar on stderr (tqdm if installed), one step per action replayed.

    Returns
    -------
    int
        Number of frames written.

    Raises
    ------
    ValueError
        If ``every`` is not "phase" or "action" (or the replay is invalid).
    """
    Image = require("PIL.Image", "plot", "GIF animation")
    bar = Progress(len(actions), progress, unit="action", desc="GIF")
    images, done, animator = [], 0, None
    try:
        for f in frames(scenario, rules, seed, actions, every):
            animator = animator or _Animator(f.game.scenario, dpi)
            # A palette per frame keeps colours true; octree quantizing is ~8x faster than median cut.
            image = animator.frame(f.game, _caption(f.game, f.lines, f.label), f.label)
            images.append(image.quantize(256, method=Image.Quantize.FASTOCTREE))
            bar.update(f.step - done)
            done = f.step
    finally:
        bar.close()
    kw = dict(format="GIF", save_all=True, append_images=images[1:], duration=duration_ms, loop=0)
    if isinstance(path, (str, os.PathLike)):
        with replaced_atomically(path) as tmp:
            images[0].save(tmp, **kw)
    else:
        images[0].save(path, **kw)
    return len(images)
