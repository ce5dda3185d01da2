"""VectorGame's API: shapes and dtypes, seeding and resets, auto-reset, the ``active`` mask, native
random actions, clone/pickle snapshots, illegal actions and bad arguments, thread counts; and the
Python ``Game`` as a snapshot (clone/pickle without replaying its history)."""
import pickle
import re
from importlib import resources

import numpy as np
import pytest
from scipy import stats

import atomic_africa as aa
from atomic_africa.game import VectorGame
from atomic_africa.game import Game, IllegalActionError, default_scenario
from atomic_africa.game.testing import mini_scenario, unit
from support.vector_mirror import (Mirror, check_reset, check_same_outputs, check_same_state, check_step, episode_seed,
                            legal_random_actions, random_scenario)


def _small(turns=2):
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=turns,
                         experience=("green", "regular"))  # Red's vehicle is attached: its card is the bonus


def _advance(vg, steps, rng_seed=0):
    rng = np.random.default_rng(rng_seed)
    for _ in range(steps):
        vg.step(legal_random_actions(rng, vg.action_masks()))
    return vg


def _outputs_equal(a, b):
    check_same_outputs(a, b, "outputs")


# ---------------------------------------------------------------- attributes, shapes, dtypes
@pytest.mark.parametrize("scenario,n", [(None, 5), ("small", 1), ("random", 3)])
def test_attributes_shapes_and_dtypes(scenario, n):
    sc = {"small": _small(), "random": random_scenario(7)}.get(scenario)
    g = Game(sc, 0)
    vg = VectorGame(sc, n, 3)
    assert vg.num_envs == n and isinstance(vg.num_envs, int)
    assert vg.num_actions == g.num_actions
    assert vg.observation_size == len(g.observation(0))
    assert vg.threads == 1 and vg.record_events is False
    assert vg.rules == aa.Rules.default()
    assert vg.scenario.to_dict() == g.scenario.to_dict()
    # A new VectorGame holds episode 0 of its seed.
    assert np.array_equal(vg.episodes, np.zeros(n, np.int64))
    assert vg.episode_seeds.tolist() == [episode_seed(3, i, 0) for i in range(n)]
    g0 = Game(sc, episode_seed(3, n - 1, 0))
    assert np.array_equal(vg.observations()[n - 1], g0.observation(g0.current_player))
    obs, info = vg.reset(seed=3)
    assert obs.shape == (n, vg.observation_size) and obs.dtype == np.float32
    assert isinstance(info, dict)
    m = vg.action_masks()
    assert m.shape == (n, vg.num_actions) and m.dtype == bool and m.any(axis=1).all()
    for p in (None, 0, 1):
        o = vg.observations(p)
        assert o.shape == (n, vg.observation_size) and o.dtype == np.float32
    assert np.array_equal(vg.observations(None), obs)
    cp = vg.current_player
    assert cp.shape == (n,) and cp.dtype == np.int8 and np.isin(cp, (0, 1)).all()
    assert vg.episodes.shape == (n,) and vg.episodes.dtype == np.int64
    assert vg.episode_seeds.shape == (n,) and vg.episode_seeds.dtype == np.uint64
    a = vg.random_actions()
    assert a.shape == (n,) and a.dtype == np.int64
    obs, rew, term, trunc, info = vg.step(a)
    assert obs.shape == (n, vg.observation_size) and obs.dtype == np.float32
    assert rew.shape == (n, 2) and rew.dtype == np.float32
    assert term.shape == (n,) and term.dtype == bool
    assert trunc.shape == (n,) and trunc.dtype == bool and not trunc.any()
    for key, dt in (("current_player", np.int8), ("turn", np.int32), ("episode", np.int64), ("winner", np.int8)):
        assert info[key].shape == (n,) and info[key].dtype == dt, key
    # observations are copies: writing to them does not touch the games
    obs[:] = 7
    assert not np.array_equal(vg.observations(), obs)


