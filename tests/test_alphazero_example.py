"""examples/alphazero.py: its arguments and buffers (fast), and its short run in a subprocess (slow:
torch's import and a few iterations of searched self-play): it writes the network, the TensorBoard
events and the learning curve, and a run stopped and resumed (after a warm start from greedy's games)
ends with the same network bit for bit."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support.volleys import load_example

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "support" / "play_small.toml"     # games of ~40 decisions: several end per run


@pytest.fixture(scope="module")
def az():
    return load_example("alphazero")


@pytest.mark.parametrize("argv, named", [
    (["--wave", "0"], "--wave"), (["--simulations", "-3"], "--simulations"), (["--hidden", "64,x"], "--hidden"),
    (["--hidden", "0"], "--hidden"), (["--noise-fraction", "1.5"], "--noise-fraction"), (["--lr", "nan"], "--lr"),
    (["--minutes", "0"], "--minutes"), (["--eval-games", "3"], "--eval-games"),
    (["--simulations", "4", "--wave", "8"], "--wave"), (["--envs", "two"], "--envs")])
def test_bad_arguments_are_named_usage_errors(az, capsys, argv, named):
    with pytest.raises(SystemExit) as e:
        az.parse_args(argv)
    assert e.value.code == 2
    assert named in capsys.readouterr().err


def test_smoke_fills_only_what_is_not_given(az):
    a = az.parse_args(["--smoke", "--envs", "6"])
    assert a.envs == 6 and a.simulations == az.SMOKE["simulations"] and a.iterations == az.SMOKE["iterations"]
    b = az.parse_args([])
    assert b.envs == az.DEFAULTS["envs"] and b.minutes == az.DEFAULTS["minutes"]


def test_opening_moves_are_drawn_only_where_the_visits_are(az):
    rng = np.random.default_rng(3)
    policy = np.zeros((2000, 7), np.float32)
    policy[:, 2], policy[:, 5] = 0.25, 0.75
    drawn = az._sample_rows(rng, policy)
    assert set(drawn.tolist()) == {2, 5}
    assert 0.7 < (drawn == 5).mean() < 0.8          # 1,500 expected of 2,000: far inside


def test_the_replay_buffer_keeps_the_last_rows_and_round_trips(az):
    buf = az.ReplayBuffer(5, 3, 10)
    rng = np.random.default_rng(0)
    obs = rng.random((7, 3), dtype=np.float32)
    masks = rng.random((7, 10)) < 0.3
    policy = rng.random((7, 10), dtype=np.float32)
    buf.add(obs, masks, policy, np.arange(7, dtype=np.float32))
    assert buf.size == 5 and sorted(buf.value.tolist()) == [2, 3, 4, 5, 6]
    other = az.ReplayBuffer(5, 3, 10)
    other.load_bytes(buf.state_bytes())
    for k in ("obs", "masks", "policy", "value"):
        assert np.array_equal(getattr(other, k), getattr(buf, k))
    assert (other.size, other.head) == (buf.size, buf.head)


def test_the_warm_start_fills_the_buffer_with_greedys_moves_and_outcomes(az):
    from atomic_africa.agents.native import agent_params
    from atomic_africa.game.native.vector import VectorGame

    run = az.Run()
    run.args = az.parse_args(["--smoke", "--scenario", str(SMALL), "--warm-games", "3", "--warm-updates", "0"])
    vg = VectorGame(str(SMALL), 1, 0)
    run.buffer = az.ReplayBuffer(4096, vg.observation_size, vg.num_actions)
    w = az.warm_start(run)
    n = run.buffer.size
    assert w["games"] == 3 and w["decisions"] == n > 3
    pol, masks, val = run.buffer.policy[:n], run.buffer.masks[:n], run.buffer.value[:n]
    assert (pol.sum(axis=1) == 1).all() and (pol.max(axis=1) == 1).all()      # one-hot
    assert masks[np.arange(n), pol.argmax(axis=1)].all()                     # at a legal action
    assert set(np.unique(val).tolist()) <= {-1.0, 0.0, 1.0}
    # every game's first decision is the one greedy plays there
    base = int(np.random.default_rng([run.args.seed, 0, 3]).integers(0, 2**62))
    g = VectorGame.from_games(str(SMALL), [base + k for k in range(3)])
    g.agent_params = agent_params()
    first, want = g.observations(), g.agent_actions("greedy")
    for k in range(3):
        rows = np.flatnonzero((run.buffer.obs[:n] == first[k]).all(axis=1))
        assert rows.size and (pol[rows].argmax(axis=1) == want[k]).all()


def _run(out, *more):
    cmd = [sys.executable, str(ROOT / "examples" / "alphazero.py"), "--out", str(out), "--smoke",
           "--scenario", str(SMALL), "--steps", "24", "--eval-games", "4", "--eval-every", "2", *more]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return json.loads((out / "summary.json").read_text())


def _weights(out):
    with np.load(out / "alphazero.npz") as z:
        return {k: z[k] for k in z.files if k != "meta"}


def _plays(path, resume):
    """The exported file is the torch network: MLPEvaluator answers as it does, and PUCTAgent plays it."""
    import torch

    from atomic_africa.agents.network import MLPEvaluator
    from atomic_africa.agents.puct import PUCTAgent
    from atomic_africa.game import Game
    from atomic_africa.game.native.vector import VectorGame

    az = load_example("alphazero")
    vg = VectorGame(str(SMALL), num_envs=8, seed=4)
    obs, masks = vg.observations(), vg.action_masks()
    state = torch.load(resume, weights_only=False)
    net = az.make_net(torch, vg.observation_size, vg.num_actions, [int(x) for x in state["settings"]["hidden"].split(",")])
    net.load_state_dict(state["net"])
    want_p, want_v = az.Evaluator(torch, net)(obs, masks)
    got_p, got_v = MLPEvaluator(path)(obs, masks)
    assert np.allclose(got_p, want_p, atol=1e-5) and np.allclose(got_v, want_v, atol=1e-5)
    game = Game(str(SMALL), 4)
    assert game.action_mask()[PUCTAgent(seed=1, evaluator=str(path), simulations=8).act(game)]


@pytest.mark.slow
def test_a_short_run_writes_its_files_and_resumes_bit_for_bit(tmp_path):
    whole = _run(tmp_path / "whole", "--iterations", "4", "--plot", "--final-games", "2", "--warm-games", "2")
    assert whole["iteration"] == 4 and whole["games"] > 0 and whole["updates"] > 0 and not whole["resumed"]
    w = tmp_path / "whole"
    assert (w / "resume.pt").exists() and (w / "curve.png").stat().st_size > 0
    assert any(p.name.startswith("events.out.tfevents") for p in (w / "tensorboard").iterdir())
    final = json.loads((w / "final.json").read_text())
    assert set(final) == {"greedy", "ismcts"} and all(r["games"] == 2 for r in final.values())
    assert whole["final"] == final
    rows = list(csv.DictReader((w / "curve.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [2, 4]
    assert all(int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == 4 for r in rows)
    net = _weights(w)
    assert {"hidden_W_0", "hidden_b_0", "policy_W", "policy_b", "value_W", "value_b"} <= set(net)
    assert net["policy_W"].shape[1] == net["policy_b"].shape[0] and net["value_W"].shape[1] == 1
    _plays(w / "alphazero.npz", w / "resume.pt")

    split = tmp_path / "split"
    first = _run(split, "--iterations", "1", "--warm-games", "2")
    assert first["iteration"] == 1
    assert any(not np.array_equal(net[k], x) for k, x in _weights(split).items())   # it went on learning
    second = _run(split, "--iterations", "4", "--resume", "--warm-games", "2")
    assert second["resumed"] and second["iteration"] == 4
    assert (second["games"], second["decisions"], second["updates"]) == \
        (whole["games"], whole["decisions"], whole["updates"])
    again = _weights(split)
    assert again.keys() == net.keys() and all(np.array_equal(net[k], again[k]) for k in net)
    keep = ("iteration", "games", "decisions", "wins", "draws", "losses")
    assert [{k: r[k] for k in keep} for r in csv.DictReader((split / "curve.csv").open())] == \
        [{k: r[k] for k in keep} for r in rows]
    # a resumed run must keep the checkpoint's settings
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "alphazero.py"), "--out", str(split), "--smoke",
                        "--scenario", str(SMALL), "--steps", "24", "--resume", "--lr", "0.5"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert p.returncode == 2 and "--lr" in p.stderr and "Traceback" not in p.stderr
    # a checkpoint older than the rollout settings was played without them
    import torch
    state = torch.load(split / "resume.pt", weights_only=False)
    for k in ("rollout", "rollout_weight", "width"):
        del state["settings"][k]
    torch.save(state, split / "resume.pt")
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "alphazero.py"), "--out", str(split), "--smoke",
                        "--scenario", str(SMALL), "--steps", "24", "--resume", "--rollout", "greedy"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert p.returncode == 2 and "argument --rollout: 'greedy' differs from the checkpoint's 'none'" in p.stderr
