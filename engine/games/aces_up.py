"""Aces Up: discard every top card beaten by a higher top card of its suit; keep the four Aces."""

from __future__ import annotations

from ..cards import RANK, SUIT, SUIT_NAMES, show
from ..core import MOVE, Move, Refusal, State
from ..options import Deals, Direction, Fan, Fill, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, WASTE, BeatenRule, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet

# Aces rank highest: the value each card compares by.
HIGH = tuple(14 if RANK[c] == 1 else RANK[c] for c in range(52))
SUIT_WORD = tuple(name[:-1] for name in SUIT_NAMES)  # club, diamond, heart, spade


@register
class AcesUp(RuleSet):
    id = "aces-up"
    name = "Aces Up"
    summary = ("Deal a card to each of four columns; a top card goes to the foundation when a "
               "higher card of its suit (Aces high) tops another column. Win with only the four "
               "Aces left. Easy adds a one-way waste for up to five cards.")
    stock = Stock(Deals.TABLEAU)
    discard = True  # a discard reads the other columns' top cards, never the foundation's
    # Its discards declared, for a solver's board; the hooks below judge them for play.
    beaten_rule = BeatenRule(kinds=(TABLEAU,))

    def declare(self) -> tuple[Group, ...]:
        to = (FOUNDATION, TABLEAU, WASTE) if self.easy else (FOUNDATION, TABLEAU)
        groups = [
            Group(TABLEAU, 4, deal=(1, 1, 1, 1), unit=Unit.TOP, to=to, fill=Fill.ANY),
            Group(FOUNDATION),
        ]
        if self.easy:
            # Waste cards never come back (docs/rules/aces-up.md): no unit, five cards in all.
            groups.append(Group(WASTE, capacity=5, build=Build(Direction.ANY), fan=Fan.RIGHT))
        groups.append(Group(STOCK_PILE))
        return tuple(groups)

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        kind = self.pile_kinds[dst]
        if kind == FOUNDATION:
            if n > 1:
                return Refusal("foundation.one", "cards go to a foundation one at a time")
            piles, suit, high = st.piles, SUIT[card], HIGH[card]
            for t in self.by_kind[TABLEAU]:
                if t != src and piles[t]:
                    top = piles[t][-1]
                    if SUIT[top] == suit and HIGH[top] > high:
                        return None
            return Refusal(
                "aces-up.not-beaten",
                lambda: f"{show(card)} can't be discarded: a higher {SUIT_WORD[suit]} "
                "(Aces high) must be the top card of another column")
        if kind == TABLEAU and st.piles[dst]:
            return Refusal("target.closed",
                           "a card moves to another column only when that column is empty")
        return super().target_refusal(st, src, dst, card, n)

    def costless(self, st: State, m: Move) -> bool:
        """A discard of a card with no lower card of its suit left in the columns or the
        stock can never cost a win: a card's one use is to beat lower cards of its suit
        (those in the waste stay there for good and need none), and anywhere but the
        foundation it only covers a column."""
        if m.kind != MOVE or self.pile_kinds[m.dst] != FOUNDATION:
            return False
        card = st.piles[m.src][-1]
        suit, high = SUIT[card], HIGH[card]
        piles = st.piles
        return not any(SUIT[c] == suit and HIGH[c] < high
                       for p in (*self.by_kind[TABLEAU], self.stock_pile) for c in piles[p])

    def won(self, st: State) -> bool:
        if st.piles[self.stock_pile]:
            return False
        return all(len(st.piles[t]) == 1 and RANK[st.piles[t][0]] == 1
                   for t in self.by_kind[TABLEAU])
