"""The batched RL adapters against the raw engine: for the same seed, the Gymnasium vector env, the
stable-baselines3 VecEnv and the RLlib vector env hand the learner exactly what the shortest loop on
``VectorGame`` computes (``step`` for the learner, ``opponent_turns`` for the native opponent,
``action_masks``): the same observations, masks, rewards, ends and final observations, game after
game. The learner's actions are the native random agent's draws in both (the same streams), so
both play the same games; the benchmark ``benchmarks/adapter_ratio.py`` times these loops."""
import numpy as np
import pytest
from gymnasium.wrappers.vector import DictInfoToList
from sb3_contrib.common.maskable.utils import get_action_masks

from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.rllib_vector import AtomicAfricaRLlibVectorEnv
from atomic_africa.env.sb3 import AtomicAfricaSB3VecEnv
from atomic_africa.game import IllegalActionError, VectorGame

pytestmark = pytest.mark.xdist_group("torch")  # sb3 imports torch: one worker pays for it

NUM_ENVS, SEED = 12, 5
STEPS = 400        # about 3 games per env on the default battle: dozens of ends
# the learner's side, and the view in which the env's frame is the engine's (nothing mapped)
SIDES = [(0, "relative"), (1, "absolute")]


class RawLoop:
    """The raw engine's loop: the learner's actions, then the native random opponent's turns."""

    def __init__(self, learner: int):
        self.vg, self.p = VectorGame(None, NUM_ENVS, SEED, threads=1), learner
        self.obs = self.vg.opponent_turns("random", learner)[0]
        self.masks = self.vg.action_masks()

    def step(self, actions, active=None):
        """(reward, ended, {env: final observation}) of one learner step; obs/masks updated."""
        vg, p = self.vg, self.p
        _, r1, t1, _, i1 = vg.step(actions, active=active, observe=False)
        self.obs, r2, t2, _, i2 = vg.opponent_turns("random", p)
        self.masks = vg.action_masks()
        final = {int(e): i["final_observation"][e][p] for t, i in ((t1, i1), (t2, i2)) for e in np.flatnonzero(t)}
        return r1[:, p] + r2[:, p], t1 | t2, final


@pytest.mark.parametrize("player, view", SIDES)
def test_gymnasium_vector_env_equals_the_raw_engine(player, view):
    env = AtomicAfricaVectorEnv(num_envs=NUM_ENVS, player=player, view=view, threads=1)
    raw = RawLoop(player)
    obs, info = env.reset(seed=SEED)
    np.testing.assert_array_equal(obs, raw.obs)
    np.testing.assert_array_equal(info["action_mask"], raw.masks)
    ends = 0
    for _ in range(STEPS):
        actions = env.vector_game.random_actions()
        np.testing.assert_array_equal(actions, raw.vg.random_actions())
        obs, reward, term, trunc, info = env.step(actions)
        r, ended, final = raw.step(actions)
        np.testing.assert_array_equal(term, ended)
        np.testing.assert_array_equal(reward, r)
        assert not trunc.any()
        np.testing.assert_array_equal(obs, raw.obs)      # same-step autoreset: the next game's
        np.testing.assert_array_equal(info["action_mask"], raw.masks)
        for e, f in final.items():
            np.testing.assert_array_equal(info["final_obs"][e], f)
        ends += len(final)
    assert ends >= 20


@pytest.mark.parametrize("player, view", SIDES)
def test_sb3_vecenv_equals_the_raw_engine(player, view):
    env = AtomicAfricaSB3VecEnv(num_envs=NUM_ENVS, player=player, view=view, threads=1, seed=SEED)
    raw = RawLoop(player)
    np.testing.assert_array_equal(env.reset(), raw.obs)
    ends = 0
    for _ in range(STEPS):
        np.testing.assert_array_equal(get_action_masks(env), raw.masks)
        actions = env.vector_env.vector_game.random_actions()
        np.testing.assert_array_equal(actions, raw.vg.random_actions())
        obs, reward, dones, infos = env.step(actions)
        r, ended, final = raw.step(actions)
        np.testing.assert_array_equal(dones, ended)
        np.testing.assert_array_equal(reward, r.astype(np.float32))
        np.testing.assert_array_equal(obs, raw.obs)
        for i, info in enumerate(infos):
            assert ("terminal_observation" in info) == (i in final)
            assert info["game_index"] == raw.vg.episodes[i] and info["player"] == player
        for e, f in final.items():
            np.testing.assert_array_equal(infos[e]["terminal_observation"], f)
            assert infos[e]["TimeLimit.truncated"] is False
        ends += len(final)
    assert ends >= 20


