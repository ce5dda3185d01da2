"""``atomic-africa play``: the session (people and agents, log, save and resume), the choices and
their exact odds, the text mode driven through stdin, and the command line.

The browser page and the server's security are tested in ``test_play_server.py``.
"""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.terminal import as_a_background_job

from atomic_africa import odds
from atomic_africa.cli import main
from atomic_africa.dice import wounded_dice
from atomic_africa.enums import Action, Cover, Posture, UnitKind
from atomic_africa.fire import predominant_cover, range_band
from atomic_africa.game import Game
from atomic_africa.game.rng import RandomSource
from atomic_africa.game.los import cover_at
from atomic_africa.play import PlayError, PlaySession, legal_choices, prompt
from atomic_africa.play.session import parse_players
from atomic_africa.play.text import play_text
from atomic_africa.replay.html import render_html, replay_data

SMALL = str(Path(__file__).parent / "support" / "play_small.toml")


def first_fire_or_first(choices):
    """The tests' player: fire at the first target with odds, else take the first choice."""
    fire = [c for c in choices if c["segment"] == "TARGET" and c["odds"] and c["odds"]["kind"] == "fire"]
    return (fire or choices)[0]


def play_some(session, n):
    for _ in range(n):
        if session.game.is_over:
            break
        st = session.state()
        if st["handover"] is not None:   # two people: the side to move takes the screen first
            session.take_screen(st["handover"]["to"], st["step"])
            st = session.state()
        session.act(first_fire_or_first(st["choices"])["id"], st["step"])


# -- players, turns, agents ------------------------------------------------------------------------
def test_the_agents_answer_at_once_and_a_person_decides_only_on_their_turn():
    s = PlaySession.new(SMALL, 0, "human,greedy")
    while not s.game.is_over:
        assert s.human_to_play and s.game.current_player == 0
        st = s.state()
        assert st["human"] and st["prompt"].startswith("Blue: ") and st["choices"]
        s.act(first_fire_or_first(st["choices"])["id"], st["step"])
    assert not s.choices() and s.state()["result"].startswith("Result: ")
    # Every decision of the game was Blue's person's or Red's agent's; replayed, the same game.
    again = Game.replay(s.game.scenario, s.game.seed, s.game.history, s.game.rules)
    assert again.state_hash() == s.game.state_hash()


def test_two_people_at_the_same_screen_take_both_sides():
    s = PlaySession.new(SMALL, 1, "human,human")
    seen, handovers = set(), 0
    while not s.game.is_over:
        st = s.state()
        if st["handover"] is not None:
            # Until the side to move takes the screen, it shows nobody's own cards and offers nothing.
            p = st["handover"]["to"]
            assert p == st["to_play"] and st["view"] == -1 and not st["human"] and not st["choices"]
            assert st["prompt"] == f"Pass the screen to {s.label(p)}" and st["undo"] == 0
            assert all(side["hand"] is None for side in st["forces"])
            with pytest.raises(PlayError, match="not being handed"):
                s.take_screen(1 - p, st["step"])
            s.take_screen(p, st["step"])
            handovers += 1
            st = s.state()
        seen.add(st["to_play"])
        assert st["human"] and st["prompt"].startswith(("Blue: ", "Red: ")) and st["view"] == st["to_play"]
        assert st["forces"][st["to_play"]]["hand"] is not None and st["forces"][1 - st["to_play"]]["hand"] is None
        s.act(st["choices"][-1]["id"], st["step"])
    assert seen == {0, 1} and handovers >= 4
    assert s.label(0) == "Blue (player 1)" and s.label(1) == "Red (player 2)"


def test_the_person_sees_their_own_cards_and_only_the_revealed_ones_of_the_agent():
    s = PlaySession.new(SMALL, 2, "human,greedy")
    play_some(s, 3)   # Blue's orders given, the first phase under way
    mine, theirs = s.forces()
    assert mine["hand"] is not None and theirs["hand"] is None
    g = s.game
    for side, p in ((mine, 0), (theirs, 1)):
        for row in side["units"]:
            u = g.units[row["uid"]]
            if u.card >= 0 and (p == 0 or u.revealed):
                assert row["card"] is not None
            else:
                assert row["card"] is None
    assert any(r["card"] for r in mine["units"])


