"""The full game: complete random games per second (pure Python engine, one core), and the terrain
geometry kernel (LOS for many segments) vs a vectorised numpy baseline vs the pure-Python reference.

The games/s figure is the baseline the native engine of the self-play issue must beat.
"""
import numpy as np
import pytest
from _scale import BENCH_BATTLE, scaled

from atomic_africa.reference.game.agents import HeuristicAgent, RandomAgent
from atomic_africa.game import load_scenario
from atomic_africa.reference.game import Game
from atomic_africa.game.los import TerrainArrays, los_blocked
from atomic_africa.reference import geometry as ref

GAMES = scaled(20, minimum=1)
SEGMENTS = scaled(200_000)
SEGMENTS_REF = scaled(2_000)
# The battle docs/performance.md's figures were measured on (the default scenario until issue 14).
SCENARIO = load_scenario(BENCH_BATTLE)
TERRAIN = TerrainArrays.from_scenario(SCENARIO)


def play_games(n, agents=("random", "random"), seed0=0):
    kinds = {"random": RandomAgent, "heuristic": HeuristicAgent}
    steps = 0
    for seed in range(seed0, seed0 + n):
        g = Game(SCENARIO, seed)
        ag = [kinds[agents[0]](seed), kinds[agents[1]](seed + 1)]
        while not g.is_over:
            g.apply(ag[g.current_player].act(g))
            steps += 1
    return steps


@pytest.mark.benchmark(group="game_complete_games")
def test_random_vs_random_games(benchmark, items):
    items(GAMES)
    steps = benchmark.pedantic(play_games, args=(GAMES,), rounds=3, iterations=1)
    benchmark.extra_info["decisions_per_game"] = steps / GAMES


@pytest.mark.benchmark(group="game_complete_games")
def test_heuristic_vs_heuristic_games(benchmark, items):
    n = max(1, GAMES // 4)
    items(n)
    benchmark.pedantic(play_games, args=(n, ("heuristic", "heuristic")), rounds=3, iterations=1)


def _segments(n, seed=0):
    r = np.random.default_rng(seed)
    return (r.uniform(0, 180, n), r.uniform(0, 120, n), r.uniform(0, 180, n), r.uniform(0, 120, n))


def numpy_los(ax, ay, bx, by, t):
    """Vectorised numpy twin: segments x edges orientation tests, segments x circles distances, and
    for features containing an end the length of the segment inside them (split at edge crossings)."""
    blocked = np.zeros(ax.shape[0], dtype=bool)
    ux, uy = bx - ax, by - ay
    seg_len = np.hypot(ux, uy)
    depth = t.edge_depth_cm

    def inside_poly(px, py, vx, vy):
        inside = np.zeros(px.shape, dtype=bool)
        for i in range(len(vx)):
            j = i - 1
            cond = (vy[i] > py) != (vy[j] > py)
            with np.errstate(divide="ignore", invalid="ignore"):
                xint = (vx[j] - vx[i]) * (py - vy[i]) / (vy[j] - vy[i]) + vx[i]
            inside ^= cond & (px < xint)
        return inside

    def orient(x0, y0, x1, y1, x2, y2):
        return (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)

    def poly_inside_length(vx, vy):
        ex, ey = vx - np.roll(vx, 1), vy - np.roll(vy, 1)        # edges (v[i-1] -> v[i])
        cx, cy = np.roll(vx, 1), np.roll(vy, 1)
        den = ux[:, None] * ey - uy[:, None] * ex
        with np.errstate(divide="ignore", invalid="ignore"):
            tt = ((cx - ax[:, None]) * ey - (cy - ay[:, None]) * ex) / den
            ss = ((cx - ax[:, None]) * uy[:, None] - (cy - ay[:, None]) * ux[:, None]) / den
        ok = (den != 0) & (tt > 0) & (tt < 1) & (ss >= 0) & (ss <= 1)
        ts = np.sort(np.concatenate([np.zeros((len(ax), 1)), np.where(ok, tt, 1.0),
                                     np.ones((len(ax), 1))], axis=1), axis=1)
        t0, t1 = ts[:, :-1], ts[:, 1:]
        mid = (t0 + t1) / 2
        inside = inside_poly(ax[:, None] + mid * ux[:, None], ay[:, None] + mid * uy[:, None], vx, vy)
        return np.where((t1 > t0) & inside, t1 - t0, 0.0).sum(axis=1) * seg_len

    off = t.poly_offsets
    for k in range(len(off) - 1):
        if not t.poly_blocks[k]:
            continue
        vx, vy = t.vx[off[k]:off[k + 1]], t.vy[off[k]:off[k + 1]]
        cross = np.zeros_like(blocked)
        for i in range(len(vx)):
            cx, cy, dx, dy = vx[i - 1], vy[i - 1], vx[i], vy[i]
            o1, o2 = orient(ax, ay, bx, by, cx, cy), orient(ax, ay, bx, by, dx, dy)
            o3, o4 = orient(cx, cy, dx, dy, ax, ay), orient(cx, cy, dx, dy, bx, by)
            cross |= (o1 * o2 < 0) & (o3 * o4 < 0)
        ends_in = inside_poly(ax, ay, vx, vy).astype(int) + inside_poly(bx, by, vx, vy)
        blocked |= np.where(ends_in > 0, poly_inside_length(vx, vy) > depth * ends_in, cross)
    for k in range(len(t.circ_r)):
        if not t.circ_blocks[k]:
            continue
        cx, cy, r = t.circ_x[k], t.circ_y[k], t.circ_r[k]
        L2 = ux * ux + uy * uy
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.clip(np.where(L2 > 0, ((cx - ax) * ux + (cy - ay) * uy) / L2, 0.0), 0.0, 1.0)
            fx, fy = ax - cx, ay - cy
            qb = 2 * (fx * ux + fy * uy)
            disc = qb * qb - 4 * L2 * (fx * fx + fy * fy - r * r)
            root = np.sqrt(np.maximum(disc, 0.0))
            t1 = np.clip((-qb - root) / (2 * L2), 0.0, 1.0)
            t2 = np.clip((-qb + root) / (2 * L2), 0.0, 1.0)
        chord = np.where((L2 > 0) & (disc > 0) & (t2 > t1), (t2 - t1) * seg_len, 0.0)
        d2 = (ax + s * ux - cx) ** 2 + (ay + s * uy - cy) ** 2
        ends_in = ((ax - cx) ** 2 + (ay - cy) ** 2 < r * r).astype(int) + ((bx - cx) ** 2 + (by - cy) ** 2 < r * r)
        blocked |= np.where(ends_in > 0, chord > depth * ends_in, d2 < r * r)
    return blocked


def test_numpy_baseline_agrees():
    segs = _segments(5000, 1)
    assert np.array_equal(numpy_los(*segs, TERRAIN), los_blocked(*segs, TERRAIN))


@pytest.mark.benchmark(group="game_los_segments")
def test_los_kernel(benchmark, items):
    segs = _segments(SEGMENTS)
    items(SEGMENTS)
    benchmark(los_blocked, *segs, TERRAIN)


@pytest.mark.benchmark(group="game_los_segments")
def test_los_numpy(benchmark, items):
    segs = _segments(SEGMENTS)
    items(SEGMENTS)
    benchmark(numpy_los, *segs, TERRAIN)


@pytest.mark.benchmark(group="game_los_segments")
def test_los_reference(benchmark, items):
    segs = _segments(SEGMENTS_REF)
    items(SEGMENTS_REF)
    benchmark.pedantic(ref.los_blocked, args=(*segs, TERRAIN), rounds=3, iterations=1)
