"""The self-play job: per-index seeding, worker-count independence, rates, result files, CLI."""
import json
import sys

import numpy as np
import pytest
from scipy.stats import binomtest

from atomic_africa._optional import MissingExtraError
from atomic_africa.cli import main
from atomic_africa.agents import make_agent
from atomic_africa.selfplay import (COLUMNS, play_games, read_results, wilson_interval,
                                        write_replays, write_results)
from atomic_africa.game import Game, default_scenario
from atomic_africa.game.testing import mini_scenario, unit


def _small():
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (17, 40), (500, 1000), (1, 1)])
def test_wilson_interval_matches_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)


def test_game_i_is_seeded_from_the_spawned_child_i():
    res = play_games(5, ("doctrine", "random"), seed=77, scenario=_small())
    children = np.random.SeedSequence(77).spawn(5)
    for i, rec in enumerate(res.records):
        ss = children[i]
        assert rec["game"] == i
        assert rec["seed"] == int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))
        # Replay game i from its seeds alone: same outcome.
        a_seeds = [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in ss.spawn(2)]
        sides = ["doctrine", "random"] if i % 2 == 0 else ["random", "doctrine"]
        assert [rec["agent_0"], rec["agent_1"]] == sides and rec["a_side"] == i % 2
        agents = [make_agent(sides[p], a_seeds[p]) for p in range(2)]
        g = Game(_small(), rec["seed"])
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
        winner = -1 if g.result.winner is None else g.result.winner
        assert (rec["winner"], rec["decisions"], rec["figures_0"], rec["figures_1"]) == \
            (winner, len(g.history), *g.result.figures)
        assert rec["a_score"] == (0 if winner < 0 else 1 if winner == i % 2 else -1)


@pytest.mark.parametrize("root", [0, 5, 2**32, 2**70 + 12345, 2**127 + 99])
def test_batch_seeds_are_the_spawned_childrens_words(root):
    """A batch's seeds, hashed on arrays, are the SeedSequence children's words, game for game (also
    at the 2**32 boundary of the spawn key, past which each game takes numpy's own path)."""
    from atomic_africa.selfplay.games import batch_seeds, game_seeds
    for lo, hi in ((0, 200), (2**32 - 3, 2**32), (2**32 - 1, 2**32 + 2)):
        seeds, agents = batch_seeds(root, lo, hi)
        assert list(zip(seeds.tolist(), agents.tolist())) == [game_seeds(root, i) for i in range(lo, hi)]


def test_results_identical_for_one_and_two_workers_and_any_batch_size():
    kw = dict(agents=("doctrine", "random"), seed=5, scenario=_small(), replays=True)
    r1 = play_games(8, workers=1, **kw)
    r2 = play_games(8, workers=2, **kw)
    r3 = play_games(8, workers=1, batch_size=3, **kw)
    assert r1.records == r2.records == r3.records
    assert r1.replays == r2.replays == r3.replays
    assert (r1.backend, r2.backend, r2.workers, r1.engine) == ("in-process", "processes", 2, "native")
    # Different root seeds give different games.
    r4 = play_games(8, workers=1, **dict(kw, seed=6))
    assert [r["seed"] for r in r4.records] != [r["seed"] for r in r1.records]


@pytest.mark.parametrize("agents", [("greedy", "doctrine"), ("heuristic", "random"), ("random", "greedy")])
def test_native_and_python_engines_give_identical_records_and_replays(agents):
    """The native engine's games are the Python reference's, game for game, whatever the batch size
    (a replay on the native engine is rebuilt from the seed and the actions the driver recorded)."""
    kw = dict(agents=agents, seed=9, scenario=_small(), replays=True)
    python = play_games(10, engine="python", **kw)
    native = play_games(10, engine="native", batch_size=3, **kw)
    assert (python.engine, native.engine) == ("python", "native")
    assert native.records == python.records and native.replays == python.replays
    assert "native engine" in native.summary()


def test_rates_counts_and_summary():
    res = play_games(6, ("random", "random"), seed=1, scenario=_small(), alternate=False)
    assert all(r["a_side"] == 0 and r["agent_0"] == "random" for r in res.records)
    c = res.counts()
    assert sum(c.values()) == 6
    assert c["win"] == sum(r["winner"] == 0 for r in res.records)
    assert c["loss"] == sum(r["winner"] == 1 for r in res.records)
    rates = res.rates()
    for key, (rate, lo, hi) in rates.items():
        assert rate == c[key] / 6 and lo <= rate <= hi
        assert (lo, hi) == wilson_interval(c[key], 6)
    text = res.summary()
    assert "95% CI" in text and "games/s" in text and res.games_per_second > 0


def test_replays_rebuild_the_games():
    res = play_games(3, ("random", "doctrine"), seed=2, scenario=_small(), replays=True)
    assert len(res.replays) == 3
    for rec, text in zip(res.records, res.replays):
        g = Game.from_json(text)
        assert g.is_over and g.seed == rec["seed"] and len(g.history) == rec["decisions"]
        again = Game.replay(_small(), rec["seed"], g.history)
        assert again.state_hash() == g.state_hash()


