"""The league: Bradley-Terry ratings and their intervals, the W/D/L table, outside policies on the native
batch (records equal to the Python engine's), determinism, files, the command and its errors."""
import csv
import math
import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from atomic_africa.cli import main
from atomic_africa.agents import make_agent
from atomic_africa.game import Game, GameSpec, VectorGame
from atomic_africa.game.side_view import SideView
from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.league import (bradley_terry, match_seed, outcome_matrices, pair_table, parse_entrants,
                                  play_league, resolve_policy)
from atomic_africa.league.entrants import Entrant, check_actions
from atomic_africa.league.external import CHUNK, play_external
from atomic_africa.league.ratings import ELO_PER_NAT, Z95
from support.terminal import as_a_background_job
from atomic_africa.selfplay import COLUMNS, read_results, wilson_interval

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def lowest_legal(observations, action_masks):
    """A deterministic outside policy: the lowest legal action id of each row."""
    return action_masks.argmax(axis=1)


# -- ratings ------------------------------------------------------------------------------------------
def _two(w, lost, d):
    return np.array([[0, w], [lost, 0]]), np.array([[0, d], [d, 0]])


@pytest.mark.parametrize("w,lost,d", [(7, 3, 0), (10, 4, 6), (1, 1, 0), (30, 2, 5)])
def test_two_agents_have_the_closed_form_mle_and_fisher_interval(w, lost, d):
    r = bradley_terry(("a", "b"), *_two(w, lost, d), prior_draws=0)
    n, p = w + lost + d, (w + d / 2) / (w + lost + d)
    assert r.rating[0] == 0.0 and r.se[0] == 0.0
    assert r.rating[1] == pytest.approx(-ELO_PER_NAT * math.log(p / (1 - p)), abs=1e-9)
    se = ELO_PER_NAT / math.sqrt(n * p * (1 - p))
    assert r.se[1] == pytest.approx(se, rel=1e-9)
    assert (r.low[1], r.high[1]) == pytest.approx((r.rating[1] - Z95 * se, r.rating[1] + Z95 * se), rel=1e-9)


def test_three_agents_recover_the_strengths_when_results_equal_expectations():
    g = np.array([1.0, 2.0, 4.0])
    n = np.array([[0, 3, 5], [3, 0, 6], [5, 6, 0]], dtype=float)
    wins = n * g[:, None] / (g[:, None] + g[None, :])           # expected wins: the MLE is exactly g
    r = bradley_terry(("x", "y", "z"), wins, np.zeros((3, 3)), prior_draws=0)
    assert r.rating == pytest.approx(ELO_PER_NAT * np.log(g / g[0]), abs=1e-8)
    # anchored elsewhere: the same differences
    r2 = bradley_terry(("x", "y", "z"), wins, np.zeros((3, 3)), prior_draws=0, anchor=2)
    assert r2.rating == pytest.approx(r.rating - r.rating[2], abs=1e-8) and r2.se[2] == 0.0


def test_the_fisher_interval_matches_the_numerical_curvature_of_the_likelihood():
    wins = np.array([[0, 8, 5], [4, 0, 7], [2, 3, 0]], dtype=float)
    draws = np.array([[0, 2, 1], [2, 0, 0], [1, 0, 0]], dtype=float)
    r = bradley_terry("abc", wins, draws, prior_draws=0)
    w = wins + draws / 2
    theta = r.rating / ELO_PER_NAT

    def loglik(t1, t2):
        t = np.array([0.0, t1, t2])
        d = t[:, None] - t[None, :]
        return float((w * -np.logaddexp(0, -d)).sum())
    h = 1e-4
    hess = np.empty((2, 2))
    for i in range(2):
        for j in range(2):
            e = np.eye(2) * h

            def f(a, b, e=e, i=i, j=j):
                return loglik(*(theta[1:] + a * e[i] + b * e[j]))
            hess[i, j] = (f(1, 1) - f(1, -1) - f(-1, 1) + f(-1, -1)) / 4
    se = ELO_PER_NAT * np.sqrt(np.diag(np.linalg.inv(-hess / h / h)))
    assert r.se[1:] == pytest.approx(se, rel=1e-4)