def test_scenario_forms_and_rules_are_those_of_game():
    path = resources.files("atomic_africa") / "data" / "scenarios" / "default.toml"
    outs = []
    for sc in (None, default_scenario(), default_scenario().to_dict(), str(path)):
        vg = VectorGame(sc, 3, 1)
        outs.append(vg.reset(seed=2)[0])
    assert all(np.array_equal(outs[0], o) for o in outs[1:])
    rules = aa.Rules.default().replace(movement={"directions": 8})
    vg = VectorGame(_small(), 2, 0, rules=rules)
    assert vg.rules == rules and vg.num_actions == Game(_small(), 0, rules).num_actions != Game(_small(), 0).num_actions
    with pytest.raises(TypeError, match="scenario"):
        VectorGame(42, 2, 0)


# ---------------------------------------------------------------- seeds and resets
def test_episode_seed_is_the_seed_sequence_formula():
    for seed, env, ep in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (123456789, 17, 3), (2**63, 5, 2**40)]:
        s = VectorGame.episode_seed(seed, env, ep)
        assert isinstance(s, int) and s == episode_seed(seed, env, ep)
    assert len({episode_seed(9, i, k) for i in range(20) for k in range(20)}) == 400
    vg = VectorGame(_small(), 6, 0)
    vg.reset(seed=11)
    assert np.array_equal(vg.episode_seeds, np.array([episode_seed(11, i, 0) for i in range(6)], np.uint64))
    assert np.array_equal(vg.episodes, np.zeros(6, np.int64))
    assert vg.episode_seed(11, 2, 0) == int(vg.episode_seeds[2])


def _trajectory(vg, steps, rng_seed):
    rng = np.random.default_rng(rng_seed)
    out = []
    for _ in range(steps):
        masks = vg.action_masks()
        o = vg.step(legal_random_actions(rng, masks))
        out.append((masks, o, [vg.events(i) for i in range(vg.num_envs)]))
    return out


def _same_trajectory(t1, t2):
    assert len(t1) == len(t2)
    for k, ((m1, o1, e1), (m2, o2, e2)) in enumerate(zip(t1, t2)):
        assert np.array_equal(m1, m2), f"masks differ at step {k}"
        check_same_outputs(o1, o2, f"step {k}")
        assert e1 == e2, f"events differ at step {k}"


def test_reset_with_a_seed_reproduces_the_episodes():
    sc = random_scenario(31)
    vg = VectorGame(sc, 8, 1, record_events=True)
    first = vg.reset(seed=9)
    t1 = _trajectory(vg, 250, rng_seed=4)
    again = vg.reset(seed=9)
    _outputs_equal(first, again)
    t2 = _trajectory(vg, 250, rng_seed=4)
    _same_trajectory(t1, t2)
    # The reset seed, not the constructor's, picks the games.
    other = VectorGame(sc, 8, 555, record_events=True)
    _outputs_equal(first, other.reset(seed=9))
    _same_trajectory(t1, _trajectory(other, 250, rng_seed=4))
    assert sum(o[2].sum() for _, o, _ in t1) >= 8  # auto-resets were part of the comparison
    # Another seed: other games (the first player's hand differs somewhere).
    assert not np.array_equal(vg.reset(seed=10)[0], first[0])


def test_reset_without_seed_starts_every_envs_next_episode():
    sc = _small(turns=1)
    vg = VectorGame(sc, 6, 0, record_events=True)
    m = Mirror(sc, 6, label="small")
    check_reset(vg, m, vg.reset(seed=21), m.reset(21), views=True)
    rng = np.random.default_rng(0)
    for _ in range(3):
        for _ in range(int(rng.integers(5, 120))):  # some envs finish and auto-reset, others not
            a = legal_random_actions(rng, np.stack([g.action_mask() for g in m.games]))
            check_step(vg, m, vg.step(a), m.step(a))
        before = vg.episodes.copy()
        exp = m.reset()
        check_reset(vg, m, vg.reset(), exp, views=True)
        assert np.array_equal(vg.episodes, before + 1)
        assert np.array_equal(vg.episode_seeds,
                              np.array([episode_seed(21, i, int(k)) for i, k in enumerate(before + 1)], np.uint64))
    assert len(set(vg.episodes.tolist())) > 1  # the envs were at different episodes


