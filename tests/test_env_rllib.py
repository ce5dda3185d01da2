"""The RLlib multi-agent env: RLlib's own environment check, a masked random self-play rollout checked
step by step against the PettingZoo env (Python reference engine), seeds, illegal actions; and (slow,
on a local Ray) a PPO iteration of examples/rllib_ppo.py with RLlib's action-masking module."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest
from ray.rllib.env.env_context import EnvContext
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from atomic_africa.game import VectorGame
from atomic_africa.env.pettingzoo_env import AtomicAfricaAEC
from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv
from atomic_africa.game import IllegalActionError
from atomic_africa.game.testing import mini_scenario, unit

pytestmark = pytest.mark.xdist_group("torch")  # with test_env_sb3: one worker pays for importing torch

ROOT = Path(__file__).resolve().parents[1]
SMALL = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                      [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)
AGENTS = ("player_0", "player_1")


def test_rllib_environment_check(monkeypatch):
    env = AtomicAfricaMultiAgentEnv(scenario=SMALL, seed=0)
    for i, a in enumerate(AGENTS):
        env.action_spaces[a].seed(i)
    steps = []
    step = env.step
    monkeypatch.setattr(env, "step", lambda actions: steps.append(actions) or step(actions))
    check_multiagent_environments(env)
    assert len(steps) == 1  # the check got as far as stepping (it stops early on a badly built env)


@pytest.mark.parametrize("view", ["relative", "absolute"])
def test_masked_self_play_equals_the_reference_env(view):
    # Three games of masked random actions; each step compared with the PettingZoo env replaying the
    # same game (Game, the Python reference) in the same view: who moves, what it sees and may do,
    # and the end.
    env = AtomicAfricaMultiAgentEnv({"scenario": SMALL, "seed": 4, "view": view, "info_game_seed": True})
    rng = np.random.default_rng(1)
    obs, infos = env.reset(seed=9)
    for game in range(3):
        (agent, o), = obs.items()
        seed = infos[agent]["game_seed"]
        assert infos[agent]["game_index"] == game and seed == VectorGame.episode_seed(9, 0, game)
        ref = AtomicAfricaAEC(scenario=SMALL, view=view)
        ref.reset(seed=seed)
        acted = dict.fromkeys(AGENTS, 0)
        while True:
            assert list(obs) == [ref.agent_selection]  # only the agent to move observes
            (agent, o), = obs.items()
            assert env.observation_spaces[agent].contains(o)
            want = ref.observe(agent)
            np.testing.assert_array_equal(o["observations"], want["observation"])
            np.testing.assert_array_equal(o["action_mask"], want["action_mask"])
            a = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rewards, terms, truncs, infos = env.step({agent: a})
            ref.step(a)
            acted[agent] += 1
            assert truncs["__all__"] is False
            if terms["__all__"]:
                break
            assert rewards == {agent: 0.0} and terms == {"__all__": False}
        assert min(acted.values()) > 0  # both sides played
        winner = -1 if ref.game.result.winner is None else ref.game.result.winner
        assert rewards == {a: float(r) for a, r in zip(AGENTS, ref.game.returns())}
        assert sum(rewards.values()) == 0 and all(terms[a] for a in AGENTS)
        for a in AGENTS:  # both see the end: their own view, nothing to do
            assert infos[a] == {"winner": winner, "game_seed": seed}
            np.testing.assert_array_equal(obs[a]["observations"], ref.observe(a)["observation"])
            assert not obs[a]["action_mask"].any()
        with pytest.raises(RuntimeError, match=r"step\(\) called outside an episode"):
            env.step({agent: 0})
        obs, infos = env.reset()


def _trajectory(env, seed, steps=40):
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        (agent, o), = obs.items()
        a = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rewards, terms, _, _ = env.step({agent: a})
        out.append((agent, a, o["observations"].copy()))
        if terms["__all__"]:
            obs, _ = env.reset()
    return out


def test_seeds_and_copies():
    env = AtomicAfricaMultiAgentEnv(scenario=SMALL, threads=2)
    other = AtomicAfricaMultiAgentEnv(scenario=SMALL)
    for (a1, x1, o1), (a2, x2, o2) in zip(_trajectory(env, 5), _trajectory(other, 5), strict=True):
        assert (a1, x1) == (a2, x2)
        np.testing.assert_array_equal(o1, o2)

    def first_game(config):
        e = AtomicAfricaMultiAgentEnv(config)
        _, infos = e.reset()
        return next(iter(infos.values()))["game_seed"]

    base = {"scenario": SMALL, "seed": 3, "info_game_seed": True}
    assert first_game(base) == VectorGame.episode_seed(3, 0, 0)
    copies = {first_game(EnvContext(base, worker_index=w, vector_index=v)) for w in (1, 2) for v in (0, 1)}
    assert len(copies) == 4  # RLlib's copies of one env_config play different games
    assert first_game(EnvContext(base, worker_index=1)) in copies  # and the same ones each time


def test_illegal_actions_and_bad_input():
    env = AtomicAfricaMultiAgentEnv(scenario=SMALL, seed=2)
    obs, _ = env.reset()
    (agent, o), = obs.items()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    other = AGENTS[1 - AGENTS.index(agent)]
    with pytest.raises(ValueError, match=rf"action_dict: expected {{'{agent}': action}} \(the agent to move only\)"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="expected an int action id, got float"):
        env.step({agent: 1.0})
    obs2, rewards, terms, _, infos = env.step({agent: illegal})
    assert rewards == {agent: -1.0, other: 0.0} and terms["__all__"] and infos[agent]["illegal_action"]
    np.testing.assert_array_equal(obs2[agent]["observations"], o["observations"])  # the game unchanged
    obs, infos = env.reset()
    assert next(iter(infos.values()))["game_index"] == 1  # the abandoned game is not resumed

    # "raise": refused in the agent's own view. For player_1 in the relative view, take an id that is
    # illegal there but whose unmapped engine id is legal: it must raise all the same.
    strict = AtomicAfricaMultiAgentEnv(scenario=SMALL, seed=2, illegal_action="raise")
    obs, _ = strict.reset()
    rng = np.random.default_rng(3)
    while True:
        (agent, o), = obs.items()
        tricky = np.flatnonzero((o["action_mask"] == 0) & strict.vector_game.action_masks()[0])
        if agent == "player_1" and tricky.size:
            break
        obs = strict.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})[0]
    before = strict.vector_game.observations(player=1)
    with pytest.raises(IllegalActionError, match=rf"action {tricky[0]} is not legal \(relative view of player_1\)"):
        strict.step({agent: int(tricky[0])})
    np.testing.assert_array_equal(strict.vector_game.observations(player=1), before)  # nothing changed
    strict.step({agent: int(np.flatnonzero(o["action_mask"])[0])})  # the episode goes on
    with pytest.raises(ValueError, match=r"env_config: unknown key\(s\) 'reward'; allowed 'scenario', 'rules'"):
        AtomicAfricaMultiAgentEnv({"reward": {}})
    with pytest.raises(ValueError, match="shaping: unknown key"):
        AtomicAfricaMultiAgentEnv({"shaping": {"beta": 1}})
    with pytest.raises(ValueError, match="observation: 'tiny' is not an observation option"):
        AtomicAfricaMultiAgentEnv(observation="tiny")
    with pytest.raises(ValueError, match="skip_forced: expected a bool"):
        AtomicAfricaMultiAgentEnv(skip_forced=1)
    with pytest.raises(ValueError, match="view: 'side' is not a view; allowed 'relative', 'absolute'"):
        AtomicAfricaMultiAgentEnv(view="side")
    with pytest.raises(ValueError, match="illegal_action: 'skip'; allowed 'lose', 'raise'"):
        AtomicAfricaMultiAgentEnv(illegal_action="skip")
    with pytest.raises(ValueError, match="seed: expected None or a non-negative int, got -1"):
        AtomicAfricaMultiAgentEnv(seed=-1)


@pytest.mark.slow
@pytest.mark.xdist_group("ray")
def test_ppo_example_runs_masked_self_play_on_local_ray(capsys):
    spec = importlib.util.spec_from_file_location("rllib_ppo", ROOT / "examples" / "rllib_ppo.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main(["--iterations", "1", "--batch", "600", "--env-runners", "0",
                         "--envs-per-runner", "1", "--cpus", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("iteration 1: "))
    assert "600 env steps" in line
    sides = dict(part.split() for part in line.split("return per side: ")[1].split(", "))
    # An illegal action would end a game at -1 / 0: zero-sum returns mean the masks held.
    assert set(sides) == set(AGENTS) and float(sides["player_0"]) == -float(sides["player_1"])
