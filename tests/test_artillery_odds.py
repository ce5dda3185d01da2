"""Exact landing odds and the batch kernel: exact vs reference, vs brute force, vs simulation."""
import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import atomic_africa as aa
from atomic_africa import reference as ref
from atomic_africa._seeding import chunk_generators, seed_sequence
from atomic_africa.artillery import (
    DeckState, FateDeck, Hex, HexMap, landing_counts, landing_distribution, parse_hex, resolve_requests,
    simulate_requests, two_card_odds,
)
from atomic_africa.artillery.odds import all_card_pairs

from aa_core import hexmap as _hx


def _ref_exact(hm, spotter, target, **kw):
    dist, off, hit = ref.landing_distribution(hm, spotter, target, **kw)
    return {Hex(*k): v for k, v in dist.items()}, off, hit


def _same(odds, refd):
    exact, off, hit = refd
    assert odds.exact == exact and odds.off_map == off and odds.hit == hit
    assert sum(odds.exact.values()) + odds.off_map == 1


# -- hand-checked values ----------------------------------------------------------------------------
def test_open_ground_centre_hand_values():
    hm = HexMap(15, 15)
    odds = landing_distribution(hm, "H12", "H8")            # range 4: hit iff w x c > 4
    hits = sum(1 for w, c in itertools.product(range(1, 7), repeat=2) if w * c > 4)
    assert odds.hit == Fraction(hits, 36)
    assert odds.off_map == 0                                 # 7 hexes from every edge
    # A hit comes back iff the two directions are opposite (6 of 36 drift cards).
    assert odds.probability("H8") == odds.hit / 6
    # Each neighbour: hit with one die pointing there and the other one "not away": 2 x 1 = 2 ... or
    # reached from a neighbour of both: by symmetry all six are equal, plus a 1-hex miss (1/36).
    n = [odds.probability(h) for h in hm.neighbours("H8")]
    assert len(set(n)) == 1
    assert n[0] == odds.hit * Fraction(2, 36) + (1 - odds.hit) * Fraction(1, 36)
    # Six hexes straight out at distance k (2..6) are reached only by a miss of k.
    assert odds.probability("H2") == (1 - odds.hit) / 36


def test_cli_example_values():
    odds = landing_distribution(HexMap(15, 10), "G4", "J7")
    assert (odds.range, odds.threshold, odds.hit) == (5, 5, Fraction(13, 18))
    assert odds.probability("J7") == Fraction(13, 108)
    # Off the map only after a miss (a hit moves 2 hexes, J7 is 3 from the edges): S by 4, 5 or 6
    # (J11-J13), NE by 6 or SE by 6 (column P): 5 of the 36 drift cards.
    assert odds.off_map == (1 - odds.hit) * Fraction(5, 36) == Fraction(25, 648)
    assert odds.most_likely() == (parse_hex("J7"), Fraction(13, 108))
    assert np.isclose(odds.probabilities.sum() + float(odds.off_map), 1.0)


