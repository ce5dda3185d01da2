"""The play page's table tools, each driven in a real headless Chromium through real clicks (and a real
drag): undo, the range ruler with line of sight, dragging a move's destination, a new game and a
saved one from the page, the hot-seat handover with the table turned, and the AI's turn played out
step by step at the chosen speed. The server and its checks are tested in ``test_play_server.py``."""
from __future__ import annotations

import math
import re
import time
from pathlib import Path

import pytest

from atomic_africa.fire import band_label, range_band
from atomic_africa.game import Game, los_blocked
from atomic_africa.play import PlaySession

from support.headless_chromium import CHROMIUM, INSTALL_HINT, Chromium
from support.play_serving import CARD, serving

SMALL = str(Path(__file__).parent / "support" / "play_small.toml")
ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(autouse=True)
def _chromium():
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)


def idle(b):
    b.eval("new Promise(r => { const t0 = Date.now(); const t = () => (window.play && window.play.state && "
           "!window.play.busy) || Date.now() - t0 > 30000 ? r(1) : setTimeout(t, 25); t(); })")
    assert not b.eval("window.play.busy"), "the page stayed busy"


def open_page(b, server, speed="instant"):
    b.open(server.url)
    idle(b)
    if speed:
        b.click(f'button.speed[data-speed="{speed}"]')
        assert b.eval(f"document.querySelector('button.speed[data-speed=\"{speed}\"]').getAttribute('aria-pressed')") == "true"


def click_choice(b, action):
    sel = f'button.choice[data-action="{action}"]'
    b.eval(f"document.querySelector('{sel}').scrollIntoView({{block: 'center'}})")
    b.click(sel)
    idle(b)


def pick(choices):
    """The tests' player: fire at the first target with odds, else the first choice."""
    fire = [c for c in choices if c["segment"] == "TARGET" and c["odds"] and c["odds"]["kind"] == "fire"]
    return (fire or choices)[0]


def client(b, x, y):
    """Window pixels of table point (x, y) cm, as the page draws the table now (turned or not)."""
    b.eval(f"(() => {{ const p = window.play.toClient({x}, {y}); window.scrollTo(0, 0); return p; }})()")
    return b.eval(f"window.play.toClient({x}, {y})")


# -- undo ------------------------------------------------------------------------------------------------------
@pytest.mark.slow  # 3-4 s; the engine's undo rule is tested in the fast subset (tests/test_play.py)
def test_undo_by_clicking_takes_back_a_decision_and_never_one_that_rolled_or_drew(tmp_path):
    session = PlaySession.new(SMALL, 0, "human,greedy", save=tmp_path / "g.json")
    with serving(session) as server, Chromium() as b:
        open_page(b, server)
        assert b.eval("document.getElementById('undo-btn').disabled")
        taken_back = refused = 0
        for _ in range(200):
            st = b.eval("window.play.state")
            if st["over"]:
                break
            before = (session.game.state_hash(), list(session.log), st["step"])
            n = len(session.game.events)
            click_choice(b, pick(st["choices"])["id"])
            st = b.eval("window.play.state")
            since = session.game.events[n:]
            disabled = b.eval("document.getElementById('undo-btn').disabled")
            if any(e["type"] in ("roll", "draw", "shuffle", "reshuffle") for e in since) or st["over"]:
                assert st["undo"] == 0 and disabled        # never across a die or a card drawn
                refused += 1
            elif st["undo"] and taken_back < 3:
                assert not disabled and b.eval("document.getElementById('undo-btn').textContent") == f"Undo ({st['undo']})"
                b.click("#undo-btn")
                idle(b)
                assert (session.game.state_hash(), session.log, b.eval("window.play.state.step")) == before
                assert b.eval("[...document.querySelectorAll('#log div')].map(d => d.textContent)") == session.log
                taken_back += 1
        assert session.game.is_over and taken_back == 3 and refused >= 3
        assert b.errors() == []


