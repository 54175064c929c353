"""Agnes Sorel: a Klondike triangle dealt face up, built down in colour from a dealt base."""

from __future__ import annotations

from ..core import Move, State
from ..mechanics.idle_swaps import idle_swap
from ..options import Base, Deals, Direction, Fill, SuitRule, Unit
from ..piles import FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, Build, Group, Stock
from ..registry import register
from ..rules import RuleSet


@register
class AgnesSorel(RuleSet):
    id = "agnes-sorel"
    name = "Agnes Sorel"
    variants = ("standard",)
    base = Base.DEALT
    # Seven at a time while more than two remain; the last two turn up onto r1 and r2 (23
    # cards: three deals of seven, then the two).
    stock = Stock(Deals.TABLEAU, rest=RESERVE)
    summary = ("Build the foundations up in suit from the dealt card's rank, wrapping K-A; "
               "seven face-up columns build down in the same colour, any card fills a space. "
               "The stock deals seven three times, then its last two cards turn up to play.")

    def declare(self) -> tuple[Group, ...]:
        return (
            Group(TABLEAU, 7, deal=(7, 6, 5, 4, 3, 2, 1),
                  build=Build(Direction.DOWN, SuitRule.COLOUR,
                              wrap=True), fill=Fill.ANY, unit=Unit.TAIL,
                  to=(TABLEAU, FOUNDATION)),
            # The stock's last two cards, face up and each playable; nothing goes on them.
            Group(RESERVE, 2, unit=Unit.TOP, fill=Fill.NONE, to=(TABLEAU, FOUNDATION)),
            Group(FOUNDATION, 4, deal=(1, 0, 0, 0),
                  build=Build(Direction.UP, SuitRule.SAME, wrap=True),
                  fill=Fill.BASE),
            Group(STOCK_PILE),
        )

    def useful(self, st: State, m: Move) -> bool:
        return super().useful(st, m) and not idle_swap(self, st, m)
