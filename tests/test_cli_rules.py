"""``--rules FILE`` on every command that plays, rates or resolves (issue 36, point 5): the rules of
the file reach the game or the engine (its outcome changes, or the file's values are echoed in what
the command writes), and a file that does not load is refused naming ``--rules``.

Every command runs in-process through :func:`atomic_africa.cli.main` (no program is looked up on
PATH). The variant is the packaged rules as ``atomic-africa rules --dump-toml`` prints them, with
values changed in the text, as a player would edit the file.
"""
from __future__ import annotations

import json

import pytest

import atomic_africa as aa
from atomic_africa.cli import main

#: The commands that play, rate or resolve, each with the options of a small, fast run.
COMMANDS = {
    "battle": ["battle", "--quiet"],
    "selfplay": ["selfplay", "--games", "2", "--no-progress"],
    "league": ["league", "--agents", "random,greedy", "--games", "2", "--quiet"],
    "render": ["render", "--agents", "random,random"],
    "play": ["play", "--players", "human,random", "--text"],
    "fire": ["fire", "-n", "2000"],
    "odds": ["odds"],
    "artillery": ["artillery", "--spotter", "G4", "--target", "J7"],
}

#: ``(packaged line, variant line)`` edits of the dumped rules: armor that never drops below 5 (far
#: fewer wounds) and an artillery hit on a score equal to the range, not only above it.
EDITS = [("armor_floor = 1 ", "armor_floor = 5 "),
         ('targeting_hit = "greater" ', 'targeting_hit = "greater_or_equal" ')]


def _dump(capsys) -> str:
    assert main(["rules", "--dump-toml"]) == 0
    return capsys.readouterr().out


@pytest.fixture
def variant(tmp_path, capsys):
    """A rules file edited from ``rules --dump-toml``, and the Rules it holds."""
    text = _dump(capsys)
    for old, new in EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "my_rules.toml"
    path.write_text(text, encoding="utf-8")
    rules = aa.Rules.from_toml(path)
    assert rules.fire.armor_floor == 5 and rules != aa.Rules.default()
    return path, rules


def _run(capsys, argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_rules_file_that_does_not_load_is_refused_naming_rules(command, tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(_dump(capsys).replace("armor_floor = 1 ", "armor_floor = 0 "), encoding="utf-8")
    for path, says in ((bad, "rules.fire.armor_floor: 0 is out of range; allowed >= 1"),
                       (tmp_path / "nowhere.toml", "no such file")):
        with pytest.raises(SystemExit) as exc:
            main(COMMANDS[command] + ["--rules", str(path)])
        err = capsys.readouterr().err
        assert exc.value.code == 2
        assert f"atomic-africa {command}: error: argument --rules: " in err and says in err, err


def test_battle_plays_under_the_rules_file(variant, tmp_path, capsys):
    path, rules = variant
    log = tmp_path / "b.jsonl"
    _run(capsys, COMMANDS["battle"] + ["--rules", path, "--log", log])
    header = json.loads(log.read_text().splitlines()[0])
    assert aa.Rules.from_dict(header["rules"]) == rules
    game = aa.Game(None, 0, rules=rules)
    assert json.loads(log.read_text().splitlines()[-1])["actions"] == _played(game, "random", "greedy")


def _played(game, *names):
    from atomic_africa.agents import make_agent
    agents = [make_agent(n, game.seed + i) for i, n in enumerate(names)]
    while not game.is_over:
        game.apply(agents[game.current_player].act(game))
    return game.history


def test_selfplay_plays_the_native_games_under_the_rules_file(variant, tmp_path, capsys):
    path, rules = variant
    replays = tmp_path / "r.jsonl"
    _run(capsys, COMMANDS["selfplay"] + ["--rules", path, "--replays", replays])
    games = [aa.Game.from_json(line) for line in replays.read_text().splitlines()]
    assert len(games) == 2 and all(g.rules == rules for g in games)


def test_league_rates_under_the_rules_file(variant, monkeypatch, capsys):
    """The file reaches play_league, whose native matches are played under it."""
    from atomic_africa import league
    path, rules = variant
    given = []
    real = league.play_league

    def spy(*args, **kw):
        given.append(kw.get("rules"))
        return real(*args, **kw)
    monkeypatch.setattr(league, "play_league", spy)
    assert "League: 2 agents" in _run(capsys, COMMANDS["league"] + ["--rules", path])
    assert given == [rules]
    played = real("random,greedy", 2, rules=rules).records
    assert played != real("random,greedy", 2).records
    assert played == real("random,greedy", 2, rules=rules, engine="python").records


def test_render_plays_under_the_rules_file_but_keeps_a_replays_own(variant, tmp_path, capsys):
    path, _ = variant
    pages = []
    for extra in (["--rules", path], []):
        html = tmp_path / f"b{len(pages)}.html"
        _run(capsys, COMMANDS["render"] + extra + ["--html", html])
        pages.append(html.read_text())
    assert pages[0] != pages[1]
    log = tmp_path / "b.jsonl"
    _run(capsys, ["battle", "--quiet", "--log", log])
    assert main(["render", str(log), "--rules", str(path), "--html", str(tmp_path / "r.html")]) == 2
    assert capsys.readouterr().err.startswith("atomic-africa render: error: --rules: only without REPLAY")


def test_play_plays_under_the_rules_file(variant, tmp_path, capsys, monkeypatch):
    import io
    path, rules = variant
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    _run(capsys, COMMANDS["play"] + ["--rules", path, "--save", save])
    saved = json.loads(save.read_text())
    assert aa.Rules.from_dict(saved["rules"]) == rules


@pytest.mark.parametrize("command", ["fire", "odds", "artillery"])
def test_the_resolving_commands_change_under_the_rules_file(command, variant, capsys):
    path, _ = variant
    argv = COMMANDS[command] + ["--seed", "1"] if command == "fire" else COMMANDS[command]
    assert _run(capsys, argv + ["--rules", path]) != _run(capsys, argv)


def test_every_command_that_plays_rates_or_resolves_lists_rules_in_its_help(capsys):
    for command in COMMANDS:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "--rules FILE" in capsys.readouterr().out, command
    with pytest.raises(SystemExit):
        main(["rules", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert all(command in said for command in COMMANDS), said
