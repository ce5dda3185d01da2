"""The native agents (``Engine.agent_actions``: src/aa_core/csrc/aa_agent*.c) are their Python twins of
atomic_africa.agents, step for step.

Per decision: a VectorGame and one Python ``Game`` per env (env ``i``'s episode ``k`` is
``Game(spec, episode_seed(seed, i, k))``) are stepped with the same actions; at every decision the
native agent's action for every env must be the Python agent's ``act(game)``. The actions played are
the agent's own, or (for the deterministic agents) now and then a random legal one, so that the
agents also meet positions they would not steer to.

Whole games: a VectorGame plays native agent against native agent alone (2 threads), and the same
games played by the Python agents (``play``) must be the same, action for action. The native random
agent of side ``p`` draws from that side's agent stream, reseeded with every game the VectorGame
starts: its Python twin is ``RandomAgent(VectorGame.agent_seed(game_seed, p))``.

The fast tests play a few hundred short games on random scenarios (and a few on the default
scenario); ``python tests/test_native_agents.py --games N`` checks thousands.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
import pytest

import atomic_africa as aa
from aa_core.vgame import AGENT_KINDS
from atomic_africa.reference.game.agents import AGENTS, DoctrineAgent, HeuristicAgent, RandomAgent, play
from atomic_africa.agents.native import agent_params as native_agent_params
from atomic_africa.game import VectorGame
from atomic_africa.reference.game import Game
from atomic_africa.game.rng import RandomSource
from atomic_africa.game.native.vector import DECISION_TRIES
from atomic_africa.reference.core import Word32Stream, roll_faces
from support.vector_mirror import episode_seed, random_scenario

NATIVE = ("random", "heuristic", "doctrine")
# 64 directions x 16 fractions: 1,025 legal destinations, more sides than RandomSource.roll can roll.
MANY_MOVES = dict(movement={"directions": 64, "distance_fractions": [(k + 1) / 16 for k in range(16)]})


def python_agent(name: str, game_seed: int, side: int, standoff_cm: float = 30.0):
    """The Python twin of the native agent `name` playing `side` in a VectorGame's game `game_seed`."""
    if name == "random":
        return RandomAgent(VectorGame.agent_seed(game_seed, side))
    if name == "doctrine":
        return DoctrineAgent(standoff_cm=standoff_cm)
    return HeuristicAgent()


def agent_params(standoff_cm: float = 30.0) -> dict:
    """Engine.set_agent_params values: the Python agents' defaults (doctrine's standoff given)."""
    return native_agent_params({"standoff_cm": float(standoff_cm)})


class Twins:
    """A VectorGame and one Python Game per env, stepped with the same actions: a finished game is
    followed by the env's next episode with a decision, as the VectorGame restarts it."""

    def __init__(self, scenario, num_envs, seed, rules=None, threads=1, standoff_cm=30.0):
        self.vg = VectorGame(scenario, num_envs, seed, rules=rules, threads=threads)
        self.vg._engine.set_agent_params(agent_params(standoff_cm))
        self.n, self.seed, self.threads = num_envs, seed, threads
        self.episodes = [0] * num_envs
        self.games = [self._start(i, 0) for i in range(num_envs)]
        self.finished = 0

    def _start(self, i, first):
        for k in range(first, first + DECISION_TRIES):
            g = Game(self.vg.spec, episode_seed(self.seed, i, k))
            if not g.is_over:
                self.episodes[i] = k
                return g
        raise AssertionError(f"env {i}: no game with a decision from episode {k}")

    def native(self, kinds) -> np.ndarray:
        """Engine.agent_actions for every env (kinds: AGENT_* per env)."""
        out = np.empty(self.n, dtype=np.int64)
        self.vg._engine.agent_actions(np.asarray(kinds, dtype=np.int8), np.ones(self.n, dtype=np.uint8), out,
                                      self.threads)
        return out

    def step(self, actions):
        self.vg.step(actions, observe=False)
        for i, g in enumerate(self.games):
            g.apply(int(actions[i]))
            if g.is_over:
                self.finished += 1
                self.games[i] = self._start(i, self.episodes[i] + 1)
        assert list(self.vg.episodes) == self.episodes
        assert list(self.vg.current_player) == [g.current_player for g in self.games]

    def where(self, i) -> str:
        g = self.games[i]
        return (f"env {i}, Game(spec, {g.seed}) (vector seed {self.seed}, episode {self.episodes[i]}), "
                f"decision {len(g.history)}, stage {g.stage}, {len(g.legal_actions())} legal; history {g.history}")


