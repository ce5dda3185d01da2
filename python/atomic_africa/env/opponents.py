"""An opponent pool for self-play: built-in agents and frozen snapshots, drawn by prioritised
fictitious self-play (PFSP), and the vector env's callable opponent that plays each game with the
entry it drew.

:class:`OpponentPool` is the league: its first entries are built-in agents (played natively by the
engine), later entries are players added with :meth:`OpponentPool.add_snapshot` (any object with
``act(observations, action_masks) -> actions``, e.g. a frozen copy of the learner's network). Each
entry keeps the learner's last ``window`` scores against it (win 1, draw 1/2, loss 0); entry ``e``
is drawn with a weight ``f(score_e) + floor`` (``score_e``: the mean of those scores, 1/2 before
any), where ``f`` is the PFSP weighting (Vinyals et al. 2019, AlphaStar):

- ``"variance"`` (default): ``f(s) = s (1 - s)``: the opponents the learner beats about half the
  time, the games that teach it most, are met most;
- ``"hard"``: ``f(s) = (1 - s) ** 2``: the opponents it loses to;
- ``"uniform"``: ``f(s) = 1``.

The snapshots (the newest ``pool_size``) share ``self_share`` of the draws once there is one, the
built-in agents the rest; ``floor`` keeps every live entry in play. Draws come from the pool's own
``numpy.random.Generator``: no global random state, and a pickled pool goes on with the same draws.

:class:`LeagueOpponent` is the ``opponent=`` callable of
:class:`~atomic_africa.env.gymnasium_vector.AtomicAfricaVectorEnv`: each game gets a pool entry
when the opponent first moves in it; the built-in entries are answered by the engine in one call
for all their games (:meth:`VectorGame.agent_actions
<atomic_africa.game.native.vector.VectorGame.agent_actions>`), each snapshot with one call over its
games. :meth:`LeagueOpponent.entry_of` tells which entry played a finished game, so the trainer can
:meth:`OpponentPool.record` the result. ``examples/train_selfplay.py`` uses both.
"""
from __future__ import annotations

import numbers
from collections import deque

import numpy as np

from ..game.native.agent_args import AGENT_KINDS

__all__ = ["OpponentPool", "LeagueOpponent", "WEIGHTINGS", "BUILTINS"]

#: The built-in agents of a default pool, in entry order.
BUILTINS = ("random", "heuristic", "greedy", "doctrine")
#: PFSP weightings by name: f(score) for a score in [0, 1].
WEIGHTINGS = {"variance": lambda s: s * (1.0 - s), "hard": lambda s: (1.0 - s) ** 2,
              "uniform": lambda s: np.ones_like(s)}


def _fraction(x, name: str, lo_open: bool = False) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real) or not np.isfinite(x) \
            or not (0 < x <= 1 if lo_open else 0 <= x <= 1):
        raise ValueError(f"{name}: expected a number in {'(0, 1]' if lo_open else '[0, 1]'}, got {x!r}")
    return float(x)


def _count(x, name: str, lo: int) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral) or x < lo:
        raise ValueError(f"{name}: expected an int >= {lo}, got {x!r}")
    return int(x)


