"""Built-in agents: uniformly random legal actions, and a simple one-step greedy heuristic."""
from __future__ import annotations

import numpy as np

from ...._seeding import seed_sequence
from ....enums import Action, Posture
from ....game.los import cover_at
from ....game.state import Stage
from .scoring import distance

__all__ = ["RandomAgent", "HeuristicAgent"]


class RandomAgent:
    """Picks a uniformly random legal action: the native engine's die on its own PCG64 stream.

    ``act`` rolls one die of as many sides as legal actions (no draw when one action is legal) and
    plays that legal action in id order, drawn exactly as the engine rolls a die (one 32-bit word per
    try, Lemire's method, the ``aa_core.rng.roll_faces`` algorithm of ``RandomSource.roll``): the
    native random agent (``AGENT_RANDOM``) on the same stream plays the same actions.
    """

    name = "random"

    def __init__(self, seed=0):
        """
        Parameters
        ----------
        seed : int or numpy.random.SeedSequence
            The stream is ``PCG64(SeedSequence(seed))`` (``seed >= 0``), or ``PCG64(seed)`` for a
            SeedSequence (side ``p``'s native random agent in a VectorGame's game of seed ``gs`` is
            ``RandomAgent(VectorGame.agent_seed(gs, p))``).

        Raises
        ------
        TypeError, ValueError
            If ``seed`` is of another type or negative.
        """
        # numpy's bounded integers below 2**32 are this die, draw for draw (tests/test_native_agents
        # checks it against RandomSource.roll and the reference roll_faces); RandomSource.roll itself
        # cannot roll more than 256 sides (its faces are uint8), and legal actions can be more.
        self._rng = np.random.Generator(np.random.PCG64(seed_sequence(seed)))

    def act(self, game) -> int:
        """A uniformly random legal action.

        Parameters
        ----------
        game : Game
            A running game (not over).

        Returns
        -------
        int
            An action id of ``game.legal_actions()``.
        """
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return legal[int(self._rng.integers(len(legal)))]


_PREFERENCE = {Action.MASS_FIRE: 8, Action.HEAVY_WEAPON: 7, Action.SPLIT_FIRE: 6,
               Action.CALL_FOR_FIRE: 5, Action.RALLY: 4, Action.BASIC: 3, Action.SPRINT: 2,
               Action.DIG_IN: 1}


class HeuristicAgent:
    """One-step heuristics: strong cards to big units, fire at the closest enemy, advance into cover.

    Deterministic: ties go to the lowest action id.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0):
        """
        Parameters
        ----------
        seed : int
            Kept for a uniform agent interface; the agent is deterministic.
        """
        self.seed = seed

    def act(self, game) -> int:
        """The legal action with the best one-step score (ties: lowest id).

        Parameters
        ----------
        game : Game
            A running game (not over).

        Returns
        -------
        int
            An action id of ``game.legal_actions()``.
        """
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        moves = (self._move_scores(game, legal) if game.s.stage in (Stage.MOVE, Stage.SPRINT_MOVE)
                 else {})
        return max(legal, key=lambda a: (moves[a] if a in moves else self._score(game, a), -a))

    def _score(self, game, a):
        seg = game.space.decode(a)
        s = game.s
        me = s.current_player
        kind = seg[0]
        if kind == "ASSIGN":
            card, u = seg[1], s.units[me * game.C + seg[2]]
            value = 14 if game.deck.is_joker(card) else game.deck.rank(card)
            return value * 100 + u.figures
        if kind == "SELECT":
            u = s.units[me * game.C + seg[1]]
            return (14 if game.deck.is_joker(u.card) else game.deck.rank(u.card)) * 100 + u.figures
        if kind == "DECLARE":
            return _PREFERENCE[seg[1]] * 2 + (seg[2] == Posture.OFFENSIVE)
        if kind == "TARGET":
            u, t = s.units[s.decl_uid], s.units[seg[1]]
            if u.action == Action.RALLY:
                return t.markers
            return -distance(t.x - u.x, t.y - u.y)
        if kind == "FEATURE":   # a terrain feature is a target like any other: the closest first
            u, (fx, fy) = s.units[s.decl_uid], game.scenario.terrain[seg[1]].aim_point
            return -distance(fx - u.x, fy - u.y)
        if kind == "NO_TARGET":
            return -1e9
        if kind in ("END_SPLITS", "END_ORDERS"):
            return 1
        return 0

    def _move_scores(self, game, legal) -> dict:
        """The score of each MOVE / STAY action: cover at the destination, about 40 cm from the
        nearest enemy."""
        s = game.s
        u = s.units[s.decl_uid]
        enemies = [t for t in s.units if t.alive and t.side != u.side]
        dests = [game.preview_destination(a) for a in legal]
        cov = cover_at([d[0] for d in dests], [d[1] for d in dests], game.terrain).tolist()
        out = {}
        for a, d, c in zip(legal, dests, cov):
            near = min((distance(t.x - d[0], t.y - d[1]) for t in enemies), default=0.0)
            out[a] = 3.0 * c - 0.05 * max(0.0, near - 40.0) - 0.01 * abs(near - 40.0)
        return out

