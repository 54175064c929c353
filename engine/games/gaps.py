"""Gaps: four rows of thirteen cells; fill each gap with the card that follows its neighbour
in suit, to build every row from Two to King."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import compress
from operator import not_
from typing import Any

from ..cards import RANK, SUIT, card, show
from ..core import MOVE, REDEAL, Move, Refusal, State
from ..deal import Stream, shuffle
from ..options import Direction, Fan, SuitRule, Unit
from ..piles import GRID, WASTE, Build, GapRule, Group
from ..registry import register
from ..rules import RuleSet

ROWS, COLS = 4, 13
REDEALS = 2  # difficult only
NEXT = [card(RANK[c] + 1, SUIT[c]) if RANK[c] < 13 else -1 for c in range(52)]
PREV = [card(RANK[c] - 1, SUIT[c]) if RANK[c] > 1 else -1 for c in range(52)]


@lru_cache(maxsize=64)
def redeal_order(seed: bytes, k: int, n: int) -> tuple[int, ...]:
    """The order the ``k``-th redeal shuffles ``n`` cards into: ``shuffle`` of them with the
    seed's sub-stream, as the indices of the cards it puts in each place. Its draws depend on
    the count alone, not on the cards, so a solver redealing from many positions of one deal
    draws them once."""
    return tuple(shuffle(list(range(n)), Stream(seed, f"redeal/{k}")))


@register
class Gaps(RuleSet):
    id = "gaps"
    name = "Gaps"
    summary = ("Four rows of thirteen with the Twos at the left and the Aces removed: fill "
               "each gap with the next card of its left neighbour's suit (easy: or the card "
               "before its right neighbour) to build each row 2 to K in suit. Difficult: "
               "left neighbour only, two redeals.")

    def declare(self) -> tuple[Group, ...]:
        # The moves below, declared for a solver that plays them without this class.
        self.gap_rule = GapRule(Build(Direction.UP, SuitRule.SAME), before=self.easy, start=2,
                            redeals=0 if self.easy else REDEALS)
        return (
            Group(GRID, ROWS * COLS, deal=(1,) * (ROWS * COLS), capacity=1, unit=Unit.TOP,
                  to=(GRID,), fan=Fan.GRID, columns=COLS),
            # The Aces set aside after the deal: out of play, shown for completeness.
            Group(WASTE, prefix="a", fan=Fan.NONE),
        )

    # ----- the deal -----------------------------------------------------------------

    def prepare(self, st: State) -> None:
        grid = st.piles
        for suit in range(4):  # Twos to rows 1-4 in suit order clubs .. spades, swapping
            two = card(2, suit)
            at = next(g for g in range(ROWS * COLS) if grid[g] == [two])
            first = suit * COLS
            grid[at], grid[first] = grid[first], grid[at]
        aces = self.by_kind[WASTE][0]
        for g in range(ROWS * COLS):  # the Aces leave in reading order
            if grid[g] and RANK[grid[g][0]] == 1:
                grid[aces].append(grid[g].pop())
        st.vars["redeals"] = 0

    # ----- positions ----------------------------------------------------------------

    @staticmethod
    def run_cells(st: State) -> list[int]:
        """Per row, how many cells from the first hold an unbroken same-suit run from a Two."""
        piles = st.piles
        out = []
        for row in range(ROWS):
            g = row * COLS
            n = 0
            if piles[g] and RANK[piles[g][0]] == 2:
                n = 1
                while n < COLS and piles[g + n] and piles[g + n][0] == NEXT[piles[g + n - 1][0]]:
                    n += 1
            out.append(n)
        return out

    def wanted(self, st: State, gap: int) -> tuple[int, ...]:
        """The cards that may fill the gap in cell ``gap``: after its left neighbour, and in
        easy before its right neighbour."""
        piles = st.piles
        col = gap % COLS
        out: list[int] = []
        if col and piles[gap - 1]:
            nxt = NEXT[piles[gap - 1][0]]
            if nxt >= 0:
                out.append(nxt)
        if self.easy and col < COLS - 1 and piles[gap + 1]:
            prv = PREV[piles[gap + 1][0]]
            if prv >= 0 and RANK[prv] > 1:
                out.append(prv)
        return tuple(out)

    # ----- moves --------------------------------------------------------------------

    def iter_moves(self, st: State) -> Iterator[Move]:
        # The four gaps and the cells of the few cards they want, found by the list's own
        # loops: the solver lists the moves of every position it meets.
        piles = st.piles
        cells = ROWS * COLS
        for gap in compress(range(cells), map(not_, piles)):
            for c in self.wanted(st, gap):
                try:
                    src = piles.index([c], 0, cells)
                except ValueError:
                    continue
                if src % COLS or RANK[c] != 2:
                    yield Move(MOVE, src, gap, 1)
        yield from self.extra_moves(st)

    def source_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        aces = self.by_kind[WASTE][0]
        if src == aces:
            return Refusal("source.fixed", "the Aces set aside stay out of play")
        if dst == aces:
            return Refusal("target.kind", "cards move only into gaps of the grid")
        if n > 1 and src >= 0 and src != dst:
            return Refusal("unit.top", "one card moves at a time")
        why = super().source_refusal(st, src, dst, n)
        if why is not None:
            return why
        if src % COLS == 0 and RANK[st.piles[src][-1]] == 2:
            return Refusal("gaps.two-fixed", "a Two in the first cell of a row never moves")
        return None

    def target_refusal(self, st: State, src: int, dst: int, c: int, n: int) -> Refusal | None:
        names = self.pile_names
        if n > 1:
            return Refusal("unit.top", "one card moves at a time")
        piles = st.piles
        if piles[dst]:
            return Refusal("gaps.not-gap", lambda: f"{names[dst]} is not a gap: a card moves "
                           "only into a gap")
        if c in self.wanted(st, dst):
            return None
        if not self.easy:
            left = piles[dst - 1][0] if dst % COLS and piles[dst - 1] else -1
            if left < 0:
                return Refusal("gaps.no-left", lambda: (
                    f"{names[dst]} can't be filled now: a gap takes the next card of its left "
                    "neighbour's suit, and the cell on its left is empty"))
            if RANK[left] == 13:
                return Refusal("gaps.after-king", lambda: (
                    f"nothing goes in {names[dst]}: no card follows the {show(left)} on its "
                    "left"))
        return Refusal("gaps.fill", lambda: self.fill_rule(st, dst, c))

    def fill_rule(self, st: State, gap: int, c: int) -> str:
        """Why ``c`` does not fit the gap, naming what would."""
        piles = st.piles
        col = gap % COLS
        left = piles[gap - 1][0] if col and piles[gap - 1] else -1
        right = piles[gap + 1][0] if col < COLS - 1 and piles[gap + 1] else -1
        name = self.pile_names[gap]
        parts = []
        if left >= 0 and RANK[left] < 13:
            parts.append(f"the {show(NEXT[left])} after the {show(left)} on its left")
        if self.easy and right >= 0 and RANK[right] > 2:
            parts.append(f"the {show(PREV[right])} before the {show(right)} on its right")
        if self.easy:
            rule = ("a gap takes the next higher card of its left neighbour's suit or the next "
                    "lower card of its right neighbour's suit")
        else:
            rule = "a gap takes the next higher card of its left neighbour's suit"
        if not parts:
            return f"{show(c)} can't go in {name}: {rule}, and no card fits there now"
        return f"{show(c)} can't go in {name}: {rule}; it takes only " + " or ".join(parts)

    def extra_moves(self, st: State) -> Iterable[Move]:
        if not self.easy and st.vars.get("redeals", 0) < REDEALS:
            yield Move(REDEAL)

    def extra_refusal(self, st: State, move: Move) -> Refusal | None:
        if move.kind != REDEAL:
            return super().extra_refusal(st, move)
        if self.easy:
            return Refusal("redeal.none", "there is no redeal in easy Gaps")
        if move.src != -1 or move.n != 1 or move.piles:
            return Refusal("move.malformed", "a redeal names no pile")
        if st.vars.get("redeals", 0) >= REDEALS:
            return Refusal("redeal.limit", f"the cards can be redealt only {REDEALS} times")
        return None

    def redeal_ahead(self, st: State) -> bool:
        return not self.easy and st.vars.get("redeals", 0) < REDEALS

    def apply_extra(self, st: State, move: Move) -> None:
        """Gather the cards outside the runs and the Aces, shuffle them with the seed's
        sub-stream for this redeal, deal them back into the free cells, then set the Aces
        aside again."""
        k = st.vars.get("redeals", 0) + 1
        st.set_var("redeals", k)
        piles = st.piles
        runs = self.run_cells(st)
        free = [row * COLS + col for row in range(ROWS) for col in range(runs[row], COLS)]
        aces = self.by_kind[WASTE][0]
        gathered = [piles[g][0] for g in free if piles[g]] + list(piles[aces])
        cards = [gathered[i] for i in redeal_order(st.seed, k, len(gathered))]
        out: list[int] = []
        for g, c in zip(free, cards, strict=True):
            keep = [] if RANK[c] == 1 else [c]
            if RANK[c] == 1:
                out.append(c)
            if piles[g] != keep:
                st.set_pile(g, keep, 0)
        st.set_pile(aces, out, 0)

    def useful(self, st: State, m: Move) -> bool:
        """Every move into a gap changes the rows: a gap is never an "equivalent" cell in
        docs/rules/decisions.md's sense, so the generic lone-card-into-an-empty-cell rule is off."""
        return True

    # ----- the end ------------------------------------------------------------------

    def won(self, st: State) -> bool:
        """Every row built from its Two to its King (``run_cells`` all 12), stopping at the
        first cell out of place."""
        piles = st.piles
        for row in range(ROWS):
            g = row * COLS
            if not piles[g] or RANK[piles[g][0]] != 2:
                return False
            for n in range(g + 1, g + COLS - 1):
                if not piles[n] or piles[n][0] != NEXT[piles[n - 1][0]]:
                    return False
        return True

    def score(self, st: State) -> int:
        return sum(self.run_cells(st))

    def info(self, st: State) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if not self.easy:
            out["redeals"] = st.vars.get("redeals", 0)
            out["redeals_left"] = REDEALS - st.vars.get("redeals", 0)
        return out
