"""Fate deck: 72 cards, each (white, coloured) d6 pair twice; shuffle, draw, discard, reshuffle; seeded."""
import copy
import itertools
from collections import Counter

import pytest

from atomic_africa.artillery import DeckState, FateCard, FateDeck


def test_fresh_deck_holds_every_pair_exactly_twice():
    deck = FateDeck(0)
    assert len(deck) == 72
    counts = Counter(deck.draw_pile)
    assert set(counts) == {FateCard(w, c) for w, c in itertools.product(range(1, 7), repeat=2)}
    assert set(counts.values()) == {2}
    assert DeckState.fresh() == deck.state()


def test_copies_come_from_the_rules(rules):
    deck = FateDeck(0, rules=rules.replace(artillery={"fate_card_copies": 3}))
    assert len(deck) == 108 and set(Counter(deck.draw_pile).values()) == {3}


def test_seeded_shuffle_is_reproducible_and_seeds_differ():
    assert FateDeck(7).draw_pile == FateDeck(7).draw_pile
    assert FateDeck(7).draw_pile != FateDeck(8).draw_pile
    assert FateDeck(0, shuffle=False).peek(2) == (FateCard(6, 6), FateCard(6, 6))


def test_draw_reveals_top_and_discards():
    deck = FateDeck(3)
    top = deck.peek(3)
    got = [deck.draw() for _ in range(3)]
    assert tuple(got) == top
    assert deck.discard_pile == tuple(got)
    assert len(deck) == 69


def test_empty_draw_pile_reshuffles_the_discards():
    deck = FateDeck(4)
    drawn = [deck.draw() for _ in range(72)]
    assert len(deck) == 0 and len(deck.discard_pile) == 72 and deck.reshuffles == 0
    card = deck.draw()
    assert deck.reshuffles == 1
    assert len(deck) == 71 and deck.discard_pile == (card,)
    assert Counter(drawn) == Counter(deck.draw_pile + (card,))


def test_held_cards_and_discard():
    deck = FateDeck(5)
    card = deck.draw(discard=False)
    assert deck.held == (card,) and deck.discard_pile == ()
    deck.shuffle()
    assert len(deck) == 71                      # a held card is not shuffled back
    deck.discard(card)
    assert deck.held == () and deck.discard_pile == (card,)
    with pytest.raises(ValueError, match="not held"):
        deck.discard(card)


def test_drawing_with_every_card_held_is_an_error():
    deck = FateDeck(1, rules=None)
    for _ in range(72):
        deck.draw(discard=False)
    before = copy.deepcopy(deck)
    with pytest.raises(ValueError, match="no card left"):
        deck.draw()
    assert deck == before


def test_reshuffle_combines_draw_and_discard():
    deck = FateDeck(9)
    for _ in range(10):
        deck.draw()
    deck.reshuffle()
    assert len(deck) == 72 and deck.discard_pile == () and deck.reshuffles == 1


def test_stacked_deck_puts_cards_on_top():
    deck = FateDeck.stacked([(2, 5), (6, 6), (6, 6)], seed=1)
    assert deck.peek(3) == (FateCard(2, 5), FateCard(6, 6), FateCard(6, 6))
    assert len(deck) == 72 and set(Counter(deck.draw_pile).values()) == {2}
    with pytest.raises(ValueError, match="more than 2 times"):
        FateDeck.stacked([(1, 1)] * 3)
    with pytest.raises(ValueError, match="white"):
        FateDeck.stacked([(0, 1)])


def test_equality_includes_random_state():
    a = FateDeck(11)
    b = copy.deepcopy(a)
    assert a == b
    a.shuffle()
    b.shuffle()
    assert a == b
    b.rng.random()
    assert a != b


def test_deck_state_validation():
    with pytest.raises(ValueError, match="36 counts"):
        DeckState((1,) * 35)
    with pytest.raises(ValueError, match="out of range"):
        DeckState((-1,) + (1,) * 35)
    with pytest.raises(ValueError, match="both empty"):
        DeckState((0,) * 36)
    s = DeckState.from_cards([(1, 2), (1, 2)], discard=[(6, 1)])
    assert s.n_draw == 2 and s.n_discard == 1
    assert s.pile_ids() == ([1, 1], [30])
