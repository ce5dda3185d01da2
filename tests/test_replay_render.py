"""``atomic_africa.replay.render``: legend, labels apart, laptop size, GIF captions and progress,
atomic writes, and no matplotlib global state."""
import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest
from PIL import Image

from atomic_africa.cli import main
from atomic_africa.game import Game, Scenario, load_scenario
from atomic_africa.replay import render
from atomic_africa.replay.frames import caption, frames, game_at, load_replay, phase_lines
from atomic_africa.game.testing import last_legal_action
from support import LOPSIDED_MEETING


def _played(seed=4, n=90, scenario=None):
    g = Game(scenario, seed)
    for _ in range(n):
        g.apply(last_legal_action(g))
    return g


def _boxes(fig, prefix):
    r = render._renderer(fig)
    return {t.get_gid(): t.get_window_extent(r).extents for t in fig.axes[0].texts
            if (t.get_gid() or "").startswith(prefix)}


def _intersect(a, b):
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def test_legend_explains_every_symbol():
    g = _played()
    fig = render.draw(g)
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    joined = "\n".join(texts)
    for needle in (f"{g.scenario.sides[0].name} unit", f"{g.scenario.sides[1].name} unit", "infantry",
                   "light infantry", "vehicle", "commander", "suppression marker", "wound", "S2 W1",
                   "figures", "move", "fire with effect", "fire without effect", "fire support impact",
                   "open ground", "light cover", "heavy cover", "blocks line of sight"):
        assert needle in joined, needle
    # every entry has a symbol drawn (the label-format entry is text only)
    assert len(fig.axes[0].get_legend().legend_handles) == len(texts)


