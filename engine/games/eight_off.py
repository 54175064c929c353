"""Eight Off: eight columns built down in suit, eight one-card reserve cells."""

from __future__ import annotations

from ..options import Carry, Direction, Fill, SuitRule, Unit
from ..piles import CELL, FOUNDATION, TABLEAU, Build, Group
from ..registry import register
from ..rules import RuleSet


@register
class EightOff(RuleSet):
    id = "eight-off"
    name = "Eight Off"
    summary = ("Build the foundations up in suit from Ace to King; columns build down in suit, "
               "one card at a time, with eight one-card reserve cells. Difficult starts four "
               "cells full and fills empty columns with Kings only.")

    def declare(self) -> tuple[Group, ...]:
        cells: tuple[int, ...]
        if self.easy:
            cols, cells = (7, 7, 7, 7, 6, 6, 6, 6), ()
        else:
            # docs/rules/eight-off.md (override): eight columns of six, one card in cells 1-4.
            cols, cells = (6,) * 8, (1, 1, 1, 1, 0, 0, 0, 0)
        return (
            # A packed run may move in one move, as many cards as the free cells and empty
            # columns would carry one at a time (difficult: the cells alone, as the cards
            # parked on the way never start with a King).
            Group(TABLEAU, 8, deal=cols, build=Build(Direction.DOWN, SuitRule.SAME),
                  fill=Fill.ANY if self.easy else Fill.KING, unit=Unit.TAIL,
                  carry=Carry.ROOM, to=(TABLEAU, FOUNDATION, CELL)),
            Group(CELL, 8, deal=cells, capacity=1, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
        )
