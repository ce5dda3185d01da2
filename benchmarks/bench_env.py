"""Environment throughput: decisions (steps) per second and complete games per second with random
masked actions, through the Python ``Game`` and through the PettingZoo / Gymnasium adapters.

Every entry plays the same games (game seed ``k``, actions drawn uniformly among the legal ones by
``default_rng(k)``), so the ratios are the adapters' overhead:

- ``game_mask``: ``game.action_mask()`` + ``game.apply()`` (the engine alone);
- ``game_mask_obs``: the same plus ``game.observation(player)`` each step (what an env must hand out);
- ``pettingzoo_raw`` / ``pettingzoo_wrapped``: ``env.last()`` + ``env.step()`` on the AEC env, without
  and with PettingZoo's standard wrappers (illegal-move check, bounds check, order enforcing);
- ``gymnasium``: ``env.step()`` for both sides (the learner samples the mask, the opponent is a random
  agent; steps counted are all the game's decisions).

Medians of one run on the shared 2-core machine (meeting_engagement before issue 35:
``_scale.BENCH_BATTLE``; 10 games = 4,314 decisions):

=====================  ==============  ===========  ======================================
entry                  decisions/s     games/s      vs ``game_mask``
=====================  ==============  ===========  ======================================
game_mask              10,700          24.7         1.00
game_mask_obs          5,700           12.4         1.87 (the observation encoding)
pettingzoo_raw         5,400           12.9         1.97 (AEC adds ~5 % to game_mask_obs)
pettingzoo_wrapped     4,600           10.5         2.33 (standard wrappers add ~20 % more)
gymnasium              4,800           15.7         1.6-2.2 (one observation per learner step)
=====================  ==============  ===========  ======================================

So the PettingZoo wrapper's own overhead is small (~5 % raw, ~25 % with the standard wrappers) next to
the cost of encoding observations, which doubles the engine's cost per step. The native batched
``VectorGame`` of issue 5 is not built yet; these are the Python baselines it must beat.
"""
import numpy as np
import pytest
from _scale import BENCH_BATTLE, scaled

from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.env.pettingzoo_env import env as pz_env
from atomic_africa.env.pettingzoo_env import raw_env as pz_raw_env
from atomic_africa.game import Game, load_scenario

GAMES = scaled(10, minimum=1)
# The battle docs/performance.md's figures were measured on (the default scenario until issue 14).
SCENARIO = load_scenario(BENCH_BATTLE)


def _choose(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


def game_loop(n, observe=False):
    steps = 0
    for k in range(n):
        g, rng = Game(SCENARIO, k), np.random.default_rng(k)
        while not g.is_over:
            if observe:
                g.observation(g.current_player)
            g.apply(_choose(rng, g.action_mask()))
            steps += 1
    return steps


def pettingzoo_loop(n, wrapped=False):
    # the absolute view: the same masks, so the same draws and games as game_loop
    e = pz_env(scenario=SCENARIO, view="absolute") if wrapped else pz_raw_env(scenario=SCENARIO, view="absolute")
    steps = 0
    for k in range(n):
        e.reset(seed=k)
        rng = np.random.default_rng(k)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(_choose(rng, obs["action_mask"]))
            steps += 1
    return steps


class _MaskedRandom:
    """The opponent inside the Gymnasium env: draws from the same stream as the learner."""

    def __init__(self):
        self.rng = None

    def act(self, game):
        return _choose(self.rng, game.action_mask())


def gymnasium_loop(n):
    opp = _MaskedRandom()
    e = AtomicAfricaEnv(scenario=SCENARIO, opponent=opp, view="absolute")   # game_loop's games
    steps = 0
    for k in range(n):
        opp.rng = rng = np.random.default_rng(k)   # one stream, drawn in decision order
        e.reset(seed=k)
        done = False
        while not done:
            _, _, done, _, _ = e.step(_choose(rng, e.action_masks()))
        steps += len(e.game.history)
    return steps


STEPS = game_loop(GAMES)   # decisions in the benchmark's games (the same for every entry)


def test_every_entry_plays_the_same_games():
    n = min(GAMES, 2)
    ref = game_loop(n)
    assert game_loop(n, observe=True) == ref
    assert pettingzoo_loop(n) == ref == pettingzoo_loop(n, wrapped=True)
    assert gymnasium_loop(n) == ref


@pytest.mark.parametrize("group,per", [("env_steps", STEPS), ("env_games", GAMES)])
@pytest.mark.parametrize("entry", ["game_mask", "game_mask_obs", "pettingzoo_raw", "pettingzoo_wrapped",
                                   "gymnasium"])
def test_env_throughput(benchmark, items, group, per, entry):
    benchmark.group = group
    items(per)
    fn = {"game_mask": lambda: game_loop(GAMES), "game_mask_obs": lambda: game_loop(GAMES, True),
          "pettingzoo_raw": lambda: pettingzoo_loop(GAMES),
          "pettingzoo_wrapped": lambda: pettingzoo_loop(GAMES, True),
          "gymnasium": lambda: gymnasium_loop(GAMES)}[entry]
    steps = benchmark.pedantic(fn, rounds=3, iterations=1)
    assert steps == STEPS