def test_symmetric_results_give_equal_ratings():
    wins = np.array([[0, 5, 3], [5, 0, 4], [3, 4, 0]])
    draws = np.array([[0, 2, 0], [2, 0, 1], [0, 1, 0]])
    for prior in (0, 1):
        r = bradley_terry(("a", "b", "c"), wins, draws, prior_draws=prior)
        assert r.rating == pytest.approx(0.0, abs=1e-9)


def test_intervals_shrink_as_one_over_root_games():
    wins = np.array([[0, 6, 9], [4, 0, 5], [1, 5, 0]])
    draws = np.array([[0, 2, 0], [2, 0, 2], [0, 2, 0]])
    r1 = bradley_terry("abc", wins, draws, prior_draws=0)
    r4 = bradley_terry("abc", 4 * wins, 4 * draws, prior_draws=0)
    assert r4.rating == pytest.approx(r1.rating, abs=1e-8)
    assert r4.se[1:] == pytest.approx(r1.se[1:] / 2, rel=1e-8)
    assert np.all(r4.high - r4.low < r1.high - r1.low + 1e-12)


def test_an_unbeaten_agent_needs_the_prior_and_then_gets_the_closed_form():
    wins, draws = _two(0, 12, 0)         # b won every game
    with pytest.raises(ValueError, match="no finite Bradley-Terry"):
        bradley_terry(("a", "b"), wins, draws, prior_draws=0)
    r = bradley_terry(("a", "b"), wins, draws)   # one virtual draw: 12.5 to 0.5
    assert r.rating[1] == pytest.approx(ELO_PER_NAT * math.log(12.5 / 0.5), abs=1e-9)


@pytest.mark.parametrize("kwargs,match", [
    (dict(wins=np.zeros((2, 3))), r"wins: expected shape \(2, 2\)"),
    (dict(wins=np.array([[0, -1], [1, 0]])), "wins: expected finite non-negative"),
    (dict(draws=np.array([[0, 1], [0, 0]])), "draws: expected a symmetric"),
    (dict(anchor=2), "anchor: expected an agent index 0..1"),
    (dict(prior_draws=-1), "prior_draws"),
    (dict(agents=("a",), wins=np.zeros((1, 1)), draws=np.zeros((1, 1))), "at least two"),
])
def test_bad_rating_input_is_refused(kwargs, match):
    args = dict(agents=("a", "b"), wins=np.array([[0, 2], [1, 0]]), draws=np.zeros((2, 2)))
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        bradley_terry(**args)


# -- tables -------------------------------------------------------------------------------------------
def _rec(game, a, b, a_side, a_score):
    names = (a, b) if a_side == 0 else (b, a)
    winner = -1 if a_score == 0 else (a_side if a_score > 0 else 1 - a_side)
    return {"game": game, "seed": game, "agent_0": names[0], "agent_1": names[1], "a_side": a_side,
            "winner": winner, "a_score": a_score, "reason": "r", "turns": 1, "decisions": 1,
            "figures_0": 1, "figures_1": 1}


