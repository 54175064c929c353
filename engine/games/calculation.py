"""Calculation: four foundations on guides A, 2, 3, 4, each counting up by its guide's rank."""

from __future__ import annotations

from typing import Any

from ..cards import RANK, RANK_NAMES, show
from ..core import Refusal, State
from ..options import Deals, Direction, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, Build, Group, Stock, a
from ..registry import register
from ..rules import RuleSet

# NEED[g][n]: the rank foundation g (guide rank g + 1) takes when it holds n cards (0 when full).
NEED: tuple[tuple[int, ...], ...] = tuple(
    tuple(((g + 1) * (n + 1) - 1) % 13 + 1 if n < 13 else 0 for n in range(14))
    for g in range(4)
)
GUIDE_WORD = ("Ace", "Two", "Three", "Four")


@register
class Calculation(RuleSet):
    id = "calculation"
    name = "Calculation"
    summary = ("Build four foundations regardless of suit from guides A, 2, 3 and 4, counting "
               "up by 1, 2, 3 and 4 to the King. Each flipped card goes to a foundation or onto "
               "a waste column (easy 5, difficult 4); only column tops go on from there.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        cols = 5 if self.easy else 4
        return (
            Group(FOUNDATION, 4),
            Group(TABLEAU, cols, build=Build(Direction.ANY), unit=Unit.TOP, to=(FOUNDATION,)),
            Group(STOCK_PILE, unit=Unit.TOP, to=(FOUNDATION, TABLEAU), turn_up=True),
        )

    def prepare(self, st: State) -> None:
        """The guides: the first Ace, Two, Three and Four in the deck (docs/rules/calculation.md);
        the other cards keep their order."""
        s = self.stock_pile
        deck = st.piles[s][::-1]  # the deck's first card first
        guides: dict[int, int] = {}
        for c in deck:
            if RANK[c] <= 4 and RANK[c] not in guides:
                guides[RANK[c]] = c
        for g, f in enumerate(self.by_kind[FOUNDATION]):
            st.piles[f] = [guides[g + 1]]
        rest = [c for c in deck if c not in guides.values()]
        st.piles[s] = rest[::-1]
        st.down[s] = len(rest)

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        kind = self.pile_kinds[dst]
        if kind == FOUNDATION:
            if n > 1:
                return Refusal("foundation.one", "cards go to a foundation one at a time")
            g = self.by_kind[FOUNDATION].index(dst)
            need = NEED[g][len(st.piles[dst])]
            if need == 0:
                return Refusal("calculation.complete",
                               f"the {GUIDE_WORD[g]} guide's foundation is complete")
            if RANK[card] != need:
                return Refusal(
                    "calculation.sequence",
                    lambda: f"{show(card)} can't go there: the {GUIDE_WORD[g]} guide's "
                    f"foundation counts up by {g + 1} and needs {a(RANK_NAMES[need])} next")
            return None
        return super().target_refusal(st, src, dst, card, n)

    def info(self, st: State) -> dict[str, Any]:
        """What each foundation needs next (Hoyle's tutorial shows it on a click)."""
        out: dict[str, Any] = {}
        for g, f in enumerate(self.by_kind[FOUNDATION]):
            need = NEED[g][len(st.piles[f])]
            out[self.pile_names[f]] = RANK_NAMES[need] if need else None
        return {"needs": out}