# -- the ruler -------------------------------------------------------------------------------------------------
def test_the_ruler_by_clicking_two_points_on_a_turned_table_gives_the_engines_band_and_line_of_sight(tmp_path):
    session = PlaySession.new("default", 0, "greedy,human")
    g, sc = session.game, session.scenario
    ys = [sum(u.position[1] for u in s.units) / len(s.units) for s in sc.sides]
    blocking = next(t for t in sc.terrain if t.blocks_los and t.shape == "polygon")
    xs, yb = [p[0] for p in blocking.points], [p[1] for p in blocking.points]
    cy = (min(yb) + max(yb)) / 2
    pairs = [((max(1.0, min(xs) - 8), cy), (min(sc.width_cm - 1, max(xs) + 8), cy))]
    clear = next((a, b) for a, b in (((5.0, 5.0), (25.0, 12.0)), ((5.0, sc.height_cm - 5), (30.0, sc.height_cm - 9)),
                                     ((sc.width_cm - 5, 5.0), (sc.width_cm - 30, 10.0)))
                 if not los_blocked([a[0]], [a[1]], [b[0]], [b[1]], g.terrain)[0])
    pairs.append(clear)
    with serving(session) as server, Chromium() as b:
        open_page(b, server)
        st = b.eval("window.play.state")
        assert st["turned"] == (ys[1] > ys[0])      # Red's person sees the table from Red's edge
        assert b.eval("document.getElementById('turn').getAttribute('transform') || ''").startswith(
            "rotate(180" if st["turned"] else "")
        b.click("#ruler-btn")
        assert b.eval("document.getElementById('ruler-btn').getAttribute('aria-pressed')") == "true"
        for k, (a, c) in enumerate(pairs):
            b.click_at(*client(b, *a))
            b.click_at(*client(b, *c))
            b.eval("new Promise(r => { const t = () => /cm/.test(document.getElementById('ruler-out').textContent) ? r(1) "
                   ": setTimeout(t, 25); t(); })")
            m = b.eval("window.play.ruler.answer")
            assert math.dist(m["from"], a) < 0.25 and math.dist(m["to"], c) < 0.25, (m, a, c)
            d = math.dist(m["from"], m["to"])
            los = not los_blocked([m["from"][0]], [m["from"][1]], [m["to"][0]], [m["to"][1]], g.terrain)[0]
            assert m["band"] == range_band(d, g.rules) and m["los"] == los == (k == 1)
            out = b.eval("document.getElementById('ruler-out').textContent")
            assert out.startswith(f"{d:.1f} cm \u00b7 {band_label(m['band'], g.rules)} \u00b7 line of sight "
                                  f"{'clear' if los else 'blocked'}"), out
            assert b.eval("document.querySelector('#ruler .ruler-line').getAttribute('stroke')") == (
                "#1e7d32" if los else "#8e0000")
            if k == 0:
                ARTIFACTS.mkdir(exist_ok=True)
                b.screenshot(ARTIFACTS / "play_ruler.png")
        # While the ruler is on, a click on the table chooses nothing.
        assert b.eval("window.play.state.step") == st["step"]
        b.click("#ruler-btn")
        assert b.eval("document.querySelectorAll('#ruler *').length") == 0
        assert b.errors() == []


def _nearest(choices, p):
    return min(choices, key=lambda c: math.dist(c["point"], p))


