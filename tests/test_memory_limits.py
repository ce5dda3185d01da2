"""Memory checks honour every limit on the process (issue 27): free memory, ``ulimit -v``
(RLIMIT_AS), ``ulimit -d`` (RLIMIT_DATA) and cgroup limits (v2 ``memory.max``, v1
``memory.limit_in_bytes``); the error names the argument and the limit; ``--workers`` beyond the
memory is refused and beyond the cores warned about, with the memory estimate."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import pytest

from atomic_africa import _validate as v
from atomic_africa.cli import main
from atomic_africa.selfplay import play_games
from atomic_africa.selfplay.run import WORKER_BYTES


def _fake_cgroup(tmp_path, monkeypatch, cgroup_line: str, files: dict):
    proc, root = tmp_path / "proc", tmp_path / "cgroup"
    (proc / "self").mkdir(parents=True)
    (proc / "self" / "cgroup").write_text(cgroup_line + "\n")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    monkeypatch.setattr(v, "_PROC_SELF", str(proc / "self"))
    monkeypatch.setattr(v, "_CGROUP_ROOT", str(root))


def test_a_cgroup_v2_limit_is_honoured_up_the_hierarchy(tmp_path, monkeypatch):
    _fake_cgroup(tmp_path, monkeypatch, "0::/job/step", {
        "job/memory.max": f"{3 << 30}\n", "job/memory.current": f"{1 << 30}\n",
        "job/memory.stat": "anon 1\ninactive_file 0\n",
        "job/step/memory.max": "max\n", "job/step/memory.current": f"{1 << 30}\n",
        "job/step/memory.stat": f"inactive_file {256 << 20}\n"})
    limits = dict((where, n) for n, where in v.memory_limits())
    assert limits["the cgroup limit memory.max of /job"] == 2 << 30
    assert v.available_memory() <= 2 << 30
    with pytest.raises(MemoryError, match=r"^num_envs: .* need .* of memory; 2\.0 GiB is available \(the cgroup "
                                          r"limit memory\.max of /job\); use fewer envs$"):
        from atomic_africa.game import VectorGame
        VectorGame(None, 2**24, 0)


def test_a_cgroup_v1_limit_is_honoured(tmp_path, monkeypatch):
    _fake_cgroup(tmp_path, monkeypatch, "4:memory:/process_api/abc\n3:cpuset:/", {
        "memory/process_api/abc/memory.limit_in_bytes": f"{1 << 30}\n",
        "memory/process_api/abc/memory.usage_in_bytes": f"{600 << 20}\n",
        "memory/process_api/abc/memory.stat": f"cache 5\ntotal_inactive_file {88 << 20}\n",
        "memory/process_api/memory.limit_in_bytes": "9223372036854771712\n"})    # unlimited
    limits = dict((where, n) for n, where in v.memory_limits())
    assert limits["the cgroup limit memory.limit_in_bytes of /process_api/abc"] == (1 << 30) - (512 << 20)
    assert not any(w.endswith("of /process_api") for w in limits)


def test_no_cgroup_files_means_no_cgroup_limit(tmp_path, monkeypatch):
    _fake_cgroup(tmp_path, monkeypatch, "0::/", {})
    assert not any("cgroup" in where for _, where in v.memory_limits())


CHILD = textwrap.dedent("""
    import resource, sys
    limit = int(sys.argv[1])
    resource.setrlimit(getattr(resource, sys.argv[2]), (limit, limit))
    from atomic_africa.game import VectorGame
    from atomic_africa import _validate as v
    print(sorted(where for _, where in v.memory_limits()))
    try:
        VectorGame(None, int(sys.argv[3]), 0)
        print("fitted")
    except MemoryError as e:
        print("MemoryError:", e)
""")


@pytest.mark.parametrize("rlimit, label", [("RLIMIT_AS", "the address-space limit, ulimit -v"),
                                           ("RLIMIT_DATA", "the data-segment limit, ulimit -d")])
def test_ulimit_is_honoured_and_the_error_names_num_envs(rlimit, label):
    # 1.5 GiB of address space (data) for 1,000,000 games of the default battle (~2.4 GiB): refused
    # up front, naming num_envs and the limit (issue 27: numpy's "Unable to allocate 1.21 GiB for an
    # array with shape (1000000, 18, 18)", naming nothing)
    out = subprocess.run([sys.executable, "-c", CHILD, str(3 << 29), rlimit, "1000000"], capture_output=True,
                         text=True, timeout=300)
    lines = out.stdout.splitlines()
    assert label.split(",")[0] in lines[0], out
    assert lines[1].startswith("MemoryError: num_envs: 1,000,000 games of 'Kopje patrols: a balanced meeting' "), out
    assert lines[1].endswith(f"is available ({label}); use fewer envs"), out
    # the same limit fits a small batch
    out = subprocess.run([sys.executable, "-c", CHILD, str(3 << 29), rlimit, "1000"], capture_output=True,
                         text=True, timeout=300)
    assert out.stdout.splitlines()[1] == "fitted", out


def test_an_allocation_that_fails_anyway_still_names_num_envs(monkeypatch):
    from atomic_africa.game.native import vector
    monkeypatch.setattr(v, "available_memory", lambda: 1 << 40)

    class Broke:
        def __init__(self, *a, **k):
            raise MemoryError
    monkeypatch.setattr(vector._k, "Engine", Broke)
    with pytest.raises(MemoryError, match=r"^num_envs: 10 games of .* need .* of memory"):
        vector.VectorGame(None, 10, 0)


def test_workers_beyond_the_memory_are_refused_and_beyond_the_cores_warned(monkeypatch, capsys):
    monkeypatch.setattr(v, "available_memory", lambda: 100 * WORKER_BYTES)
    with pytest.raises(MemoryError, match=r"^workers: 1,024 worker processes \(about 56\.0 MiB each\) need 56\.0 GiB "
                                          r"of memory; .* is available; use fewer workers \(at most 100 fit\)$"):
        play_games(4, workers=1024)
    assert main(["selfplay", "--games", "4", "--workers", "1024", "--no-progress"]) == 2
    assert capsys.readouterr().err.startswith("atomic-africa selfplay: error: --workers: 1,024 worker processes "
                                              "(about 56.0 MiB each) need 56.0 GiB of memory")
    cores = v.cores_available()
    with pytest.warns(RuntimeWarning, match=rf"^workers: {cores + 1} worker processes on {cores} available cores?; "
                                            r"processes beyond the cores make the run slower, not faster \(results do "
                                            r"not change\), and need about .* of memory$"):
        play_games(2, workers=cores + 1, engine="native")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        play_games(2, workers=1)
    assert main(["selfplay", "--games", "2", "--workers", str(cores + 1), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"atomic-africa selfplay: warning: --workers: {cores + 1} worker processes on {cores}")
