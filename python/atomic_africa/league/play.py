"""Playing a league: every pair of entrants, ``n_games`` games each with sides alternating.

Pair ``(a, b)`` (``a`` listed first) is one match of ``n_games`` games: ``a`` plays side ``i % 2`` of
game ``i``, so each side is played ``n_games / 2`` times (``a`` takes side 0 once more when
``n_games`` is odd). The match seed is drawn from ``SeedSequence([seed, crc32(a), crc32(b)])``: a
match's games depend only on the root seed and the two names, never on the other entrants, the
order of the matches, ``workers``, Ray or the engine. Matches between built-in agents are played by
:func:`atomic_africa.selfplay.play_games` (native by default; worker processes or Ray tasks);
matches with an outside policy or a learned agent (``"puct"``, ``"network"``) on the native batch
(:mod:`.external`): in this process, except that with ``workers > 1`` (and no Ray) the matches of a
learned agent against a built-in or learned one are played whole, one per worker process, before
the others; matches with a game agent (``"openspiel-ismcts"``) one game at a time
in this process (:mod:`.game_agents`).
"""
from __future__ import annotations

import sys
import time
import zlib
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .._optional import require
from .._validate import check_memory
from ..agents.learned import LEARNED_AGENTS, check_learned
from ..agents.search import check_search
from ..selfplay import ENGINES, play_games, results_memory
from ..selfplay.run import check_workers
from .entrants import Entrant, parse_entrants
from .game_agents import play_game_agents
from .external import DEFAULT_POLICY_TIMEOUT, check_policy_timeout, play_external
from .ratings import Ratings, bradley_terry
from .tables import outcome_matrices, pair_table, rating_table

__all__ = ["LeagueResult", "play_league", "match_seed"]


def match_seed(seed: int, a: str, b: str) -> int:
    """The seed of the match between ``a`` (listed first) and ``b`` under the root ``seed``."""
    ss = np.random.SeedSequence([int(seed), zlib.crc32(a.encode()), zlib.crc32(b.encode())])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass
class LeagueResult:
    """Records of every game of a league (match by match, by game index), and what they give."""

    agents: tuple
    games: int
    seed: int
    records: list
    seconds: float = 0.0
    match_seconds: dict = field(default_factory=dict)

    def outcomes(self):
        """``(wins, draws)`` matrices over ``agents`` (:func:`.tables.outcome_matrices`)."""
        return outcome_matrices(self.records, self.agents)

    def ratings(self, prior_draws: float = 1.0) -> Ratings:
        """Bradley-Terry ratings, the first agent listed = 0 (:func:`.ratings.bradley_terry`)."""
        return bradley_terry(self.agents, *self.outcomes(), prior_draws=prior_draws, anchor=0)

    def rating_rows(self, prior_draws: float = 1.0) -> list:
        """The ratings table's rows, best first (:func:`.tables.rating_table`)."""
        return rating_table(self.ratings(prior_draws), *self.outcomes())

    def pair_rows(self) -> list:
        """The per-pair, per-side win/draw/loss table's rows (:func:`.tables.pair_table`)."""
        return pair_table(self.records, self.agents)


