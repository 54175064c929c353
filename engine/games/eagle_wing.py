"""Eagle Wing: short columns built down in suit, a squared reserve, one redeal."""

from __future__ import annotations

from ..registry import register
from ..rules import FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from .canfield import ReserveFill


@register
class EagleWing(ReserveFill):
    id = "eagle-wing"
    name = "Eagle Wing"
    base = "dealt"
    stock = Stock(WASTE, draw=1, passes=2)
    late_fill = (TABLEAU, WASTE)
    summary = ("Build the foundations up in suit from the dealt card's rank, wrapping K-A; eight "
               "columns of at most three cards build down in suit and refill from a squared "
               "reserve. Draw one, one redeal; difficult's reserve has 17 cards.")

    def declare(self) -> tuple[Group, ...]:
        size = 14 if self.easy else 17
        return (
            Group(TABLEAU, 8, deal=(1,) * 8, build=Build("down", "same", wrap=True), fill="any",
                  capacity=3, unit="whole", to=(TABLEAU, FOUNDATION)),
            # Squared: all face down but the top card, which turns up when exposed.
            Group(RESERVE, deal=(size,), down=(size - 1,), unit="top",
                  to=(TABLEAU, FOUNDATION), fill="none", turn_up=True),
            Group(FOUNDATION, 4, deal=(1, 0, 0, 0), build=Build("up", "same", wrap=True),
                  fill="base"),
            Group(STOCK_PILE),
            Group(WASTE, unit="top", to=(TABLEAU, FOUNDATION), fan="right"),
        )
