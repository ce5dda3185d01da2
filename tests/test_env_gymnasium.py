"""The single-agent Gymnasium environment: Gymnasium's env checker, masks, opponent, rewards."""
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from atomic_africa.agents import make_agent
from atomic_africa.env.gymnasium_env import ENV_ID, AtomicAfricaEnv
from atomic_africa.game import Game, IllegalActionError
from atomic_africa.game.testing import mini_scenario, unit


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


@pytest.mark.parametrize("kw", [{}, {"opponent": "doctrine", "player": 1},
                                {"opponent": "greedy", "scenario": "small"}])
def test_check_env(kw):
    if kw.get("scenario") == "small":
        kw = dict(kw, scenario=_small())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no checker warning either
        warnings.filterwarnings("ignore", message=".*not having a spec.*")
        check_env(AtomicAfricaEnv(**kw))


def test_check_env_registered_with_render_modes():
    e = gym.make(ENV_ID, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(e.unwrapped)
    e.close()


def _masked_episode(e, seed, rng_seed=0):
    rng = np.random.default_rng(rng_seed)
    obs, info = e.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = e.action_masks()
        assert mask.dtype == bool
        np.testing.assert_array_equal(mask, info["action_mask"])
        np.testing.assert_array_equal(mask, e.game.action_mask())
        assert e.game.current_player == e.player      # the opponent has moved in between
        np.testing.assert_array_equal(obs, e.game.observation(e.player))
        obs, r, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        steps += 1
        assert not trunc
        if term:
            return total, steps, info
        assert r == 0.0


@pytest.mark.parametrize("player,opponent", [(0, "random"), (1, "doctrine")])
def test_episode_reward_is_the_learners_result(player, opponent):
    e = AtomicAfricaEnv(scenario=_small(), player=player, opponent=opponent, view="absolute")
    total, steps, info = _masked_episode(e, seed=9)
    g = e.game
    assert g.is_over and total == g.returns()[player]
    assert info["winner"] == (-1 if g.result.winner is None else g.result.winner)
    assert not info["action_mask"].any() and not e.action_masks().any()
    with pytest.raises(RuntimeError, match="finished episode"):
        e.step(0)


def test_opponent_moves_are_its_agents_choices():
    e = AtomicAfricaEnv(scenario=_small(), player=0, opponent="doctrine")
    _masked_episode(e, seed=4, rng_seed=1)
    g = e.game
    # Replay the history: every action of player 1 is what a doctrine agent picks there.
    doctrine = make_agent("doctrine")
    replay = Game(_small(), g.seed)
    n_opp = 0
    for a in g.history:
        if replay.current_player == 1:
            assert doctrine.act(replay) == a
            n_opp += 1
        replay.apply(a)
    assert n_opp > 0 and replay.state_hash() == g.state_hash()


def test_seeded_reset_is_reproducible_and_is_the_game_seed():
    e = AtomicAfricaEnv(scenario=_small())
    o1, _ = e.reset(seed=31)
    assert e.game.seed == 31
    a = int(np.flatnonzero(e.action_masks())[0])
    s1 = e.step(a)
    o2, _ = e.reset(seed=31)
    s2 = e.step(a)
    np.testing.assert_array_equal(o1, o2)
    np.testing.assert_array_equal(s1[0], s2[0])
    e.reset()
    first = e.game.seed
    e.reset(seed=31)
    e.reset()
    assert e.game.seed == first   # unseeded resets follow the stream of the last seeded one


def test_illegal_action_loses_or_raises_without_changing_the_game():
    e = AtomicAfricaEnv()
    e.reset(seed=2)
    bad = int(np.flatnonzero(~e.action_masks())[0])
    before = e.game.state_hash()
    obs, r, term, trunc, info = e.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert e.game.state_hash() == before
    e2 = AtomicAfricaEnv(illegal_action="raise")
    e2.reset(seed=2)
    with pytest.raises(IllegalActionError):
        e2.step(bad)
    assert e2.game.state_hash() == before
    with pytest.raises(RuntimeError, match="before reset"):
        AtomicAfricaEnv().step(0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="player"):
        AtomicAfricaEnv(player=2)
    with pytest.raises(ValueError, match="unknown agent"):
        AtomicAfricaEnv(opponent="nobody")
    with pytest.raises(TypeError, match="opponent"):
        AtomicAfricaEnv(opponent=42)
    with pytest.raises(ValueError, match="illegal_action"):
        AtomicAfricaEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        AtomicAfricaEnv(render_mode="human")


def test_custom_opponent_object():
    class First:
        def act(self, game):
            return game.legal_actions()[0]
    e = AtomicAfricaEnv(scenario=_small(), opponent=First(), player=1, view="absolute")
    total, _, _ = _masked_episode(e, seed=3)
    assert total == e.game.returns()[1]


def test_gymnasium_make_vec_python_vector_env():
    # Gymnasium's own (Python) vector env over the registered id; each sub-env is one game.
    v = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", info_game_seed=True)
    obs, info = v.reset(seed=5)
    assert obs.shape == (2, v.single_observation_space.shape[0])
    assert list(info["game_seed"]) == [5, 6]
    rng = np.random.default_rng(0)
    for _ in range(20):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
        obs, r, term, trunc, info = v.step(acts)
        assert not trunc.any()
    masks = v.call("action_masks")
    assert all(m.dtype == bool and m.any() for m in masks)
    v.close()


def test_a_game_over_before_the_learners_first_decision_is_returned_by_reset_as_over():
    from test_vector_no_decision import never_decided
    e = AtomicAfricaEnv(scenario=never_decided(), info_game_seed=True)
    obs, info = e.reset(seed=5)
    assert e.game.is_over and info["game_seed"] == 5
    assert info["winner"] == 1 and info["reason"] == e.game.result.reason
    assert not info["action_mask"].any() and obs.shape == e.observation_space.shape
    with pytest.raises(RuntimeError, match="finished episode; call reset"):
        e.step(0)