def play_league(agents, n_games: int, *, seed: int = 0, workers: int = 1, use_ray: bool = False,
                address: str | None = None, scenario=None, rules=None, engine: str = "native", log=None,
                policy_timeout=DEFAULT_POLICY_TIMEOUT, search=None, network=None, puct=None) -> LeagueResult:
    """Play every pair of ``agents`` ``n_games`` times.

    Parameters
    ----------
    agents : str or sequence
        Comma-separated names or a sequence of names / :class:`.entrants.Entrant`; built-in agents, game
        agents and ``module:callable`` policies (:func:`.entrants.parse_entrants`).
    n_games : int
        Games per pair (``>= 1``), sides alternating.
    seed : int
        Root seed (non-negative).
    workers : int
        Worker processes for the matches between built-in agents (with ``use_ray``, the CPUs of a
        local Ray started here) and, without ``use_ray``, for the matches of a learned agent against
        a built-in or learned one (one match per process). Results do not depend on it.
    use_ray, address : bool, str
        Play the built-in matches as Ray tasks (on the running Ray, else a local one or the cluster at
        ``address``, started once for the league and shut down at its end).
    scenario
        Scenario (default: the packaged one).
    rules : Rules, optional
        Rules of every match (default: the packaged rules); the native matches take them through
        :class:`~atomic_africa.game.VectorGame`'s ``rules=``.
    engine : {"native", "python"}
        The engine of the matches between built-in agents (:func:`atomic_africa.selfplay.play_games`:
        the same records on both); a match with an outside policy is always native.
    log : file, optional
        Where to say each match's size and time as it ends (e.g. ``sys.stderr``).
    policy_timeout : float or None
        Seconds one call of an outside policy may take (default
        :data:`.external.DEFAULT_POLICY_TIMEOUT`, 60 s); None or 0: no timeout
        (:func:`.external.play_external`).
    search : dict, optional
        Search parameters of an ``"ismcts"`` entrant (some of ``simulations``, ``exploration``,
        ``rollout``, ``rollout_depth``, ``width``: :func:`atomic_africa.agents.search.check_search`); its
        defaults otherwise. An ``"openspiel-ismcts"`` entrant takes ``simulations`` and
        ``exploration`` from them. A match's games depend on them as on ``seed``.
    network : str or PathLike, optional
        The network file of ``"puct"`` and ``"network"`` entrants (default: the packaged network);
        loaded once for the league.
    puct : dict, optional
        The ``"puct"`` entrant's search parameters (some of ``simulations``, ``wave``, ``c_puct``,
        ``dirichlet_alpha``, ``noise_fraction``, ``temperature``:
        :func:`atomic_africa.agents.puct.check_puct`). A match with a learned agent is played in this
        process on the native batch (:func:`.external.play_external`), each step one batched search
        (or one network call) for all its games where that agent is to move.

    Returns
    -------
    LeagueResult

    Raises
    ------
    PolicyError, PolicyTimeout
        ValueErrors naming an outside policy that raised, called ``sys.exit``, returned a bad answer,
        or took longer than ``policy_timeout`` (the league stops).
    KeyboardInterrupt
        Ctrl-C, or a policy that raised KeyboardInterrupt.
    """
    entrants = (list(agents) if not isinstance(agents, str) and all(isinstance(e, Entrant) for e in agents)
                else parse_entrants(agents))
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"games: expected an integer >= 1, got {n_games!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: expected a non-negative integer, got {seed!r}")
    workers = check_workers(workers)
    timeout = check_policy_timeout(policy_timeout)
    search = check_search(search)
    learned = check_learned(network, puct)
    if any(e.policy is None and e.name in LEARNED_AGENTS for e in entrants):
        learned.evaluator()        # loaded now: a missing network is reported before any game
    if engine not in ENGINES:
        raise ValueError(f"engine: unknown engine {engine!r}; allowed: {', '.join(ENGINES)}")
    total = int(n_games) * len(entrants) * (len(entrants) - 1) // 2
    check_memory(results_memory(total, False), "games", f"{total:,} games' results", "play fewer games per pair")
    ray_started = False
    if use_ray:
        ray = require("ray", "ray", "running the league on Ray")
        if not ray.is_initialized():   # once for the whole league, not once per match
            kw = {"include_dashboard": False, "log_to_driver": False}
            if address is None and workers > 1:
                kw["num_cpus"] = workers
            ray.init(address=address, **kw)
            ray_started = True
    pairs = list(combinations(entrants, 2))
    done, match_seconds = {}, {}

    def finished(key, res_records, seconds):
        done[key], match_seconds[key] = res_records, seconds
        if log is not None:
            print(f"{key[0]} vs {key[1]}: {n_games} games, {seconds:.2f} s", file=log, flush=True)

    t0 = time.perf_counter()
    try:
        pooled = [(a, b) for a, b in pairs if _poolable(a, b)] if workers > 1 and not use_ray else []
        if pooled:
            _play_pooled(pooled, workers, finished, n_games=int(n_games), seed=seed, scenario=scenario,
                         rules=rules, search=search, learned=learned)
        for a, b in pairs:
            if (a.name, b.name) in done:
                continue
            s = match_seed(seed, a.name, b.name)
            t = time.perf_counter()
            if a.builtin and b.builtin:
                got = play_games(int(n_games), (a.name, b.name), seed=s, workers=workers, scenario=scenario,
                                 rules=rules, alternate=True, use_ray=use_ray, progress=False, engine=engine,
                                 search=search).records
            elif a.agent is not None or b.agent is not None:
                got = play_game_agents((a, b), int(n_games), s, scenario=scenario, rules=rules,
                                       policy_timeout=timeout, search=search, learned=learned)
            else:
                got = play_external((a, b), int(n_games), s, scenario=scenario, rules=rules,
                                    policy_timeout=timeout, search=search, learned=learned)
            finished((a.name, b.name), got, time.perf_counter() - t)
    finally:
        if ray_started:
            sys.modules["ray"].shutdown()
    records = [r for a, b in pairs for r in done[(a.name, b.name)]]
    return LeagueResult(tuple(e.name for e in entrants), int(n_games), int(seed), records,
                        time.perf_counter() - t0, {(a.name, b.name): match_seconds[(a.name, b.name)]
                                                   for a, b in pairs})


def _poolable(a: Entrant, b: Entrant) -> bool:
    """A match with a learned agent and no outside policy or game agent: it can be played whole in a
    worker process (the learned agents' network travels pickled with :class:`Learned`)."""
    plain = all(e.policy is None and e.agent is None for e in (a, b))
    return plain and (a.name in LEARNED_AGENTS or b.name in LEARNED_AGENTS)


def _pooled_match(a: Entrant, b: Entrant, n_games: int, seed: int, scenario, rules, search, learned):
    t = time.perf_counter()
    got = play_external((a, b), n_games, match_seed(seed, a.name, b.name), scenario=scenario, rules=rules,
                        policy_timeout=None, search=search, learned=learned)
    return got, time.perf_counter() - t


def _play_pooled(pairs, workers: int, finished, **kw) -> None:
    """The learned matches, one per task on ``workers`` spawned processes; a search's match first, as
    the longest. Each match plays the records it would play in this process."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    import multiprocessing
    order = sorted(pairs, key=lambda p: "puct" not in (p[0].name, p[1].name))   # stable: listed order within
    with ProcessPoolExecutor(max_workers=min(workers, len(order)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(_pooled_match, a, b, **kw): (a.name, b.name) for a, b in order}
        try:
            for fut in as_completed(futures):
                got, seconds = fut.result()
                finished(futures[fut], got, seconds)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
