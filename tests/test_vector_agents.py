"""The native batch driver around the native agents: whole games (play_agent_games,
VectorGame.play_games), explicit game seeds (start_games), native opponent turns
(VectorGame.opponent_turns), the per-env per-side agent streams, their snapshots and bad arguments.

Each is checked against the Python reference: ``Game`` with ``make_agent`` agents, or the VectorGame
stepped one decision at a time.
"""
import pickle

import numpy as np
import pytest

from atomic_africa.reference.game.agents import DoctrineAgent, GreedyAgent, ISMCTSAgent, make_agent
from atomic_africa.agents.native import agent_params, play_agent_games
from atomic_africa.game import GameSpec
from atomic_africa.reference.game import Game
from atomic_africa.game.native.agent_args import AGENT_KINDS
from atomic_africa.game.scenario import load_scenario
from atomic_africa.game.schema import END_REASONS
from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.game.native.vector import VectorGame
from support.vector_mirror import check_same_outputs, check_same_state, legal_random_actions, random_scenario

# random_scenario(EARLY): some of its games are over before their first decision (test_vector_no_decision)
EARLY = 50346
SPEC = GameSpec.build(load_scenario(random_scenario(EARLY)), None)
GAME_SEEDS = list(range(100, 124))
AGENT_SEEDS = [[7 * j + 1, 2**63 + 5 * j] for j in range(len(GAME_SEEDS))]   # big seeds too


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def _python_game(spec, gs, names, seeds):
    g = Game(spec, gs)
    agents = [make_agent(names[p], seeds[p]) for p in (0, 1)]
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    return g


@pytest.fixture(scope="module")
def python_games():
    return [_python_game(SPEC, gs, ("random", "random"), s) for gs, s in zip(GAME_SEEDS, AGENT_SEEDS)]


@pytest.mark.parametrize("batch,threads", [(1024, 1), (7, 2), (1, 1)])
def test_play_agent_games_equals_the_python_loop_game_for_game(python_games, batch, threads):
    assert any(len(g.history) == 0 for g in python_games), "no game over before a decision: pick another scenario"
    r = play_agent_games(SPEC, GAME_SEEDS, ("random", "random"), AGENT_SEEDS, record_actions=True,
                         threads=threads, batch=batch)
    for j, g in enumerate(python_games):
        res = g.result
        assert r["winner"][j] == (-1 if res.winner is None else res.winner), f"game {j}"
        assert END_REASONS[r["reason"][j]].text == res.reason, f"game {j}"
        assert r["turns"][j] == g.s.turn and r["decisions"][j] == len(g.history), f"game {j}"
        assert tuple(r["figures"][j]) == tuple(res.figures), f"game {j}"
        assert r["actions"][j].tolist() == list(g.history), f"game {j}"
    assert {k: r[k].dtype for k in ("winner", "reason", "turns", "decisions", "figures")} == \
        {"winner": np.int8, "reason": np.int8, "turns": np.int32, "decisions": np.int64, "figures": np.int32}
    assert r["figures"].shape == (len(GAME_SEEDS), 2)


def test_play_agent_games_takes_codes_and_per_game_kinds_and_records_only_when_asked():
    code = AGENT_KINDS["random"]
    a = play_agent_games(SPEC, GAME_SEEDS[:6], [(code, "Random ")] * 6, AGENT_SEEDS[:6])
    b = play_agent_games(SPEC, GAME_SEEDS[:6], ("random", "random"), AGENT_SEEDS[:6], batch=4)
    assert "actions" not in a
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    # another agent seed changes a random agent's game, and only that game
    seeds = [list(s) for s in AGENT_SEEDS[:6]]
    seeds[3] = [seeds[3][0] + 1, seeds[3][1] + 1]
    c = play_agent_games(SPEC, GAME_SEEDS[:6], ("random", "random"), seeds, record_actions=True)
    d = play_agent_games(SPEC, GAME_SEEDS[:6], ("random", "random"), AGENT_SEEDS[:6], record_actions=True)
    same = [c["actions"][j].tolist() == d["actions"][j].tolist() for j in range(6)]
    assert same == [True, True, True, False, True, True]


