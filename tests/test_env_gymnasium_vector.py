"""The Gymnasium vector environment over VectorGame: spaces, seeds, same-step autoreset, turns,
rewards, and step-by-step equality with the single-agent env replaying the same decisions.

Gymnasium 1.4 ships no checker for vector environments (``gymnasium.utils.env_checker`` checks
single ``Env``s only), so the Gymnasium-side checks here are its spaces' ``contains``/``sample``,
``make_vec`` (which warns on a missing or wrong ``autoreset_mode``) and its vector wrappers.
"""
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from support.env_trajectories import assert_same_trajectory, masked_choice, run_trajectory
from atomic_africa.env import ENV_ID
from atomic_africa.game import VectorGame
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.game import IllegalActionError
from atomic_africa.game.testing import mini_scenario, unit


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


SMALL = _small()


def test_spaces_dtypes_and_metadata():
    n = 5
    env = AtomicAfricaVectorEnv(num_envs=n, scenario=SMALL, player=1, info_game_seed=True)
    single = AtomicAfricaEnv(scenario=SMALL, player=1)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space.shape == (n, single.observation_space.shape[0])
    assert env.observation_space.dtype == np.float32
    assert isinstance(env.action_space, gym.spaces.MultiDiscrete)
    np.testing.assert_array_equal(env.action_space.nvec, [single.action_space.n] * n)
    assert not env.action_masks().any() and env.action_masks().shape == (n, single.action_space.n)

    obs, info = env.reset(seed=3)
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape
    assert env.observation_space.contains(obs)
    for key in ("action_mask", "game_seed", "game_index"):
        assert info[key].shape[0] == n and info[f"_{key}"].all()
    assert info["action_mask"].dtype == bool and info["action_mask"].shape == (n, single.action_space.n)
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    env.action_space.seed(0)
    for _ in range(30):
        # Gymnasium's masked sampling of the batched space gives legal actions
        a = env.action_space.sample(mask=tuple(m.astype(np.int8) for m in info["action_mask"]))
        assert env.action_space.contains(a)
        obs, rew, term, trunc, info = env.step(a)
        assert obs.dtype == np.float32 and obs.shape == (n, env.single_observation_space.shape[0])
        assert env.observation_space.contains(obs)
        assert rew.dtype == np.float64 and rew.shape == (n,)
        assert term.dtype == bool and term.shape == (n,)
        assert trunc.dtype == bool and trunc.shape == (n,) and not trunc.any()
        assert info["action_mask"].any(axis=1).all()    # the learner always has a decision


def _assert_equals_single_env(traj, seed, n, player, make_opponent, view="relative"):
    """Replay each env's games through the single-agent env (Python Game, the same learner actions,
    the opponent make_opponent() there): observations, masks, rewards, terminations, final
    observations, winners and game seeds agree step by step."""
    for i in range(n):
        single = AtomicAfricaEnv(scenario=SMALL, player=player, opponent=make_opponent(), view=view)
        k = 0
        o, info = single.reset(seed=VectorGame.episode_seed(seed, i, k))
        np.testing.assert_array_equal(o, traj["obs0"][i])
        np.testing.assert_array_equal(info["action_mask"], traj["info0"]["action_mask"][i])
        assert traj["info0"]["game_seed"][i] == single.game.seed
        for t in range(len(traj["actions"])):
            o, r, term, trunc, info = single.step(int(traj["actions"][t][i]))
            vinfo = traj["info"][t]
            assert r == traj["rew"][t][i] and term == traj["term"][t][i] and not trunc, f"env {i} step {t}"
            if term:
                np.testing.assert_array_equal(o, vinfo["final_obs"][i])
                assert vinfo["final_info"]["winner"][i] == info["winner"]
                assert vinfo["final_info"]["game_seed"][i] == single.game.seed
                k += 1
                o, info = single.reset(seed=VectorGame.episode_seed(seed, i, k))
            np.testing.assert_array_equal(o, traj["obs"][t][i])
            np.testing.assert_array_equal(info["action_mask"], vinfo["action_mask"][i])
            assert vinfo["game_seed"][i] == single.game.seed and vinfo["game_index"][i] == k


@pytest.mark.parametrize("player,threads,opponent", [(0, 1, "random"), (1, 2, "random"), (0, 1, "heuristic"),
                                                     (1, 1, "greedy"), (0, 2, "doctrine")])
def test_native_opponent_trajectories_equal_the_single_agent_env(player, threads, opponent):
    """The vector env's native opponent (one engine call per learner step) against the single-agent
    env with the same opponent name: the same games, decision for decision (the random opponent's
    stream comes from each game's seed in both)."""
    n, seed = 4, 11
    env = AtomicAfricaVectorEnv(num_envs=n, scenario=SMALL, player=player, threads=threads, opponent=opponent,
                                info_game_seed=True)
    traj = run_trajectory(env, seed, steps=40)
    assert sum(t.sum() for t in traj["term"]) >= n   # games ended (and were replaced) on the way
    _assert_equals_single_env(traj, seed, n, player, lambda: opponent)


