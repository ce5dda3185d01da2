"""``atomic-africa render --html``: the self-contained replay page, its exact odds, and the page
itself in a real headless Chromium."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from atomic_africa import odds
from atomic_africa.cli import main
from atomic_africa.enums import Action, Cover, Posture
from atomic_africa.agents import make_agent
from atomic_africa.game import Game, Scenario
from atomic_africa.replay.frames import frames, game_at
from atomic_africa.replay.html import render_html, replay_data, save_html
from atomic_africa.game.testing import last_legal_action

from support import LOPSIDED_MEETING
from support.headless_chromium import CHROMIUM, INSTALL_HINT, Chromium

ARTIFACTS = Path(__file__).parent / "artifacts"


def _game(seed, agents=("greedy", "doctrine"), scenario=None):
    players = [make_agent(n, seed + i) for i, n in enumerate(agents)]
    g = Game(scenario, seed)
    while not g.is_over:
        g.apply(players[g.current_player].act(g))
    return g


def _replay(g):
    return g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history


def _dist(rows):
    return {(m, w): p for m, w, p in rows}


def test_every_shot_carries_its_exact_odds():
    # Greedy against doctrine, the meeting engagement before issue 35 (tests/support), seed 3: plain
    # fire, Mass Fire, Split Fire, Heavy Weapon and fire support.
    g = _game(3, scenario=LOPSIDED_MEETING)
    data = replay_data(*_replay(g))
    shots = [s for f in data["frames"] for s in f["shots"]]
    kinds = {(s["action"], s["source"] < 0) for s in shots}
    assert {("basic", False), ("mass fire", False), ("split fire", False), ("heavy weapon", True)} <= kinds
    rules = g.rules
    for s in shots:
        dist = _dist(s["outcomes"])
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
        # What the engine rolled must be a possible outcome of the odds shown for it.
        assert s["p_actual"] == dist[tuple(s["actual"])] > 0
        assert s["e_wounds"] == pytest.approx(sum(w * p for (m, w), p in dist.items()))
        assert s["p_wound"] == pytest.approx(sum(p for (m, w), p in dist.items() if w >= 1))
        if s["action"] == "split fire" or s["source"] < 0:
            continue
        stance = s["target_stance"].rsplit(" ", 1)
        again = odds.fire_outcomes(
            tuple(s["shooter_dice"]), tuple(s["target_dice"]), shooter_posture=Posture[s["posture"].upper()],
            target_posture=Posture[stance[1].upper()], range_band=s["band"], armor=s["armor"],
            shooter_action=Action[s["action"].upper().replace(" ", "_")],
            target_action=Action[stance[0].upper().replace(" ", "_")],
            cover=Cover[{"open": "NONE"}.get(s["cover"], s["cover"].upper())], ap=s["ap"],
            vehicle=s["vehicle"], rules=rules)
        # The markers are cut to what the target could still take this turn (the turn's cap).
        left = {}
        for (m, w), p in again.items():
            left[(min(m, s["cap_left"]), w)] = left.get((min(m, s["cap_left"]), w), 0.0) + p
        assert dist == pytest.approx(left)
    # Mass Fire is one volley: both attacks on one shot.
    assert all(len(s["attack"]) == 2 for s in shots if s["action"] == "mass fire")


def _feature_game():
    """The meeting engagement before issue 35 (tests/support), seed 4, always the last legal action
    (aiming at a terrain feature comes last): heavy weapons fire at the scenario's armoured features
    and knock a cover down."""
    g = Game(LOPSIDED_MEETING, 4)
    for _ in range(200):
        g.apply(last_legal_action(g))
    return g


def test_heavy_weapon_shots_at_armoured_features_carry_their_odds_and_the_cover_they_leave():
    g = _feature_game()
    data = replay_data(*_replay(g))
    assert [t["armor"] for t in data["terrain"]] == [t.armor for t in g.scenario.terrain]
    rules = g.rules
    seen = 0
    for f in data["frames"]:
        for s in (s for s in f["shots"] if s.get("feature") is not None):
            seen += 1
            feat = g.scenario.terrain[s["feature"]]
            assert s["target_name"] == feat.name and s["aim"] == list(feat.aim_point)
            assert s["defense"] == rules.fire.feature_defense and s["armor"] == feat.armor
            # The odds, worked out here from the shooter's Attack pmf and the fire rule: a feature
            # takes wounds only, at the fixed Defense against its armor, AP and no cover bonus.
            pmf = odds.scores_pmf(tuple(s["shooter_dice"]), Posture[s["posture"].upper()],
                                  Action.HEAVY_WEAPON, rules=rules).attacks
            want = {}
            for (attack,), p in pmf.items():
                threshold = s["band"] + s["defense"]
                eff = max(s["armor"] + s["ap"], rules.fire.armor_floor)
                w = (attack - threshold) // eff if attack > threshold else 0
                want[(0, w)] = want.get((0, w), 0.0) + p
            got = _dist(s["outcomes"])
            assert got.keys() == want.keys() and all(got[o] == pytest.approx(want[o]) for o in want)
            assert s["p_actual"] == got[tuple(s["actual"])] > 0 and s["actual"][0] == 0
            # The frame shows the feature's cover as the shot left it.
            assert f["covers"][s["feature"]] == s["cover_after"]
            lowered = s["actual"][1] * rules.fire.feature_cover_per_wound
            order = ["open", "light", "heavy"]
            assert order.index(s["cover_after"]) == max(0, order.index(s["cover_before"]) - lowered)
    assert seen >= 2
    assert data["frames"][-1]["covers"] == [["open", "light", "heavy"][c] for c in g.s.feature_cover]


def test_frames_follow_the_game():
    g = _game(2, ("random", "random"))
    data = replay_data(*_replay(g))
    steps = [f.step for f in frames(*_replay(g))]
    assert [f["step"] for f in data["frames"]] == steps and steps[0] == 0 and steps[-1] == len(g.history)
    last = data["frames"][-1]
    alive = [u for u in g.units if u.alive]
    assert [(r[0], r[4], r[5], r[6], r[7], r[8]) for r in last["units"]] == \
        [(u.uid, round(u.x, 2), round(u.y, 2), u.figures, u.markers, u.wounds) for u in alive]
    assert data["result"].startswith(("Draw", g.scenario.sides[0].name, g.scenario.sides[1].name))
    assert re.match(rf"Turn {g.s.turn}, activation phase \d+ and clean-up: ", last["caption"][0])


def _shown_phase(events, upto):
    """(turn, phase K in its turn) of the last Activation phase begun in ``events[:upto]``, counted
    from the log itself: turns end at ``turn_end``, each phase begins with one ``activate``."""
    turn, k, last = 1, 0, None
    for e in events[:upto]:
        if e["type"] == "activate":
            k += 1
            last = (turn, k)
        elif e["type"] == "turn_end":
            turn, k = turn + 1, 0
    return last


@pytest.mark.parametrize("seed,agents", [(0, ("greedy", "greedy")), (2, ("random", "random")),
                                         (5, ("doctrine", "heuristic"))])
def test_each_frame_is_labelled_by_the_phase_it_shows(seed, agents):
    """Issue 35 point 6: a frame that shows the last phase of turn N (its fire and moves, its Clean-up)
    is labelled turn N, that phase, and clean-up; never turn N + 1's orders."""
    g = _game(seed, agents)
    rep = _replay(g)
    data = replay_data(*rep)
    assert (data["frames"][0]["turn"], data["frames"][0]["stage"]) == (1, "set-up")
    ends = 0
    for f, d in zip(frames(*rep), data["frames"]):
        if f.step == 0:
            continue
        before = game_at(*rep, f.step - 1)        # the game as the frame's last decision found it
        turn, k = _shown_phase(f.game.events, len(f.game.events))
        if before.stage == "SPLIT":
            words = "clean-up"
        else:
            assert before.stage != "ORDERS"        # a whole game's frames end on phases or clean-ups
            assert turn == before.s.turn
            words = f"activation phase {k}"
            if any(e["type"] == "turn_end" for e in f.events):
                words += " and clean-up"
        ends += any(e["type"] == "turn_end" for e in f.events)
        assert (d["turn"], d["stage"]) == (before.s.turn, words), (f.step, d["caption"][:2])
        assert d["caption"][0].startswith(f"Turn {before.s.turn}, {words}")
    assert ends == g.s.turn   # one frame per turn shows its Clean-up, labelled with that turn