@pytest.mark.parametrize("text,message", [
    ("human", "expected two comma-separated players"),
    ("human,robot", "unknown player 'robot'; allowed: human, easy, normal, hard, expert, doctrine, greedy, heuristic, "
                    "ismcts, network, puct, random"),
    ("greedy,random", "at least one side must be 'human'"),
])
def test_players_are_checked(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_players(text)
    assert parse_players(" Human , RANDOM ") == ["human", "random"]


# -- refusing decisions ------------------------------------------------------------------------------
def test_an_illegal_stale_or_malformed_decision_changes_nothing(tmp_path):
    save = tmp_path / "g.json"
    s = PlaySession.new(SMALL, 0, "human,random", save=save)
    play_some(s, 2)
    before, saved, log = s.game.state_hash(), save.read_bytes(), list(s.log)
    legal = set(s.game.legal_actions())
    illegal = next(a for a in range(s.game.num_actions) if a not in legal)
    for action, step, status in ((illegal, None, 409), (illegal, len(s.game.history), 409),
                                 (sorted(legal)[0], len(s.game.history) - 1, 409), (-1, None, 409),
                                 (10 ** 9, None, 409), ("3", None, 400), (True, None, 400), (1.0, None, 400),
                                 (sorted(legal)[0], "x", 400)):
        with pytest.raises(PlayError) as exc:
            s.act(action, step)
        assert exc.value.status == status
        assert s.game.state_hash() == before and save.read_bytes() == saved and s.log == log
    while not s.game.is_over:
        play_some(s, 1)
    with pytest.raises(PlayError, match="the game is over"):
        s.act(0)


# -- saved as it goes, resumed ---------------------------------------------------------------------------
def test_saved_after_every_decision_atomically_and_resumed_equal(tmp_path):
    save = tmp_path / "game.json"
    s = PlaySession.new(SMALL, 3, "human,greedy", save=save)
    assert Game.from_json(save.read_text()).state_hash() == s.game.state_hash()
    for _ in range(6):
        play_some(s, 1)
        assert Game.from_json(save.read_text()).state_hash() == s.game.state_hash()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]     # no temporary left behind
    r = PlaySession.load(save, "human,greedy")
    assert r.game.state_hash() == s.game.state_hash() and r.log == s.log and r.save_path == str(save)
    assert r.state()["choices"] == s.state()["choices"] and r.state()["frame"] == s.state()["frame"]
    # Both go on the same way (greedy is deterministic).
    while not s.game.is_over:
        st = s.state()
        a = first_fire_or_first(st["choices"])["id"]
        s.act(a, st["step"])
        r.act(a, st["step"])
        assert r.game.state_hash() == s.game.state_hash()
    assert r.log == s.log


def test_a_saved_game_from_elsewhere_resumes_from_its_state(tmp_path):
    # A game JSON the session did not write (any Game.to_json), and one whose history does not
    # give its state from its seed (randomness from another source): resumed from the saved state,
    # the log says so.
    g = Game(SMALL, 4)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    path = tmp_path / "other.json"
    path.write_text(g.to_json())
    s = PlaySession.load(path, "human,human")
    assert s.game.state_hash() == g.state_hash() and "Turn 1 of 2" in s.log
    # a game whose randomness is not its seed's (another source): its history, replayed from the
    # seed, does not give its state
    g = Game(SMALL, 4, source=RandomSource(99))
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    path.write_text(g.to_json())
    s = PlaySession.load(path, "human,human")
    assert s.game.to_json() == g.to_json()
    assert s.log[-1].startswith("(resumed from the saved state at decision 4: its history does not replay")
    # a document whose history did not lead to its state is refused (issue 27), naming the field
    d = json.loads(g.to_json())
    d["history"] = d["history"][:-1]
    path.write_text(json.dumps(d))
    with pytest.raises(ValueError, match=r"other\.json: not a saved game \(text\.state\.[\w.\[\]]+: .* but "
                                         r"replaying text\.history \(3 actions\) from text\.source\.seed 99 gives "):
        PlaySession.load(path, "human,human")
    path.write_text(g.to_json())
    s = PlaySession.load(path, "human,human")
    play_some(s, 3)   # the log goes on where the saved events left it
    assert sum(line.startswith("  Phase 1: Blue ") for line in s.log) == 1


