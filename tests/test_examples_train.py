"""The self-play baseline of ``examples/``: the league opponent routes each game to the pool entry it
drew (fast: no torch), and (slow: torch's import and first use take seconds) a tiny training run
writes a loadable checkpoint and its curve, and the league wrapper plays legal actions from it."""
import csv
import json
from pathlib import Path

import numpy as np
import pytest

from atomic_africa.agents.native import agent_params
from atomic_africa.game import VectorGame
from atomic_africa.game.native.agent_args import AGENT_KINDS
from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.league.entrants import Entrant
from atomic_africa.league.external import play_external

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def examples():
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(EXAMPLES))
        import selfplay_policy
        import train_selfplay
        yield train_selfplay, selfplay_policy


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def _tiny_run(train_selfplay, out, *more):
    """A 512-step run on a small scenario: 4 rollouts, a snapshot after each, 2 evaluations."""
    args = train_selfplay.parse_args(["--out", str(out), "--timesteps", "512", "--num-envs", "8",
                                      "--n-steps", "16", "--batch-size", "64", "--n-epochs", "1",
                                      "--snapshot-every", "128", "--window", "50",
                                      "--eval-every", "256", "--eval-games", "4", "--shaping", "0", *more])
    args.scenario = _small()
    return train_selfplay.train(args)


