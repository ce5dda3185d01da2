"""The self-play job: many games between two built-in agents, on worker processes or Ray.

Game ``i`` of a run with seed ``S`` is seeded from ``SeedSequence(S).spawn(N)[i]`` (its first word is
the game seed, its two spawned children seed the agents), never from a per-worker stream, so the
per-game results are the same for any number of worker processes, any batch size and on Ray.
Agent A plays side ``i % 2`` of game ``i`` (sides alternate, so the scenario's asymmetry cancels)
unless ``alternate=False``, where A is always side 0.
"""
from __future__ import annotations

import csv
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context

import numpy as np

from ._atomic_write import replaced_atomically
from ._optional import require
from ._progress import Progress
from ._seeding import seed_sequence
from ._validate import MAX_THREADS, as_int, check_memory
from .game import Game, GameSpec
from .game.scenario import load_scenario
from .rules import Rules, resolve_rules
from .agents import AGENTS, make_agent

__all__ = ["play_games", "SelfPlayResult", "wilson_interval", "game_seed_sequence", "COLUMNS",
           "write_results", "read_results", "results_format"]

#: Columns of the per-game results table, in order.
COLUMNS = ("game", "seed", "agent_0", "agent_1", "a_side", "winner", "a_score", "reason", "turns",
           "decisions", "figures_0", "figures_1")
_Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion ``k / n`` (95 % for the default ``z``).

    Parameters
    ----------
    k : int
        Successes, ``0 <= k <= n``.
    n : int
        Trials; ``n <= 0`` gives the uninformative ``(0.0, 1.0)``.
    z : float
        Standard-normal quantile of the confidence level (1.96 for 95 %).

    Returns
    -------
    (float, float)
        Lower and upper bound, clipped to [0, 1] (exactly 0 when ``k == 0``, 1 when ``k == n``).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # The bounds are exactly 0 at k = 0 and 1 at k = n (rounding would leave ~1e-17 otherwise).
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def game_seed_sequence(root_entropy, index: int) -> np.random.SeedSequence:
    """``SeedSequence(seed).spawn(n)[index]`` without spawning the ``index`` earlier children.

    Parameters
    ----------
    root_entropy : int or sequence of int
        Entropy of the root SeedSequence.
    index : int
        Game index, ``>= 0``.

    Returns
    -------
    numpy.random.SeedSequence
    """
    return np.random.SeedSequence(root_entropy, spawn_key=(index,))


def _seeds_of(root_entropy, index: int):
    ss = game_seed_sequence(root_entropy, index)
    game_seed = int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))  # fits int64 columns
    agent_seeds = [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in ss.spawn(2)]
    return game_seed, agent_seeds


def _play_one(spec, root_entropy, index, names, alternate, replay):
    game_seed, agent_seeds = _seeds_of(root_entropy, index)
    a_side = index % 2 if alternate else 0
    sides = [names[0], names[1]] if a_side == 0 else [names[1], names[0]]
    agents = [make_agent(sides[p], agent_seeds[p]) for p in range(2)]
    g = Game(spec, game_seed)
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    r = g.result
    winner = -1 if r.winner is None else r.winner
    record = {"game": index, "seed": game_seed, "agent_0": sides[0], "agent_1": sides[1],
              "a_side": a_side, "winner": winner,
              "a_score": 0 if winner < 0 else (1 if winner == a_side else -1), "reason": r.reason,
              "turns": g.s.turn, "decisions": len(g.history), "figures_0": r.figures[0],
              "figures_1": r.figures[1]}
    return record, (g.to_json() if replay else None)


def _play_batch(task):
    """Worker entry point (processes and Ray): play the games of one batch."""
    scenario, rules_dict, root_entropy, indices, names, alternate, replay = task
    rules = Rules.from_dict(rules_dict) if rules_dict is not None else None
    spec = GameSpec.build(scenario, rules)  # once per batch: the games share it
    return [_play_one(spec, root_entropy, i, names, alternate, replay) for i in indices]


