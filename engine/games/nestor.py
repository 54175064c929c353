"""Nestor: remove pairs of equal rank from the column tops and the open reserve."""

from __future__ import annotations

from collections.abc import Iterable

from ..core import Move, Refusal, State
from ..mechanics.matching import Matching, pair_refusal, pairs_by_rank
from ..options import Fan, Fill
from ..piles import FOUNDATION, RESERVE, TABLEAU, Group
from ..registry import register


@register
class Nestor(Matching):
    id = "nestor"
    name = "Nestor"
    summary = ("Remove pairs of the same rank to the foundation, from the column tops and "
               "any reserve card. Easy: six columns of 7 and 10 reserve cards; difficult: "
               "six columns of 8 and 4 reserve cards.")
    remove_kinds = (TABLEAU, RESERVE)
    remove_where = "the column tops and the reserve"

    def declare(self) -> tuple[Group, ...]:
        # Every reserve card is available (docs/rules/nestor.md): one reserve cell per card.
        size, reserve = (7, 10) if self.easy else (8, 4)
        return (
            Group(TABLEAU, 6, deal=(size,) * 6, fill=Fill.NONE),
            Group(RESERVE, reserve, deal=(1,) * reserve, fill=Fill.NONE, fan=Fan.NONE),
            Group(FOUNDATION, fan=Fan.NONE),
        )

    def set_refusal(self, st: State, cards: list[int]) -> Refusal | None:
        return pair_refusal(self.id, cards)

    def extra_moves(self, st: State) -> Iterable[Move]:
        return pairs_by_rank(st, self.free_piles(st))