# -- dragging a destination --------------------------------------------------------------------------------------
def test_a_moves_destination_dragged_from_the_unit_snaps_to_the_nearest_legal_one():
    session = PlaySession.new(SMALL, 0, "human,random")
    with serving(session) as server, Chromium() as b:
        open_page(b, server)
        dragged = 0
        for _ in range(300):
            st = b.eval("window.play.state")
            if st["over"] or dragged == 2:
                break
            dests = [c for c in st["choices"] if c["segment"] in ("MOVE", "STAY") and c["point"]]
            if not dests:
                click_choice(b, pick(st["choices"])["id"])
                continue
            u = next(r for r in st["frame"]["units"] if r[0] == st["actor"])
            far = max(dests, key=lambda c: math.dist(c["point"], u[4:6]))
            end = (far["point"][0] + 0.4, far["point"][1] - 0.3)
            mid = ((u[4] + end[0]) / 2, (u[5] + end[1]) / 2)
            # A press and release on the unit without moving chooses nothing.
            b.click_at(*client(b, u[4], u[5]))
            assert b.eval("window.play.state.step") == st["step"] and not b.eval("window.play.busy")
            start, half, stop = client(b, u[4], u[5]), client(b, *mid), client(b, *end)
            b.mouse("mouseMoved", *start)
            b.mouse("mousePressed", *start, buttons=1)
            b.mouse("mouseMoved", *half, buttons=1)
            ghost = b.eval("(() => { const g = document.querySelector('.ghost-dest'); "
                           "return [Number(g.getAttribute('cx')), Number(g.getAttribute('cy'))]; })()")
            want = _nearest(dests, mid)["point"]
            assert ghost == pytest.approx([want[0], st["board"]["table"]["height"] - want[1]], abs=1e-6)
            b.mouse("mouseMoved", *stop, buttons=1)
            b.mouse("mouseReleased", *stop)
            idle(b)
            assert session.game.history[st["step"]] == _nearest(dests, end)["id"] == far["id"]
            dragged += 1
        assert dragged == 2
        assert b.errors() == []


# -- a new game and a saved one ----------------------------------------------------------------------------------
def test_a_new_game_and_a_saved_game_started_from_the_page(tmp_path):
    save = tmp_path / "game.json"
    session = PlaySession.new(SMALL, 0, "human,random", save=save)
    session.act(pick(session.choices())["id"])
    first, first_hash = save.read_bytes(), session.game.state_hash()
    with serving(session) as server, Chromium() as b:
        open_page(b, server)
        b.click("#new-btn")
        assert not b.eval("document.getElementById('newgame').hidden")
        assert str(save) in b.eval("document.getElementById('ng-note').textContent")
        b.click('#ng-scenario button[data-value="meeting_engagement"]')
        b.click('#ng-side button[data-value="1"]')
        b.click('#ng-level button[data-value="hard"]')
        assert b.eval("[...document.querySelectorAll('#ng-level button')].map(e => e.textContent)") == [
            "easy AI", "normal AI", "hard AI", "expert AI", "a second person, at this screen"]
        b.click("#ng-seed")
        b.type_text("12")
        b.click("#ng-start")
        idle(b)
        new = server.session
        assert new is not session and new.players == ["hard", "human"] and new.game.seed == 12
        assert new.scenario.name == Game("meeting_engagement", 0).scenario.name
        st = b.eval("window.play.state")
        assert st["game"] == 1 and st["players"][0].endswith("(hard AI)") and st["view"] == 1
        assert b.eval("document.getElementById('title').textContent") == new.scenario.name
        assert b.eval("[...document.querySelectorAll('#log div')].map(d => d.textContent)") == new.log
        assert save.read_bytes() == first and (tmp_path / "game-2.json").exists()
        # The first game back from its file, two people at the screen this time.
        b.click("#new-btn")
        b.set_files("#ng-file", [save])
        b.click('#ng-side button[data-value="0"]')
        b.click('#ng-level button[data-value="human"]')
        b.click("#ng-load")
        idle(b)
        assert b.eval("document.getElementById('error').hidden"), b.eval("document.getElementById('error').textContent")
        assert server.session.game.state_hash() == first_hash and server.session.players == ["human", "human"]
        assert server.session.save_path == str(tmp_path / "game-3.json")
        assert not b.eval("document.getElementById('handover').hidden")
        assert b.eval("[...document.querySelectorAll('#log div')].map(d => d.textContent)") == server.session.log
        assert b.errors() == []


