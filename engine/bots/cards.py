"""Cards and moves as the protocol writes them (docs/notation.md): a card's rank and colour,
a move's kind and piles."""

from __future__ import annotations

from typing import Any

RANKS = "A23456789TJQK"
Piles = dict[str, dict[str, Any]]
SUITS = "cdhs"


#: A rank by a card's first character, either case: the planners ask millions of times a game.
_RANK = {c: i + 1 for i, r in enumerate(RANKS) for c in (r, r.lower())}


def rank(card: str) -> int:
    return _RANK[card[0]]


def red(card: str) -> bool:
    return card[1].lower() in "dh"


def parse(move: str) -> tuple[str, list[str], int]:
    """A move's kind, the piles it names (source first) and its count, from its text."""
    if move == "s":
        return "stock", ["s"], 1
    if "-" in move:
        left, _, dst = move.partition("-")
        src, _, count = left.partition(":")
        return "move", [src, dst], int(count) if count else 1
    if "+" in move:
        return "remove", [p for p in move.split("+") if p], 1
    kind, *args = move.split(":")
    names = [a for a in args if not a.isdigit()]
    counts = [int(a) for a in args if a.isdigit()]
    return kind, names, counts[0] if counts else 1
