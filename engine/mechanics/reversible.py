"""Shared by games whose columns let a top card shuttle to and fro (Baker's Dozen,
Beleaguered Castle, Flower Garden): finding the positions where only such moves are left.

These games move single top cards only. A *reversible* move takes a column's top card to
another column from where it could come straight back: it lies face up on a card it builds
on (or alone in its column, which it may refill). Every other move puts a card on a
foundation, plays a reserve card, shows a face-down card or unpacks a column for good, so a
game makes only finitely many of them. A reversible move is therefore useful exactly when
some chain of reversible moves reaches a position with another move; when none does, the
game cannot change any more and is lost. Reversible moves change only the columns, so the
search runs on the columns alone (columns are interchangeable, so their order is ignored).
Past ``LIMIT`` positions the moves count as useful.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cards import RANK
from ..core import MOVE, Move, State
from ..piles import FOUNDATION, RESERVE, TABLEAU, Group
from ..rules import ANY_FILL, KING_FILL, RuleSet

LIMIT = 5_000
MEMO = 100_000  # column positions remembered, all states of the foundations together

Column = tuple[int, tuple[int, ...]]  # (face-down count, cards bottom up)


def _fills(g: Group, card: int) -> bool:
    return g.fill == ANY_FILL or (g.fill == KING_FILL and RANK[card] == 13)


def reversible(rules: RuleSet, st: State, m: Move) -> bool:
    """One column card to another column, from where it could move straight back."""
    if m.kind != MOVE or m.n != 1:
        return False
    kinds = rules.pile_kinds
    if kinds[m.src] != TABLEAU or kinds[m.dst] != TABLEAU:
        return False
    pile = st.piles[m.src]
    g = rules.pile_group[m.src]
    if len(pile) == 1:
        return _fills(g, pile[0])
    if st.down[m.src] >= len(pile) - 1 or g.build is None:
        return False
    return bool(g.build.table[pile[-2] * 52 + pile[-1]])


def alive(rules: RuleSet, st: State, known: Mapping[tuple[Column, ...], bool] | None = None
          ) -> tuple[bool, set[tuple[Column, ...]]]:
    """Whether reversible moves from ``st`` can reach a position with another legal move,
    and the positions searched: all of them share the answer (the moves go both ways), so
    the search stops at a position of ``known`` (answers with the same cards off the
    columns) and gives its answer."""
    known = known or {}
    cols = rules.by_kind[TABLEAU]
    g = rules.pile_group[cols[0]]
    fits = g.build.table if g.build else bytes(52 * 52)
    cap = g.capacity or 99
    wanted = bytearray(52)  # the cards a foundation takes now (they stay put meanwhile)
    for f in rules.by_kind[FOUNDATION]:
        pile, build = st.piles[f], rules.pile_group[f].build
        if pile and build:
            table, top = build.table, pile[-1] * 52
            for c in range(52):
                if table[top + c]:
                    wanted[c] = 1
        elif not pile:
            base = st.vars.get("base", 1)
            for c in range(52):
                if RANK[c] == base:
                    wanted[c] = 1
    reserve = [st.piles[r][-1] for r in rules.by_kind.get(RESERVE, ()) if st.piles[r]]
    start = _columns(rules, st)
    seen = {start}
    if any(wanted[c] for c in reserve):
        return True, seen

    def expand(pos: tuple[Column, ...]) -> list[tuple[Column, ...]] | None:
        """The positions one reversible move away, or ``None`` when another move exists."""
        out = []
        n = len(pos)
        for i in range(n):
            down, cards = pos[i]
            if not cards:
                continue
            x = cards[-1]
            if wanted[x]:
                return None
            size = len(cards)
            back = _fills(g, x) if size == 1 else down < size - 1 and fits[cards[-2] * 52 + x]
            for j in range(n):
                if j == i:
                    continue
                d2, c2 = pos[j]
                if c2:
                    if len(c2) >= cap or not fits[c2[-1] * 52 + x]:
                        continue
                elif not _fills(g, x) or size == 1:
                    continue  # a lone card to an empty column changes nothing
                if not back:
                    return None
                nxt = list(pos)
                nxt[i] = (down, cards[:-1])
                nxt[j] = (d2, (*c2, x))
                out.append(tuple(sorted(nxt)))
        for r in reserve:
            for _, c2 in pos:
                if (fits[c2[-1] * 52 + r] and len(c2) < cap) if c2 else _fills(g, r):
                    return None
        return out

    todo = [start]
    while todo:
        nxt = expand(todo.pop())
        if nxt is None:
            return True, seen
        for pos in nxt:
            if pos not in seen:
                if pos in known:
                    return known[pos], seen
                if len(seen) >= LIMIT:
                    return True, seen
                seen.add(pos)
                todo.append(pos)
    return False, seen


def _columns(rules: RuleSet, st: State) -> tuple[Column, ...]:
    return tuple(sorted((st.down[t], tuple(st.piles[t])) for t in rules.by_kind[TABLEAU]))


class ReversibleMixin(RuleSet):
    """``useful`` for games with reversible column moves (see the module docstring)."""

    def __init__(self, variant: str) -> None:
        super().__init__(variant)
        # Answers by the cards off the columns, then by column position: one search answers
        # for every position it met. Status asks once per move of a position, random play
        # wanders one region for long, and a solver comes back to the same foundations
        # again and again (on Baker's Dozen, over half the searches it asked for were of
        # positions an earlier search had met). At most MEMO positions in all.
        self._memos: dict[object, dict[tuple[Column, ...], bool]] = {}
        self._remembered = 0

    def useful(self, st: State, m: Move) -> bool:
        if not super().useful(st, m):
            return False
        if not reversible(self, st, m):
            return True
        off = tuple(tuple(st.piles[p]) for p in self.off_columns)
        memo = self._memos.get(off)
        if memo is not None:
            known = memo.get(_columns(self, st))
            if known is not None:
                return known
        answer, seen = alive(self, st, memo)
        if self._remembered + len(seen) > MEMO:
            self._memos, self._remembered, memo = {}, 0, None
        if memo is None:
            memo = self._memos[off] = {}
        memo.update(dict.fromkeys(seen, answer))
        self._remembered += len(seen)
        return answer

    def searched(self, st: State, m: Move) -> bool:
        return reversible(self, st, m)

    @property
    def off_columns(self) -> list[int]:
        return [p for p, k in enumerate(self.pile_kinds) if k != TABLEAU]
