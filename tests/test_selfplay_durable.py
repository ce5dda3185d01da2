"""Durable self-play runs: streamed outputs, stop on a signal, resume; the files left are valid."""
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atomic_africa.cli import main
from atomic_africa.game import Game
from atomic_africa.replay.frames import load_replay
from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.selfplay import play_games, read_results, stream_games
from atomic_africa.selfplay.games import game_seeds
from atomic_africa.selfplay import workers as workers_module
from support.terminal import as_a_background_job


def _small(turns=2):
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=turns)


KW = dict(agents=("doctrine", "random"), seed=5, scenario=_small(), engine="python")


def _stop_after(games):
    """An on_batch hook that interrupts the run once ``games`` games are written (a Ctrl-C between
    batches, deterministic)."""
    def hook(written):
        if written >= games:
            raise KeyboardInterrupt
    return hook


@pytest.fixture(scope="module")
def uninterrupted():
    return play_games(12, replays=True, **KW)


@pytest.mark.parametrize("suffix,workers", [("parquet", 2), ("csv", 1)])
def test_interrupted_run_keeps_valid_files_and_resume_equals_an_uninterrupted_run(tmp_path, suffix, workers,
                                                                                  uninterrupted):
    out, rep = tmp_path / f"r.{suffix}", tmp_path / "r.jsonl"
    out.write_text("previous")                      # a previous run's file stays until the end
    with pytest.raises(KeyboardInterrupt) as info:
        stream_games(12, results=out, replays=rep, batch_size=3, on_batch=_stop_after(6), **KW)
    # a Parquet table is journaled as CSV until the run completes (a Parquet file is whole only
    # with its footer): the journal is a table of its own, readable as it is
    partial = Path(f"{out}.partial.csv" if suffix == "parquet" else f"{out}.partial")
    rep_partial = Path(f"{rep}.partial")
    assert info.value.__notes__ == [f"6 of 12 games kept in {partial} and {rep_partial}; complete the "
                                    "run with the same command and --resume"]
    assert out.read_text() == "previous" and not rep.exists()
    # The kept files are readable as they are: the first 6 games, game for game.
    assert read_results(partial) == uninterrupted.records[:6]
    assert rep_partial.read_text().splitlines() == uninterrupted.replays[:6]
    scenario, _, seed, actions = load_replay(rep_partial, 5)
    assert seed == uninterrupted.records[5]["seed"] and len(actions) == uninterrupted.records[5]["decisions"]
    # Resumed with another batch size (and worker count): only games 6..11 are played.
    res = stream_games(12, results=out, replays=rep, resume=True, batch_size=4, workers=workers, **KW)
    assert (res.resumed, res.n, res.workers) == (6, 12, workers)
    assert res.records == uninterrupted.records
    assert read_results(out) == uninterrupted.records
    assert rep.read_text().splitlines() == uninterrupted.replays
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, rep.name])
    # byte for byte the files of an uninterrupted streamed run
    whole = tmp_path / "whole"
    whole.mkdir()
    stream_games(12, results=whole / out.name, replays=whole / rep.name, **KW)
    assert (whole / out.name).read_bytes() == out.read_bytes() and (whole / rep.name).read_bytes() == rep.read_bytes()


def test_resume_drops_a_batch_cut_short_and_reads_a_replays_only_run(tmp_path, uninterrupted):
    rep = tmp_path / "r.jsonl"
    with pytest.raises(KeyboardInterrupt):
        stream_games(12, replays=rep, batch_size=2, on_batch=_stop_after(4), **KW)
    part = Path(f"{rep}.partial")
    with open(part, "a") as fh:                     # a process killed in the middle of a line
        fh.write(uninterrupted.replays[4][:1000])
    res = stream_games(12, replays=rep, resume=True, **KW)
    # The records of the kept games are rebuilt from their replays: the summary covers all 12.
    assert res.resumed == 4 and res.records == uninterrupted.records
    assert rep.read_text().splitlines() == uninterrupted.replays


