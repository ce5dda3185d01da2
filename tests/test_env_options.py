"""The Gymnasium envs' trainer options: player="random", reward shaping, skipping forced decisions.

Each option is off by default; with it on, the vector env equals the single-agent env game for game
(the same sides, rewards to the last bit, skip counts), and runs are reproducible from the seed.
"""
from __future__ import annotations

import numpy as np
import pytest

from support.env_trajectories import assert_same_trajectory, run_trajectory
from atomic_africa.game import VectorGame
from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.shaping import RewardShaping, game_totals, potentials, start_figures
from atomic_africa.game import Game
from atomic_africa.game.native.agent_args import learner_side
from atomic_africa.game.testing import mini_scenario, unit

SMALL = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                      [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)
SHAPING = {"scale": 2.0, "gamma": 0.9, "wound_weight": 0.5, "marker_weight": 0.25}


def _choice(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


class Highest:
    """The highest legal action (a deterministic opponent for the single env)."""

    def act(self, game):
        return game.legal_actions()[-1]


def _highest_batched(observations, masks, envs):
    return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)


def test_learner_side_is_the_documented_function_native_and_python():
    vg = VectorGame(SMALL, 64, 7)
    seeds = vg.episode_seeds
    want = [int(np.random.SeedSequence(int(s), spawn_key=(2,)).generate_state(1, np.uint64)[0] & 1)
            for s in seeds]
    np.testing.assert_array_equal(vg.learner_sides, want)
    assert [learner_side(int(s)) for s in seeds] == want == [VectorGame.learner_side(int(s)) for s in seeds]
    assert 0 < sum(want) < 64                    # both sides drawn across games
    for bad in (-1, 1.5, "x"):
        with pytest.raises((TypeError, ValueError), match="game_seed"):
            learner_side(bad)


def test_opponent_turns_with_a_random_learner_stops_at_each_games_drawn_side():
    vg = VectorGame(SMALL, 16, 4)
    ended = 0
    for _ in range(60):
        _, _, term, _, _ = vg.opponent_turns("random", "random")
        ended += int(term.sum())
        np.testing.assert_array_equal(vg.current_player, vg.learner_sides)
        vg.step(vg.random_actions())
    assert ended > 0 and 0 < vg.learner_sides.sum() < 16


@pytest.mark.parametrize("opponent,shaping,skip", [("random", None, False), ("random", SHAPING, True),
                                                   ("greedy", SHAPING, False), ("callable", None, True)])
def test_vector_env_equals_single_env_with_options(opponent, shaping, skip):
    """player="random" (+ shaping, skipping): env i's games replayed through the single env with the
    same learner actions give the same sides, observations, rewards (bit for bit), ends and skip counts."""
    n, seed = 4, 21
    vec_opp = _highest_batched if opponent == "callable" else opponent
    # A callable answers in its own side's view, the single env's agent object in the engine's: in
    # the absolute view both "highest legal id" opponents are the same player.
    view = "absolute" if opponent == "callable" else "relative"
    env = AtomicAfricaVectorEnv(num_envs=n, scenario=SMALL, player="random", opponent=vec_opp,
                                shaping=shaping, skip_forced=skip, threads=2, view=view)
    traj = run_trajectory(env, seed, steps=35)
    assert sum(t.sum() for t in traj["term"]) >= n
    # the cases that matter happened: a new game with the other side started inside a step, skips,
    # shaping terms between the ends
    assert any((i["final_info"]["player"] != i["player"])[i["_final_info"]].any()
               for i in traj["info"] if "final_info" in i)
    assert not skip or sum(i["skipped"].sum() for i in traj["info"]) > 0
    assert (shaping is None) == all(not r[~t].any() for r, t in zip(traj["rew"], traj["term"]))
    sides_seen = set()
    for i in range(n):
        single = AtomicAfricaEnv(scenario=SMALL, player="random", shaping=shaping, skip_forced=skip, view=view,
                                 opponent=Highest() if opponent == "callable" else opponent)
        k = 0
        o, info = single.reset(seed=VectorGame.episode_seed(seed, i, k))
        np.testing.assert_array_equal(o, traj["obs0"][i])
        assert info["player"] == traj["info0"]["player"][i] == learner_side(single.game.seed)
        if skip:
            assert info["skipped"] == traj["info0"]["skipped"][i]
        for t in range(len(traj["actions"])):
            vinfo = traj["info"][t]
            o, r, term, _, info = single.step(int(traj["actions"][t][i]))
            assert r == traj["rew"][t][i] and term == traj["term"][t][i], f"env {i} step {t}"
            if skip:
                assert info["skipped"] == vinfo["skipped"][i]
            if term:
                np.testing.assert_array_equal(o, vinfo["final_obs"][i])
                assert vinfo["final_info"]["winner"][i] == info["winner"]
                assert vinfo["final_info"]["player"][i] == single.player
                sides_seen.add(single.player)
                k += 1
                o, info = single.reset(seed=VectorGame.episode_seed(seed, i, k))
                if skip:   # the new game's skipped openings are in the vector env's step count
                    assert vinfo["skipped"][i] >= info["skipped"]
            np.testing.assert_array_equal(o, traj["obs"][t][i])
            np.testing.assert_array_equal(info["action_mask"], vinfo["action_mask"][i])
            assert vinfo["player"][i] == single.player == learner_side(single.game.seed)
    assert sides_seen == {0, 1}