def test_page_is_self_contained_and_escapes_what_it_embeds(tmp_path):
    d = Game(None, 3).scenario.to_dict()
    evil = "</script><img src=x onerror=alert(1)>"
    d["sides"][0]["units"][0]["name"] = evil
    d["name"] = "A & B <test>"
    g = Game(Scenario.from_dict(d), 3)
    for _ in range(60):
        g.apply(last_legal_action(g))
    data = replay_data(*_replay(g))
    page = render_html(data)
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert "<title>A &amp; B &lt;test&gt; - Atomic Africa replay</title>" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "url(http" not in page
    payload = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S).group(1)
    assert json.loads(payload) == json.loads(json.dumps(data))
    assert evil in json.dumps(json.loads(payload))
    out = tmp_path / "r.html"
    assert save_html(*_replay(g), out) == len(data["frames"])
    assert out.read_text(encoding="utf-8") == page
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


@pytest.mark.parametrize("name", ["{{DATA}}", "{{TITLE}}", "{{DATA}} and {{TITLE}} {{", "{{OTHER}}"])
def test_template_markers_in_names_are_shown_as_text_not_filled(name):
    # issue 27: a scenario named {{DATA}} poured the replay's JSON into the page's title. The page is
    # filled in one pass: what a name holds is never taken for a marker.
    d = Game(None, 3).scenario.to_dict()
    d["name"] = name
    d["sides"][1]["name"] = name
    g = Game(Scenario.from_dict(d), 3)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    data = replay_data(*_replay(g))
    page = render_html(data)
    assert f"<title>{name} - Atomic Africa replay</title>" in page
    assert f'<h1 id="title">{name}</h1>' in page
    assert page.count('<script type="application/json" id="replay-data">') == 1
    payload = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S).group(1)
    assert json.loads(payload) == json.loads(json.dumps(data))
    assert len(page) < len(render_html(dict(data, title="x"))) + 4 * len(name)


