"""The planning API (issue 31): reseed, determinize and copies in both engines, and the native
ISMCTS agent's information-set discipline.

A determinization must (1) be the same function in the Python reference and the C core, draw for
draw; (2) leave the player's view alone (observation; legal actions when it is to move); (3) keep
what the player has seen of the opponent's cards (shown cards, counts, the suppression rules'
evidence) and the card conservation laws; (4) depend only on the player's information set and the
seed; (5) leave a state the engine plays to the end.
"""
from __future__ import annotations

import numpy as np
import pytest

from atomic_africa.reference.game.agents import ISMCTSAgent, make_agent
from atomic_africa.agents.native import agent_params
from atomic_africa.game import VectorGame
from atomic_africa.reference.game import Game
from atomic_africa.game.state import Stage


def _walk(seed, rng, every=0.25, limit=400):
    """Random play of Game(None, seed), yielding the running game at random decisions."""
    g = Game(None, seed)
    for _ in range(limit):
        if g.is_over:
            return
        if rng.random() < every:
            yield g
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])


def _hidden_from(g, p):
    """What player p may not see, as plain data: its own deck's order and where each of the
    opponent's unseen cards lies."""
    q, s = 1 - p, g.s
    pl = s.players[q]
    face_down = {u.uid: u.card for u in s.units if u.alive and u.side == q and u.card >= 0 and not u.revealed}
    return (list(s.players[p].deck), list(pl.deck), list(pl.hand), list(pl.discard[:pl.hidden_discards]), face_down)


def _seen_by(g, p):
    """What player p may see of the cards (the rest of the state is in its observation)."""
    q, s = 1 - p, g.s
    pl, me = s.players[q], s.players[p]
    shown = {u.uid: u.card for u in s.units if u.alive and u.side == q and u.card >= 0 and u.revealed}
    return (sorted(me.deck), list(me.hand), list(me.discard), list(pl.discard[pl.hidden_discards:]), shown,
            len(pl.deck), len(pl.hand), pl.hidden_discards, pl.reserve_no_any,
            {u.uid: (u.card >= 0, u.orders_suppressed) for u in s.units if u.alive and u.side == q})


@pytest.mark.slow  # 2-3 s
def test_determinize_keeps_the_view_and_the_evidence():
    rng = np.random.default_rng(3)
    stages, n = set(), 0
    for seed in range(12):
        for g in _walk(seed, rng):
            p = int(rng.integers(2))
            obs, seen = g.observation(p), _seen_by(g, p)
            legal = g.legal_actions() if g.current_player == p else None
            d = g.clone()
            d.determinize(p, int(rng.integers(2**63)))
            d.check_invariants()
            assert np.array_equal(d.observation(p), obs)
            assert _seen_by(d, p) == seen
            if legal is not None:
                assert d.legal_actions() == legal
            assert d.legal_actions(), "a determinization the engine cannot play"
            q = 1 - p
            for u in d.s.units:   # a face-down card given to a suppressed unit is one it may take
                if u.alive and u.side == q and u.card >= 0 and not u.revealed and u.orders_suppressed:
                    assert d.deck.legal_for(u.card, True)
            if d.s.players[q].reserve_no_any:
                assert not any(d.deck.legal_for(c, True) for c in d.s.players[q].hand)
            stages.add(g.s.stage)
            n += 1
    assert n > 300 and {Stage.ORDERS, Stage.ACTIVATE, Stage.DECLARE_TARGET, Stage.MOVE} <= stages


def test_determinize_changes_what_is_hidden():
    """Not a no-op: the opponent's Reserve and the decks do get dealt again."""
    rng = np.random.default_rng(5)
    changed = total = 0
    for seed in range(6):
        for g in _walk(seed, rng, every=0.1):
            p = g.current_player
            d = g.clone()
            d.determinize(p, int(rng.integers(2**63)))
            total += 1
            changed += _hidden_from(d, p) != _hidden_from(g, p)
    assert changed > 0.9 * total


@pytest.mark.slow  # 4 s
def test_determinize_depends_only_on_the_information_set():
    """Two states equal for p (the true one and one of its determinizations) give the same
    determinization for the same seed, hidden cards included."""
    rng = np.random.default_rng(7)
    n = 0
    for seed in range(10):
        for g in _walk(seed, rng, every=0.15):
            p = int(rng.integers(2))
            other = g.clone()
            other.determinize(p, int(rng.integers(2**63)))
            s = int(rng.integers(2**63))
            a, b = g.clone(), other.clone()
            a.determinize(p, s)
            b.determinize(p, s)
            assert _hidden_from(a, p) == _hidden_from(b, p)
            assert np.array_equal(a.observation(1 - p), b.observation(1 - p))
            n += 1
    assert n > 100