def test_pair_table_and_matrices_count_each_side_with_wilson_intervals():
    # x vs y: x on side 0 wins 2 draws 1; x on side 1 loses 3; one game recorded with y as A
    recs = [_rec(0, "x", "y", 0, 1), _rec(1, "x", "y", 0, 1), _rec(2, "x", "y", 0, 0),
            _rec(3, "x", "y", 1, -1), _rec(4, "x", "y", 1, -1), _rec(5, "y", "x", 0, 1),
            _rec(0, "x", "z", 1, 1)]
    rows = pair_table(recs, ("x", "y", "z"))
    by = {(r["agent_a"], r["agent_b"], r["a_side"]): r for r in rows}
    assert [k for k in by] == [("x", "y", "0"), ("x", "y", "1"), ("x", "y", "both"),
                               ("x", "z", "0"), ("x", "z", "1"), ("x", "z", "both")]
    assert [by["x", "y", s][c] for s in ("0", "1", "both") for c in ("games", "a_wins", "draws", "b_wins")] \
        == [3, 2, 1, 0, 3, 0, 0, 3, 6, 2, 1, 3]
    r = by["x", "y", "both"]
    assert (r["a_win_rate"], r["a_win_low"], r["a_win_high"]) == (2 / 6, *wilson_interval(2, 6))
    assert (r["b_win_low"], r["b_win_high"]) == wilson_interval(3, 6)
    assert by["x", "z", "0"]["games"] == 0 and by["x", "z", "1"]["a_wins"] == 1
    wins, draws = outcome_matrices(recs, ("x", "y", "z"))
    assert wins.tolist() == [[0, 2, 1], [3, 0, 0], [0, 0, 0]] and draws.tolist() == [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
    with pytest.raises(ValueError, match="outside the league"):
        outcome_matrices(recs, ("x", "y"))


# -- entrants -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,match", [
    ("random", "at least two agents"),
    ("random,,greedy", "empty agent name"),
    ("random,Random", "'random' is listed twice"),
    ("random,grandmaster", "unknown agent 'grandmaster'; allowed: doctrine, greedy, heuristic, ismcts, network, puct, random"),
    ("random,no_such_module_xyz:act", "no module named 'no_such_module_xyz'"),
    ("random,test_league:no_such_policy", "'test_league' has no attribute 'no_such_policy'"),
    ("random,test_league:EXAMPLES", "is not callable"),
    ("random,test_league:", "expected module:callable"),
])
def test_bad_agents_are_refused_with_a_clear_error(text, match):
    with pytest.raises(ValueError, match=match):
        parse_entrants(text)


def test_resolve_policy_finds_dotted_attributes_and_leaves_sys_path_as_it_was():
    before = list(sys.path)
    assert resolve_policy("test_league:lowest_legal") is lowest_legal
    assert resolve_policy("atomic_africa.league:ratings.bradley_terry") is bradley_terry
    assert sys.path == before


def test_a_policy_answer_is_checked():
    masks = np.zeros((2, 5), dtype=bool)
    masks[0, 1] = masks[1, 3] = True
    assert check_actions([1, 3], masks, "p").tolist() == [1, 3]
    for bad, err, match in [(np.array([1.0, 3.0]), TypeError, "dtype float64"),
                            (np.array([True, False]), TypeError, "dtype bool"),
                            (np.array([[1], [3]]), ValueError, r"shape \(2, 1\); expected \(2,\)"),
                            (np.array([1, 2]), ValueError, "illegal action 2 in row 1"),
                            (np.array([1, 9]), ValueError, "illegal action 9 in row 1")]:
        with pytest.raises(err, match=match):
            check_actions(bad, masks, "p")


# -- outside policies on the native batch -------------------------------------------------------------
@pytest.mark.parametrize("builtin", [None, "random", "heuristic", "greedy", "doctrine"])
def test_outside_policy_games_equal_the_python_engine(builtin):
    """Against a lowest-legal policy (or two of them), every record equals the Python Game played from
    its seed by the Python agent (seeded as the native agent's stream) and the same policy."""
    p = Entrant("p:lowest", lowest_legal)
    a = Entrant("q:lowest", lowest_legal) if builtin is None else Entrant(builtin)
    recs = play_external((a, p), 4, seed=3, scenario=_small())
    spec = GameSpec.build(_small())
    assert [r["game"] for r in recs] == list(range(4)) and [r["a_side"] for r in recs] == [0, 1, 0, 1]
    view = SideView(spec)       # the policy sees and answers in the side-relative view

    def lowest_in_view(g):
        mover = g.current_player
        return int(view.action_to_engine(int(np.flatnonzero(view.action_mask(g.action_mask(), mover))[0]), mover))

    for r in recs:
        g = Game(spec, r["seed"])
        side = r["a_side"]
        agent = None if builtin is None else make_agent(builtin, VectorGame.agent_seed(r["seed"], side))
        while not g.is_over:
            mover = g.current_player
            g.apply(agent.act(g) if agent is not None and mover == side else lowest_in_view(g))
        winner = -1 if g.result.winner is None else g.result.winner
        assert (r["winner"], r["reason"], r["turns"], r["decisions"], r["figures_0"], r["figures_1"]) == \
            (winner, g.result.reason, g.s.turn, len(g.history), *g.result.figures)
        assert r["a_score"] == (0 if winner < 0 else (1 if winner == side else -1))
        assert r[f"agent_{side}"] == a.name and r[f"agent_{1 - side}"] == p.name