def test_agent_params_defaults_are_the_python_agents():
    g, d, s = GreedyAgent(), DoctrineAgent(), ISMCTSAgent()
    p = agent_params()
    assert p == {"wound_value": g.wound_value, "marker_value": g.marker_value, "rally_value": g.rally_value,
                 "cover_value": g.cover_value, "reserve_value": g.reserve_value, "standoff_cm": d.standoff_cm,
                 "simulations": s.simulations, "exploration": s.exploration, "rollout": AGENT_KINDS[s.rollout],
                 "rollout_depth": s.rollout_depth, "width": s.width}
    assert agent_params({"standoff_cm": 12})["standoff_cm"] == 12.0
    with pytest.raises(ValueError, match="agent_params: unknown \\['speed'\\]; allowed"):
        agent_params({"speed": 1.0})
    with pytest.raises(ValueError, match="agent_params\\['cover_value'\\]: nan is out of range; allowed finite"):
        agent_params({"cover_value": float("nan")})


def test_start_games_and_the_agent_streams_are_the_python_games_and_agents():
    """start_games(seeds, agent_seeds): env j plays Game(spec, gs) and side p's native random agent is
    RandomAgent(agent_seeds[j][p]), draw for draw."""
    sc = _small()
    vg = VectorGame(sc, 5, 0)
    gs, seeds = [11, 12, 13], [[1, 2], [3, 4], [2**64 - 1, 0]]
    envs = [4, 0, 2]
    vg.start_games(gs, seeds, envs=envs)
    games = [Game(sc, s) for s in gs]
    agents = [[make_agent("random", s) for s in pair] for pair in seeds]
    for step in range(150):
        active = np.zeros(5, bool)
        active[envs] = [not g.is_over for g in games]
        if not active.any():
            break
        acts = vg.random_actions(active)
        for j, i in enumerate(envs):
            if active[i]:
                a = agents[j][games[j].current_player].act(games[j])
                assert acts[i] == a, f"step {step}, game {j}"
                games[j].apply(a)
        vg.step(np.where(active, acts, 0), active=active)
        for j, i in enumerate(envs):
            if not games[j].is_over:   # (a game that ended is replaced by the env's next episode)
                np.testing.assert_array_equal(vg.observations(0, envs=[i])[0], games[j].observation(0))
    # an episode the VectorGame starts itself: side p's stream is RandomAgent(agent_seed(game_seed, p))
    vg = VectorGame(sc, 3, 9)
    g = [Game(sc, int(s)) for s in vg.episode_seeds]
    ag = [[make_agent("random", VectorGame.agent_seed(x.seed, p)) for p in (0, 1)] for x in g]
    for step in range(40):
        acts = vg.random_actions()
        want = [ag[i][g[i].current_player].act(g[i]) for i in range(3)]
        assert acts.tolist() == want, f"step {step}"
        _, _, term, _, _ = vg.step(acts)
        if term.any():
            break
        for i in range(3):
            g[i].apply(want[i])


def _opponent_by_steps(vg, kinds, learner):
    """The reference of opponent_turns: the opponent's native agent, one decision per VectorGame.step."""
    n = vg.num_envs
    rewards, ended = np.zeros((n, 2), np.float32), np.zeros(n, bool)
    winner, final, decisions = np.full(n, -2, np.int8), np.full(n, None, object), np.zeros(n, np.int64)
    while True:
        need = vg.current_player != learner
        if not need.any():
            break
        a = vg.agent_actions(kinds, active=need)
        _, r, t, _, info = vg.step(np.where(need, a, 0), active=need)
        rewards += r
        decisions += need
        for i in np.flatnonzero(t):
            assert not ended[i]
            ended[i], winner[i], final[i] = True, info["winner"][i], info["final_observation"][i]
    return rewards, ended, winner, final, decisions


@pytest.mark.parametrize("threads", [1, 2])
def test_opponent_turns_equal_stepping_the_opponent_one_decision_at_a_time(threads):
    n = 8
    kinds = np.array([AGENT_KINDS[k] for k in ("random", "heuristic", "greedy", "doctrine")] * 2, np.int8)
    learner = np.array([0, 1] * 4, np.int8)
    vg = VectorGame(_small(), n, 3, threads=threads)
    vg.agent_params = agent_params()
    twin = vg.clone()
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(60):
        obs, rew, term, trunc, info = vg.opponent_turns(kinds, learner)
        r, t, w, f, d = _opponent_by_steps(twin, kinds, learner)
        np.testing.assert_array_equal(rew, r)
        np.testing.assert_array_equal(term, t)
        np.testing.assert_array_equal(info["winner"], w)
        np.testing.assert_array_equal(info["decisions"], d)
        assert not trunc.any()
        for i in range(n):
            assert (info.get("final_observation", [None] * n)[i] is None) == (f[i] is None)
            if f[i] is not None:
                np.testing.assert_array_equal(info["final_observation"][i], f[i])
        np.testing.assert_array_equal(obs, twin.observations())
        np.testing.assert_array_equal(vg.current_player, learner)
        check_same_state(vg, twin, f"step {step}", events=False)
        ends += int(t.sum())
        a = legal_random_actions(rng, vg.action_masks())
        check_same_outputs(vg.step(a), twin.step(a), f"learner step {step}")
    assert ends >= 4


