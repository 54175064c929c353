"""Triplets: remove three column tops in rank sequence (wrapping K-A); leave one card."""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import RANK, SUIT, show
from ..core import REMOVE, Move, Refusal, State
from ..mechanics.matching import Matching
from ..options import Fan, Fill
from ..piles import FOUNDATION, TABLEAU, Group
from ..registry import register

# The rank sets (0..12) of three consecutive ranks, K-A wrapping.
_STARTS = {frozenset({s, (s + 1) % 13, (s + 2) % 13}) for s in range(13)}


def in_sequence(r1: int, r2: int, r3: int) -> bool:
    """Three ranks (1..13) that run in a row, K-A wrapping (Q-K-A, K-A-2)."""
    return frozenset({r1 - 1, r2 - 1, r3 - 1}) in _STARTS


@register
class Triplets(Matching):
    id = "triplets"
    name = "Triplets"
    summary = ("Remove three column tops in rank sequence (K-A wraps: Q-K-A, K-A-2) until one "
               "card is left; a King left last triples the score. Difficult: a triplet may "
               "not be all of one suit.")
    sizes = (3,)
    remove_kinds = (TABLEAU,)
    remove_where = "the column tops"
    count_rule = "a triplet is three cards, one from each of three columns"

    def declare(self) -> tuple[Group, ...]:
        # Sixteen columns of 3 then two of 2: the text's order (docs/rules/triplets.md).
        return (
            Group(TABLEAU, 18, deal=(3,) * 16 + (2,) * 2, fill=Fill.NONE),
            Group(FOUNDATION, fan=Fan.NONE),
        )

    def set_refusal(self, st: State, cards: list[int]) -> Refusal | None:
        a, b, c = cards
        if not in_sequence(RANK[a], RANK[b], RANK[c]):
            return Refusal("triplets.not-sequence", lambda: (
                f"{show(a)}, {show(b)} and {show(c)} are not in sequence: a triplet is three "
                "ranks in a row, like 7-8-9 or K-A-2"))
        if not self.easy and SUIT[a] == SUIT[b] == SUIT[c]:
            return Refusal("triplets.one-suit", lambda: (
                f"{show(a)}, {show(b)} and {show(c)} are all one suit: in difficult a triplet "
                "may not be of a single suit"))
        return None

    def extra_moves(self, st: State) -> Iterable[Move]:
        piles = st.piles
        by_rank: list[list[int]] = [[] for _ in range(13)]
        for p in self.free_piles(st):
            by_rank[RANK[piles[p][-1]] - 1].append(p)
        out: list[tuple[int, ...]] = []
        for s in range(13):
            for p in by_rank[s]:
                for q in by_rank[(s + 1) % 13]:
                    for r in by_rank[(s + 2) % 13]:
                        if self.easy or not (
                            SUIT[piles[p][-1]] == SUIT[piles[q][-1]] == SUIT[piles[r][-1]]):
                            out.append(tuple(sorted((p, q, r))))
        for combo in sorted(out):
            yield Move(REMOVE, piles=combo)

    def won(self, st: State) -> bool:
        return len(st.piles[self.foundation]) == 51

    def score(self, st: State) -> int:
        removed = len(st.piles[self.foundation])
        if removed == 51:
            last = next(st.piles[t][0] for t in self.by_kind[TABLEAU] if st.piles[t])
            if RANK[last] == 13:
                return 3 * removed
        return removed
