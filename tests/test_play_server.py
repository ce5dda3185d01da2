"""The ``atomic-africa play`` server: 127.0.0.1 only, a token on every request, other origins
refused, illegal decisions refused with no change; and a whole game played by clicking in a real
headless Chromium, the odds seen before each fire choice, then the replay page."""
from __future__ import annotations

import http.client
import json
import math
import random
import re
import socket
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from atomic_africa.fire import band_label, range_band
from atomic_africa.game import Game, los_blocked
from atomic_africa.play import PlaySession
from atomic_africa.play.server import HOST, MAX_BODY, MAX_HEAD, MAX_JSON_DEPTH, MAX_LOAD_BODY, PlayServer
from atomic_africa.replay.html import render_html, replay_data
from atomic_africa.replay.narrate import Narrator, card_words

from support.headless_chromium import CHROMIUM, INSTALL_HINT, Chromium
from support.play_serving import CARD, serving

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


@pytest.mark.parametrize("path", ["/", "/api/state", "/replay.html", "/game.json", "/nothing",
                                  "/api/measure?from=1,1&to=20,20"])
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
    # Every route that changes the game: refused without the token, or from another origin, the game as it was.
    ok = Unchanged(served)
    for route, body in _refused_posts(0).items():
        good = dict(body, game=0, step=len(served.session.game.history), scenario="default", level="easy")
        for token, headers in ((None, {}), ("wrong", {}), (True, {"Origin": "http://evil.example"}),
                               (True, {"Sec-Fetch-Site": "cross-site"})):
            status, _, out = request(served, "POST", route, good, token=token, headers=dict(headers))
            assert status == 403 and b"Blue" not in out, (route, token, headers)
            ok.check(route)


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


# -- nothing hidden on a person's screen ---------------------------------------------------------------------
def post(server, path, body):
    status, _, out = request(server, "POST", path, body)
    return status, json.loads(out)


# The events that turn a card face up at the table.
_SHOWN = ("activate", "react", "reserve_card", "confused", "confused_draw")


def hidden_cards(game, p) -> set:
    """The cards of side p the other side may not see now (the engine's truth): its Reserve and its
    face-down order cards, in words."""
    name = lambda c: card_words(game.deck.name(c))   # noqa: E731
    return ({name(c) for c in game.s.players[p].hand}
            | {name(u.card) for u in game.units if u.alive and u.side == p and u.card >= 0 and not u.revealed})


def leaks(lines, game, sides, events) -> list:
    """The lines that name a card of one of ``sides`` hidden now (:func:`hidden_cards`) that the
    table has not seen (turned face up by ``events``, or face up on its units now). A card is the
    side's named last before it in the line ("Red draws 2 cards: ...", "Blue HQ (3 of Clubs) fires at
    Red ..."): both sides' decks hold the same cards."""
    names = [s.name for s in game.scenario.sides]
    found = []
    for p in sides:
        seen = {card_words(e["card"]) for e in events if e["type"] in _SHOWN and e["player"] == p}
        seen |= {card_words(game.deck.name(u.card)) for u in game.units if u.alive and u.side == p and u.revealed}
        secret = hidden_cards(game, p) - seen
        for line in lines:
            for m in CARD.finditer(line):
                before = line[:m.start()]
                owner = max(range(2), key=lambda q: before.rfind(names[q]))
                if before.rfind(names[owner]) >= 0 and owner == p and m.group(0) in secret:
                    found.append(line)
    return found