def test_auto_reset_starts_the_next_episode_of_the_finished_env():
    sc = _small(turns=3)  # wins for either side and draws
    vg = VectorGame(sc, 4, 8, record_events=True)
    vg.reset(seed=8)
    rng = np.random.default_rng(1)
    resets = np.zeros(4, int)
    winners = []
    # At least 4 episodes per env, and on until both wins and a draw were seen (random play).
    while resets.min() < 4 or not {-1, 0, 1} <= set(winners):
        assert resets.min() < 40, f"no win for each side and draw in 40 episodes per env: {sorted(set(winners))}"
        prev_ep = vg.episodes.copy()
        obs, rew, term, trunc, info = vg.step(legal_random_actions(rng, vg.action_masks()))
        assert np.array_equal(vg.episodes, prev_ep + term)
        assert np.array_equal(info["episode"], vg.episodes)
        for i in np.flatnonzero(term):
            k = int(vg.episodes[i])
            g = Game(sc, episode_seed(8, int(i), k))
            assert int(vg.episode_seeds[i]) == g.seed
            assert np.array_equal(obs[i], g.observation(g.current_player))
            assert np.array_equal(vg.action_masks()[i], g.action_mask())
            assert vg.current_player[i] == info["current_player"][i] == g.current_player
            assert vg.events(int(i))[-len(g.events):] == list(g.events)
            assert info["turn"][i] == g.s.turn
            w = int(info["winner"][i])
            assert w in (-1, 0, 1)
            winners.append(w)
            assert rew[i].tolist() == ([0.0, 0.0] if w == -1 else [1.0 - 2 * w, 2 * w - 1.0])
            assert info["_final_observation"][i]
        assert (info["winner"][~term] == -2).all() and (rew[~term] == 0).all()
        if term.any():
            fo = info["final_observation"]
            assert fo.dtype == object and fo.shape == (4,)
            assert all(x is None for x in fo[~term])
            assert all(x.dtype == np.float32 and x.shape == (2, vg.observation_size) for x in fo[term])
            assert not info["_final_observation"][~term].any()
        else:
            assert "final_observation" not in info and "_final_observation" not in info
        resets += term
    assert np.array_equal(vg.episodes, resets)
    assert {-1, 0, 1} <= set(winners)


# ---------------------------------------------------------------- the active mask
@pytest.mark.slow
def test_inactive_envs_are_left_untouched():
    sc = random_scenario(12)
    vg = VectorGame(sc, 10, 2, record_events=True)
    vg.reset(seed=2)
    rng = np.random.default_rng(3)
    terminated = 0
    for _ in range(300):
        masks = vg.action_masks()
        before = vg.clone()
        views = [vg.observations(p) for p in (None, 0, 1)]
        active = rng.random(10) < 0.5
        acts = legal_random_actions(rng, masks)
        # An inactive env's action is ignored, even an illegal one.
        for i in np.flatnonzero(~active):
            acts[i] = np.flatnonzero(~masks[i])[0]
        obs, rew, term, trunc, info = vg.step(acts, active=active)
        idle = ~active
        assert not term[idle].any() and not rew[idle].any() and (info["winner"][idle] == -2).all()
        assert np.array_equal(obs[idle], views[0][idle])
        for p, v in zip((None, 0, 1), views):
            assert np.array_equal(vg.observations(p)[idle], v[idle])
        assert np.array_equal(vg.action_masks()[idle], masks[idle])
        assert np.array_equal(vg.episodes[idle], before.episodes[idle])
        assert np.array_equal(vg.current_player[idle], before.current_player[idle])
        # The active ones moved exactly as if stepped alone (the snapshot steps them all-active).
        ref = before.step(np.where(active, acts, legal_random_actions(rng, masks)), active=None)
        assert np.array_equal(ref[0][active], obs[active]) and np.array_equal(ref[1][active], rew[active])
        terminated += int(term.sum())
    assert terminated > 0
    # All envs inactive: nothing changes at all.
    snap = vg.clone()
    out = vg.step(vg.random_actions(), active=np.zeros(10, bool))
    assert not out[2].any() and not out[1].any()
    check_same_state(vg, snap, "all inactive", events=False)


def test_inactive_envs_log_no_events():
    """events(i) holds what env i emitted in the last step: nothing if it was not stepped."""
    vg = VectorGame(_small(), 4, 0, record_events=True)
    vg.reset(seed=0)
    rng = np.random.default_rng(0)
    for t in range(40):
        active = np.array([True, False, t % 2 == 0, t % 3 == 0])
        vg.step(legal_random_actions(rng, vg.action_masks()), active=active)
        for i in np.flatnonzero(~active):
            ev = vg.events(int(i))
            assert ev == [], f"step {t}: env {i} was not stepped but events({i}) = {ev}"


