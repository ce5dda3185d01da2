"""What a self-play run gives back: the per-game records, their columns, A's rates with intervals."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["COLUMNS", "SelfPlayResult", "wilson_interval"]

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


@dataclass
class SelfPlayResult:
    """Per-game records (sorted by game index), replays if asked, and the run's timing.

    ``resumed`` games were read back from an interrupted run's outputs (``--resume``); ``seconds``
    is the time spent playing the others, so :attr:`games_per_second` counts only those.
    """

    agents: tuple
    records: list
    seconds: float
    workers: int
    backend: str
    replays: list = field(default_factory=list)
    seed: int | None = None
    engine: str = "native"
    resumed: int = 0

    @property
    def n(self) -> int:
        """Number of games (played now or resumed)."""
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
        """Games played (not resumed) per second of wall time (``inf`` if no time was measured)."""
        played = self.n - self.resumed
        return played / self.seconds if self.seconds > 0 else float("inf")

    def columns(self) -> dict:
        """The records as ``{column: list}`` for every name of :data:`COLUMNS`."""
        return {c: [r[c] for r in self.records] for c in COLUMNS}

    def summary(self) -> str:
        """Readable counts, rates with 95 % intervals and speed, one line each."""
        a, b = self.agents
        head = f"{self.n} games, {a} (A) vs {b} (B)"
        if self.resumed:
            head += f" ({self.resumed} resumed from the interrupted run)"
        lines = [head]
        for key, label in (("win", "A wins"), ("draw", "draws"), ("loss", "B wins")):
            rate, lo, hi = self.rates()[key]
            lines.append(f"  {label:<7s} {self.counts()[key]:6d}  {rate:6.3f}  95% CI [{lo:.3f}, {hi:.3f}]")
        lines.append(f"  {self.games_per_second:.2f} games/s ({self.seconds:.2f} s, {self.workers} "
                     f"worker{'s' if self.workers != 1 else ''}, {self.backend}, {self.engine} engine)")
        return "\n".join(lines)
