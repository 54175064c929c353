"""Isabel: thirteen fans of four; remove pairs of equal rank from the tops."""

from __future__ import annotations

from collections.abc import Iterable

from ..core import Move, Refusal, State
from ..mechanics.matching import Matching, pair_refusal, pairs_by_rank
from ..options import Fan, Fill
from ..piles import FOUNDATION, TABLEAU, Group
from ..registry import register


@register
class Isabel(Matching):
    id = "isabel"
    name = "Isabel"
    variants = ("standard",)
    summary = ("Thirteen piles of four cards, all face up: remove pairs of the same rank "
               "from the pile tops until every card is gone.")
    remove_kinds = (TABLEAU,)
    remove_where = "the pile tops"

    def declare(self) -> tuple[Group, ...]:
        # The text's optional foundation holds the removed pairs, so the deck stays whole.
        return (
            Group(TABLEAU, 13, deal=(4,) * 13, fill=Fill.NONE),
            Group(FOUNDATION, fan=Fan.NONE),
        )

    def set_refusal(self, st: State, cards: list[int]) -> Refusal | None:
        return pair_refusal(self.id, cards)

    def extra_moves(self, st: State) -> Iterable[Move]:
        return pairs_by_rank(st, self.free_piles(st))