@dataclass
class SelfPlayResult:
    """Per-game records (sorted by game index), replays if asked, and the run's timing."""

    agents: tuple
    records: list
    seconds: float
    workers: int
    backend: str
    replays: list = field(default_factory=list)
    seed: int | None = None

    @property
    def n(self) -> int:
        """Number of games played."""
        return len(self.records)

    def counts(self) -> dict:
        """Wins, draws and losses of agent A.

        Returns
        -------
        dict
            ``{"win": int, "draw": int, "loss": int}``.
        """
        scores = [r["a_score"] for r in self.records]
        return {"win": scores.count(1), "draw": scores.count(0), "loss": scores.count(-1)}

    def rates(self) -> dict:
        """Outcome rates of agent A with 95 % Wilson intervals.

        Returns
        -------
        dict
            ``{outcome: (rate, low, high)}`` for ``"win"``, ``"draw"``, ``"loss"`` (rate 0.0 when no
            game was played).
        """
        n = self.n
        return {k: (c / n if n else 0.0, *wilson_interval(c, n)) for k, c in self.counts().items()}

    @property
    def games_per_second(self) -> float:
        """Games per second of wall time (``inf`` if no time was measured)."""
        return self.n / self.seconds if self.seconds > 0 else float("inf")

    def columns(self) -> dict:
        """The records as ``{column: list}`` for every name of :data:`COLUMNS`."""
        return {c: [r[c] for r in self.records] for c in COLUMNS}

    def summary(self) -> str:
        """Readable counts, rates with 95 % intervals and speed, one line each."""
        a, b = self.agents
        lines = [f"{self.n} games, {a} (A) vs {b} (B)"]
        for key, label in (("win", "A wins"), ("draw", "draws"), ("loss", "B wins")):
            rate, lo, hi = self.rates()[key]
            lines.append(f"  {label:<7s} {self.counts()[key]:6d}  {rate:6.3f}  95% CI [{lo:.3f}, {hi:.3f}]")
        lines.append(f"  {self.games_per_second:.2f} games/s ({self.seconds:.2f} s, {self.workers} "
                     f"worker{'s' if self.workers != 1 else ''}, {self.backend})")
        return "\n".join(lines)


def _batches(n: int, workers: int, batch_size):
    if batch_size is None:
        batch_size = max(1, min(50, math.ceil(n / (max(workers, 1) * 8))))
    return [list(range(i, min(n, i + batch_size))) for i in range(0, n, batch_size)]


# Memory a game keeps until the end of the run, at the least: its record, and its replay's JSON when
# replays are kept (a short game's; long games need more). Used to refuse a run that cannot fit.
_RECORD_BYTES = 600
_REPLAY_BYTES = 100_000


def results_memory(n_games: int, replays: bool) -> int:
    """Bytes the results (and replays) of ``n_games`` games need at the least until the run ends."""
    return n_games * (_RECORD_BYTES + (_REPLAY_BYTES if replays else 0))


def _check_int(value, name, lo):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < lo:
        raise ValueError(f"{name}: expected an integer >= {lo}, got {value!r}")
    return int(value)


def play_games(n_games: int, agents=("random", "random"), *, seed: int = 0, workers: int = 1,
               scenario=None, rules=None, alternate: bool = True, replays: bool = False,
               use_ray: bool = False, address: str | None = None, batch_size: int | None = None,
               progress: bool = False) -> SelfPlayResult:
    """Play ``n_games`` between agents A and B.

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
        Scenario (default: packaged) and rules (default: packaged).
    alternate : bool
        A plays side ``i % 2`` of game ``i`` (else always side 0).
    replays : bool
        Keep every game's ``Game.to_json()`` (in ``result.replays``, by game index).
    use_ray, address : bool, str
        Run batches as Ray tasks: on the running Ray if one is initialised, else a local Ray
        (``address=None``) or the cluster at ``address``; a Ray started here is shut down at the end.
    batch_size : int, optional
        Games per task (default: about 8 tasks per worker, at most 50 games each).
    progress : bool
        Show a progress bar on stderr.

    Returns
    -------
    SelfPlayResult
        Records identical for every ``workers``/``batch_size``/backend.
    """
    n_games = _check_int(n_games, "n_games", 1)
    workers = as_int(workers, "workers", lo=1, hi=MAX_THREADS)
    check_memory(results_memory(n_games, bool(replays)), "n_games", f"{n_games:,} games' results",
                 "play fewer games per call")
    if batch_size is not None:
        batch_size = _check_int(batch_size, "batch_size", 1)
    if isinstance(agents, str) or len(agents) != 2:
        raise ValueError(f"agents: expected two agent names A, B, got {agents!r}")
    names = tuple(str(a).strip().lower() for a in agents)
    for a in names:
        if a not in AGENTS:
            raise ValueError(f"agents: unknown agent {a!r}; allowed: {', '.join(sorted(AGENTS))}")
    if use_ray:
        require("ray", "ray", "running games on Ray")  # now, before any game is played
    root = seed_sequence(seed, "seed")
    if root.spawn_key:
        raise ValueError("seed: expected a root seed (int), not a spawned SeedSequence")
    scenario = load_scenario(scenario)
    rules_dict = None if rules is None else resolve_rules(rules).to_dict()
    batches = _batches(n_games, workers, batch_size)
    tasks = [(scenario, rules_dict, root.entropy, b, names, bool(alternate), bool(replays)) for b in batches]
    bar = Progress(n_games, progress, unit="game")
    out = []
    t0 = time.perf_counter()
    try:
        if use_ray:
            backend = "ray"
            out, ray_seconds = _run_ray(tasks, workers, address, bar)
        elif workers == 1:
            backend = "in-process"
            for task in tasks:
                res = _play_batch(task)
                out.extend(res)
                bar.update(len(res))
        else:
            backend = "processes"
            with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as ex:
                futures = [ex.submit(_play_batch, t) for t in tasks]
                for f in as_completed(futures):
                    res = f.result()
                    out.extend(res)
                    bar.update(len(res))
    finally:
        bar.close()
    # With Ray, games/s counts playing the games, not starting and stopping Ray.
    seconds = ray_seconds if use_ray else time.perf_counter() - t0
    out.sort(key=lambda r: r[0]["game"])
    return SelfPlayResult(names, [r for r, _ in out], seconds, workers, backend,
                          [j for _, j in out] if replays else [],
                          None if seed is None else int(seed))


