"""Lady Betty: place each stock card on one of six piles or a foundation; build up in suit."""

from __future__ import annotations

from ..options import Deals, Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class LadyBetty(RuleSet):
    id = "lady-betty"
    name = "Lady Betty"
    variants = ("standard",)
    summary = ("Turn the stock one card at a time and lay it on any of six piles, or straight "
               "on a foundation; pile tops go to the foundations, built up in suit from Ace "
               "to King. Cards never move between piles.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        return (
            Group(TABLEAU, 6, build=Build(Direction.ANY), unit=Unit.TOP, to=(FOUNDATION,)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
            Group(STOCK_PILE, unit=Unit.TOP, to=(TABLEAU, FOUNDATION), turn_up=True),
        )