def test_reseed_is_a_new_chance_stream():
    g = Game(None, 11)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    a, b, c = g.clone(), g.clone(), g.clone()
    a.reseed(5)
    b.reseed(5)
    c.reseed(6)
    for x in (a, b, c):
        while not x.is_over:
            x.apply(x.legal_actions()[-1])
    assert a.events == b.events
    assert a.events != c.events
    with pytest.raises(ValueError, match="seed"):
        g.reseed(-1)
    with pytest.raises(TypeError, match="seed"):
        g.reseed(1.5)


@pytest.mark.parametrize("bad,exc", [(2, ValueError), (-1, ValueError), ("0", TypeError), (True, TypeError)])
def test_determinize_rejects_a_bad_player_and_changes_nothing(bad, exc):
    g = Game(None, 2)
    before = g.to_json()
    with pytest.raises(exc, match="player"):
        g.determinize(bad, 1)
    with pytest.raises((TypeError, ValueError), match="seed"):
        g.determinize(0, -5)
    assert g.to_json() == before


def _mirror_play(seeds, rng):
    """Python games next to a VectorGame, determinized alike at random decisions; both compared."""
    for gs in seeds:
        g = Game(None, gs)
        vg = VectorGame.from_games(None, [gs])
        while not g.is_over:
            if rng.random() < 0.2:
                p, sd = int(rng.integers(2)), int(rng.integers(2**64, dtype=np.uint64))
                g.determinize(p, sd)
                vg.determinize([0], p, [sd])
                for q in (0, 1):
                    assert np.array_equal(g.observation(q), vg.observations(q)[0])
            legal = g.legal_actions()
            assert np.flatnonzero(vg.action_masks()[0]).tolist() == legal
            a = legal[int(rng.integers(len(legal)))]
            g.apply(a)
            vg.step(np.array([a]))
            if not g.is_over:
                for q in (0, 1):
                    assert np.array_equal(g.observation(q), vg.observations(q)[0])


def test_native_determinize_equals_the_reference_draw_for_draw():
    _mirror_play(range(16), np.random.default_rng(11))


def test_native_reseed_equals_the_reference():
    g = Game(None, 4)
    vg = VectorGame.from_games(None, [4])
    rng = np.random.default_rng(2)
    while not g.is_over:
        if rng.random() < 0.1:
            sd = int(rng.integers(2**63))
            g.reseed(sd)
            vg.reseed([0], [sd])
        a = g.legal_actions()[int(rng.integers(len(g.legal_actions())))]
        g.apply(a)
        vg.step(np.array([a]))
        if not g.is_over:
            assert np.array_equal(g.observation(0), vg.observations(0)[0])