def per_decision(name, scenario, *, num_envs, seed, min_games, rules=None, random_p=0.3, standoff_cm=30.0,
                 max_steps=100_000) -> Counter:
    """Play until `min_games` games finished, checking the native agent `name` against its Python twin
    at every decision of every env. Returns a Counter of the games, the decisions compared, each
    stage's decisions, and the decisions with a terrain feature to aim at or more than 256 legal
    actions."""
    tw = Twins(scenario, num_envs, seed, rules=rules, standoff_cm=standoff_cm)
    twins = {}   # per game (its seed): the Python agent of each side

    def python_act(g):
        if g.seed not in twins:
            twins[g.seed] = [python_agent(name, g.seed, p, standoff_cm) for p in (0, 1)]
        return twins[g.seed][g.current_player].act(g)

    kinds = np.full(num_envs, AGENT_KINDS[name])
    rng = np.random.default_rng(seed)
    seen = Counter()
    for _ in range(max_steps):
        if tw.finished >= min_games:
            seen["games"] = tw.finished
            return seen
        got = tw.native(kinds)
        want = np.array([python_act(g) for g in tw.games], dtype=np.int64)
        if not np.array_equal(got, want):
            i = int(np.flatnonzero(got != want)[0])
            space = tw.games[i].space
            raise AssertionError(f"{name}: native {got[i]} {space.decode(int(got[i]))} != python {want[i]} "
                                 f"{space.decode(int(want[i]))} at {tw.where(i)}")
        seen["decisions"] += num_envs
        for g in tw.games:
            seen[g.stage] += 1
            legal = g.legal_actions()
            seen["more than 256 legal"] += len(legal) > 256
            seen["a feature to aim at"] += legal[-1] >= g.space.base["FEATURE"]
        actions = want
        if name != "random":   # the random agent's streams are the game's: its actions only
            for i in np.flatnonzero(rng.random(num_envs) < random_p).tolist():
                actions[i] = rng.choice(tw.games[i].legal_actions())
        tw.step(actions)
    raise AssertionError(f"{name}: {tw.finished} games after {max_steps} steps")


def whole_games(pair, scenario, *, num_envs, seed, min_games, rules=None, threads=2, standoff_cm=30.0):
    """Native `pair[0]` (player 0) against `pair[1]` in a VectorGame alone, then the same games played
    by the Python agents; every game's actions and result must be the same. Returns (games, actions)."""
    vg = VectorGame(scenario, num_envs, seed, rules=rules, threads=threads)
    vg._engine.set_agent_params(agent_params(standoff_cm))
    k0, k1 = AGENT_KINDS[pair[0]], AGENT_KINDS[pair[1]]
    played = [[] for _ in range(num_envs)]       # per env: (episode seed, actions, winner)
    current = [[] for _ in range(num_envs)]
    seeds = vg.episode_seeds
    out, on = np.empty(num_envs, dtype=np.int64), np.ones(num_envs, dtype=np.uint8)
    while sum(len(p) for p in played) < min_games:
        vg._engine.agent_actions(np.where(vg.current_player == 0, k0, k1).astype(np.int8), on, out, threads)
        _, _, term, _, info = vg.step(out, observe=False)
        for i in range(num_envs):
            current[i].append(int(out[i]))
            if term[i]:
                played[i].append((int(seeds[i]), current[i], int(info["winner"][i])))
                current[i] = []
        seeds = vg.episode_seeds
    total = 0
    for i in range(num_envs):
        for gs, actions, winner in played[i]:
            g = play(Game(vg.spec, gs), [python_agent(name, gs, p, standoff_cm) for p, name in enumerate(pair)])
            assert g.history == actions, (f"{pair}: env {i}, Game(spec, {gs}) (vector seed {seed}): native "
                                          f"{actions} != python {g.history}")
            assert (-1 if g.result.winner is None else g.result.winner) == winner
            total += len(actions)
    return sum(len(p) for p in played), total


