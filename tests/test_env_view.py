"""The side-relative view: player 1's relative view of a position is player 0's view of the same
position turned by 180 degrees (sides swapped), actions included; the envs use it by default."""
from __future__ import annotations

import numpy as np
import pytest

from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
from atomic_africa.env.pettingzoo_env import raw_env
from atomic_africa.game import GameSpec, IllegalActionError, Scenario, VectorGame
from atomic_africa.game.observation_spec import observation_spec
from atomic_africa.game.side_view import SideView
from atomic_africa.game.testing import unit
from atomic_africa.reference.game import Game
from atomic_africa.reference.game.agents import RandomAgent
from atomic_africa.rules import Rules

W, H = 180.0, 120.0


def _symmetric():
    """Red is Blue turned by 180 degrees about the table centre; the only terrain is a circle there."""
    blue = [unit(40.0, 20.0, spotter=True, name="hq"),
            unit(110.0, 30.0, kind="light_infantry", figures=8, name="scouts"),
            unit(150.0, 15.0, kind="vehicle", armor=3, figures=3, heavy_weapon={"point": -2}, name="apc")]
    red = [dict(u, position=[W - u["position"][0], H - u["position"][1]]) for u in blue]
    asset = {"dice": ["d10", "d10", "d8"], "ap": 0, "blast_radius_cm": 9.0}
    return Scenario.from_dict({
        "name": "symmetric", "table": {"width_cm": W, "height_cm": H}, "turns": 3,
        "terrain": [{"shape": "circle", "center": [W / 2, H / 2], "radius": 12.0, "cover": "heavy",
                     "blocks_los": True, "armor": 3}],
        "sides": [{"name": "Blue", "experience": "regular", "units": blue, "fire_support": [asset]},
                  {"name": "Red", "experience": "regular", "units": red, "fire_support": [asset]}]})


SYM = _symmetric()


def _mirror(g: Game) -> Game:
    """The same position turned by 180 degrees with the sides swapped (player p becomes 1 - p): built
    by editing the plain-data state, which only the reference engine plays from."""
    m = g.clone()
    m._los_key, m._feature_los = None, {}              # caches of the position (rebuilt on demand)
    C, s = m.C, m.s
    swap = lambda uid: uid if uid < 0 else (uid + C) % (2 * C)            # noqa: E731
    flip = lambda p: p if p not in (0, 1) else 1 - p                       # noqa: E731
    units = [None] * (2 * C)
    for u in s.units:
        u.uid, u.side = swap(u.uid), 1 - u.side
        if u.alive:
            u.x, u.dest_x, u.aim_x = W - u.x, W - u.dest_x, W - u.aim_x
            u.y, u.dest_y, u.aim_y = H - u.y, H - u.dest_y, H - u.aim_y
            u.target = swap(u.target) if u.target < 2 * C else u.target      # >= 2C: a terrain feature
            u.target2 = swap(u.target2)
        units[u.uid] = u
    s.units = units
    s.players = s.players[::-1]
    s.act_uid, s.react_uid, s.decl_uid = swap(s.act_uid), swap(s.react_uid), swap(s.decl_uid)
    s.current_player, s.activating = flip(s.current_player), flip(s.activating)
    s.first_player, s.next_activating, s.winner = flip(s.first_player), flip(s.next_activating), flip(s.winner)
    s.pending = [swap(uid) for uid in s.pending]
    m.initial_figures = m.initial_figures[::-1]
    m.check_invariants()
    return m


def _random_positions(seeds=range(3)):
    """Every decision of random games of the symmetric scenario."""
    for seed in seeds:
        g = Game(SYM, seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 50)]
        while not g.is_over:
            yield g
            g.apply(agents[g.current_player].act(g))


def test_player_1_relative_view_is_player_0_view_of_the_turned_position():
    spec = GameSpec.build(SYM)
    view = SideView(spec)
    coords = np.array([f.index for f in observation_spec(spec) if f.frame])
    other = np.setdiff1d(np.arange(spec.observation_size), coords)
    stages, moved = set(), 0
    for g in _random_positions():
        m = _mirror(g)
        for p in (0, 1):
            mine, turned = view.observation(g.observation(p), p), view.observation(m.observation(1 - p), 1 - p)
            np.testing.assert_array_equal(mine[other], turned[other])
            # 1 - float32(x / W) and float32((W - x) / W) may differ in the last bit
            np.testing.assert_allclose(mine[coords], turned[coords], rtol=0, atol=2.0 ** -23)
        q = g.current_player
        # the legal actions in q's view are those of the turned position's player 1 - q
        np.testing.assert_array_equal(view.action_mask(g.action_mask(), q),
                                      view.action_mask(m.action_mask(), 1 - q))
        stages.add(g.stage)
        u = g.s.units[g.s.decl_uid] if g.s.decl_uid >= 0 else None
        # (a unit standing on a table edge is left out: the engine's clamp stops a move along the
        # bottom/left edge whose tiny rounding component points off the table, not one along the
        # top/right edge, so an edge position is not exactly symmetric in the engine itself)
        if g.stage in ("MOVE", "SPRINT_MOVE") and q == 1 and 0 < u.x < W and 0 < u.y < H \
                and 0 < u.dest_x < W and 0 < u.dest_y < H:
            # a relative MOVE id puts the Destination at the turned point of the turned position's
            for a in np.flatnonzero(view.action_mask(g.action_mask(), 1)):
                x, y = g.preview_destination(view.action_to_engine(a, 1))
                mx, my = m.preview_destination(a)
                assert (W - x, H - y) == pytest.approx((mx, my), abs=1e-9)
                moved += 1
    assert {"ORDERS", "DECLARE_TARGET", "MOVE", "SPLIT"} <= stages and moved > 0


