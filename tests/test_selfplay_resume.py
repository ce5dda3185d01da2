"""Self-play runs that are killed outright, cut by a full disk or tampered with (issue 27): Parquet
output survives SIGKILL and a full disk, ``--resume`` checks every kept batch against its digest,
never writes through a symbolic link, reads its run file within a limit, and ends with the bytes of an
uninterrupted run."""
from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atomic_africa.game.testing import mini_scenario, unit
from atomic_africa.selfplay import read_results, stream, stream_games
from atomic_africa.selfplay.stream import MAX_RUN_FILE

import pyarrow  # noqa: F401  (the parquet extra, in the test extras: a missing one fails here)


def _small(turns=2):
    return mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                         [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=turns)


KW = dict(agents=("doctrine", "random"), seed=5, scenario=_small(), engine="python")


def _stop_after(games):
    def hook(written):
        if written >= games:
            raise KeyboardInterrupt
    return hook


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The files of an uninterrupted streamed run of 12 games (CSV, Parquet, replays)."""
    d = tmp_path_factory.mktemp("whole")
    stream_games(12, results=d / "r.parquet", replays=d / "r.jsonl", **KW)
    stream_games(12, results=d / "r.csv", **KW)
    return {name: (d / name).read_bytes() for name in ("r.parquet", "r.jsonl", "r.csv")}


def _interrupted(tmp_path, results="r.csv", replays="r.jsonl", at=9, batch=3):
    out = None if results is None else tmp_path / results
    rep = None if replays is None else tmp_path / replays
    with pytest.raises(KeyboardInterrupt):
        stream_games(12, results=out, replays=rep, batch_size=batch, on_batch=_stop_after(at), **KW)
    return out, rep


# -------------------------------------------------------------------------------- every kept row
@pytest.mark.parametrize("which, line", [("results", 1), ("results", 5), ("results", 7), ("replays", 2),
                                         ("replays", 5)])
def test_a_kept_row_changed_in_the_middle_is_refused(tmp_path, which, line):
    out, rep = _interrupted(tmp_path)
    part = Path(f"{out if which == 'results' else rep}.partial")
    lines = part.read_bytes().split(b"\n")
    # one digit of the row changed, the length kept: only a digest of the batch sees it
    row = bytearray(lines[line])
    pos = next(i for i in range(len(row) - 1, -1, -1) if chr(row[i]).isdigit())
    row[pos] = ord("7") if row[pos] != ord("7") else ord("3")
    lines[line] = bytes(row)
    part.write_bytes(b"\n".join(lines))
    with pytest.raises(ValueError, match=rf"^resume: .*{part.name} games \d+\.\.\d+ \(bytes \d+\.\.\d+\) do not match "
                                         r"the digest written with them \(.*r\.csv\.partial\.digests line \d\): the "
                                         r"file changed after it was written; delete .* to start afresh$"):
        stream_games(12, results=out, replays=rep, resume=True, **KW)


def test_a_batch_whose_digest_was_not_written_is_played_again(tmp_path, whole):
    out, rep = _interrupted(tmp_path)
    digests = Path(f"{out}.partial.digests")
    lines = digests.read_bytes().splitlines(keepends=True)
    assert len(lines) == 3
    digests.write_bytes(b"".join(lines[:2]) + lines[2][:20])      # killed while writing the third
    res = stream_games(12, results=out, replays=rep, resume=True, **KW)
    assert res.resumed == 6
    assert out.read_bytes() == whole["r.csv"] and rep.read_bytes() == whole["r.jsonl"]


# ----------------------------------------------------------------------------------- symbolic links
@pytest.mark.parametrize("which", ["results", "replays", "digests", "run"])
def test_resume_never_writes_through_a_symbolic_link(tmp_path, which):
    out, rep = _interrupted(tmp_path)
    name = {"results": f"{out}.partial", "replays": f"{rep}.partial", "digests": f"{out}.partial.digests",
            "run": f"{out}.partial.json"}[which]
    victim = tmp_path / "victim.txt"
    victim.write_text("".join(f"line {i}\n" for i in range(1000)))
    before = victim.read_bytes()
    Path(name).unlink()
    Path(name).symlink_to(victim)
    with pytest.raises(ValueError, match=rf"^resume: {name} is a symbolic link; a run's partial files are its "
                                         r"own regular files and a link is never written through"):
        stream_games(12, results=out, replays=rep, resume=True, **KW)
    assert victim.read_bytes() == before
    # a fresh run does not take the link for its own either
    with pytest.raises(ValueError, match=r"holds an interrupted run; add --resume"):
        stream_games(12, results=out, replays=rep, **KW)
    assert victim.read_bytes() == before and Path(name).is_symlink()


# ---------------------------------------------------------------------------------------- run file
def test_the_run_file_is_read_within_a_limit_and_never_echoed_in_full(tmp_path):
    out, rep = _interrupted(tmp_path)
    run_file = Path(f"{out}.partial.json")
    good = run_file.read_bytes()
    run_file.write_bytes(b'{"seed": "' + b"x" * (10 << 20) + b'"}')        # 10 MB
    with pytest.raises(ValueError) as info:
        stream_games(12, results=out, replays=rep, resume=True, **KW)
    assert str(info.value).startswith(f"resume: {run_file} holds more than {MAX_RUN_FILE >> 10} KiB, the limit of a "
                                      f"run file")
    assert len(str(info.value)) < 400
    big = dict(json.loads(good), agents=["y" * 60_000])                     # within the limit
    run_file.write_text(json.dumps(big))
    with pytest.raises(ValueError, match=r"^resume: .* is another run \(agents \['yyyy.*\.\.\..* there, "
                                         r"\['doctrine', 'random'\] now\)") as info:
        stream_games(12, results=out, replays=rep, resume=True, **KW)
    assert len(str(info.value)) < 600
    # a byte-order mark before the JSON is accepted
    run_file.write_bytes(b"\xef\xbb\xbf" + good)
    assert stream_games(12, results=out, replays=rep, resume=True, **KW).resumed == 9


# ---------------------------------------------------------------------------------------- Parquet
def test_an_interrupted_parquet_run_is_journaled_and_resumes_byte_for_byte(tmp_path, whole):
    out, rep = _interrupted(tmp_path, "r.parquet")
    journal = Path(f"{out}.partial.csv")
    assert [r["game"] for r in read_results(journal)] == list(range(9))
    with open(journal, "ab") as fh:                   # a row cut short by a kill is left out when read
        fh.write(b"9,123,doc")
    assert len(read_results(journal)) == 9
    res = stream_games(12, results=out, replays=rep, resume=True, batch_size=5, **KW)
    assert res.resumed == 9
    assert out.read_bytes() == whole["r.parquet"] and rep.read_bytes() == whole["r.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "r.parquet"]


def test_a_full_disk_when_the_parquet_file_is_written_keeps_the_journal(tmp_path, monkeypatch, whole):
    out = tmp_path / "r.parquet"
    real = stream.replaced_atomically
    calls = []

    def full(path):
        calls.append(path)
        if str(path).endswith("r.parquet"):
            raise stream.WriteError(f"cannot write {str(path)!r}: No space left on device")
        return real(path)
    monkeypatch.setattr(stream, "replaced_atomically", full)
    with pytest.raises(OSError, match=r"^cannot write '.*r\.parquet': No space left on device; the games are kept "
                                      r"in .*r\.parquet\.partial\.csv \(complete the run with --resume\)\n"):
        stream_games(12, results=out, replays=tmp_path / "r.jsonl", **KW)
    monkeypatch.setattr(stream, "replaced_atomically", real)
    res = stream_games(12, results=out, replays=tmp_path / "r.jsonl", resume=True, **KW)
    assert res.resumed == 12 and out.read_bytes() == whole["r.parquet"]
    assert (tmp_path / "r.jsonl").read_bytes() == whole["r.jsonl"]


# ------------------------------------------------------------- killed outright, full disk (children)
def _cli(tmp_path, *extra):
    return [sys.executable, "-m", "atomic_africa", "selfplay", "--games", "30", "--agents", "random,random",
            "--engine", "native", "--batch-size", "1", "--no-progress", *map(str, extra)]


@pytest.fixture(scope="module")
def whole_cli(tmp_path_factory):
    """An uninterrupted CLI run of 30 games to Parquet and replays (the default scenario)."""
    d = tmp_path_factory.mktemp("whole_cli")
    done = subprocess.run(_cli(d, "--out", d / "r.parquet", "--replays", d / "r.jsonl"), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return (d / "r.parquet").read_bytes(), (d / "r.jsonl").read_bytes()


def _rows(path) -> int:
    try:
        return Path(path).read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("rows", [2, pytest.param(5, marks=pytest.mark.slow), pytest.param(11, marks=pytest.mark.slow)])
def test_a_parquet_run_killed_outright_resumes_byte_for_byte(tmp_path, rows, whole_cli):
    out, rep = tmp_path / "r.parquet", tmp_path / "r.jsonl"
    argv = _cli(tmp_path, "--out", out, "--replays", rep)
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while _rows(f"{out}.partial.digests") < rows:
            assert p.poll() is None, p.communicate()
            time.sleep(0.01)
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait()
    assert p.returncode == -signal.SIGKILL and not out.exists()
    kept = read_results(f"{out}.partial.csv")            # whole on its own after every batch
    assert len(kept) >= rows and [r["game"] for r in kept] == list(range(len(kept)))
    done = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (out.read_bytes(), rep.read_bytes()) == whole_cli
    assert sorted(x.name for x in tmp_path.iterdir()) == ["r.jsonl", "r.parquet"]


@pytest.mark.parametrize("limit", [1_500, pytest.param(400_000, marks=pytest.mark.slow)])
def test_a_parquet_run_on_a_full_disk_resumes_byte_for_byte(tmp_path, limit, whole_cli):
    """RLIMIT_FSIZE makes writes past ``limit`` bytes fail (EFBIG, as a full disk's ENOSPC): at 1,500
    bytes the journal of a Parquet run without replays is cut, at 400,000 the replays of one with them."""
    out, rep = tmp_path / "r.parquet", tmp_path / "r.jsonl"
    argv = _cli(tmp_path, "--out", out, *(["--replays", rep] if limit > 10_000 else []))
    if limit > 10_000:
        expected = whole_cli
    else:
        ref = tmp_path / "ref"
        ref.mkdir()
        subprocess.run(_cli(ref, "--out", ref / "r.parquet"), capture_output=True, timeout=600, check=True)
        expected = ((ref / "r.parquet").read_bytes(),)

    def cap():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    cut = subprocess.run(argv, capture_output=True, text=True, preexec_fn=cap, timeout=600)
    # the first file to reach the limit: the journal's digests (a line a batch) or the replays
    which = f"{out}.partial.digests" if limit < 10_000 else f"{rep}.partial"
    assert cut.returncode == 1 and "Traceback" not in cut.stderr
    assert cut.stderr.startswith(f"atomic-africa selfplay: error: cannot write '{which}': File too large; the games "
                                 "written before are kept")
    assert cut.stderr.endswith("(complete the run with --resume)\n") and cut.stderr.count("\n") == 1
    done = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (out.read_bytes(), *([rep.read_bytes()] if limit > 10_000 else [])) == expected


@pytest.mark.slow
def test_a_parquet_run_on_a_full_tmpfs_resumes_byte_for_byte(tmp_path, whole_cli):
    """A real full disk (ENOSPC) on a 512 KiB tmpfs, grown for the resume (the suite runs as root)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    # CI runs as root (the README's test command installs packages with apt): mounting is allowed.
    mounted = subprocess.run(["/bin/mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    assert mounted.returncode == 0, f"this test needs root to mount a tmpfs: {mounted.stderr}"
    try:
        out, rep = disk / "r.parquet", disk / "r.jsonl"
        argv = _cli(tmp_path, "--out", out, "--replays", rep)
        cut = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        assert cut.returncode == 1 and "Traceback" not in cut.stderr, cut.stderr
        assert "No space left on device; the games written before are kept there" in cut.stderr
        subprocess.run(["/bin/mount", "-o", "remount,size=16m", str(disk)], check=True)
        done = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert (out.read_bytes(), rep.read_bytes()) == whole_cli
    finally:
        subprocess.run(["/bin/umount", str(disk)], capture_output=True)


def test_a_failed_write_is_exit_status_1_in_one_line(tmp_path):
    cut = subprocess.run(_cli(tmp_path, "--out", "/dev/full"), capture_output=True, text=True, timeout=600)
    assert (cut.returncode, cut.stderr) == (1, "atomic-africa selfplay: error: cannot write '/dev/full': No space "
                                                "left on device\n")


def test_resume_refusals_are_one_line_on_the_command_line(tmp_path, capsys):
    from atomic_africa.cli import main
    argv = ["selfplay", "--games", "6", "--agents", "random,random", "--engine", "python", "--batch-size", "2",
            "--no-progress", "--out", str(tmp_path / "r.csv")]
    with pytest.raises(KeyboardInterrupt):
        stream_games(6, ("random", "random"), results=tmp_path / "r.csv", batch_size=2, engine="python",
                     on_batch=_stop_after(4), seed=0)
    part = tmp_path / "r.csv.partial"
    data = bytearray(part.read_bytes())
    data[-5] = ord("9") if data[-5] != ord("9") else ord("8")
    part.write_bytes(bytes(data))
    assert main(argv + ["--resume"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atomic-africa selfplay: error: --resume: ") and "do not match the digest" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    part.unlink()
    part.symlink_to(tmp_path / "elsewhere.txt")
    assert main(argv + ["--resume"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atomic-africa selfplay: error: --resume: ") and "is a symbolic link" in err
    assert err.count("\n") == 1 and not (tmp_path / "elsewhere.txt").exists()


def test_a_start_killed_before_its_run_file_is_started_afresh(tmp_path, whole):
    # Killed between creating the partial files and writing the run file: they hold no game; a fresh
    # run removes them (a resume could not tell whose they are, a fresh run refused them).
    out, rep = tmp_path / "r.csv", tmp_path / "r.jsonl"
    Path(f"{out}.partial").write_bytes(stream._HEADER[:7])
    Path(f"{rep}.partial").write_bytes(b"")
    Path(f"{out}.partial.digests").write_bytes(b"")
    stream_games(12, results=out, replays=rep, **KW)
    assert out.read_bytes() == whole["r.csv"] and rep.read_bytes() == whole["r.jsonl"]
    # one game's row in them: refused as before
    Path(f"{out}.partial").write_bytes(stream._HEADER + b"0,1\r\n")
    with pytest.raises(ValueError, match=r"holds an interrupted run; add --resume"):
        stream_games(12, results=out, **KW)
