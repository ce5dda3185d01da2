"""Drawing a game state with matplotlib: terrain, units with markers and wounds, moves and fire lines.

matplotlib (and pillow for GIFs) are optional dependencies, imported on first use.
"""
from __future__ import annotations

import io
import json

from ..enums import UnitKind
from .engine import Game

__all__ = ["draw", "save_png", "save_gif", "load_replay", "game_at"]

_COVER_COLOURS = {0: "#e8e0c8", 1: "#9cc48a", 2: "#8f8f8f"}
_SIDE_COLOURS = ("#1f5fbf", "#c0392b")


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def load_replay(path, game: int = 0):
    """(scenario dict, rules dict, seed, actions) from a ``battle --log`` JSONL file, a game JSON, or
    game number ``game`` of a ``selfplay --replays`` file (one game JSON per line).

    Parameters
    ----------
    path : str or PathLike
        The file to read.
    game : int
        Index of the game in a replays file (ignored for a battle log).

    Returns
    -------
    (dict, dict, int, list of int)
        Scenario dict, rules dict, seed and action ids; :func:`game_at` takes them.

    Raises
    ------
    ValueError
        If the file is none of these formats or ``game`` is out of range.
    OSError
        If the file cannot be read.
    """
    with open(path, encoding="utf-8") as fh:
        text = fh.read().strip()
    try:
        docs = [json.loads(text)]            # one document, possibly spread over several lines
    except json.JSONDecodeError:
        try:
            docs = [json.loads(x) for x in text.splitlines() if x.strip()]
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not a battle log, game JSON or replays file ({exc})") from None
    if not all(isinstance(d, dict) for d in docs) or not docs:
        raise ValueError(f"{path}: not a battle log, game JSON or replays file")
    if docs[0].get("type") == "header":
        if docs[-1].get("type") != "footer":
            raise ValueError(f"{path}: not a battle log (header/footer lines missing)")
        return docs[0]["scenario"], docs[0]["rules"], docs[0]["seed"], docs[-1]["actions"]
    if not 0 <= game < len(docs):
        raise ValueError(f"game: {game} is out of range; {path} holds {len(docs)} game(s)")
    d = docs[game]
    if d.get("format") != "atomic-africa-game/1":
        raise ValueError(f"{path}: neither a battle log nor a game JSON")
    return d["scenario"], d["rules"], d["seed"], d["history"]


def game_at(scenario, rules, seed, actions, step=None) -> Game:
    """The game after the first ``step`` actions (all when None).

    Parameters
    ----------
    scenario, rules : dict
        Scenario and rules dicts, as returned by :func:`load_replay`.
    seed : int
        Game seed.
    actions : sequence of int
        Action ids.
    step : int, optional
        Number of actions to apply, ``0 <= step <= len(actions)``; all when None.

    Returns
    -------
    Game

    Raises
    ------
    ValueError
        If ``step`` is out of range (or the scenario/rules are invalid).
    IllegalActionError
        If an action is not legal when applied.
    """
    from ..rules import Rules
    from .scenario import Scenario
    g = Game(Scenario.from_dict(scenario), seed, Rules.from_dict(rules))
    n = len(actions) if step is None else step
    if not 0 <= n <= len(actions):
        raise ValueError(f"step: {n} is out of range; allowed 0..{len(actions)}")
    for a in actions[:n]:
        g.apply(a)
    return g


def _last_phase_events(game):
    """Events of the last Activation phase so far (the whole phase, even after its Clean-up), so
    that the final state of a game still shows the last moves and fire lines."""
    out = []
    for e in reversed(game.events):
        out.append(e)
        if e["type"] in ("activate", "setup"):
            break
    return out[::-1]


