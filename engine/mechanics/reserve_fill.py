"""A squared reserve that fills emptied columns by itself (Canfield, Eagle Wing)."""

from __future__ import annotations

from ..core import Refusal, State
from ..options import Kind
from ..rules import RESERVE, TABLEAU, WASTE, RuleSet


class ReserveFill(RuleSet):
    """A squared reserve that fills empty columns by itself.

    While the reserve holds cards, an emptied column takes its top card at once (a journaled
    step of the move that emptied it); once the reserve is empty, only the kinds in
    ``late_fill`` may start an empty column.
    """

    late_fill: tuple[Kind, ...] = (WASTE,)
    refuses_more = True  # the fill rule below adds to the shared refusal

    @property
    def reserve(self) -> int:
        return self.by_kind[RESERVE][0]

    def after_move(self, st: State) -> None:
        reserve = self.reserve
        for t in self.by_kind[TABLEAU]:
            if st.piles[reserve] and not st.piles[t]:
                self.turn_tops(st)
                st.move_cards(reserve, t, 1)
        self.turn_tops(st)

    def late_fillers(self) -> str:
        """The piles that fill a column once the reserve is empty, as a player says them."""
        nouns = (self.pile_group[self.by_kind[k][0]].noun for k in self.late_fill)
        return " or ".join(f"the {noun}'s top card" for noun in nouns)

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        if self.pile_kinds[dst] == TABLEAU and not st.piles[dst]:
            if st.piles[self.reserve]:
                if src != self.reserve:
                    return Refusal("fill.reserve",
                                   "an empty column is filled from the reserve while it lasts")
            elif self.pile_kinds[src] not in self.late_fill:
                return Refusal("fill.waste", lambda: "once the reserve is empty, only "
                               + self.late_fillers() + " can fill an empty column")
        return super().target_refusal(st, src, dst, card, n)
