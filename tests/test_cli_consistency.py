"""One command line: option names, defaults, counts, band spans, suggestions and error messages."""
import argparse
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from atomic_africa.cli import build_parser, main
from atomic_africa.cli.common import DEFAULT_AGENTS, count_arg
from atomic_africa.fire import band_label


def _sub(name):
    parser = build_parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]


def _error(argv, capsys) -> str:
    """stderr of a command that must fail, whether argparse or the command reports it."""
    try:
        assert main(argv) == 2
    except SystemExit as exc:
        assert exc.code == 2
    return capsys.readouterr().err


def _option(parser, flag):
    return next(a for a in parser._actions if flag in a.option_strings)


def test_threads_means_openmp_threads_and_workers_processes():
    for name in ("fire", "artillery"):
        assert "OpenMP" in _option(_sub(name), "--threads").help
    selfplay = _sub("selfplay")
    assert "worker processes" in _option(selfplay, "--workers").help
    assert not any("--threads" in a.option_strings for a in selfplay._actions)


def test_selfplay_old_threads_option_points_to_workers(capsys):
    err = _error(["selfplay", "--games", "2", "--threads", "2"], capsys)
    assert "unrecognized arguments: --threads 2; did you mean '--workers'?" in err


def test_same_default_agents_everywhere():
    assert DEFAULT_AGENTS == "random,greedy"
    for name in ("battle", "render", "selfplay"):
        assert _option(_sub(name), "--agents").default == DEFAULT_AGENTS


def test_band_label_spans_the_rules_stick():
    import atomic_africa as aa
    assert band_label(1) == "band 1 (0-27 cm)"
    assert band_label(3) == "band 3 (45-58.5 cm)"
    assert band_label(9) == "band 9 (over 99 cm)"
    rules = aa.Rules.default().replace(fire={"band_edges_cm": [30, 50]})
    assert [band_label(b, rules) for b in (1, 2, 3)] == ["band 1 (0-30 cm)", "band 2 (30-50 cm)",
                                                         "band 3 (over 50 cm)"]
    for bad in (0, 4, 10**30):
        with pytest.raises(ValueError, match=f"^band: {bad} is out of range; allowed 1..3$"):
            band_label(bad, rules)
    for bad in (2.0, True, "2"):
        with pytest.raises(TypeError, match="^band: expected an integer"):
            band_label(bad, rules)



def test_the_game_layer_never_imports_the_command_line():
    """The commands are built on the game layer, never the other way round (the battle log's
    narration and band labels live under atomic_africa.game and atomic_africa.fire)."""
    import atomic_africa.game
    game_dir = Path(atomic_africa.game.__file__).parent
    modules = sorted(game_dir.glob("*.py"))
    assert len(modules) > 10
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = "." * node.level + (node.module or "")
                assert not (target.startswith("..cli") or target.startswith("atomic_africa.cli")), \
                    f"{path.name} imports {target}"
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("atomic_africa.cli") for a in node.names), path.name

def test_fire_and_odds_print_the_band_span(capsys):
    assert main(["fire", "-n", "1000", "--range-band", "4"]) == 0
    assert "range band 4 (58.5-72 cm)\n" in capsys.readouterr().out
    assert main(["odds", "--distance", "30"]) == 0
    assert "range band 2 (27-45 cm), distance 30 cm" in capsys.readouterr().out


@pytest.mark.parametrize("text, value", [("1000", 1000), ("1e6", 1_000_000), ("2.5e3", 2500),
                                         ("1E3", 1000), ("0", 0)])
def test_counts_accept_integer_valued_float_literals(text, value):
    assert count_arg(text) == value


def test_fire_accepts_n_in_scientific_notation(capsys):
    assert main(["fire", "-n", "1e3", "--seed", "1"]) == 0
    assert "Engagement: 1,000 rolls" in capsys.readouterr().out


@pytest.mark.parametrize("text", ["1.5", "1e6.5", "1e-3", "inf", "nan", "ten", ""])
def test_fractional_or_malformed_counts_are_rejected_naming_n(text, capsys):
    err = _error(["fire", "-n", text], capsys)
    assert f"argument -n/--engagements: expected a whole number such as 1000000 or 1e6, got {text!r}" in err


