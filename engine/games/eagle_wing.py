"""Eagle Wing: short columns built down in suit, a squared reserve, one redeal."""

from __future__ import annotations

from ..options import Base, Deals, Direction, Fan, Fill, SuitRule, Unit
from ..piles import FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class EagleWing(RuleSet):
    id = "eagle-wing"
    name = "Eagle Wing"
    base = Base.DEALT
    stock = Stock(Deals.WASTE, draw=1, passes=2)
    summary = ("Build the foundations up in suit from the dealt card's rank, wrapping K-A; eight "
               "columns of at most three cards build down in suit and refill from a squared "
               "reserve. Draw one, one redeal; difficult's reserve has 17 cards.")

    def declare(self) -> tuple[Group, ...]:
        size = 14 if self.easy else 17
        return (
            Group(TABLEAU, 8, deal=(1,) * 8, build=Build(Direction.DOWN, SuitRule.SAME, wrap=True),
                  fill=Fill.ANY, fill_from=(TABLEAU, WASTE), capacity=3, unit=Unit.WHOLE,
                  to=(TABLEAU, FOUNDATION)),
            # Squared: all face down but the top card, which turns up when exposed; it fills
            # each emptied column at once while it lasts.
            Group(RESERVE, deal=(size,), down=(size - 1,), unit=Unit.TOP,
                  to=(TABLEAU, FOUNDATION), fill=Fill.NONE, turn_up=True, refills=TABLEAU),
            Group(FOUNDATION, 4, deal=(1, 0, 0, 0),
                  build=Build(Direction.UP, SuitRule.SAME, wrap=True),
                  fill=Fill.BASE),
            Group(STOCK_PILE),
            Group(WASTE, unit=Unit.TOP, to=(TABLEAU, FOUNDATION), fan=Fan.RIGHT),
        )
