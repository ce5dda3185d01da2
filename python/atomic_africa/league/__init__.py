"""A league: every pair of agents plays on both sides; Bradley-Terry ratings and win/draw/loss tables.

- :func:`play_league` plays the matches (:mod:`.play`), built-in agents through
  :func:`atomic_africa.selfplay.play_games`, outside policies (``module:callable``, :mod:`.entrants`)
  on the native batch (:mod:`.external`).
- :func:`bradley_terry` fits the ratings with 95 % intervals (:mod:`.ratings`).
- :func:`pair_table` gives win/draw/loss per pair and side with Wilson intervals (:mod:`.tables`).
- :func:`write_tables` and :func:`plot_league` write them (:mod:`.output`).
"""
from __future__ import annotations

from .entrants import Entrant, parse_entrants, resolve_policy
from .output import plot_league, write_tables
from .play import LeagueResult, match_seed, play_league
from .ratings import Ratings, bradley_terry
from .tables import outcome_matrices, pair_table

__all__ = ["play_league", "LeagueResult", "match_seed", "Entrant", "parse_entrants", "resolve_policy",
           "bradley_terry", "Ratings", "pair_table", "outcome_matrices", "write_tables", "plot_league"]
