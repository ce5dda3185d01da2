"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and game consistency."""
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from atomic_africa.env.pettingzoo_env import AtomicAfricaAEC, env, raw_env
from atomic_africa.game import Game, IllegalActionError
from atomic_africa.game.testing import mini_scenario, unit


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def test_api_test_wrapped_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations warn as in PettingZoo's classic games
        api_test(env(), num_cycles=1000)


def test_api_test_raw_env_small_scenario_with_render():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(raw_env(scenario=_small(), render_mode="ansi"), num_cycles=2000)


def test_seed_test():
    seed_test(env, num_cycles=300)
    seed_test(lambda: raw_env(scenario=_small()), num_cycles=300)


def _random_play(e, seed, rng_seed=0):
    """Play one episode with random masked actions; returns the rewards seen at termination."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    return final


def test_episode_matches_the_game_step_by_step():
    e = raw_env(scenario=_small(), view="absolute")
    e.reset(seed=7)
    g = Game(_small(), 7)                       # the same game, driven directly
    rng = np.random.default_rng(3)
    while not g.is_over:
        agent = e.agent_selection
        p = int(agent[-1])
        assert p == g.current_player
        for q, other in enumerate(e.possible_agents):
            obs = e.observe(other)
            np.testing.assert_array_equal(obs["observation"], g.observation(q))
            expected_mask = g.action_mask().astype(np.int8) if q == p else np.zeros(g.num_actions, np.int8)
            np.testing.assert_array_equal(obs["action_mask"], expected_mask)
            assert obs["action_mask"].dtype == np.int8
            assert e.observation_space(other).contains(obs)
        a = int(rng.choice(g.legal_actions()))
        e.step(a)
        g.apply(a)
        assert e.rewards == {"player_0": 0, "player_1": 0} or g.is_over
    assert e.unwrapped.game.state_hash() == g.state_hash()
    assert all(e.terminations.values())
    returns = g.returns()
    assert e.rewards == {"player_0": returns[0], "player_1": returns[1]}
    assert sum(e.rewards.values()) == 0
    winner = -1 if g.result.winner is None else g.result.winner
    assert all(info["winner"] == winner for info in e.infos.values())


def test_final_rewards_through_agent_iter():
    e = env(scenario=_small())
    final = _random_play(e, seed=5)
    g = e.unwrapped.game
    assert g.is_over
    assert final == {"player_0": g.returns()[0], "player_1": g.returns()[1]}
    assert e.agents == []


def test_reset_seed_is_the_game_seed_and_unseeded_resets_follow_a_stream():
    e1, e2 = raw_env(), raw_env()
    e1.reset(seed=123)
    assert e1.game.seed == 123
    assert e1.game.state_hash() == Game(None, 123).state_hash()
    e2.reset(seed=123)
    seeds1 = []
    seeds2 = []
    for _ in range(3):
        e1.reset()
        e2.reset()
        seeds1.append(e1.game.seed)
        seeds2.append(e2.game.seed)
    assert seeds1 == seeds2 and len(set(seeds1)) == 3
    e1.reset(seed=124)
    e1.reset()
    assert e1.game.seed != seeds1[0]


def test_illegal_action_raw_raises_and_leaves_state_wrapped_terminates():
    e = raw_env()
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.game.state_hash()
    with pytest.raises(IllegalActionError):
        e.step(bad)
    assert e.game.state_hash() == before
    w = env()
    w.reset(seed=1)
    agent = w.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w.step(bad)
    assert w.rewards[agent] == -1 and all(w.terminations.values())


def test_spaces_and_metadata():
    e = raw_env()
    n = Game(None, 0).num_actions
    assert e.action_space("player_0").n == n
    box = e.observation_space("player_1")["observation"]
    assert box.dtype == np.float32 and np.all(box.low == 0) and np.all(np.isfinite(box.high))
    assert e.metadata["is_parallelizable"] is False  # turn-based with a data-dependent turn order
    assert isinstance(e, AtomicAfricaAEC)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    e.reset(seed=0)
    assert e.render() is None
    r = raw_env(render_mode="ansi")
    r.reset(seed=0)
    text = r.render()
    assert "turn 1/" in text and "to move: player_" in text


def test_a_game_over_before_its_first_decision_starts_terminated_and_the_agent_loop_ends():
    from test_vector_no_decision import never_decided
    e = raw_env(scenario=never_decided())
    e.reset(seed=3)
    g = e.game
    assert g.is_over and g.seed == 3  # a seeded reset plays its seed's game, even one over at set-up
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": -1, "player_1": 1} and e.infos["player_0"]["winner"] == 1
    assert not any(e.observe(a)["action_mask"].any() for a in e.possible_agents)
    seen = []
    for agent in e.agent_iter(max_iter=10):
        _, reward, term, _, _ = e.last()
        assert term
        seen.append((agent, reward))
        e.step(None)
    assert seen == [("player_0", -1), ("player_1", 1)] and e.agents == []
