"""The end-of-game rule of games whose column moves can go round in circles (Fortress,
Shamrocks, Bristol): a column move is useful only while it can still lead to progress."""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Any

from ..cards import RANK
from ..core import MOVE, Move, State
from ..options import Fill
from ..piles import FOUNDATION, TABLEAU, WASTE, Build
from ..rules import RuleSet


class CircularColumns(RuleSet):
    """A game that ends when no card can ever reach a foundation again.

    When columns build both ways (or several columns take the same card), cards can be moved
    back and forth for ever, so "a legal move is left" never ends the game. Here a
    column-to-column move is useful only while some *progress* can still be reached by column
    moves alone: a card to a foundation, a waste card played, or a stock deal. The search
    walks column positions best first (columns are interchangeable, so a position is the
    sorted tuple of its columns). Its answer depends on the position alone: alive when
    progress is reachable or more than ``search_limit`` positions are reachable, dead
    otherwise. Answers are remembered per foundations-and-wastes context: every position a
    dead search reached is dead (it reaches no more); a position whose search ran past the
    limit is alive, and so is every position on a path to a live one (it reaches all that
    one does). So play inside a dead end, along a found path or back at a position too far
    to tell costs one lookup, also after the foundations have changed and changed back, as
    they do all the time under a solver.
    """

    search_limit: int = 1500

    def __init__(self, variant: str) -> None:
        super().__init__(variant)
        # Exact answers (dead, alive) by foundations-and-wastes context, at most MEMO in all.
        self._memos: dict[Any, tuple[set[Node], set[Node]]] = {}
        build = self.pile_group[self.by_kind[TABLEAU][0]].build
        assert build is not None
        self._ranks_fit = _rank_table(build)
        # The last foundations' tops, what they take, and each card as the column search
        # sees it (``seen_as``): asked at nearly every position of a search, where the
        # foundations change far less often than the columns.
        self._accepts: tuple[Any, list[bool], bytes] = (None, [], b"")

    def useful(self, st: State, m: Move) -> bool:
        if not super().useful(st, m):
            return False
        return self.progress_reachable(st) if self.searched(st, m) else True

    def searched(self, st: State, m: Move) -> bool:
        kinds = self.pile_kinds
        return m.kind == MOVE and kinds[m.src] == TABLEAU and kinds[m.dst] == TABLEAU

    def foundation_accepts(self, st: State) -> list[bool]:
        """Per card: may it go onto some foundation now? The list is kept for the next call
        with the same foundation tops: read it, never change it."""
        return self._foundations(st)[0]

    def _foundations(self, st: State) -> tuple[list[bool], bytes]:
        """``foundation_accepts``, and a table that turns each card into what the column
        search sees of it (its rank, and ``GOAL`` if it could leave the columns), for
        ``bytes.translate``."""
        base = st.vars.get("base", 1)
        tops = (base, *(st.piles[f][-1] if st.piles[f] else -1 for f in self.by_kind[FOUNDATION]))
        last = self._accepts  # read and replaced whole, so a concurrent caller can't mix tops
        if last[0] == tops:
            return last[1], last[2]
        ok = [False] * 52
        for f in self.by_kind[FOUNDATION]:
            pile = st.piles[f]
            if pile:
                table = self.pile_group[f].build.table  # type: ignore[union-attr]
                row = pile[-1] * 52
                for c in range(52):
                    if table[row + c]:
                        ok[c] = True
            else:
                for c in range(52):
                    if base == 0 or RANK[c] == base:
                        ok[c] = True
        seen_as = bytes(RANK[c] | (GOAL if ok[c] else 0) for c in range(52)) + bytes(204)
        self._accepts = (tops, ok, seen_as)
        return ok, seen_as

    def progress_reachable(self, st: State) -> bool:
        """Whether column moves alone can reach a move that changes more than the columns.

        Columns build in any suit here, so the search sees a card as its rank alone, except
        the cards that could leave the columns (marked ``GOAL``): far fewer positions. A
        column is a ``bytes`` of those, made by one ``translate``: most calls end at the first
        position, found in the memo, and making it is most of their cost.
        """
        if self.stock_pile >= 0 and st.piles[self.stock_pile]:
            return True
        cols = self.by_kind[TABLEAU]
        group = self.pile_group[cols[0]]
        cap, fill = group.capacity, group.fill
        ranks_fit = self._ranks_fit
        accept, seen_as = self._foundations(st)
        wastes = tuple(st.piles[w][-1] for w in self.by_kind.get(WASTE, ()) if st.piles[w])
        if any(accept[w] for w in wastes):
            return True
        wranks = tuple(RANK[w] for w in wastes)
        piles = st.piles
        start = tuple(sorted([bytes(piles[p]).translate(seen_as) for p in cols]))
        context = (seen_as, wranks)
        memos = self._memos
        memo = memos.get(context)
        if memo is None or len(memo[0]) + len(memo[1]) > MEMO:
            if memo is None and sum(len(d) + len(a) for d, a in memos.values()) > MEMO:
                memos.clear()
            memo = memos[context] = (set(), set())
        dead, alive = memo
        if start in dead:
            return False
        if start in alive or _cover(start) == 0:
            return True

        any_fills, kings_fill = fill == Fill.ANY, fill == Fill.KING

        def fills(r: int) -> bool:
            return any_fills or (kings_fill and r & 15 == 13)

        def found(end: Node) -> bool:
            """Remember the path from the start to a live position: all of it is alive."""
            node: Node | None = end
            while node is not None:
                alive.add(node)
                node = seen[node]
            return True

        # Best first: the positions whose nearest leaving card lies under fewest cards.
        seen: dict[Node, Node | None] = {start: None}
        heap = [(_cover(start), 0, start)]
        limit, tick = self.search_limit, 0
        while heap:
            node = heappop(heap)[2]
            for w in wranks:
                for pile in node:
                    if (ranks_fit[pile[-1] & 15][w] and not (cap and len(pile) >= cap)) if pile \
                            else fills(w):
                        return found(node)
            for i, pile in enumerate(node):
                if not pile:
                    continue
                c = pile[-1]
                for j, other in enumerate(node):
                    if j == i:
                        continue
                    if other:
                        if (cap and len(other) >= cap) or not ranks_fit[other[-1] & 15][c & 15]:
                            continue
                    elif len(pile) == 1 or not fills(c):
                        continue
                    new = list(node)
                    new[i] = pile[:-1]
                    new[j] = other + bytes((c,))
                    key = tuple(sorted(new))
                    if key not in seen:
                        seen[key] = node
                        if key in alive or _cover(key) == 0:
                            return found(key)
                        if len(seen) > limit:
                            return found(start)  # too far to tell: taken as alive
                        tick += 1
                        heappush(heap, (_cover(key), tick, key))
        dead.update(seen)
        return False


Node = tuple[bytes, ...]  # the columns, sorted, each card as ``_foundations`` sees it
MEMO = 200_000  # remembered column positions, all contexts together
GOAL = 16  # marks, in the search's rank-only cards, a card that could leave the columns


#: ``bytes.translate`` table: 1 for a card marked ``GOAL``, 0 for any other.
_MARKED = bytes(1 if b & GOAL else 0 for b in range(256))


def _cover(node: Node) -> int:
    """How many cards lie on the least covered leaving card (99: none is left). Each pile's
    last leaving card is found in C (``translate``, ``rfind``): the search asks this of every
    position it makes."""
    best = 99
    for pile in node:
        at = pile.translate(_MARKED).rfind(1)
        if at >= 0 and len(pile) - 1 - at < best:
            best = len(pile) - 1 - at
    return best


def _rank_table(build: Build) -> list[list[bool]]:
    """``table[under][over]`` by rank alone, for builds in any suit."""
    return [[u in build.by_rank[o] if 1 <= o <= 13 else False for o in range(14)]
            for u in range(14)]