OPTION_KEYS = ("game_seed", "player", "skipped")


def test_options_are_deterministic_and_off_by_default():
    kw = dict(num_envs=3, scenario=SMALL, player="random", shaping=SHAPING, skip_forced=True, info_game_seed=True)
    assert_same_trajectory(run_trajectory(AtomicAfricaVectorEnv(**kw), 5, 25),
                           run_trajectory(AtomicAfricaVectorEnv(**kw, threads=2), 5, 25), OPTION_KEYS)
    # off by default: the defaults give exactly the explicit "off" run, with the game's rewards only
    plain = run_trajectory(AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL), 5, 25)
    off = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL, player=0, shaping=None, skip_forced=False)
    assert_same_trajectory(plain, run_trajectory(off, 5, 25), OPTION_KEYS)
    assert "skipped" not in plain["info"][0] and (plain["info"][0]["player"] == 0).all()
    for r, t in zip(plain["rew"], plain["term"]):
        assert set(np.unique(r[t])) <= {-1.0, 0.0, 1.0} and not r[~t].any()
    single = AtomicAfricaEnv(scenario=SMALL)
    assert single.shaping is None and not single.skip_forced and single.player == 0


def _single_episode(env, seed, rng):
    o, info = env.reset(seed=seed)
    phi0 = potentials(game_totals(env.game), start_figures(env.game_spec), env.player, env.shaping)
    rewards, term = [], False
    while not term:
        o, r, term, _, info = env.step(_choice(rng, info["action_mask"]))
        rewards.append(r)
    return phi0, rewards, float(env.game.returns()[env.player])


@pytest.mark.parametrize("skip", [False, True])
def test_shaping_terms_telescope_over_an_episode(skip):
    """gamma = 1: the shaped rewards of a whole episode minus the game's reward sum to -Phi(s_0)."""
    shaping = RewardShaping(scale=1.5, gamma=1.0, wound_weight=0.7, marker_weight=0.3)
    env = AtomicAfricaEnv(scenario=SMALL, player="random", shaping=shaping, skip_forced=skip)
    rng = np.random.default_rng(3)
    nonzero = 0
    for seed in range(6):
        phi0, rewards, result = _single_episode(env, seed, rng)
        assert sum(rewards) - result == pytest.approx(-phi0, abs=1e-12)
        nonzero += sum(1 for r in rewards[:-1] if r != 0.0)
    assert nonzero > 0                        # the potential did move during the games


