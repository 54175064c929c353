"""Baker's Dozen: thirteen columns, Kings to the bottom, columns build down in any suit."""

from __future__ import annotations

from ..cards import RANK
from ..core import State
from ..mechanics.reversible import ReversibleMixin
from ..options import Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU, Build, Group
from ..registry import register


@register
class BakersDozen(ReversibleMixin):
    id = "bakers-dozen"
    name = "Baker's Dozen"
    summary = ("Build the foundations up in suit from Ace to King; thirteen columns of four, "
               "Kings moved to the bottom, build down regardless of suit, top card only, at "
               "most eleven cards a column, empty columns stay empty. Difficult hides two "
               "cards per column instead of one.")

    def declare(self) -> tuple[Group, ...]:
        hidden = 1 if self.easy else 2
        return (
            Group(TABLEAU, 13, deal=(4,) * 13, down=(hidden,) * 13,
                  build=Build(Direction.DOWN, SuitRule.ANY),
                  fill=Fill.NONE, capacity=11, unit=Unit.TOP, to=(TABLEAU, FOUNDATION),
                  turn_up=True),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
        )

    def prepare(self, st: State) -> None:
        """Kings go to the bottom of their columns before the face-down cards are set; the
        Kings keep their order among themselves, and so do the other cards."""
        for t in self.by_kind[TABLEAU]:
            pile = st.piles[t]
            st.piles[t] = [c for c in pile if RANK[c] == 13] + [c for c in pile if RANK[c] != 13]
