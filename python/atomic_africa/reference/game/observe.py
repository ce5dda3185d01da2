"""The reference engine's observation encoder: what one player may see, as a flat float32 vector,
written out from :data:`atomic_africa.game.schema.UNIT_OBSERVATION` (the C core's ``aa_observe`` is its
bit-equal twin; the layout's sizes are :mod:`atomic_africa.game.observe`'s).

Hidden: the opponent's hand/Reserve and face-down order cards (only "has a card" shows), and both
decks' order. Everything on the table (positions, markers, wounds, revealed cards, declarations, the
terrain features' current cover, last in the vector) shows.
"""
from __future__ import annotations

import numpy as np

from ...game.observe import COVER_SCALE, SCALE, UNIT_FEATURES, observation_size
from ...game.schema import UNIT_FIELDS, UNIT_OBSERVATION
from ...game.state import NO_CARD, Stage

__all__ = ["observe", "observation_size", "UNIT_FEATURES", "SCALE", "COVER_SCALE", "ENCODINGS", "UNIT_SOURCE"]


#: How each encoding of :class:`~atomic_africa.game.schema.UnitFeature` computes its float, as a
#: Python expression of the unit ``u``, the game state ``s``, the table's ``width`` and ``height`` and
#: the observer's view of the card (``has``, ``known``, ``joker``, ``suit``, ``rank``: see
#: ``_PROLOGUE``); ``{source}``, ``{arg}``, ``{scale}`` are the feature's. The native
#: ``unit_features`` (``src/aa_core/csrc/aa_observe.c``) computes the same floats.
ENCODINGS = {
    "flag": "float(u.{source})",
    "x": "u.{source} / width",
    "y": "u.{source} / height",
    "count": "u.{source} / {scale}",
    "count[]": "u.{source}[{arg}] / {scale}",
    "equals": "float(u.{source} == {arg})",
    "is_unit": "float(u.uid == s.{source})",
    "card_held": "float(has)",
    "card_known": "float(known)",
    "card_joker": "float(joker)",
    "card_suit": "float(suit == {arg})",
    "card_rank": "rank",
}
#: What the expressions read of the unit's order card, as the observer knows it (an own unit's card,
#: or a revealed one).
_PROLOGUE = """\
    has = u.card != NO_CARD
    known = has and (visible or u.revealed)
    joker = known and deck.is_joker(u.card)
    suit = deck.suit(u.card) if known and not joker else -1
    rank = deck.rank(u.card) / deck.ranks if known and not joker else 0.0
"""


_LIST_FIELDS = {f.name for f in UNIT_FIELDS if f.rows > 1}


def _expression(feat) -> str:
    list_field = feat.encoding == "count" and feat.source in _LIST_FIELDS     # element `arg` of the list
    return ENCODINGS["count[]" if list_field else feat.encoding].format(
        source=feat.source, arg=feat.arg, scale=feat.scale)


#: The source of ``_unit_values(u, s, width, height, deck, visible)``: the floats of a live unit slot,
#: one expression per entry of ``UNIT_OBSERVATION`` (written out from the declaration, so the encoder
#: is one list, as fast as a hand-written one).
UNIT_SOURCE = ("def _unit_values(u, s, width, height, deck, visible):\n" + _PROLOGUE + "    return [\n"
               + "".join(f"        {_expression(f)},  # {f.name}\n" for f in UNIT_OBSERVATION) + "    ]\n")
_namespace = {"NO_CARD": NO_CARD}
exec(compile(UNIT_SOURCE, "<atomic_africa.reference.game.observe.UNIT_SOURCE>", "exec"), _namespace)
_unit_values = _namespace["_unit_values"]


def _unit_features(game, u, visible_card: bool, out: np.ndarray):
    if u.alive:
        sc = game.scenario
        out[:UNIT_FEATURES] = _unit_values(u, game.s, sc.width_cm, sc.height_cm, game.deck, visible_card)


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
        obs[pos + f] = c / COVER_SCALE
    return obs
