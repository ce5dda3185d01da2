"""Input files as editors and tools leave them (issue 27): a UTF-8 byte-order mark before a TOML or
JSON input is accepted (stripped), and one replays line over the 64 MiB limit of a document is
skipped with a note for that game, the later games still readable by ``--game K``."""
from __future__ import annotations


import pytest

from atomic_africa import Rules
from atomic_africa._limits import MAX_JSON_BYTES
from atomic_africa.cli import main
from atomic_africa.game import Game, load_scenario
from atomic_africa.game.scenario import packaged_scenarios
from atomic_africa.replay.frames import load_replay
from atomic_africa.game.testing import last_legal_action

BOM = b"\xef\xbb\xbf"


def _game(seed=3, decisions=20):
    g = Game(None, seed)
    for _ in range(decisions):
        g.apply(last_legal_action(g))
    return g


# ------------------------------------------------------------------------------ byte-order marks
def test_a_byte_order_mark_before_a_toml_file_is_accepted(tmp_path):
    from importlib import resources
    for name in ("rules.toml", "scenarios/default.toml"):
        text = resources.files("atomic_africa").joinpath(f"data/{name}").read_bytes()
        (tmp_path / "f.toml").write_bytes(BOM + text)
        if name == "rules.toml":
            assert Rules.from_toml(tmp_path / "f.toml") == Rules.default()
        else:
            assert load_scenario(tmp_path / "f.toml") == load_scenario("default")
    assert "default" in packaged_scenarios()
    # the CLI takes it too
    assert main(["battle", "--scenario", str(tmp_path / "f.toml"), "--quiet", "--seed", "1"]) == 0


def test_a_byte_order_mark_before_a_saved_game_is_accepted():
    g = _game()
    text = g.to_json()
    assert Game.from_json("\ufeff" + text).to_json() == text
    assert Game.from_json(BOM + text.encode()).to_json() == text


def test_a_byte_order_mark_before_a_replay_file_is_accepted(tmp_path, capsys):
    g, h = _game(3), _game(4, 25)
    files = {"g.json": g.to_json(), "r.jsonl": g.to_json() + "\n" + h.to_json() + "\n"}
    assert main(["battle", "--seed", "2", "--quiet", "--log", str(tmp_path / "b.jsonl")]) == 0
    files["b.jsonl"] = (tmp_path / "b.jsonl").read_text()
    for name, text in files.items():
        (tmp_path / name).write_bytes(BOM + text.encode())
        scenario, rules, seed, actions = load_replay(tmp_path / name)
        assert seed in (2, 3)
    assert load_replay(tmp_path / "r.jsonl", 1)[2:] == (4, h.history)
    capsys.readouterr()
    assert main(["render", str(tmp_path / "r.jsonl"), "--game", "1", "--html", str(tmp_path / "r.html")]) == 0


# --------------------------------------------------------------------------- an over-long line
@pytest.mark.slow
def test_a_replays_line_over_the_limit_is_skipped_and_later_games_stay_readable(tmp_path, capsys):
    # A line of 64 MiB + 1 (a game no engine writes, but a file may hold it: a concatenation, a bad
    # edit) is game 1; games 0 and 2 stay readable, and game 1 says why it is not.
    g, h = _game(3), _game(4, 25)
    path = tmp_path / "r.jsonl"
    with open(path, "wb") as fh:
        fh.write(g.to_json().encode() + b"\n")
        fh.write(b'{"format": "' + b"x" * MAX_JSON_BYTES + b'"}\n')
        fh.write(h.to_json().encode() + b"\n")
    assert load_replay(path, 0)[2:] == (3, g.history)
    assert load_replay(path, 2)[2:] == (4, h.history)
    with pytest.raises(ValueError, match=rf"^{path} line 2: game 1 is longer than 64 MiB, the limit for one "
                                         r"document; it was skipped \(the other games can be read with --game\)$"):
        load_replay(path, 1)
    with pytest.raises(ValueError, match=r"^game: 3 is out of range; .* holds 3 game\(s\)$"):
        load_replay(path, 3)
    assert main(["render", str(path), "--game", "2", "--html", str(tmp_path / "r.html")]) == 0
    assert main(["render", str(path), "--game", "1", "--html", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atomic-africa render: error: ") and err.count("\n") == 1 and "game 1 is longer" in err


def test_an_over_long_first_line_is_a_clear_error(tmp_path):
    path = tmp_path / "r.jsonl"
    with open(path, "wb") as fh:
        fh.write(b"[" + b" " * MAX_JSON_BYTES + b"]\n")
    with pytest.raises(ValueError, match=rf"^{path} line 1: longer than 64 MiB, the limit for one document$"):
        load_replay(path, 0)
    with pytest.raises(ValueError, match=r"^game: 1 is out of range; .* holds 1 game\(s\)$"):
        load_replay(path, 1)


def test_skipping_an_endless_line_stops(monkeypatch):
    from atomic_africa.replay import frames
    monkeypatch.setattr(frames, "MAX_SKIPPED_LINE", 3 * MAX_JSON_BYTES)
    with pytest.raises(ValueError, match=r"^/dev/zero line 1: no line end in 192 MiB; not a replays file$"):
        load_replay("/dev/zero", 1)
    with pytest.raises(ValueError, match=r"^/dev/zero line 1: longer than 64 MiB, the limit for one document$"):
        load_replay("/dev/zero", 0)
