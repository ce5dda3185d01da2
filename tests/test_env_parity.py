"""The same options in every environment (issue 26): ``observation="compact"`` in the Gymnasium
single and vector envs, PettingZoo and RLlib (the full observation's non-constant columns);
``shaping`` and ``skip_forced`` in PettingZoo and RLlib (each agent's shaping terms telescope over
its own decisions; no agent is asked a forced decision); and the realistic observation bounds hold
in every state of many games on both engines."""
import numpy as np
import pytest

from atomic_africa.reference.game.agents import RandomAgent
from atomic_africa.agents.native import agent_params
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.pettingzoo_env import raw_env
from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv
from atomic_africa.env.shaping import RewardShaping, game_totals, potentials, start_figures
from atomic_africa.game import GameSpec, Scenario, VectorGame, load_scenario
from atomic_africa.reference.game import Game
from atomic_africa.game.observation_spec import compact_indices, observation_bounds, observation_spec


def test_compact_is_the_full_observation_without_its_constant_features():
    spec = GameSpec.build()
    keep = compact_indices(spec)
    assert 0 < len(keep) < spec.observation_size
    full, compact = AtomicAfricaEnv(), AtomicAfricaEnv(observation="compact")
    assert compact.observation_space.shape == (len(keep),)
    a, _ = full.reset(seed=3)
    b, _ = compact.reset(seed=3)
    np.testing.assert_array_equal(a[keep], b)
    assert compact.observation_space.contains(b)
    venv = AtomicAfricaVectorEnv(num_envs=4, observation="compact", player="random", view="absolute")
    fvenv = AtomicAfricaVectorEnv(num_envs=4, player="random", view="absolute")
    o, info = venv.reset(seed=1)
    fo, _ = fvenv.reset(seed=1)
    assert venv.single_observation_space.shape == (len(keep),)
    np.testing.assert_array_equal(fo[:, keep], o)
    for _ in range(300):
        actions = venv.vector_game.random_actions()
        o, _, term, _, info = venv.step(actions)
        fo, _, _, _, finfo = fvenv.step(actions)
        np.testing.assert_array_equal(fo[:, keep], o)
        if term.any():
            i = int(np.flatnonzero(term)[0])
            np.testing.assert_array_equal(finfo["final_obs"][i][keep], info["final_obs"][i])
    pz, pzf = raw_env(observation="compact"), raw_env()
    pz.reset(seed=2)
    pzf.reset(seed=2)
    np.testing.assert_array_equal(pzf.observe("player_1")["observation"][keep], pz.observe("player_1")["observation"])
    assert pz.observation_space("player_0")["observation"].shape == (len(keep),)
    rl, rlf = AtomicAfricaMultiAgentEnv(observation="compact"), AtomicAfricaMultiAgentEnv()
    (agent, x), = rl.reset(seed=4)[0].items()
    (_, y), = rlf.reset(seed=4)[0].items()
    np.testing.assert_array_equal(y["observations"][keep], x["observations"])
    assert rl.observation_spaces[agent]["observations"].shape == (len(keep),)
    with pytest.raises(ValueError, match="observation: 'small' is not an observation option"):
        AtomicAfricaVectorEnv(num_envs=2, observation="small")


def _phi(game, p, shaping, start):
    return 0.0 if game.is_over else float(potentials(game_totals(game), start, p, shaping))


def test_pettingzoo_shaping_telescopes_over_each_agents_decisions():
    shaping = RewardShaping(scale=1.0, gamma=1.0)
    plain, shaped = raw_env(), raw_env(shaping=shaping)
    start = start_figures(GameSpec.build())
    plain.reset(seed=5)
    shaped.reset(seed=5)
    phi0 = [_phi(shaped.game, p, shaping, start) for p in (0, 1)]
    totals = {a: 0.0 for a in plain.possible_agents}
    rng = np.random.default_rng(0)
    for agent in shaped.agent_iter():
        _, r, term, trunc, _ = shaped.last()
        _, r0, _, _, _ = plain.last()
        totals[agent] += r - r0
        if term or trunc:
            shaped.step(None)
            plain.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(shaped.observe(agent)["action_mask"])))
        shaped.step(a)
        plain.step(a)
    # gamma = 1: an agent's terms sum to -Phi(s_0) (Phi(terminal) = 0)
    for p, a in enumerate(plain.possible_agents):
        assert totals[a] == pytest.approx(-phi0[p], abs=1e-9)


