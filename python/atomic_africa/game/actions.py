"""The flat discrete action space of a scenario: fixed size, segments per decision kind.

Segments (in order), with ``C`` unit slots per side, ``N = 2 C`` slots in all:

=============  ==================  =============================================
segment        size                meaning
=============  ==================  =============================================
ASSIGN         cards x C           give card ``c`` to own unit slot ``u`` (orders, Reserve pick)
END_ORDERS     1                   finish assigning (the rest is the Reserve)
SELECT         C                   activate / react with own unit slot ``u``
DECLARE        actions x 2         action x posture (posture is free only with a Joker)
TARGET         N                   target unit (global slot; fire, Rally, Call for Fire point)
NO_TARGET      1                   no fire target (Basic, Sprint, Dig-in)
ASSET          max assets (>= 1)   Call for Fire: the off-board asset
MOVE           directions x fracs  Destination: clock direction x fraction of max movement
STAY           1                   Destination = Start
SPLIT          C                   Clean-up: split own unit slot ``u``
END_SPLITS     1                   no more voluntary splits
FEATURE        terrain features    heavy-weapon target: terrain feature ``f`` (scenario order)
=============  ==================  =============================================
"""
from __future__ import annotations

import numpy as np

from ..enums import Action, Posture

__all__ = ["ActionSpace", "SEGMENTS", "SEGMENT_MEANINGS", "legal_ids_text"]

SEGMENTS = ("ASSIGN", "END_ORDERS", "SELECT", "DECLARE", "TARGET", "NO_TARGET", "ASSET", "MOVE",
            "STAY", "SPLIT", "END_SPLITS", "FEATURE")

#: What each segment's ids mean (the table above; ``docs/observation.md`` is generated from it).
SEGMENT_MEANINGS = {
    "ASSIGN": "give card `c` to own unit slot `u` (id = base + c * C + u; orders, Reserve pick)",
    "END_ORDERS": "finish assigning (the cards left are the Reserve)",
    "SELECT": "activate / react with own unit slot `u`",
    "DECLARE": "action x posture (id = base + action * postures + posture; posture is free only "
               "with a Joker)",
    "TARGET": "target unit by global slot (fire, Rally, Call for Fire point)",
    "NO_TARGET": "no fire target (Basic, Sprint, Dig-in)",
    "ASSET": "Call for Fire: the side's off-board asset `k`",
    "MOVE": "Destination (and sprint displacement): clock direction `d` x fraction `f` of the "
            "maximum move (id = base + d * fractions + f)",
    "STAY": "Destination = Start",
    "SPLIT": "Clean-up: split own unit slot `u`",
    "END_SPLITS": "no more voluntary splits",
    "FEATURE": "heavy-weapon target: terrain feature `f` (scenario order)",
}


