"""The self-play job: many games between two built-in agents, on the native or the Python engine,
in this process, on worker processes or on Ray.

Game ``i`` of a run with seed ``S`` is seeded from ``SeedSequence(S).spawn(N)[i]`` (its first word is
the game seed, its two spawned children seed the agents), never from a per-worker stream, so the
per-game results are the same for any number of worker processes, any batch size, on Ray and on
either engine. Agent A plays side ``i % 2`` of game ``i`` (sides alternate, so the scenario's
asymmetry cancels) unless ``alternate=False``, where A is always side 0.

- :func:`play_games` keeps a run in memory (:class:`SelfPlayResult`);
- :func:`stream_games` writes a long one to files as batches finish, stops cleanly on SIGINT/SIGTERM
  and completes an interrupted run (``resume=True``);
- :func:`write_results`, :func:`read_results`, :func:`write_replays`: the files.

Modules: :mod:`.games` (seeds, a batch of games on either engine), :mod:`.run` (backends, the two
ways to run), :mod:`.files` (results and replays files), :mod:`.stream` (writing a run as it goes,
resuming it), :mod:`.result` (records, rates).
"""
from __future__ import annotations

from .files import read_results, results_format, write_replays, write_results
from .games import ENGINES, game_seed_sequence
from .result import COLUMNS, SelfPlayResult, wilson_interval
from .run import Stopped, play_games, results_memory, stream_games
from .workers import WorkerLost

__all__ = ["play_games", "stream_games", "SelfPlayResult", "wilson_interval", "game_seed_sequence",
           "COLUMNS", "ENGINES", "write_results", "read_results", "write_replays", "results_format",
           "results_memory", "Stopped", "WorkerLost"]
