"""The page's ruler: the range band and the line of sight between any two points of the table, by
the engine's own rules (never a second copy of them in the page's script)."""
from __future__ import annotations

import math
import numbers

from .._text import printable
from ..fire import band_label, range_band
from ..game.los import cover_at, los_blocked

__all__ = ["measure"]

_COVER = ("open ground", "light cover", "heavy cover")


def measure(game, a, b) -> dict:
    """The range and line of sight between points ``a`` and ``b`` of ``game``'s table: the distance
    banded on the rules' stick (:func:`~atomic_africa.fire.range_band`), the line checked against the
    terrain as it stands (:func:`~atomic_africa.game.los.los_blocked` on ``game.terrain``, the cover
    heavy weapons knocked down included), as the engine checks a unit's line of sight, and the cover
    at both ends.

    Parameters
    ----------
    game : Game
    a, b : sequence of two float
        Points ``[x, y]`` in cm, on the table (``0..width``, ``0..height``).

    Returns
    -------
    dict
        ``from``, ``to``, ``distance_cm`` (to 0.01 cm), ``band``, ``band_words`` (e.g. ``"band 3
        (45-58.5 cm)"``), ``los`` (True: clear), ``fire_needs_los`` (the rules' setting) and
        ``cover`` (the cover at each end, in words).

    Raises
    ------
    ValueError
        Naming ``from`` or ``to`` if a point is not two finite numbers on the table.
    """
    sc = game.scenario
    pts = []
    for name, p in (("from", a), ("to", b)):
        ok = (isinstance(p, (list, tuple)) and len(p) == 2 and
              all(isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x) for x in p))
        if not ok or not (0 <= p[0] <= sc.width_cm and 0 <= p[1] <= sc.height_cm):
            raise ValueError(f"{name}: expected a point x,y in cm on the table (0..{sc.width_cm:g}, "
                             f"0..{sc.height_cm:g}), got {printable(repr(p))[:60]}")
        pts.append((float(p[0]), float(p[1])))
    (ax, ay), (bx, by) = pts
    d = math.hypot(bx - ax, by - ay)
    band = range_band(d, game.rules)
    blocked = bool(los_blocked([ax], [ay], [bx], [by], game.terrain)[0])
    covers = cover_at([ax, bx], [ay, by], game.terrain).tolist()
    return {"from": [ax, ay], "to": [bx, by], "distance_cm": round(d, 2), "band": band,
            "band_words": band_label(band, game.rules), "los": not blocked,
            "fire_needs_los": bool(game.rules.orders.fire_needs_los), "cover": [_COVER[int(c)] for c in covers]}