def _crowded_game():
    """All 13 units of the meeting engagement before issue 35 (tests/support) packed into a 42 x 28 cm
    corner, several with markers and wounds."""
    d = load_scenario(LOPSIDED_MEETING).to_dict()
    units = [u for side in d["sides"] for u in side["units"]]
    for k, u in enumerate(units):
        u["position"] = [8.0 + 7.0 * (k % 5), 8.0 + 8.0 * (k // 5)]
        u["markers"], u["wounds"] = k % 3, k % 2
    return Game(Scenario.from_dict(d), 0)


def test_labels_do_not_overlap_in_a_crowded_frame():
    g = _crowded_game()
    fig = render.draw(g)
    labels = _boxes(fig, "unit-label:")
    terrain = _boxes(fig, "terrain-label")
    assert len(labels) == sum(u.alive for u in g.units) == 13
    for (a, x), (b, y) in combinations(labels.items(), 2):
        assert not _intersect(x, y), (a, b)
    for a, x in labels.items():
        assert not any(_intersect(x, t) for t in terrain.values()), a
    # The frame really is crowded: every label right under its unit, the first choice, would overlap.
    r = render._renderer(fig)
    naive = []
    for t in fig.axes[0].texts:
        if (t.get_gid() or "").startswith("unit-label:"):
            u = g.units[int(t.get_gid().split(":")[1])]
            w, h = t.get_window_extent(r).size
            x, y = fig.axes[0].transData.transform((u.x, u.y - render._unit_size(u)))
            naive.append((x - w / 2, y - h, x + w / 2, y))
    assert sum(_intersect(a, b) for a, b in combinations(naive, 2)) >= 5


def test_png_is_laptop_sized_and_captioned(tmp_path):
    g = _played()
    png = tmp_path / "s.png"
    render.save_png(g, png)
    assert Image.open(png).size == (1600, 1100)
    fig = render.draw(g)
    cap = next(t.get_text() for t in fig.axes[0].texts if t.get_gid() == "caption")
    assert cap == f"Turn {g.s.turn}, {g.stage.lower()}"
    # The command line captions a step with its Activation phase in the battle log's words.
    d = g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history
    lines = phase_lines(*d)
    assert lines and lines[0].lstrip().startswith(("Phase ", "Turn "))
    fig = render.draw(g, caption=caption(g, lines))
    cap = next(t.get_text() for t in fig.axes[0].texts if t.get_gid() == "caption")
    assert cap.splitlines()[1] == lines[0].strip()


def test_drawing_leaves_matplotlib_global_state_alone(tmp_path):
    # A fresh interpreter: an application that chose its own backend keeps it, rcParams are not
    # touched and pyplot (with its global figure manager) is never imported.
    script = f"""
import sys, matplotlib
matplotlib.use("pdf")
raw = {{k: dict.__getitem__(matplotlib.rcParams, k) for k in dict.keys(matplotlib.rcParams)}}
from atomic_africa.game import Game
from atomic_africa.replay import render
g = Game(None, 1)
for _ in range(40):
    g.apply(g.legal_actions()[0])
render.save_png(g, {str(tmp_path / 'a.png')!r})
render.save_gif(g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history[:25], {str(tmp_path / 'a.gif')!r})
after = {{k: dict.__getitem__(matplotlib.rcParams, k) for k in dict.keys(matplotlib.rcParams)}}
assert after == raw, [k for k in raw if raw[k] != after[k]]
assert "matplotlib.pyplot" not in sys.modules
assert matplotlib.get_backend() == "pdf", matplotlib.get_backend()
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.slow
def test_gif_frames_are_captioned_blitted_like_draw_and_show_progress(tmp_path, capsys):
    g = _played(seed=4, n=200, scenario=LOPSIDED_MEETING)   # a heavy weapon knocks a feature's cover down
    js = tmp_path / "g.json"
    js.write_text(g.to_json())
    gif = tmp_path / "g.gif"
    assert main(["render", str(js), "--gif", str(gif)]) == 0
    err = capsys.readouterr().err
    assert "200/200" in err                       # the progress bar reached the end
    scenario, rules, seed, actions = load_replay(js)
    shots = list(frames(scenario, rules, seed, actions))
    im = Image.open(gif)
    assert im.n_frames == len(shots) and im.size == (1280, 880)
    # Each frame's caption says when it is and what happened: a fire frame names its target.
    fired = [f for f in shots if any(e["type"] == "fire_result" and (e["markers"] or e["wounds"]) for e in f.events)]
    # Compare on a fire frame after a heavy weapon has knocked a feature's cover down, so the
    # damaged terrain too is drawn the same way by both paths.
    covers = [t.cover for t in g.scenario.terrain]
    damaged = [f for f in fired if game_at(scenario, rules, seed, actions, f.step).s.feature_cover != covers]
    assert damaged
    f = damaged[0]
    g2 = game_at(scenario, rules, seed, actions, f.step)
    text = caption(g2, f.lines, f.label)   # the phase the frame shows
    target = next(e["target"] for e in f.events if e["type"] == "fire_result" and (e["markers"] or e["wounds"]))
    assert text.startswith(f"Turn {g2.s.turn}, ") and g2.units[target].name in text
    assert f.lines and all(line.strip() in text for line in f.lines)   # the battle log's words
    # The blitted GIF frame is the picture draw() makes of the same state.
    k = [x.step for x in shots].index(f.step)
    im.seek(k)
    frame = np.asarray(im.convert("RGB")).astype(int)
    fig = render.draw(g2, caption=text, label=f.label)
    fig.set_dpi(render.GIF_DPI)
    fig.canvas.draw()
    full = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    assert (np.abs(frame - full).max(axis=2) > 48).mean() < 0.002   # palette rounding only


def test_files_are_replaced_atomically(tmp_path, capsys):
    g = _played(n=30)
    png = tmp_path / "s.png"
    png.write_bytes(b"old")
    with pytest.raises(ValueError):
        render.save_png(g, tmp_path / "s.nosuchformat")
    render.save_png(g, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.png"]    # no temporary file left
    # A failed render leaves the previous file as it was.
    js = tmp_path / "g.json"
    js.write_text(g.to_json())
    before = png.read_bytes()
    assert main(["render", str(js), "--step", "31", "-o", str(png)]) == 2
    assert "step" in capsys.readouterr().err
    assert png.read_bytes() == before


def test_dpi_option(tmp_path, capsys):
    g = _played(n=30)
    js = tmp_path / "g.json"
    js.write_text(g.to_json())
    out = tmp_path / "small.png"
    assert main(["render", str(js), "--dpi", "50", "-o", str(out)]) == 0
    assert Image.open(out).size == (800, 550)
    for bad in ("0", "601", "1e9"):
        with pytest.raises(SystemExit) as exit_:
            main(["render", str(js), "--dpi", bad, "-o", str(out)])
        assert exit_.value.code == 2
        assert "argument --dpi: expected an integer 10..600" in capsys.readouterr().err


def test_progress_bar_without_tqdm_counts_on_stderr(monkeypatch, capsys):
    from atomic_africa._progress import Progress
    monkeypatch.setitem(sys.modules, "tqdm", None)      # as if tqdm were not installed
    bar = Progress(4, True, unit="action", desc="GIF")
    for _ in range(4):
        bar.update()
    bar.close()
    err = capsys.readouterr().err
    assert err.endswith("GIF: [" + "#" * 30 + "] 4/4\n") and "\rGIF: [" + "#" * 15 + "." * 15 + "] 2/4" in err
    quiet = Progress(4, False)
    quiet.update(4)
    quiet.close()
    assert capsys.readouterr().err == "" and quiet.done == 4


# -- issue 23: fire lines that point, and counters past six -----------------------------------------
def _fire_phase_game():
    """The default scenario after the first Activation phase with fire (always the last legal
    action: fire at the last target in view)."""
    g = Game(None, 4)
    while not any(e["type"] == "fire" for e in g.events):
        g.apply(last_legal_action(g))
    return g


def test_png_fire_lines_point_from_shooter_to_target():
    from matplotlib.patches import FancyArrowPatch
    g = _fire_phase_game()
    fires = [e for e in g.events if e["type"] == "fire" and e["source"] >= 0]
    fig = render.draw(g)
    arrows = [a for a in fig.axes[0].patches + fig.axes[0].texts
              if (a.get_gid() or "").startswith("fire:")]
    assert len(arrows) == len(fires)
    for a, e in zip(arrows, fires):
        patch = a.arrow_patch if hasattr(a, "arrow_patch") else a
        assert isinstance(patch, FancyArrowPatch)
        assert patch.get_arrowstyle().__class__.__name__ == "CurveFilledB"   # "-|>": a head at the target
        s, t = g.units[e["source"]], g.units[e["target"]]
        assert a.get_gid() == f"fire:{e['source']}:{e['target']}"
        assert a.xy == (t.x, t.y) and a.xyann == (s.x, s.y)


def test_png_shows_marker_and_wound_counts_beyond_six():
    d = Game(None, 0).scenario.to_dict()
    d["sides"][0]["units"][0]["markers"] = 9
    d["sides"][0]["units"][1]["wounds"] = 7
    d["sides"][0]["units"][2]["markers"] = 6
    g = Game(Scenario.from_dict(d), 0)
    fig = render.draw(g)
    counts = {t.get_gid(): t.get_text() for t in fig.axes[0].texts if (t.get_gid() or "").startswith("count:")}
    assert counts == {"count:markers:0": "\u00d79", "count:wounds:1": "\u00d77"}