def test_did_you_mean_for_commands_choices_and_options(capsys):
    assert "invalid choice: 'batle'" in (err := _error(["batle"], capsys))
    assert err.rstrip().endswith("did you mean 'battle'?")
    assert _error(["fire", "--shoter", "d8,d8,d8"], capsys).rstrip().endswith(
        "unrecognized arguments: --shoter d8,d8,d8; did you mean '--shooter'?")
    assert _error(["render", "--every", "phse"], capsys).rstrip().endswith("did you mean 'phase'?")
    assert "did you mean '--games'?" in _error(["selfplay", "--game", "2", "--gmes", "3"], capsys)
    # Nothing close: no suggestion.
    assert "did you mean" not in _error(["fire", "--zzzzzz"], capsys)


def test_subparsers_share_the_suggesting_parser_class():
    parser = build_parser()
    for name in ("fire", "battle", "rules", "scenario"):
        assert type(_sub(name)) is type(parser)


@pytest.mark.parametrize("argv, message", [
    (["battle", "--agents", "foo,random"], "error: --agents: unknown agent 'foo'; allowed:"),
    (["battle", "--agents", "random"], "error: --agents: expected two comma-separated agents"),
    (["fire", "-n", "10", "--action", "rally"], "error: --action: RALLY makes no attack"),
    (["fire", "-n", "10", "--distance", "-2"], "error: --distance: must be a finite distance"),
    (["fire", "-n", "10", "--range-band", "12"], "error: --range-band: 12 is out of range; allowed 1..9"),
    (["fire", "--shooter", "d7,d8,d8"], "argument --shooter: die 1: 7 is not a valid Die"),
    (["fire", "--posture", "attack"], "argument --shooter-posture/--posture: unknown Posture 'attack'"),
    (["odds", "--cover", "medium"], "argument --cover: unknown Cover 'medium'"),
    (["odds", "--target-action", "x"], "argument --target-action: unknown Action 'x'"),
])
def test_error_messages_name_the_option_once(argv, message, capsys):
    err = _error(argv, capsys)
    assert message in err
    # The API's own argument name never follows the option's ("--agents: agent: ...").
    for doubled in (": agent:", "shooter_action:", "distance_cm:", "range_band:", "dice[",
                    ": posture:", ": cover:", ": action:"):
        assert doubled not in err.split("error:", 1)[1], doubled


@pytest.mark.parametrize("argv, message", [
    (["battle", "--scenario", "nowhere.toml"], "argument --scenario: no such file: nowhere.toml"),
    (["selfplay", "--scenario", "nowhere.toml"], "argument --scenario: no such file: nowhere.toml"),
    (["render", "--scenario", "nowhere.toml"], "argument --scenario: no such file: nowhere.toml"),
    (["fire", "--rules", "nowhere.toml"], "argument --rules: no such file: nowhere.toml"),
    (["rules", "--rules", "nowhere.toml"], "argument --rules: no such file: nowhere.toml"),
    (["render", "nowhere.jsonl"], "argument REPLAY: no such file: nowhere.jsonl"),
])
def test_a_missing_file_names_its_option(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert message in _error(argv, capsys)


def test_a_directory_is_not_a_file(tmp_path, capsys):
    assert f"argument --rules: is a directory, not a file: {tmp_path}" in _error(
        ["odds", "--rules", str(tmp_path)], capsys)


def test_a_malformed_scenario_names_the_option_and_the_field(tmp_path, capsys):
    bad = tmp_path / "s.toml"
    bad.write_text("turns = 0\n[table]\nwidth_cm = 10\nheight_cm = 10\n[[sides]]\n")
    err = _error(["selfplay", "--scenario", str(bad)], capsys)
    assert "argument --scenario: scenario.turns: 0 is out of range; allowed 1..1000" in err


def test_selfplay_counts_accept_scientific_notation_and_reject_zero(capsys):
    assert "argument --games: must be >= 1, got '0'" in _error(["selfplay", "--games", "0"], capsys)
    assert "argument --workers: must be >= 1" in _error(["selfplay", "--workers", "0"], capsys)
    assert main(["selfplay", "--games", "2e0", "--no-progress", "--agents", "random,random"]) == 0
    assert "2 games" in capsys.readouterr().out


def test_module_entry_point_suggests_too():
    out = subprocess.run([sys.executable, "-m", "atomic_africa.cli", "scenaro", "--template"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "did you mean 'scenario'?" in out.stderr
    assert "Traceback" not in out.stderr
