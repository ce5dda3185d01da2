"""A battle per episode (atomic_africa.game.scenarios, game.native.mixed): the padded layout maps
every battle's observation and ids one to one, the map each game plays comes from its seed alone,
and every environment and self-play plays the games a single battle's engine plays for those seeds."""
import numpy as np
import pytest

from atomic_africa.env import masked_sample
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.pettingzoo_env import raw_env
from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv
from atomic_africa.game import Game, GameSpec, Scenario, VectorGame
from atomic_africa.game.native.mixed import MixedVectorGame
from atomic_africa.game.observation_spec import observation_bounds
from atomic_africa.game.scenarios import PaddedSpec, ScenarioSampler, map_seed
from atomic_africa.selfplay import play_games

SAMPLER = ScenarioSampler.generated(3, seed=1, units=(2, 5))


def test_the_padded_layout_maps_each_battle_one_to_one():
    pad = SAMPLER.padded
    assert pad.C == max(s.C for s in SAMPLER.specs) and pad.features == max(len(s.scenario.terrain)
                                                                             for s in SAMPLER.specs)
    for j, spec in enumerate(SAMPLER.specs):
        obs_index, to_padded, from_padded = pad.maps(j)
        assert len(set(obs_index.tolist())) == spec.observation_size and obs_index.max() < pad.observation_size
        np.testing.assert_array_equal(from_padded[to_padded], np.arange(spec.num_actions))
        assert (from_padded >= 0).sum() == spec.num_actions
        # an id means the same in every battle: card c to own slot u, target side * C + k
        assert pad.to_padded(spec.space.assign(5, 1), j) == pad.space.assign(5, 1)
        assert pad.to_padded(spec.space.target(spec.C + 1), j) == pad.space.target(pad.C + 1)
        g = Game(spec, 4)
        padded = pad.observation(g.observation(1), j)
        np.testing.assert_array_equal(padded[obs_index], g.observation(1))
        assert not np.delete(padded, obs_index).any()
        m = pad.mask(g.action_mask(), j)
        np.testing.assert_array_equal(pad.to_engine(np.flatnonzero(m), j), np.flatnonzero(g.action_mask()))
        low, high = observation_bounds(pad)
        assert (padded <= high).all() and (high[obs_index] >= observation_bounds(spec)[1]).all()
    assert pad.to_engine(pad.num_actions, 0) == -1 and pad.to_engine(-3, 0) == -1


def test_each_game_plays_the_map_its_seed_draws():
    picks = SAMPLER.picks(np.arange(3000))
    np.testing.assert_array_equal(picks, [SAMPLER.pick(g) for g in range(3000)])
    counts = np.bincount(picks, minlength=3)
    assert (np.abs(counts - 1000) < 4 * np.sqrt(3000 * (1 / 3) * (2 / 3))).all()
    heavy = ScenarioSampler([s.scenario for s in SAMPLER.specs], weights=[8, 1, 1])
    assert (heavy.picks(np.arange(2000)) == 0).mean() > 0.7
    assert map_seed(1, 0) != map_seed(1, 1) and SAMPLER.specs[0].scenario == Scenario.generate(map_seed(1, 0),
                                                                                               units=(2, 5))
    one = ScenarioSampler([None])
    assert one.pick(123) == 0 and one.padded.observation_size == GameSpec.build().observation_size


def _trajectory(env, steps, rng):
    obs, info = env.reset(seed=5)
    out = [(obs.copy(), info["action_mask"].copy(), None, None, None)]
    acts = []
    for _ in range(steps):
        a = masked_sample(rng, info["action_mask"])
        acts.append(a)
        obs, r, term, _, info = env.step(a)
        out.append((obs.copy(), info["action_mask"].copy(), r.copy(), term.copy(), info.get("final_obs")))
    return out, acts


