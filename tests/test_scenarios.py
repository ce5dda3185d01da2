"""A battle per episode (atomic_africa.game.scenarios, game.native.mixed): the padded layout maps
every battle's observation and ids one to one, the map each game plays comes from its seed alone,
and every environment and self-play plays the games a single battle's engine plays for those seeds."""
import pickle

import numpy as np
import pytest
from aa_core import vbatch

from atomic_africa.env import masked_sample
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.pettingzoo_env import raw_env
from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv
from atomic_africa.game import Game, GameSpec, Scenario, VectorGame
from atomic_africa.game import IllegalActionError
from atomic_africa.game.native.mixed import MixedVectorGame, engine_maps
from atomic_africa.game.native.spec_file import spec_bytes
from atomic_africa.game.observation_spec import observation_bounds
from atomic_africa.game.scenarios import PaddedSpec, ScenarioSampler, map_seed
from atomic_africa.selfplay import play_games
from support.mixed_reference import ReferenceMixedVectorGame

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


def _same(a, b, what):
    """Two engines' returns (arrays, dicts of arrays, object arrays of final observations) are equal."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), what
        for k in a:
            _same(a[k], b[k], f"{what}[{k!r}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), what
        for k, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{what}[{k}]")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert a.shape == b.shape, what
        for k, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
            assert (x is None) == (y is None), f"{what}[{k}]"
            if x is not None:
                np.testing.assert_array_equal(x, y, err_msg=f"{what}[{k}]")
    elif a is None or b is None:
        assert a is None and b is None, what
    else:
        assert np.asarray(a).dtype == np.asarray(b).dtype, what
        np.testing.assert_array_equal(a, b, err_msg=what)


@pytest.mark.parametrize("maps, envs, seed", [(3, 7, 3), (8, 16, 0)])
def test_the_native_mixed_engine_plays_the_per_map_engines_games_call_for_call(maps, envs, seed):
    """One native engine of every map (issue 33) against the implementation it replaced, one
    VectorGame per map driven from Python (tests/support/mixed_reference.py): the same maps, games,
    observations, masks, rewards, final observations and agent draws after every call."""
    sampler = SAMPLER if maps == 3 else ScenarioSampler.generated(maps, seed=2)
    new, ref = MixedVectorGame(sampler, envs, seed), ReferenceMixedVectorGame(sampler, envs, seed)
    rng = np.random.default_rng(seed)
    ended = 0
    for t in range(160):
        masks = new.action_masks()
        _same(masks, ref.action_masks(), f"masks at {t}")
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        active = rng.random(envs) < 0.8
        out = new.step(acts, active=active)
        _same(out, ref.step(acts, active=active), f"step {t}")
        ended += int(out[2].sum())
        learner = "random" if t % 2 else 1
        out = new.opponent_turns("random", learner, observe=t % 3 > 0)
        want = ref.opponent_turns("random", learner, observe=t % 3 > 0)
        # where a game ended, the reference also counted the moves its per-map engine played in a
        # game of its own (that engine's automatic reset, which it then replaced): not the env's
        done = out[2]
        assert (out[4]["decisions"][done] <= want[4]["decisions"][done]).all()
        out[4]["decisions"][done] = want[4]["decisions"][done]
        _same(out, want, f"opponent_turns {t}")
        ended += int(out[2].sum())
        _same(new.random_actions(active=~active), ref.random_actions(active=~active), f"random_actions {t}")
        _same(new.agent_actions("heuristic"), ref.agent_actions("heuristic"), f"agent_actions {t}")
        some = rng.permutation(envs)[:3]
        _same(new.observations(0, envs=some), ref.observations(0, envs=some), f"observations {t}")
        _same(new.action_masks(envs=some), ref.action_masks(envs=some), f"masks of some at {t}")
        for name in ("maps", "episodes", "episode_seeds", "current_player", "learner_sides"):
            _same(getattr(new, name), getattr(ref, name), f"{name} at {t}")
        _same(new.side_totals(), ref.side_totals(), f"side_totals at {t}")
        _same(new.start_figures(), ref.start_figures(), f"start_figures at {t}")
    _same(new.reset(), ref.reset(), "reset")
    _same(new.reset(seed=seed + 1), ref.reset(seed=seed + 1), "reset(seed)")
    assert ended >= 5 and len(set(new.maps.tolist())) > 1     # resets onto new maps were compared


def test_the_mixed_engine_gives_the_same_games_on_any_number_of_threads():
    sampler = ScenarioSampler.generated(8, seed=2)
    games = [MixedVectorGame(sampler, 24, 3, threads=k) for k in (1, 2)]
    for t in range(150):
        outs = []
        for g in games:
            acts = g.random_actions()
            outs.append((acts, g.step(acts), g.opponent_turns("random", "random"), g.action_masks()))
        _same(outs[1], outs[0], f"threads=2 at {t}")
    for g in games[1:]:
        _same((g.maps, g.episodes, g.episode_seeds), (games[0].maps, games[0].episodes, games[0].episode_seeds),
              "episodes")
    # every game is the single battle's game of its seed
    a = games[0]
    for i in range(6):
        j, g = int(a.maps[i]), int(a.episode_seeds[i])
        assert sampler.pick(g) == j
        single = VectorGame.from_games(sampler.specs[j], [g])
        assert single.current_player[0] >= 0


@pytest.mark.parametrize("weights", [None, [8, 1, 1, 0.5]])
def test_the_kernel_draws_the_map_each_seed_picks(weights):
    """The map drawn in C (at every game start) is ScenarioSampler.pick's, for any weights."""
    sampler = ScenarioSampler([s.scenario for s in SAMPLER.specs] + [SAMPLER.specs[0].scenario], weights=weights)
    seeds = np.random.default_rng(1).integers(0, 2**64, size=400, dtype=np.uint64)
    seeds[:3] = [0, 1, 2**64 - 1]
    vg = MixedVectorGame.from_games(sampler, seeds)
    np.testing.assert_array_equal(vg.maps, sampler.picks(seeds))
    np.testing.assert_array_equal(vg.episode_seeds, seeds)
    # each env holds Game(spec of its map, seed): the same observation, padded
    for i in range(0, 400, 37):
        j = int(vg.maps[i])
        g = Game(sampler.specs[j], int(seeds[i]))
        np.testing.assert_array_equal(vg.observations(1, envs=[i])[0], sampler.padded.observation(g.observation(1), j))