# ---------------------------------------------------------------------------------------- the die
def test_random_agent_draws_the_engines_die():
    """RandomAgent's die is the engine's: RandomSource.roll (aa_core.rng.roll_faces) up to 255 sides,
    the reference batched-Lemire roll_faces beyond (up to 2**32 sides); no draw for one action."""
    class Legal:   # a game with n legal actions 0..n-1: act returns face - 1
        def __init__(self, n):
            self.n = n

        def legal_actions(self):
            return range(self.n)

    r = np.random.default_rng(5)
    small = [int(x) for x in r.choice([1, 2, 3, 6, 49, 200, 255], 400)]
    large = [int(x) for x in r.choice([1, 2, 257, 1025, 8191, 2**31 + 1, 2**32 - 5], 400)]
    for seed in (0, 17, 2**40):
        agent, src = RandomAgent(seed), RandomSource(seed)
        assert [agent.act(Legal(n)) for n in small] == [src.roll(n) - 1 if n > 1 else 0 for n in small]
        agent = RandomAgent(np.random.SeedSequence(seed, spawn_key=(3,)))
        words = Word32Stream(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(3,))))
        assert [agent.act(Legal(n)) for n in large] == \
            [roll_faces(words, [n])[0] - 1 if n > 1 else 0 for n in large]
    with pytest.raises(ValueError, match="seed: must be non-negative"):
        RandomAgent(-1)


def test_agent_kinds_name_the_python_agents():
    assert set(AGENT_KINDS) == set(AGENTS)
    assert sorted(AGENT_KINDS.values()) == list(range(len(AGENT_KINDS)))


# ---------------------------------------------------------------------------------------- per decision
# Random scenarios (1-4 units a side, terrain, armoured features, vehicles, heavy weapons, fire
# support, light infantry): short games that reach every stage.
FAST_SCENARIOS = tuple(range(50_000, 50_008))
STAGES = {"ORDERS", "ACTIVATE", "REACT", "DECLARE_ACTION", "DECLARE_TARGET", "DECLARE_TARGET2", "MOVE",
          "SPRINT_MOVE", "SPLIT"}


@pytest.mark.parametrize("name", NATIVE)
def test_native_agent_is_the_python_agent_at_every_decision(name):
    seen = Counter()
    for sc_seed in FAST_SCENARIOS:
        seen += per_decision(name, random_scenario(sc_seed), num_envs=4, seed=sc_seed, min_games=6)
    seen += per_decision(name, None, num_envs=2, seed=3, min_games=2)
    assert seen["games"] >= 6 * len(FAST_SCENARIOS) + 2
    assert STAGES <= set(seen) and seen["a feature to aim at"] > 0, seen


def test_native_doctrine_uses_its_standoff():
    """A doctrine with a 60 cm standoff (Engine.set_agent_params) plays as DoctrineAgent(standoff_cm=60)
    and not as the default one."""
    per_decision("doctrine", random_scenario(50_003), num_envs=4, seed=11, min_games=6, standoff_cm=60.0)
    tw = Twins(random_scenario(50_003), 4, 11, standoff_cm=60.0)
    default = [DoctrineAgent() for _ in range(4)]
    kinds, differ = np.full(4, AGENT_KINDS["doctrine"]), 0
    while tw.finished < 6:
        got = tw.native(kinds)
        differ += sum(int(got[i]) != default[i].act(g) for i, g in enumerate(tw.games))
        tw.step(got)
    assert differ > 0


