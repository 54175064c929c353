"""Flower Garden: six columns build down in any suit; every card of the fanned reserve plays."""

from __future__ import annotations

from ..mechanics.reversible import ReversibleMixin
from ..options import Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, RESERVE, TABLEAU, Build, Group
from ..registry import register


@register
class FlowerGarden(ReversibleMixin):
    id = "flower-garden"
    name = "Flower Garden"
    summary = ("Build the foundations up in suit from Ace to King; six columns build down "
               "regardless of suit, top card only, and any card of the face-up reserve may be "
               "played. Easy: columns of five and 22 reserve cards; difficult: six and 16.")

    def declare(self) -> tuple[Group, ...]:
        size = 5 if self.easy else 6
        spare = 52 - 6 * size
        return (
            Group(TABLEAU, 6, deal=(size,) * 6, build=Build(Direction.DOWN, SuitRule.ANY),
                  fill=Fill.ANY, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
            # The fanned reserve is one pile per card, so that every card is a top card and
            # plays by itself; nothing is ever laid on it.
            Group(RESERVE, spare, deal=(1,) * spare, fill=Fill.NONE, unit=Unit.TOP,
                  to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
        )