def test_a_game_depends_only_on_the_match_seed_and_its_index():
    p = Entrant("p", lowest_legal)
    n = CHUNK + 3
    some = play_external((Entrant("random"), p), 3, seed=11, scenario=_small())
    many = play_external((Entrant("random"), p), n, seed=11, scenario=_small())
    assert many[:3] == some and [r["game"] for r in many] == list(range(n))
    assert len({r["seed"] for r in many}) == n       # the second chunk plays other games


def test_a_bad_policy_is_named():
    def raises(obs, masks):
        raise ZeroDivisionError("boom")

    def illegal(obs, masks):
        return np.full(len(obs), -1)

    def unmasking(obs, masks):         # writing into its masks does not make an action legal
        masks[:] = True
        return np.full(len(obs), masks.shape[1] - 1)
    for policy, match in [(raises, "policy 'm:raises' raised ZeroDivisionError: boom"),
                          (illegal, "policy 'm:illegal' returned illegal action -1 in row 0"),
                          (unmasking, "policy 'm:unmasking' returned illegal action")]:
        with pytest.raises(ValueError, match=match):
            play_external((Entrant("random"), Entrant(f"m:{policy.__name__}", policy)), 2, 0, scenario=_small())


def test_league_is_deterministic_and_a_match_ignores_the_other_entrants():
    kw = dict(seed=4, scenario=_small())
    a = play_league("random,heuristic,test_league:lowest_legal", 4, **kw)
    b = play_league("random,heuristic,test_league:lowest_legal", 4, **kw)
    assert a.records == b.records and a.pair_rows() == b.pair_rows()
    assert play_league("random,heuristic,test_league:lowest_legal", 4, engine="python", **kw).records == a.records
    with pytest.raises(ValueError, match="engine: unknown engine 'fast'; allowed: native, python"):
        play_league("random,heuristic", 4, engine="fast", **kw)
    assert np.array_equal(a.ratings().rating, b.ratings().rating)
    alone = play_league("random,test_league:lowest_legal", 4, **kw)
    pair = [r for r in a.records if {r["agent_0"], r["agent_1"]} == {"random", "test_league:lowest_legal"}]
    assert pair == alone.records
    other = play_league("random,heuristic,test_league:lowest_legal", 4, seed=5, scenario=_small())
    assert [r["seed"] for r in other.records] != [r["seed"] for r in a.records]
    assert match_seed(4, "random", "heuristic") != match_seed(4, "heuristic", "random")


@pytest.mark.slow
def test_worker_processes_give_the_same_league():
    kw = dict(seed=2, scenario=_small())
    one = play_league("random,doctrine,test_league:lowest_legal", 6, workers=1, **kw)
    two = play_league("random,doctrine,test_league:lowest_legal", 6, workers=2, **kw)
    assert one.records == two.records