def draw(game: Game, ax=None, title=None):
    """Draw ``game``'s current state on a matplotlib axis.

    Parameters
    ----------
    game : Game
    ax : matplotlib Axes, optional
        Axis to draw on; a new figure is made if omitted.
    title : str, optional
        Replaces the default title (scenario name and status).

    Returns
    -------
    matplotlib Figure
        The figure holding ``ax``.
    """
    plt = _plt()
    from matplotlib.patches import Circle, Polygon, Rectangle
    sc = game.scenario
    if ax is None:
        fig, ax = plt.subplots(figsize=(10, 10 * sc.height_cm / sc.width_cm + 0.6), dpi=90)
    else:
        fig = ax.figure
    ax.add_patch(Rectangle((0, 0), sc.width_cm, sc.height_cm, facecolor=_COVER_COLOURS[0], edgecolor="k"))
    for t, cover in zip(sc.terrain, game.s.feature_cover):   # current cover: heavy weapons lower it
        kw = dict(facecolor=_COVER_COLOURS[cover], edgecolor="#444", alpha=0.85,
                  hatch="///" if t.blocks_los and not (t.armor and cover == 0) else None, linewidth=0.8)
        patch = Polygon(t.points, closed=True, **kw) if t.shape == "polygon" else Circle(t.center, t.radius, **kw)
        ax.add_patch(patch)
        cx, cy = (sum(p[0] for p in t.points) / len(t.points), sum(p[1] for p in t.points) / len(t.points)) \
            if t.shape == "polygon" else t.center
        ax.text(cx, cy, t.name, fontsize=6, ha="center", va="center", color="#333")
    units = {u.uid: u for u in game.units if u.alive}
    for e in _last_phase_events(game):
        if e["type"] in ("move", "complete_move", "sprint") and "start" in e:
            (x0, y0), (x1, y1) = e["start"], e["dest"]
            ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                        arrowprops=dict(arrowstyle="->", color="#555", lw=1.2, ls="--"))
        if e["type"] == "fire" and e["source"] >= 0 and e["source"] in units and e["target"] in units:
            s, t = units[e["source"]], units[e["target"]]
            colour = "#e67e22" if e["markers"] or e["wounds"] else "#bbb"
            ax.plot([s.x, t.x], [s.y, t.y], color=colour, lw=1.0 + e["wounds"] * 0.5, alpha=0.9)
        if e["type"] == "scatter":
            ax.plot(*e["impact"], marker="*", color="#d35400", ms=14)
    for u in units.values():
        colour = _SIDE_COLOURS[u.side]
        size = 2.0 + min(u.figures, 14) * 0.25
        if u.kind == UnitKind.VEHICLE:
            ax.add_patch(Rectangle((u.x - size, u.y - size * 0.6), 2 * size, 1.2 * size, facecolor=colour,
                                   edgecolor="k"))
        else:
            ax.add_patch(Circle((u.x, u.y), size, facecolor=colour, edgecolor="k",
                                linestyle="-" if u.kind == UnitKind.INFANTRY else ":"))
        if u.commander:
            ax.plot(u.x, u.y, marker="*", color="gold", ms=8, mec="k")
        label = f"{u.name} ({u.figures})"
        if u.markers or u.wounds:
            label += f"\nS{u.markers} W{u.wounds}"
        ax.text(u.x, u.y - size - 1.5, label, fontsize=6.5, ha="center", va="top", color=colour)
        for k in range(min(u.markers, 6)):
            ax.plot(u.x + size + 1 + 1.6 * k, u.y + size, marker="o", color="k", ms=3.5)
        for k in range(min(u.wounds, 6)):
            ax.plot(u.x + size + 1 + 1.6 * k, u.y + size - 2, marker="x", color="#8e0000", ms=4)
    ax.set_xlim(-2, sc.width_cm + 2)
    ax.set_ylim(-2, sc.height_cm + 2)
    ax.set_aspect("equal")
    ax.set_xlabel("cm")
    status = f"turn {game.s.turn}, {game.stage.lower()}"
    if game.is_over:
        r = game.result
        status += f" - {'draw' if r.winner is None else sc.sides[r.winner].name + ' wins'}"
    ax.set_title(title or f"{sc.name}: {status}", fontsize=10)
    return fig


def save_png(game: Game, path, title=None) -> None:
    """Draw ``game``'s current state (see :func:`draw`) and save it as an image.

    Parameters
    ----------
    game : Game
    path : str, PathLike or file object
        Destination; matplotlib picks the format from the extension (PNG for ``.png``).
    title : str, optional
        As in :func:`draw`.
    """
    fig = draw(game, title=title)
    fig.savefig(path, bbox_inches="tight")
    _plt().close(fig)


def save_gif(scenario, rules, seed, actions, path, every: str = "phase", duration_ms: int = 400) -> int:
    """Animate a replay as a GIF: the initial state, then one frame per phase or per action.

    Parameters
    ----------
    scenario, rules : dict
        Scenario and rules dicts, as returned by :func:`load_replay`.
    seed : int
        Game seed.
    actions : iterable of int
        Action ids.
    path : str, PathLike or file object
        Destination of the GIF.
    every : {"phase", "action"}
        ``"action"``: a frame after every action; any other value: a frame after each action that
        completes a move, resolves fire, or ends a turn or the game.
    duration_ms : int
        Display time of each frame.

    Returns
    -------
    int
        Number of frames written.
    """
    from PIL import Image

    from ..rules import Rules
    from .scenario import Scenario
    g = Game(Scenario.from_dict(scenario), seed, Rules.from_dict(rules))
    frames = []

    def snap():
        fig = draw(g)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=60)
        _plt().close(fig)
        buf.seek(0)
        frames.append(Image.open(buf).convert("P", palette=Image.ADAPTIVE))

    snap()
    for a in actions:
        n = len(g.events)
        g.apply(a)
        new = g.events[n:]
        if every == "action" or any(e["type"] in ("complete_move", "fire_result", "turn_end", "game_over")
                                    for e in new):
            snap()
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=duration_ms, loop=0)
    return len(frames)