def test_parquet_and_csv_round_trip(tmp_path, monkeypatch):
    res = play_games(4, ("doctrine", "random"), seed=3, scenario=_small())
    p = write_results(res, tmp_path / "r.parquet")
    assert p.endswith(".parquet")
    import pyarrow.parquet as pq
    table = pq.read_table(p)
    assert table.column_names == list(COLUMNS) and table.num_rows == 4
    assert table.schema.metadata[b"agents"] == b"doctrine,random"
    assert table.schema.metadata[b"seed"] == b"3"
    assert read_results(p) == res.records
    c = write_results(res, tmp_path / "r.csv")
    assert c.endswith(".csv") and read_results(c) == res.records
    # Without pyarrow a Parquet path is refused with the extra to install (never a silent CSV).
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(MissingExtraError, match=r"pyarrow .*pip install 'atomic-africa\[parquet\]'"):
        write_results(res, tmp_path / "none.parquet")
    assert sorted(f.name for f in tmp_path.iterdir()) == ["r.csv", "r.parquet"]
    assert write_results(res, tmp_path / "still.CSV") == str(tmp_path / "still.CSV")


@pytest.mark.parametrize("kw,match", [
    (dict(n_games=0), "n_games"), (dict(n_games=2, workers=0), "workers"),
    (dict(n_games=2, agents=("random", "nobody")), "unknown agent"),
    (dict(n_games=2, agents=("random",)), "two agent names"),
    (dict(n_games=2, batch_size=0), "batch_size"), (dict(n_games=2, seed=-1), "seed"),
    (dict(n_games=2, engine="c"), "engine: unknown engine 'c'; allowed: native, python"),
])
def test_bad_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        play_games(**kw)


def test_cli_selfplay_writes_results_and_renderable_replays(tmp_path, capsys):
    out, rep = tmp_path / "res.parquet", tmp_path / "rep.jsonl"
    rc = main(["selfplay", "--games", "2", "--agents", "doctrine,random", "--seed", "4", "--out", str(out),
               "--replays", str(rep), "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "2 games, doctrine (A) vs random (B)" in text and "95% CI" in text and "games/s" in text
    rows = read_results(out)
    expected = play_games(2, ("doctrine", "random"), seed=4, scenario=default_scenario())
    assert rows == expected.records
    lines = rep.read_text().splitlines()
    assert len(lines) == 2
    # Each line is a whole game document: `atomic-africa render` draws it (saved on its own).
    one = tmp_path / "game1.json"
    one.write_text(lines[1])
    png = tmp_path / "g.png"
    assert main(["render", str(one), "-o", str(png)]) == 0
    assert png.stat().st_size > 0
    assert json.loads(lines[1])["seed"] == rows[1]["seed"]


def test_cli_selfplay_errors(capsys):
    assert main(["selfplay", "--games", "2", "--agents", "random"]) == 2
    assert "two comma-separated agents" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["selfplay", "--games", "0"])
    assert "argument --games: must be >= 1" in capsys.readouterr().err
    assert main(["selfplay", "--games", "1", "--address", "x:1"]) == 2
    assert "only with --ray" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["selfplay", "--games", "1", "--engine", "c"])
    assert "argument --engine: invalid choice: 'c' (choose from 'native', 'python')" in capsys.readouterr().err
    assert main(["selfplay", "--games", "1", "--resume", "--no-progress"]) == 2
    assert "--resume: a run is resumed from its output files; give the same --out and --replays" in \
        capsys.readouterr().err


def test_write_replays(tmp_path):
    res = play_games(2, ("random", "random"), seed=0, scenario=_small(), replays=True)
    p = write_replays(res, tmp_path / "x.jsonl")
    assert [Game.from_json(x).seed for x in open(p).read().splitlines()] == [r["seed"] for r in res.records]


def test_progress_bar_on_stderr(capsys):
    play_games(3, ("random", "random"), seed=0, scenario=_small(), progress=True)
    err = capsys.readouterr().err
    assert "3/3" in err


def test_env_package_imports_no_optional_dependency():
    """atomic_africa.env imports without the rl extra, and loads only gymnasium (to register
    "AtomicAfrica-v0") when it is installed."""
    import subprocess
    import sys
    code = ("import sys, atomic_africa.env; "
            "print([m for m in ('gymnasium', 'pettingzoo', 'ray', 'pyarrow', 'tqdm') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['gymnasium']"
    blocked = ("import sys\n"
               "for m in ('gymnasium', 'pettingzoo', 'ray', 'pyarrow', 'tqdm'):\n    sys.modules[m] = None\n"
               "import atomic_africa.env\n"
               "from atomic_africa.agents import make_agent, play\n"
               "from atomic_africa.game import Game\n"
               "g = Game(None, 1)\n"
               "play(g, [make_agent('random', 1), make_agent('greedy', 2)])\n"
               "print(g.is_over)")
    out = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_play_games_refuses_runs_that_cannot_fit_before_playing(monkeypatch):
    from atomic_africa import _validate
    monkeypatch.setattr(_validate, "available_memory", lambda: 1 << 20)
    with pytest.raises(MemoryError, match=r"n_games: 10,000 games' results need .* of memory"):
        play_games(10_000, ("random", "random"))
    with pytest.raises(ValueError, match="workers"):
        play_games(2, ("random", "random"), workers=10**9)
