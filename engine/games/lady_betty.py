"""Lady Betty: place each stock card on one of six piles or a foundation; build up in suit."""

from __future__ import annotations

from ..registry import register
from ..rules import FOUNDATION, STOCK_PILE, TABLEAU, Build, Group, RuleSet, Stock


@register
class LadyBetty(RuleSet):
    id = "lady-betty"
    name = "Lady Betty"
    variants = ("standard",)
    summary = ("Turn the stock one card at a time and lay it on any of six piles, or straight "
               "on a foundation; pile tops go to the foundations, built up in suit from Ace "
               "to King. Cards never move between piles.")
    stock = Stock("none")

    def declare(self) -> tuple[Group, ...]:
        return (
            Group(TABLEAU, 6, build=Build("any"), unit="top", to=(FOUNDATION,)),
            Group(FOUNDATION, 4, build=Build("up", "same"), fill="base"),
            Group(STOCK_PILE, unit="top", to=(TABLEAU, FOUNDATION), turn_up=True),
        )
