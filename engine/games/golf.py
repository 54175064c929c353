"""Golf: clear the columns onto one foundation, a rank up or down; lower score is better."""

from __future__ import annotations

from ..core import State
from ..options import Deals, Direction, Fill, Goal, Scoring, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class Golf(RuleSet):
    id = "golf"
    name = "Golf"
    scoring = Scoring.LOW
    summary = ("Play column tops onto the single foundation one rank up or down, any suit, "
               "no wrap; flip the stock onto it when stuck. Score: cards left in the columns. "
               "Difficult deals six columns of six and nothing goes on a King.")
    stock = Stock(Deals.FOUNDATION)
    goal = Goal.CLEAR

    def declare(self) -> tuple[Group, ...]:
        cols, size = (7, 5) if self.easy else (6, 6)
        return (
            Group(TABLEAU, cols, deal=(size,) * cols, unit=Unit.TOP, fill=Fill.NONE,
                  to=(FOUNDATION,)),
            Group(FOUNDATION, build=Build(Direction.EITHER, SuitRule.ANY,
                                          closed=() if self.easy else (13,))),
            Group(STOCK_PILE),
        )

    def score(self, st: State) -> int:
        return sum(len(st.piles[t]) for t in self.by_kind[TABLEAU])