def test_mixed_play_games_equal_each_maps_engine_in_padded_ids():
    seeds = np.arange(20, dtype=np.uint64) + 100
    agent_seeds = np.stack([seeds + 7, seeds + 9], axis=1)
    vg = MixedVectorGame(SAMPLER, 20, 0)
    out = vg.play_games(seeds, ("random", "heuristic"), agent_seeds, record_actions=True)
    for j in range(20):
        m = SAMPLER.pick(int(seeds[j]))
        one = VectorGame(SAMPLER.specs[m], 1, 0).play_games(seeds[j:j + 1], ("random", "heuristic"),
                                                            agent_seeds[j:j + 1], record_actions=True)
        for k in ("winner", "reason", "turns", "decisions", "figures"):
            np.testing.assert_array_equal(out[k][j], one[k][0])
        np.testing.assert_array_equal(out["actions"][j], SAMPLER.padded.to_padded(one["actions"][0], m))


def test_a_padded_id_the_map_lacks_is_refused_before_any_game_moves():
    pad = SAMPLER.padded
    small = int(np.argmin([s.C for s in SAMPLER.specs]))
    assert SAMPLER.specs[small].C < pad.C
    seeds = [g for g in range(200) if SAMPLER.pick(g) == small][:1] + [g for g in range(200)
                                                                       if SAMPLER.pick(g) != small][:2]
    vg = MixedVectorGame.from_games(SAMPLER, seeds)
    before = vg.observations()
    acts = vg.random_actions()
    acts[0] = pad.space.assign(0, pad.C - 1)    # a unit slot the small map does not have
    with pytest.raises(IllegalActionError, match=rf"^actions\[0\]: action {acts[0]} is not legal in env 0 "
                                                 rf"\(map {small}, stage ORDERS, player \d\); legal: "):
        vg.step(acts)
    acts[0] = pad.num_actions
    with pytest.raises(IllegalActionError, match=r"out of range in env 0; allowed 0\.\."):
        vg.step(acts)
    np.testing.assert_array_equal(vg.observations(), before)
    with pytest.raises(TypeError, match="MixedVectorGame: snapshots"):
        pickle.dumps(vg)
    with pytest.raises(ValueError, match="record_events"):
        vg.events(0)


def test_a_bad_padding_is_refused_by_the_kernel():
    specs, padding = engine_maps(SAMPLER)
    bad = dict(padding, act_blocks=padding["act_blocks"].copy())
    bad["act_blocks"][1, 0, 2] += 1              # map 1's first block one row longer than its ids
    with pytest.raises(ValueError, match="padding: map 1's action"):
        vbatch.Engine(specs, 2, False, bad)
    with pytest.raises(ValueError, match="padding: several maps"):
        vbatch.Engine(specs, 2, False)


def test_sampled_maps_travel_into_c_as_spec_files():
    """A map sampled in Python reaches the kernel as every battle does: its spec file, which the C
    loader reads (a corrupted one is refused with the loader's message, naming the map)."""
    specs, padding = engine_maps(SAMPLER)
    assert len(specs) == len(SAMPLER.specs) and all(isinstance(s, bytes) for s in specs)
    assert all(s == spec_bytes(spec) for s, spec in zip(specs, SAMPLER.specs))
    broken = list(specs)
    broken[1] = broken[1][:-1] + bytes([broken[1][-1] ^ 1])
    with pytest.raises(ValueError, match="map 1: spec file: checksum mismatch"):
        vbatch.Engine(broken, 2, False, padding)


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