def test_snapshot_round_trip_keeps_the_agent_streams_and_params():
    vg = VectorGame(_small(), 4, 5)
    vg.agent_params = agent_params({"wound_value": 2.5})
    for _ in range(5):
        vg.opponent_turns("random", 0)
        vg.step(vg.random_actions())
    arrays = vg.__getstate__()["arrays"]
    assert arrays["agent_rng"].shape == (4, 2, 6) and arrays["agent_rng"].dtype == np.uint64
    assert (arrays["agent_rng"][:, :, 4] == 1).any()   # a buffered half-word survives the round trip
    copy = pickle.loads(pickle.dumps(vg))
    assert copy.agent_params == vg.agent_params
    np.testing.assert_array_equal(copy.__getstate__()["arrays"]["agent_rng"], arrays["agent_rng"])
    for step in range(20):
        check_same_outputs(vg.opponent_turns(["random", "greedy"] * 2, 1),
                           copy.opponent_turns(["random", "greedy"] * 2, 1), f"step {step}")
        a = vg.random_actions()
        np.testing.assert_array_equal(a, copy.random_actions())
        check_same_outputs(vg.step(a), copy.step(a), f"step {step}")
    d = vg.__getstate__()
    d["arrays"]["agent_rng"][2, 1, 3] &= ~np.uint64(1)
    with pytest.raises(ValueError, match=r"arrays\['agent_rng'\]\[env 2, side 1, word 3\]"):
        VectorGame.__new__(VectorGame).__setstate__(d)
    d = vg.__getstate__()
    d["agent_params"] = {"wound_value": 1.0}
    with pytest.raises(ValueError, match="state: agent_params: missing"):
        VectorGame.__new__(VectorGame).__setstate__(d)
    d["agent_params"] = None
    new = VectorGame.__new__(VectorGame)
    new.__setstate__(d)
    assert new.agent_params is None
    with pytest.raises(ValueError, match="agent_params"):
        new.opponent_turns("greedy", 0)


def _state(vg):
    return {k: a.copy() for k, a in vg.__getstate__()["arrays"].items()}


def _same(a, b):
    return all(np.array_equal(a[k], b[k]) for k in a)


