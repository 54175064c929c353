"""Eight Off: eight columns built down in suit, eight one-card reserve cells."""

from __future__ import annotations

from ..core import Refusal, State
from ..options import Direction, Fill, SuitRule, Unit
from ..registry import register
from ..rules import CELL, FOUNDATION, TABLEAU, Build, Group, RuleSet


@register
class EightOff(RuleSet):
    id = "eight-off"
    name = "Eight Off"
    refuses_more = True  # target_refusal adds to the shared refusal
    summary = ("Build the foundations up in suit from Ace to King; columns build down in suit, "
               "one card at a time, with eight one-card reserve cells. Difficult starts four "
               "cells full and fills empty columns with Kings only.")

    def declare(self) -> tuple[Group, ...]:
        cells: tuple[int, ...]
        if self.easy:
            cols, cells = (7, 7, 7, 7, 6, 6, 6, 6), ()
        else:
            # docs/rules/eight-off.md (override): eight columns of six, one card in cells 1-4.
            cols, cells = (6,) * 8, (1, 1, 1, 1, 0, 0, 0, 0)
        return (
            # A packed run may be asked for in one move; target_refusal holds it to what the
            # free cells and empty columns would allow one card at a time.
            Group(TABLEAU, 8, deal=cols, build=Build(Direction.DOWN, SuitRule.SAME),
                  fill=Fill.ANY if self.easy else Fill.KING, unit=Unit.TAIL,
                  to=(TABLEAU, FOUNDATION, CELL)),
            Group(CELL, 8, deal=cells, capacity=1, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
        )

    def room(self, st: State, src: int, dst: int) -> tuple[int, int, int]:
        """(free cells, empty columns other than src and dst, most cards one move may carry)."""
        piles = st.piles
        free = sum(1 for c in self.by_kind[CELL] if not piles[c])
        empty = sum(1 for t in self.by_kind[TABLEAU] if not piles[t] and t != dst and t != src)
        if not self.easy:
            # Empty columns take only Kings; the cards parked on the way never start with one.
            return free, empty, free + 1
        return free, empty, (free + 1) << empty

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        why = super().target_refusal(st, src, dst, card, n)
        if why is not None or n == 1:
            return why
        free, empty, limit = self.room(st, src, dst)
        if n <= limit:
            return None

        def say() -> str:
            cells = f"{free} free cell" + ("" if free == 1 else "s")
            if not self.easy:
                verb = "allows" if free == 1 else "allow"
                return (f"only {limit} cards can move together here: {cells} {verb} that "
                        "many one at a time (empty columns take only Kings)")
            cols = f"{empty} other empty column" + ("" if empty == 1 else "s")
            return (f"only {limit} cards can move together here: {cells} and {cols} "
                    "allow that many one at a time")

        return Refusal("eight-off.room", say)
