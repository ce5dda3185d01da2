"""What every picture shares: a Figure on its own canvas, names drawn literally, an atomic save.

matplotlib is optional (extra ``plot``) and imported on first use; only its object API is used, so
drawing never reads or changes the application's backend or ``rcParams``.
"""
from __future__ import annotations

import os

from ._atomic_write import replaced_atomically
from ._optional import require
from ._text import printable

__all__ = ["canvas_figure", "plain", "save_figure"]


def plain(text) -> str:
    """A name from a file as matplotlib shows it literally: control characters escaped (a newline
    would add a line, others miss from the font) and ``$`` not starting mathtext (an unbalanced
    one would fail the drawing)."""
    return printable(text).replace("$", r"\$")


def canvas_figure(figsize, dpi, what: str = "drawing a game", **kwargs):
    """A Figure on its own Agg canvas: nothing global is read or changed.

    Parameters
    ----------
    figsize : tuple of float
        Width and height in inches.
    dpi : float
        Dots per inch.
    what : str
        What needs the picture, named by the error when matplotlib is missing.
    **kwargs
        Passed to :class:`matplotlib.figure.Figure` (e.g. ``layout="constrained"``).
    """
    require("matplotlib", "plot", what)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize, dpi=dpi, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig, path, **kwargs) -> None:
    """``fig.savefig`` through :func:`~atomic_africa._atomic_write.replaced_atomically`, the format
    taken from ``path``'s extension (PNG when it has none), as matplotlib would choose it for
    ``path`` itself.

    Parameters
    ----------
    fig : matplotlib Figure
    path : str or PathLike
    **kwargs
        Passed to ``savefig`` (e.g. ``dpi``).
    """
    fmt = os.path.splitext(os.fspath(path))[1][1:].lower() or "png"
    with replaced_atomically(path) as tmp:
        fig.savefig(tmp, format=fmt, **kwargs)