# ---------------------------------------------------------------- native random actions
@pytest.mark.parametrize("scenario", ["default", "random"])
def test_random_actions_are_always_legal(scenario):
    sc = None if scenario == "default" else random_scenario(99)
    vg = VectorGame(sc, 24, 5)
    vg.reset(seed=5)
    finished = 0
    for _ in range(1500):
        m = vg.action_masks()
        a = vg.random_actions()
        assert a.dtype == np.int64 and a.shape == (24,)
        assert ((a >= 0) & (a < vg.num_actions)).all()
        assert m[np.arange(24), a].all(), f"illegal random action in envs {np.flatnonzero(~m[np.arange(24), a])}"
        finished += int(vg.step(a)[2].sum())
    assert finished >= 24


def test_random_actions_are_reproducible_and_separate_from_the_game():
    def actions(seed, steps=400):
        vg = VectorGame(_small(), 6, seed)
        out = []
        for _ in range(steps):
            a = vg.random_actions()
            out.append(a)
            vg.step(a)
        return np.array(out)

    a1, a2 = actions(3), actions(3)
    assert np.array_equal(a1, a2)
    assert not np.array_equal(a1, actions(4))  # the agent streams come from the VectorGame seed
    # reset(seed) starts the games and the agent streams of that seed afresh.
    vg = VectorGame(_small(), 6, 4)
    for _ in range(57):
        vg.step(vg.random_actions())
    vg.reset(seed=3)
    for t in range(len(a1)):
        a = vg.random_actions()
        assert np.array_equal(a, a1[t]), f"step {t} after reset(seed=3)"
        vg.step(a)
    # Drawing random actions does not touch the games' randomness.
    vg = VectorGame(_small(), 6, 3, record_events=True)
    vg.reset(seed=1)
    twin = vg.clone()
    rng = np.random.default_rng(0)
    for _ in range(200):
        for _ in range(3):
            vg.random_actions()
        a = legal_random_actions(rng, vg.action_masks())
        check_same_outputs(vg.step(a), twin.step(a), "after extra random_actions()")
        check_same_state(vg, twin, "after extra random_actions()")


def test_random_actions_for_some_envs_draw_only_for_those():
    """random_actions(active): -1 for the other envs, whose agent streams are not consumed, so each
    env's k-th draw is the same whichever other envs drew."""
    sc = random_scenario(8)
    vg = VectorGame(sc, 8, 21)
    rng = np.random.default_rng(5)
    draws = [[] for _ in range(8)]
    for t in range(300):
        active = rng.random(8) < 0.5
        a = vg.random_actions(active)
        assert a.dtype == np.int64 and (a[~active] == -1).all(), f"step {t}: {a}"
        m = vg.action_masks()
        assert m[np.flatnonzero(active), a[active]].all(), f"step {t}: an illegal random action"
        for i in np.flatnonzero(active):
            draws[i].append((vg.episodes[i], int(a[i])))
        vg.step(np.where(active, a, 0), active=active)
    # Env by env, alone: the same actions in the same order (the agent stream of env i is its own).
    for i in range(8):
        solo = VectorGame(sc, 8, 21)
        only = np.zeros(8, bool)
        only[i] = True
        for k, (_, want) in enumerate(draws[i]):
            got = int(solo.random_actions(only)[i])
            assert got == want, f"env {i}, draw {k}: {got} != {want}"
            solo.step(np.where(only, got, 0), active=only)
    with pytest.raises(ValueError, match="active"):
        vg.random_actions(np.ones(9, bool))


def test_random_actions_are_uniform_over_the_legal_actions():
    vg = VectorGame(None, 1, 17)
    vg.reset(seed=17)
    legal = np.flatnonzero(vg.action_masks()[0])
    assert len(legal) > 10
    n = 60 * len(legal)
    draws = np.array([vg.random_actions()[0] for _ in range(n)])
    assert np.isin(draws, legal).all()
    counts = np.array([(draws == a).sum() for a in legal])
    assert counts.min() > 0
    assert stats.chisquare(counts).pvalue > 1e-4


