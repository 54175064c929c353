"""Cards that must each go home before the other: a proof of loss for columns whose cards
stay on the cards they lie on (docs/solver.md, The choice of moves).

A card lying on another in a built run of a column leaves that card only home, or at the
bottom of a run that moves onto another card that takes it (a run moved from lower down
carries both). Where a column's packed run moves only whole (``Unit.PACKED``: Canfield
difficult), it never leaves but home; where any run moves (``Unit.TAIL``) and no run goes
into a space (Canfield easy: only the reserve and the waste fill them), it never leaves
once every other card it could lie on is home, as foundations that keep their cards keep
them. Such a card goes home first. Where the foundations build up in suit from a base, a
card goes home before the next card of its suit. A circle of such "goes home first" is a
position no line can win: every card of the circle waits for another, and no move undoes
an order. Columns that wrap King to Ace make such circles: a run that passes the base has
cards of higher foundation rank over lower ones, and once one of them lies over a card of
its own suit the deal is lost.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..core import State
from ..options import Base, Direction, Fill, Goal, SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU
from ..rules import RuleSet
from .board import STRIDE, Board
from .position import MOVE_HOOKS, own_hooks

NONE = 255
#: The most cards one card may lie on (in any suit, the four of the next rank).
PARENTS = 4


class HomeOrder:
    """The order in which cards must go home (module docstring), for one search: its
    foundations' base is fixed."""

    def __init__(self, columns: bytes, build: bytes, whole: bool, parents: bytes,
                 foundations: bytes, following: bytes, rank: bytes) -> None:
        #: The columns, their build table (52 x 52, one byte per under and over card) and
        #: whether their runs move only whole; per card the cards it may lie on
        #: (``PARENTS`` each, ``NONE`` for none); the foundations.
        self.columns = columns
        self.build = build
        self.whole = whole
        self.parents = parents
        self.foundations = foundations
        #: Per card: its rank on the foundations (0 for the base rank, 12 for the last).
        self.rank = rank
        #: Per card: the next card of its suit on the foundations (``NONE`` for the last).
        self.following = following
        #: Per card, its two "goes home first" successors (the card under it in a run, the
        #: next of its suit); the marks and stack of the walk that looks for a circle; which
        #: cards are home.
        self.after = bytearray(104)
        self.marks = bytearray(52)
        self.stack = bytearray(52)
        self.home = bytearray(52)

    def stays(self, over: cython.Py_ssize_t, under: cython.Py_ssize_t) -> cython.bint:
        """Whether ``over``, built on ``under`` in a column whose runs move in parts, leaves
        it only home: every other card it could lie on is home (``home`` up to date)."""
        parents: cython.p_uchar = self.parents
        home: cython.p_uchar = self.home
        j: cython.Py_ssize_t
        for j in range(PARENTS * over, PARENTS * over + PARENTS):
            if parents[j] != NONE and parents[j] != under and not home[parents[j]]:
                return False
        return True

    def hopeless(self, board: Board) -> cython.bint:
        """Whether some cards of the board's columns must each go home before the other."""
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        down: cython.p_uchar = board.down
        build: cython.p_uchar = self.build
        following: cython.p_uchar = self.following
        rank: cython.p_uchar = self.rank
        after: cython.p_uchar = self.after
        mark: cython.p_uchar = self.marks
        stack: cython.p_uchar = self.stack
        home: cython.p_uchar = self.home
        stride: cython.Py_ssize_t = STRIDE
        none: cython.Py_ssize_t = NONE
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        c: cython.Py_ssize_t
        u: cython.Py_ssize_t
        v: cython.Py_ssize_t
        n: cython.Py_ssize_t
        crossed: cython.bint = False
        whole: cython.bint = self.whole
        if not whole:
            for c in range(52):
                home[c] = 0
            for p in self.foundations:
                for i in range(p * stride, p * stride + size[p]):
                    home[cards[i]] = 1
        # Going round a circle, the foundation rank falls only from a card to the one it
        # lies on (a suit's next card is higher): without such an order of a card on a
        # lower one (in runs built down, on a base-rank card), no circle.
        for p in self.columns:
            for i in range(p * stride + max(down[p], 0) + 1, p * stride + size[p]):
                if (rank[cards[i]] > rank[cards[i - 1]] and build[cards[i - 1] * 52 + cards[i]]
                        and (whole or self.stays(cards[i], cards[i - 1]))):
                    crossed = True
                    break
        if not crossed:
            return False
        for c in range(52):
            after[2 * c] = none
            after[2 * c + 1] = following[c]
            mark[c] = 0
        for p in self.columns:
            for i in range(p * stride + max(down[p], 0) + 1, p * stride + size[p]):
                if build[cards[i - 1] * 52 + cards[i]] and (
                        whole or self.stays(cards[i], cards[i - 1])):
                    after[2 * cards[i]] = cards[i - 1]
        # A walk from each card of a run along the successors: a card met again while on
        # the walk's stack closes a circle (mark 1: on the stack; 2: nothing circles there).
        for p in self.columns:
            for i in range(p * stride, p * stride + size[p]):
                if mark[cards[i]]:
                    continue
                n = 1
                stack[0] = cards[i]
                mark[cards[i]] = 1
                while n:
                    u = stack[n - 1]
                    v = none
                    for c in range(2 * u, 2 * u + 2):
                        if after[c] != none:
                            if mark[after[c]] == 1:
                                return True
                            if not mark[after[c]]:
                                v = after[c]
                                break
                    if v == none:
                        mark[u] = 2
                        n -= 1
                    else:
                        mark[v] = 1
                        stack[n] = v
                        n += 1
        return False


