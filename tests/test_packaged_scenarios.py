"""Packaged scenarios: loading by name, and their balance (issue 14 point 1 for the default battle,
issue 35 point 1 for every packaged scenario: player 0's share of the decided games within 45-55 %).

The 4,000-game balance evidence comes from ``benchmarks/balance.py`` and
``benchmarks/reserve_stats.py`` (the first's table and argument errors are checked here on a few
games); these tests pin cheaper properties of the same design: every packaged battle is symmetric
(the default one and the template point-symmetric, the meeting engagement mirror-symmetric), a few
hundred native games give player 0 about half of the decided ones (the meeting engagement before
issue 35, kept in ``tests/support``, gives it ~90 %), two greedy agents wipe a side out before the
turn limit in a fair share of the default battles, and (slow) 2,000 games per scenario of each
built-in agent against itself put player 0's share within reach of 45-55 %.
"""
import importlib.util
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from atomic_africa.agents.native import play_agent_games
from atomic_africa.cli import main
from atomic_africa.game import Game, ScenarioError, default_scenario, load_scenario, packaged_scenarios
from atomic_africa.game.schema import END_REASONS
from atomic_africa.selfplay import wilson_interval
from support import LOPSIDED_MEETING


# ---------------------------------------------------------------- names
def test_packaged_scenarios_load_by_name():
    names = packaged_scenarios()
    assert {"default", "meeting_engagement", "template"} <= set(names) and list(names) == sorted(names)
    assert load_scenario("default") == default_scenario() == load_scenario(None)
    old = load_scenario("meeting_engagement")
    assert old.name == "Meeting engagement: two platoons" and old != default_scenario()
    assert Game("meeting_engagement", 5).to_json() == Game(old, 5).to_json()


def test_an_unknown_name_lists_the_packaged_ones():
    with pytest.raises(ScenarioError) as exc:
        load_scenario("meeting-engagement")
    msg = str(exc.value)
    assert msg.startswith("scenario: no packaged scenario named 'meeting-engagement'; available: ")
    assert all(n in msg for n in packaged_scenarios())


def test_a_path_is_never_taken_for_a_name(tmp_path, monkeypatch):
    # Path separators and a .toml suffix make a path (so a missing file stays a file error) ...
    for missing in ("nope.toml", "default.TOML", "./default", str(tmp_path / "default")):
        with pytest.raises(OSError):
            load_scenario(missing)
    # ... and an existing file wins over the packaged scenario of the same name.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "default").write_text(_toml_of("meeting_engagement"))
    assert load_scenario("default") == load_scenario("meeting_engagement")


def _toml_of(name):
    return resources.files("atomic_africa").joinpath(f"data/scenarios/{name}.toml").read_text("utf-8")