def walk(server, pick, rounds=400):
    """Play the served game to its end through /api/state and /api/act (handing the screen over when
    asked), checking every answer: the log's new lines, the playback's lines, the forces and the table
    name no card the side(s) the screen is not shown to hold hidden. Returns the answers checked."""
    session = server.session
    checked, since, mark = 0, 0, 0
    for _ in range(rounds):
        st = state_since(server, since)
        g = session.game
        events = g.events[mark:]
        viewer = st["view"]
        hotseat = st["hotseat"]
        # With two people the log is what both may see: neither side's hidden cards; else the other side's.
        log_sides = (0, 1) if hotseat else (1 - viewer,)
        lines = st["log"] + [line for step in st["playback"]["steps"] for line in step["lines"]]
        assert leaks(lines, g, log_sides, events) == [], (st["step"], lines)
        assert not CARD.search(json.dumps([st["frame"], st["board"]]))
        if not st["over"]:
            for p, side in enumerate(st["forces"]):
                mine = p == viewer
                assert (side["hand"] is not None) == mine
                for row in side["units"]:
                    u = g.units[row["uid"]]
                    assert (row["card"] is not None) == (u.card >= 0 and (mine or u.revealed)), (p, row)
            if st["handover"] is not None:
                assert viewer == -1 and not st["choices"] and not CARD.search(st["prompt"])
        checked += 1
        since, mark = st["log_total"], len(g.events)
        if st["over"]:
            return checked
        if st["handover"] is not None:
            status, st = post(server, "/api/handover", {"player": st["handover"]["to"], "step": st["step"],
                                                        "game": st["game"], "since": since})
            assert status == 200, st
            continue
        status, _ = post(server, "/api/act", {"action": pick(st["choices"])["id"], "step": st["step"], "game": st["game"],
                                             "since": since})
        assert status == 200
    raise AssertionError("the game did not end")


def state_since(server, since):
    status, _, body = request(server, "GET", f"/api/state?since={since}")
    assert status == 200
    return json.loads(body)


# The two longest games (2-4 s each) are left to the full suite to keep the fast subset under 2 minutes.
@pytest.mark.parametrize("scenario,seed,players", [
    (SMALL, 0, "human,greedy"), ("default", 3, "human,hard"),
    pytest.param("meeting_engagement", 1, "easy,human", marks=pytest.mark.slow), (SMALL, 2, "human,human"),
    pytest.param("default", 4, "human,human", marks=pytest.mark.slow)])
def test_no_state_answer_and_no_verbose_log_line_shows_a_hidden_card_of_the_other_side(scenario, seed, players):
    session = PlaySession.new(scenario, seed, players, verbose=True, search={"simulations": 40})
    rng = random.Random(seed)
    with serving(session) as server:
        checked = walk(server, lambda choices: rng.choice(choices))
    assert checked >= 10
    g = session.game
    # Nor the seed, which replays every draw: the title line says the sides and the turns.
    assert session.log[0].endswith(f"{g.scenario.turns} turns") and f"seed {g.seed}" not in session.log[0]
    # The log told each draw: the person's own by name, the other side's face down (two people: both).
    draws = [line for line in session.log if re.match(r"  \w+ draws \d+ cards?", line)]
    people = [p for p, who in enumerate(session.players) if who == "human"]
    for p, side in enumerate(g.scenario.sides):
        mine = [line for line in draws if line.startswith(f"  {side.name} draws")]
        assert mine and all(line.endswith("(face down)") != (p in people and len(people) == 1) for line in mine)
    # The check finds what the full log tells: every draw of both sides, named.
    full = Narrator(Game(g.scenario, g.seed, g.rules), verbose=True)
    replayed = Game(g.scenario, g.seed, g.rules)
    told = full.feed(replayed.events, replayed.units)
    found = 0
    for a in g.history:
        n = len(replayed.events)
        replayed.apply(a)
        lines = full.feed(replayed.events[n:], replayed.units)
        told += lines
        found += len(leaks(lines, replayed, (0, 1) if len(people) == 2 else (1 - people[0],), replayed.events[n:]))
    assert found >= 2 and any(re.search(r"draws \d+ cards?: ", line) for line in told)


