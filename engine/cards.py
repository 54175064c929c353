"""Cards as small ints: ``suit * 13 + rank - 1``.

Suits are ordered clubs, diamonds, hearts, spades (the canonical deck order of
docs/fairness.md); ranks run 1 (Ace) to 13 (King). Lookup tables keep the hot path
free of arithmetic and allocation.
"""

from __future__ import annotations

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SUIT_LETTERS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_LETTERS = "A23456789TJQK"
RANK_NAMES = ("", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")

DECK: tuple[int, ...] = tuple(range(52))
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in DECK)
SUIT: tuple[int, ...] = tuple(c // 13 for c in DECK)
RED: tuple[bool, ...] = tuple(SUIT[c] in (DIAMONDS, HEARTS) for c in DECK)
TEXT: tuple[str, ...] = tuple(RANK_LETTERS[RANK[c] - 1] + SUIT_LETTERS[SUIT[c]] for c in DECK)
_BY_TEXT = {t: c for c, t in enumerate(TEXT)}


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def parse_card(text: str) -> int:
    """Read ``Ah``, ``Td``, ``10d`` or ``KS`` (case-insensitive)."""
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    key = t[:-1].upper() + t[-1:].lower()
    try:
        return _BY_TEXT[key]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def colour_name(c: int) -> str:
    return "red" if RED[c] else "black"


def show(c: int) -> str:
    """A card as a player reads it: ``7♥``, ``10♠``."""
    r = RANK[c]
    return ("10" if r == 10 else RANK_LETTERS[r - 1]) + SUIT_SYMBOLS[SUIT[c]]