# -- the command --------------------------------------------------------------------------------------
def test_command_writes_tables_and_picture(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(EXAMPLES)                       # league_policy.py is found in the working directory
    agents = "random,heuristic,league_policy:policy"
    out, png = tmp_path / "lg.csv", tmp_path / "lg.png"
    assert main(["league", "--agents", agents, "--games", "2", "--seed", "9", "--out", str(out),
                 "--png", str(png), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "Bradley-Terry ratings (Elo scale, random = 0" in text and "random vs league_policy:policy" in text
    expected = play_league(agents, 2, seed=9)
    assert read_results(out) == expected.records and len(expected.records) == 6
    with open(tmp_path / "lg.ratings.csv", newline="") as fh:
        ratings = list(csv.DictReader(fh))
    assert [r["agent"] for r in ratings] == [r["agent"] for r in expected.rating_rows()]
    assert [float(r["rating"]) for r in ratings] == pytest.approx([r["rating"] for r in expected.rating_rows()])
    with open(tmp_path / "lg.pairs.csv", newline="") as fh:
        pairs = list(csv.DictReader(fh))
    assert [(r["agent_a"], r["agent_b"], r["a_side"], int(r["games"]), int(r["a_wins"]), int(r["draws"]))
            for r in pairs] == [(r["agent_a"], r["agent_b"], r["a_side"], r["games"], r["a_wins"], r["draws"])
                                for r in expected.pair_rows()]
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    assert width > 200 and height > 200
    assert not list(tmp_path.glob(".*.tmp"))


def test_command_writes_parquet(tmp_path):
    import pyarrow.parquet as pq
    out = tmp_path / "lg.parquet"
    assert main(["league", "--agents", "random,test_league:lowest_legal", "--games", "2", "--out", str(out),
                 "--quiet"]) == 0
    table = pq.read_table(out)
    assert table.column_names == list(COLUMNS) and table.num_rows == 2
    assert pq.read_table(tmp_path / "lg.ratings.parquet").num_rows == 2
    assert pq.read_table(tmp_path / "lg.pairs.parquet").num_rows == 3


@pytest.mark.parametrize("argv,match", [
    (["--agents", "random"], "--agents: a league needs at least two agents"),
    (["--agents", "random,chess"], "--agents: unknown agent 'chess'"),
    (["--agents", "random,nowhere_xyz:act"], "--agents: policy 'nowhere_xyz:act': no module named"),
    (["--agents", "random,test_league:missing"], "has no attribute 'missing'"),
    (["--agents", "random,heuristic", "--out", "/nonexistent_dir_xyz/x.csv"], "no such directory"),
    (["--agents", "random,heuristic", "--png", "/nonexistent_dir_xyz/x.png"], "no such directory"),
    (["--agents", "random,heuristic", "--address", "x"], "--address: only with --ray"),
    (["--games", "0"], "argument --games: must be >= 1"),
    (["--agents", "random,heuristic", "--games", "1e15"], "--games: "),
])
def test_command_errors_are_one_line_before_any_game(argv, match, capsys):
    try:
        status = main(["league", *argv, "--quiet"])
    except SystemExit as exc:           # argparse's own errors (an option's type) exit from the parser
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert match in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_ctrl_c_stops_the_command_in_one_line(tmp_path):
    # The policy marks that games are being played, so the signal lands in a match, not at start-up.
    (tmp_path / "marking_policy.py").write_text(
        "import pathlib\n"
        "def act(observations, action_masks):\n"
        "    pathlib.Path('playing').touch()\n"
        "    return action_masks.argmax(axis=1)\n")
    proc = subprocess.Popen([sys.executable, "-m", "atomic_africa", "league", "--agents",
                             "random,marking_policy:act", "--games", "100000", "--quiet"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
                            preexec_fn=as_a_background_job)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "playing").exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert (tmp_path / "playing").exists(), f"no game started (exit status {proc.poll()})"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:     # a failed wait or timeout: do not leave 100,000 games running
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and err.strip() == "atomic-africa league: interrupted"


def must_not_play(observations, action_masks):
    raise AssertionError("a game was played")


@pytest.mark.parametrize("modules,option,extra", [(("matplotlib",), "--png", "plot"),
                                                  (("pyarrow", "pyarrow.parquet"), "--out", "parquet")])
def test_a_missing_extra_is_named_before_any_game(modules, option, extra, tmp_path, monkeypatch, capsys):
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)      # import now fails as if not installed
    path = tmp_path / ("x.png" if option == "--png" else "x.parquet")
    status = main(["league", "--agents", "random,test_league:must_not_play", "--games", "2", option,
                   str(path), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and f"pip install 'atomic-africa[{extra}]'" in err and len(err.strip().splitlines()) == 1
    assert not path.exists()