def test_player_0_relative_view_is_the_absolute_view():
    spec = GameSpec.build(SYM)
    rel, ab = SideView(spec, "relative"), SideView(spec, "absolute")
    n = spec.num_actions
    for g in _random_positions(seeds=[7]):
        obs = g.observation(0)
        np.testing.assert_array_equal(rel.observation(obs, 0), obs)
        np.testing.assert_array_equal(ab.observation(g.observation(1), 1), g.observation(1))
        for p in (0, 1):
            np.testing.assert_array_equal(ab.action_mask(g.action_mask(), p), g.action_mask())
    np.testing.assert_array_equal(rel.to_engine[0], np.arange(n))
    np.testing.assert_array_equal(ab.to_engine, np.stack([np.arange(n)] * 2))


def test_action_maps_are_inverse_permutations_and_map_only_target_and_move():
    spec = GameSpec.build(SYM)
    v, sp, C = SideView(spec), spec.space, spec.C
    n = spec.num_actions
    for p in (0, 1):
        assert sorted(v.to_engine[p]) == list(range(n))
        np.testing.assert_array_equal(v.from_engine[p][v.to_engine[p]], np.arange(n))
        ids = np.arange(n)
        np.testing.assert_array_equal(v.action_from_engine(v.action_to_engine(ids, np.full(n, p)), p), ids)
    moved = np.flatnonzero(v.to_engine[1] != np.arange(n))
    assert {sp.decode(int(a))[0] for a in moved} == {"TARGET", "MOVE"}
    assert v.action_to_engine(sp.target(0), 1) == sp.target(C)          # own slot 0 first
    assert v.action_to_engine(sp.target(C + 1), 1) == sp.target(1)
    D = sp.directions
    assert v.action_to_engine(sp.move(0, 2), 1) == sp.move(D // 2, 2)   # 12 o'clock <-> 6 o'clock
    # masks are permuted by the same map, per row
    masks = np.random.default_rng(0).random((6, n)) < 0.3
    players = np.array([0, 1, 1, 0, 1, 0])
    expected = np.stack([m[v.to_engine[q]] for m, q in zip(masks, players)])
    np.testing.assert_array_equal(v.action_mask(masks, players), expected)
    np.testing.assert_array_equal(v.action_mask(masks, 1), masks[:, v.to_engine[1]])
    np.testing.assert_array_equal(v.action_mask(masks[2], 1), masks[2][v.to_engine[1]])
    # a batch with mixed players
    a = np.array([sp.target(0), sp.target(0)])
    np.testing.assert_array_equal(v.action_to_engine(a, np.array([0, 1])), [sp.target(0), sp.target(C)])


def test_bad_view_and_odd_directions_are_rejected():
    spec = GameSpec.build(SYM)
    with pytest.raises(ValueError, match="view: 'mirror' is not a view; allowed 'relative', 'absolute'"):
        SideView(spec, "mirror")
    for make in (lambda: AtomicAfricaEnv(SYM, view=None), lambda: AtomicAfricaVectorEnv(1, SYM, view="abs"),
                 lambda: raw_env(scenario=SYM, view="Relative")):
        with pytest.raises(ValueError, match="view"):
            make()
    odd = GameSpec.build(SYM, Rules.default().replace(movement={"directions": 9}))
    with pytest.raises(ValueError, match="even rules.movement.directions.*got 9"):
        SideView(odd, "relative")
    assert SideView(odd, "absolute").view == "absolute"


def test_envs_default_to_the_relative_view_of_either_engine():
    """Player 1 in the single env (Python engine), the vector env (native engine) and PettingZoo:
    the relative observation and mask are the engine's mapped ones; an action in that view moves
    the engine by its mapped id."""
    spec = GameSpec.build(SYM)
    view = SideView(spec)
    single = AtomicAfricaEnv(SYM, player=1)
    obs, info = single.reset(seed=3)
    g = single.game
    np.testing.assert_array_equal(obs, view.observation(g.observation(1), 1))
    np.testing.assert_array_equal(info["action_mask"], view.action_mask(g.action_mask(), 1))
    assert single.observation_space.contains(obs)

    vec = AtomicAfricaVectorEnv(3, SYM, player=1)
    vobs, vinfo = vec.reset(seed=3)
    vg = vec.vector_game
    np.testing.assert_array_equal(vobs, view.observation(vg.observations(player=1), 1))
    np.testing.assert_array_equal(vinfo["action_mask"], view.action_mask(vg.action_masks(), 1))
    assert not np.array_equal(vobs, vg.observations(player=1))          # player 1: really mapped

    aec = raw_env(scenario=SYM)
    aec.reset(seed=3)
    while aec.agent_selection != "player_1":
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    o = aec.observe("player_1")
    np.testing.assert_array_equal(o["observation"], view.observation(aec.game.observation(1), 1))
    np.testing.assert_array_equal(o["action_mask"].astype(bool), view.action_mask(aec.game.action_mask(), 1))
    a = int(np.flatnonzero(o["action_mask"])[-1])
    expected = aec.game.clone()
    expected.apply(view.action_to_engine(a, 1))
    aec.step(a)
    assert aec.game.state_hash() == expected.state_hash()


def _highest(masks):
    return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)