# -- the new endpoints: measure, undo, handover, new game, load -------------------------------------------------
def test_measure_answers_the_engines_range_band_and_line_of_sight(tmp_path):
    session = PlaySession.new("default", 0, "human,greedy")
    g = session.game
    sc = g.scenario
    blocking = next(t for t in sc.terrain if t.blocks_los and t.shape == "polygon")
    xs, ys = [p[0] for p in blocking.points], [p[1] for p in blocking.points]
    cy = (min(ys) + max(ys)) / 2
    across = ([max(0.0, min(xs) - 8), cy], [min(sc.width_cm, max(xs) + 8), cy])
    with serving(session) as server:
        answers = []
        for a, b in (across, ([1, 1], [1.5, 1.2]), ([0, 0], [sc.width_cm, sc.height_cm]), ([10, 20.5], [60.25, 33])):
            status, _, body = request(server, "GET", f"/api/measure?from={a[0]},{a[1]}&to={b[0]},{b[1]}")
            assert status == 200, body
            m = json.loads(body)
            d = math.hypot(b[0] - a[0], b[1] - a[1])
            assert m["distance_cm"] == round(d, 2) and m["band"] == range_band(d, g.rules)
            assert m["band_words"] == band_label(m["band"], g.rules)
            assert m["los"] == (not los_blocked([a[0]], [a[1]], [b[0]], [b[1]], g.terrain)[0])
            assert m["fire_needs_los"] == g.rules.orders.fire_needs_los
            answers.append(m)
        assert not answers[0]["los"] and answers[1]["los"]
        for query, field in (("from=1,2", "to"), ("to=1,2", "from"), ("from=x,2&to=1,2", "from"),
                             ("from=1,2&to=1", "to"), ("from=1,2&to=nan,1", "to"), ("from=1e3,2&to=1,1", "from"),
                             ("from=-1,2&to=1,1", "from"), (f"from=1,2&to=1,{sc.height_cm + 0.5}", "to"),
                             ("from=1,2&to=" + "9" * 5000 + ",1", "to"), ("from=%C2%B2,1&to=1,1", "from")):
            status, headers, body = request(server, "GET", f"/api/measure?{query}")
            assert status == 400 and json.loads(body)["error"].startswith(f"{field}: expected a point"), (query, body)
        assert request(server, "GET", "/api/measure?from=1,1&to=2,2", token=None)[0] == 403


def test_undo_and_handover_over_http_refuse_bad_and_stale_requests(tmp_path):
    session = PlaySession.new(SMALL, 0, "human,human", save=tmp_path / "h.json")
    with serving(server_session := session) as server:
        st = state(server)
        assert st["handover"] == {"to": 0, "label": "Blue (player 1)"} and not st["choices"]
        ok = Unchanged(server)
        for path, body, code in (
                ("/api/act", {"action": 0, "step": 0, "game": 0}, 409),           # the screen is not taken
                ("/api/undo", {"step": 0, "game": 0}, 409),
                ("/api/handover", {"player": 1, "step": 0, "game": 0}, 409),     # not Red's turn
                ("/api/handover", {"player": 0, "step": 5, "game": 0}, 409),     # stale
                ("/api/handover", {"player": 0, "step": 0, "game": 1}, 409),     # another game
                ("/api/handover", {"player": 2, "step": 0, "game": 0}, 400),
                ("/api/handover", {"player": True, "step": 0, "game": 0}, 400),
                ("/api/handover", {"player": 0.0, "step": 0, "game": 0}, 400),
                ("/api/handover", {"player": 0, "step": 0}, 400),
                ("/api/handover", {"player": 0, "step": 0, "game": "0"}, 400),
                ("/api/undo", {"step": 0}, 400), ("/api/undo", {"game": 0}, 400), ("/api/undo", [0], 400)):
            status, out = post(server, path, body)
            assert status == code and out["error"], (path, body, out)
            ok.check((path, body))
        assert post(server, "/api/handover", {"player": 0, "step": 0, "game": 0})[0] == 200
        st = state(server)
        assert st["view"] == 0 and st["choices"] and st["undo"] == 0 and not st["turned"]
        assert post(server, "/api/act", {"action": st["choices"][0]["id"], "step": 0, "game": 0})[0] == 200
        st = state(server)
        assert st["undo"] == 1
        assert post(server, "/api/undo", {"step": st["step"] - 1, "game": 0})[0] == 409
        status, st = post(server, "/api/undo", {"step": st["step"], "game": 0})
        assert status == 200 and st["step"] == 0 and st["undo"] == 0
        assert server_session.game.history == []


