"""Poker Square: place each flipped card in a 5 x 5 grid; rows and columns score as poker hands."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import RANK, SUIT
from ..core import State
from ..mechanics.called_squares import Squares
from ..options import Deals, Direction, Fan, Scoring, Unit
from ..piles import GRID, STOCK_PILE, WASTE, Build, Group, Stock
from ..registry import register

SIZE = 5
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)
) + tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
LINE_NAMES = tuple(f"row {i + 1}" for i in range(SIZE)) + tuple(
    f"column {i + 1}" for i in range(SIZE))

HANDS = {
    "royal flush": 100, "straight flush": 60, "four of a kind": 30, "straight": 25,
    "full house": 20, "three of a kind": 15, "flush": 10, "two pair": 5, "one pair": 2,
}


def hand(cards: list[int]) -> str | None:
    """The best hand of the table in these cards (a line of up to five); ``None`` if none.

    Straights and flushes need all five cards; pairs and sets count in a part-filled line.
    """
    counts = sorted(Counter(RANK[c] for c in cards).values(), reverse=True)
    flush = straight = False
    if len(cards) == SIZE:
        flush = len({SUIT[c] for c in cards}) == 1
        ranks = sorted(RANK[c] for c in cards)
        if counts[0] == 1:
            straight = ranks[4] - ranks[0] == 4 or ranks == [1, 10, 11, 12, 13]
            if flush and straight and ranks == [1, 10, 11, 12, 13]:
                return "royal flush"
    if flush and straight:
        return "straight flush"
    if counts[:1] == [4]:
        return "four of a kind"
    if straight:
        return "straight"
    if counts[:2] == [3, 2]:
        return "full house"
    if counts[:1] == [3]:
        return "three of a kind"
    if flush:
        return "flush"
    if counts[:2] == [2, 2]:
        return "two pair"
    if counts[:1] == [2]:
        return "one pair"
    return None


@register
class PokerSquare(Squares):
    id = "poker-square"
    name = "Poker Square"
    scoring = Scoring.POINTS
    target = 100
    summary = ("Place each flipped card in an empty space of a 5 x 5 grid (easy: or on the "
               "waste, at most five). Each row and column scores as a poker hand; 100 wins.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        groups = [Group(GRID, SIZE * SIZE, capacity=1, fan=Fan.GRID, columns=SIZE)]
        if self.easy:
            groups.append(Group(WASTE, capacity=5, build=Build(Direction.ANY), fan=Fan.RIGHT))
        groups.append(Group(STOCK_PILE, unit=Unit.TOP, to=(GRID, WASTE), turn_up=True))
        return tuple(groups)

    def lines(self, st: State) -> list[tuple[str, str | None, int]]:
        grid = self.by_kind[GRID]
        out = []
        for name, cells in zip(LINE_NAMES, LINES, strict=True):
            h = hand([st.piles[grid[i]][0] for i in cells if st.piles[grid[i]]])
            out.append((name, h, HANDS[h] if h else 0))
        return out

    def score(self, st: State) -> int:
        return sum(points for _, _, points in self.lines(st))

    def after_move(self, st: State) -> None:
        if not self.finished(st):  # the next card is not shown once the grid is full
            self.turn_tops(st)

    def info(self, st: State) -> dict[str, Any]:
        return {"lines": [{"line": n, "hand": h, "points": p} for n, h, p in self.lines(st)]}
