"""Native greedy agent vs the Python GreedyAgent: games played natively next to Python ``Game``
mirrors, the agents' choices compared at the decisions asked for (tests/test_native_greedy.py and
benchmarks/greedy_parity.py)."""
from __future__ import annotations

import inspect

from collections import Counter

import numpy as np

from atomic_africa.reference.game.agents import GreedyAgent
from atomic_africa.enums import Action
from atomic_africa.reference.game import Game
from atomic_africa.game.scenario import load_scenario
from atomic_africa.game.native.vector import VectorGame
from atomic_africa.agents.native import agent_params
from support.vector_mirror import episode_seed

AGENT_GREEDY = 2
DEFAULT_PARAMS = agent_params()   # the Python agents' constructor defaults


def stage_keys(g: Game) -> list:
    """The decision's kinds: its stage, refined by the declared action where that changes the scores,
    plus "joker" (a Joker's action and posture), "feature" (a terrain feature among the targets) and
    "assets" (a choice of fire-support assets)."""
    st, s = g.stage, g.s
    keys = [st]
    if st in ("DECLARE_TARGET", "DECLARE_TARGET2", "MOVE") and s.decl_uid >= 0:
        keys.append(f"{st}:{Action(s.units[s.decl_uid].action).name}")
    if st == "DECLARE_ACTION" and g.deck.is_joker(s.units[s.decl_uid].card):
        keys.append("joker")
    legal = g.legal_actions()
    if len(legal) > 1 and any(g.space.decode(a)[0] == "FEATURE" for a in legal):
        keys.append("feature")
    if st == "DECLARE_ASSET" and len(legal) > 1:
        keys.append("assets")
    return keys


def play_greedy_parity(scenario=None, num_envs=4, seed=0, steps=200, compare_every=1, greedy_play=0.5,
                       params=None, rules=None):
    """Play ``steps`` decisions in ``num_envs`` native envs and their Python mirrors; at every
    ``compare_every``-th decision compare the native greedy action with ``GreedyAgent(**params).act``.

    Each env plays the greedy action with probability ``greedy_play`` (else a random legal action
    from a numpy stream seeded by ``seed``), so games reach varied positions. Returns a Counter of the
    decisions compared by :func:`stage_keys` and the number of finished games; raises AssertionError
    naming the env, episode seed and actions on the first difference.
    """
    params = dict(DEFAULT_PARAMS if params is None else params)
    takes = inspect.signature(GreedyAgent.__init__).parameters
    agent = GreedyAgent(**{k: v for k, v in params.items() if k in takes})
    sc = load_scenario(scenario)
    vg = VectorGame(sc, num_envs, seed, rules=rules)
    vg._engine.set_agent_params(params)
    episodes = vg._engine.arrays["episode"].tolist()
    games = [None] * num_envs

    def new_game(i):
        while True:
            g = Game(sc, episode_seed(seed, i, episodes[i]), rules)
            if not g.is_over:
                games[i] = g
                return
            episodes[i] += 1

    for i in range(num_envs):
        new_game(i)
    rng = np.random.default_rng(seed)
    kinds = np.full(num_envs, AGENT_GREEDY, np.int8)
    active = np.ones(num_envs, np.uint8)
    out = np.empty(num_envs, np.int64)
    seen, finished = Counter(), 0
    for step in range(steps):
        vg._engine.agent_actions(kinds, active, out, 1)
        actions = np.empty(num_envs, np.int64)
        for i, g in enumerate(games):
            legal = g.legal_actions()
            native = int(out[i])
            assert native in legal, f"env {i} game seed {g.seed}: native greedy {native} not legal {legal}"
            if step % compare_every == 0:
                want = agent.act(g)
                assert native == want, (
                    f"env {i}, Game(scenario, {g.seed}) after actions {g.history}: stage {g.stage}, native "
                    f"greedy {native} ({g.describe_action(native)}) != Python {want} "
                    f"({g.describe_action(want)})")
                seen.update(stage_keys(g))
            actions[i] = native if rng.random() < greedy_play else legal[rng.integers(len(legal))]
        vg.step(actions, observe=False)
        for i, g in enumerate(games):
            g.apply(int(actions[i]))
            if g.is_over:
                finished += 1
                episodes[i] += 1
                new_game(i)
    return seen, finished


def play_greedy_games(scenario=None, num_envs=2, seed=0, games=2, params=None):
    """Whole greedy-vs-greedy games natively and in Python, action for action; returns the native
    games' action lists (asserts each equals the Python agent's game)."""
    params = dict(DEFAULT_PARAMS if params is None else params)
    agent = GreedyAgent(**{k: v for k, v in params.items() if k in inspect.signature(GreedyAgent.__init__).parameters})
    sc = load_scenario(scenario)
    vg = VectorGame(sc, num_envs, seed)
    vg._engine.set_agent_params(params)
    kinds = np.full(num_envs, AGENT_GREEDY, np.int8)
    active = np.ones(num_envs, np.uint8)
    out = np.empty(num_envs, np.int64)
    histories = [[] for _ in range(num_envs)]
    done = []
    episodes = vg._engine.arrays["episode"].tolist()
    while len(done) < games:
        vg._engine.agent_actions(kinds, active, out, 1)
        _, _, term, _, info = vg.step(out, observe=False)
        for i in range(num_envs):
            histories[i].append(int(out[i]))
            if term[i]:
                done.append((episode_seed(seed, i, episodes[i]), histories[i]))
                histories[i] = []
                episodes[i] = int(info["episode"][i])
    for gs, hist in done[:games]:
        g = Game(sc, gs)
        for k, a in enumerate(hist):
            want = agent.act(g)
            assert a == want, f"Game(scenario, {gs}) decision {k} ({g.stage}): native {a} != Python {want}"
            g.apply(a)
        assert g.is_over
    return done[:games]
