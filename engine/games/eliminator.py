"""Eliminator: clear four columns onto eight foundations built a rank up or down, wrapping."""

from __future__ import annotations

from typing import Any

from ..core import State
from ..options import Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, RESERVE, TABLEAU, Build, Group
from ..registry import register
from ..rules import RuleSet


@register
class Eliminator(RuleSet):
    id = "eliminator"
    name = "Eliminator"
    summary = ("Play the column tops onto eight foundations: any card starts one, then one rank "
               "up or down, King and Ace wrapping. Clear all 52 cards with as few foundations "
               "as you can. Difficult alternates colours and adds a one-card reserve.")

    def declare(self) -> tuple[Group, ...]:
        if self.easy:
            return (
                Group(TABLEAU, 4, deal=(13,) * 4, unit=Unit.TOP, to=(FOUNDATION,), fill=Fill.NONE),
                Group(FOUNDATION, 8, build=Build(Direction.EITHER, SuitRule.ANY, wrap=True),
                      fill=Fill.ANY),
            )
        return (
            Group(TABLEAU, 4, deal=(13,) * 4, unit=Unit.TOP, to=(FOUNDATION, RESERVE),
                  fill=Fill.NONE),
            Group(RESERVE, 1, capacity=1, unit=Unit.TOP, to=(FOUNDATION,)),
            Group(FOUNDATION, 8, build=Build(Direction.EITHER, SuitRule.ALTERNATE, wrap=True),
                  fill=Fill.ANY),
        )

    def foundations_used(self, st: State) -> int:
        """The ranking's tie-break among winners: fewer is better (docs/rules/eliminator.md)."""
        return sum(1 for f in self.by_kind[FOUNDATION] if st.piles[f])

    def tie_break(self, st: State) -> int:
        return self.foundations_used(st)

    def info(self, st: State) -> dict[str, Any]:
        return {"foundations_used": self.foundations_used(st)}
