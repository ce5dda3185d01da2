"""Observations: what one player may see, as a flat float32 vector.

Hidden: the opponent's hand/Reserve and face-down order cards (only "has a card" shows), and both
decks' order. Everything on the table (positions, markers, wounds, revealed cards, declarations, the
terrain features' current cover, last in the vector) shows.
"""
from __future__ import annotations

import numpy as np

from ..enums import Action
from .schema import LIMIT
from .state import NO_CARD, Stage

__all__ = ["observe", "observation_size", "UNIT_FEATURES", "SCALE"]

#: Observation floats per unit slot (the native engine's UNIT_FEATURES, declared in :mod:`.schema`).
UNIT_FEATURES = LIMIT.UNIT_FEATURES

#: The divisors of the scaled counts (the native ``observe`` uses the same ones, ``SCALE_DIV`` in
#: ``src/aa_core/csrc/aa_observe.c``; the parity tests hold them equal). :mod:`.observation_spec`
#: documents each feature and its bounds from these.
SCALE = {"figures": 20, "markers": 5, "wounds": 5, "turn_markers": 2, "armor": 5, "die": 12, "cover": 2}


def observation_size(game) -> int:
    """Length of :func:`observe`'s vector for ``game`` (fixed per scenario and rules).

    Parameters
    ----------
    game : Game

    Returns
    -------
    int
    """
    return 1 + Stage.COUNT + 8 + game.deck.size + 2 * game.C * UNIT_FEATURES + len(game.scenario.terrain)


def _unit_features(game, u, visible_card: bool, out: np.ndarray):
    s, sc = game.s, game.scenario
    if not u.alive:
        return
    f = [1.0, u.x / sc.width_cm, u.y / sc.height_cm, u.figures / SCALE["figures"],
         u.markers / SCALE["markers"], u.wounds / SCALE["wounds"], u.turn_markers / SCALE["turn_markers"]]
    kind = [0.0, 0.0, 0.0]
    kind[u.kind] = 1.0
    f += kind + [u.armor / SCALE["armor"]] + [d / SCALE["die"] for d in u.dice]
    f += [float(u.hw_dispersed), float(u.hw_point), float(u.spotter), float(u.comms), float(u.commander)]
    has = u.card != NO_CARD
    known = has and (visible_card or u.revealed)
    suit = [0.0] * 4
    joker = rank = 0.0
    if known:
        if game.deck.is_joker(u.card):
            joker = 1.0
        else:
            suit[game.deck.suit(u.card)] = 1.0
            rank = game.deck.rank(u.card) / game.deck.ranks
    f += [float(has), float(known), joker] + suit + [rank, float(u.acted)]
    f += [float(u.uid == s.act_uid), float(u.uid == s.react_uid), float(u.uid == s.decl_uid)]
    act = [0.0] * len(Action)
    if u.action >= 0:
        act[u.action] = 1.0
    f += act + [u.dest_x / sc.width_cm, u.dest_y / sc.height_cm, float(u.moves)]
    out[:len(f)] = f


def observe(game, player: int) -> np.ndarray:
    """What ``player`` may see of ``game`` (use :meth:`Game.observation`, which checks ``player``).

    Parameters
    ----------
    game : Game
    player : int
        0 or 1 (not checked).

    Returns
    -------
    ndarray of float32, shape (observation_size(game),)
    """
    s = game.s
    obs = np.zeros(observation_size(game), dtype=np.float32)
    me, op = s.players[player], s.players[1 - player]
    n = game.deck.size
    head = [s.turn / game.scenario.turns]
    stage = [0.0] * Stage.COUNT
    stage[s.stage] = 1.0
    head += stage
    head += [float(game.current_player == player), float(s.activating == player),
             len(me.deck) / n, len(me.discard) / n, len(me.hand) / n,
             len(op.deck) / n, len(op.discard) / n, len(op.hand) / n]
    obs[:len(head)] = head
    pos = len(head)
    for c in me.hand:
        obs[pos + c] = 1.0
    pos += n
    order = list(range(player * game.C, (player + 1) * game.C)) + \
        list(range((1 - player) * game.C, (2 - player) * game.C))
    for k, uid in enumerate(order):
        u = s.units[uid]
        _unit_features(game, u, u.side == player, obs[pos + k * UNIT_FEATURES: pos + (k + 1) * UNIT_FEATURES])
    pos += len(order) * UNIT_FEATURES
    # Each terrain feature's current cover (heavy weapons lower it, RULES.md section 4).
    for f, c in enumerate(s.feature_cover):
        obs[pos + f] = c / SCALE["cover"]
    return obs
