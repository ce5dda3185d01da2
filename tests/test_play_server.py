"""The ``atomic-africa play`` server: 127.0.0.1 only, a token on every request, other origins
refused, illegal decisions refused with no change; and a whole game played by clicking in a real
headless Chromium, the odds seen before each fire choice, then the replay page."""
from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from pathlib import Path

import pytest

from atomic_africa.game import Game
from atomic_africa.play import PlaySession
from atomic_africa.play.server import HOST, MAX_BODY, PlayServer
from atomic_africa.replay.html import render_html, replay_data

from support.headless_chromium import CHROMIUM, INSTALL_HINT, Chromium

SMALL = str(Path(__file__).parent / "support" / "play_small.toml")
ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture
def served(tmp_path):
    session = PlaySession.new(SMALL, 0, "human,random", save=tmp_path / "game.json")
    server = PlayServer(session, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(10)


def request(server, method, path, body=None, token=True, headers=None, host=None):
    """(status, headers, body bytes) of one request; ``token`` True adds the right one to the query."""
    if token is True:
        token = server.token
    if token:
        path += ("&" if "?" in path else "?") + urllib.parse.urlencode({"token": token})
    conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", f"{HOST}:{server.port}" if host is None else host)
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            conn.putheader("Content-Type", (headers or {}).pop("Content-Type", "application/json"))
            conn.putheader("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders(data)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def state(server):
    status, _, body = request(server, "GET", "/api/state")
    assert status == 200
    return json.loads(body)


def test_served_on_127_0_0_1_only_with_a_random_token(served):
    assert served.server_address[0] == "127.0.0.1" and served.port > 0
    assert served.url == f"http://127.0.0.1:{served.port}/?token={served.token}"
    assert len(served.token) >= 40
    other = PlayServer(served.session, 0)
    try:
        assert other.token != served.token and other.port != served.port
    finally:
        other.server_close()
    with pytest.raises(ValueError, match="port: expected an integer 0..65535"):
        PlayServer(served.session, 70000)


@pytest.mark.parametrize("path", ["/", "/api/state", "/replay.html", "/game.json", "/nothing"])
def test_every_request_needs_the_token(served, path):
    for token in (None, "", "wrong", served.token[:-1], served.token + "x"):
        status, headers, body = request(served, "GET", path, token=token)
        assert status == 403 and b"token" in body
        assert b"Blue" not in body and b"Rifles" not in body      # nothing of the game
    status, _, _ = request(served, "GET", path)
    assert status in (200, 404, 409)
    # The header works as the query parameter does.
    assert request(served, "GET", "/api/state", token=None, headers={"X-Play-Token": served.token})[0] == 200
    assert request(served, "POST", "/api/act", {"action": 0}, token=None)[0] == 403


@pytest.mark.parametrize("host", ["evil.example", f"evil.example:{0}", "127.0.0.1", "127.0.0.1:1", "[::1]:{port}",
                                  "0.0.0.0:{port}", ""])
def test_a_wrong_host_header_is_refused(served, host):
    # A site that rebinds its DNS name to 127.0.0.1 sends its own name as Host: refused, token or not.
    host = host.format(port=served.port)
    status, _, body = request(served, "GET", "/api/state", host=host)
    assert status == 403 and b"wrong Host" in body
    for ok in (f"127.0.0.1:{served.port}", f"localhost:{served.port}"):
        assert request(served, "GET", "/api/state", host=ok)[0] == 200


def test_other_origins_and_cross_site_posts_are_refused_with_no_change(served):
    before = served.session.game.state_hash()
    a = served.session.game.legal_actions()[0]
    step = len(served.session.game.history)
    for headers in ({"Origin": "http://evil.example"}, {"Origin": f"http://127.0.0.1:{served.port + 1}"},
                    {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
        status, _, body = request(served, "POST", "/api/act", {"action": a, "step": step}, headers=dict(headers))
        assert status == 403, headers
        assert served.session.game.state_hash() == before
        assert request(served, "GET", "/api/state", headers=dict(headers))[0] == 403
    # A form post (no JSON content type) cannot be made by another site without a preflight.
    status, _, _ = request(served, "POST", "/api/act", f"action={a}".encode(),
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415 and served.session.game.state_hash() == before
    # No CORS: a preflight is refused and no answer ever carries an Access-Control header.
    status, headers, _ = request(served, "OPTIONS", "/api/act",
                                 headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert status in (403, 405)
    for path in ("/", "/api/state"):
        _, headers, _ = request(served, "GET", path)
        assert not any(k.lower().startswith("access-control") for k in headers)
        assert headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
        assert headers["X-Content-Type-Options"] == "nosniff"
    _, headers, _ = request(served, "GET", "/")
    assert "default-src 'none'" in headers["Content-Security-Policy"] and "frame-ancestors 'none'" in \
        headers["Content-Security-Policy"]
    # Its own origin is welcome.
    status, _, _ = request(served, "POST", "/api/act", {"action": a, "step": step},
                           headers={"Origin": f"http://127.0.0.1:{served.port}", "Sec-Fetch-Site": "same-origin"})
    assert status == 200 and served.session.game.state_hash() != before


def test_an_illegal_decision_is_refused_and_nothing_changes(served, tmp_path):
    session = served.session
    save = Path(session.save_path)
    before, saved = session.game.state_hash(), save.read_bytes()
    legal = set(session.game.legal_actions())
    illegal = next(a for a in range(session.game.num_actions) if a not in legal)
    step = len(session.game.history)
    for body, code in (({"action": illegal, "step": step}, 409), ({"action": min(legal), "step": step + 1}, 409),
                       ({"action": -5}, 409), ({"action": "1"}, 400), ({"action": None}, 400), ({"step": 0}, 400),
                       ([1, 2], 400), (b"{not json", 400), (b"\xff\xfe", 400)):
        status, headers, out = request(served, "POST", "/api/act", body)
        assert status == code, body
        assert headers["Content-Type"].startswith("application/json") and json.loads(out)["error"]
        assert session.game.state_hash() == before and save.read_bytes() == saved
    status, _, _ = request(served, "POST", "/api/act", b"x" * (MAX_BODY + 1))
    assert status == 413
    assert request(served, "POST", "/api/elsewhere", {"action": 0})[0] == 404
    assert request(served, "GET", "/api/state?since=x")[0] == 400
    # The illegal action's message is the engine's.
    _, _, out = request(served, "POST", "/api/act", {"action": illegal, "step": step})
    assert "is illegal in stage ORDERS" in json.loads(out)["error"]


def test_decisions_over_http_are_saved_and_resume_equal(served):
    session = served.session
    for _ in range(5):
        st = state(served)
        c = st["choices"][0]
        status, _, body = request(served, "POST", "/api/act", {"action": c["id"], "step": st["step"],
                                                                "since": st["log_total"]})
        assert status == 200
        new = json.loads(body)
        assert new["step"] > st["step"] and new["log_total"] == st["log_total"] + len(new["log"])
    saved = PlaySession.load(session.save_path, "human,random")
    assert saved.game.state_hash() == session.game.state_hash()
    assert saved.log == session.log
    assert saved.state()["choices"] == state(served)["choices"]


def test_the_replay_page_and_the_saved_game_once_the_game_is_over(served):
    assert request(served, "GET", "/replay.html")[0] == 409
    assert request(served, "GET", "/game.json")[0] == 409
    while not state(served)["over"]:
        st = state(served)
        assert request(served, "POST", "/api/act", {"action": st["choices"][0]["id"], "step": st["step"]})[0] == 200
    g = served.session.game
    status, headers, body = request(served, "GET", "/replay.html")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert body.decode() == render_html(replay_data(g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history))
    status, headers, down = request(served, "GET", "/replay.html?download=1")
    assert down == body and "attachment" in headers["Content-Disposition"]
    status, headers, js = request(served, "GET", "/game.json")
    assert status == 200 and Game.from_json(js.decode()).state_hash() == g.state_hash()


# -- a whole game by clicking, in a real browser ---------------------------------------------------------
def _wait_idle(b):
    b.eval("new Promise(r => { const t0 = Date.now(); const t = () => (window.play && window.play.state && "
           "!window.play.busy) || Date.now() - t0 > 20000 ? r(1) : setTimeout(t, 25); t(); })")


def test_a_whole_game_played_by_clicking_in_headless_chromium(served):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    session = served.session
    fire_seen = 0
    with Chromium() as b:
        b.open(served.url)
        _wait_idle(b)
        assert b.eval("document.getElementById('prompt').textContent").startswith("Blue: ")
        for _ in range(200):
            st = b.eval("window.play.state")
            if st["over"]:
                break
            # What the page offers is what the game allows, one button per legal action in view.
            buttons = b.eval("[...document.querySelectorAll('button.choice')].map(e => "
                             "[Number(e.dataset.action), e.textContent])")
            assert {a for a, _ in buttons} <= set(session.game.legal_actions())
            fire = [c for c in st["choices"] if c["segment"] == "TARGET" and c["odds"] and c["odds"]["kind"] == "fire"]
            if fire:
                # The exact odds are on the button before it is clicked.
                c = fire[0]
                text = dict(buttons)[c["id"]]
                assert f"P(\u22651 wound) {_pct(c['odds']['p_wound'])}" in text, text
                assert f"P(\u22651 marker) {_pct(c['odds']['p_marker'])}" in text
                pick = c["id"]
                fire_seen += 1
                if fire_seen == 1:
                    ARTIFACTS.mkdir(exist_ok=True)
                    b.screenshot(ARTIFACTS / "play_fire_choice.png")
            else:
                pick = buttons[0][0]
            step = st["step"]
            sel = f'button.choice[data-action="{pick}"]'
            b.eval(f"document.querySelector('{sel}').scrollIntoView({{block: 'center'}})")
            b.click(sel)     # a real mouse click
            _wait_idle(b)
            assert b.eval("window.play.state.step") > step
        else:
            raise AssertionError("the game did not end")
        assert fire_seen >= 2
        assert session.game.is_over and b.eval("document.getElementById('result').textContent") == \
            session.result_text()
        # The log beside the board is the battle log.
        assert b.eval("[...document.querySelectorAll('#log div')].map(d => d.textContent)") == session.log
        b.screenshot(ARTIFACTS / "play_game_over.png")
        href = b.eval("document.getElementById('replay-link').href")
        assert href.startswith(f"http://127.0.0.1:{served.port}/replay.html?token=")
        assert b.errors() == []
        # The replay page of the finished game, from the page's own link.
        b.open(href)
        g = session.game
        n = len(replay_data(g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history)["frames"])
        assert b.eval("window.replay.count") == n
        b.eval(f"window.replay.show({n - 1})")
        assert b.eval("document.getElementById('result').textContent")
        assert b.errors() == []
        assert all(u.startswith(f"http://127.0.0.1:{served.port}/") for u in b.requests())


def _pct(p):
    """The page's percentage format."""
    return f"{100 * p:.2g}%" if 0 < p < 0.001 else f"{100 * p:.1f}%"


def test_the_page_refuses_to_work_without_its_token(served):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    with Chromium() as b:
        b.open(f"http://127.0.0.1:{served.port}/")
        assert "token" in b.eval("document.body.textContent")
        assert b.eval("typeof window.play") == "undefined"
