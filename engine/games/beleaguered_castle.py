"""Beleaguered Castle: the Aces start the foundations; eight columns build down in any suit."""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..core import State
from ..mechanics.reversible import ReversibleMixin
from ..options import Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU, Build, Group
from ..registry import register


@register
class BeleagueredCastle(ReversibleMixin):
    id = "beleaguered-castle"
    name = "Beleaguered Castle"
    summary = ("The four Aces start the foundations; eight columns of six build down regardless "
               "of suit, top card only, at most thirteen cards a column, Kings fill spaces. "
               "Easy builds the foundations up in any suit, difficult in suit.")

    def declare(self) -> tuple[Group, ...]:
        return (
            Group(TABLEAU, 8, deal=(6,) * 8, build=Build(Direction.DOWN, SuitRule.ANY),
                  fill=Fill.KING, capacity=13, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
            # Dealt one card each only so the deck is used up; prepare puts the Aces here.
            Group(FOUNDATION, 4, deal=(1,) * 4,
                  build=Build(Direction.UP, SuitRule.ANY if self.easy else SuitRule.SAME),
                  fill=Fill.BASE),
        )

    def prepare(self, st: State) -> None:
        """The Aces go to the foundations in suit order (clubs, diamonds, hearts, spades);
        the other 48 cards fill the columns, six each, in the order the deck gives them."""
        order = [c for t in self.by_kind[TABLEAU] for c in st.piles[t]]
        order += [c for f in self.by_kind[FOUNDATION] for c in st.piles[f]]
        rest = [c for c in order if RANK[c] != 1]
        aces = sorted((c for c in order if RANK[c] == 1), key=lambda c: SUIT[c])
        for i, t in enumerate(self.by_kind[TABLEAU]):
            st.piles[t] = rest[i * 6 : i * 6 + 6]
        for ace, f in zip(aces, self.by_kind[FOUNDATION], strict=True):
            st.piles[f] = [ace]
