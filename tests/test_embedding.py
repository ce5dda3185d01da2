"""The .pxd C-level API: a third-party Cython module cimports aa_core and agrees with the API."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import aa_core
import atomic_africa as aa

# One xdist worker runs the module (--dist loadgroup), so its module-scoped build happens once.
pytestmark = pytest.mark.xdist_group("embedding")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "embed"


@pytest.fixture(scope="module")
def my_sim(tmp_path_factory):
    work = tmp_path_factory.mktemp("embed")
    for name in ("my_sim.pyx", "build.py"):
        shutil.copy(EXAMPLE / name, work / name)
    proc = subprocess.run([sys.executable, "build.py", "build_ext", "--inplace"], cwd=work,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    so = next(work.glob("my_sim*.so"))
    spec = importlib.util.spec_from_file_location("my_sim", so)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pxd_files_are_installed():
    root = Path(aa_core.get_cython_include()) / "aa_core"
    for family in ("rng", "dice", "scores", "banding", "fire", "geometry", "vgame"):
        assert (root / f"{family}.pxd").is_file()
    assert (root / "vgame_schema.pxi").is_file()  # vgame.pxd includes the generated declarations


@pytest.mark.slow
def test_embedded_duel_matches_python_api(my_sim):
    rng = np.random.default_rng(0)
    n = 5000
    sf = aa.batch.roll_dice(np.tile([10, 10, 8], (n, 1)), rng).astype(np.int64)
    tf = aa.batch.roll_dice(np.tile([8, 8, 6], (n, 1)), rng).astype(np.int64)
    dist = rng.uniform(0, 120, n)
    rules = aa.Rules.default()
    out = np.empty((n, 3), dtype=np.int64)
    my_sim.duel(sf, tf, dist, rules.band_edges, rules.table5_array, 0, 1, 2, 1, rules.fire_params, out)
    band = aa.batch.range_band(dist)
    att = aa.batch.action_scores(sf, 0, aa.Action.BASIC).attacks[:, 0]
    dfn = aa.batch.action_scores(tf, 1, aa.Action.BASIC).defense
    m, w = aa.batch.resolve_fire(att, band, dfn, 2, 1)
    np.testing.assert_array_equal(out[:, 0], band)
    np.testing.assert_array_equal(out[:, 1], m)
    np.testing.assert_array_equal(out[:, 2], w)


@pytest.mark.slow
def test_embedded_scalars(my_sim):
    assert my_sim.median_cover(1, 0, 2) == int(aa.predominant_cover(1, 0, 2))
    ladder = np.array([4, 6, 8, 10, 12], dtype=np.int64)
    for die in aa.Die:
        for steps in range(6):
            got = my_sim.shifted(int(die), steps, ladder)
            assert (got or None) == (aa.shift_die(die, steps) and int(aa.shift_die(die, steps)))


@pytest.mark.slow
def test_embedded_game_loop_matches_python_game(my_sim):
    """A foreign Cython loop drives VectorGame's C-level game; the Python Game agrees step for step."""
    from atomic_africa.game import VectorGame
    from atomic_africa.game import Game

    vg = VectorGame(None, num_envs=2, seed=3)
    made = my_sim.play_lowest_legal(vg, 1, 150)   # mid-game: the lowest-legal game lasts 191 decisions
    assert made == 150
    g = Game(None, int(vg.episode_seeds[1]))
    for _ in range(made):
        g.apply(g.legal_actions()[0])
    np.testing.assert_array_equal(vg.observations()[1], g.observation(g.current_player))
    np.testing.assert_array_equal(vg.action_masks()[1], g.action_mask())
    # env 0 was not touched: still the first decision of its game
    g0 = Game(None, int(vg.episode_seeds[0]))
    np.testing.assert_array_equal(vg.observations()[0], g0.observation(g0.current_player))