def test_csv_rows_beyond_the_replays_are_played_again(tmp_path, uninterrupted):
    out, rep = tmp_path / "r.csv", tmp_path / "r.jsonl"
    with pytest.raises(KeyboardInterrupt):
        stream_games(12, results=out, replays=rep, batch_size=3, on_batch=_stop_after(3), **KW)
    # Killed between the two files of a batch: 5 rows (one cut short), 3 replays.
    lines = play_games(5, **KW).records[3:]
    extra = "".join(",".join(str(r[c]) for c in r) + "\r\n" for r in lines)
    with open(f"{out}.partial", "a", newline="") as fh:
        fh.write(extra + "5,123,doc")
    res = stream_games(12, results=out, replays=rep, resume=True, **KW)
    assert res.resumed == 3 and read_results(out) == uninterrupted.records


def test_a_symbolic_link_stays_a_link_to_the_results(tmp_path, uninterrupted):
    (tmp_path / "data").mkdir()
    target, link = tmp_path / "data" / "r.csv", tmp_path / "r.csv"
    target.write_text("previous")
    link.symlink_to(target)
    stream_games(12, results=link, **KW)
    assert link.is_symlink() and read_results(target) == uninterrupted.records
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["r.csv"]


def test_resume_refuses_another_run_and_a_fresh_run_keeps_an_interrupted_one(tmp_path):
    out = tmp_path / "r.csv"
    with pytest.raises(KeyboardInterrupt):
        stream_games(12, results=out, batch_size=3, on_batch=_stop_after(3), **KW)
    before = Path(f"{out}.partial").read_bytes()
    for change, what in ((dict(seed=6), "seed 5 there, 6 now"),
                         (dict(agents=("random", "doctrine")), "agents"),
                         (dict(scenario=_small(turns=3)), "spec"),
                         (dict(alternate=False), "alternate True there, False now")):
        with pytest.raises(ValueError, match=f"resume: .*r.csv.partial.json is another run \\({what}"):
            stream_games(12, results=out, resume=True, **dict(KW, **change))
    with pytest.raises(ValueError, match="games 12 there, 13 now"):
        stream_games(13, results=out, resume=True, **KW)
    with pytest.raises(ValueError, match=r"r.csv.partial holds an interrupted run; add --resume"):
        stream_games(12, results=out, **KW)
    assert Path(f"{out}.partial").read_bytes() == before
    with pytest.raises(ValueError, match="resume: no interrupted run at"):
        stream_games(12, results=tmp_path / "other.csv", resume=True, **KW)
    with pytest.raises(ValueError, match=r"resume: a run seeded from fresh entropy \(seed None\)"):
        stream_games(12, results=out, resume=True, **dict(KW, seed=None))
    # Rows that are not this run's games (another seed's, under this run's file) are refused.
    other = tmp_path / "other.csv"
    with pytest.raises(KeyboardInterrupt):
        stream_games(12, results=other, batch_size=3, on_batch=_stop_after(3), **dict(KW, seed=6))
    Path(f"{other}.partial").replace(f"{out}.partial")
    with pytest.raises(ValueError, match=r"resume: .*r\.csv\.partial games 0\.\.2 \(bytes 92\.\.\d+\) do not match the "
                                         r"digest written with them \(.*r\.csv\.partial\.digests line 1\): the file "
                                         r"changed after it was written; delete .* to start afresh$"):
        stream_games(12, results=out, resume=True, **KW)
    digests = Path(f"{out}.partial.digests").read_bytes()
    Path(f"{other}.partial.digests").replace(f"{out}.partial.digests")   # with their own digests
    with pytest.raises(ValueError, match=r"resume: the partial files' game 0 is not this run's"):
        stream_games(12, results=out, resume=True, **KW)
    Path(f"{out}.partial").write_bytes(before)
    Path(f"{out}.partial.digests").write_bytes(digests)
    # The engine is not part of the run: a run started on one engine may be resumed on the other.
    assert stream_games(12, results=out, resume=True, **KW).resumed == 3


def _refuse_games(monkeypatch):
    def no_game(*args):
        raise AssertionError("a game was played")
    monkeypatch.setattr(workers_module, "play_batch", no_game)