# -- exact vs the pure-Python reference --------------------------------------------------------------
CASES = [
    (HexMap(15, 10), "G4", "J7", 0),
    (HexMap(6, 5, hindering=["C3"]), "A5", "E1", 1),
    (HexMap(4, 3), "A1", "D3", 0),
    (HexMap(1, 1), "A1", "A1", 0),
    (HexMap(9, 9, blocking=["E4"], hindering={"D6": 2}), "B8", "H2", 2),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("deck", ["independent", "fresh"])
def test_exact_equals_reference(case, deck):
    hm, s, t, h = CASES[case]
    _same(landing_distribution(hm, s, t, hindrance=h, deck=deck),
          _ref_exact(hm, s, t, hindrance=h, deck=deck))


@pytest.mark.parametrize("changes", [
    {"targeting_score": "sum"}, {"targeting_hit": "greater_or_equal"},
    {"compass": ["N", "NW", "SW", "S", "SE", "NE"]}, {"low_columns": "A"},
    {"hindrance_hexes": "between_and_target"},
])
def test_exact_equals_reference_under_rule_variants(changes):
    rules = aa.Rules.default().replace(artillery=changes)
    hm = HexMap(8, 7, hindering=["E4", "D6"], rules=rules)
    for s, t in (("B7", "E4"), ("A1", "H7")):
        _same(landing_distribution(hm, s, t, deck="fresh", rules=rules),
              _ref_exact(hm, s, t, deck="fresh", rules=rules))


def test_rule_variants_change_the_odds():
    hm = HexMap(15, 10)
    base = landing_distribution(hm, "G4", "J7")
    r = aa.Rules.default()
    assert landing_distribution(hm, "G4", "J7", rules=r.replace(artillery={"targeting_score": "sum"})).hit \
        == Fraction(sum(1 for w, c in itertools.product(range(1, 7), repeat=2) if w + c > 5), 36)
    ge = landing_distribution(hm, "G4", "J7", rules=r.replace(artillery={"targeting_hit": "greater_or_equal"}))
    assert ge.hit == base.hit + Fraction(2, 36)             # 1x5 and 5x1 now hit


DECK_STATES = [
    DeckState.from_cards([(1, 1), (6, 6), (3, 4)], discard=[(2, 5)]),
    DeckState.from_cards([(3, 4), (3, 4), (1, 2), (6, 1)]),
    DeckState.from_cards([(5, 5)], discard=[(1, 1), (2, 6)]),     # one card left, then reshuffle
    DeckState.from_cards([], discard=[(1, 4), (2, 2), (6, 6)]),    # empty draw pile: reshuffle first
    DeckState.from_cards([], discard=[(4, 4)]),                    # the same card twice
]


def _brute_two_cards(state):
    """Enumerate every order of the draw pile (and of the reshuffled discards) explicitly."""
    pile, discard = state.pile_ids()
    out = Counter()
    if len(pile) >= 2:
        perms = list(itertools.permutations(pile))
        for p in perms:
            out[(p[0], p[1])] += Fraction(1, len(perms))
    elif len(pile) == 1:
        new = discard + pile
        perms = list(itertools.permutations(new))
        for p in perms:
            out[(pile[0], p[0])] += Fraction(1, len(perms))
    else:
        perms = list(itertools.permutations(discard))
        for p in perms:
            out[(p[0], p[1] if len(p) > 1 else p[0])] += Fraction(1, len(perms))
    return dict(out)


@pytest.mark.parametrize("i", range(len(DECK_STATES)))
def test_two_cards_without_replacement_by_brute_force(i):
    state = DECK_STATES[i]
    assert two_card_odds(state) == _brute_two_cards(state)
    hm = HexMap(6, 6)
    _same(landing_distribution(hm, "A6", "C3", deck=state), _ref_exact(hm, "A6", "C3", deck=state))


def test_fresh_deck_differs_from_independent_dice_only_by_replacement():
    odds = two_card_odds(DeckState.fresh())
    assert odds[(0, 0)] == Fraction(2, 72) * Fraction(1, 71)
    assert odds[(0, 1)] == Fraction(2, 72) * Fraction(2, 71)
    assert sum(odds.values()) == 1
    deck = FateDeck(3)
    assert landing_distribution(HexMap(15, 10), "G4", "J7", deck=deck).exact == \
        landing_distribution(HexMap(15, 10), "G4", "J7", deck="fresh").exact


# -- the deterministic kernel vs the reference --------------------------------------------------------
@pytest.mark.parametrize("low", ["B", "A"])
def test_resolve_kernel_equals_reference_exhaustively(low):
    rules = aa.Rules.default().replace(artillery={"low_columns": low})
    hm = HexMap(7, 6, rules=rules)
    cards = all_card_pairs()
    rows = cards.tolist()
    for t in hm.hexes():
        for extra in (0, 3):
            landing, hit = resolve_requests(hm, "D1", t, cards, hindrance=extra, rules=rules)
            rl, rh = ref.resolve_requests(hm, "D1", t, rows, hindrance=extra, rules=rules)
            assert landing.tolist() == rl and hit.tolist() == rh


def test_resolve_requests_shapes_and_validation():
    hm = HexMap(5, 5)
    cards = np.array([[[2, 3, 1, 4], [1, 1, 4, 6]]])
    landing, hit = resolve_requests(hm, "A1", "C3", cards)
    assert landing.shape == hit.shape == (1, 2) and hit.dtype == bool
    assert landing[0, 0] == hm.index("C3") and landing[0, 1] == -1
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 4\)"):
        resolve_requests(hm, "A1", "C3", [[1, 2, 3]])
    with pytest.raises(ValueError, match="out of range"):
        resolve_requests(hm, "A1", "C3", [[1, 2, 3, 7]])
    with pytest.raises(ValueError, match="value 0 is out of range; allowed 1..6"):   # checked in the kernel
        resolve_requests(hm, "A1", "C3", np.array([[1, 2, 3, 4], [6, 6, 0, 1]], dtype=np.int32))
    with pytest.raises(ValueError, match="out of range"):                 # would wrap to 3 as int32
        resolve_requests(hm, "A1", "C3", np.array([[1, 2, 3, 2**32 + 3]], dtype=np.int64))
    with pytest.raises(TypeError, match="boolean"):
        resolve_requests(hm, "A1", "C3", np.ones((2, 4), dtype=bool))
    with pytest.raises(TypeError, match="integer array"):
        resolve_requests(hm, "A1", "C3", [[1.0, 2, 3, 4]])
    with pytest.raises(ValueError, match="hindrance"):
        resolve_requests(hm, "A1", "C3", [[1, 2, 3, 4]], hindrance=-1)
    with pytest.raises(TypeError, match="HexMap"):
        resolve_requests("5x5", "A1", "C3", [[1, 2, 3, 4]])
    with pytest.raises(ValueError, match="line of sight"):
        resolve_requests(HexMap(5, 5, blocking=["B2"]), "A1", "C3", [[1, 2, 3, 4]])