def _run_ray(tasks, workers, address, bar):
    ray = require("ray", "ray", "running games on Ray")
    started = False
    if not ray.is_initialized():
        kw = {"include_dashboard": False, "log_to_driver": False}
        if address is None and workers > 1:  # workers=1: a local Ray on every core
            kw["num_cpus"] = workers
        ray.init(address=address, **kw)
        started = True
    try:
        remote = ray.remote(_play_batch)
        t0 = time.perf_counter()
        pending = [remote.remote(t) for t in tasks]
        out = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for res in ray.get(done):
                out.extend(res)
                bar.update(len(res))
        return out, time.perf_counter() - t0
    finally:
        if started:
            ray.shutdown()


# -- results files --------------------------------------------------------------------------------
def results_format(path) -> str:
    """The format :func:`write_results` writes to ``path``, checked before any game is played.

    Parameters
    ----------
    path : str or PathLike
        A path ending in ``.csv`` (any case) is CSV; any other is Parquet.

    Returns
    -------
    str
        ``"csv"`` or ``"parquet"``.

    Raises
    ------
    MissingExtraError
        For Parquet without pyarrow (``pip install 'atomic-africa[parquet]'``); a ``.csv`` path
        needs nothing.
    """
    if os.fspath(path).lower().endswith(".csv"):
        return "csv"
    require("pyarrow.parquet", "parquet", "Parquet results; a .csv file needs nothing")
    return "parquet"


def write_results(result: SelfPlayResult, path) -> str:
    """Write the per-game table as Parquet, or as CSV if ``path`` ends in ``.csv``.

    Parameters
    ----------
    result : SelfPlayResult
    path : str or PathLike
        Written as :func:`results_format` says (Parquet needs the ``parquet`` extra).

    Returns
    -------
    str
        The path written (under a temporary name, renamed into place: a failure leaves any previous
        file as it was).

    Raises
    ------
    atomic_africa._atomic_write.WriteError
        An ``OSError`` naming ``path`` if the file cannot be written.
    """
    path = os.fspath(path)
    if results_format(path) == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = pa.table(result.columns())
        table = table.replace_schema_metadata({"agents": ",".join(result.agents),
                                               "seed": str(result.seed)})
        sink = pa.BufferOutputStream()     # pyarrow deletes a path it fails to write, even /dev/full
        pq.write_table(table, sink)
        with replaced_atomically(path) as tmp, open(tmp, "wb") as fh:
            fh.write(sink.getvalue())
        return path
    with replaced_atomically(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        for r in result.records:
            w.writerow([r[c] for c in COLUMNS])
    return path


def read_results(path) -> list:
    """Records (dicts) from a file written by :func:`write_results` (Parquet or CSV).

    Parameters
    ----------
    path : str or PathLike
        Read as CSV if it ends in ``.csv``, else as Parquet (the ``parquet`` extra).

    Returns
    -------
    list of dict
        One record per game, keyed by :data:`COLUMNS` (integers restored for CSV).
    """
    path = os.fspath(path)
    if results_format(path) == "parquet":
        import pyarrow.parquet as pq
        return pq.read_table(path).to_pylist()
    ints = set(COLUMNS) - {"agent_0", "agent_1", "reason"}
    with open(path, newline="", encoding="utf-8") as fh:
        return [{k: (int(v) if k in ints else v) for k, v in row.items()} for row in csv.DictReader(fh)]


def write_replays(result: SelfPlayResult, path) -> str:
    """One ``Game.to_json()`` document per line, by game index.

    Parameters
    ----------
    result : SelfPlayResult
        Its ``replays`` are written (empty unless replays were asked for).
    path : str or PathLike

    Returns
    -------
    str
        The path written (under a temporary name, renamed into place).

    Raises
    ------
    atomic_africa._atomic_write.WriteError
        An ``OSError`` naming ``path`` if the file cannot be written.
    """
    path = os.fspath(path)
    with replaced_atomically(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for text in result.replays:
            fh.write(text + "\n")
    return path
