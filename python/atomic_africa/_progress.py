"""A progress bar on stderr: tqdm when it is installed, else a plain text bar."""
from __future__ import annotations

import sys

__all__ = ["Progress"]


class Progress:
    """Count work done towards ``total`` on stderr; silent when ``enabled`` is false.

    Parameters
    ----------
    total : int
        Units of work expected.
    enabled : bool
        Draw anything at all.
    unit : str
        What one unit of work is ("game", "frame" ...), shown by tqdm.
    desc : str, optional
        Label before the bar.
    """

    def __init__(self, total: int, enabled: bool, unit: str = "it", desc: str | None = None):
        self.total, self.done, self.enabled, self._bar = total, 0, enabled, None
        self._desc = f"{desc}: " if desc else ""
        if enabled:
            try:
                from tqdm import tqdm
                self._bar = tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, dynamic_ncols=True)
            except ImportError:  # tqdm is optional (plot, rl and test extras): a plain bar then
                self._bar = None

    def update(self, k: int = 1) -> None:
        """Record ``k`` more units done."""
        self.done += k
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(k)
        else:
            width = 30
            fill = int(width * self.done / max(self.total, 1))
            sys.stderr.write(f"\r{self._desc}[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total}")
            sys.stderr.flush()

    def close(self) -> None:
        """End the bar (a newline for the plain bar)."""
        if self.enabled and self._bar is not None:
            self._bar.close()
        elif self.enabled:
            sys.stderr.write("\n")