# -- simulation: exact streams and goodness of fit ---------------------------------------------------
def _kernel_sim(n, chunk, hm, target, threshold, state, seed, threads=1):
    rules = aa.Rules.default()
    t = parse_hex(target)
    if state is None:
        pile = discard = np.empty(0, np.int32)
    else:
        p, d = state.pile_ids()
        pile, discard = np.array(p, np.int32), np.array(d, np.int32)
    landing = np.empty(n, np.int32)
    hit = np.empty(n, np.uint8)
    _hx.simulate_requests(chunk_generators(seed_sequence(seed), -(-n // chunk)), chunk, t.col, t.row,
                          threshold, hm.grid_params, rules.artillery.drift_params, state is None, pile,
                          discard, threads, landing, hit)
    return landing.tolist(), hit.astype(bool).tolist()


@pytest.mark.parametrize("deck", ["independent", "fresh"] + list(range(len(DECK_STATES))))
def test_kernel_simulation_equals_reference_draw_for_draw(deck):
    hm = HexMap(8, 8)
    state = DECK_STATES[deck] if isinstance(deck, int) else deck
    kernel_state = None if deck == "independent" else (DeckState.fresh() if deck == "fresh" else state)
    got = _kernel_sim(1500, 400, hm, "D4", 4, kernel_state, seed=11, threads=2)
    want = ref.simulate_requests(1500, hm, "D8", "D4", deck=state, seed=11, chunk=400)
    assert got == tuple(want)


def test_reference_and_kernel_read_a_fate_deck_as_its_state():
    hm = HexMap(8, 8)
    deck = FateDeck(5)
    for _ in range(7):
        deck.draw()
    got = simulate_requests(800, hm, "D8", "D4", deck=deck, seed=3)
    want = ref.simulate_requests(800, hm, "D8", "D4", deck=deck, seed=3)
    assert (got.landing.tolist(), got.hit.tolist()) == want
    assert want == ref.simulate_requests(800, hm, "D8", "D4", deck=deck.state(), seed=3)
    assert want != ref.simulate_requests(800, hm, "D8", "D4", deck="fresh", seed=3)
    with pytest.raises(ValueError, match="deck: 'stacked' is not a deck mode; allowed: 'independent', 'fresh'"):
        ref.simulate_requests(1, hm, "D8", "D4", deck="stacked")


def test_public_simulation_equals_reference_and_ignores_threads():
    hm = HexMap(12, 9, hindering=["E5"])
    a = simulate_requests(3000, hm, "C8", "F3", deck="fresh", seed=4, threads=1)
    b = simulate_requests(3000, hm, "C8", "F3", deck="fresh", seed=4, threads=2)
    assert np.array_equal(a.landing, b.landing) and np.array_equal(a.hit, b.hit)
    rl, rh = ref.simulate_requests(3000, hm, "C8", "F3", deck="fresh", seed=4)
    assert a.landing.tolist() == rl and a.hit.tolist() == rh
    small = simulate_requests(100, hm, "C8", "F3", deck="fresh", seed=4)
    assert np.array_equal(small.landing, a.landing[:100])


def _gof(sample_landing, odds, hm):
    counts, off = landing_counts(sample_landing, hm)
    n = len(sample_landing)
    keys = [k for k in range(hm.size) if odds.probabilities.reshape(-1)[k] > 0]
    impossible = [k for k in range(hm.size) if counts.reshape(-1)[k] and k not in set(keys)]
    assert not impossible
    obs = [counts.reshape(-1)[k] for k in keys] + [off]
    exp = [float(odds.probabilities.reshape(-1)[k]) * n for k in keys] + [float(odds.off_map) * n]
    obs, exp = np.array(obs, float), np.array(exp, float)
    keep = exp > 0
    if off == 0 and odds.off_map == 0:
        keep[-1] = False
    assert exp[keep].min() >= 5, "cells too small for chi-square"
    return stats.chisquare(obs[keep], exp[keep] * obs[keep].sum() / exp[keep].sum()).pvalue


@pytest.mark.parametrize("deck", ["independent", "fresh", "state"])
def test_batch_simulation_fits_the_exact_distribution(deck):
    hm = HexMap(15, 10, hindering=["H5"])
    if deck == "state":
        d = FateDeck(6)
        for _ in range(66):
            d.draw()                                   # 6 cards left: strong without-replacement effects
        deck = d
    odds = landing_distribution(hm, "G4", "J7", deck=deck)
    sample = simulate_requests(400_000, hm, "G4", "J7", deck=deck, seed=2024)
    # Fixed seed, 1e-4 level: a kernel bias of ~1% in any cell fails with overwhelming probability.
    assert _gof(sample.landing, odds, hm) > 1e-4
    hits = int(sample.hit.sum())
    assert stats.binomtest(hits, len(sample.hit), float(odds.hit)).pvalue > 1e-4


def test_simulation_bad_input():
    hm = HexMap(5, 5)
    with pytest.raises(ValueError, match="n: -1 is out of range"):
        simulate_requests(-1, hm, "A1", "C3")
    with pytest.raises(ValueError, match="threads"):
        simulate_requests(10, hm, "A1", "C3", threads=0)
    with pytest.raises(ValueError, match="deck: 'used' is not a deck mode"):
        simulate_requests(10, hm, "A1", "C3", deck="used")
    with pytest.raises(TypeError, match="deck"):
        simulate_requests(10, hm, "A1", "C3", deck=3)
    with pytest.raises(ValueError, match="target"):
        simulate_requests(10, hm, "A1", "F3")
    with pytest.raises(TypeError, match="seed"):
        simulate_requests(10, hm, "A1", "C3", seed=1.5)
    assert simulate_requests(0, hm, "A1", "C3").landing.shape == (0,)
    with pytest.raises(ValueError, match="deck: 'used' is not a deck mode"):
        landing_distribution(hm, "A1", "C3", deck="used")
    with pytest.raises(ValueError, match="spotter"):
        landing_distribution(hm, "A9", "C3")
    with pytest.raises(ValueError, match="blocked by B2"):
        landing_distribution(HexMap(5, 5, blocking=["B2"]), "A1", "C3")
    with pytest.raises(ValueError, match="landing"):
        landing_counts([25], hm)
