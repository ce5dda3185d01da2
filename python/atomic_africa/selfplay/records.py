"""A game's row of a results table, and which side each agent of a pair plays in game ``i``."""
from __future__ import annotations

__all__ = ["sides_of", "game_record"]


def sides_of(agents, alternate: bool, index: int) -> tuple[int, tuple]:
    """(A's side, (side-0 agent, side-1 agent)) of game ``index`` between agents ``(A, B)``."""
    a_side = index % 2 if alternate else 0
    a, b = agents
    return a_side, ((a, b) if a_side == 0 else (b, a))


def game_record(index, seed, a_side, sides, winner, reason, turns, decisions, figures) -> dict:
    """A game's row of the results table (:data:`~atomic_africa.selfplay.COLUMNS`)."""
    return {"game": index, "seed": seed, "agent_0": sides[0], "agent_1": sides[1], "a_side": a_side,
            "winner": winner, "a_score": 0 if winner < 0 else (1 if winner == a_side else -1),
            "reason": reason, "turns": turns, "decisions": decisions, "figures_0": figures[0],
            "figures_1": figures[1]}
