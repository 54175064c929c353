"""Shared by the games that clear sets of top cards to one foundation (Nestor, Isabel,
Triplets, Pyramid): a ``remove`` move naming every pile whose top card leaves."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import ClassVar

from ..cards import RANK, show
from ..core import REMOVE, Move, Refusal, State
from ..options import Kind, Play
from ..piles import FOUNDATION
from ..rules import RuleSet


def pair_refusal(game: str, cards: list[int]) -> Refusal | None:
    """Two cards leave together only when they share a rank."""
    a, b = cards
    if RANK[a] == RANK[b]:
        return None
    return Refusal(f"{game}.not-pair",
                   lambda: f"{show(a)} and {show(b)} are not a pair: a pair is two cards "
                   "of the same rank")


class Matching(RuleSet):
    """A removal takes the top card of each named pile (named once each, in layout order, so
    that every legal removal has exactly one form) to the single foundation."""

    sizes: ClassVar[tuple[int, ...]] = (2,)  # how many cards one removal takes
    remove_kinds: ClassVar[tuple[Kind, ...]] = ()  # the pile kinds cards are removed from
    remove_where: ClassVar[str] = ""  # those piles in words, for refusals
    count_rule: ClassVar[str] = "a pair is two cards"
    play = Play.REMOVE
    discard = True  # removals read the top cards of the other piles, never the foundation's

    def __init__(self, variant: str) -> None:
        super().__init__(variant)
        self.removable = [p for p, k in enumerate(self.pile_kinds) if k in self.remove_kinds]
        self.can_remove = [k in self.remove_kinds for k in self.pile_kinds]
        self.foundation = self.by_kind[FOUNDATION][0]
        self.partners: dict[int, tuple[int, ...]] = {}  # see ``costless``
        #: Each removable pile with the piles lying over it (``covered_by``), which must be
        #: empty before its top card may leave.
        covers = self.covered_by()
        self.exposure = [(p, covers.get(p, ())) for p in self.removable]
        self.over = dict(self.exposure)

    # ----- hooks for each game ----------------------------------------------------------

    def available(self, st: State, p: int) -> bool:
        """Whether the top card of removable pile ``p`` may leave: every pile lying over it
        (``covered_by``) is empty."""
        piles = st.piles
        return not any(piles[q] for q in self.over.get(p, ()))

    def exposure_refusal(self, st: State, p: int) -> Refusal | None:
        return None

    @abstractmethod
    def set_refusal(self, st: State, cards: list[int]) -> Refusal | None:
        """Whether these top cards (in the move's pile order) form a set that leaves, judged
        by the cards alone: the position only words a refusal (``costless`` remembers)."""

    # ----- generic removal --------------------------------------------------------------

    def free_piles(self, st: State) -> list[int]:
        """The removable piles whose top card may leave now, in layout order (``available``
        written out: a solver asks this at every position)."""
        piles, down = st.piles, st.down
        out = []
        for p, over in self.exposure:
            pile = piles[p]
            if pile and down[p] < len(pile):
                for q in over:
                    if piles[q]:
                        break
                else:
                    out.append(p)
        return out

    def extra_moves(self, st: State) -> Iterable[Move]:
        free = self.free_piles(st)
        piles = st.piles
        for k in self.sizes:
            for combo in combinations(free, k):
                if self.set_refusal(st, [piles[p][-1] for p in combo]) is None:
                    yield Move(REMOVE, piles=combo)

    def extra_refusal(self, st: State, move: Move) -> Refusal | None:
        if move.kind != REMOVE:
            return super().extra_refusal(st, move)
        chosen = move.piles
        names = self.pile_names
        if len(chosen) not in self.sizes:
            return Refusal("remove.count", self.count_rule)
        for i, p in enumerate(chosen):
            if p in chosen[:i]:
                return Refusal("remove.twice", f"{names[p]} is named twice: one card per pile")
            if i and p < chosen[i - 1]:
                order = "+".join(names[q] for q in sorted(chosen))
                return Refusal("remove.order",
                               f"name the piles in layout order, as in {order}")
        for p in chosen:
            pile = st.piles[p]
            if not self.can_remove[p]:
                return Refusal("remove.source",
                               f"cards can't be removed from {names[p]}: only from "
                               + self.remove_where)
            if not pile:
                return Refusal("source.empty", f"{names[p]} is empty")
            if st.down[p] >= len(pile):
                return Refusal("source.hidden", "face-down cards can't be removed")
            why = self.exposure_refusal(st, p)
            if why is not None:
                return why
        return self.set_refusal(st, [st.piles[p][-1] for p in chosen])

    def costless(self, st: State, m: Move) -> bool:
        """A removal of one card that no card still out could join in a set (Pyramid's
        Kings) can never cost a win: that card only ever leaves alone, and taking a card out
        of these games only uncovers others (a pile's next card, a card the removed one lay
        over; Pyramid's next flip then leaves its second waste uncovered), never covers or
        blocks one. A game of this kind where a removal could cost something overrides it."""
        if m.kind != REMOVE or len(m.piles) != 1 or any(k > 2 for k in self.sizes):
            return False
        if 2 not in self.sizes:
            return True
        card = st.piles[m.piles[0]][-1]
        partners = self.partners.get(card)
        if partners is None:  # the cards it pairs with, found once
            refusal = self.set_refusal
            partners = self.partners[card] = tuple(
                c for c in range(52) if c != card
                and (refusal(st, [card, c]) is None or refusal(st, [c, card]) is None))
        home = st.piles[self.foundation]
        return all(c in home for c in partners)

    def apply_extra(self, st: State, move: Move) -> None:
        f = self.foundation
        for p in move.piles:
            st.move_cards(p, f, 1)


def pairs_by_rank(st: State, free: list[int], total: int = 0) -> Iterator[Move]:
    """Removals of two cards among the free piles, in layout order, found by bucketing the
    ranks: two of one rank, or with ``total`` two ranks adding up to it (Pyramid's 13)."""
    seen: dict[int, list[int]] = {}
    piles = st.piles
    out: list[tuple[int, int]] = []
    for p in free:
        r = RANK[piles[p][-1]]
        for q in seen.get(total - r if total else r, ()):
            out.append((q, p))
        seen.setdefault(r, []).append(p)
    for pair in sorted(out):
        yield Move(REMOVE, piles=pair)