def test_outputs_that_cannot_be_written_are_refused_before_any_game(tmp_path, monkeypatch, capsys):
    _refuse_games(monkeypatch)
    # /sys refuses new files even to root (a permission check alone would pass as root).
    assert main(["selfplay", "--games", "4", "--out", "/sys/aa_results.csv", "--no-progress"]) == 1
    assert "error: cannot write '/sys/aa_results.csv.partial': Permission denied" in capsys.readouterr().err
    assert main(["selfplay", "--games", "4", "--out", "/dev/full", "--no-progress"]) == 1
    assert capsys.readouterr().err == ("atomic-africa selfplay: error: cannot write '/dev/full': No space "
                                       "left on device\n")
    ro = tmp_path / "ro"
    ro.mkdir()
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: os.path.realpath(path) != str(ro))
    with pytest.raises(SystemExit):
        main(["selfplay", "--games", "4", "--out", str(ro / "r.csv")])
    assert f"argument --out: cannot write {ro / 'r.csv'}: directory {ro} is not writable" in \
        capsys.readouterr().err
    # A failed start leaves nothing that a later run would take for an interrupted one.
    assert list(ro.iterdir()) == []


def test_replays_to_a_full_device_fail_in_one_line(capsys):
    assert main(["selfplay", "--games", "2", "--agents", "random,random", "--engine", "python",
                 "--replays", "/dev/full", "--no-progress"]) == 1
    assert capsys.readouterr().err == ("atomic-africa selfplay: error: cannot write '/dev/full': No space "
                                       "left on device\n")


def _cli(*args, **kw):
    return [sys.executable, "-m", "atomic_africa", "selfplay", *map(str, args)]


