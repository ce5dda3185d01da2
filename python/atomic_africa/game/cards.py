"""Order cards: one 54-card deck per player (52 + 2 Jokers by default, rules data ``orders``).

A card is an int id: ``suit * ranks + (rank - 1)`` for the suited cards (``ranks = deck_cards // 4``,
rank 1 = Ace), then the Jokers. Suits: 0 Hearts, 1 Diamonds (offensive), 2 Clubs, 3 Spades (defensive).
"""
from __future__ import annotations

from ..enums import Posture

__all__ = ["Deck", "SUITS", "SUIT_NAMES", "RANK_NAMES"]

SUITS = ("hearts", "diamonds", "clubs", "spades")
SUIT_NAMES = ("H", "D", "C", "S")
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_OFFENSIVE_SUITS = (0, 1)


class Deck:
    """Card arithmetic for a rules set (no state: decks live in the game state as lists of ids).

    Parameters
    ----------
    rules : Rules
        ``rules.orders`` gives the deck size, Jokers and Basic values (required: no default).

    The methods take a valid card id ``0 <= card < size`` and do not check it.
    """

    def __init__(self, rules):
        o = rules.orders
        self.ranks = o.deck_cards // 4
        self.suited = o.deck_cards
        self.size = o.deck_cards + o.jokers
        self.basic_max_rank = o.basic_max_rank
        self.joker_basic_value = o.joker_basic_value

    def is_joker(self, card: int) -> bool:
        """Whether card id ``card`` is a Joker."""
        return card >= self.suited

    def suit(self, card: int) -> int:
        """Suit index 0..3, or -1 for a Joker."""
        return -1 if card >= self.suited else card // self.ranks

    def rank(self, card: int) -> int:
        """Printed rank 1 (Ace) .. ranks (King), 0 for a Joker."""
        return 0 if card >= self.suited else card % self.ranks + 1

    def posture(self, card: int):
        """Posture of a suited card; ``None`` for a Joker (its player chooses)."""
        if card >= self.suited:
            return None
        return Posture.OFFENSIVE if self.suit(card) in _OFFENSIVE_SUITS else Posture.DEFENSIVE

    def is_face(self, card: int) -> bool:
        """Whether ``card`` is a suited card ranked above ``basic_max_rank`` (a Joker is not)."""
        return card < self.suited and self.rank(card) > self.basic_max_rank

    def is_basic(self, card: int) -> bool:
        """Whether ``card`` is a suited card ranked at most ``basic_max_rank`` (a Joker is not)."""
        return card < self.suited and self.rank(card) <= self.basic_max_rank

    def move_value(self, card: int) -> int:
        """Printed value used for Basic movement (Ace = 1); a Joker moves as the rules' value."""
        return self.joker_basic_value if card >= self.suited else min(self.rank(card), self.basic_max_rank)

    def legal_for(self, card: int, suppressed: bool) -> bool:
        """Whether ``card`` may be given to a unit (RULES.md section 2).

        Parameters
        ----------
        card : int
            Card id.
        suppressed : bool
            The unit is suppressed: it takes only defensive cards (Clubs, Spades) or a Joker.

        Returns
        -------
        bool
        """
        return (not suppressed) or card >= self.suited or self.posture(card) == Posture.DEFENSIVE

    def name(self, card: int) -> str:
        """Short name of ``card``, e.g. ``'10H'``, ``'QS'``, ``'Joker1'`` (inverse of :meth:`id_of`)."""
        if card >= self.suited:
            return f"Joker{card - self.suited + 1}"
        r = self.rank(card)
        return f"{RANK_NAMES.get(r, str(r))}{SUIT_NAMES[self.suit(card)]}"

    def id_of(self, name: str) -> int:
        """Card id from a name like ``'10H'``, ``'QS'``, ``'AC'`` or ``'Joker1'`` (for tests).

        Parameters
        ----------
        name : str
            Rank (A, 2..10, J, Q, K) then suit letter (H, D, C, S), or ``JokerN`` (``Joker`` alone
            is Joker1); case-insensitive.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            If the suit, rank or Joker number is not in this deck.
        """
        name = name.strip()
        jokers = self.size - self.suited
        if name.lower().startswith("joker"):
            digits = name[5:]
            k = int(digits or 1) - 1 if (digits.isascii() and digits.isdigit()) or not digits else -1
            if not 0 <= k < jokers:
                allowed = f"Joker1..Joker{jokers} (Joker alone is Joker1)" if jokers else "none: it has no Joker"
                raise ValueError(f"card: {name!r} is not a Joker of this deck; allowed {allowed}")
            return self.suited + k
        rank_s, suit_s = name[:-1].upper(), name[-1:].upper()
        inv = {v: k for k, v in RANK_NAMES.items()}
        if suit_s not in SUIT_NAMES:
            raise ValueError(f"card: unknown suit in {name!r}; allowed {', '.join(SUIT_NAMES)} after a rank "
                             f"({self._ranks_text()})")
        rank = inv.get(rank_s) or (int(rank_s) if rank_s.isascii() and rank_s.isdigit() else 0)
        if not 1 <= rank <= self.ranks:
            raise ValueError(f"card: unknown rank {rank_s!r} in {name!r}; allowed {self._ranks_text()} then a suit "
                             f"{', '.join(SUIT_NAMES)}" + (f", or Joker1..Joker{jokers}" if jokers else ""))
        return SUIT_NAMES.index(suit_s) * self.ranks + rank - 1

    def _ranks_text(self) -> str:
        """The rank names of this deck, a run of numbers as a range: ``'A, 2..10, J, Q, K'``."""
        names = [RANK_NAMES.get(r, str(r)) for r in range(1, self.ranks + 1)]
        out, run = [], []
        for n in names + [""]:
            if n.isascii() and n.isdigit():
                run.append(n)
                continue
            if run:
                out.append(run[0] if len(run) == 1 else f"{run[0]}..{run[-1]}")
                run = []
            if n:
                out.append(n)
        return ", ".join(out)
