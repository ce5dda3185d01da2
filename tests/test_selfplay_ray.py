"""Self-play on Ray: a local Ray with 2 CPUs gives the single-process results, game by game."""
import pytest
import ray

# Starting Ray takes 15-30 s; the fast subset checks self-play on processes (test_selfplay.py).
# One xdist worker runs the module (-n auto --dist loadgroup): one local Ray at a time.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]

from atomic_africa.cli import main
from atomic_africa.selfplay import play_games, read_results
from atomic_africa.game.testing import mini_scenario, unit


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def test_ray_started_and_stopped_by_play_games():
    # No Ray running: play_games starts a local one with 2 CPUs and shuts it down afterwards.
    assert not ray.is_initialized()
    kw = dict(agents=("random", "doctrine"), seed=13, scenario=_small())
    on_ray = play_games(4, workers=2, use_ray=True, **kw)
    assert not ray.is_initialized()
    assert on_ray.records == play_games(4, **kw).records


@pytest.fixture(scope="module")
def local_ray():
    assert not ray.is_initialized()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_equals_single_process(local_ray):
    kw = dict(agents=("doctrine", "random"), seed=21, scenario=_small(), replays=True)
    single = play_games(10, workers=1, **kw)
    on_ray = play_games(10, workers=2, use_ray=True, batch_size=3, **kw)
    assert on_ray.backend == "ray"
    assert on_ray.records == single.records
    assert on_ray.replays == single.replays
    assert ray.is_initialized()   # a Ray it did not start is left running


def test_cli_ray_uses_the_running_ray(local_ray, tmp_path, capsys):
    out = tmp_path / "r.parquet"
    assert main(["selfplay", "--games", "4", "--agents", "random,doctrine", "--seed", "8", "--ray",
                 "--out", str(out), "--no-progress"]) == 0
    assert "ray" in capsys.readouterr().out
    assert read_results(out) == play_games(4, ("random", "doctrine"), seed=8).records


def test_ray_run_interrupted_then_resumed_equals_single_process(local_ray, tmp_path):
    """An interrupt cancels the pending Ray tasks and keeps the games written; --resume on Ray
    completes the run game for game."""
    from atomic_africa.selfplay import stream_games
    kw = dict(agents=("doctrine", "random"), seed=4, scenario=_small(), engine="python")
    out = tmp_path / "r.parquet"

    def stop(written):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        stream_games(10, results=out, use_ray=True, batch_size=2, on_batch=stop, **kw)
    assert len(read_results(f"{out}.partial.csv")) == 2       # a Parquet table's journal
    res = stream_games(10, results=out, use_ray=True, batch_size=3, resume=True, **kw)
    assert res.resumed == 2 and res.backend == "ray"
    assert read_results(out) == play_games(10, **kw).records
