"""Cards that must each go home before the other: a proof of loss where columns move their
runs only whole (docs/solver.md, The choice of moves).

Where a column's packed run moves only whole, its top card alone only to a foundation
(``Unit.PACKED``: Canfield difficult), a card lying on another in such a run leaves the
column only home, or with the run and still on that card: it goes home first. Where the
foundations build up in suit from a base and keep their cards, a card goes home before the
next card of its suit. A circle of such "goes home first" is a position no line can win:
every card of the circle waits for another. Columns that wrap King to Ace make such
circles: a run that passes the base has cards of higher foundation rank over lower ones,
and once one of them lies over a card of its own suit the deal is lost.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..core import State
from ..options import Base, Direction, Fill, Goal, SuitRule, Unit
from ..piles import FOUNDATION
from ..rules import RuleSet
from .board import STRIDE, Board
from .position import MOVE_HOOKS, own_hooks

NONE = 255


class HomeOrder:
    """The order in which cards must go home (module docstring), for one search: its
    foundations' base is fixed."""

    def __init__(self, columns: bytes, builds: bytes, following: bytes, rank: bytes) -> None:
        #: The columns whose runs move only whole, and per column its build table (52 x 52,
        #: one byte per under and over card).
        self.columns = columns
        self.builds = builds
        #: Per card: its rank on the foundations (0 for the base rank, 12 for the last).
        self.rank = rank
        #: Per card: the next card of its suit on the foundations (``NONE`` for the last).
        self.following = following
        #: Per card, its two "goes home first" successors (the card under it in a run, the
        #: next of its suit); the marks and stack of the walk that looks for a circle.
        self.after = bytearray(104)
        self.marks = bytearray(52)
        self.stack = bytearray(52)

    def hopeless(self, board: Board) -> cython.bint:
        """Whether some cards of the board's columns must each go home before the other."""
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        down: cython.p_uchar = board.down
        builds: cython.p_uchar = self.builds
        following: cython.p_uchar = self.following
        after: cython.p_uchar = self.after
        mark: cython.p_uchar = self.marks
        stack: cython.p_uchar = self.stack
        stride: cython.Py_ssize_t = STRIDE
        none: cython.Py_ssize_t = NONE
        p: cython.Py_ssize_t
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        c: cython.Py_ssize_t
        u: cython.Py_ssize_t
        v: cython.Py_ssize_t
        n: cython.Py_ssize_t
        table: cython.Py_ssize_t
        rank: cython.p_uchar = self.rank
        crossed: cython.bint = False
        # Going round a circle, the foundation rank falls only from a card to the one it
        # lies on (a suit's next card is higher): without a card on a lower one (in runs
        # built down, on a base-rank card), no circle.
        for k in range(len(self.columns)):
            p = self.columns[k]
            table = k * 2704
            for i in range(p * stride + max(down[p], 0) + 1, p * stride + size[p]):
                if rank[cards[i]] > rank[cards[i - 1]] and builds[
                        table + cards[i - 1] * 52 + cards[i]]:
                    crossed = True
                    break
        if not crossed:
            return False
        for c in range(52):
            after[2 * c] = none
            after[2 * c + 1] = following[c]
            mark[c] = 0
        for k in range(len(self.columns)):
            p = self.columns[k]
            table = k * 2704
            for i in range(p * stride + max(down[p], 0) + 1, p * stride + size[p]):
                if builds[table + cards[i - 1] * 52 + cards[i]]:
                    after[2 * cards[i]] = cards[i - 1]
        # A walk from each card of a run along the successors: a card met again while on
        # the walk's stack closes a circle (mark 1: on the stack; 2: nothing circles there).
        for k in range(len(self.columns)):
            p = self.columns[k]
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
    """``HomeOrder`` where it holds: columns whose runs move only whole (``Unit.PACKED``),
    four foundations that build up in suit from a base known at ``start`` and keep their
    cards, a game won by the foundations, and only the shared rules' moves."""
    if rules.goal != Goal.FOUNDATIONS or own_hooks(rules, (*MOVE_HOOKS, "_takes", "covered_by")):
        return None
    foundations = [g for g in rules.groups if g.kind == FOUNDATION]
    if len(foundations) != 1 or foundations[0].count != 4:
        return None
    found = foundations[0]
    build = found.build
    if (build is None or build.direction != Direction.UP or build.suit != SuitRule.SAME
            or build.closed or found.fill != Fill.BASE or found.to):
        return None
    base = start.vars.get("base", 0) if isinstance(rules.base, Base) else rules.base
    if not base or not (build.wrap or base == 1):
        return None  # the base still to choose, or cards below it that never go home
    columns: list[int] = []
    builds: list[bytes] = []
    for p, g in enumerate(rules.pile_group):
        if g.unit == Unit.PACKED and g.build is not None:
            columns.append(p)
            builds.append(g.build.table)
    if not columns:
        return None
    # Card c is suit c // 13, rank c % 13 + 1; the last of a suit is the base's lower rank.
    following = bytes(NONE if c % 13 + 1 == (base + 11) % 13 + 1
                      else c - c % 13 + (c % 13 + 1) % 13 for c in range(52))
    rank = bytes((c % 13 + 1 - base) % 13 for c in range(52))
    return HomeOrder(bytes(columns), b"".join(builds), following, rank)


__all__ = ["HomeOrder", "home_order"]