@pytest.mark.parametrize("view", ["relative", "absolute"])
def test_the_vector_env_plays_the_single_env_games_on_every_map(view):
    venv = AtomicAfricaVectorEnv(num_envs=5, scenario=SAMPLER, player="random", view=view, shaping=True)
    traj, acts = _trajectory(venv, 350, np.random.default_rng(0))
    assert len(set(venv.vector_game.maps.tolist())) > 1
    assert venv.observation_space.contains(traj[-1][0])
    ended = 0
    for i in range(venv.num_envs):
        single = AtomicAfricaEnv(scenario=SAMPLER, player="random", view=view, shaping=True)
        k = 0
        o, inf = single.reset(seed=VectorGame.episode_seed(5, i, k))
        np.testing.assert_array_equal(o, traj[0][0][i])
        for t, a in enumerate(acts):
            o, r, term, _, inf = single.step(int(a[i]))
            obs, mask, vr, vterm, vfinal = traj[t + 1]
            assert r == pytest.approx(vr[i], abs=1e-12) and term == vterm[i], (i, t)
            if term:
                np.testing.assert_array_equal(o, vfinal[i])
                k += 1
                ended += 1
                o, inf = single.reset(seed=VectorGame.episode_seed(5, i, k))
            np.testing.assert_array_equal(o, obs[i])
            np.testing.assert_array_equal(inf["action_mask"], mask[i])
    assert ended >= 3


def test_the_mixed_engine_gives_the_same_games_on_any_number_of_threads():
    a, b = MixedVectorGame(SAMPLER, 6, 3, threads=1), MixedVectorGame(SAMPLER, 6, 3, threads=2)
    for _ in range(400):
        acts = a.random_actions()
        np.testing.assert_array_equal(acts, b.random_actions())
        oa, ra, ta, _, _ = a.step(acts)
        ob, rb, tb, _, _ = b.step(acts)
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ta, tb)
    np.testing.assert_array_equal(a.episode_seeds, b.episode_seeds)
    # every game is the single battle's game of its seed
    for i in range(6):
        j, g = int(a.maps[i]), int(a.episode_seeds[i])
        assert SAMPLER.pick(g) == j
        vg = VectorGame.from_games(SAMPLER.specs[j], [g])
        assert vg.current_player[0] >= 0


def test_pettingzoo_rllib_and_selfplay_sample_the_same_battles():
    pz = raw_env(scenario=SAMPLER)
    pz.reset(seed=11)
    assert pz.game_spec is SAMPLER.specs[SAMPLER.pick(11)]
    assert pz.observation_space("player_0")["observation"].shape == (SAMPLER.padded.observation_size,)
    rl = AtomicAfricaMultiAgentEnv(scenario=SAMPLER, seed=0)
    (agent, o), = rl.reset(seed=2)[0].items()
    assert o["observations"].shape == (SAMPLER.padded.observation_size,)
    g = VectorGame.episode_seed(2, 0, 0)
    assert rl.vector_game.maps[0] == SAMPLER.pick(g)
    native = play_games(30, ("random", "heuristic"), seed=4, scenario=SAMPLER).records
    python = play_games(30, ("random", "heuristic"), seed=4, scenario=SAMPLER, engine="python", batch_size=7).records
    assert native == python
    assert len({SAMPLER.pick(r["seed"]) for r in native}) == 3


def test_bad_samplers_are_refused_by_name():
    with pytest.raises(ValueError, match="empty list"):
        ScenarioSampler([])
    with pytest.raises(ValueError, match="weights"):
        ScenarioSampler([None, None], weights=[1, -1])
    with pytest.raises(ValueError, match="weights"):
        ScenarioSampler([None, None], weights=[1])
    with pytest.raises(TypeError, match="scenarios"):
        ScenarioSampler("default")
    with pytest.raises(ValueError, match="maps"):
        ScenarioSampler.generated(0)
    with pytest.raises(TypeError, match="sampler"):
        MixedVectorGame([None], 2)
    with pytest.raises(ValueError, match="empty list"):
        PaddedSpec(())
