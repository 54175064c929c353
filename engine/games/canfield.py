"""Canfield: a squared reserve feeds empty columns; foundations build up from a dealt base."""

from __future__ import annotations

from ..cards import RANK, RED
from ..core import MOVE, Move, Refusal, State
from ..options import Base, Deals, Direction, Fan, Fill, SuitRule, Unit
from ..registry import register
from ..rules import (
    FOUNDATION,
    RESERVE,
    STOCK_PILE,
    TABLEAU,
    WASTE,
    WORD,
    Build,
    Group,
    RuleSet,
    Stock,
)


def idle_swap(rules: RuleSet, st: State, m: Move) -> bool:
    """Whether ``m`` only swaps a packed tail between two equivalent cards and gains nothing.

    Such a move lifts a tail off card X onto card Y of the same rank and colour (so it could
    go straight back), where the build depends only on rank and colour: whatever fits on X
    fits on Y, so the one thing the move can gain is X itself becoming free. When X cannot go
    to a foundation and no packed tail topped by X can go anywhere, the move changes nothing
    a later move could not do at the time X is needed; two such tails could otherwise shuttle
    for ever and a lost game would never end.
    """
    if m.kind != MOVE or rules.pile_kinds[m.src] != TABLEAU or rules.pile_kinds[m.dst] != TABLEAU:
        return False
    src, dst, n = m.src, m.dst, m.n
    pile, target = st.piles[src], st.piles[dst]
    build = rules.pile_group[src].build
    if (not target or build is None
            or build.suit not in (SuitRule.ALTERNATE, SuitRule.COLOUR, SuitRule.ANY)
            or len(pile) - n <= st.down[src] or rules.pile_group[dst].build != build):
        return False
    fits = build.table
    x, y, bottom = pile[-n - 1], target[-1], pile[-n]
    if RANK[x] != RANK[y] or RED[x] != RED[y] or not fits[x * 52 + bottom]:
        return False
    for f in rules.by_kind.get(FOUNDATION, ()):
        if rules.target_refusal(st, src, f, x, 1) is None:
            return False
    # The tails that X would top, as this pile's unit rule lets them leave.
    top = len(pile) - n - 1
    i = top
    while i > st.down[src] and fits[pile[i - 1] * 52 + pile[i]]:
        i -= 1
    run = top - i + 1
    unit = rules.pile_group[src].unit
    sizes = (1,) if unit == Unit.TOP else (1, run) if unit == Unit.WHOLE else range(1, run + 1)
    for k in sizes:
        card = pile[top - k + 1]
        for q in rules.targets[src]:
            if q == dst:
                if fits[pile[-1] * 52 + card]:  # the moved tail's top now lies on Y
                    return False
            elif rules.target_refusal(st, src, q, card, k) is None:
                return False
    return True


class ReserveFill(RuleSet):
    """A squared reserve that fills empty columns by itself (Canfield, Eagle Wing).

    While the reserve holds cards, an emptied column takes its top card at once (a journaled
    step of the move that emptied it); once the reserve is empty, only the kinds in
    ``late_fill`` may start an empty column.
    """

    late_fill: tuple[str, ...] = (WASTE,)

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

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        if self.pile_kinds[dst] == TABLEAU and not st.piles[dst]:
            if st.piles[self.reserve]:
                if src != self.reserve:
                    return Refusal("fill.reserve",
                                   "an empty column is filled from the reserve while it lasts")
            elif self.pile_kinds[src] not in self.late_fill:
                return Refusal("fill.waste", lambda: "once the reserve is empty, only "
                               + " or ".join(f"the {WORD[k]}'s top card" for k in self.late_fill)
                               + " can fill an empty column")
        return super().target_refusal(st, src, dst, card, n)


@register
class Canfield(ReserveFill):
    id = "canfield"
    name = "Canfield"
    base = Base.DEALT
    stock = Stock(Deals.WASTE, draw=3, passes=0)
    summary = ("Build the foundations up in suit from the dealt card's rank, wrapping K-A; four "
               "columns build down in alternating colours and refill from a squared reserve. "
               "Draw three, unlimited passes; difficult has a 14-card reserve and moves only "
               "whole packed runs.")

    def declare(self) -> tuple[Group, ...]:
        size = 10 if self.easy else 14
        return (
            Group(TABLEAU, 4, deal=(1, 1, 1, 1),
                  build=Build(Direction.DOWN, SuitRule.ALTERNATE, wrap=True),
                  fill=Fill.ANY, unit=Unit.TAIL if self.easy else Unit.WHOLE,
                  to=(TABLEAU, FOUNDATION)),
            # Squared: all face down but the top card, which turns up when exposed.
            Group(RESERVE, deal=(size,), down=(size - 1,), unit=Unit.TOP,
                  to=(TABLEAU, FOUNDATION), fill=Fill.NONE, turn_up=True),
            Group(FOUNDATION, 4, deal=(1, 0, 0, 0),
                  build=Build(Direction.UP, SuitRule.SAME, wrap=True),
                  fill=Fill.BASE),
            Group(STOCK_PILE),
            Group(WASTE, unit=Unit.TOP, to=(TABLEAU, FOUNDATION), fan=Fan.RIGHT),
        )

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        # Difficult: between columns only the whole packed run moves; the top card alone may
        # still go to a foundation (else no column card could ever reach one).
        kinds = self.pile_kinds
        if (not self.easy and kinds[src] == TABLEAU and kinds[dst] == TABLEAU
                and n != self.run_length(st, src)):
            return Refusal("unit.whole", "only the whole packed run can move to another column")
        return super().target_refusal(st, src, dst, card, n)

    def useful(self, st: State, m: Move) -> bool:
        """An idle tail shuttle (``idle_swap``) is not useful either, unless some waste card
        fits somewhere: then a later pass might still play it, so the game stays open."""
        if not super().useful(st, m):
            return False
        if not (self.easy and idle_swap(self, st, m)):
            return True
        w = self.by_kind[WASTE][0]
        return any(self.target_refusal(st, w, q, c, 1) is None
                   for c in st.piles[w] for q in self.targets[w])