# ---------------------------------------------------------------- snapshots
@pytest.mark.parametrize("how", ["clone", "pickle"])
def test_clone_and_pickle_are_snapshots_that_step_identically(how):
    sc = random_scenario(5)
    vg = VectorGame(sc, 12, 40, threads=2, record_events=True)
    vg.reset(seed=40)
    _advance(vg, 150, rng_seed=1)
    snap = vg.clone() if how == "clone" else pickle.loads(pickle.dumps(vg))
    assert type(snap) is VectorGame
    for name in ("num_envs", "num_actions", "observation_size", "threads", "record_events"):
        assert getattr(snap, name) == getattr(vg, name), name
    vg.threads = snap.threads = 1  # thread counts are compared elsewhere; keep this test cheap on a busy machine
    assert snap.rules == vg.rules and snap.scenario.to_dict() == vg.scenario.to_dict()
    check_same_state(vg, snap, how, events=False)  # the last step's event log is an output, not state
    rng = np.random.default_rng(2)
    finished = 0
    for t in range(400):
        a = legal_random_actions(rng, vg.action_masks())
        o1 = vg.step(a)
        check_same_outputs(o1, snap.step(a), f"{how} step {t}")
        check_same_state(vg, snap, f"{how} step {t}")
        finished += int(o1[2].sum())
        if t % 50 == 0:  # the reset path of the snapshot, too
            check_same_outputs(vg.reset(), snap.reset(), f"{how} reset at step {t}")
    assert finished > 0
    # Independent: stepping the snapshot leaves the original as it was.
    keep = vg.clone()
    snap.step(snap.random_actions())
    check_same_state(vg, keep, "original after stepping the snapshot", events=False)


@pytest.mark.parametrize("how", ["clone", "pickle"])
def test_snapshots_keep_the_random_action_streams(how):
    vg = VectorGame(_small(), 5, 6)
    vg.reset(seed=6)
    for _ in range(30):
        vg.step(vg.random_actions())
    snap = vg.clone() if how == "clone" else pickle.loads(pickle.dumps(vg))
    for t in range(200):
        a = vg.random_actions()
        assert np.array_equal(a, snap.random_actions()), f"random_actions differ {t} steps after the {how}"
        check_same_outputs(vg.step(a), snap.step(a), f"step {t}")


# ---------------------------------------------------------------- illegal actions
def _env_named(msg, env):
    return re.search(rf"\benv\w*\W{{0,3}}{env}\b", msg)


@pytest.mark.parametrize("bad_env", [0, 3, 5])
def test_illegal_action_raises_naming_the_env_and_changes_nothing(bad_env):
    vg = VectorGame(random_scenario(3), 6, 1, record_events=True)
    vg.reset(seed=1)
    _advance(vg, 40, rng_seed=bad_env)
    snap = vg.clone()
    last_events = [vg.events(i) for i in range(6)]
    masks = vg.action_masks()
    rng = np.random.default_rng(9)
    acts = legal_random_actions(rng, masks)
    illegal = np.flatnonzero(~masks[bad_env])
    for bad in (int(illegal[0]), int(illegal[-1]), -1, vg.num_actions):
        a = acts.copy()
        a[bad_env] = bad
        with pytest.raises(IllegalActionError) as exc:
            vg.step(a)
        msg = str(exc.value)
        assert _env_named(msg, bad_env), f"message does not name env {bad_env}: {msg!r}"
        assert str(bad) in msg, f"message does not name action {bad}: {msg!r}"
        check_same_state(vg, snap, f"after rejected action {bad} in env {bad_env}", events=False)
        assert [vg.events(i) for i in range(6)] == last_events
    # Nothing hidden changed either (game RNGs, agent streams): both step identically afterwards.
    for t in range(100):
        a = legal_random_actions(rng, vg.action_masks())
        check_same_outputs(vg.step(a), snap.step(a), f"step {t} after the rejected actions")
        assert np.array_equal(vg.random_actions(), snap.random_actions())
    assert issubclass(IllegalActionError, ValueError)


