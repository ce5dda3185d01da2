"""Pure-Python reference of the hex artillery kernels (RULES.md section 8), written to be obviously right.

Same names and argument order as :mod:`atomic_africa.artillery` (``resolve_requests``,
``simulate_requests``, ``landing_distribution``) plus the geometry they rest on. Hexes are 0-based
``(col, row)`` pairs; ``parity`` 1 means columns B, D, F... sit half a hex lower ("odd-q").
The hex line is the textbook cube lerp with the ends nudged by (1e-9, 2e-9, -3e-9), computed in exact
rational arithmetic; no numpy and no kernel in the rules logic.
"""
from __future__ import annotations

from fractions import Fraction

from .._seeding import chunk_generators, seed_sequence
from ..rules import resolve_rules
from .core import Word32Stream, roll_faces

__all__ = [
    "offset_to_axial", "axial_to_offset", "hex_distance", "hex_step", "hex_line", "line_of_sight",
    "targeting_hit", "drift", "resolve_requests", "simulate_requests", "landing_distribution",
]

# Axial (dq, dr) of the six directions of flat-topped hexes, clockwise from north.
_STEPS = {"N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0)}
_NUDGE = (Fraction(1, 10**9), Fraction(2, 10**9), Fraction(-3, 10**9))


def offset_to_axial(col, row, parity):
    """Offset (col, row) -> axial (q, r); the lower columns are those with col % 2 == parity."""
    shift = (col - (col % 2)) // 2 if parity else (col + (col % 2)) // 2
    return col, row - shift


def axial_to_offset(q, r, parity):
    shift = (q - (q % 2)) // 2 if parity else (q + (q % 2)) // 2
    return q, r + shift


def hex_distance(a, b, parity):
    """Hex distance of offset hexes a and b."""
    q0, r0 = offset_to_axial(*a, parity)
    q1, r1 = offset_to_axial(*b, parity)
    x, z = q1 - q0, r1 - r0
    y = -x - z
    return max(abs(x), abs(y), abs(z))


def hex_step(h, direction, parity):
    """Offset hex one step from h towards a compass direction name (N, NE, SE, S, SW, NW)."""
    q, r = offset_to_axial(*h, parity)
    dq, dr = _STEPS[direction]
    return axial_to_offset(q + dq, r + dr, parity)


def _cube_round(x, y, z):
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, rz


def hex_line(a, b, parity):
    """Hexes from a to b inclusive: round(lerp(a + nudge, b + nudge, i / n)) for i = 0..n."""
    q0, r0 = offset_to_axial(*a, parity)
    q1, r1 = offset_to_axial(*b, parity)
    n = hex_distance(a, b, parity)
    start = (q0 + _NUDGE[0], -q0 - r0 + _NUDGE[1], r0 + _NUDGE[2])
    end = (q1 + _NUDGE[0], -q1 - r1 + _NUDGE[1], r1 + _NUDGE[2])
    out = []
    for i in range(n + 1):
        t = Fraction(i, n) if n else Fraction(0)
        x, y, z = (s + (e - s) * t for s, e in zip(start, end))
        q, r = _cube_round(x, y, z)
        out.append(axial_to_offset(q, r, parity))
    return out


def _on_map(hexmap, h):
    return 0 <= h[0] < hexmap.columns and 0 <= h[1] < hexmap.rows


def line_of_sight(hexmap, spotter, target, smoke=None, rules=None):
    """(visible, hindrance): blocked by blocking hexes strictly between; hindrance summed over them
    (and the target hex with ``hindrance_hexes = "between_and_target"``); off-map hexes count nothing."""
    rules = resolve_rules(rules)
    s, t = hexmap.hex(spotter, "spotter"), hexmap.hex(target, "target")
    smoke = {hexmap.hex(h): val for h, val in (smoke or {}).items()}

    def hindrance_of(h):
        return hexmap.hindrance.get(h, 0) + smoke.get(h, 0)

    line = [tuple(h) for h in hex_line(tuple(s), tuple(t), hexmap.parity)]
    total = 0
    for h in line[1:-1]:
        if not _on_map(hexmap, h):
            continue
        if h in hexmap.blocking:
            return False, 0
        total += hindrance_of(h)
    if rules.artillery.hindrance_hexes == "between_and_target" and len(line) > 1:
        total += hindrance_of(tuple(t))
    return True, total


def targeting_hit(white, coloured, threshold, rules=None):
    """The Targeting roll: product (or sum) of the card's dice against range + hindrance."""
    art = resolve_rules(rules).artillery
    score = white * coloured if art.targeting_score == "product" else white + coloured
    return score > threshold if art.targeting_hit == "greater" else score >= threshold


def drift(hexmap, start, hit, white, coloured, rules=None):
    """Landing hex (col, row) of the round from ``start``, or None once any step leaves the map.

    Hit: one hex towards the white die's direction, then one towards the coloured die's.
    Miss: ``coloured`` hexes towards the white die's direction."""
    compass = resolve_rules(rules).artillery.compass
    steps = [compass[white - 1], compass[coloured - 1]] if hit else [compass[white - 1]] * coloured
    h = tuple(start)
    for d in steps:
        h = hex_step(h, d, hexmap.parity)
        if not _on_map(hexmap, h):
            return None
    return h


def _threshold(hexmap, spotter, target, hindrance, smoke, rules):
    visible, hind = line_of_sight(hexmap, spotter, target, smoke, rules)
    if not visible:
        raise ValueError(f"target: {target} is not in the line of sight of spotter {spotter}")
    s, t = hexmap.hex(spotter), hexmap.hex(target)
    return hex_distance(tuple(s), tuple(t), hexmap.parity) + hind + hindrance


def _landing(hexmap, target, threshold, w1, c1, w2, c2, rules):
    hit = targeting_hit(w1, c1, threshold, rules)
    h = drift(hexmap, tuple(target), hit, w2, c2, rules)
    return (-1 if h is None else h[1] * hexmap.columns + h[0]), hit


def resolve_requests(hexmap, spotter, target, cards, *, hindrance=0, smoke=None, rules=None):
    """Per card row (w1, c1, w2, c2): lists of landing flat indices (-1 off map) and hits."""
    rules = resolve_rules(rules)
    threshold = _threshold(hexmap, spotter, target, hindrance, smoke, rules)
    t = hexmap.hex(target)
    landing, hits = [], []
    for w1, c1, w2, c2 in cards:
        k, hit = _landing(hexmap, t, threshold, int(w1), int(c1), int(w2), int(c2), rules)
        landing.append(k)
        hits.append(hit)
    return landing, hits


def _deck_piles(deck, rules):
    """None (independent 2d6) or the draw and discard piles as card-id lists, ids increasing.

    A card's id is ``6 * (white - 1) + coloured - 1``. ``deck`` is "independent", "fresh" (every pair
    ``artillery.fate_card_copies`` times, nothing discarded), a FateDeck (its ``state()``) or a
    DeckState (36 ``draw`` and ``discard`` counts), read by their attributes: the reference imports
    no product code.
    """
    if isinstance(deck, str):
        if deck == "independent":
            return None
        if deck == "fresh":
            return _expand([rules.artillery.fate_card_copies] * 36), []
        raise ValueError(f"deck: {deck!r} is not a deck mode; allowed: 'independent', 'fresh', "
                         f"a FateDeck or a DeckState")
    state = deck.state() if callable(getattr(deck, "state", None)) else deck
    return _expand(state.draw), _expand(state.discard)


def _expand(counts):
    return [k for k, n in enumerate(counts) for _ in range(n)]


def _uniform_below(stream, n):
    return 0 if n <= 1 else roll_faces(stream, [n])[0] - 1


def _draw_two(stream, pile, discard):
    """Two cards without replacement; the discard pile becomes the draw pile when it runs out."""
    draw, used = list(pile), list(discard)
    cards = []
    for _ in range(2):
        if not draw:
            draw, used = used, []
        i = _uniform_below(stream, len(draw))
        card = draw.pop(i)
        used.append(card)
        cards.append(card)
    return cards


def simulate_requests(n, hexmap, spotter, target, *, hindrance=0, smoke=None, deck="independent",
                      seed=None, threads=1, rules=None, chunk=1 << 16):
    """Request by request from the kernel's streams: (landing list, hit list)."""
    rules = resolve_rules(rules)
    threshold = _threshold(hexmap, spotter, target, hindrance, smoke, rules)
    t = hexmap.hex(target)
    piles = _deck_piles(deck, rules)
    ss = seed_sequence(seed)
    streams = [Word32Stream(bg) for bg in chunk_generators(ss, -(-n // chunk))]
    landing, hits = [], []
    for i in range(n):
        stream = streams[i // chunk]
        if piles is None:
            w1, c1, w2, c2 = roll_faces(stream, [6, 6, 6, 6])
        else:
            a, b = _draw_two(stream, *piles)
            w1, c1, w2, c2 = a // 6 + 1, a % 6 + 1, b // 6 + 1, b % 6 + 1
        k, hit = _landing(hexmap, t, threshold, w1, c1, w2, c2, rules)
        landing.append(k)
        hits.append(hit)
    return landing, hits


def landing_distribution(hexmap, spotter, target, *, hindrance=0, deck="independent", smoke=None,
                         rules=None):
    """Exact ({(col, row): Fraction}, off-map Fraction, hit Fraction) by enumerating the two cards.

    Deck mode enumerates ordered pairs of positions in the draw pile (every order equally likely),
    with the reshuffle of the discard pile when the draw pile runs out.
    """
    rules = resolve_rules(rules)
    threshold = _threshold(hexmap, spotter, target, hindrance, smoke, rules)
    t = hexmap.hex(target)
    piles = _deck_piles(deck, rules)
    if piles is None:
        outcomes = [((a, b), Fraction(1, 1296)) for a in range(36) for b in range(36)]
    else:
        outcomes = _two_card_outcomes(*piles)
    dist, off, p_hit = {}, Fraction(0), Fraction(0)
    for (a, b), p in outcomes:
        k, hit = _landing(hexmap, t, threshold, a // 6 + 1, a % 6 + 1, b // 6 + 1, b % 6 + 1, rules)
        if hit:
            p_hit += p
        if k < 0:
            off += p
        else:
            h = (k % hexmap.columns, k // hexmap.columns)
            dist[h] = dist.get(h, Fraction(0)) + p
    return dist, off, p_hit


def _two_card_outcomes(pile, discard):
    """[((card1, card2), probability)] over positions: each remaining card equally likely next."""
    out = []
    first = pile if pile else discard
    for i, c1 in enumerate(first):
        p1 = Fraction(1, len(first))
        rest = first[:i] + first[i + 1:]
        used = (discard + [c1]) if pile else [c1]
        second = rest if rest else used
        for c2 in second:
            out.append(((c1, c2), p1 * Fraction(1, len(second))))
    return out