def home_order(rules: RuleSet, start: State) -> HomeOrder | None:
    """``HomeOrder`` where it holds: one group of columns whose runs move only whole
    (``Unit.PACKED``), or any run (``Unit.TAIL``) but never into a space, to other columns
    and foundations alone; four foundations that build up in suit from a base known at
    ``start`` and keep their cards; a game won by the foundations; only the shared rules'
    moves."""
    if rules.goal != Goal.FOUNDATIONS or own_hooks(rules, (*MOVE_HOOKS, "_takes", "covered_by")):
        return None
    foundations = [g for g in rules.groups if g.kind == FOUNDATION]
    tableau = [g for g in rules.groups if g.kind == TABLEAU]
    if len(foundations) != 1 or foundations[0].count != 4 or len(tableau) != 1:
        return None
    found, col = foundations[0], tableau[0]
    build = found.build
    if (build is None or build.direction != Direction.UP or build.suit != SuitRule.SAME
            or build.closed or found.fill != Fill.BASE or found.to):
        return None
    base = start.vars.get("base", 0) if isinstance(rules.base, Base) else rules.base
    if not base or not (build.wrap or base == 1):
        return None  # the base still to choose, or cards below it that never go home
    spaces_take_runs = col.fill != Fill.NONE and (not col.fill_from or TABLEAU in col.fill_from)
    if (col.build is None or not set(col.to) <= {TABLEAU, FOUNDATION}
            or col.unit not in (Unit.PACKED, Unit.TAIL)
            or (col.unit == Unit.TAIL and spaces_take_runs)):
        return None
    rows = col.build.rows
    parents = bytearray()
    for over in range(52):
        under = [u for u in range(52) if rows[u][over]]
        if len(under) > PARENTS:
            return None
        parents += bytes(under) + bytes([NONE] * (PARENTS - len(under)))
    # Card c is suit c // 13, rank c % 13 + 1; the last of a suit is the base's lower rank.
    following = bytes(NONE if c % 13 + 1 == (base + 11) % 13 + 1
                      else c - c % 13 + (c % 13 + 1) % 13 for c in range(52))
    rank = bytes((c % 13 + 1 - base) % 13 for c in range(52))
    return HomeOrder(bytes(rules.by_kind[TABLEAU]), col.build.table, col.unit == Unit.PACKED,
                     bytes(parents), bytes(rules.by_kind[FOUNDATION]), following, rank)


__all__ = ["HomeOrder", "home_order"]
