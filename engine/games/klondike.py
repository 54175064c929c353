"""Klondike: seven columns, alternating colours down, Kings fill spaces."""

from __future__ import annotations

from ..options import Deals, Direction, Fan, Fill, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class Klondike(RuleSet):
    id = "klondike"
    name = "Klondike"
    summary = ("Build the foundations up in suit from Ace to King; columns build down in "
               "alternating colours; only Kings fill spaces. Easy draws three with unlimited "
               "passes, difficult draws one with a single pass.")
    featured = ("easy",)  # the game everyone knows, in its forgiving variant

    def declare(self) -> tuple[Group, ...]:
        self.stock = Stock(Deals.WASTE, draw=3, passes=0) if self.easy else Stock(Deals.WASTE, 1, 1)
        return (
            # The longer piles come first (docs/rules/klondike.md): 7 cards down to 1.
            Group(TABLEAU, 7, deal=(7, 6, 5, 4, 3, 2, 1), down=(6, 5, 4, 3, 2, 1, 0),
                  build=Build(Direction.DOWN, SuitRule.ALTERNATE), fill=Fill.KING, unit=Unit.TAIL,
                  to=(TABLEAU, FOUNDATION), turn_up=True),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
            Group(STOCK_PILE),
            Group(WASTE, unit=Unit.TOP, to=(TABLEAU, FOUNDATION), fan=Fan.RIGHT),
        )
