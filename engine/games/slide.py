"""Slide: slide the rows of a 4 x 6 grid so that three cards of one rank line up vertically;
each set leaves the grid and the n-th set scores n times its rank."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import RANK, RANK_NAMES, TEXT
from ..core import Move, Refusal, State
from ..options import Deals, Fan, Scoring, Unit
from ..piles import FOUNDATION, GRID, STOCK_PILE, WASTE, Group, Stock
from ..registry import register
from ..rules import RuleSet

ROWS, COLS = 4, 6
LEFT, RIGHT, FINISH = "left", "right", "finish"
SET = 3


def back_key(card: int) -> str:
    """The var that marks a card as already sent back to the stock once (easy)."""
    return "back" + TEXT[card]


@register
class Slide(RuleSet):
    id = "slide"
    name = "Slide"
    refuses_more = True  # target_refusal adds to the shared refusal
    scoring = Scoring.POINTS
    target = 300
    summary = ("Slide the rows of a 4 x 6 grid left or right, or fill a space from the stock, "
               "to line up three cards of one rank in a column; the n-th set scores n times its "
               "rank. 300 wins. Easy sends a slid-off card back under the stock (once) when the "
               "row holds a pair.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        return (
            # Row-major: g1..g6 is row 1 (top), g19..g24 row 4; dealt in that order.
            Group(GRID, ROWS * COLS, deal=(1,) * (ROWS * COLS), capacity=1, fan=Fan.GRID,
                  columns=COLS),
            # r1..r4: the rows' sliders. They hold no card; "left:r2" names row 2.
            Group(GRID, ROWS, prefix="r", fan=Fan.SLIDER, columns=1, word="row", label="Rows"),
            Group(FOUNDATION, prefix="f", fan=Fan.RIGHT),  # the removed sets, set aside
            Group(WASTE, fan=Fan.RIGHT),
            Group(STOCK_PILE, unit=Unit.TOP, to=(GRID,)),
        )

    def __init__(self, variant: str) -> None:
        super().__init__(variant)
        idx = self.pile_index
        self.cells = [idx[f"g{i + 1}"] for i in range(ROWS * COLS)]
        self.row_of = {idx[f"r{r + 1}"]: r for r in range(ROWS)}
        self.sets_pile = idx["f"]
        self.waste = idx["w"]

    def prepare(self, st: State) -> None:
        self.remove_sets(st)  # a set dealt in line leaves at once, as after any move

    # ----- moves ------------------------------------------------------------------------

    def source_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        if src != self.stock_pile or dst < 0:
            return super().source_refusal(st, src, dst, n)
        if not st.piles[src]:
            return Refusal("stock.empty", "the stock is empty: there is no card to fill a space")
        if n != 1:
            return Refusal("unit.top", "a space is filled with the stock's top card alone")
        if self.pile_kinds[dst] != GRID:
            return Refusal("target.kind", "the stock's top card goes only to an empty space")
        return None  # face down, yet the stock's top card is what fills a space

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        if dst in self.row_of:
            return Refusal("slide.slider", lambda: f"{self.pile_names[dst]} is a row's slider, "
                           "not a space: fill an empty space (g1 to g24)")
        return super().target_refusal(st, src, dst, card, n)

    def extra_moves(self, st: State) -> Iterable[Move]:
        for p in self.row_of:
            if self.slide_refusal(st, p) is None:
                yield Move(LEFT, p)
                yield Move(RIGHT, p)
        yield Move(FINISH)

    def extra_refusal(self, st: State, move: Move) -> Refusal | None:
        if move.kind == FINISH:
            if move.src != -1 or move.n != 1:
                return Refusal("move.malformed", "finish names no pile: write finish")
            return None
        if move.kind in (LEFT, RIGHT):
            if move.src not in self.row_of:
                return Refusal("slide.row", f"a slide names a row, r1 to r{ROWS}: "
                               f"{move.kind}:r2")
            if move.n != 1:
                return Refusal("move.malformed", "a row slides one cell at a time")
            return self.slide_refusal(st, move.src)
        return super().extra_refusal(st, move)

    def slide_refusal(self, st: State, p: int) -> Refusal | None:
        if st.piles[self.stock_pile] or any(st.piles[c] for c in self.row_cells(p)):
            return None
        return Refusal("slide.empty", lambda: f"row {self.row_of[p] + 1} and the stock are "
                       "empty: sliding it changes nothing")

    def row_cells(self, p: int) -> list[int]:
        r = self.row_of[p]
        return self.cells[r * COLS : (r + 1) * COLS]

    def apply_extra(self, st: State, move: Move) -> None:
        if move.kind == FINISH:
            st.set_var("finished", 1)
            return
        seq = self.row_cells(move.src)
        if move.kind == RIGHT:
            seq = seq[::-1]
        self.slide(st, seq)

    def slide(self, st: State, seq: list[int]) -> None:
        """Shift the cells ``seq`` (far end first) one cell toward the far end.

        The far cell's card leaves (to the waste, or in easy to the bottom of the stock once);
        the stock's top card enters the near cell.
        """
        piles, s = st.piles, self.stock_pile
        fallen = piles[seq[0]][0] if piles[seq[0]] else -1
        new = piles[s][-1] if piles[s] else -1
        back = False
        if fallen >= 0 and self.easy and not st.vars.get(back_key(fallen)):
            ranks = [RANK[piles[c][0]] for c in seq[1:] if piles[c]]
            if new >= 0:
                ranks.append(RANK[new])
            back = len(set(ranks)) < len(ranks)  # the row after the shift holds a pair
        if fallen >= 0:
            if back:
                st.set_pile(seq[0], [], 0)
            else:
                st.move_cards(seq[0], self.waste, 1)
        for i in range(1, COLS):
            if piles[seq[i]]:
                st.move_cards(seq[i], seq[i - 1], 1)
        if new >= 0:
            st.move_cards(s, seq[-1], 1)
        if back:  # after the draw: it goes under the stock, face down again
            st.set_pile(s, [fallen, *piles[s]], len(piles[s]) + 1)
            st.set_var(back_key(fallen), 1)

    def after_move(self, st: State) -> None:
        self.remove_sets(st)

    def remove_sets(self, st: State) -> None:
        """Remove every vertical three of one rank (the topmost three if four line up), sets
        found together left to right, until none remain."""
        piles, cells = st.piles, self.cells
        while True:
            found = []
            for col in range(COLS):
                ranks = [RANK[piles[cells[r * COLS + col]][0]] if piles[cells[r * COLS + col]]
                         else 0 for r in range(ROWS)]
                for top in range(ROWS - SET + 1):
                    if ranks[top] and ranks[top] == ranks[top + 1] == ranks[top + 2]:
                        found.append((col, top))
                        break
            if not found:
                return
            for col, top in found:
                for r in range(top, top + SET):
                    st.move_cards(cells[r * COLS + col], self.sets_pile, 1)

    # ----- the end ----------------------------------------------------------------------

    def finished(self, st: State) -> bool:
        return bool(st.vars.get("finished")) or not any(st.piles[c] for c in self.cells)

    def sets(self, st: State) -> list[tuple[int, int]]:
        """(rank, points) of each set in the order removed: the n-th scores n x its rank."""
        pile = st.piles[self.sets_pile]
        return [(RANK[pile[i]], (i // SET + 1) * RANK[pile[i]])
                for i in range(0, len(pile), SET)]

    def score(self, st: State) -> int:
        return sum(points for _, points in self.sets(st))

    def info(self, st: State) -> dict[str, Any]:
        sets = self.sets(st)
        return {
            "sets": [{"set": n + 1, "rank": RANK_NAMES[rank], "points": points}
                     for n, (rank, points) in enumerate(sets)],
            "next": len(sets) + 1,  # the multiplier of the next set
        }
