"""Yukon: any face-up card moves with everything on it; Kings fill spaces."""

from __future__ import annotations

from ..options import Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU, Build, Group
from ..registry import register
from ..rules import RuleSet


@register
class Yukon(RuleSet):
    id = "yukon"
    name = "Yukon"
    summary = ("Build the foundations up in suit from Ace to King. Any face-up column card "
               "moves with all the cards on it; only Kings fill spaces. Columns build down in "
               "another suit (easy) or in alternating colours (difficult).")

    def declare(self) -> tuple[Group, ...]:
        build = Build(Direction.DOWN, SuitRule.OTHER if self.easy else SuitRule.ALTERNATE)
        return (
            # docs/rules/yukon.md: the columns hold 1, 6, 7 ... 11 cards, in that order, with
            # 0 to 6 of them face down.
            Group(TABLEAU, 7, deal=(1, 6, 7, 8, 9, 10, 11), down=(0, 1, 2, 3, 4, 5, 6),
                  build=build, fill=Fill.KING, unit=Unit.FACEUP, to=(TABLEAU, FOUNDATION),
                  turn_up=True),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
        )