def _children(pid):
    """Worker processes (multiprocessing's spawn_main) of ``pid``."""
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                stat = (p / "stat").read_text()
                cmd = (p / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in cmd:
                out.append(int(p.name))
    return out


def _wait_for_rows(p, path, rows):
    while not (os.path.exists(path) and open(path).read().count("\n") >= rows + 1):
        assert p.poll() is None, p.communicate()
        time.sleep(0.02)


@pytest.mark.parametrize("sig,engine,agents", [
    (signal.SIGINT, "python", "random,random"),
    pytest.param(signal.SIGTERM, "native", "greedy,doctrine", marks=pytest.mark.slow)])
def test_a_signal_stops_every_worker_and_keeps_the_written_games(tmp_path, sig, engine, agents):
    out, rep = tmp_path / "r.csv", tmp_path / "r.jsonl"
    p = subprocess.Popen(_cli("--games", 400, "--agents", agents, "--engine", engine, "--workers", 2,
                              "--batch-size", 1, "--no-progress", "--out", out, "--replays", rep),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=as_a_background_job if sig == signal.SIGINT else None)
    _wait_for_rows(p, f"{out}.partial", 1)
    workers = _children(p.pid)
    assert len(workers) == 2
    t0 = time.perf_counter()
    p.send_signal(sig)
    stdout, stderr = p.communicate(timeout=120)
    print(f"stopped {time.perf_counter() - t0:.3f} s after {signal.Signals(sig).name}")
    assert p.returncode == 128 + sig
    # The workers were terminated and reaped by the parent before it exited.
    assert [w for w in workers if os.path.exists(f"/proc/{w}")] == []
    kept = read_results(f"{out}.partial")
    assert stderr == (f"atomic-africa selfplay: stopped by {signal.Signals(sig).name}; {len(kept)} of 400 "
                      f"games kept in {out}.partial and {rep}.partial; complete the run with the same "
                      f"command and --resume\n")
    assert stdout == ""
    lines = Path(f"{rep}.partial").read_text().splitlines()
    assert len(kept) >= 1 and len(lines) == len(kept)
    for i, (row, line) in enumerate(zip(kept, lines)):
        g = Game.from_json(line)
        assert row["game"] == i and row["seed"] == g.seed == game_seeds(0, i)[0]
        assert row["decisions"] == len(g.history) and g.is_over


@pytest.mark.slow
def test_a_killed_worker_stops_the_run_keeping_the_written_games(tmp_path):
    out = tmp_path / "r.csv"
    p = subprocess.Popen(_cli("--games", 400, "--agents", "random,random", "--engine", "python", "--workers", 2,
                              "--batch-size", 1, "--no-progress", "--out", out),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_rows(p, f"{out}.partial", 1)
    workers = _children(p.pid)
    os.kill(workers[0], signal.SIGKILL)
    _, stderr = p.communicate(timeout=120)
    assert p.returncode == 1
    kept = read_results(f"{out}.partial")
    assert stderr.startswith("atomic-africa selfplay: a worker process died (killed, or out of memory) "
                             f"before returning its games; {len(kept)} of 400 games kept in {out}.partial")
    assert [w for w in workers if os.path.exists(f"/proc/{w}")] == []


@pytest.mark.slow
def test_workers_leave_when_their_parent_is_killed_outright(tmp_path):
    p = subprocess.Popen(_cli("--games", 400, "--agents", "random,random", "--engine", "python", "--workers", 2,
                              "--batch-size", 1, "--no-progress", "--out", tmp_path / "r.csv"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)   # no pipe a worker would hold
    _wait_for_rows(p, f"{tmp_path / 'r.csv'}.partial", 1)
    workers = _children(p.pid)
    p.kill()
    p.wait()
    deadline = time.monotonic() + 60      # each worker notices within half a second
    while any(os.path.exists(f"/proc/{w}") for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if os.path.exists(f"/proc/{w}")]
    for w in left:                        # never leave them behind, even when the test fails
        os.kill(w, signal.SIGKILL)
    assert len(workers) == 2 and left == []


@pytest.mark.slow
def test_a_full_disk_keeps_the_previous_file_and_the_run_resumes(tmp_path):
    """Writes failing half-way (RLIMIT_FSIZE: EFBIG, as a full disk's ENOSPC) exit 1 naming the
    partial file; the previous replays file is untouched and --resume completes the run."""
    rep = tmp_path / "r.jsonl"
    rep.write_text("previous\n")

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (400_000, 400_000))

    argv = _cli("--games", 6, "--agents", "random,random", "--engine", "python", "--batch-size", 1,
                "--no-progress", "--replays", rep)
    cut = subprocess.run(argv, capture_output=True, text=True, preexec_fn=limit)
    assert cut.returncode == 1 and "Traceback" not in cut.stderr
    assert cut.stderr.startswith(f"atomic-africa selfplay: error: cannot write '{rep}.partial': File too "
                                 "large; the games written before are kept there (complete the run with --resume)")
    assert rep.read_text() == "previous\n"
    done = subprocess.run(argv + ["--resume"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    expected = play_games(6, ("random", "random"), engine="python", replays=True)
    assert rep.read_text().splitlines() == expected.replays
    assert json.loads(rep.read_text().splitlines()[0])["seed"] == expected.records[0]["seed"]


def test_stopping_the_workers_completes_a_result_a_terminated_worker_cut_short():
    """A worker killed while writing its result leaves the executor's manager thread waiting for the
    rest of the message, and Python's exit joins that thread: stopping must complete the message so
    the manager ends (it hung a SIGTERM-stopped run about once in 20 on a loaded machine)."""
    import struct
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from atomic_africa.selfplay.workers import _stop_processes

    ex = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
    assert ex.submit(int, "7").result(timeout=120) == 7       # a worker and the manager thread run
    manager, writer = ex._executor_manager_thread, ex._result_queue._writer
    fd = os.dup(writer.fileno())
    try:
        os.write(fd, struct.pack("!i", 100_000) + b"\x80\x05")   # a header and 2 of its 100,000 bytes
        deadline = time.monotonic() + 60
        while manager.is_alive() and time.monotonic() < deadline and not _reading(manager):
            time.sleep(0.01)
        _stop_processes(ex)
        manager.join(10)
        assert not manager.is_alive()
    finally:
        if manager.is_alive():      # never leave this process unable to exit, even when the test fails
            os.write(fd, bytes(100_000))
            manager.join(10)
        os.close(fd)


def _reading(thread) -> bool:
    """Whether ``thread`` is inside a pipe read (``Connection._recv``)."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name == "_recv":
            return True
        frame = frame.f_back
    return False