class ActionSpace:
    """Encoding/decoding of the flat action ids for a given slot capacity and rules.

    Parameters
    ----------
    n_cards : int
        Cards in a player's deck (Jokers included).
    slots : int
        Unit slots per side (``C``).
    n_assets : int
        Most off-board assets of a side (at least one ASSET id is kept).
    directions : int
        Movement directions (``rules.movement.directions``).
    n_fracs : int
        Movement distance fractions (``len(rules.movement.distance_fractions)``).
    n_features : int
        Terrain features of the scenario (each may be a heavy-weapon target if it has armor).

    The encoders take in-range indices and do not check them; :meth:`decode` checks its id.
    """

    def __init__(self, n_cards: int, slots: int, n_assets: int, directions: int, n_fracs: int,
                 n_features: int = 0):
        self.n_cards, self.slots, self.n_assets = n_cards, slots, max(n_assets, 1)
        self.n_features = n_features
        self.directions, self.n_fracs = directions, n_fracs
        sizes = {
            "ASSIGN": n_cards * slots, "END_ORDERS": 1, "SELECT": slots,
            "DECLARE": len(Action) * len(Posture), "TARGET": 2 * slots, "NO_TARGET": 1,
            "ASSET": self.n_assets, "MOVE": directions * n_fracs, "STAY": 1, "SPLIT": slots,
            "END_SPLITS": 1, "FEATURE": n_features,
        }
        self.base, self.size = {}, {}
        pos = 0
        for name in SEGMENTS:
            self.base[name] = pos
            self.size[name] = sizes[name]
            pos += sizes[name]
        self.n = pos

    # -- encoding -------------------------------------------------------------------------------
    def assign(self, card: int, local: int) -> int:
        """Id of giving card id ``card`` to own unit slot ``local`` (0..slots-1)."""
        return self.base["ASSIGN"] + card * self.slots + local

    @property
    def end_orders(self) -> int:
        """Id of finishing the assignment of orders."""
        return self.base["END_ORDERS"]

    def select(self, local: int) -> int:
        """Id of activating / reacting with own unit slot ``local`` (0..slots-1)."""
        return self.base["SELECT"] + local

    def declare(self, action: int, posture: int) -> int:
        """Id of declaring ``action`` (:class:`Action`) in ``posture`` (:class:`Posture`)."""
        return self.base["DECLARE"] + int(action) * len(Posture) + int(posture)

    def target(self, uid: int) -> int:
        """Id of targeting the unit of global slot ``uid`` (0..2*slots-1)."""
        return self.base["TARGET"] + uid

    @property
    def no_target(self) -> int:
        """Id of declaring no fire target."""
        return self.base["NO_TARGET"]

    def asset(self, k: int) -> int:
        """Id of calling the side's off-board asset ``k`` (0..n_assets-1)."""
        return self.base["ASSET"] + k

    def move(self, direction: int, frac: int) -> int:
        """Id of moving towards ``direction`` (0..directions-1) by fraction index ``frac``
        (0..n_fracs-1)."""
        return self.base["MOVE"] + direction * self.n_fracs + frac

    @property
    def stay(self) -> int:
        """Id of keeping the Destination at the Start."""
        return self.base["STAY"]

    def split(self, local: int) -> int:
        """Id of splitting own unit slot ``local`` (0..slots-1) in Clean-up."""
        return self.base["SPLIT"] + local

    @property
    def end_splits(self) -> int:
        """Id of ending the voluntary splits."""
        return self.base["END_SPLITS"]

    def feature(self, f: int) -> int:
        """Id of aiming a heavy weapon at terrain feature ``f`` (0..n_features-1)."""
        return self.base["FEATURE"] + f

    # -- decoding -------------------------------------------------------------------------------
    def decode(self, a: int) -> tuple:
        """``(segment, *args)`` of an action id, e.g. ``("ASSIGN", card, local)``.

        Parameters
        ----------
        a : int
            Action id, ``0 <= a < n``.

        Returns
        -------
        tuple
            The segment name, then its indices (DECLARE gives an :class:`Action` and a
            :class:`Posture`).

        Raises
        ------
        ValueError
            If ``a`` is out of range.
        """
        if not 0 <= a < self.n:
            raise ValueError(f"action: {a} is out of range; allowed 0..{self.n - 1}")
        for name in reversed(SEGMENTS):
            if a >= self.base[name]:
                k = a - self.base[name]
                break
        if name == "ASSIGN":
            return (name, k // self.slots, k % self.slots)
        if name == "DECLARE":
            return (name, Action(k // len(Posture)), Posture(k % len(Posture)))
        if name == "MOVE":
            return (name, k // self.n_fracs, k % self.n_fracs)
        if name in ("SELECT", "TARGET", "ASSET", "SPLIT", "FEATURE"):
            return (name, k)
        return (name,)


def legal_ids_text(mask, most: int = 12) -> str:
    """The legal action ids of ``mask`` for an error message: the first ``most``, then "..."."""
    ids = np.flatnonzero(mask)
    return ", ".join(str(x) for x in ids[:most]) + (" ..." if ids.size > most else "")
