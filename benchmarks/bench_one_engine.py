"""One engine in the product (issue 32, point 4): what a decision costs through ``Game`` on the C core,
and what a single Gymnasium env step costs next to a ``VectorGame(num_envs=1)`` step, in one run.

Groups (the summary prints the median time per item and the ratios of each group):

- ``one_engine_decision`` (per decision, the games built untimed): ``game.legal_actions()`` +
  ``game.apply()`` on
  :class:`atomic_africa.game.Game` (the C core), beside the same games on the reference engine
  (``atomic_africa.reference.game.Game``, the Python engine the product ran before) for the ratio.
  The target: at most 3 us a decision.
- ``one_engine_env_step`` (per learner step): ``AtomicAfricaEnv.step`` (a single Gymnasium env, its
  observation, mask and the native random opponent's decisions included) beside ``VectorGame(None, 1)``
  ``step`` of the same games' decisions plus its ``action_masks()`` (what a learner reads each step).
  The target: the single env at most 1.5x the VectorGame.

Every entry plays fixed games (game seed ``k``, the legal action at a fixed index pattern), so an
entry's items are the same on every round. Medians on the shared 2-core machine are in the report of
issue 32 (``pytest benchmarks/bench_one_engine.py --benchmark-only``).
"""
import numpy as np
import pytest
from _scale import scaled

from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
from atomic_africa.game import Game, GameSpec, VectorGame
from atomic_africa.reference.game import Game as ReferenceGame

GAMES = scaled(20, minimum=2)
SPEC = GameSpec.build(None)


def _pick(legal_or_mask, k: int) -> int:
    """A fixed legal action: the (k * 7919)-th legal one, cyclically (no random draw to time)."""
    ids = legal_or_mask if isinstance(legal_or_mask, list) else np.flatnonzero(legal_or_mask)
    return int(ids[(k * 7919) % len(ids)])


def decisions(game_class, n: int = GAMES) -> int:
    return play(new_games(game_class, n))


def new_games(game_class, n: int) -> list:
    return [game_class(SPEC, seed) for seed in range(n)]


def play(games) -> int:
    """Every decision of ``games`` (built beforehand: only decisions are timed)."""
    steps = 0
    for g in games:
        while not g.is_over:
            g.apply(_pick(g.legal_actions(), steps))
            steps += 1
    return steps


def env_steps(n: int = GAMES) -> int:
    env = AtomicAfricaEnv(scenario=SPEC, opponent="random", player=0, view="absolute")
    steps = 0
    for seed in range(n):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(_pick(info["action_mask"], steps))
            steps += 1
    return steps


def vector_steps(n: int) -> int:
    vg = VectorGame(SPEC, 1, 0)
    mask = vg.action_masks()
    for k in range(n):
        vg.step(np.array([_pick(mask[0], k)], dtype=np.int64))
        mask = vg.action_masks()
    return n


DECISIONS = decisions(Game)
ENV_STEPS = env_steps()


def test_both_engines_play_the_same_decisions():
    assert decisions(ReferenceGame, 2) == decisions(Game, 2)


@pytest.mark.parametrize("entry", ["c_core_game", "reference_game"])
def test_decision(benchmark, items, entry):
    benchmark.group = "one_engine_decision"
    cls = {"c_core_game": Game, "reference_game": ReferenceGame}[entry]
    n = GAMES if entry == "c_core_game" else max(1, GAMES // 10)
    want = DECISIONS if entry == "c_core_game" else decisions(Game, n)
    items(want)
    got = benchmark.pedantic(play, setup=lambda: ((new_games(cls, n),), {}),
                             rounds=5 if entry == "c_core_game" else 1, iterations=1)
    assert got == want


@pytest.mark.parametrize("entry", ["gymnasium_env", "vector_game_1"])
def test_env_step(benchmark, items, entry):
    benchmark.group = "one_engine_env_step"
    items(ENV_STEPS)
    fn = env_steps if entry == "gymnasium_env" else (lambda: vector_steps(ENV_STEPS))
    assert benchmark.pedantic(fn, rounds=5, iterations=1) == ENV_STEPS


def test_env_step_ratio_interleaved(benchmark, items):
    """The two env loops alternated within one entry (the machine's load shifts between entries):
    the ratio of their medians, the single env's over the VectorGame's, in ``ratios``."""
    import time
    benchmark.group = "one_engine_env_step"
    items(ENV_STEPS)
    times = {"gymnasium_env": [], "vector_game_1": []}

    def both():
        for name, fn in (("gymnasium_env", env_steps), ("vector_game_1", lambda: vector_steps(ENV_STEPS))):
            t = time.perf_counter()
            assert fn() == ENV_STEPS
            times[name].append(time.perf_counter() - t)
        return ENV_STEPS

    benchmark.pedantic(both, rounds=7, iterations=1)
    med = {k: float(np.median(v)) for k, v in times.items()}
    benchmark.extra_info["ratios"] = {"gymnasium_env / vector_game_1": med["gymnasium_env"] / med["vector_game_1"]}
    benchmark.extra_info["figures"] = {k: f"{v / ENV_STEPS * 1e6:.1f} us/step" for k, v in med.items()}
