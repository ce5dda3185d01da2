"""The stable-baselines3 VecEnv over the native vector env: SB3's own checker and tools (``check_env``,
``VecMonitor``, sb3-contrib's mask lookup, ``MaskablePPO.learn``, ``evaluate_policy``), and a rollout
whose every finished game is replayed move by move in the Python reference env."""
import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import VecMonitor

from atomic_africa.game import VectorGame
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.sb3 import AtomicAfricaSB3VecEnv
from atomic_africa.game import IllegalActionError
from atomic_africa.game.testing import mini_scenario, unit

pytestmark = pytest.mark.xdist_group("torch")  # one worker pays for importing torch

# Two turns: a game is about 20 learner decisions, so a short rollout finishes many.
SMALL = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                      [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def test_sb3_check_env_accepts_the_single_env():
    check_env(AtomicAfricaEnv(scenario=SMALL), warn=True)


def test_rollout_matches_the_reference_env_game_by_game():
    # A masked random learner for 120 steps in 3 games at once, its side drawn per game. Every game
    # that ends is replayed in the single-agent env (Python reference engine, same side and opponent
    # stream from the game seed): each observation and mask along the way, then the terminal
    # observation, reward, winner and side.
    env = AtomicAfricaSB3VecEnv(num_envs=3, scenario=SMALL, player="random", seed=11, info_game_seed=True)
    rng = np.random.default_rng(0)
    obs = env.reset()
    games = [{"seed": info["game_seed"], "obs": [o], "masks": [m], "actions": []}
             for info, o, m in zip(env.reset_infos, obs, env.action_masks())]
    assert [g["seed"] for g in games] == env.seed(11)  # what seed() announces is what reset() plays
    finished, sides = 0, set()
    for _ in range(120):
        masks = get_action_masks(env)
        np.testing.assert_array_equal(masks, env.vector_env.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        assert obs.dtype == np.float32 and rewards.dtype == np.float32 and dones.dtype == bool
        new_masks = env.action_masks()
        for i, g in enumerate(games):
            g["actions"].append(int(actions[i]))
            if not dones[i]:
                assert rewards[i] == 0 and "terminal_observation" not in infos[i]
                g["obs"].append(obs[i]), g["masks"].append(new_masks[i])
                continue
            finished += 1
            assert infos[i]["final_info"]["game_seed"] == g["seed"] and infos[i]["TimeLimit.truncated"] is False
            ref = AtomicAfricaEnv(scenario=SMALL, player="random")
            o, info = ref.reset(seed=g["seed"])
            for k, a in enumerate(g["actions"]):
                np.testing.assert_array_equal(g["obs"][k], o)
                np.testing.assert_array_equal(g["masks"][k], info["action_mask"])
                o, r, term, trunc, info = ref.step(a)
            assert term and not trunc
            np.testing.assert_array_equal(infos[i]["terminal_observation"], o)
            assert rewards[i] == r
            assert infos[i]["final_info"] == {"winner": info["winner"], "game_seed": g["seed"],
                                              "player": info["player"]}
            sides.add(info["player"])
            games[i] = {"seed": infos[i]["game_seed"], "obs": [obs[i]], "masks": [new_masks[i]], "actions": []}
    assert finished >= 6 and sides == {0, 1}


def test_maskable_ppo_learns_through_vec_monitor_and_evaluates():
    # Unmasked, a random policy over the ~500 actions would pick an illegal one at once (the env
    # raises IllegalActionError), so finishing learn() and the evaluation shows the masks got through.
    env = VecMonitor(AtomicAfricaSB3VecEnv(num_envs=4, scenario=SMALL))
    assert is_masking_supported(env) and get_action_masks(env).shape == (4, env.action_space.n)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps == 256
    episodes = list(model.ep_info_buffer)
    assert episodes and all(e["r"] in (-1.0, 0.0, 1.0) and e["l"] > 0 for e in episodes)
    returns, lengths = evaluate_policy(model, env, n_eval_episodes=6, return_episode_rewards=True)
    assert len(returns) == 6 and set(returns) <= {-1.0, 0.0, 1.0} and min(lengths) > 0


def test_seed_makes_reset_reproducible_and_is_used_once():
    env = AtomicAfricaSB3VecEnv(num_envs=2, scenario=SMALL, threads=2)  # a keyword of the vector env
    assert env.vector_env.threads == 2
    assert env.seed(5) == [VectorGame.episode_seed(5, i, 0) for i in range(2)]
    first = env.reset()
    infos = env.reset_infos
    second = env.reset()  # unseeded: every env's next game
    assert [i["game_index"] for i in env.reset_infos] == [1, 1]
    env.seed(5)
    np.testing.assert_array_equal(env.reset(), first)
    assert env.reset_infos == infos
    assert not np.array_equal(first, second)


def test_the_vecenv_interface_over_one_batched_env():
    venv = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL, opponent="greedy")
    env = AtomicAfricaSB3VecEnv.from_vector_env(venv, seed=1)
    assert env.vector_env is venv and env.observation_space == venv.single_observation_space
    env.reset()
    assert env.get_attr("opponent") == ["greedy"] * 3 and env.get_attr("player", indices=[2]) == [0]
    assert env.has_attr("action_masks") and not env.has_attr("no_such_attribute")
    rows = env.env_method("action_masks", indices=[2, 0])
    np.testing.assert_array_equal(np.stack(rows), venv.action_masks()[[2, 0]])
    assert env.env_is_wrapped(Monitor) == [False] * 3
    env.set_attr("threads", 2)
    assert venv.threads == 2
    with pytest.raises(ValueError, match="indices: .*can only be set for all of them"):
        env.set_attr("threads", 1, indices=[0])
    assert venv.threads == 2
    with pytest.raises(ValueError, match="method_name: 'reset' is not a per-game method; allowed 'action_masks'"):
        env.env_method("reset")
    with pytest.raises(IndexError, match=r"indices: 3 is not an env index; allowed 0..2"):
        env.get_attr("player", indices=[3])
    with pytest.raises(TypeError, match="vector_env: expected an AtomicAfricaVectorEnv"):
        AtomicAfricaSB3VecEnv.from_vector_env(env)
    with pytest.raises(ValueError, match="seed: expected None or a non-negative int"):
        env.seed(-1)
    with pytest.raises(ValueError, match="options: .* is not supported"):
        env.set_options({"reset_mask": [True] * 3})
    with pytest.raises(RuntimeError, match=r"step_wait\(\) called without step_async"):
        env.step_wait()
    masks = env.action_masks()
    illegal = np.array([np.flatnonzero(~m)[0] for m in masks])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    np.testing.assert_array_equal(env.action_masks(), masks)  # nothing changed


@pytest.mark.parametrize("options", [{}, {"player": "random", "info_game_seed": True, "skip_forced": True,
                                          "view": "absolute"}])
def test_infos_are_the_vector_envs_info_per_env(options):
    # The vector env stepped alongside with the same seed and actions: each SB3 info dict holds
    # exactly the per-env entries Gymnasium's DictInfoToList makes of the vector env's info (the
    # masks and final observations apart), and a finished game's terminal observation.
    from gymnasium.wrappers.vector import DictInfoToList

    env = AtomicAfricaSB3VecEnv(num_envs=3, scenario=SMALL, seed=2, **options)
    ref = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL, **options)
    to_list = DictInfoToList(ref)._convert_info_to_list

    def expected(info):
        return to_list({k: v for k, v in info.items() if k.lstrip("_") not in ("action_mask", "final_obs")})

    obs = env.reset()
    ref_obs, info = ref.reset(seed=2)
    np.testing.assert_array_equal(obs, ref_obs)
    assert env.reset_infos == expected(info)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(80):
        masks = get_action_masks(env)
        np.testing.assert_array_equal(masks, info["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        ref_obs, ref_rewards, term, _, info = ref.step(actions)
        np.testing.assert_array_equal(obs, ref_obs)
        np.testing.assert_array_equal(rewards, ref_rewards.astype(np.float32))
        np.testing.assert_array_equal(dones, term)
        for i, (got, want) in enumerate(zip(infos, expected(info))):
            got = dict(got)
            if dones[i]:
                np.testing.assert_array_equal(got.pop("terminal_observation"), info["final_obs"][i])
                assert got.pop("TimeLimit.truncated") is False
                ends += 1
            assert got == want
    assert ends >= 6