def test_the_cli_takes_a_name_and_names_the_option_on_a_bad_one(capsys):
    assert main(["battle", "--scenario", "meeting_engagement", "--agents", "random,random", "--quiet"]) == 0
    assert "Blue" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["battle", "--scenario", "no_such_battle", "--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --scenario" in err and "no packaged scenario named 'no_such_battle'" in err
    assert "meeting_engagement" in err and "Traceback" not in err


# ---------------------------------------------------------------- the packaged battles' balance
# How each packaged battle maps one side's half of the table onto the other's.
SYMMETRY = {"default": "point", "meeting_engagement": "mirror", "template": "point"}


def test_every_packaged_scenario_names_its_symmetry():
    assert set(SYMMETRY) == set(packaged_scenarios())


@pytest.mark.parametrize("name", sorted(SYMMETRY))
def test_every_packaged_battle_is_symmetric(name):
    # "point": turned 180 degrees about the table centre; "mirror": reflected in the middle line
    # y = height / 2 (the sides' start lines face each other across it).
    sc = load_scenario(name)
    w, h = sc.width_cm, sc.height_cm

    def turned(p):
        return (w - p[0], h - p[1]) if SYMMETRY[name] == "point" else (p[0], h - p[1])

    def shape(t):
        pts = t.points if t.shape == "polygon" else (t.center,)
        return (t.shape, t.radius, t.cover, t.blocks_los, t.armor, frozenset(pts))

    shapes = [shape(t) for t in sc.terrain]
    for t in sc.terrain:
        pts = t.points if t.shape == "polygon" else (t.center,)
        twin = (t.shape, t.radius, t.cover, t.blocks_los, t.armor, frozenset(turned(p) for p in pts))
        assert twin in shapes, t.name
    blue, red = sc.sides
    assert (blue.experience, blue.fire_support) == (red.experience, red.fire_support)
    game = Game(name, 0)
    assert game.hand_size(0) == game.hand_size(1)     # the template states Red's as hand_size
    assert [u.__class__(**{**vars(u), "position": turned(u.position)}) for u in blue.units] == list(red.units)


def _native(scenario, kinds, m):
    return play_agent_games(scenario, np.arange(m, dtype=np.uint64), kinds,
                            np.arange(m, 3 * m, dtype=np.uint64).reshape(m, 2), threads=1)


# The template's battles are mostly draws between random agents (4 turns): more games for as many
# decided ones.
@pytest.mark.parametrize("scenario,games,lo,hi", [(None, 600, 0.42, 0.58), ("meeting_engagement", 600, 0.42, 0.58),
                                                  ("template", 1500, 0.42, 0.58),
                                                  (LOPSIDED_MEETING, 600, 0.8, 1.0)])
def test_random_games_give_player_0_its_share_of_the_decided_ones(scenario, games, lo, hi):
    winner = _native(scenario, ("random", "random"), games)["winner"]
    p0, decided = int((winner == 0).sum()), int((winner >= 0).sum())
    assert decided >= 300 and lo <= p0 / decided <= hi


def test_greedy_battles_often_end_before_the_turn_limit():
    r = _native(None, ("greedy", "greedy"), 200)
    wiped_out = r["reason"] == [e.name for e in END_REASONS].index("NO_UNITS")
    assert (wiped_out & (r["turns"] < default_scenario().turns)).mean() >= 0.15
    assert 0.35 <= (r["winner"] == 0).sum() / (r["winner"] >= 0).sum() <= 0.65


#: Issue 35 point 1: player 0's share of the decided games.
BAND = (0.45, 0.55)
Z99 = 2.5758293035489004     # the standard-normal quantile of a two-sided 99 % interval


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["random", "greedy", "heuristic", "doctrine"])
@pytest.mark.parametrize("scenario", sorted(SYMMETRY) + [pytest.param(LOPSIDED_MEETING, id="lopsided_meeting")])
def test_player_0s_share_of_2000_games_is_within_reach_of_45_to_55_percent(scenario, agent):
    # 2,000 native games of each built-in agent against itself (game seeds 1,000,000 + j: not those of the
    # benchmarks). Passing: the 99 % Wilson interval of player 0's share of the decided games overlaps
    # 45-55 % (a battle whose true share is inside fails with less than 1 % probability). With at
    # least 500 decided games (asserted) the interval's half-width is at most 0.058, so a share of
    # 0.61 or more (or 0.39 or less) always fails: the meeting engagement before issue 35 (0.91-0.95)
    # must, and does.
    m = 2000
    seeds = np.arange(m, dtype=np.uint64) + 1_000_000
    winner = play_agent_games(scenario, seeds, (agent, agent), np.stack([2 * seeds, 2 * seeds + 1], 1),
                              threads=1)["winner"]
    p0, decided = int((winner == 0).sum()), int((winner >= 0).sum())
    lo, hi = wilson_interval(p0, decided, Z99)
    assert decided >= 500
    overlaps = lo <= BAND[1] and hi >= BAND[0]
    assert overlaps == (scenario != LOPSIDED_MEETING), (p0 / decided, lo, hi)


# ---------------------------------------------------------------- benchmarks/balance.py
def _balance_script():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "balance.py"
    spec = importlib.util.spec_from_file_location("balance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_balance_script_prints_its_table_and_flags_a_lopsided_battle(capsys):
    balance = _balance_script()
    args = ["--games", "60", "--agents", "random,greedy", "--scenario", LOPSIDED_MEETING]
    assert balance.main(args) == 0 and balance.main(args + ["--check"]) == 1
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.split() and line.split()[0] in ("random-random", "greedy-greedy", "random-greedy")}
    assert len(rows) == 3
    for row in rows.values():
        games, p0, p1, draws = map(int, row[1:5])
        assert games == 60 and p0 + p1 + draws == 60 and float(row[5]) == pytest.approx(p0 / (p0 + p1), abs=5e-4)
    assert int(rows["random-random"][2]) > 3 * int(rows["random-random"][3])    # the old battle's P0 edge
    assert "[NOT MET] random-random" in out and "[NOT MET] greedy-greedy: P0 share" in out


@pytest.mark.parametrize("args,message", [
    (["--games", "0"], "argument --games: must be >= 1"),
    (["--agents", "random,alphago"], "argument --agents: unknown agent 'alphago'"),
    (["--scenario", "no_such_battle"], "no packaged scenario named 'no_such_battle'"),
])
def test_the_balance_script_refuses_bad_arguments(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        _balance_script().main(args)
    assert exc.value.code == 2 and message in capsys.readouterr().err
