"""Canfield: a squared reserve feeds empty columns; foundations build up from a dealt base."""

from __future__ import annotations

from ..core import Move, State
from ..mechanics.idle_swaps import idle_swap
from ..options import Base, Deals, Direction, Fan, Fill, SuitRule, Unit
from ..piles import FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class Canfield(RuleSet):
    id = "canfield"
    name = "Canfield"
    base = Base.DEALT
    stock = Stock(Deals.WASTE, draw=3, passes=0)
    summary = ("Build the foundations up in suit from the dealt card's rank, wrapping K-A; four "
               "columns build down in alternating colours and refill from a squared reserve. "
               "Draw three, unlimited passes; difficult has a 14-card reserve and moves only "
               "whole packed runs.")

    def declare(self) -> tuple[Group, ...]:
        size = 10 if self.easy else 14
        return (
            Group(TABLEAU, 4, deal=(1, 1, 1, 1),
                  build=Build(Direction.DOWN, SuitRule.ALTERNATE, wrap=True),
                  fill=Fill.ANY, fill_from=(WASTE,),
                  # Difficult: between columns only the whole packed run moves; its top card
                  # alone may still go to a foundation (else no column card could reach one).
                  unit=Unit.TAIL if self.easy else Unit.PACKED,
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

    def useful(self, st: State, m: Move) -> bool:
        """An idle tail shuttle (``idle_swap``) is not useful either, unless some waste card
        fits somewhere: then a later pass might still play it, so the game stays open."""
        if not super().useful(st, m):
            return False
        if not (self.easy and idle_swap(self, st, m)):
            return True
        w = self.by_kind[WASTE][0]
        return self.any_fits(st, w, st.piles[w])