def test_the_replay_of_the_finished_game_is_render_html(tmp_path):
    s = PlaySession.new(SMALL, 0, "human,random")
    while not s.game.is_over:
        play_some(s, 1)
    g = s.game
    assert s.replay_page() == render_html(replay_data(g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history))
    js = tmp_path / "g.json"
    js.write_text(g.to_json())
    assert main(["render", str(js), "--html", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == s.replay_page()


# -- the choices and their odds ------------------------------------------------------------------------
def _to(game, stage):
    """Play the game (first choice, fire first) until a person must decide ``stage``."""
    while game.stage != stage:
        game.apply(first_fire_or_first(legal_choices(game))["id"])
    return game


def test_every_legal_action_is_offered_with_the_games_description():
    g = Game(SMALL, 5)
    for _ in range(40):
        if g.is_over:
            break
        cs = legal_choices(g)
        assert [c["id"] for c in cs] == g.legal_actions()
        for c in cs:
            assert c["describe"] == g.describe_action(c["id"]) and c["label"]
            assert c["segment"] == g.space.decode(c["id"])[0]
        assert prompt(g)
        g.apply(first_fire_or_first(cs)["id"])


def test_fire_target_odds_are_the_exact_odds_of_that_shot():
    g = _to(Game(SMALL, 0), "DECLARE_TARGET")
    s = g.s
    u = s.units[s.decl_uid]
    assert Action(u.action) in (Action.BASIC, Action.DIG_IN, Action.MASS_FIRE, Action.SPRINT, Action.HEAVY_WEAPON)
    rules = g.rules
    targets = [c for c in legal_choices(g) if c["segment"] == "TARGET"]
    assert targets
    for c in targets:
        t = s.units[c["unit"]]
        # Worked out here from the rules: both stand where they are, the target defends as a
        # bystander, the markers cut to what it may still take this turn.
        d = lambda x: wounded_dice(x.dice, x.wounds, x.kind == UnitKind.VEHICLE, rules)[0]  # noqa: E731
        band = range_band(((u.x - t.x) ** 2 + (u.y - t.y) ** 2) ** 0.5, rules)
        cover = predominant_cover(*cover_at([t.x] * 3, [t.y] * 3, g.terrain).tolist())
        want = odds.fire_outcomes(d(u), d(t), shooter_posture=Posture(u.posture), target_posture=Posture.DEFENSIVE,
                                  range_band=band, armor=t.armor, shooter_action=Action(u.action),
                                  cover=Cover(cover), vehicle=False, rules=rules)
        left = rules.fire.turn_marker_cap - t.turn_markers
        capped = {}
        for (m, w), p in want.items():
            capped[(min(m, left), w)] = capped.get((min(m, left), w), 0) + p
        got = {(m, w): p for m, w, p in c["odds"]["outcomes"]}
        assert got == pytest.approx(capped)
        assert c["odds"]["p_wound"] == pytest.approx(odds.p_at_least_wounds(capped, 1))
        assert "P(\u22651 wound)" in c["summary"] and "bystander" in c["odds"]["assumes"]


def test_destinations_are_offered_where_the_engine_puts_them_with_the_odds_from_there():
    g = _to(Game(SMALL, 0), "MOVE")
    u = g.s.units[g.s.decl_uid]
    moves = [c for c in legal_choices(g) if c["segment"] in ("MOVE", "STAY")]
    assert len(moves) == g.space.size["MOVE"] + 1
    for c in moves:
        x, y = g.preview_destination(c["id"]) if c["segment"] == "MOVE" else (u.x, u.y)
        assert c["point"] == [round(x, 2), round(y, 2)]
        # The declared attack's odds from there: the range measured from the In-transit point.
        assert u.target >= 0 and c["odds"]["kind"] == "fire"
        t = g.s.units[u.target]
        mid = ((u.x + x) / 2, (u.y + y) / 2)
        assert c["odds"]["band"] == range_band(((mid[0] - t.x) ** 2 + (mid[1] - t.y) ** 2) ** 0.5, g.rules)


def test_a_new_kind_of_decision_is_still_offered(monkeypatch):
    # Point 1 of issue 23 will add a decision ("leave this unit without orders"): a segment this
    # module does not know gets the game's description and no extras, and the prompt of an
    # unknown stage comes from the stage's documentation.
    g = Game(SMALL, 0)
    legal = g.legal_actions()
    real = g.space.decode
    monkeypatch.setattr(g.space, "decode", lambda a: ("HOLD", 0) if a == legal[0] else real(a))
    monkeypatch.setattr(type(g), "describe_action", lambda self, a: f"HOLD unit {a}" if a == legal[0] else "x")
    c = legal_choices(g)[0]
    assert c["segment"] == "HOLD" and c["label"] == c["describe"] == f"HOLD unit {legal[0]}"
    assert c["odds"] is None and c["unit"] is None and c["point"] is None
    monkeypatch.setattr(type(g), "stage", property(lambda self: "RESERVE_HOLD"))
    assert prompt(g) == "Blue: reserve_hold"


# -- the text mode ------------------------------------------------------------------------------------
def _drive(session, commands, **kw):
    out = io.StringIO()
    assert play_text(session, stdin=io.StringIO("".join(c + "\n" for c in commands)), stdout=out, **kw) == 0
    return out.getvalue()


def test_text_mode_plays_a_whole_game_from_stdin(tmp_path):
    save = tmp_path / "t.json"
    s = PlaySession.new(SMALL, 0, "human,random", save=save)
    # Enough answers for the whole game: fire at the first target when there is one, else "1".
    answers, probe = [], PlaySession.new(SMALL, 0, "human,random")
    from atomic_africa.play.text import _numbered
    while not probe.game.is_over:
        shown = _numbered(probe.choices())
        pick = first_fire_or_first([c for _, c in shown])
        k = next(i for i, (_, c) in enumerate(shown, 1) if c is pick)
        answers.append(str(k))
        probe.act(pick["id"])
    out = _drive(s, ["h", "u", "d 1", "x", "999"] + answers)
    assert s.game.is_over and s.game.state_hash() == probe.game.state_hash()
    assert "Type the number of a choice" in out and "Reserve" in out
    assert "unknown command 'x'" in out and "no choice 999" in out
    # Each decision: the question, then numbered choices, fire choices with their odds.
    assert re.search(r"^Blue: .*choose the target$", out, re.M)
    assert re.search(r"^\s+\d+  Red \w+.*\[P\(\u22651 marker\) [\d.]+%, P\(\u22651 wound\) [\d.]+%", out, re.M)
    for line in probe.log:
        assert line in out
    assert s.result_text() in out
    assert (tmp_path / "t.html").read_text(encoding="utf-8") == s.replay_page()
    assert f"Replay page written to {tmp_path / 't.html'}" in out


def test_text_mode_finish_orders_is_the_last_choice_of_the_orders_prompt_as_on_the_page():
    """Issue 35 point 5: with the Reserve by choice (the variant where finishing early is legal),
    typing the first number gives a card, and "Finish orders" is the last number, as the page lists
    it (groups in order of first appearance, the choices in id order)."""
    import atomic_africa as aa
    from atomic_africa.play.text import _numbered

    rules = aa.Rules.default().replace(orders={"reserve_by_choice": True})
    s = PlaySession.new(SMALL, 0, "human,human", rules=rules)
    assert s.game.stage == "ORDERS"
    shown = _numbered(s.choices())
    assert [c["segment"] for _, c in shown][-1] == "END_ORDERS"
    assert shown[-1][1]["label"].startswith("Finish orders")
    assert {c["segment"] for _, c in shown[:-1]} == {"ASSIGN"}
    # The page's order: its groups, in order of first appearance, each with its choices in order.
    page = {}
    for c in s.choices():
        page.setdefault(c["group"] or "", []).append(c["id"])
    assert [c["id"] for _, c in shown] == [a for ids in page.values() for a in ids]
    out = _drive(s, ["1", "q"])
    assert re.search(rf"^\s+{len(shown)}  Finish orders", out, re.M)
    assert re.search(r"^\s+1  (?!Finish)", out, re.M)
    assert [e["type"] for e in s.game.events].count("assign") == 1     # choice 1 gave a card
    assert s.game.stage == "ORDERS"


def test_text_mode_quit_and_end_of_input_save_and_resume(tmp_path):
    save = tmp_path / "q.json"
    s = PlaySession.new(SMALL, 1, "human,greedy", save=save)
    out = _drive(s, ["1", "1", "q"])
    assert "Stopped; the game is saved in" in out and f"--load {save}" in out
    assert len(s.game.history) >= 2
    r = PlaySession.load(save, "human,greedy")
    assert r.game.state_hash() == s.game.state_hash()
    out = _drive(r, ["1"])      # then the input ends
    assert "Stopped; the game is saved in" in out
    assert PlaySession.load(save, "human,greedy").game.state_hash() == r.game.state_hash()


def test_text_mode_from_the_command_line(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", "atomic_africa", "play", "--text", "--scenario", SMALL,
                           "--players", "human,random", "--seed", "2"], input="1\n" * 200, capture_output=True,
                          text=True, cwd=tmp_path, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Result: " in proc.stdout and "Traceback" not in proc.stderr
    assert (tmp_path / "atomic-africa-game.json").exists() and (tmp_path / "atomic-africa-game.html").exists()
    # A second new game does not overwrite the first one's save.
    again = subprocess.run([sys.executable, "-m", "atomic_africa", "play", "--text", "--scenario", SMALL],
                           input="", capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert again.returncode == 2
    assert "--save: atomic-africa-game.json already exists" in again.stderr and "--load" in again.stderr


# -- the command line ------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,message", [
    (["--players", "random,greedy"], "--players: at least one side must be 'human'"),
    (["--players", "human,robot"], "--players: unknown player 'robot'"),
    (["--port", "70000"], "argument --port: expected a port 0..65535"),
    (["--port", "-1"], "argument --port: expected a port 0..65535"),
    (["--text", "--port", "8000"], "--port: only for the browser page, not with --text"),
    (["--text", "--no-browser"], "--no-browser: only for the browser page, not with --text"),
    (["--load", "{bad}"], "not a saved game"),
    (["--load", "{good}", "--seed", "3"], "--seed: a saved game keeps its own; not with --load"),
    (["--load", "{good}", "--scenario", "default"], "--scenario: a saved game keeps its own"),
    (["--load", "nowhere.json"], "argument --load: no such file: nowhere.json"),
])
def test_bad_options_are_one_line_errors(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text('{"format": "atomic-africa-game/1"}')
    (tmp_path / "good.json").write_text(Game(SMALL, 0).to_json())
    argv = [a.format(bad=tmp_path / "bad.json", good=tmp_path / "good.json") for a in argv]
    try:
        assert main(["play", *argv]) == 2
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _start_server(tmp_path, *extra, preexec_fn=None):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "atomic_africa", "play", "--no-browser", "--scenario", SMALL,
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env=env, start_new_session=True, preexec_fn=preexec_fn)
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        m = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=\S+)", line)
        if m:
            return proc, m.group(1), lines
    proc.kill()
    raise AssertionError("no URL printed: " + "".join(lines) + proc.stderr.read())


