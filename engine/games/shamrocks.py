"""Shamrocks: eighteen fans of at most three cards, built up or down in any suit."""

from __future__ import annotations

from ..mechanics.circular_columns import CircularColumns
from ..options import Base, Direction, Fan, Fill, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU, Build, Group
from ..registry import register


@register
class Shamrocks(CircularColumns):
    id = "shamrocks"
    name = "Shamrocks"
    summary = ("Seventeen fans of three and one of one; move top cards up or down in any suit "
               "onto fans of fewer than three; build the foundations up in suit. Easy: your "
               "first foundation card sets the base rank (wrapping K-A); difficult: Aces up.")

    def declare(self) -> tuple[Group, ...]:
        self.base = Base.CHOSEN if self.easy else 1
        return (
            # docs/rules/shamrocks.md: 17 columns of 3, then one of 1 (the text's "last").
            Group(TABLEAU, 18, deal=(3,) * 17 + (1,), build=Build(Direction.EITHER, SuitRule.ANY),
                  fill=Fill.NONE, capacity=3, unit=Unit.TOP, to=(TABLEAU, FOUNDATION),
                  fan=Fan.RIGHT),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME, wrap=self.easy),
                  fill=Fill.BASE),
        )