# ---------------------------------------------------------------- bad arguments
@pytest.mark.parametrize("kw,exc,name", [
    ({"num_envs": 0}, ValueError, "num_envs"), ({"num_envs": -1}, ValueError, "num_envs"),
    ({"num_envs": 2.0}, TypeError, "num_envs"), ({"num_envs": 1.5}, TypeError, "num_envs"),
    ({"num_envs": "4"}, TypeError, "num_envs"), ({"num_envs": True}, TypeError, "num_envs"),
    ({"threads": 0}, ValueError, "threads"), ({"threads": -2}, ValueError, "threads"),
    ({"threads": 1.5}, TypeError, "threads"),
    ({"seed": -1}, ValueError, "seed"), ({"seed": 1.5}, TypeError, "seed"), ({"seed": "7"}, TypeError, "seed"),
    ({"rules": {"fire": {}}}, TypeError, "rules"),
])
def test_bad_constructor_arguments_name_the_argument(kw, exc, name):
    args = {"scenario": _small(), "num_envs": 2, "seed": 0} | kw
    with pytest.raises(exc, match=name):
        VectorGame(args.pop("scenario"), args.pop("num_envs"), args.pop("seed"), **args)


def test_bad_call_arguments_name_the_argument_and_change_nothing():
    n = 4
    vg = VectorGame(_small(), n, 0, record_events=True)
    vg.reset(seed=0)
    _advance(vg, 10)
    good = vg.random_actions()
    snap = vg.clone()
    last_events = [vg.events(i) for i in range(n)]
    bad_steps = [
        (dict(actions=good[:-1]), ValueError, "actions"),
        (dict(actions=np.concatenate([good, good[:1]])), ValueError, "actions"),
        (dict(actions=good.reshape(n, 1)), ValueError, "actions"),
        (dict(actions=good.astype(np.float64)), TypeError, "actions"),
        (dict(actions=np.ones(n, bool)), TypeError, "actions"),
        (dict(actions=None), TypeError, "actions"),
        (dict(actions=good, active=np.ones(n + 1, bool)), ValueError, "active"),
        (dict(actions=good, active=np.ones((n, 1), bool)), ValueError, "active"),
    ]
    for kw, exc, name in bad_steps:
        with pytest.raises(exc, match=name):
            vg.step(**kw)
        check_same_state(vg, snap, f"after rejected step({kw})", events=False)
        assert [vg.events(i) for i in range(n)] == last_events
    for player, exc in ((2, ValueError), (-1, ValueError), (1.0, TypeError), ("0", TypeError)):
        with pytest.raises(exc, match="player"):
            vg.observations(player)
    for seed, exc in ((-1, ValueError), (2.5, TypeError)):
        with pytest.raises(exc, match="seed"):
            vg.reset(seed=seed)
        check_same_state(vg, snap, f"after rejected reset(seed={seed!r})", events=False)
        assert [vg.events(i) for i in range(n)] == last_events
    for i, exc in ((n, ValueError), (-1, ValueError), (1.0, TypeError)):
        with pytest.raises(exc, match=r"\bi\b"):
            vg.events(i)
    with pytest.raises(ValueError, match="record_events"):
        VectorGame(_small(), 2, 0).events(0)
    for threads, exc in ((0, ValueError), (-1, ValueError), (2.0, TypeError)):
        with pytest.raises(exc, match="threads"):
            vg.threads = threads
        assert vg.threads == 1
    # the rejected calls left the games where they were
    for t in range(50):
        a = vg.random_actions()
        assert np.array_equal(a, snap.random_actions())
        check_same_outputs(vg.step(a), snap.step(a), f"step {t}")


# ---------------------------------------------------------------- threads
@pytest.mark.filterwarnings("ignore:threads:RuntimeWarning")  # more threads than cores on purpose
def test_results_are_identical_for_1_2_and_4_threads():
    sc = random_scenario(77)
    vgs = [VectorGame(sc, 23, 3, threads=k, record_events=True) for k in (1, 2, 4)]
    assert [v.threads for v in vgs] == [1, 2, 4]
    outs = [v.reset(seed=3) for v in vgs]
    check_same_outputs(outs[0], outs[1], "reset 1 vs 2")
    check_same_outputs(outs[0], outs[2], "reset 1 vs 4")
    finished = 0
    for t in range(300):
        acts = [v.random_actions() for v in vgs]
        assert np.array_equal(acts[0], acts[1]) and np.array_equal(acts[0], acts[2]), f"random actions, step {t}"
        outs = [v.step(acts[0]) for v in vgs]
        for k, o in zip((2, 4), outs[1:]):
            check_same_outputs(outs[0], o, f"step {t}, 1 vs {k} threads")
            check_same_state(vgs[0], vgs[(2, 4).index(k) + 1], f"step {t}, 1 vs {k} threads")
        finished += int(outs[0][2].sum())
    assert finished >= 23


