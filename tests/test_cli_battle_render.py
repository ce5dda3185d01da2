"""``atomic-africa battle`` and ``atomic-africa render``."""
import json

import pytest
from PIL import Image

from atomic_africa.cli import main
from atomic_africa.game import Game, default_scenario
from atomic_africa.replay.render import game_at, load_replay
from atomic_africa.game.testing import last_legal_action


def test_battle_prints_turns_and_result_and_writes_a_replayable_log(tmp_path, capsys):
    log = tmp_path / "b.jsonl"
    assert main(["battle", "--seed", "3", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"Turn 1 of {default_scenario().turns}" in out and "Result:" in out and "End of turn 1:" in out
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer"
    scenario, rules, seed, actions = load_replay(log)
    g = game_at(scenario, rules, seed, actions)
    assert g.is_over and g.events == lines[1:-1]
    # the same seed and agents play the same game
    assert main(["battle", "--seed", "3", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split("(")[0] in out


def test_battle_agents_option_and_errors(tmp_path, capsys):
    assert main(["battle", "--seed", "1", "--agents", "greedy,greedy", "--quiet"]) == 0
    assert "Result:" in capsys.readouterr().out
    assert main(["battle", "--agents", "greedy,alphago"]) == 2
    assert "alphago" in capsys.readouterr().err
    bad = tmp_path / "s.toml"
    bad.write_text("turns = 0\n[table]\nwidth_cm = 10\nheight_cm = 10\n[[sides]]\n")
    with pytest.raises(SystemExit):
        main(["battle", "--scenario", str(bad)])
    assert "argument --scenario: scenario.turns: 0 is out of range; allowed 1..1000" in capsys.readouterr().err


def test_render_png_from_log_and_game_json(tmp_path, capsys):
    log = tmp_path / "b.jsonl"
    main(["battle", "--seed", "2", "--quiet", "--log", str(log)])
    png = tmp_path / "s.png"
    assert main(["render", str(log), "--step", "60", "-o", str(png)]) == 0
    im = Image.open(png)
    assert im.format == "PNG" and im.size[0] > 400
    g = Game(None, 2)
    for _ in range(30):
        g.apply(last_legal_action(g))
    js = tmp_path / "g.json"
    js.write_text(g.to_json())
    assert main(["render", str(js), "-o", str(png)]) == 0
    assert "step 30 of 30" in capsys.readouterr().out
    assert main(["render", str(log), "--step", "99999", "-o", str(png)]) == 2


@pytest.mark.slow  # a whole greedy game drawn frame by frame; test_replay_render.py checks GIFs fast
def test_render_gif_animates_a_replay(tmp_path):
    gif = tmp_path / "r.gif"
    assert main(["render", "--seed", "5", "--agents", "greedy,greedy", "--gif", str(gif),
                 "-o", str(tmp_path / "last.png")]) == 0
    im = Image.open(gif)
    assert im.format == "GIF" and im.n_frames > 10


def test_render_picks_one_game_of_a_replays_file(tmp_path, capsys):
    from atomic_africa.cli import main
    from atomic_africa.game import Game
    from atomic_africa.replay.render import load_replay
    games = []
    for seed in (1, 2):
        g = Game(None, seed)
        for _ in range(30):
            g.apply(g.legal_actions()[0])
        games.append(g)
    path = tmp_path / "replays.jsonl"
    path.write_text("\n".join(g.to_json() for g in games) + "\n")
    for k, g in enumerate(games):
        _, _, seed, actions = load_replay(path, k)
        assert seed == g.seed and actions == g.history
    out = tmp_path / "g1.png"
    assert main(["render", str(path), "--game", "1", "-o", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert main(["render", str(path), "--game", "2", "-o", str(out)]) == 2
    assert "game: 2 is out of range" in capsys.readouterr().err