@pytest.mark.parametrize("player", [0, 1])
def test_batched_callable_opponent_gets_only_its_rows_and_equals_the_single_agent_env(player):
    """A batched opponent policy (here: the highest legal action) is given exactly the games where
    it is to move (their rows, seen by the opponent), and plays as the same policy per game in the
    single-agent env."""
    calls = []

    def highest(observations, masks, envs):
        vg = env.vector_game
        assert envs.dtype == np.int64 and envs.ndim == 1 and envs.size >= 1
        np.testing.assert_array_equal(envs, np.flatnonzero(vg.current_player != player))   # all, only those
        np.testing.assert_array_equal(observations, vg.observations()[envs])
        np.testing.assert_array_equal(masks, vg.action_masks()[envs])
        calls.append(envs.size)
        return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)

    class Highest:
        def act(self, game):
            return game.legal_actions()[-1]

    n, seed = 4, 5
    # absolute view: the callable's choices are compared with an agent acting on the engine's ids
    env = AtomicAfricaVectorEnv(num_envs=n, scenario=SMALL, player=player, opponent=highest, view="absolute",
                                info_game_seed=True)
    traj = run_trajectory(env, seed, steps=40, rng_seed=2)
    assert calls and min(calls) < n          # some rounds had the opponent to move in some games only
    assert sum(t.sum() for t in traj["term"]) >= 1
    _assert_equals_single_env(traj, seed, n, player, Highest, view="absolute")


def test_seeded_reset_is_reproducible():
    kw = dict(num_envs=4, scenario=SMALL, info_game_seed=True)
    env = AtomicAfricaVectorEnv(**kw)
    t1 = run_trajectory(env, 21, steps=50)
    t2 = run_trajectory(env, 21, steps=50)                         # same instance, re-seeded
    t3 = run_trajectory(AtomicAfricaVectorEnv(**kw), 21, steps=50)   # another instance
    assert_same_trajectory(t1, t2)
    assert_same_trajectory(t1, t3)
    t4 = run_trajectory(env, 22, steps=50)
    assert not np.array_equal(t1["obs0"], t4["obs0"])
    np.testing.assert_array_equal(t1["info0"]["game_seed"],
                                  [VectorGame.episode_seed(21, i, 0) for i in range(4)])
    # the same seed in 1 thread and 2 threads: the same trajectories
    assert_same_trajectory(t1, run_trajectory(AtomicAfricaVectorEnv(**kw, threads=2), 21, 50))


def test_unseeded_reset_starts_every_envs_next_game():
    env = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL, info_game_seed=True)
    _, info = env.reset(seed=8)
    rng = np.random.default_rng(1)
    for _ in range(30):
        _, _, _, _, info = env.step(masked_choice(rng, info["action_mask"]))
    episodes = info["game_index"].copy()
    _, info = env.reset()
    np.testing.assert_array_equal(info["game_index"], episodes + 1)
    np.testing.assert_array_equal(info["game_seed"],
                                  [VectorGame.episode_seed(8, i, k + 1) for i, k in enumerate(episodes)])


def test_same_step_autoreset_and_reward_sign():
    n, player = 8, 1
    env = AtomicAfricaVectorEnv(num_envs=n, scenario=SMALL, player=player, info_game_seed=True)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(4)
    episodes = info["game_index"].copy()
    ends = 0
    outcomes = set()
    for _ in range(80):
        seeds_before = info["game_seed"].copy()
        obs, rew, term, trunc, info = env.step(masked_choice(rng, info["action_mask"]))
        np.testing.assert_array_equal(rew[~term], 0.0)   # rewards only at the end of a game
        if not term.any():
            assert not {"final_obs", "_final_obs", "final_info", "_final_info"} & info.keys()
            np.testing.assert_array_equal(info["game_index"], episodes)
            continue
        ends += term.sum()
        assert info["final_obs"].dtype == object and info["final_obs"].shape == (n,)
        np.testing.assert_array_equal(info["_final_obs"], term)
        np.testing.assert_array_equal(info["_final_info"], term)
        fi = info["final_info"]
        for i in range(n):
            if term[i]:
                fo = info["final_obs"][i]
                assert fo.dtype == np.float32 and env.single_observation_space.contains(fo)
                assert not np.array_equal(fo, obs[i])         # obs is the next game's
                assert fi["_winner"][i] and fi["_game_seed"][i]
                assert fi["game_seed"][i] == seeds_before[i]
                assert info["game_index"][i] == episodes[i] + 1
                assert info["game_seed"][i] == VectorGame.episode_seed(2, i, episodes[i] + 1)
                w = fi["winner"][i]
                expected = 0.0 if w == -1 else (1.0 if w == player else -1.0)
                assert w in (-1, 0, 1) and rew[i] == expected
                outcomes.add(float(rew[i]))
            else:
                assert info["final_obs"][i] is None and not fi["_winner"][i]
                assert info["game_index"][i] == episodes[i] and info["game_seed"][i] == seeds_before[i]
        episodes = info["game_index"].copy()
    assert ends >= n and len(outcomes) >= 2


