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

from .outcome import IllegalActionError
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
        # the same map as slices, for masks: player 1's TARGET segment is its two halves (the sides)
        # swapped, and so is its MOVE segment (directions d and d + D/2, fractions inside)
        self._halves = ((space.base["TARGET"], spec.C),
                        (space.base["MOVE"], space.directions // 2 * space.n_fracs))
        coords = coordinate_features(spec)
        self._coords, self._alive = coords["both"], coords["alive"]
        self._mirror = view == "relative"

    @staticmethod
    def _flipped(player, rows: int) -> np.ndarray:
        """Indices of the rows seen by player 1 (``player``: one int or one per row)."""
        p = np.asarray(player)
        if p.ndim == 0:
            return np.arange(rows) if int(p) == 1 else np.empty(0, dtype=np.intp)
        return np.flatnonzero(p == 1)

    def observation(self, obs, player, copy: bool = True):
        """``obs`` (absolute, as the engine gives it to ``player``) in ``player``'s view.

        Parameters
        ----------
        obs : ndarray of float32, shape (obs_size,) or (k, obs_size)
        player : int or array of int, shape (k,)
            The observer of each row.
        copy : bool
            ``True`` (default): a new array, ``obs`` unchanged. ``False``: ``obs`` (a C-contiguous
            float32 array the caller owns) is mapped in place and returned (no copy: the
            environments' per-step path).

        Returns
        -------
        ndarray of float32
        """
        out = np.array(obs, dtype=np.float32, copy=True) if copy else obs
        if not self._mirror:
            return out
        rows = out.reshape(-1, out.shape[-1])
        flip = self._flipped(player, rows.shape[0])
        if flip.size:
            # 1 - v times the slot's alive flag: an empty slot's features are all 0 and stay so
            if flip.size == rows.shape[0]:
                rows[:, self._coords] = (np.float32(1.0) - rows[:, self._coords]) * rows[:, self._alive]
            else:
                c, a = np.ix_(flip, self._coords), np.ix_(flip, self._alive)
                rows[c] = (np.float32(1.0) - rows[c]) * rows[a]
        return out

    def action_mask(self, mask, player, copy: bool = True):
        """The engine's legal-action ``mask`` of ``player`` indexed by ``player``'s view's ids.

        Parameters
        ----------
        mask : ndarray of bool, shape (num_actions,) or (k, num_actions)
        player : int or array of int, shape (k,)
        copy : bool
            ``True`` (default): a new array. ``False``: ``mask`` (a C-contiguous bool array the
            caller owns) is permuted in place and returned.

        Returns
        -------
        ndarray of bool
        """
        out = np.array(mask, copy=True) if copy else mask
        if not self._mirror:
            return out
        rows = out.reshape(-1, out.shape[-1])
        flip = self._flipped(player, rows.shape[0])
        if flip.size:
            whole = flip.size == rows.shape[0]
            for b, h in self._halves:
                if whole:
                    lo = rows[:, b:b + h].copy()
                    rows[:, b:b + h] = rows[:, b + h:b + 2 * h]
                    rows[:, b + h:b + 2 * h] = lo
                else:
                    lo = rows[flip, b:b + h]           # fancy row index: copies
                    rows[flip, b:b + h] = rows[flip, b + h:b + 2 * h]
                    rows[flip, b + h:b + 2 * h] = lo
        return out

    def action_to_engine(self, action, player):
        """The engine's id of ``player``'s ``action`` given in this view (same shape as ``action``).

        ``action`` must hold ids in ``0 .. num_actions - 1`` (the caller checks them).
        """
        return _lookup(self.to_engine, action, player)

    def apply(self, game, action: int, player: int) -> None:
        """``game.apply`` of ``player``'s ``action`` given in this view.

        An out-of-range id goes to the engine unmapped (its error names the allowed range); an
        illegal one raises the engine's :class:`~atomic_africa.game.IllegalActionError` (reason
        included, game unchanged) naming the id in this view and the engine's id.
        """
        a = int(action)
        if not 0 <= a < self.to_engine.shape[1]:
            return game.apply(a)
        e = int(self.to_engine[player, a])
        if e == a:
            return game.apply(a)
        try:
            game.apply(e)
        except IllegalActionError as err:
            raise IllegalActionError(f"action {a} ({self.view} view of player {player}; engine action "
                                     f"{e}): {err}") from None

    def action_from_engine(self, action, player):
        """The id in this view of the engine's ``action`` of ``player`` (inverse of
        :meth:`action_to_engine`)."""
        return _lookup(self.from_engine, action, player)


def _lookup(table: np.ndarray, action, player):
    """``table[player, action]``: an int for one action, else an array shaped like ``action``
    (``player``: one for all or one per action)."""
    a = np.asarray(action, dtype=np.int64)
    if a.ndim == 0:
        return int(table[int(player), a])
    p = np.asarray(player)
    if p.ndim == 0:
        return table[int(p)][a]
    return table[p, a]
