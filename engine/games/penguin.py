"""Penguin: the deck's first card fixes the base; seven columns built down in suit, seven cells."""

from __future__ import annotations

from ..cards import RANK
from ..core import State
from ..options import Base, Direction, Fill, SuitRule, Unit
from ..piles import CELL, FOUNDATION, TABLEAU, Build, Group
from ..registry import register
from ..rules import RuleSet


@register
class Penguin(RuleSet):
    id = "penguin"
    name = "Penguin"
    base = Base.DEALT
    summary = ("The deck's first card fixes the base rank; build the foundations up in suit "
               "from it, wrapping K-A. Seven columns of seven build down in suit (wrapping) "
               "and seven cells hold one card each. Difficult's spaces take only a card one "
               "rank below the base.")

    def declare(self) -> tuple[Group, ...]:
        # The deal is 49 column cards then three foundation cards; ``prepare`` picks them.
        return (
            Group(TABLEAU, 7, deal=(7,) * 7, build=Build(Direction.DOWN, SuitRule.SAME, wrap=True),
                  fill=Fill.ANY if self.easy else Fill.BELOW_BASE, unit=Unit.TAIL,
                  to=(TABLEAU, FOUNDATION, CELL)),
            Group(CELL, 7, capacity=1, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, deal=(1, 1, 1, 0),
                  build=Build(Direction.UP, SuitRule.SAME, wrap=True),
                  fill=Fill.BASE),
        )

    def prepare(self, st: State) -> None:
        """The first card's rank is the base: the other three of that rank start f1 to f3
        (in deck order) and the other 49 cards, that first card included, fill the columns
        in deck order, so the first card lies at the bottom of t1."""
        deck = [c for pile in st.piles for c in pile]  # the deal is in deck order
        base = RANK[deck[0]]
        starters = [c for c in deck[1:] if RANK[c] == base]
        rest = [c for c in deck if c not in starters]
        for i, t in enumerate(self.by_kind[TABLEAU]):
            st.piles[t] = rest[7 * i : 7 * i + 7]
        for f, c in zip(self.by_kind[FOUNDATION], [*starters, None], strict=True):
            st.piles[f] = [c] if c is not None else []
        st.vars["base"] = base