@pytest.fixture(scope="module")
def trained(examples, tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay")
    return out, _tiny_run(examples[0], out)


class _FirstLegal:
    """A pool player that records the rows it is asked for and plays each row's first legal action."""

    def __init__(self):
        self.calls = []

    def act(self, observations, action_masks):
        self.calls.append(len(observations))
        return action_masks.argmax(axis=1)


def test_the_league_opponent_plays_each_env_with_its_drawn_entry(examples):
    train_selfplay, _ = examples
    n = 48
    vg = VectorGame(None, n, 7)
    vg.agent_params = agent_params()
    vg.reset(seed=7)
    some = np.arange(n) % 4 == 0                         # on to a state with either side to move
    for _ in range(40):
        if 4 <= (vg.current_player[::2] == 1).sum() <= n // 2 - 4:
            break
        vg.step(vg.random_actions(active=some), active=some)
    pool = train_selfplay.OpponentPool(np.random.default_rng(0))
    player = _FirstLegal()
    pool.add_snapshot(player, "self@100")
    assert pool.probabilities()[4] == pytest.approx(0.3)     # self_share, its only snapshot
    opp = train_selfplay.LeagueOpponent(pool)
    opp.bind(vg)

    envs = np.arange(0, n, 2, dtype=np.int64)          # the opponent is asked in half of the envs
    expected = {code: vg.clone().agent_actions(kind) for kind, code in AGENT_KINDS.items()}
    obs, masks = vg.observations(envs=envs), vg.action_masks(envs=envs)
    actions = opp(obs, masks, envs)

    entry = opp.cur_entry[envs]
    assert set(entry.tolist()) == {0, 1, 2, 3, 4}       # every entry drawn in 24 games
    assert (opp.cur_entry[1::2] == -1).all()            # envs not asked draw nothing
    np.testing.assert_array_equal(opp.entry_of(envs, vg.episodes[envs]), entry)
    assert (opp.entry_of(envs, vg.episodes[envs] + 1) == -1).all()
    for e in range(4):                                  # each built-in entry as its native agent
        rows = entry == e
        np.testing.assert_array_equal(actions[rows], expected[pool.native_kind[e]][envs[rows]])
    snap = entry == 4                                   # the snapshot: its rows, in one call
    assert player.calls == [int(snap.sum())]
    np.testing.assert_array_equal(actions[snap], masks[snap].argmax(axis=1))
    assert not np.array_equal(expected[AGENT_KINDS["random"]], expected[AGENT_KINDS["greedy"]])
    # a game keeps its entry for its later decisions
    opp(obs, masks, envs)
    np.testing.assert_array_equal(opp.cur_entry[envs], entry)
    assert player.calls == [int(snap.sum())] * 2
    # in an env with a view, the native agents' engine ids are given in the opponent's view
    opp.bind(vg, _Reversed(vg.num_actions))
    opp.cur_ep[envs], opp.cur_entry[envs] = vg.episodes[envs], entry
    expected = {code: vg.clone().agent_actions(kind) for kind, code in AGENT_KINDS.items()}
    mapped = opp(obs, masks, envs)
    side = vg.current_player[envs]
    for e in range(4):
        rows = entry == e
        want = expected[pool.native_kind[e]][envs[rows]]
        np.testing.assert_array_equal(mapped[rows],
                                      np.where(side[rows] == 1, vg.num_actions - 1 - want, want))
    assert (side == 1).any() and (side == 0).any()


class _Reversed:
    """A view in which player 1's action ids are reversed (player 0's are the engine's)."""

    def __init__(self, n):
        self.n = n

    def action_from_engine(self, action, player):
        return np.where(np.asarray(player) == 1, self.n - 1 - np.asarray(action), action)


def test_the_pool_draws_more_often_the_opponents_beaten_half_the_time(examples):
    train_selfplay, _ = examples
    pool = train_selfplay.OpponentPool(np.random.default_rng(0), self_share=0.5, pool_size=2)
    for _ in range(50):
        pool.record(0, 1.0)        # always beats random
        pool.record(2, 0.0)        # always loses to greedy
        pool.record(3, 0.5)        # draws doctrine
    p = pool.probabilities()
    assert p[3] == p[1] > p[2] == p[0] > 0 and p.sum() == pytest.approx(1.0)
    assert p[1] / p[0] == pytest.approx(0.3 / 0.05)
    for k in range(3):
        pool.add_snapshot(_FirstLegal(), f"self@{k}")
    p = pool.probabilities()
    assert p[4] == 0 and p[5:].sum() == pytest.approx(0.5)   # only the newest pool_size snapshots
    draws = pool.draw(4000)
    assert not (draws == 4).any() and abs((draws == 3).mean() - p[3]) < 0.03


@pytest.mark.slow
def test_a_tiny_run_writes_a_loadable_checkpoint_curve_and_summary(trained):
    from sb3_contrib import MaskablePPO
    out, summary = trained
    ckpt = out / "selfplay_maskableppo.zip"
    model = MaskablePPO.load(ckpt, device="cpu")
    assert summary["timesteps"] == model.num_timesteps == 512
    assert summary["checkpoint"]["bytes"] == ckpt.stat().st_size
    with open(out / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) for r in rows] == [128, 256, 384, 512]
    assert int(rows[-1]["games"]) == summary["games"] > 0
    games_by_kind = sum(int(rows[-1][f"games_{c}"])
                        for c in ("random", "heuristic", "greedy", "doctrine", "self"))
    assert 0 < games_by_kind <= summary["games"]
    assert summary["pool"][4:] == ["self@128", "self@256", "self@384", "self@512"]
    with open(out / "eval.csv") as f:
        evals = list(csv.DictReader(f))
    # at 256 and 512 steps: 4 opponents x (side 0, side 1, both)
    assert [int(r["timesteps"]) for r in evals] == [256] * 12 + [512] * 12
    for r in evals:
        assert int(r["games"]) == (4 if r["side"] == "both" else 2)
        assert int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == int(r["games"])
    ints, floats = ("timesteps", "games", "wins", "draws", "losses"), ("score", "wall_seconds")
    typed = [{k: int(v) if k in ints else float(v) if k in floats else v for k, v in r.items()}
             for r in evals[12:]]
    assert summary["final_evaluation"] == typed
    assert json.loads((out / "summary.json").read_text()) == summary
    assert (out / "curve.png").stat().st_size > 0
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_the_same_seed_trains_the_same_policy(examples, trained, tmp_path):
    import torch
    from sb3_contrib import MaskablePPO
    out, summary = trained
    again = _tiny_run(examples[0], tmp_path)
    def curve(d):                  # all but the wall-clock column
        with open(d / "curve.csv") as f:
            return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in csv.DictReader(f)]

    assert curve(tmp_path) == curve(out) and len(curve(out)) == 4
    scores = [[r["score"] for r in s["final_evaluation"]] for s in (again, summary)]
    assert scores[0] == scores[1]
    a = MaskablePPO.load(out / "selfplay_maskableppo.zip", device="cpu").policy.state_dict()
    b = MaskablePPO.load(tmp_path / "selfplay_maskableppo.zip", device="cpu").policy.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.slow