def test_bad_arguments_are_refused_with_clear_errors_and_no_state_change():
    vg = VectorGame(_small(), 3, 1)
    before = _state(vg)
    bad_calls = [
        (lambda: vg.opponent_turns("nobody", 0), ValueError, "opponent: unknown native agent 'nobody'; allowed 'random' \\(0\\)"),
        (lambda: vg.opponent_turns(9, 0), ValueError, "opponent: 9 is not a native agent code; allowed"),
        (lambda: vg.opponent_turns(1.5, 0), TypeError, "opponent: expected an agent name or code"),
        (lambda: vg.opponent_turns(["random"] * 2, 0), ValueError, "opponent: expected one agent, or an array of agents of shape \\(3,\\) \\(one per env\\), got shape \\(2,\\)"),
        (lambda: vg.opponent_turns("greedy", 0), ValueError, "opponent: the greedy and doctrine agents need VectorGame.agent_params"),
        (lambda: vg.opponent_turns("random", 2), ValueError, "learner: 2 is out of range; allowed 0..1"),
        (lambda: vg.opponent_turns("random", [0, 1]), ValueError, "learner: expected 0, 1 or shape \\(3,\\)"),
        (lambda: vg.opponent_turns("random", 0, active=[1, 0, 1]), TypeError, "active: expected a bool array"),
        (lambda: vg.agent_actions("doctrine"), ValueError, "agents: the greedy and doctrine agents need"),
        (lambda: vg.start_games([1, 2], envs=[0, 0]), ValueError, "envs: an env index appears twice"),
        (lambda: vg.start_games([1, 2, 3, 4]), ValueError, "game_seeds: 4 games for 3 envs"),
        (lambda: vg.start_games([1, -2]), ValueError, "game_seeds\\[1\\]: -2 is out of range; allowed 0..18446744073709551615"),
        (lambda: vg.start_games([1], [[1, 2, 3]]), ValueError, "agent_seeds: expected shape \\(1, 2\\), got \\(1, 3\\)"),
        (lambda: vg.start_games([1], envs=[3]), ValueError, "envs: value 3 is out of range; allowed 0..2"),
        (lambda: vg.play_games([[1]], "random", [[0, 0]]), ValueError, "game_seeds: expected a 1-d array"),
        (lambda: vg.play_games([1], "random", [[0, 0]], record_actions=2), TypeError, "record_actions: expected a bool"),
        (lambda: setattr(vg, "agent_params", {"wound_value": 1.0}), ValueError, "agent_params: missing"),
        (lambda: setattr(vg, "agent_params", dict(agent_params(), cover_value="x")), TypeError,
         "agent_params\\['cover_value'\\]: expected a finite real number"),
    ]
    for call, exc, msg in bad_calls:
        with pytest.raises(exc, match=msg):
            call()
        assert _same(_state(vg), before), f"state changed by a refused call ({msg})"
        assert vg.agent_params is None
    seeds = [[0, 0]] * 2
    for kw, exc, msg in [
        ({"kinds": ("random", "nobody")}, ValueError, "kinds: unknown native agent 'nobody'; allowed"),
        ({"kinds": [("random", "random")] * 3}, ValueError, "kinds: expected one agent, or an array of agents of shape \\(2, 2\\) \\(one per env and side\\), "
         "got shape \\(3, 2\\)"),
        ({"agent_seeds": [[0, 0]]}, ValueError, "agent_seeds: expected shape \\(2, 2\\)"),
        ({"agent_seeds": [[0.5, 0]] * 2}, TypeError, "agent_seeds\\[0, 0\\]: expected an integer, got float 0.5"),
        ({"agent_seeds": np.zeros((2, 2))}, TypeError, "agent_seeds: expected non-negative integer seeds, got dtype float64"),
        ({"batch": 0}, ValueError, "batch: 0 is out of range; allowed 1..16777216"),
        ({"threads": 0}, ValueError, "threads"),
        ({"agent_params": {"standoff": 1}}, ValueError, "agent_params: unknown \\['standoff'\\]"),
        ({"agent_params": [1.0]}, TypeError, "agent_params: expected a dict"),
    ]:
        args = {"kinds": ("random", "random"), "agent_seeds": seeds} | kw
        with pytest.raises(exc, match=msg):
            play_agent_games(SPEC, [1, 2], args.pop("kinds"), args.pop("agent_seeds"), **args)


def test_opponent_turns_stop_where_the_learner_never_decides_in_a_whole_game():
    """In random_scenario(EARLY) side 0's only unit is attached (no order cards): a learner on side 0
    never decides, so the opponent would play game after game; the call stops at the second end."""
    vg = VectorGame(SPEC, 4, 3)
    with pytest.raises(RuntimeError, match="opponent_turns: env \\d: a second game ended in this call"):
        vg.opponent_turns("random", 0)


def test_from_games_and_finished_games_are_valid_snapshots():
    """VectorGame.from_games: env j plays Game(spec, game_seeds[j]) (over-at-start games kept); the
    envs play_games leaves finished pickle, load and reset like any state."""
    over = next(gs for gs in range(200) if Game(SPEC, gs).is_over)
    vg = VectorGame.from_games(SPEC, [over, GAME_SEEDS[0]])
    assert vg.current_player.tolist()[0] == -1 and vg.episode_seeds.tolist() == [over, GAME_SEEDS[0]]
    np.testing.assert_array_equal(vg.observations(1), np.stack([Game(SPEC, over).observation(1),
                                                                Game(SPEC, GAME_SEEDS[0]).observation(1)]))
    vg.play_games(GAME_SEEDS[:2], "random", AGENT_SEEDS[:2])
    copy = pickle.loads(pickle.dumps(vg))
    check_same_state(vg, copy, "finished games")
    assert (copy.current_player == -1).all()
    check_same_outputs(vg.reset(seed=4), copy.reset(seed=4), "reset after play_games")
    empty = play_agent_games(SPEC, [], ("random", "random"), np.zeros((0, 2), int))
    assert all(a.shape[0] == 0 for a in empty.values())
