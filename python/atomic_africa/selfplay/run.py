"""The two ways to run a self-play job: :func:`play_games` keeps a small run in memory,
:func:`stream_games` writes a long one to files as it goes, stops cleanly on SIGINT or SIGTERM (the
workers first, then the files, closed whole) and completes an interrupted run.
"""
from __future__ import annotations

import hashlib
import json
import math
import signal
import threading
import time
import warnings
from contextlib import closing, contextmanager, nullcontext

import numpy as np

from .._limits import MAX_THREADS
from .._optional import require
from .._progress import Progress
from .._seeding import seed_sequence
from .. import _validate
from .._validate import _size, as_int, check_memory, cores_available
from ..agents import AGENTS
from ..agents.learned import LEARNED_AGENTS, check_learned
from ..agents.search import SEARCH_AGENTS, check_search
from ..game.scenario import load_scenario
from ..game.scenarios import sampler_of
from ..rules import resolve_rules
from .games import DEFAULT_ENGINE, ENGINES, Job
from .result import SelfPlayResult
from .stream import RunFiles
from .workers import backend, in_order

__all__ = ["play_games", "stream_games", "results_memory", "Stopped", "check_workers", "WORKER_BYTES"]

# Memory a game keeps until the end of the run, at the least: its record, and its replay's JSON when
# replays are kept in memory (a short game's; long games need more). Used to refuse a run that
# cannot fit; a streamed run keeps the records only.
_RECORD_BYTES = 600
_REPLAY_BYTES = 100_000
# Games per batch at most: a batch is what is written at once (and lost when a run stops while it is in
# flight); a Python game takes 0.1-1 s, a native one 0.5 ms (random) to 5 ms (greedy).
_MAX_BATCH = {"python": 50, "native": 256}
# Games per batch with a learned agent: its games are played together, one search for all of them
# per step (the league's chunk size).
_LEARNED_BATCH = 64
#: Memory one worker process takes, at the least: measured, a spawned worker that imported the
#: package and played a batch (256 native greedy games, or 4 Python games with replays) peaks at
#: 55-58 MiB resident. 1,024 workers need about 56 GiB.
WORKER_BYTES = 56 << 20


def results_memory(n_games: int, replays: bool) -> int:
    """Bytes the results (and replays kept in memory) of ``n_games`` games need until the run ends."""
    return n_games * (_RECORD_BYTES + (_REPLAY_BYTES if replays else 0))