def test_rllib_shaping_telescopes_and_skip_forced_asks_no_forced_decision():
    shaping = {"scale": 1.0, "gamma": 1.0}
    env = AtomicAfricaMultiAgentEnv(shaping=shaping, skip_forced=True, seed=0)
    plain = AtomicAfricaMultiAgentEnv(skip_forced=True, seed=0)
    obs, infos = env.reset(seed=6)
    pobs, _ = plain.reset(seed=6)
    vg = env.vector_game
    start = start_figures(vg.spec)
    phi0 = [float(potentials(vg.side_totals()[0], start, p, RewardShaping(1.0, 1.0))) for p in (0, 1)]
    rng = np.random.default_rng(1)
    totals, skipped, asked = [0.0, 0.0], 0, 0
    while True:
        (agent, o), = obs.items()
        mask = o["action_mask"]
        assert mask.sum() > 1            # forced decisions are the env's
        asked += 1
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, term, _, infos = env.step({agent: a})
        pobs, prewards, _, _, _ = plain.step({agent: a})
        for k, v in rewards.items():
            totals[env.agents.index(k)] += v - prewards.get(k, 0.0)
        skipped += sum(i.get("skipped", 0) for i in infos.values())
        if term["__all__"]:
            break
    assert skipped > 0 and asked > 0
    for p in (0, 1):
        assert totals[p] == pytest.approx(-phi0[p], abs=1e-6)


def _check_states(obs, high, names, what):
    bad = np.flatnonzero((obs > high).any(axis=0))
    assert not bad.size, f"{what}: {[names[i] for i in bad]} above their realistic bound"


@pytest.mark.parametrize("scenario", ["default", "meeting_engagement", "generated"])
def test_the_realistic_bounds_hold_in_many_games_of_both_engines(scenario):
    """Random and greedy play on the native engine (200 games each here; the slow twin plays 2,000)
    and random play on the Python engine: both players' observations at every decision."""
    _bounds_hold(scenario, native_games=200, python_games=2)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["default", "meeting_engagement", "generated"])
def test_the_realistic_bounds_hold_in_thousands_of_games(scenario):
    _bounds_hold(scenario, native_games=2000, python_games=10)


def _bounds_hold(scenario, native_games, python_games):
    sc = {"default": None, "meeting_engagement": load_scenario("meeting_engagement"),
          "generated": Scenario.generate(11, units=(3, 7), mix={"infantry": 2, "vehicle": 1, "weapon_team": 1,
                                                                "light_infantry": 1})}[scenario]
    spec = GameSpec.build(sc)
    _, high = observation_bounds(spec)
    names = [f.name for f in observation_spec(spec)]
    for kind in ("random", "greedy"):
        vg = VectorGame(spec, 128, 3)
        vg.agent_params = agent_params()
        games = 0
        while games < native_games:
            for p in (0, 1):
                _check_states(vg.observations(player=p), high, names, f"{scenario} native {kind}")
            _, _, term, _, info = vg.step(vg.agent_actions(kind), observe=False)
            if term.any():
                for f in info["final_observation"][term]:
                    _check_states(f, high, names, f"{scenario} native {kind} final")
            games += int(term.sum())
    for seed in range(python_games):
        g = Game(spec, seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 100)]
        while not g.is_over:
            _check_states(np.stack([g.observation(0), g.observation(1)]), high, names, f"{scenario} python")
            g.apply(agents[g.current_player].act(g))
