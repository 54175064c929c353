"""Scorpion: build four King-to-Ace runs in suit on the columns themselves."""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..core import State
from ..options import Deals, Direction, Fill, Goal, SuitRule, Unit
from ..piles import STOCK_PILE, TABLEAU, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class Scorpion(RuleSet):
    id = "scorpion"
    name = "Scorpion"
    summary = ("Build four runs in suit from King down to Ace on the columns. Any face-up "
               "card moves with all the cards on it; the three stock cards go to the first "
               "three columns. Difficult hides three cards in four columns and fills spaces "
               "only with Kings.")
    stock = Stock(Deals.TABLEAU)
    goal = Goal.RUNS

    def declare(self) -> tuple[Group, ...]:
        hidden = 2 if self.easy else 3
        return (
            Group(TABLEAU, 7, deal=(7,) * 7, down=(hidden,) * 4 + (0,) * 3,
                  build=Build(Direction.DOWN, SuitRule.SAME),
                  fill=Fill.ANY if self.easy else Fill.KING,
                  unit=Unit.FACEUP, to=(TABLEAU,), turn_up=True),
            Group(STOCK_PILE),
        )

    def score(self, st: State) -> int:
        """Cards in a same-suit run down from a face-up King at the bottom of a column."""
        total = 0
        for p in self.by_kind[TABLEAU]:
            pile = st.piles[p]
            if not pile or st.down[p] or RANK[pile[0]] != 13:
                continue
            k = 1
            while k < len(pile) and SUIT[pile[k]] == SUIT[pile[0]] and RANK[pile[k]] == 13 - k:
                k += 1
            total += k
        return total
