"""Spiderette: one-deck Spider; completed King-to-Ace runs of any suits leave the table."""

from __future__ import annotations

from typing import Any

from ..cards import RANK
from ..core import State
from ..options import Deals, Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet

SET = 13  # cards in a completed run, King to Ace


@register
class Spiderette(RuleSet):
    id = "spiderette"
    name = "Spiderette"
    summary = ("Build runs down from King to Ace in any suits; a completed run leaves the "
               "table by itself. Only the top card or the whole run on top moves; the stock "
               "deals one card to each column. Difficult deals three cards face down per "
               "column instead of two.")
    stock = Stock(Deals.TABLEAU)

    def declare(self) -> tuple[Group, ...]:
        hidden = 2 if self.easy else 3
        return (
            Group(TABLEAU, 7, deal=(hidden + 1,) * 7, down=(hidden,) * 7,
                  build=Build(Direction.DOWN, SuitRule.ANY), fill=Fill.ANY, unit=Unit.WHOLE,
                  to=(TABLEAU,), turn_up=True),
            # Where completed runs go by themselves: face up, nothing is played to it or
            # taken from it; four runs there win.
            Group(FOUNDATION, 1, fill=Fill.NONE, collects=SET),
            Group(STOCK_PILE),
        )

    @property
    def removed(self) -> int:
        return self.by_kind[FOUNDATION][0]

    def score(self, st: State) -> int:
        """13 per removed set, plus the cards in a run down from a face-up King at the
        bottom of a column."""
        total = len(st.piles[self.removed])
        for p in self.by_kind[TABLEAU]:
            pile = st.piles[p]
            if not pile or st.down[p] or RANK[pile[0]] != 13:
                continue
            k = 1
            while k < len(pile) and RANK[pile[k]] == 13 - k:
                k += 1
            total += k
        return total

    def info(self, st: State) -> dict[str, Any]:
        return {"sets": len(st.piles[self.removed]) // SET}