@pytest.mark.parametrize("player, view", SIDES)
def test_rllib_vector_env_equals_the_raw_engine_with_next_step_autoreset(player, view):
    # As RLlib's SingleAgentEnvRunner holds it: DictInfoToList over the vector env.
    env = DictInfoToList(AtomicAfricaRLlibVectorEnv({"num_envs": NUM_ENVS, "player": player, "view": view,
                                                     "threads": 1}))
    raw = RawLoop(player)
    obs, infos = env.reset(seed=SEED)
    np.testing.assert_array_equal(obs["observations"], raw.obs)
    np.testing.assert_array_equal(obs["action_mask"], raw.masks.view(np.uint8))
    assert obs["action_mask"].dtype == np.uint8 and infos == [{}] * NUM_ENVS
    vg = env.unwrapped.vector_game
    waiting = np.zeros(NUM_ENVS, dtype=bool)   # games ended at the last step: their env sits this one out
    ends = 0
    for _ in range(STEPS):
        actions = vg.random_actions(active=~waiting)   # -1 where ignored: any value is
        np.testing.assert_array_equal(actions, raw.vg.random_actions(active=~waiting))
        obs, reward, term, trunc, infos = env.step(actions)
        r, ended, final = raw.step(actions, active=~waiting)
        np.testing.assert_array_equal(term, ended)
        np.testing.assert_array_equal(reward, r)
        assert not trunc.any() and not (term & waiting).any()
        expected_obs, expected_masks = raw.obs.copy(), raw.masks.copy()
        for e, f in final.items():      # the finished game's last view, nothing legal
            expected_obs[e], expected_masks[e] = f, False
        np.testing.assert_array_equal(obs["observations"], expected_obs)
        np.testing.assert_array_equal(obs["action_mask"], expected_masks.view(np.uint8))
        assert infos == [{}] * NUM_ENVS       # nothing asked for: the cheapest infos for RLlib
        ends += len(final)
        waiting = term
    assert ends >= 20


def test_rllib_vector_env_options_infos_and_errors():
    env = AtomicAfricaRLlibVectorEnv(num_envs=4, player="random", info_game_seed=True, skip_forced=True,
                                     observation="compact", info_winner=True, threads=1)
    assert env.metadata["autoreset_mode"].value == "NextStep"
    assert env.single_observation_space["observations"].shape[0] < env.vector_game.observation_size
    obs, info = env.reset(seed=3)
    assert obs["observations"].shape == (4, env.single_observation_space["observations"].shape[0])
    np.testing.assert_array_equal(info["game_seed"], [VectorGame.episode_seed(3, i, 0) for i in range(4)])
    np.testing.assert_array_equal(info["player"], [VectorGame.learner_side(s) for s in info["game_seed"]])
    assert info["_game_seed"].all() and info["_player"].all() and info["_skipped"].all()
    seeds = info["game_seed"].copy()
    rng = np.random.default_rng(0)
    waiting, ended_games = np.zeros(4, dtype=bool), 0
    for _ in range(600):
        masks = obs["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, term, _, info = env.step(actions)
        started = waiting     # their next game's first observation, with its start info
        np.testing.assert_array_equal(info.get("_winner", np.zeros(4, bool)), term)
        for i in np.flatnonzero(term):
            assert info["game_seed"][i] == seeds[i] and info["winner"][i] in (-1, 0, 1)
            assert not obs["action_mask"][i].any() and reward[i] in (-1.0, 0.0, 1.0)
            ended_games += 1
        for i in np.flatnonzero(started):
            seeds[i] = info["game_seed"][i]
            assert seeds[i] == env.vector_game.episode_seeds[i]
            assert info["player"][i] == VectorGame.learner_side(int(seeds[i])) and reward[i] == 0
        np.testing.assert_array_equal(info.get("_game_seed", np.zeros(4, bool)), term | started)
        waiting = term
    assert ended_games >= 4
    # an illegal action changes nothing and names the env; a waiting env's action is never checked
    masks = obs["action_mask"].astype(bool)
    bad = int(np.flatnonzero(~waiting & masks.any(axis=1))[0])
    actions = np.array([np.flatnonzero(m)[0] if m.any() else -1 for m in masks])
    actions[bad] = np.flatnonzero(~masks[bad])[0]
    before = env.vector_game.observations()
    with pytest.raises(IllegalActionError, match=rf"actions\[{bad}\]: action \d+ is not legal in env {bad}"):
        env.step(actions)
    np.testing.assert_array_equal(env.vector_game.observations(), before)
    with pytest.raises(ValueError, match="num_envs: missing.*gym_env_vectorize_mode='vector_entry_point'"):
        AtomicAfricaRLlibVectorEnv({"threads": 1})
    with pytest.raises(ValueError, match="env_config: unknown key.*'seed'; allowed 'num_envs'"):
        AtomicAfricaRLlibVectorEnv({"num_envs": 2, "seed": 1})
    with pytest.raises(TypeError, match="info_winner: expected a bool"):
        AtomicAfricaRLlibVectorEnv({"num_envs": 2, "info_winner": 1})
    with pytest.raises(RuntimeError, match=r"step\(\) called before reset\(\)"):
        AtomicAfricaRLlibVectorEnv(num_envs=2).step(np.zeros(2, dtype=np.int64))