def test_a_new_game_and_a_saved_one_from_the_page_replace_the_game_and_keep_its_file(tmp_path):
    save = tmp_path / "game.json"
    session = PlaySession.new(SMALL, 0, "human,random", save=save)
    session.act(session.choices()[0]["id"])
    with serving(session) as server:
        first = save.read_bytes()
        ok = Unchanged(server)
        for path, body, code, field in (
                ("/api/new", {"scenario": "nowhere", "game": 0}, 400, "scenario"),
                ("/api/new", {"scenario": "../../etc/passwd", "game": 0}, 400, "scenario"),
                ("/api/new", {"scenario": SMALL, "game": 0}, 400, "scenario"),     # a path: packaged names only
                ("/api/new", {"scenario": "default", "side": 2, "game": 0}, 400, "side"),
                ("/api/new", {"scenario": "default", "side": 1.0, "game": 0}, 400, "side"),
                ("/api/new", {"scenario": "default", "level": "godlike", "game": 0}, 400, "level"),
                ("/api/new", {"scenario": "default", "seed": -1, "game": 0}, 400, "seed"),
                ("/api/new", {"scenario": "default", "seed": "3", "game": 0}, 400, "seed"),
                ("/api/new", {"scenario": "default", "game": 7}, 409, "game"),
                ("/api/new", {"scenario": "default"}, 400, "expected"),
                ("/api/load", {"saved": "{}", "game": 0}, 400, "saved"),
                ("/api/load", {"saved": 5, "game": 0}, 400, "saved"),
                ("/api/load", {"saved": "[" * 100, "game": 0}, 400, "saved"),
                ("/api/load", {"saved": Game(SMALL, 1).to_json(), "game": 3}, 409, "game"),
                ("/api/load", {"game": 0}, 400, "expected")):
            status, out = post(server, path, body)
            assert status == code and out["error"].startswith(field), (body, out)
            ok.check((path, body))
        assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
        status, _, _ = request(server, "POST", "/api/load", b"x" * (MAX_LOAD_BODY + 1))
        assert status == 413
        # A new game: the packaged meeting engagement, you as Red against the hard AI.
        status, st = post(server, "/api/new", {"scenario": "meeting_engagement", "side": 1, "level": "hard",
                                               "seed": 11, "game": 0})
        assert status == 200 and st["game"] == 1 and st["step"] >= 0
        new = server.session
        assert new is not session and new.players == ["hard", "human"] and new.game.seed == 11
        assert new.scenario.name == Game("meeting_engagement", 0).scenario.name
        assert st["players"][0].endswith("(hard AI)") and st["view"] == 1 and st["log_total"] == len(st["log"])
        assert new.save_path == str(tmp_path / "game-2.json") and save.read_bytes() == first
        assert Game.from_json((tmp_path / "game-2.json").read_text()).state_hash() == new.game.state_hash()
        # The old tab's decisions no longer land.
        assert post(server, "/api/act", {"action": st["choices"][0]["id"], "step": st["step"], "game": 0})[0] == 409
        # The first game loaded back, two people at the screen.
        status, st = post(server, "/api/load", {"saved": first.decode(), "side": 0, "level": "human", "game": 1})
        assert status == 200 and st["game"] == 2 and st["handover"] == {"to": 0, "label": "Blue (player 1)"}
        assert server.session.game.state_hash() == session.game.state_hash()
        assert server.session.save_path == str(tmp_path / "game-3.json")
        # A new game of the scenario on the table, its seed drawn at random.
        status, st = post(server, "/api/new", {"scenario": "current", "game": 2})
        assert status == 200 and server.session.scenario.name == session.scenario.name
        assert st["players"] == ["Blue (you)", "Red (normal AI)"]