# ---------------------------------------------------------------- the Python Game as a snapshot
@pytest.mark.parametrize("sc_seed", [None, 1, 2, 3])
def test_python_game_clone_and_pickle_are_snapshots(sc_seed, monkeypatch):
    sc = None if sc_seed is None else random_scenario(sc_seed)
    rng = np.random.default_rng(sc_seed or 0)
    seed = 100 + (sc_seed or 0)
    while True:  # a game stopped part-way (a short game that ends first is replaced by the next seed)
        g, k = Game(sc, seed), int(rng.integers(10, 40))
        while not g.is_over and len(g.history) < k:
            g.apply(int(rng.choice(g.legal_actions())))
        if not g.is_over:
            break
        seed += 1
    assert not g.is_over and g.history
    # No replay: copying must not construct, start or apply anything.
    with monkeypatch.context() as mp:
        for name in ("apply", "__init__", "replay"):
            mp.setattr(Game, name, lambda *a, **k: (_ for _ in ()).throw(AssertionError("history replayed")))
        c = g.clone()
        p = pickle.loads(pickle.dumps(g))
    for x in (c, p):
        assert x.to_json() == g.to_json()
        assert np.array_equal(x.observation(0), g.observation(0)) and np.array_equal(x.action_mask(), g.action_mask())
    # The future (dice, shuffles) is the original's.
    while not g.is_over:
        a = int(rng.choice(g.legal_actions()))
        n0 = len(g.events)
        for x in (g, c, p):
            x.apply(a)
        assert c.events[n0:] == g.events[n0:] == p.events[n0:]
        if not g.is_over:
            cp = g.current_player
            assert np.array_equal(c.observation(cp), g.observation(cp))
            assert np.array_equal(p.action_mask(), g.action_mask())
    assert c.to_json() == g.to_json() == p.to_json() and c.returns() == g.returns()
    # Independent copies.
    h = Game(sc, 5)
    k = h.clone()
    k.apply(k.legal_actions()[0])
    assert h.history == [] and len(k.history) == 1 and k.to_json() != h.to_json()


def test_step_without_observations_is_the_same_game():
    """step(observe=False) returns no observations but changes nothing else: rewards, terminations,
    final views, masks and later observations equal those of a twin stepped with observations."""
    a, b = VectorGame(None, 8, 11), VectorGame(None, 8, 11)
    finished = 0
    for _ in range(4000):
        x, y = a.random_actions(), b.random_actions()
        np.testing.assert_array_equal(x, y)
        oa, ra, ta, _, ia = a.step(x)
        ob, rb, tb, _, ib = b.step(y, observe=False)
        assert ob is None
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ta, tb)
        for i in np.flatnonzero(ta):
            np.testing.assert_array_equal(ia["final_observation"][i], ib["final_observation"][i])
            finished += 1
    assert finished >= 8
    np.testing.assert_array_equal(a.observations(), b.observations())
    np.testing.assert_array_equal(a.action_masks(), b.action_masks())
    with pytest.raises(TypeError, match="observe"):
        a.step(a.random_actions(), observe="no")


def test_action_masks_into_a_callers_buffer():
    vg = VectorGame(None, 3, 0)
    buf = np.ones((3, vg.num_actions), dtype=bool)
    assert vg.action_masks(out=buf) is buf
    np.testing.assert_array_equal(buf, vg.action_masks())
    with pytest.raises(TypeError, match="out: expected a numpy bool array, got ndarray of dtype uint8"):
        vg.action_masks(out=buf.view(np.uint8))
    with pytest.raises(ValueError, match=rf"out: expected a writeable C-contiguous array of shape \(3, {vg.num_actions}\)"):
        vg.action_masks(out=buf[:2])
    with pytest.raises(ValueError, match="out: only for every env's masks"):
        vg.action_masks(envs=[0], out=buf)
