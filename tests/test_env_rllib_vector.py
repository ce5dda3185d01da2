"""The batched RLlib env inside RLlib's own SingleAgentEnvRunner (new API stack), with RLlib's
action-masking module: RLlib builds one vector env of ``num_envs_per_env_runner`` games (the layout
``benchmarks/adapter_ratio.py`` times), and every episode it records is the raw engine's game of the
seed in its info, replayed move by move (observations, masks, rewards, the end)."""
import numpy as np
import pytest
from gymnasium.wrappers.vector import DictInfoToList
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from atomic_africa.env.rllib_vector import AtomicAfricaRLlibVectorEnv
from atomic_africa.game import VectorGame
from atomic_africa.game.testing import mini_scenario, unit

pytestmark = pytest.mark.xdist_group("torch")  # with test_env_rllib/sb3: one worker imports torch

# Two turns: a game is about 20 learner decisions, so a short sample finishes many.
SMALL = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                      [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def test_rllib_env_runner_steps_one_vector_env_and_records_the_engines_games():
    config = (PPOConfig()
              .environment(AtomicAfricaRLlibVectorEnv,
                           env_config={"scenario": SMALL, "info_game_seed": True, "info_winner": True,
                                       "threads": 1})
              .env_runners(num_env_runners=0, num_envs_per_env_runner=6,
                           gym_env_vectorize_mode="vector_entry_point")
              .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                                     model_config={"fcnet_hiddens": [16]}))
              .debugging(seed=7))
    runner = SingleAgentEnvRunner(config=config)
    # what the benchmark builds: Gymnasium's DictInfoToList over one vector env of all the games
    assert type(runner.env) is DictInfoToList and type(runner.env.unwrapped) is AtomicAfricaRLlibVectorEnv
    assert runner.env.unwrapped.num_envs == 6
    episodes = runner.sample(num_timesteps=300)
    checked = 0
    for e in episodes:
        if not e.is_done or e.t_started != 0:
            continue
        seed = int(e.get_infos(0)["game_seed"])
        assert e.get_infos(-1)["game_seed"] == seed
        vg = VectorGame.from_games(SMALL, [seed])
        obs = vg.opponent_turns("random", 0)[0]
        rewards, actions = e.get_rewards(), e.get_actions()
        for k, a in enumerate(actions):
            seen = e.get_observations(k)
            np.testing.assert_array_equal(seen["observations"], obs[0])
            np.testing.assert_array_equal(seen["action_mask"], vg.action_masks()[0].view(np.uint8))
            _, r1, t1, _, i1 = vg.step(np.array([a]), observe=False)
            if t1[0]:
                end, reward, info = i1, r1[0, 0], i1
            else:
                obs, r2, t2, _, info = vg.opponent_turns("random", 0)
                end, reward = (info if t2[0] else None), r1[0, 0] + r2[0, 0]
            assert rewards[k] == reward
            assert (end is not None) == (k == len(actions) - 1)
        np.testing.assert_array_equal(e.get_observations(-1)["observations"], end["final_observation"][0][0])
        assert not e.get_observations(-1)["action_mask"].any() and e.is_terminated
        assert e.get_infos(-1)["winner"] == end["winner"][0]
        checked += 1
    assert checked >= 6