# -- two people at one screen --------------------------------------------------------------------------------------
def test_the_hot_seat_handover_hides_both_hands_and_turns_the_table_for_the_side_to_move():
    session = PlaySession.new(SMALL, 1, "human,human")
    with serving(session) as server, Chromium() as b:
        open_page(b, server, speed=None)    # no AI: nothing to play out; the handover screen covers all
        handed = {0: 0, 1: 0}
        for _ in range(300):
            st = b.eval("window.play.state")
            if st["over"] or min(handed.values()) >= 2:
                break
            if st["handover"] is not None:
                p = st["handover"]["to"]
                assert not b.eval("document.getElementById('handover').hidden")
                assert b.eval("document.body.classList.contains('handing')")
                # Nothing of either side's own on the page: no hand, no face-down card, no choice.
                forces = b.eval("document.getElementById('forces').textContent")
                assert not CARD.search(b.eval("document.getElementById('forces').textContent") +
                                        b.eval("document.getElementById('choices').textContent")), forces
                assert len(re.findall(r"Reserve: \d+ cards?", forces)) == 2
                assert st["handover"]["label"] in b.eval("document.getElementById('handover-btn').textContent")
                b.click("#handover-btn")
                idle(b)
                handed[p] += 1
                st = b.eval("window.play.state")
                assert st["view"] == p and b.eval("document.getElementById('handover').hidden")
                turn = b.eval("document.getElementById('turn').getAttribute('transform') || ''")
                assert turn.startswith("rotate(180") == (p == 1) == st["turned"]
                labels = b.eval("[...document.querySelectorAll('#turn text.ulabel')].map(t => t.getAttribute('transform'))")
                assert labels and all(("rotate(180" in t) == (p == 1) for t in labels)
                if p == 1 and handed[1] == 1:
                    ARTIFACTS.mkdir(exist_ok=True)
                    b.screenshot(ARTIFACTS / "play_hotseat_turned.png")
                continue
            click_choice(b, pick(st["choices"])["id"])
        assert min(handed.values()) >= 2
        assert b.eval("[...document.querySelectorAll('#log div')].map(d => d.textContent)") == session.log
        assert b.errors() == []


# -- the AI's turn, step by step -------------------------------------------------------------------------------------
@pytest.mark.slow   # plays the AI's turns back in real time at the slow speed (about 20 s of waiting)
def test_the_ais_turn_is_played_out_line_by_line_at_the_chosen_speed():
    session = PlaySession.new(SMALL, 0, "human,greedy")
    with serving(session) as server, Chromium() as b:
        open_page(b, server, speed="slow")
        watched = skipped = 0
        lines_seen = []
        for _ in range(300):
            st = b.eval("window.play.state")
            if st["over"] or (watched and skipped):
                break
            shown = len(b.eval("window.play.playback.shown"))
            sel = f'button.choice[data-action="{pick(st["choices"])["id"]}"]'
            b.eval(f"document.querySelector('{sel}').scrollIntoView({{block: 'center'}})")
            b.click(sel)
            # Watch it play: the lines appear one by one, in order.
            counts, t0 = [], time.monotonic()
            while time.monotonic() - t0 < 60:
                n, playing, busy = b.eval("[window.play.playback.shown.length, window.play.playback.playing, window.play.busy]")
                if playing:
                    counts.append(n - shown)
                    if watched and len(set(counts)) >= 2 and not skipped:
                        b.click("#pb-skip")    # the rest at once
                        skipped += 1
                if not busy:
                    break
                time.sleep(0.03)
            st = b.eval("window.play.state")
            steps = st["playback"]["steps"]
            lines = [line for s in steps for line in s["lines"]]
            if not steps:
                continue
            assert len(b.eval("window.play.playback.shown")) - shown == len(lines)
            assert b.eval("[...document.querySelectorAll('#pb-lines div')].map(d => d.textContent)") == lines
            assert b.eval("window.play.playback.shown").__getitem__(slice(shown, None)) == [
                [s["step"], k] for s in steps for k in range(len(s["lines"]))]
            if len(lines) >= 3 and not watched:
                # Slow: every line was on its own for a while (seen while the page played).
                assert sorted(set(counts)) == list(range(1, len(lines) + 1)), counts
                watched += 1
            lines_seen += lines
        assert watched and skipped
        # The turn as it happened: cards turned up, dice, results.
        assert any(re.search(r"(activates|reacts) with the ", line) for line in lines_seen)
        assert any(re.search(r" rolls d\d+ ", line) for line in lines_seen)
        assert any(re.search(r"(markers?|wounds?|no effect)", line) for line in lines_seen)
        assert b.errors() == []
