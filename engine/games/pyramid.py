"""Pyramid: remove exposed pairs totalling 13 (a King alone) from a 28-card pyramid."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import RANK, show
from ..core import REMOVE, Move, Refusal, State
from ..mechanics.matching import Matching, pairs_by_rank
from ..options import Align, Deals, Fan, Fill, Goal
from ..piles import FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, WASTE, Group, PairRule, Stock
from ..registry import register

ROWS = 7
# COVER[k]: the two pyramid positions lying over position k (row r, place i) in the row below;
# the bottom row has none. Positions are numbered row by row from the apex, left to right.
COVER: list[tuple[int, ...]] = []
for _r in range(ROWS):
    for _i in range(_r + 1):
        _k = _r * (_r + 1) // 2 + _i
        COVER.append(() if _r == ROWS - 1 else (_k + _r + 1, _k + _r + 2))
#: The positions as drawn: row r holds r + 1 cards, numbered from 1.
TRIANGLE = tuple(tuple(range(r * (r + 1) // 2 + 1, r * (r + 1) // 2 + r + 2)) for r in range(ROWS))


@register
class Pyramid(Matching):
    id = "pyramid"
    name = "Pyramid"
    summary = ("Remove fully exposed pairs totalling 13 (Kings alone) from the 28-card "
               "pyramid, the reserve (easy) and the two waste piles; the stock is flipped "
               "once, one card at a time. Difficult has no reserve.")
    sizes = (1, 2)
    remove_kinds = (TABLEAU, RESERVE, WASTE)
    remove_where = "the pyramid, the reserve and the waste piles"
    count_rule = "remove a King alone or two cards that total 13"
    stock = Stock(Deals.WASTE, draw=1, passes=1)
    goal = Goal.CLEAR
    pair_rule = PairRule(total=13, kinds=remove_kinds, shift=True)

    def declare(self) -> tuple[Group, ...]:
        groups = [Group(TABLEAU, 28, deal=(1,) * 28, fill=Fill.NONE, prefix="p", fan=Fan.NONE,
                        label="Pyramid", rows=TRIANGLE, align=Align.CENTER)]
        if self.easy:
            groups.append(Group(RESERVE, 7, deal=(1,) * 7, fill=Fill.NONE, fan=Fan.NONE))
        groups += [
            Group(FOUNDATION, fan=Fan.NONE),
            Group(STOCK_PILE),
            # w1 takes the flipped card; the next flip moves an unused one onto w2.
            Group(WASTE, 2, fill=Fill.NONE, fan=Fan.NONE),
        ]
        return tuple(groups)

    def covered_by(self) -> dict[int, tuple[int, ...]]:
        return {p: over for p, over in enumerate(COVER) if over}

    def source_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        if 0 <= src < 28 and src != dst and dst >= 0:
            return Refusal("source.fixed", "cards in the pyramid stay where they are: they "
                           "leave only in removals, like p22+p28")
        return super().source_refusal(st, src, dst, n)

    def exposure_refusal(self, st: State, p: int) -> Refusal | None:
        if self.available(st, p):
            return None
        return Refusal("pyramid.covered", lambda: (
            f"{show(st.piles[p][-1])} in {self.pile_names[p]} is not fully exposed: both "
            "cards lying over it must go first"))

    def set_refusal(self, st: State, cards: list[int]) -> Refusal | None:
        if len(cards) == 1:
            (c,) = cards
            if RANK[c] == 13:
                return None
            return Refusal("pyramid.not-king", lambda: (
                f"{show(c)} can't go alone: only a King totals 13 by itself"))
        a, b = cards
        total = RANK[a] + RANK[b]
        if total == 13:
            return None
        return Refusal("pyramid.not-thirteen", lambda: (
            f"{show(a)} and {show(b)} total {total}, not 13 (Ace 1, Jack 11, Queen 12)"))

    def extra_moves(self, st: State) -> Iterator[Move]:
        # The generic search over every set of free piles, by rank: Kings, then pairs.
        free = self.free_piles(st)
        piles = st.piles
        for p in free:
            if RANK[piles[p][-1]] == 13:
                yield Move(REMOVE, piles=(p,))
        yield from pairs_by_rank(st, free, 13)

    def apply_stock(self, st: State) -> None:
        w1, w2 = self.by_kind[WASTE]
        if st.piles[w1]:
            st.move_cards(w1, w2, 1)
        st.move_cards(self.stock_pile, w1, 1)