def test_copy_envs_copies_one_env_into_many():
    vg = VectorGame(None, num_envs=6, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(25):
        vg.step(vg.random_actions())
    vg.copy_envs([2, 2, 2], [0, 4, 5])
    for p in (0, 1):
        obs = vg.observations(p)
        for j in (0, 4, 5):
            assert np.array_equal(obs[j], obs[2])
    # copies carry the streams too: the same actions give the same games
    for _ in range(40):
        a = vg.random_actions()
        a[[0, 4, 5]] = a[2]
        vg.step(a)
        obs = vg.observations(0)
        assert all(np.array_equal(obs[j], obs[2]) for j in (0, 4, 5))
    assert rng is not None


@pytest.mark.parametrize("src,dst,match", [([0], [0], "also a source"), ([0, 1], [2, 2], "twice"),
                                           ([0], [9], "dst"), ([0, 1], [2], "one per src")])
def test_copy_envs_rejects_bad_indices_and_copies_nothing(src, dst, match):
    vg = VectorGame(None, num_envs=4, seed=1)
    vg.step(vg.random_actions())
    before = vg.__getstate__()["arrays"]["piles"].copy()
    with pytest.raises(ValueError, match=match):
        vg.copy_envs(src, dst)
    assert np.array_equal(vg.__getstate__()["arrays"]["piles"], before)


def test_vector_determinize_rejects_bad_arguments():
    vg = VectorGame(None, num_envs=3, seed=1)
    with pytest.raises(ValueError, match="player"):
        vg.determinize([0, 1], 2, [1, 2])
    with pytest.raises(ValueError, match="seeds"):
        vg.determinize([0, 1], 0, [1])
    with pytest.raises(ValueError, match="envs"):
        vg.determinize([0, 0], 0, [1, 2])
    with pytest.raises(ValueError, match="player"):
        vg.determinize([0, 1], [0, 1, 0], [1, 2])


def test_ismcts_decides_on_the_information_set_only():
    """The same seed in two states equal for the player to move gives the same action."""
    rng = np.random.default_rng(9)
    n = 0
    for seed in range(4):
        for g in _walk(seed, rng, every=0.08, limit=120):
            if len(g.legal_actions()) < 2:
                continue
            p = g.current_player
            vg = VectorGame.from_games(None, [seed], threads=1)
            vg.agent_params = agent_params({"simulations": 24, "rollout": 0})
            for a in g.history:
                vg.step(np.array([a]), observe=False)
            vg2 = vg.clone()
            vg2.determinize([0], p, [int(rng.integers(2**63))])
            words = np.array([1, 2, 3, 5, 0, 0], dtype=np.uint64)
            acts = []
            for x in (vg, vg2):
                x._engine.arrays["agent_rng"][0, p] = words
                acts.append(int(x.agent_actions("ismcts")[0]))
            assert acts[0] == acts[1] and acts[0] in g.legal_actions()
            n += 1
    assert n >= 8


def test_ismcts_python_agent_plays_the_native_agent():
    """ISMCTSAgent on a Python Game plays what the native agent of the same stream plays."""
    agents = [ISMCTSAgent(seed=4, simulations=16), ISMCTSAgent(seed=9, simulations=16)]
    g = Game(None, 8)
    vg = VectorGame.from_games(None, [8], agent_seeds=[[4, 9]])   # one stream per side, as two agents
    vg.agent_params = agent_params(agents[0].params())
    for _ in range(40):
        if g.is_over:
            break
        a = agents[g.current_player].act(g)
        b = int(vg.agent_actions("ismcts")[0])
        assert a == b
        g.apply(a)
        vg.step(np.array([a]))


def test_ismcts_by_name_and_bad_arguments():
    assert isinstance(make_agent("ismcts", 3), ISMCTSAgent)
    for kw, match in [({"simulations": 0}, "simulations"), ({"exploration": float("nan")}, "exploration"),
                      ({"rollout": "ismcts"}, "rollout"), ({"rollout_depth": -1}, "rollout_depth")]:
        with pytest.raises((TypeError, ValueError), match=match):
            ISMCTSAgent(**kw)
    for k, bad in [("simulations", 0.5), ("rollout", 4.0), ("rollout_depth", -1.0), ("exploration", -1.0)]:
        with pytest.raises(ValueError, match=k):
            agent_params({k: bad})


def _determinize_and_finish(scenario, n, seed):
    """n envs played at random to random decisions, each determinized for a random player, then
    played to the end by the built-in agents (rotating per env). Returns the stages determinized
    in; fails if any agent finds no action or a game does not end."""
    rng = np.random.default_rng(seed)
    vg = VectorGame(scenario, num_envs=n, seed=seed)
    vg.agent_params = agent_params()
    stop = rng.integers(0, 260, n)
    for t in range(260):
        if (stop > t).any():
            vg.step(vg.random_actions(), active=stop > t)
    stages = vg.__getstate__()["arrays"]["scalars"][:, 1].copy()
    vg.determinize(None, rng.integers(0, 2, n), rng.integers(0, 2**63, n))
    kinds = np.array(["random", "heuristic", "greedy", "doctrine"])[np.arange(n) % 4]
    live = np.ones(n, dtype=bool)
    for _ in range(2000):
        if not live.any():
            break
        a = vg.agent_actions(kinds, active=live)
        assert (a[live] >= 0).all(), "an agent found no legal action in a determinized game"
        _, _, term, _, _ = vg.step(a, active=live, observe=False)
        live &= ~term
    assert not live.any(), "a determinized game never ended"
    return stages


@pytest.mark.slow
def test_ten_thousand_determinizations_play_to_the_end():
    """Issue 31: 10,000 determinizations from mid-game states of every stage play to the end."""
    seen = set()
    for k, scenario in enumerate((None, "meeting_engagement")):
        seen |= set(_determinize_and_finish(scenario, 5000, k).tolist())
    # every decision stage a game reaches in random play (a second fire-support asset is rare)
    assert {Stage.ORDERS, Stage.ACTIVATE, Stage.DECLARE_ACTION, Stage.DECLARE_TARGET, Stage.DECLARE_TARGET2,
            Stage.REACT, Stage.RESERVE_PICK, Stage.MOVE, Stage.SPRINT_MOVE, Stage.SPLIT} <= seen


def test_determinizations_play_to_the_end():
    """The fast subset's share of the fuzz above."""
    _determinize_and_finish(None, 400, 7)