def test_cli_html_needs_no_png(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = Game(None, 5)
    for _ in range(50):
        g.apply(g.legal_actions()[0])
    js = tmp_path / "g.json"
    js.write_text(g.to_json())
    assert main(["render", str(js), "--html", "replay.html"]) == 0
    out = capsys.readouterr().out
    n = len(list(frames(*_replay(g))))
    assert f"Wrote replay.html ({n} frames" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "replay.html"]
    # a selfplay replays file, game K
    lines = tmp_path / "replays.jsonl"
    lines.write_text(Game(None, 6).to_json() + "\n" + g.to_json() + "\n")
    assert main(["render", str(lines), "--game", "1", "--html", "k.html"]) == 0
    assert (tmp_path / "k.html").read_text(encoding="utf-8") == (tmp_path / "replay.html").read_text(encoding="utf-8")


def test_html_needs_neither_matplotlib_nor_pillow(tmp_path):
    # A base install without the plot extra: --html works, a PNG is refused in one line.
    script = f"""
import sys
sys.modules["matplotlib"] = None
sys.modules["PIL"] = None
from atomic_africa.cli import main
rc = main(["render", "--seed", "2", "--agents", "random,random", "--html", {str(tmp_path / 'r.html')!r}])
print("html", rc)
rc = main(["render", "--seed", "2", "--agents", "random,random", "-o", {str(tmp_path / 'r.png')!r}])
print("png", rc)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert [x for x in out.stdout.splitlines() if x.startswith(("html", "png"))] == ["html 0", "png 2"], \
        out.stdout + out.stderr
    assert "atomic-africa[plot]" in out.stderr and "Traceback" not in out.stderr
    assert (tmp_path / "r.html").stat().st_size > 10000 and not (tmp_path / "r.png").exists()


def _frame_svg(b):
    return b.eval("document.getElementById('frame').innerHTML")


def test_replay_page_in_headless_chromium(tmp_path):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    g = _game(0, ("random", "random"))
    page = tmp_path / "replay.html"
    n = save_html(*_replay(g), page)
    with Chromium() as b:
        b.open(page.as_uri())
        assert b.eval("window.replay.frame") == 0 and b.eval("window.replay.count") == n
        first = _frame_svg(b)
        assert b.eval("document.querySelectorAll('#frame g.unit').length") == \
            sum(len(side.units) for side in g.scenario.sides)
        # Dragging the slider to the middle of the game draws another state.
        mid = n // 2
        b.eval(f"(() => {{ const s = document.getElementById('slider'); s.value = {mid}; "
               f"s.dispatchEvent(new Event('input', {{bubbles: true}})); }})()")
        assert b.eval("window.replay.frame") == mid
        middle = _frame_svg(b)
        assert middle != first
        assert b.eval("document.getElementById('status').textContent").startswith(f"frame {mid + 1}/{n}")
        # A frame with fire shows its shots with their odds and the fire lines.
        fire = next(i for i in range(mid, n) if b.eval(f"window.replay.show({i}), document.querySelectorAll('.shot').length"))
        assert b.eval("document.querySelectorAll('#frame line.fire').length") >= 1
        assert "chance of exactly this" in b.eval("document.querySelector('.shot').textContent")
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "replay_mid_game.png"
        b.screenshot(shot)
        print(f"mid-game frame {fire + 1}/{n}: {shot}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        # Labels on the page do not overlap either.
        boxes = b.eval("[...document.querySelectorAll('#frame text.ulabel')].map(t => "
                       "{ const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        for i, x in enumerate(boxes):
            for y in boxes[i + 1:]:
                assert not (min(x[2], y[2]) > max(x[0], y[0]) + 0.5 and min(x[3], y[3]) > max(x[1], y[1]) + 0.5)
        # The play button (a real click) steps through the frames by itself.
        before = b.eval("window.replay.frame")
        b.click("#play")
        assert b.eval("window.replay.playing") is True
        # Frames advance every 0.9 s: wait (at most 10 s) for the next one.
        assert b.eval(f"new Promise(r => {{ const t0 = Date.now(), poll = () => window.replay.frame > {before} "
                      f"|| Date.now() - t0 > 10000 ? r(window.replay.frame) : setTimeout(poll, 50); poll(); }})") > before
        assert _frame_svg(b) != middle
        b.click("#play")
        assert b.eval("window.replay.playing") is False
        assert b.errors() == []
        # Nothing but the page itself was loaded.
        assert set(b.requests()) == {page.as_uri()}


def test_replay_page_shows_feature_shots_and_each_features_current_cover(tmp_path):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    g = _feature_game()
    data = replay_data(*_replay(g))
    k, shot = next((k, s) for k, f in enumerate(data["frames"]) for s in f["shots"] if s.get("feature") is not None
                   and s["cover_after"] != s["cover_before"])
    page = tmp_path / "replay.html"
    save_html(*_replay(g), page)
    covers = "[...document.querySelectorAll('svg .terrain')].map(t => t.getAttribute('data-cover'))"
    with Chromium() as b:
        b.open(page.as_uri())
        assert b.eval(covers) == data["frames"][0]["covers"] == [t["cover"] for t in data["terrain"]]
        b.eval(f"window.replay.show({k})")
        assert b.eval(covers) == data["frames"][k]["covers"]
        assert b.eval(covers)[shot["feature"]] == shot["cover_after"]
        cards = b.eval("[...document.querySelectorAll('.shot')].map(c => c.textContent)")
        card = next(c for c in cards if f"\u2192 {shot['target_name']}" in c)
        assert f"cover {shot['cover_before']} \u2192 {shot['cover_after']}" in card
        assert "chance of exactly this" in card and "vs no roll" in card
        assert b.eval("document.querySelectorAll('#frame line.fire').length") == len(data["frames"][k]["shots"])
        assert b.errors() == []


# -- issue 23: the replay page tells what the log tells --------------------------------------------
# Greedy (Blue) against random, default scenario, seed 1: a Call for Fire direct hit (its impact
# on the target's own position), fire at a unit that the turn's Clean-up then removes, and a shot
# whose markers the turn's cap cuts because its target already took markers earlier that turn.
ISSUE23_GAME = dict(seed=1, agents=("greedy", "random"))


def _direct_hit_frame(g, data):
    """(index, frame) of the first frame with a fire-support strike after a direct hit."""
    return next((k, f) for k, f in enumerate(data["frames"])
                if f["impacts"] and any(s["source"] < 0 for s in f["shots"])
                and any(e["type"] == "scatter" and e.get("direct_hit")
                        for e in g.events[_events_at(g, f["step"] - 1):_events_at(g, f["step"])]))


def _removed_after_frame(g, data):
    """(index, frame, step) of the first frame whose Clean-up removes two of the units shooting or shot
    at in it (step: the action after which they are removed, before the next frame)."""
    frames = data["frames"]
    for k, f in enumerate(frames):
        if not f["shots"] or k + 1 >= len(frames):
            continue
        named = {s["source"] for s in f["shots"]} | {s["target"] for s in f["shots"]}
        for step in range(f["step"], frames[k + 1]["step"] + 1):
            a, b = _events_at(g, step - 1), _events_at(g, step)
            if len({e["unit"] for e in g.events[a:b] if e["type"] == "removed"} & named) >= 2:
                return k, f, step
    raise AssertionError("the game no longer removes two units of a phase's fire at one Clean-up")


@pytest.fixture(scope="module")
def issue23():
    g = _game(ISSUE23_GAME["seed"], ISSUE23_GAME["agents"])
    return g, replay_data(*_replay(g))


def _phase_slices(g):
    """(start, end) indices in g.events of each Activation phase (activate .. next activate/setup)."""
    starts = [i for i, e in enumerate(g.events) if e["type"] == "activate"] + [len(g.events)]
    return list(zip(starts, starts[1:]))


def test_a_shot_results_agree_with_the_log_under_the_turns_marker_cap(issue23):
    g, data = issue23
    # What each target took in each phase (the fire_result events, after the turn's cap), as the
    # battle log tells it ("... takes 1 marker (1 more would pass the limit ...)").
    taken = {}
    for a, b in _phase_slices(g):
        for e in g.events[a:b]:
            if e["type"] == "fire_result":
                taken[(g.events[a]["turn"], g.events[a]["unit"], e["target"])] = e["markers"]
    capped_before_the_cap = 0
    for f in data["frames"]:
        per_target = {}
        for s in f["shots"]:
            if s.get("feature") is None:
                per_target[s["target"]] = per_target.get(s["target"], 0) + s["actual"][0]
                dist = _dist(s["outcomes"])
                assert s["p_actual"] == dist[tuple(s["actual"])] > 0
        act = next((e for e in reversed(g.events[:_events_at(g, f["step"])]) if e["type"] == "activate"), None)
        for t, m in per_target.items():
            assert m == taken[(act["turn"], act["unit"], t)], (f["step"], t)
    # The markers the dice gave, before the cap, are shown too (the log's fire lines).
    for f in data["frames"]:
        capped_before_the_cap += sum(s["actual"][0] < min(s["markers_rolled"], s["cap"]) for s in f["shots"])
    assert capped_before_the_cap >= 1, "the game no longer shows the turn's cap cutting a shot"


def _events_at(g, step):
    """Number of events logged after the first ``step`` actions."""
    h = Game(g.scenario, g.seed, g.rules)
    for a in g.history[:step]:
        h.apply(a)
    return len(h.events)


def test_a_target_removed_at_clean_up_keeps_its_name_and_fire_line(issue23, tmp_path):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    g, data = issue23
    k, f, step = _removed_after_frame(g, data)
    h = Game(g.scenario, g.seed, g.rules)
    for a in g.history[:step - 1]:
        h.apply(a)
    n = len(h.events)
    h.apply(g.history[step - 1])
    removed = {e["unit"]: e["name"] for e in h.events[n:] if e["type"] == "removed"}
    # The shooter and the target of the phase's last shot are both removed at this Clean-up.
    named = {s["target"]: s["target_name"] for s in f["shots"]} | {s["source"]: s["shooter"] for s in f["shots"]}
    shown = {uid: name for uid, name in removed.items() if uid in named}
    assert len(shown) >= 2
    for uid, name in shown.items():
        assert named[uid] == name
    page = tmp_path / "replay.html"
    save_html(*_replay(g), page)
    with Chromium() as b:
        b.open(page.as_uri())
        b.eval(f"window.replay.show({k})")
        assert b.eval("document.querySelectorAll('#frame .fire[data-shot]').length") == len(f["shots"])
        labels = b.eval("[...document.querySelectorAll('#frame text')].map(t => t.textContent).join(' | ')")
        for name in shown.values():
            assert name in labels
        assert b.errors() == []


def test_a_fire_support_direct_hit_is_visible(issue23, tmp_path):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    g, data = issue23
    k, f = _direct_hit_frame(g, data)
    strike = [s for s in f["shots"] if s["source"] < 0]
    assert strike and f["impacts"]
    page = tmp_path / "replay.html"
    save_html(*_replay(g), page)
    with Chromium() as b:
        b.open(page.as_uri())
        b.eval(f"window.replay.show({k})")
        # The impact is drawn on top of the unit it landed on ...
        x, y = f["impacts"][0]
        top = b.eval(f"(() => {{ const svg = document.getElementById('table'), p = svg.createSVGPoint(); "
                     f"p.x = {x}; p.y = {data['table']['height']} - {y}; "
                     f"const q = p.matrixTransform(svg.getScreenCTM()); "
                     f"return document.elementFromPoint(q.x, q.y).getAttribute('class'); }})()")
        assert top and "impact" in top
        # ... and each unit it hit has a fire mark of some size, though the fire came from its own position.
        for s in strike:
            size = b.eval(f"(() => {{ const e = document.querySelector('#frame .fire[data-shot=\"{f['shots'].index(s)}\"]'); "
                          "const r = e.getBBox(); return Math.max(r.width, r.height); })()")
            assert size > 1
        assert b.errors() == []


def test_the_header_does_not_give_the_winner_away_before_the_last_frame(issue23, tmp_path):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    g, data = issue23
    page = tmp_path / "replay.html"
    save_html(*_replay(g), page)
    n = len(data["frames"])
    with Chromium() as b:
        b.open(page.as_uri())
        assert b.eval("document.getElementById('result').textContent") == ""
        b.eval(f"window.replay.show({n - 2})")
        assert b.eval("document.getElementById('result').textContent") == ""
        assert "wins" not in b.eval("document.querySelector('header').textContent")
        b.eval(f"window.replay.show({n - 1})")
        assert b.eval("document.getElementById('result').textContent") == data["result"]