@pytest.mark.parametrize("learner", [0, 1])
def test_vector_env_learner_and_callable_opponent_act_in_their_own_view(learner):
    """Learner and callable opponent both choose the highest legal id of their own relative view;
    the same games through the absolute view, with the views applied by hand, are identical (so
    the callable really gets its own side's view and answers in it)."""
    spec = GameSpec.build(SYM)
    view = SideView(spec)
    opp = 1 - learner
    got = []

    def rel_opponent(observations, masks, envs):
        got.append((observations.copy(), masks.copy()))
        return _highest(masks)

    def abs_opponent(observations, masks, envs):        # the same policy, the view applied by hand
        mine = view.action_mask(masks, opp)
        want = got[len(expected)]
        expected.append(True)
        np.testing.assert_array_equal(want[0], view.observation(observations, opp))
        np.testing.assert_array_equal(want[1], mine)
        return view.action_to_engine(_highest(mine), opp)

    expected = []
    rel = AtomicAfricaVectorEnv(2, SYM, player=learner, opponent=rel_opponent)
    ab = AtomicAfricaVectorEnv(2, SYM, player=learner, opponent=abs_opponent, view="absolute")
    o1, i1 = rel.reset(seed=11)
    o2, i2 = ab.reset(seed=11)
    ends = 0
    for _ in range(80):
        np.testing.assert_array_equal(o1, view.observation(o2, learner))
        np.testing.assert_array_equal(i1["action_mask"], view.action_mask(i2["action_mask"], learner))
        a = _highest(i1["action_mask"])
        o1, r1, t1, _, i1 = rel.step(a)
        o2, r2, t2, _, i2 = ab.step(view.action_to_engine(a, learner))
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(t1, t2)
        for k in np.flatnonzero(t1):
            np.testing.assert_array_equal(i1["final_obs"][k], view.observation(i2["final_obs"][k], learner))
            ends += 1
    assert len(got) == len(expected) > 10 and ends >= 1
    bad = int(np.flatnonzero(~i1["action_mask"][0])[0])
    with pytest.raises(IllegalActionError, match=rf"not legal in env 0 \(relative view of player {learner}\)"):
        rel.step(np.array([bad, 0]))


def g_stage(env):
    return env.game.stage


def test_illegal_action_in_the_relative_view_names_both_ids():
    env = AtomicAfricaEnv(SYM, player=1, illegal_action="raise")
    obs, info = env.reset(seed=5)
    before = env.game.state_hash()
    bad = env.game_spec.space.target(0)            # no target in the Orders phase; mapped to slot C
    assert g_stage(env) == "ORDERS" and not info["action_mask"][bad]
    engine = env.game_spec.space.target(env.game_spec.C)
    with pytest.raises(IllegalActionError,
                       match=f"action {bad} \\(relative view of player 1; engine action {engine}\\)"):
        env.step(bad)
    assert env.game.state_hash() == before
    lose = AtomicAfricaEnv(SYM, player=1)
    lose.reset(seed=5)
    _, r, term, _, info = lose.step(bad)
    assert term and info["illegal_action"] and r == -1.0


def test_bounds_and_view_on_native_rows():
    """The relative view keeps the native engine's rows inside the Box (mirrored coordinates stay
    in [0, 1]) and maps both players' rows of one batch at once."""
    spec = GameSpec.build(SYM)
    view = SideView(spec)
    env = AtomicAfricaVectorEnv(4, SYM, player=1)
    box = env.single_observation_space
    vg = VectorGame(spec, 8, 1)
    vg.reset(seed=1)
    for _ in range(150):
        cur = vg.current_player
        rows = vg.observations()
        mapped = view.observation(rows, cur)
        for i in range(8):
            np.testing.assert_array_equal(mapped[i], view.observation(rows[i], int(cur[i])))
            assert box.contains(mapped[i])
        vg.step(vg.random_actions(), observe=False)