class Stopped(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped a run of :func:`stream_games` (``signum`` says which)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


# -- checks -------------------------------------------------------------------------------------------
def _check_int(value, name, lo):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < lo:
        raise ValueError(f"{name}: expected an integer >= {lo}, got {value!r}")
    return int(value)


def _names(agents) -> tuple:
    if isinstance(agents, str) or len(agents) != 2:
        raise ValueError(f"agents: expected two agent names A, B, got {agents!r}")
    names = tuple(str(a).strip().lower() for a in agents)
    for a in names:
        if a not in AGENTS:
            raise ValueError(f"agents: unknown agent {a!r}; allowed: {', '.join(sorted(AGENTS))}")
    return names


def _job(agents, seed, scenario, rules, alternate, replays, engine, use_ray, search=None, network=None,
         puct=None) -> tuple[Job, dict]:
    """The run's shared job and its identity (what a resumed run must match; not the engine)."""
    names = _names(agents)
    search = check_search(search)
    learned = check_learned(network, puct)
    if engine not in ENGINES:
        raise ValueError(f"engine: unknown engine {engine!r}; allowed: {', '.join(ENGINES)}")
    plays_learned = any(a in LEARNED_AGENTS for a in names)
    if plays_learned:
        if engine != "native":
            raise ValueError(f"engine: {engine!r} has no learned agents ({', '.join(LEARNED_AGENTS)}); "
                             f"allowed: native")
        learned.evaluator()   # loaded now: a missing or bad network is reported before any game
    if use_ray:
        require("ray", "ray", "running games on Ray")  # now, before any game is played
    root = seed_sequence(seed, "seed")
    if root.spawn_key:
        raise ValueError("seed: expected a root seed (int), not a spawned SeedSequence")
    sampler = sampler_of(scenario, rules)
    if sampler is not None:          # a battle per game, drawn from its seed
        if rules is not None and resolve_rules(rules) != sampler.rules:
            raise ValueError("rules: a ScenarioSampler carries its own rules; omit rules or pass the same rules")
        rules = None if sampler.rules == resolve_rules(None) else sampler.rules
        scenario, described = sampler, {"scenarios": [s.scenario.to_dict() for s in sampler.specs],
                                        "weights": sampler.weights.tolist()}
    else:
        scenario = load_scenario(scenario)
        described = scenario.to_dict()
    rules_dict = None if rules is None else resolve_rules(rules).to_dict()
    digest = hashlib.sha256(json.dumps({"scenario": described,
                                        "rules": rules_dict or resolve_rules(None).to_dict()},
                                       sort_keys=True).encode()).hexdigest()
    identity = {"seed": None if seed is None else int(seed), "agents": list(names),
                "alternate": bool(alternate), "spec": digest}
    if any(a in SEARCH_AGENTS for a in names):
        # the games depend on them; only then in the identity, so earlier runs still resume
        identity["search"] = search
    if plays_learned:
        identity["learned"] = learned.identity()
    return (Job(scenario, rules_dict, root.entropy, names, bool(alternate), bool(replays), engine, search,
                learned if plays_learned else None), identity)


def _ranges(first: int, n: int, workers: int, batch_size, engine: str, learned: bool = False):
    if batch_size is None and learned:
        # one VectorGame per batch: the bigger, the bigger the network's batches
        batch_size = max(1, min(_LEARNED_BATCH, math.ceil((n - first) / max(workers, 1))))
    if batch_size is None:
        batch_size = max(1, min(_MAX_BATCH[engine], math.ceil((n - first) / (max(workers, 1) * 8))))
    return [(lo, min(n, lo + batch_size)) for lo in range(first, n, batch_size)]


def check_workers(workers, name: str = "workers") -> int:
    """A worker-process count ``1..MAX_THREADS``, refused (MemoryError naming ``name``) when that
    many processes cannot fit in the memory available (:data:`WORKER_BYTES` each), with a
    RuntimeWarning when there are more than the cores (they only wait for each other)."""
    workers = as_int(workers, name, lo=1, hi=MAX_THREADS)
    if workers == 1:
        return workers                    # this process plays: no worker process
    need = workers * WORKER_BYTES
    avail = _validate.available_memory()
    fit = "" if avail is None else f" (at most {max(1, avail // WORKER_BYTES):,} fit)"
    check_memory(need, name, f"{workers:,} worker processes (about {_size(WORKER_BYTES)} each)",
                 "use fewer workers" + fit)
    cores = cores_available()
    if workers > cores:
        warnings.warn(f"{name}: {workers:,} worker processes on {cores} available core{'s' if cores != 1 else ''}; "
                      f"processes beyond the cores make the run slower, not faster (results do not change), "
                      f"and need about {_size(need)} of memory", RuntimeWarning, stacklevel=3)
    return workers


def _common(n_games, workers, batch_size):
    n_games = _check_int(n_games, "n_games", 1)
    workers = check_workers(workers)
    if batch_size is not None:
        batch_size = _check_int(batch_size, "batch_size", 1)
    return n_games, workers, batch_size


# -- the two ways to run ------------------------------------------------------------------------------
def play_games(n_games: int, agents=("random", "random"), *, seed: int = 0, workers: int = 1,
               scenario=None, rules=None, alternate: bool = True, replays: bool = False,
               use_ray: bool = False, address: str | None = None, batch_size: int | None = None,
               progress: bool = False, engine: str = DEFAULT_ENGINE, search=None, network=None,
               puct=None) -> SelfPlayResult:
    """Play ``n_games`` between agents A and B, keeping every result in memory.

    Parameters
    ----------
    n_games : int
    agents : (str, str)
        Agent names A, B from :data:`atomic_africa.agents.AGENTS`.
    seed : int
        Root seed; game ``i`` uses ``SeedSequence(seed).spawn(n_games)[i]``.
    workers : int
        Worker processes (1: play in this process). With ``use_ray``, the number of CPUs of a
        local Ray started here (1: Ray's default, every core).
    scenario, rules
        Scenario (default: packaged) and rules (default: packaged). ``scenario`` may be a list of
        scenarios or a :class:`~atomic_africa.game.scenarios.ScenarioSampler`: game ``i`` then plays
        the battle ``sampler.pick(seed_i)`` draws from its game seed (the same on either engine and
        whatever the workers; its record's ``seed`` names it).
    alternate : bool
        A plays side ``i % 2`` of game ``i`` (else always side 0).
    replays : bool
        Keep every game's ``Game.to_json()`` (in ``result.replays``, by game index).
    use_ray, address : bool, str
        Run batches as Ray tasks: on the running Ray if one is initialised, else a local Ray
        (``address=None``) or the cluster at ``address``; a Ray started here is shut down at the end.
    batch_size : int, optional
        Games per task (default: about 8 tasks per worker, at most 50 Python or 256 native games).
    progress : bool
        Show a progress bar on stderr.
    engine : {"native", "python"}
        ``native``: the batch engine and native agents; ``python``: the reference engine
        (``atomic_africa.reference.game``) with its Python agents, for debugging. The records are the
        same on both.
    search : dict, optional
        Search parameters of an ``"ismcts"`` agent (some of ``simulations``, ``exploration``,
        ``rollout``, ``rollout_depth``, as :class:`~atomic_africa.agents.ISMCTSAgent` takes them;
        :func:`atomic_africa.agents.search.check_search`); its defaults otherwise.
    network : str or PathLike, optional
        The network file of a ``"puct"`` or ``"network"`` agent (default: the packaged network).
        Their games are played on the native batch, a batch's games together (one search or network
        call per step for all of them); worker processes and Ray tasks get the loaded network with
        their batch; ``engine="python"`` is refused.
    puct : dict, optional
        The ``"puct"`` agent's search parameters (:func:`atomic_africa.agents.puct.check_puct`).

    Returns
    -------
    SelfPlayResult
        Records identical for every ``workers``/``batch_size``/backend/engine.

    Raises
    ------
    MemoryError
        If the results (and replays) of ``n_games`` cannot fit in memory (:func:`stream_games`
        writes a long run to files instead).
    WorkerLost
        If a worker process or Ray task died.
    """
    n_games, workers, batch_size = _common(n_games, workers, batch_size)
    check_memory(results_memory(n_games, bool(replays)), "n_games", f"{n_games:,} games' results",
                 "play fewer games per call, or stream them to files (stream_games)")
    job, _ = _job(agents, seed, scenario, rules, alternate, replays, engine, use_ray, search, network, puct)
    played, how, seconds = [], None, 0.0
    bar = Progress(n_games, progress, unit="game")
    try:
        how, batches = backend(job, _ranges(0, n_games, workers, batch_size, engine, job.learned is not None),
                               workers, use_ray, address)
        t0 = time.perf_counter()
        with closing(batches):
            for batch in in_order(batches, 0):
                played += batch
                bar.update(len(batch))
        seconds = time.perf_counter() - t0
    finally:
        bar.close()
    return SelfPlayResult(job.agents, [r for r, _ in played], seconds, workers, how,
                          [t for _, t in played] if replays else [], None if seed is None else int(seed),
                          engine)


class _Signals:
    """SIGINT/SIGTERM raise :class:`Stopped`, but not while a batch is being written (deferred to
    its end, so the files hold whole batches) nor once the run is stopping (the files are closing)."""

    def __init__(self):
        self.pending, self.depth, self.stopping = None, 0, False

    def handler(self, signum, frame):
        if self.pending is None:
            self.pending = signum
        if self.depth == 0 and not self.stopping:
            self.stopping = True
            raise Stopped(self.pending)

    @contextmanager
    def installed(self):
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        old = {s: signal.signal(s, self.handler) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for s, h in old.items():
                signal.signal(s, h)

    @contextmanager
    def held(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if self.depth == 0 and self.pending is not None and not self.stopping:
            self.stopping = True
            raise Stopped(self.pending)


def stream_games(n_games: int, agents=("random", "random"), *, results=None, replays=None,
                 resume: bool = False, seed: int = 0, workers: int = 1, scenario=None, rules=None,
                 alternate: bool = True, use_ray: bool = False, address: str | None = None,
                 batch_size: int | None = None, progress: bool = False, engine: str = DEFAULT_ENGINE,
                 handle_signals: bool = False, on_batch=None, search=None, network=None,
                 puct=None) -> SelfPlayResult:
    """Play ``n_games`` between agents A and B, writing results and replays as batches finish.

    Parameters
    ----------
    n_games, agents, seed, workers, scenario, rules, alternate, use_ray, address, batch_size, progress, engine
        As for :func:`play_games`.
    search, network, puct
        As for :func:`play_games`.
    results : str or PathLike, optional
        The per-game results table: Parquet (the ``parquet`` extra), or CSV if it ends in ``.csv``
        (with neither output the run is only summarised).
    replays : str or PathLike, optional
        Every game's ``Game.to_json()``, one per line, by game index (``atomic-africa render --game K``).
    resume : bool
        Complete the interrupted run whose partial files are at these paths: the games they hold
        are kept (checked to be of this run: seed, agents, sides, scenario, rules and, with an
        ``"ismcts"`` agent, search; the engine may differ) and only the others are played.
    handle_signals : bool
        SIGINT and SIGTERM raise :class:`Stopped` (a KeyboardInterrupt) between written batches
        (call from the main thread; the previous handlers are restored at the end).
    on_batch : callable, optional
        Called with the number of games written after each batch (progress reports, tests).

    Returns
    -------
    SelfPlayResult
        Every game's record (``replays`` not kept in memory); ``resumed`` of them were read back.

    Raises
    ------
    Stopped, KeyboardInterrupt, WorkerLost, WriteError
        The run stopped: the games written so far are kept in ``<path>.partial`` files, and the
        exception's notes (``__notes__``) say where and how to resume.
    ValueError
        Bad arguments, an output that cannot be written, partial files of another run, or partial
        files there without ``resume`` (nothing is played).

    Notes
    -----
    Games are written in index order, each batch flushed, to ``<path>.partial`` (CSV rows, JSON
    lines; a Parquet table to the CSV journal ``<path>.partial.csv``, its Parquet file written at the
    end) beside ``<path>.partial.json`` naming the run and ``<path>.partial.digests`` holding each
    batch's SHA-256; the partial files are renamed onto the paths when every game is written. Until
    then a previous file at a path is left as it was, and an interrupted run's partial files are
    readable (:func:`read_results`, render), whether it was stopped, killed outright (SIGKILL) or
    cut by a full disk; ``resume=True`` checks every kept batch against its digest and ends with the
    same bytes as an uninterrupted run (:mod:`.stream`).
    """
    n_games, workers, batch_size = _common(n_games, workers, batch_size)
    check_memory(results_memory(n_games, False), "n_games", f"{n_games:,} games' results",
                 "play fewer games per run")
    job, identity = _job(agents, seed, scenario, rules, alternate, replays is not None, engine, use_ray, search,
                         network, puct)
    files = RunFiles(dict(identity, games=n_games), results, replays)
    signals = _Signals()
    bar, started = None, False
    with signals.installed() if handle_signals else nullcontext():
        try:
            with signals.held():
                kept = files.start(resume)
                started = True
            records, first = list(kept), len(kept)
            bar = Progress(n_games, progress, unit="game")
            bar.update(first)
            how, batches = backend(job, _ranges(first, n_games, workers, batch_size, engine,
                                                job.learned is not None), workers, use_ray, address)
            t0 = time.perf_counter()
            with closing(batches):
                for batch in in_order(batches, first):
                    with signals.held():
                        files.write(batch)
                    records += [r for r, _ in batch]
                    bar.update(len(batch))
                    if on_batch is not None:
                        on_batch(files.written)
            seconds = time.perf_counter() - t0
            with signals.held():
                files.finish(records)
                signals.stopping = True      # the run is complete: a signal now changes nothing
        except BaseException as exc:
            signals.stopping = True
            try:
                files.close()
            except OSError:
                pass
            if started:
                exc.add_note(files.describe())
            raise
        finally:
            if bar is not None:
                bar.close()
    return SelfPlayResult(job.agents, records, seconds, workers, how, [], identity["seed"], engine,
                          resumed=first)