# -- malformed requests: a 4xx answer or a closed connection, never a traceback, the game unchanged ------
def raw(server, data: bytes, timeout=15.0) -> bytes:
    """All the server answers to ``data`` sent on a fresh connection then half-closed (so it never
    waits for more); a reset before the answer is read gives what had arrived."""
    got = b""
    with socket.create_connection((HOST, server.port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass   # the server answered and hung up before taking it all
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except ConnectionResetError:
            pass
    return got


def status_of(answer: bytes):
    """The status of the final answer (after any ``100 Continue``), None if there was none."""
    while answer:
        line = answer.split(b"\r\n", 1)[0].split()
        assert len(line) >= 2 and line[0] in (b"HTTP/1.0", b"HTTP/1.1"), answer[:80]
        if line[1] != b"100":
            return int(line[1])
        answer = answer.split(b"\r\n\r\n", 1)[1]
    return None


def head(server, method, target, headers=(), host=True):
    lines = [f"{method} {target} HTTP/1.1".encode()]
    if host:
        lines.append(f"Host: {HOST}:{server.port}".encode())
    lines += [h.encode("latin-1" if max(h, default=" ") <= "\xff" else "utf-8") for h in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def act_request(server, body: bytes, length=None, token=True):
    target = f"/api/act?token={server.token}" if token else "/api/act"
    return head(server, "POST", target, ["Content-Type: application/json",
                                         f"Content-Length: {len(body) if length is None else length}"]) + body


class Unchanged:
    """After each malformed request: the game and its save file as they were, and the next good
    request answered."""

    def __init__(self, server):
        self.server = server
        self.session = server.session
        self.hash = server.session.game.state_hash()
        self.saved = Path(server.session.save_path).read_bytes()
        self.files = sorted(Path(server.session.save_path).parent.iterdir())

    def check(self, why=""):
        assert self.server.session is self.session, why          # no new or loaded game
        assert self.server.session.game.state_hash() == self.hash, why
        assert sorted(Path(self.session.save_path).parent.iterdir()) == self.files, why
        assert Path(self.server.session.save_path).read_bytes() == self.saved, why
        assert request(self.server, "GET", "/api/state?since=1000")[0] == 200, why


def test_the_requests_found_from_outside_get_400_and_no_traceback(served, capfd):
    ok = Unchanged(served)
    deep = b"[" * 100_000 + b"]" * 100_000
    for data, code in (
            (act_request(served, deep[:MAX_BODY // 2] + deep[-(MAX_BODY // 2):]), 400),   # a RecursionError before
            (act_request(served, b'{"action": ' + b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1) + b"}"), 400),
            (act_request(served, deep), 413),
            (act_request(served, b'{"action": 1}', length="\u00b9\u00b3"), 400),   # "¹³": isdigit, not int
            (act_request(served, b'{"action": 1}', length="\u0661\u0663", token=False), 400),   # Arabic-Indic
            (act_request(served, b'{"action": 1}', length="13, 13"), 400),
            (act_request(served, b'{"action": 1}', length="-13"), 400),
            (act_request(served, b'{"action": 1}', length="1" * 40), 400),
            (head(served, "GET", f"/api/state?since=%C2%B2&token={served.token}"), 400),   # "²"
            (head(served, "GET", f"/api/state?since={'9' * 5000}&token={served.token}"), 400),   # over int()'s 4300
            (head(served, "GET", f"/api/state?since=%D9%A1&token={served.token}"), 400),
            (head(served, "GET", f"/api/state?since=-1&token={served.token}"), 400),
            (head(served, "GET", "/api/state?since=%C2%B2"), 403)):
        answer = raw(served, data)
        assert status_of(answer) == code, (data[:120], answer[:200])
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
        ok.check(data[:120])
    # Nothing a body holds makes the nesting check slow (a regular expression for strings did: an
    # unterminated one full of escaped quotes took minutes).
    for body in (b'{"action": "' + b'\\"' * (MAX_BODY // 2 - 10), b'["' * (MAX_BODY // 2), b"[]" * (MAX_BODY // 2)):
        t0 = time.monotonic()
        assert status_of(raw(served, act_request(served, body))) == 400
        assert time.monotonic() - t0 < 5
    ok.check()
    # A JSON string may hold any number of brackets: only nesting counts.
    a = served.session.game.legal_actions()[0]
    body = json.dumps({"action": a, "step": len(served.session.game.history), "note": "[" * 1000}).encode()
    assert status_of(raw(served, act_request(served, body))) == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err and err == ""


def test_the_head_is_capped(served, capfd):
    ok = Unchanged(served)
    big = [f"X-Pad-{i}: {'a' * 1000}" for i in range(MAX_HEAD // 1000 + 1)]
    assert status_of(raw(served, head(served, "GET", f"/api/state?token={served.token}", big))) == 431
    assert status_of(raw(served, head(served, "GET", "/?" + "a" * MAX_HEAD))) == 414
    assert status_of(raw(served, head(served, "GET", "/", [f"X-{i}: 1" for i in range(120)]))) == 431
    ok.check()
    # A browser's head, cookies of other local servers and all, is well within the cap.
    cookies = "; ".join(f"c{i}={'v' * 100}" for i in range(40))
    assert request(served, "GET", "/api/state", headers={"Cookie": cookies})[0] == 200
    assert capfd.readouterr().err == ""


@pytest.mark.slow  # waits out the read timeout (4 s)
def test_a_half_sent_request_is_dropped_at_the_read_timeout(served, capfd):
    served.read_timeout, served.idle_timeout = 0.5, 1.0
    ok = Unchanged(served)

    def closed_after(parts, pause=0.0):
        """Seconds until the server closes a connection sent ``parts`` (``pause`` apart), never half-closed."""
        t0 = time.monotonic()
        with socket.create_connection((HOST, served.port), timeout=10) as sock:
            try:
                for part in parts:
                    sock.sendall(part)
                    time.sleep(pause)
                assert sock.recv(65536) == b""
            except (BrokenPipeError, ConnectionResetError):
                pass
        return time.monotonic() - t0

    with socket.create_connection((HOST, served.port), timeout=10) as pending:   # holds up no one else
        pending.sendall(b"POST /api/act HTTP/1.1\r\nHost: x")
        assert request(served, "GET", "/api/state?since=1000")[0] == 200
    assert closed_after([b"GET /api/state HTTP/1.1\r\nHost: x"]) < 3                     # no token
    assert closed_after([b"G", b"E", b"T", b" ", b"/"] * 10, pause=0.1) < 3               # dribbled
    assert closed_after([act_request(served, b'{"action": 1}', length=100)]) < 3         # body short
    assert 0.9 < closed_after([]) < 4                                                     # idle
    ok.check()
    # A kept-alive connection serves several requests, then is closed once idle.
    with socket.create_connection((HOST, served.port), timeout=10) as sock:
        for _ in range(3):
            sock.sendall(head(served, "GET", f"/api/state?since=1000&token={served.token}"))
            answer = b""
            while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < int(
                    answer.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0]):
                answer += sock.recv(65536)
            assert status_of(answer) == 200
        t0 = time.monotonic()
        assert sock.recv(65536) == b"" and time.monotonic() - t0 < 4
    assert capfd.readouterr().err == ""


_NASTY_HEADERS = [
    "Content-Length: \u00b2", "Content-Length: \u0661", "Content-Length: -1", "Content-Length: 0x10",
    "Content-Length: 99999999999999999999", "Content-Length: 1e3", "Content-Length: 5", "Content-Length:",
    "Transfer-Encoding: chunked", "Transfer-Encoding: identity", "Expect: 100-continue", "Connection: keep-alive",
    "Host: evil.example", "Host: localhost:1", "Origin: null", "Sec-Fetch-Site: cross-site",
    "Content-Type: text/plain", "Content-Type: application/json; charset=\u00ff", "X-Play-Token: \u00e9",
    "\u00ff\u00fe: \u00ff", ": no name", "no colon", " folded continuation", "X-Long: " + "b" * 70_000,
]
_NASTY_TARGETS = [
    "/api/state?since=\u00b2", "/api/state?since=%C2%B2", "/api/state?since=" + "9" * 5000, "/api/state?since=",
    "/api/state?since=1.5", "/api/state?since=%00", "/%", "/%%%", "/?token=%ff%fe", "*", "http://[::1/", "//[/",
    "/api/act", "/api/state?" + "&".join(["a=1"] * 2000), "/replay.html", "/game.json?download=1", "/\x00",
    "/api/measure", "/api/measure?from=1,1&to=1e999,1", "/api/measure?from=%C2%B2,1&to=1,1",
    "/api/measure?from=1,1&to=-0.5,3", "/api/measure?from=1,1,1&to=2,2", "/api/measure?from=" + "1" * 5000 + ",1&to=1,1",
    "/api/undo", "/api/handover", "/api/new", "/api/load",
]
_NASTY_BODIES = [
    b"[" * 5000, b"{" * 3000, b'{"action": ' + b"[" * 50 + b"]" * 50 + b"}", b"{not json", b"\xff\xfe\x00",
    b'{"action": 1e400}', b'{"action": NaN}', b'{"action": ' + b"9" * 5000 + b"}", b'{"action": 1, "step": "x"}',
    b'{"action": -1, "since": -5}', b'"\\ud800"', b"[]", b"null", b"", b'{"action": {"a": [1]}}',
]


def post_request(server, path, body: bytes, token=True):
    return head(server, "POST", f"{path}?token={server.token}" if token else path,
                ["Content-Type: application/json", f"Content-Length: {len(body)}"]) + body


def _refused_posts(stale):
    """A body for each POST route that is refused whatever a mutation makes of it: the step and the
    game are stale (and required but for a decision), the scenario and the saved game are none."""
    return {"/api/act": {"action": -7, "step": stale},
            "/api/undo": {"step": stale, "game": stale},
            "/api/handover": {"player": 1, "step": stale, "game": stale},
            "/api/new": {"scenario": "nowhere", "side": 1, "level": "hard", "seed": 5, "game": stale},
            "/api/load": {"saved": '{"format": "nothing"}', "side": 0, "level": "easy", "game": stale}}


def _malformed(rng, server, illegal, stale):
    """One malformed request, or one refused whatever it becomes: its decision is illegal and stale,
    the other POSTs' game stale."""
    decision = json.dumps({"action": illegal, "step": stale}).encode()
    posts = _refused_posts(stale)
    templates = [act_request(server, decision),
                 head(server, "GET", f"/api/state?since=0&token={server.token}"),
                 head(server, "GET", f"/?token={server.token}"),
                 head(server, "GET", f"/api/measure?from=10.5,20&to=44,31.25&token={server.token}")]
    templates += [post_request(server, path, json.dumps(body).encode()) for path, body in posts.items()]
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 600)))
    if kind == 1:   # a request line of the wrong form
        return rng.choice([b"GET\r\n\r\n", b"GET /\r\n\r\n", b"GET / HTTP/2.0\r\n\r\n", b"GET / HTTP/1.1.1\r\n\r\n",
                           b"GET / HTTP/\xb9.\xb9\r\n\r\n", b"GET / HTTP/0.9\r\n\r\n", b"GET / HTTP/1.1 x\r\n\r\n",
                           b"\r\n\r\n", b" \r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
                           b"BREW /pot HTTP/1.1\r\n\r\n", b"get / HTTP/1.1\r\n\r\n",
                           b"POST /api/act HTTP/1.1\r\nContent-Length: 3\r\n\r\n{}"]) + rng.choice([b"", b"x" * 50])
    if kind == 2:
        headers = rng.sample(_NASTY_HEADERS, rng.randrange(1, 4))
        path = rng.choice(list(posts))
        target = f"{path}?token={server.token}" if rng.random() < 0.7 else path
        base = ["Content-Type: application/json"] if rng.random() < 0.8 else []
        body = decision if path == "/api/act" else json.dumps(posts[path]).encode()
        return head(server, rng.choice(["POST", "GET"]), target, base + headers) + rng.choice([body] + _NASTY_BODIES)
    if kind == 3:
        target = rng.choice(_NASTY_TARGETS)
        token = f"&token={server.token}" if rng.random() < 0.5 else ""
        return head(server, rng.choice(["GET", "HEAD", "POST", "OPTIONS", "DELETE"]), target + token,
                    rng.sample(_NASTY_HEADERS, rng.randrange(0, 2)))
    if kind == 4:
        body = rng.choice(_NASTY_BODIES)
        length = rng.choice([None, len(body) + rng.randrange(1, 50), 0])
        path = rng.choice(list(posts))
        return head(server, "POST", f"{path}?token={server.token}",
                    ["Content-Type: application/json", f"Content-Length: {len(body) if length is None else length}"]) + body
    data = bytearray(rng.choice(templates))
    for _ in range(rng.randrange(1, 4)):   # byte-level mutations of a good request
        op, i = rng.randrange(4), rng.randrange(len(data) + 1)
        if op == 0 and i < len(data):
            data[i] = rng.choice([0, 10, 13, 32, 58, 0xb2, 0xff, rng.randrange(256)])
        elif op == 1:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
        elif op == 2:
            del data[i:i + rng.randrange(1, 30)]
        else:
            del data[i:]
    return bytes(data)


def test_a_connection_closed_under_its_thread_at_ctrl_c_prints_nothing(capfd, tmp_path):
    """Ctrl-C landing while socketserver hands an accepted connection to its thread closes that
    socket under the thread (EBADF): no news on the terminal. Any other failure still gets one line."""
    import errno
    from atomic_africa.play import server as play_server

    session = PlaySession.new(SMALL, 0, "human,random", save=tmp_path / "game.json")
    server = PlayServer(session, 0)
    entered, closed = threading.Event(), threading.Event()

    class Handler(play_server._Handler):
        def setup(self):
            entered.set()
            closed.wait(10)
            super().setup()

    server.RequestHandlerClass = Handler
    try:
        with socket.create_connection((HOST, server.port), timeout=10) as sock:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x")
            request, address = server.get_request()
            thread = threading.Thread(target=server.process_request_thread, args=(request, address))
            thread.start()
            assert entered.wait(10)
            server.shutdown_request(request)      # what socketserver does on KeyboardInterrupt there
            closed.set()
            thread.join(10)
        assert capfd.readouterr().err == ""
        try:
            raise OSError(errno.EIO, "disk on fire")
        except OSError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert capfd.readouterr().err == "atomic-africa play: a request failed: OSError: [Errno 5] disk on fire\n"
    finally:
        server.server_close()


@pytest.mark.slow  # 5 s
def test_a_fuzz_of_malformed_requests_changes_nothing_and_the_server_holds(served, capfd):
    served.read_timeout, served.idle_timeout = 2.0, 2.0   # bound what a request that waits could cost
    session = served.session
    legal = set(session.game.legal_actions())
    illegal = next(a for a in range(session.game.num_actions) if a not in legal)
    stale = len(session.game.history) + 987_654
    ok = Unchanged(served)
    rng = random.Random(36)
    answered, t0 = {}, time.monotonic()
    for i in range(1200):
        data = _malformed(rng, served, illegal, stale)
        status = status_of(raw(served, data))
        assert status is None or status < 500, (i, data[:200], status)
        answered[status] = answered.get(status, 0) + 1
        ok.check((i, data[:200]))
        assert time.monotonic() - t0 < 240, f"the fuzz is too slow: {i} requests"
    assert answered.get(400, 0) > 300 and answered.get(403, 0) > 50, answered
    # Each new route was reached and refused: a 400 or 409 for each, from its own checks.
    for path, body in _refused_posts(stale).items():
        status, out = post(served, path, body)
        assert status in (400, 409) and out["error"], (path, out)
    ok.check()
    err = capfd.readouterr().err
    assert "Traceback" not in err and err == "", err[-2000:]


# -- a whole game by clicking, in a real browser ---------------------------------------------------------
def _wait_idle(b):
    b.eval("new Promise(r => { const t0 = Date.now(); const t = () => (window.play && window.play.state && "
           "!window.play.busy) || Date.now() - t0 > 20000 ? r(1) : setTimeout(t, 25); t(); })")


@pytest.mark.slow  # a whole game in the browser (4 s); the page's own tests click in the fast subset
def test_a_whole_game_played_by_clicking_in_headless_chromium(served):
    if not CHROMIUM.exists():
        pytest.fail(INSTALL_HINT)
    session = served.session
    fire_seen = 0
    with Chromium() as b:
        b.open(served.url)
        _wait_idle(b)
        assert b.eval("document.getElementById('prompt').textContent").startswith("Blue: ")
        b.click('button.speed[data-speed="instant"]')   # the agent's turns played out at once
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
