"""Bristol: eight columns of three built down in any suit, fed by three waste piles."""

from __future__ import annotations

from ..mechanics.circular_columns import CircularColumns
from ..options import Deals, Direction, Fan, Fill, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from ..registry import register


@register
class Bristol(CircularColumns):
    id = "bristol"
    name = "Bristol"
    summary = ("Eight columns of three build down in any suit, top card only; each stock deal "
               "puts one card on each of three waste piles, no redeal. Easy: foundations up "
               "from Ace in any suit, no refilling spaces; difficult: in suit, Kings fill spaces.")
    # One card onto each of the three waste piles per deal; a single pass (no redeal).
    stock = Stock(Deals.WASTE, draw=1, passes=1)

    def declare(self) -> tuple[Group, ...]:
        return (
            Group(TABLEAU, 8, deal=(3,) * 8, build=Build(Direction.DOWN, SuitRule.ANY),
                  fill=Fill.NONE if self.easy else Fill.KING, unit=Unit.TOP,
                  to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4,
                  build=Build(Direction.UP, SuitRule.ANY if self.easy else SuitRule.SAME),
                  fill=Fill.BASE),
            Group(STOCK_PILE),
            Group(WASTE, 3, unit=Unit.TOP, to=(TABLEAU, FOUNDATION), fan=Fan.NONE),
        )