# Started as pytest was, and as a background job (SIGINT ignored and blocked), which the server must
# undo: the test passes whether or not pytest itself was started in the background.
@pytest.mark.parametrize("launcher", [None, as_a_background_job], ids=["inherited", "background_job"])
def test_ctrl_c_stops_the_server_cleanly_and_the_game_is_saved(tmp_path, launcher):
    import urllib.request
    proc, url, _ = _start_server(tmp_path, "--players", "human,greedy", "--seed", "4", preexec_fn=launcher)
    try:
        with urllib.request.urlopen(url.replace("/?", "/api/state?"), timeout=30) as r:
            state = json.load(r)
        assert state["prompt"].startswith("Blue:")
        os.killpg(proc.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the whole process group
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and err == ""
    assert "Stopped; the game is saved in atomic-africa-game.json (resume: atomic-africa play --load" in out
    assert Game.from_json((tmp_path / "atomic-africa-game.json").read_text()).state_hash()


def test_malformed_requests_print_nothing_on_the_terminal_of_the_play_command(tmp_path):
    """The requests of issue 36 against the real command: each gets its 400 and the terminal shows
    only the URL and, at Ctrl-C, the closing line."""
    import socket
    import urllib.parse
    proc, url, lines = _start_server(tmp_path, "--players", "human,greedy")
    try:
        parts = urllib.parse.urlsplit(url)
        port, token = parts.port, urllib.parse.parse_qs(parts.query)["token"][0]

        def send(data):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(data)
                sock.shutdown(socket.SHUT_WR)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            return answer.split(b"\r\n", 1)[0]

        deep = b"[" * 30_000 + b"]" * 30_000
        head = f"Host: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n".encode()
        assert send(f"POST /api/act?token={token} HTTP/1.1\r\n".encode() + head
                    + f"Content-Length: {len(deep)}\r\n\r\n".encode() + deep).split()[1] == b"400"
        assert send(b"POST /api/act HTTP/1.1\r\n" + head + b"Content-Length: \xb9\xb3\r\n\r\n{}").split()[1] == b"400"
        assert send(f"GET /api/state?since=%C2%B2&token={token} HTTP/1.1\r\n".encode() + head + b"\r\n"
                    ).split()[1] == b"400"
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:   # half-sent, then dropped
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x")
            os.killpg(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and err == "", err
    assert "Traceback" not in out and "Stopped; the game is saved" in out


def test_ctrl_c_after_a_new_game_on_the_page_saves_and_replays_that_game(tmp_path):
    """The page started another game: at Ctrl-C the command names its save file, and --replay writes
    the replay of the game on the page (played to its end here through the page's routes)."""
    import urllib.parse
    import urllib.request
    proc, url, _ = _start_server(tmp_path, "--players", "human,random", "--replay", "r.html")
    try:
        parts = urllib.parse.urlsplit(url)
        base, token = f"http://127.0.0.1:{parts.port}", urllib.parse.parse_qs(parts.query)["token"][0]

        def call(path, body=None):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(f"{base}{path}", data=data, headers={
                "X-Play-Token": token, "Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.load(r)

        st = call("/api/new", {"scenario": "current", "side": 1, "level": "easy", "seed": 8, "game": 0})
        while not st["over"]:
            st = call("/api/act", {"action": st["choices"][0]["id"], "step": st["step"], "game": st["game"]})
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and err == "", err
    assert "Stopped; the game is saved in atomic-africa-game-2.json." in out
    assert "Replay page written to r.html" in out
    g = Game.from_json((tmp_path / "atomic-africa-game-2.json").read_text())
    assert g.is_over and g.seed == 8
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == render_html(
        replay_data(g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history))
    assert not Game.from_json((tmp_path / "atomic-africa-game.json").read_text()).history   # the first, untouched


def test_ctrl_c_in_the_middle_of_a_decision_keeps_the_last_whole_one_saved(tmp_path, monkeypatch):
    save = tmp_path / "c.json"
    s = PlaySession.new(SMALL, 0, "human,greedy", save=save)
    play_some(s, 2)
    saved = save.read_bytes()

    def interrupted(events, units):   # the game has moved, the log not yet: a decision cut short
        raise KeyboardInterrupt
    monkeypatch.setattr(s.narrator, "feed", interrupted)
    out = _drive(s, ["1"])
    assert "Stopped; the game is saved in" in out and "as of the last whole decision" in out
    assert save.read_bytes() == saved


def test_while_a_phase_is_declared_the_table_shows_the_last_one_resolved():
    from atomic_africa.replay.frames import last_phase_events
    s = PlaySession.new(SMALL, 0, "human,random")
    checked = 0
    while not s.game.is_over:
        st = s.state()
        current = last_phase_events(s.game)
        fired = [e for e in s.game.events if e["type"] == "fire"]
        if fired and not any(e["type"] == "roll" for e in current):
            # The last fire of the game so far is among the shots the page shows.
            last = fired[-1]
            assert any(x["target"] == last["target"] and x["source"] in (last["source"], -1) for x in st["frame"]["shots"])
            checked += 1
        s.act(first_fire_or_first(st["choices"])["id"], st["step"])
    assert checked >= 3


# -- AI levels ---------------------------------------------------------------------------------------------
def test_the_ai_levels_are_the_heuristic_greedy_and_search_agents():
    from atomic_africa.agents import GreedyAgent, HeuristicAgent, ISMCTSAgent
    from atomic_africa.play.session import LEVELS
    assert LEVELS == {"easy": "heuristic", "normal": "greedy", "hard": "ismcts", "expert": "puct"}
    for level, kind in (("easy", HeuristicAgent), ("normal", GreedyAgent), ("hard", ISMCTSAgent)):
        s = PlaySession.new(SMALL, 1, f"{level},human")
        assert isinstance(s.agents[0], kind) and s.agents[1] is None
        assert s.label(0) == f"Blue ({level} AI)" and s.label(1) == "Red (you)"
        st = s.state()
        assert st["levels"] == [level, None] and st["players"][0] == f"Blue ({level} AI)"
        assert [lv["name"] for lv in st["new_game"]["levels"]] == ["easy", "normal", "hard", "expert", "human"]
        play_some(s, 4)
    # An agent named is its level too; the search options reach the hard AI.
    assert PlaySession.new(SMALL, 0, "human,greedy").state()["levels"] == [None, "normal"]
    hard = PlaySession.new(SMALL, 0, "human,hard", search={"simulations": 7})
    assert hard.agents[1].simulations == 7


def test_the_levels_on_the_command_line(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("--level {easy,normal,hard,expert}", "easy: rules of thumb, one step ahead (heuristic)",
                  "normal: the greedy agent", "hard: the ismcts search", "an AI level (easy, normal, hard, expert)", "expert: a trained network"):
        assert words in out, words
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", "atomic_africa", "play", "--text", "--scenario", SMALL, "--level",
                           "hard", "--search-simulations", "5", "--save", "h.json"], input="q\n", capture_output=True,
                          text=True, cwd=tmp_path, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Play test skirmish: Blue (you) vs Red (hard AI), 2 turns\n" in proc.stdout   # no seed: it tells the hands
    for argv, message in ((["--level", "hard", "--players", "human,easy"], "--level: not with --players; name the "
                           "AI there (e.g. --players human,hard)"),
                          (["--level", "brutal"], "argument --level: invalid choice: 'brutal' (choose from 'easy', "
                           "'normal', 'hard', 'expert')"),
                          (["--players", "human,normal", "--search-simulations", "5"],
                           "--search-simulations: only with a search agent (ismcts) in --players")):
        try:
            assert main(["play", "--text", *argv]) == 2
        except SystemExit as exc:
            assert exc.code == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err


# -- taking a decision back ----------------------------------------------------------------------------
# Events that show a person something new: a die, a card drawn, a deck shuffled.
_CHANCE = {"roll", "bystander_roll", "support_roll", "scatter", "rally", "morale", "draw", "shuffle", "reshuffle",
           "confused", "confused_draw", "confused_direction", "initiative"}


class _Mirror:
    """The session's game replayed aside, decision by decision: who took each one and what it logged."""

    def __init__(self, game):
        self.game, self.taken = Game(game.scenario, game.seed, game.rules), []

    def sync(self, history):
        if list(history[:len(self.taken)]) != [a for a, _, _ in self.taken]:   # taken back: start again
            self.__init__(self.game)
        for a in history[len(self.taken):]:
            g, n = self.game, len(self.game.events)
            p = g.current_player
            g.apply(a)
            sides = {e["player"] if "player" in e else g.units[e["unit"]].side for e in g.events[n:]
                     if "player" in e or "unit" in e}
            self.taken.append((a, p, (g.events[n:], sides)))


# random,human (8 s) and human,human (both sides undo, about 30 s of CPU) are left to the full suite to keep
# the fast subset under 2 minutes.
@pytest.mark.parametrize("players", ["human,greedy", pytest.param("random,human", marks=pytest.mark.slow),
                                     pytest.param("human,human", marks=pytest.mark.slow)])
def test_undo_takes_back_only_what_the_person_did_unseen_and_without_chance(players, tmp_path):
    save = tmp_path / "u.json"
    s = PlaySession.new("default", 5, players, save=save)
    mirror = _Mirror(s.game)
    seen = {}     # decisions taken -> (state hash, log) as the person saw the game then
    undone = refused = 0
    rounds = 0
    while not s.game.is_over:
        rounds += 1
        st = s.state()
        if st["handover"] is not None:
            s.take_screen(st["handover"]["to"], st["step"])
            st = s.state()
        seen[st["step"]] = (s.game.state_hash(), list(s.log))
        n, p = st["undo"], s.game.current_player
        mirror.sync(s.game.history)
        assert mirror.game.state_hash() == s.game.state_hash()
        # Every decision offered for undo was this person's, after the other side's last, with no
        # chance and nothing of the other side in what it logged ...
        for _, who, (events, sides) in mirror.taken[len(mirror.taken) - n:]:
            assert who == p and sides <= {p} and not any(e["type"] in _CHANCE for e in events), events
        # ... and the decision before them could not be: chance, the other side's, or before this session.
        if len(mirror.taken) > n:
            _, who, (events, sides) = mirror.taken[-n - 1]
            assert who != p or sides - {p} or any(e["type"] in _CHANCE for e in events), events
        if n and rounds % 3:
            saved = save.read_bytes()
            with pytest.raises(PlayError, match="out of date") as exc:
                s.undo(st["step"] - 1)
            assert exc.value.status == 409 and save.read_bytes() == saved
            s.undo(st["step"])
            undone += 1
            # Exactly the game and the log the person had before that decision, and saved so.
            assert (s.game.state_hash(), s.log) == seen[st["step"] - 1]
            assert Game.from_json(save.read_text()).state_hash() == s.game.state_hash()
            assert s.game.current_player == p and not s.state()["playback"]["steps"]
            st = s.state()
        elif not n:
            with pytest.raises(PlayError, match="nothing to take back") as exc:
                s.undo(st["step"])
            assert exc.value.status == 409 and s.game.state_hash() == seen[st["step"]][0]
            refused += 1
        # Decided again, another way when there is one.
        s.act(st["choices"][-1]["id"] if rounds % 2 else first_fire_or_first(st["choices"])["id"], st["step"])
    assert undone >= 10 and refused >= 10, (undone, refused)
    # A resumed game's decisions stand.
    assert PlaySession.load(save, players).undoable() == 0


def test_undo_never_crosses_a_die_or_a_draw():
    s = PlaySession.new(SMALL, 0, "human,random")
    crossed = 0
    while not s.game.is_over:
        st = s.state()
        n = len(s.game.events)
        s.act(first_fire_or_first(st["choices"])["id"], st["step"])
        if any(e["type"] in ("roll", "draw") for e in s.game.events[n:]):
            assert s.undoable() == 0
            crossed += 1
    assert crossed >= 3


# -- no hidden information in the terminal ---------------------------------------------------------------
def test_the_verbose_text_log_names_only_the_persons_own_draws(tmp_path):
    s = PlaySession.new(SMALL, 0, "human,greedy", verbose=True)
    out = _drive(s, ["1"] * 300)
    assert s.game.is_over
    assert re.search(r"^  Blue draws \d cards: \w+ of \w+", out, re.M)
    assert re.search(r"^  Red draws \d cards \(face down\)$", out, re.M)
    assert not re.search(r"Red draws \d+ cards?:", out)
    r = PlaySession.new(SMALL, 0, "greedy,human", verbose=True)
    assert any(re.match(r"  Red draws \d cards: ", line) for line in r.log)
    assert not any(re.match(r"  Blue draws \d+ cards?:", line) for line in r.log)
    # Two people at one terminal: neither side's draws.
    two = PlaySession.new(SMALL, 0, "human,human", verbose=True)
    assert any(re.match(r"  Blue draws \d cards \(face down\)$", line) for line in two.log)
    assert not any(re.search(r"draws \d+ cards?:", line) for line in two.log)
