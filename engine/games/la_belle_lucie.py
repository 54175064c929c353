"""La Belle Lucie: sixteen fans of three built down in suit, with shuffled redeals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import RANK, SUIT
from ..core import REDEAL, Move, Refusal, State
from ..deal import Stream, shuffle
from ..options import Direction, Fan, Fill, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU, Build, Group
from ..registry import register
from ..rules import RuleSet

FAN = 3  # cards per column at the deal and at each redeal
MOVE_REDEAL = Move(REDEAL)


@register
class LaBelleLucie(RuleSet):
    id = "la-belle-lucie"
    name = "La Belle Lucie"
    summary = ("The Aces start the foundations; sixteen fans of three build down in suit, top "
               "card only, at most seven cards. Redeal (gather, shuffle, deal in threes) three "
               "times in easy, twice in difficult.")

    def declare(self) -> tuple[Group, ...]:
        self.redeals = 3 if self.easy else 2
        return (
            Group(TABLEAU, 16, deal=(FAN,) * 16, build=Build(Direction.DOWN, SuitRule.SAME),
                  fill=Fill.NONE,
                  capacity=7, unit=Unit.TOP, to=(TABLEAU, FOUNDATION), fan=Fan.RIGHT),
            # The last four deck cards land here only for prepare to regroup the deal.
            Group(FOUNDATION, 4, deal=(1,) * 4, build=Build(Direction.UP, SuitRule.SAME),
                  fill=Fill.BASE),
        )

    def initial_vars(self, piles: list[list[int]]) -> dict[str, int]:
        out = super().initial_vars(piles)
        out["redeal"] = 0  # redeals made so far
        return out

    def prepare(self, st: State) -> None:
        """Aces to the foundations by suit (clubs, diamonds, hearts, spades); the other 48
        cards, in their deck order, three to a column."""
        cols, founds = self.by_kind[TABLEAU], self.by_kind[FOUNDATION]
        deck = [c for p in cols + founds for c in st.piles[p]]
        rest = [c for c in deck if RANK[c] != 1]
        for c in deck:
            if RANK[c] == 1:
                st.piles[founds[SUIT[c]]] = [c]
        for i, p in enumerate(cols):
            st.piles[p] = rest[FAN * i : FAN * i + FAN]

    # ----- the redeal -------------------------------------------------------------------

    def extra_moves(self, st: State) -> Iterable[Move]:
        if self.redeal_refusal(st) is None:
            yield MOVE_REDEAL

    def extra_refusal(self, st: State, move: Move) -> Refusal | None:
        if move.kind != REDEAL:
            return super().extra_refusal(st, move)
        if move != MOVE_REDEAL:
            return Refusal("move.malformed", "a redeal is written just 'redeal'")
        return self.redeal_refusal(st)

    def redeal_refusal(self, st: State) -> Refusal | None:
        if st.vars["redeal"] >= self.redeals:
            return Refusal("redeal.none", f"all {self.redeals} redeals have been used")
        if not any(st.piles[p] for p in self.by_kind[TABLEAU]):
            return Refusal("redeal.empty", "there are no column cards to redeal")
        return None

    def redeal_ahead(self, st: State) -> bool:
        return st.vars["redeal"] < self.redeals

    def apply_extra(self, st: State, move: Move) -> None:
        """Gather the columns (t1 to t16, each bottom up), shuffle with the redeal's own
        stream of the seed, deal back three to a column from t1."""
        k = st.vars["redeal"] + 1
        cols = self.by_kind[TABLEAU]
        cards = shuffle([c for p in cols for c in st.piles[p]], Stream(st.seed, f"redeal/{k}"))
        for i, p in enumerate(cols):
            st.set_pile(p, cards[FAN * i : FAN * i + FAN], 0)
        st.set_var("redeal", k)

    def info(self, st: State) -> dict[str, Any]:
        return {"redeals": st.vars["redeal"], "redeals_allowed": self.redeals}
