"""Fortress: ten face-up columns, built up or down in any suit, onto four suit foundations."""

from __future__ import annotations

from ..mechanics.circular_columns import CircularColumns
from ..options import Base, Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU, Build, Group
from ..registry import register


@register
class Fortress(CircularColumns):
    id = "fortress"
    name = "Fortress"
    summary = ("Ten face-up columns build up or down in any suit, top card only; build the "
               "foundations up in suit. Easy: your first foundation card sets the base rank "
               "(wrapping K-A) and any card fills a space; difficult: Aces up, Kings fill spaces.")

    def declare(self) -> tuple[Group, ...]:
        self.base = Base.CHOSEN if self.easy else 1
        return (
            # docs/rules/fortress.md: two columns of 6, then eight of 5 (longer piles first).
            Group(TABLEAU, 10, deal=(6, 6) + (5,) * 8, build=Build(Direction.EITHER, SuitRule.ANY),
                  fill=Fill.ANY if self.easy else Fill.KING, unit=Unit.TOP,
                  to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME, wrap=self.easy),
                  fill=Fill.BASE),
        )