def test_potential_formula_and_vector_totals():
    """Phi from the docstring's formula by hand, and the native side totals equal the Game's."""
    vg = VectorGame(SMALL, 4, 2)
    rng = np.random.default_rng(0)
    for _ in range(30):                       # play on so wounds and markers appear
        masks = vg.action_masks()
        vg.step(np.array([_choice(rng, m) for m in masks]))
    totals = vg.side_totals()
    s = RewardShaping(scale=2.0, wound_weight=0.5, marker_weight=0.25)
    start = start_figures(vg.spec)
    for i in range(4):
        (f0, w0, m0), (f1, w1, m1) = totals[i]
        v0, v1 = (f0 - 0.5 * w0 - 0.25 * m0) / start[0], (f1 - 0.5 * w1 - 0.25 * m1) / start[1]
        assert potentials(totals[i], start, 1, s) == pytest.approx(2.0 * (v1 - v0))
        assert potentials(totals[i], start, 0, s) == pytest.approx(2.0 * (v0 - v1))
    assert totals[:, :, 1:].any()             # some wounds or markers to weigh
    # the native totals are the Game's, decision by decision (until the end: the env then restarts)
    g = Game(SMALL, 99)
    vg1 = VectorGame.from_games(SMALL, [99])
    seen = set()
    while True:
        a = g.legal_actions()[len(g.legal_actions()) // 2]
        g.apply(a)
        vg1.step([a])
        if g.is_over:
            break
        np.testing.assert_array_equal(vg1.side_totals()[0], game_totals(g))
        seen.add(tuple(game_totals(g).ravel()))
    assert len(seen) > 1


def test_skip_counts_the_single_legal_learner_decisions():
    """Replaying a skip_forced run without skipping: between the learner's chosen actions exactly
    info["skipped"] decisions have one legal action, and the games end alike."""
    # the absolute view: actions and observations compared with the engine's own
    skip_env = AtomicAfricaEnv(scenario=SMALL, skip_forced=True, player="random", view="absolute")
    plain = AtomicAfricaEnv(scenario=SMALL, player="random", view="absolute")
    rng = np.random.default_rng(1)
    total = 0

    def forced_run(info):
        k = 0
        while not plain.game.is_over and info["action_mask"].sum() == 1:
            _, r, _, _, info = plain.step(int(np.argmax(info["action_mask"])))
            k += 1
        return k, info

    for seed in range(5):
        o, info = skip_env.reset(seed=seed)
        _, pinfo = plain.reset(seed=seed)
        k, pinfo = forced_run(pinfo)
        assert k == info["skipped"]
        term = False
        while not term:
            assert info["action_mask"].sum() >= 2      # the learner always has a real choice
            a = _choice(rng, info["action_mask"])
            o, r, term, _, info = skip_env.step(a)
            _, pr, pterm, _, pinfo = plain.step(a)
            k, pinfo = forced_run(pinfo)
            assert k == info["skipped"]
            total += k
            np.testing.assert_array_equal(o, plain.game.observation(plain.player))
        assert plain.game.is_over and r == float(plain.game.returns()[plain.player])
    assert total > 0


def test_bad_option_arguments():
    for cls, kw in ((AtomicAfricaEnv, {}), (AtomicAfricaVectorEnv, {"num_envs": 2})):
        for player in ("left", 1.0, True, np.array([0, 1]), None):
            with pytest.raises(ValueError, match="player.*'random'"):
                cls(scenario=SMALL, player=player, **kw)
        with pytest.raises(TypeError, match="skip_forced"):
            cls(scenario=SMALL, skip_forced="yes", **kw)
        with pytest.raises(ValueError, match=r"shaping\.gamma.*0 <= gamma <= 1"):
            cls(scenario=SMALL, shaping={"gamma": 1.5}, **kw)
        with pytest.raises(ValueError, match=r"shaping: unknown key.*'scal'"):
            cls(scenario=SMALL, shaping={"scal": 1.0}, **kw)
        with pytest.raises(TypeError, match="shaping: expected"):
            cls(scenario=SMALL, shaping="on", **kw)
        with pytest.raises(ValueError, match=r"shaping: unknown key.*1"):
            cls(scenario=SMALL, shaping={1: 2.0}, **kw)
        with pytest.raises(ValueError, match=r"shaping\.scale.*not finite"):
            cls(scenario=SMALL, shaping={"scale": 10**4000}, **kw)
    with pytest.raises(ValueError, match=r"shaping\.scale"):
        RewardShaping(scale=0.0)
    with pytest.raises(ValueError, match=r"shaping\.wound_weight"):
        RewardShaping(wound_weight=-1)
    with pytest.raises(ValueError, match=r"shaping\.marker_weight.*not finite"):
        RewardShaping(marker_weight=float("nan"))
    with pytest.raises(TypeError, match=r"shaping\.gamma"):
        RewardShaping(gamma=True)
    vg = VectorGame(SMALL, 2, 0)
    with pytest.raises(ValueError, match="learner.*'random'"):
        vg.opponent_turns("random", "either")


def test_pettingzoo_skip_forced_passes_the_api_test_and_counts_each_agents_forced_decisions():
    import warnings

    from pettingzoo.test import api_test

    from atomic_africa.env.pettingzoo_env import raw_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(raw_env(scenario=SMALL, skip_forced=True), num_cycles=300)
    e = raw_env(scenario=SMALL, skip_forced=True, view="absolute")   # actions replayed in a Game
    rng = np.random.default_rng(4)
    total = 0
    for seed in range(3):
        e.reset(seed=seed)
        plain = Game(SMALL, seed)

        def forced_run(plain=plain):
            k = [0, 0]
            while not plain.is_over and len(plain.legal_actions()) == 1:
                k[plain.current_player] += 1
                plain.apply(plain.legal_actions()[0])
            return k

        assert forced_run() == [e.infos[a]["skipped"] for a in e.possible_agents]
        while not e.game.is_over:
            mask = e.observe(e.agent_selection)["action_mask"]
            assert mask.sum() >= 2
            a = _choice(rng, mask)
            e.step(a)
            plain.apply(a)
            k = forced_run()
            assert k == [e.infos[x]["skipped"] for x in e.possible_agents]
            total += sum(k)
        assert plain.history == e.game.history and e.rewards["player_0"] == plain.returns()[0]
    assert total > 0
    with pytest.raises(TypeError, match="skip_forced"):
        raw_env(scenario=SMALL, skip_forced=1)
