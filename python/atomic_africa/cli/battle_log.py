"""``atomic-africa battle``'s log: the narration lives in the game layer
(:mod:`atomic_africa.game.narrate`, also used by replays); this module keeps its names where the
command and older code import them."""
from ..game.narrate import (Narrator, card_words, feature_fire_reason, fire_reason, hand_rule, legend,
                            result_line, side_tables)

__all__ = ["Narrator", "card_words", "feature_fire_reason", "fire_reason", "hand_rule", "legend",
           "result_line", "side_tables"]