class OpponentPool:
    """Built-in agents and frozen snapshots, drawn by PFSP (see the module notes).

    Parameters
    ----------
    rng : numpy.random.Generator
        The pool's stream (its draws; snapshots may share it for their own sampling).
    builtins : sequence of str
        Native agent names (``"random"``, ``"heuristic"``, ``"greedy"``, ``"doctrine"``, ``"ismcts"``), entries
        ``0 .. len(builtins) - 1``; at least one.
    self_share : float
        Share of the draws that go to the snapshots once there is one, in [0, 1].
    pool_size : int
        Newest snapshots in play (>= 1; older ones stay listed but are never drawn again).
    window : int
        Games per entry in its score (>= 1).
    weighting : {"variance", "hard", "uniform"}
        The PFSP weighting.
    floor : float
        Added to every live entry's weight (>= 0; > 0 keeps every entry in play).

    Attributes
    ----------
    names : list of str
        Entry names (built-in agents, then the snapshots' names).
    native_kind : list of int
        Each entry's native agent code (:data:`~atomic_africa.game.native.agent_args.AGENT_KINDS`),
        -1 for a snapshot.
    snapshots : list
        Each entry's player (None for a built-in agent).

    Raises
    ------
    TypeError, ValueError
        On an invalid argument (the message names it and the allowed values).
    """

    def __init__(self, rng: np.random.Generator, *, builtins=BUILTINS, self_share: float = 0.3,
                 pool_size: int = 6, window: int = 100, weighting: str = "variance", floor: float = 0.05):
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng: expected a numpy.random.Generator, got {type(rng).__name__}")
        builtins = tuple(builtins)
        bad = [b for b in builtins if b not in AGENT_KINDS]
        if not builtins or bad:
            raise ValueError(f"builtins: {bad[0] if bad else builtins!r} is not a native agent; allowed "
                             f"{', '.join(map(repr, AGENT_KINDS))} (at least one)")
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting: {weighting!r}; allowed {', '.join(map(repr, WEIGHTINGS))}")
        if isinstance(floor, (bool, np.bool_)) or not isinstance(floor, numbers.Real) or not np.isfinite(floor) \
                or floor < 0:
            raise ValueError(f"floor: expected a number >= 0, got {floor!r}")
        self.rng = rng
        self.self_share = _fraction(self_share, "self_share")
        self.pool_size, self.window = _count(pool_size, "pool_size", 1), _count(window, "window", 1)
        self.weighting, self.floor = weighting, float(floor)
        self.n_builtin = len(builtins)
        self.names = list(builtins)
        self.native_kind = [AGENT_KINDS[b] for b in builtins]
        self.snapshots = [None] * len(builtins)
        self.results = [deque(maxlen=self.window) for _ in builtins]

    def __len__(self) -> int:
        return len(self.names)

    def add_snapshot(self, player, name: str) -> int:
        """Add ``player`` (``player.act(observations, action_masks) -> actions``, in the view the
        env hands the opponent) as entry ``name``; returns its entry index."""
        if not callable(getattr(player, "act", None)):
            raise TypeError(f"player: expected an object with act(observations, action_masks), "
                            f"got {type(player).__name__}")
        self.names.append(str(name))
        self.native_kind.append(-1)
        self.snapshots.append(player)
        self.results.append(deque(maxlen=self.window))
        return len(self.names) - 1

    def category(self, entry: int) -> str:
        """The entry's built-in name, or ``"self"`` for a snapshot."""
        return self.names[entry] if entry < self.n_builtin else "self"

    def record(self, entry: int, score: float) -> None:
        """The learner scored ``score`` (1 win, 0.5 draw, 0 loss) in a game against ``entry``."""
        # a NaN score would make the entry's mean, and so every PFSP weight, NaN
        self.results[entry].append(_fraction(score, "score"))

    def scores(self) -> np.ndarray:
        """(len(self),) float: each entry's mean score over its window (0.5 before any game)."""
        return np.array([np.mean(r) if r else 0.5 for r in self.results])

    def live(self) -> list:
        """The entries that can be drawn: the built-in agents and the newest ``pool_size`` snapshots."""
        nb = self.n_builtin
        return list(range(nb)) + list(range(max(nb, len(self) - self.pool_size), len(self)))

    def probabilities(self) -> np.ndarray:
        """(len(self),) float: each entry's chance of being drawn next (sums to 1)."""
        nb = self.n_builtin
        live = self.live()
        prio = np.zeros(len(self))
        prio[live] = WEIGHTINGS[self.weighting](self.scores()[live]) + self.floor
        p = np.zeros(len(self))
        has_self = len(self) > nb
        in_play = np.zeros(len(self), dtype=bool)
        in_play[live] = True
        for part, share in ((slice(0, nb), 1.0 - self.self_share if has_self else 1.0),
                            (slice(nb, None), self.self_share if has_self else 0.0)):
            w = prio[part]
            if w.sum() <= 0:       # every weight 0 (no floor, scores all 0 or 1): the live entries alike
                w = in_play[part].astype(float)
            if share and w.sum() > 0:
                p[part] = share * w / w.sum()
        return p / p.sum()

    def draw(self, k: int) -> np.ndarray:
        """``k`` entries drawn independently (int64)."""
        return self.rng.choice(len(self), size=k, p=self.probabilities()).astype(np.int64)


class LeagueOpponent:
    """The vector env's callable opponent over an :class:`OpponentPool` (see the module notes).

    Bind it to the env's engine and view once the env exists (:meth:`bind`); the env then calls it
    with the observations and masks of the games where the opponent is to move, in the opponent's
    own view, and maps its answers back: the snapshots play in that view, as the learner does; the
    native agents' engine ids are mapped into it.

    Parameters
    ----------
    pool : OpponentPool
    """

    def __init__(self, pool: OpponentPool):
        if not isinstance(pool, OpponentPool):
            raise TypeError(f"pool: expected an OpponentPool, got {type(pool).__name__}")
        self.pool = pool
        self.vector_game = self.view = None

    def bind(self, vector_game, view=None) -> None:
        """Play in ``vector_game``'s games; ``view``: the env's ``SideView`` (None: engine ids)."""
        n = vector_game.num_envs
        self.vector_game, self.view = vector_game, view
        # the entry of each env's current and previous game (a step can end one game and start the next)
        self.cur_ep = np.full(n, -1, dtype=np.int64)
        self.cur_entry = np.full(n, -1, dtype=np.int64)
        self.prev_ep = self.cur_ep.copy()
        self.prev_entry = self.cur_entry.copy()
        self.native_kind = np.zeros(n, dtype=np.int8)

    def entry_of(self, envs: np.ndarray, episodes: np.ndarray) -> np.ndarray:
        """Pool entry that played game ``episodes[i]`` of env ``envs[i]`` (-1: the opponent never moved)."""
        return np.where(self.cur_ep[envs] == episodes, self.cur_entry[envs],
                        np.where(self.prev_ep[envs] == episodes, self.prev_entry[envs], -1))

    def __call__(self, observations, action_masks, envs):
        if self.vector_game is None:
            raise RuntimeError("LeagueOpponent: call bind(vector_game, view) first")
        vg = self.vector_game
        episodes = vg.episodes[envs]
        new = episodes != self.cur_ep[envs]
        if new.any():
            e = envs[new]
            self.prev_ep[e], self.prev_entry[e] = self.cur_ep[e], self.cur_entry[e]
            self.cur_ep[e], self.cur_entry[e] = episodes[new], self.pool.draw(len(e))
        entry = self.cur_entry[envs]
        kinds = np.asarray(self.pool.native_kind)[entry]
        actions = np.empty(len(envs), dtype=np.int64)
        native = kinds >= 0
        if native.any():
            active = np.zeros(vg.num_envs, dtype=bool)
            active[envs[native]] = True
            self.native_kind[envs[native]] = kinds[native]
            chosen = vg.agent_actions(self.native_kind, active=active)[envs[native]]
            if self.view is not None:
                chosen = self.view.action_from_engine(chosen, vg.current_player[envs[native]])
            actions[native] = chosen
        for s in np.unique(entry[~native]):
            rows = entry == s
            actions[rows] = self.pool.snapshots[s].act(observations[rows], action_masks[rows])
        return actions
