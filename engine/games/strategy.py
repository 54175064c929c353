"""Strategy: lay every stock card on a column first, then build the foundations up in suit."""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..core import Refusal, State
from ..options import Deals, Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class Strategy(RuleSet):
    id = "strategy"
    name = "Strategy"
    summary = ("The Aces start the foundations; lay each flipped card on any column (easy 8, "
               "difficult 6, at most 13 cards each). Only when the stock is empty may column "
               "tops go to the foundations, up in suit to the King.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        cols = 8 if self.easy else 6
        return (
            Group(TABLEAU, cols, build=Build(Direction.ANY), capacity=13, unit=Unit.TOP,
                  to=(FOUNDATION,)),
            Group(FOUNDATION, 4, build=Build(Direction.UP, SuitRule.SAME), fill=Fill.BASE),
            Group(STOCK_PILE, unit=Unit.TOP, to=(TABLEAU,), turn_up=True),
        )

    def prepare(self, st: State) -> None:
        """The four Aces go to the foundations in suit order (clubs, diamonds, hearts,
        spades); the other cards keep their order in the stock."""
        s = self.stock_pile
        aces = sorted((c for c in st.piles[s] if RANK[c] == 1), key=lambda c: SUIT[c])
        for f, ace in zip(self.by_kind[FOUNDATION], aces, strict=True):
            st.piles[f] = [ace]
        st.piles[s] = [c for c in st.piles[s] if RANK[c] != 1]
        st.down[s] = len(st.piles[s])

    def unit_sizes(self, st: State, src: int) -> range | tuple[int, ...]:
        if self.pile_kinds[src] == TABLEAU and st.piles[self.stock_pile]:
            return ()
        return (1,)

    def source_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        why = super().source_refusal(st, src, dst, n)
        if why is not None and why.code == "target.kind":
            return Refusal("target.kind", "a flipped card goes onto a column, and column cards "
                           "go only to the foundations")
        if why is None and self.pile_kinds[src] == TABLEAU and st.piles[self.stock_pile]:
            return Refusal("strategy.stock-first",
                           "column cards may move only after the whole stock has been played")
        return why
