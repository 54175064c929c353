"""Cribbage Square: place each flipped card in a 4 x 4 grid; the eight rows and columns score
as cribbage hands with the starter, the card turned up once the grid is full."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..cards import RANK, SUIT, TEXT
from ..core import State
from ..mechanics.called_squares import Squares
from ..options import Deals, Direction, Fan, Scoring, Unit
from ..piles import GRID, STOCK_PILE, WASTE, Build, Group, Stock
from ..registry import register

SIZE = 4
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)
) + tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
LINE_NAMES = tuple(f"row {i + 1}" for i in range(SIZE)) + tuple(
    f"column {i + 1}" for i in range(SIZE))
PARTS = ("fifteens", "pairs", "runs", "flush", "nobs")
VALUE: tuple[int, ...] = tuple(min(r, 10) for r in RANK)
JACK = 11
WASTE_SIZE = 4
HEELS = 2  # a Jack starter ("his heels"): once for the whole square


@lru_cache(maxsize=1 << 16)
def hand_parts(hand: tuple[int, ...], starter: int = -1) -> tuple[int, int, int, int, int]:
    """(fifteens, pairs, runs, flush, nobs) points of up to four hand cards with the starter.

    ``starter`` -1 scores a hand before the starter is known (a part-filled grid): flush then
    needs the four hand cards, and there are no nobs.
    """
    cards = (*hand, starter) if starter >= 0 else hand
    ways = [1] + [0] * 15  # ways[s]: subsets of the cards seen so far that sum to s
    for c in cards:
        v = VALUE[c]
        for s in range(15, v - 1, -1):
            ways[s] += ways[s - v]
    fifteens = 2 * ways[15]
    counts = [0] * 15
    for c in cards:
        counts[RANK[c]] += 1
    pairs = sum(k * (k - 1) for k in counts)  # 2 per pair: 2, 6 (pair royal), 12 (double)
    runs = 0
    r = 1
    while r <= 13:
        if not counts[r]:
            r += 1
            continue
        length, mult = 0, 1
        while counts[r]:
            length += 1
            mult *= counts[r]
            r += 1
        if length >= 3:
            runs += length * mult  # double and triple runs count once per combination
    flush = 0
    if len(hand) == SIZE and len({SUIT[c] for c in hand}) == 1:
        flush = 5 if starter >= 0 and SUIT[starter] == SUIT[hand[0]] else 4
    nobs = int(starter >= 0 and any(
        RANK[c] == JACK and SUIT[c] == SUIT[starter] for c in hand))
    return fifteens, pairs, runs, flush, nobs


def hand_score(hand: tuple[int, ...], starter: int = -1) -> int:
    return sum(hand_parts(hand, starter))


@register
class CribbageSquare(Squares):
    id = "cribbage-square"
    name = "Cribbage Square"
    scoring = Scoring.POINTS
    target = 75
    summary = ("Place each flipped card in an empty space of a 4 x 4 grid (easy: or on the "
               "waste, at most four). When the grid is full the next card is the starter; each "
               "row and column scores as a cribbage hand with it. 75 wins.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        groups = [Group(GRID, SIZE * SIZE, capacity=1, fan=Fan.GRID, columns=SIZE)]
        if self.easy:
            groups.append(Group(WASTE, capacity=WASTE_SIZE, build=Build(Direction.ANY),
                                fan=Fan.RIGHT))
        to = (GRID, WASTE) if self.easy else (GRID,)
        groups.append(Group(STOCK_PILE, unit=Unit.TOP, to=to, turn_up=True))
        return tuple(groups)

    def starter(self, st: State) -> int:
        """The starter: the stock's top card, turned up once the grid is full; else -1.

        At most 16 + 4 cards leave the stock, so it is never empty at that point.
        """
        if not self.finished(st):
            return -1
        return st.piles[self.stock_pile][-1]

    def lines(self, st: State, starter: int | None = None) -> list[tuple[str, tuple[int, ...]]]:
        """Each line's name and points per part, the starter's "his heels" last; with the
        game's own starter unless one is given."""
        grid = self.by_kind[GRID]
        if starter is None:
            starter = self.starter(st)
        out: list[tuple[str, tuple[int, ...]]] = []
        for name, cells in zip(LINE_NAMES, LINES, strict=True):
            hand = tuple(st.piles[grid[i]][0] for i in cells if st.piles[grid[i]])
            out.append((name, hand_parts(hand, starter)))
        out.append(("starter", (HEELS if starter >= 0 and RANK[starter] == JACK else 0,)))
        return out

    def score(self, st: State) -> int:
        return sum(sum(parts) for _, parts in self.lines(st))

    def info(self, st: State) -> dict[str, Any]:
        return self.scored(st, self.starter(st))[1]

    def scored(self, st: State, starter: int = -1) -> tuple[int, dict[str, Any]]:
        lines: list[dict[str, Any]] = []
        for name, parts in self.lines(st, starter):
            named = dict(zip(PARTS, parts, strict=False)) if name != "starter" else {
                "his heels": parts[0]}
            lines.append({"line": name, "points": sum(parts), "parts": named})
        info = {"starter": TEXT[starter] if starter >= 0 else None, "lines": lines}
        return sum(line["points"] for line in lines), info