def test_record_episode_statistics_wrapper_counts_same_step_episodes():
    n = 4
    env = RecordEpisodeStatistics(AtomicAfricaVectorEnv(num_envs=n, scenario=SMALL))
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    lengths, ends, ended_before = np.zeros(n, int), 0, np.zeros(n, bool)
    # Gymnasium before 1.4 (1.2.2 is what ray[rllib] pins) counts lengths as in next-step autoreset:
    # the step after an end starts the count afresh without counting itself, one short per later episode.
    one_short = tuple(int(x) for x in gym.__version__.split(".")[:2]) < (1, 4)
    for _ in range(60):
        _, rew, term, _, info = env.step(masked_choice(rng, info["action_mask"]))
        lengths += 1
        if term.any():
            ends += term.sum()
            np.testing.assert_array_equal(info["_episode"], term)
            np.testing.assert_array_equal(info["episode"]["r"][term], rew[term])
            expected = lengths - (one_short & ended_before)
            np.testing.assert_array_equal(info["episode"]["l"][term], expected[term])
            lengths[term] = 0
            ended_before |= term
    assert env.episode_count == ends > 0


def test_make_vec_returns_the_native_vector_env():
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # make_vec warns on missing/wrong autoreset metadata
        v = gym.make_vec(ENV_ID, num_envs=8, vectorization_mode="vector_entry_point")
        assert isinstance(v, AtomicAfricaVectorEnv) and v.num_envs == 8 and v.threads == 1
        assert v.spec.id == ENV_ID
        obs, info = v.reset(seed=0)
        assert obs.shape == (8, v.single_observation_space.shape[0])
        v2 = gym.make_vec(ENV_ID, num_envs=3, scenario=SMALL, player=1, threads=2)  # default mode
        assert isinstance(v2, AtomicAfricaVectorEnv) and v2.threads == 2 and v2.player == 1
        assert v2.vector_game.threads == 2
        v2.threads = 1
        assert v2.vector_game.threads == 1
    v.close()
    v2.close()


def test_final_info_follows_gymnasium_sync_vector_env_layout():
    """Gymnasium's own SyncVectorEnv over the single-agent env in same-step mode lays out
    ``final_obs``/``final_info`` the same way (object array; masks; keys of the single env)."""
    sync = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", scenario=SMALL, info_game_seed=True,
                        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    native = AtomicAfricaVectorEnv(num_envs=2, scenario=SMALL, info_game_seed=True)
    infos = []
    for e in (sync, native):
        _, info = e.reset(seed=3)
        rng = np.random.default_rng(0)
        while True:
            _, _, term, _, info = e.step(masked_choice(rng, info["action_mask"]))
            if term.any():
                infos.append(info)
                break
    s, v = infos
    assert {"action_mask", "_action_mask", "game_seed", "_game_seed"} <= s.keys() & v.keys()
    for info in infos:
        assert info["final_obs"].dtype == object
        assert info["_final_obs"].dtype == bool and info["_final_info"].dtype == bool
    assert set(v["final_info"]) <= set(s["final_info"])
    assert sync.metadata["autoreset_mode"] == native.metadata["autoreset_mode"]
    sync.close()


def test_illegal_action_raises_and_changes_nothing():
    env = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL)
    twin = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL)
    obs, info = env.reset(seed=4)
    twin.reset(seed=4)
    masks = info["action_mask"]
    good = masked_choice(np.random.default_rng(0), masks)
    bad = good.copy()
    bad[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(IllegalActionError, match=str(bad[1])):
        env.step(bad)
    np.testing.assert_array_equal(env.action_masks(), masks)
    np.testing.assert_array_equal(env.vector_game.observations(0), obs)
    out, ref = env.step(good), twin.step(good)     # still the same games as an untouched twin
    for a, b in zip(out[:4], ref[:4]):
        np.testing.assert_array_equal(a, b)


def test_bad_arguments():
    with pytest.raises(RuntimeError, match="before reset"):
        AtomicAfricaVectorEnv(num_envs=2, scenario=SMALL).step([0, 0])
    env = AtomicAfricaVectorEnv(num_envs=2, scenario=SMALL)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        env.step([0, 0, 0])
    with pytest.raises(TypeError, match="actions"):
        env.step([0.0, 1.0])
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.array([True, False])})
    with pytest.raises(TypeError, match="num_envs"):
        AtomicAfricaVectorEnv(num_envs=2.0)
    with pytest.raises(ValueError, match="num_envs"):
        AtomicAfricaVectorEnv(num_envs=0)
    with pytest.raises(ValueError, match="player"):
        AtomicAfricaVectorEnv(player=2)
    with pytest.raises(ValueError, match="opponent: 'nobody' is not a built-in agent; allowed 'random'"):
        AtomicAfricaVectorEnv(opponent="nobody")
    with pytest.raises(TypeError, match="opponent"):
        AtomicAfricaVectorEnv(opponent=3)
    with pytest.raises(ValueError, match="render_mode"):
        AtomicAfricaVectorEnv(render_mode="ansi")
    wrong = AtomicAfricaVectorEnv(num_envs=2, scenario=SMALL, player=1,
                                  opponent=lambda obs, masks, envs: np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="opponent"):
        wrong.reset(seed=0)    # player 0 (the opponent) moves first