def test_native_random_agent_rolls_more_than_256_sides():
    """1,025 legal destinations: the native die and RandomAgent's agree beyond 256 sides."""
    rules = aa.Rules.default().replace(**MANY_MOVES)
    seen = per_decision("random", random_scenario(50_001), num_envs=4, seed=9, min_games=4, rules=rules)
    assert seen["more than 256 legal"] >= 20, seen


# ---------------------------------------------------------------------------------------- whole games
PAIRS = [("random", "random"), ("heuristic", "doctrine"), ("doctrine", "random"), ("random", "heuristic"),
         ("doctrine", "doctrine")]


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_native_games_are_the_python_games(pair):
    games = 0
    for sc_seed in FAST_SCENARIOS[:5]:
        games += whole_games(pair, random_scenario(sc_seed), num_envs=4, seed=sc_seed + 7, min_games=8)[0]
    games += whole_games(pair, None, num_envs=2, seed=5, min_games=2)[0]
    assert games >= 5 * 8 + 2


# ---------------------------------------------------------------------------------------- the big check
def main(argv=None):
    """Check thousands of games: per decision and whole games, every native agent, random scenarios
    (every tenth under 64 x 16 move rules; doctrine standoffs of 30, 45 and 60 cm) and the default
    scenario. Prints the games and decisions compared."""
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--games", type=int, default=2000, help="random-scenario games per agent and per pair")
    ap.add_argument("--first-scenario", type=int, default=60_000, help="random_scenario seed of the first")
    args = ap.parse_args(argv)
    per_sc = 20
    n_sc = max(1, args.games // per_sc)
    many = aa.Rules.default().replace(**MANY_MOVES)
    t0 = time.time()
    totals = Counter()
    for name in NATIVE:
        for j in range(n_sc):
            sc_seed = args.first_scenario + j
            seen = per_decision(name, random_scenario(sc_seed), num_envs=4, seed=sc_seed, min_games=per_sc,
                                rules=many if j % 10 == 9 else None, standoff_cm=30.0 + (j % 3) * 15.0)
            totals[f"per decision, {name}: games"] += seen["games"]
            totals[f"per decision, {name}: decisions"] += seen["decisions"]
        seen = per_decision(name, None, num_envs=4, seed=1, min_games=max(4, args.games // 100))
        totals[f"per decision, {name}, default scenario: games"] += seen["games"]
        totals[f"per decision, {name}, default scenario: decisions"] += seen["decisions"]
        print(f"{time.time() - t0:7.1f} s  {name}: per decision done", flush=True)
    pairs = [(a, b) for a in NATIVE for b in NATIVE]
    for pair in pairs:
        label = " vs ".join(pair)
        for j in range(max(1, n_sc // len(pairs))):
            sc_seed = args.first_scenario + 5000 + j
            g, a = whole_games(pair, random_scenario(sc_seed), num_envs=8, seed=sc_seed, min_games=per_sc)
            totals[f"whole games, {label}: games"] += g
            totals[f"whole games, {label}: actions"] += a
        g, a = whole_games(pair, None, num_envs=4, seed=2, min_games=max(4, args.games // 100))
        totals[f"whole games, {label}, default scenario: games"] += g
        totals[f"whole games, {label}, default scenario: actions"] += a
        print(f"{time.time() - t0:7.1f} s  {label}: whole games done", flush=True)
    for k, v in sorted(totals.items()):
        print(f"{k:60s} {v:>10,}")
    games = sum(v for k, v in totals.items() if k.endswith("games"))
    steps = sum(v for k, v in totals.items() if not k.endswith("games"))
    print(f"all equal: {games:,} games, {steps:,} decisions compared in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