def test_the_league_wrapper_plays_legal_actions_from_the_checkpoint(examples, trained):
    _, selfplay_policy = examples
    out, _ = trained
    policy = selfplay_policy.SelfPlayPolicy(str(out / "selfplay_maskableppo.zip"))
    vg = VectorGame(_small(), 16, 3)
    obs, masks = vg.observations(), vg.action_masks()
    actions = policy(obs, masks)
    assert actions.shape == (16,) and masks[np.arange(16), actions].all()
    records = play_external((Entrant("selfplay", policy), Entrant("random")), 4, seed=1, scenario=_small())
    assert len(records) == 4


def test_the_trainer_options_reach_the_env(examples):
    train_selfplay, _ = examples
    args = train_selfplay.parse_args(["--out", "x"])
    assert train_selfplay.env_options(args) == {"shaping": {"scale": 1.0, "gamma": args.gamma}}
    args = train_selfplay.parse_args(["--out", "x", "--shaping", "0", "--skip-forced", "--gamma", "0.99",
                                      "--env-kwargs", '{"threads": 2}'])
    assert train_selfplay.env_options(args) == {"skip_forced": True, "threads": 2}
    args = train_selfplay.parse_args(["--out", "x", "--shaping", "0.5", "--gamma", "0.99"])
    assert train_selfplay.env_options(args) == {"shaping": {"scale": 0.5, "gamma": 0.99}}


def test_a_missing_checkpoint_is_named(examples, tmp_path):
    _, selfplay_policy = examples
    policy = selfplay_policy.SelfPlayPolicy(str(tmp_path / "nothing.zip"))
    vg = VectorGame(None, 2, 0)
    with pytest.raises(FileNotFoundError, match="nothing.zip"):
        policy(vg.observations(), vg.action_masks())


@pytest.mark.slow
def test_the_shipped_checkpoint_plays_the_default_battle_and_beats_random(examples):
    """The trained checkpoint in examples/checkpoints still fits the default battle's observation and
    actions (a layout change breaks it here), and plays as trained: it beat random in 373 of 400
    league games; 40 games on either side must give at least 30 wins."""
    _, selfplay_policy = examples
    policy = selfplay_policy.SelfPlayPolicy(selfplay_policy.CHECKPOINT)
    records = play_external((Entrant("selfplay", policy), Entrant("random")), 40, seed=5)
    assert {r["a_side"] for r in records} == {0, 1}
    assert sum(r["a_score"] == 1 for r in records) >= 30


def _curve_rows(d, name="curve.csv"):
    """A table of the run without its wall-clock column."""
    with open(d / name) as f:
        return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in csv.DictReader(f)]


@pytest.mark.slow
def test_a_run_stopped_and_resumed_equals_the_uninterrupted_run(examples, trained, tmp_path):
    import torch
    from sb3_contrib import MaskablePPO
    train_selfplay, _ = examples
    out, summary = trained
    first = _tiny_run(train_selfplay, tmp_path, "--stop-at", "256")    # as if interrupted after 2 rollouts
    assert first["stopped_early"] and first["timesteps"] == 256
    assert (tmp_path / "resume" / "model.zip").exists() and (tmp_path / "resume" / "state.pkl").exists()
    with pytest.raises(ValueError, match="--lr"):                     # the settings must be the checkpoint's
        _tiny_run(train_selfplay, tmp_path, "--resume", "--lr", "0.1")
    second = _tiny_run(train_selfplay, tmp_path, "--resume")
    assert second["timesteps"] == summary["timesteps"] == 512 and second["resumed"]
    assert _curve_rows(tmp_path) == _curve_rows(out) and len(_curve_rows(out)) == 4
    assert _curve_rows(tmp_path, "eval.csv") == _curve_rows(out, "eval.csv")
    assert second["pool"] == summary["pool"] and second["games"] == summary["games"]
    a = MaskablePPO.load(out / "selfplay_maskableppo.zip", device="cpu").policy.state_dict()
    b = MaskablePPO.load(tmp_path / "selfplay_maskableppo.zip", device="cpu").policy.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    # the optimizer state went on too: the resume checkpoints of both runs hold the same Adam moments
    ra = MaskablePPO.load(out / "resume" / "model.zip", device="cpu").policy.optimizer.state_dict()
    rb = MaskablePPO.load(tmp_path / "resume" / "model.zip", device="cpu").policy.optimizer.state_dict()
    assert all(torch.equal(ra["state"][k]["exp_avg"], rb["state"][k]["exp_avg"]) for k in ra["state"])
    assert any(p.name.startswith("events.out.tfevents") for p in (tmp_path / "tensorboard").rglob("*"))
