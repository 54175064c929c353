"""Castile: ten columns build up or down in suit, two one-card reserve cells."""

from __future__ import annotations

from ..options import Direction, Fill, SuitRule, Unit
from ..piles import CELL, FOUNDATION, TABLEAU, Build, Group
from ..registry import register
from ..rules import RuleSet


@register
class Castile(RuleSet):
    id = "castile"
    name = "Castile"
    variants = ("standard",)
    summary = ("Build the foundations up in suit from Ace to King; ten columns of five build up "
               "or down in suit, one card at a time; two one-card reserve cells take column "
               "cards; any card fills an empty column.")

    def declare(self) -> tuple[Group, ...]:
        return (
            Group(TABLEAU, 10, deal=(5,) * 10, build=Build(Direction.EITHER, SuitRule.SAME),
                  fill=Fill.ANY, unit=Unit.TOP, to=(TABLEAU, FOUNDATION, CELL)),
            Group(CELL, 2, deal=(1, 1), capacity=1, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
        )
