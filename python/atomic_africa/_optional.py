"""Optional dependencies: import one, or say in one line which extra installs it.

The base install needs only numpy (and threadpoolctl); pictures, RL adapters, Ray and Parquet come with extras
(``pip install 'atomic-africa[plot]'``, ``[gym]``, ``[pettingzoo]``, ``[ray]``, ``[parquet]``, ``[sb3]``,
``[rllib]``, ``[pandas]``, ``[mesa]``, ``[open_spiel]``).
Every import of an optional dependency goes through :func:`require`, so a missing one is reported
the same way everywhere: a :class:`MissingExtraError` whose message is the whole story, which the
command line prints as one line.
"""
from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["MissingExtraError", "require", "EXTRAS"]

#: The extras that install one optional feature each (pyproject.toml's optional-dependencies; ``rl``,
#: ``test`` and ``dev`` are unions of these and of tools).
EXTRAS = ("plot", "gym", "pettingzoo", "ray", "parquet", "sb3", "rllib", "pandas", "mesa", "open_spiel")

# Import names whose distribution is called differently on PyPI.
_DISTRIBUTIONS = {"PIL": "pillow", "stable_baselines3": "stable-baselines3", "pyspiel": "open_spiel"}


class MissingExtraError(ImportError):
    """An optional dependency is not installed; ``str(error)`` names the extra that installs it."""


def require(module: str, extra: str, needed_for: str | None = None) -> ModuleType:
    """Import ``module`` (e.g. ``"matplotlib.figure"``), which the extra ``extra`` installs.

    Parameters
    ----------
    module : str
        Dotted module name; its top-level package is the optional dependency.
    extra : str
        The extra that installs it, one of :data:`EXTRAS`.
    needed_for : str, optional
        What needs it, for the message (e.g. ``"render"``); default: the package's name.

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    MissingExtraError
        When the package is not installed: ``"matplotlib is not installed (needed for render):
        pip install 'atomic-africa[plot]'"``. Any other import failure (a broken installation,
        a missing dependency of the package itself) propagates unchanged.
    ValueError
        If ``extra`` is not one of :data:`EXTRAS` (a programming error here, not a user's).
    """
    if extra not in EXTRAS:
        raise ValueError(f"extra: unknown extra {extra!r}; allowed: {', '.join(EXTRAS)}")
    top = module.partition(".")[0]
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != top and not (exc.name or "").startswith(top + "."):
            raise  # the package is there but broken: its own error says more than ours would
        dist = _DISTRIBUTIONS.get(top, top)
        raise MissingExtraError(
            f"{dist} is not installed (needed for {needed_for or top}): "
            f"pip install 'atomic-africa[{extra}]'", name=top) from None
