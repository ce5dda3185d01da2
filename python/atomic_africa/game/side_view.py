"""The side-relative view: every player sees the table from its own deployment edge.

The engines' observations already list the observer's units first; positions, however, are in
table coordinates, so player 0 deploys at the bottom (small y) and player 1 at the top. In the
relative view player 1's table is turned by 180 degrees: every table coordinate of a unit on the
table becomes ``1 - v`` (x -> width - x, y -> height - y), and, so that actions mean the same in
that frame, the action ids are mapped as well:

- MOVE (and the sprint direction, which uses the MOVE ids): clock direction ``d`` <->
  ``(d + directions / 2) mod directions`` (the directions are evenly spaced on the Call for Fire
  clock, ``GameSpec.dir_angle``, so this is the opposite direction; ``rules.movement.directions``
  must be even);
- TARGET: the global unit slot ``uid`` <-> own slots first (``(uid + C) mod 2C`` for player 1), the
  order the observation lists them in;
- every other id (own-slot and card ids, postures, assets, terrain features) is already the same
  for both sides.

Player 0's relative view is its absolute one. :class:`SideView` is pure numpy and works on rows of
either engine (:class:`~atomic_africa.game.Game` or :class:`~atomic_africa.game.VectorGame`); the
environments apply it to what the learner and a callable opponent see and to what they answer.
"""
from __future__ import annotations

import numpy as np

from .observation_spec import coordinate_features

__all__ = ["SideView", "VIEWS"]

#: The views an environment offers (``view=`` keyword); the first is the default.
VIEWS = ("relative", "absolute")


def check_view(view) -> str:
    """``view`` if it is one of :data:`VIEWS`, else a ValueError naming the allowed values."""
    if not isinstance(view, str) or view not in VIEWS:
        raise ValueError(f"view: {view!r} is not a view; allowed " + ", ".join(repr(v) for v in VIEWS))
    return view


class SideView:
    """Maps observations, action masks and action ids between the engine's absolute frame and the
    ``view`` of each player.

    Parameters
    ----------
    spec : GameSpec
    view : {"relative", "absolute"}
        ``"absolute"`` maps nothing (every method returns its input's values).

    Raises
    ------
    ValueError
        On an unknown ``view``, or for ``"relative"`` when ``rules.movement.directions`` is odd (no
        direction is opposite to another).

    Attributes
    ----------
    to_engine : ndarray of int64, shape (2, num_actions)
        ``to_engine[p, a]``: the engine's id of player ``p``'s action ``a`` in this view.
    from_engine : ndarray of int64, shape (2, num_actions)
        The inverse permutation per player.
    """

    def __init__(self, spec, view: str = "relative"):
        self.view = check_view(view)
        space, n = spec.space, spec.num_actions
        ident = np.arange(n, dtype=np.int64)
        perm = ident.copy()
        if view == "relative":
            D = space.directions
            if D % 2:
                raise ValueError(f"view: 'relative' needs an even rules.movement.directions (a "
                                 f"direction opposite to each one), got {D}; use view='absolute'")
            C2 = space.size["TARGET"]
            t = space.base["TARGET"]
            perm[t:t + C2] = t + (np.arange(C2) + C2 // 2) % C2
            m = space.base["MOVE"]
            d, f = np.divmod(np.arange(space.size["MOVE"]), space.n_fracs)
            perm[m:m + space.size["MOVE"]] = m + ((d + D // 2) % D) * space.n_fracs + f
        self.to_engine = np.stack([ident, perm])
        self.from_engine = np.argsort(self.to_engine, axis=1)
        coords = coordinate_features(spec)
        self._coords, self._alive = coords["both"], coords["alive"]
        self._mirror = view == "relative"

    @staticmethod
    def _players(player, rows: int):
        p = np.asarray(player, dtype=np.int64)
        if p.ndim == 0:
            return np.full(rows, int(p))
        return p

    def observation(self, obs, player):
        """``obs`` (absolute, as the engine gives it to ``player``) in ``player``'s view.

        Parameters
        ----------
        obs : ndarray of float32, shape (obs_size,) or (k, obs_size)
        player : int or array of int, shape (k,)
            The observer of each row.

        Returns
        -------
        ndarray of float32
            A new array (``obs`` is not changed).
        """
        out = np.array(obs, dtype=np.float32, copy=True)
        if not self._mirror:
            return out
        rows = out.reshape(-1, out.shape[-1])
        flip = np.flatnonzero(self._players(player, rows.shape[0]) == 1)
        if flip.size:
            sub = rows[flip]
            c = sub[:, self._coords]
            # only where the slot holds a unit: empty slots stay all-zero in every view
            sub[:, self._coords] = np.where(sub[:, self._alive] == 1.0, np.float32(1.0) - c, c)
            rows[flip] = sub
        return out

    def action_mask(self, mask, player):
        """The engine's legal-action ``mask`` of ``player`` indexed by ``player``'s view's ids.

        Parameters
        ----------
        mask : ndarray of bool, shape (num_actions,) or (k, num_actions)
        player : int or array of int, shape (k,)

        Returns
        -------
        ndarray of bool (a new array)
        """
        m = np.asarray(mask)
        if m.ndim == 1:
            return m[self.to_engine[int(player)]]
        return np.take_along_axis(m, self.to_engine[self._players(player, m.shape[0])], axis=1)

    def action_to_engine(self, action, player):
        """The engine's id of ``player``'s ``action`` given in this view (same shape as ``action``).

        ``action`` must hold ids in ``0 .. num_actions - 1`` (the caller checks them).
        """
        a = np.asarray(action, dtype=np.int64)
        if a.ndim == 0:
            return int(self.to_engine[int(player), a])
        return self.to_engine[self._players(player, a.shape[0]), a]

    def action_from_engine(self, action, player):
        """The id in this view of the engine's ``action`` of ``player`` (inverse of
        :meth:`action_to_engine`)."""
        a = np.asarray(action, dtype=np.int64)
        if a.ndim == 0:
            return int(self.from_engine[int(player), a])
        return self.from_engine[self._players(player, a.shape[0]), a]
