"""Best-first search: the most advanced position met so far is expanded next.

The depth-first search (``depth.py``) wins most deals in a few thousand positions, but when
its first choices were wrong it can spend any budget under them. This search looks at every
open position at once and expands the one with the most cards on the foundations and the
fewest face down or blocked (``Promise``), the newest first among equals, so a wrong early
choice costs only the positions under it that look promising.

It tries the same moves (``depth.Choice``) and keys positions the same way, so it is as
sound: every position it meets is kept in the table, and when none is left open every
reachable position was searched. Narrowed (``narrow=True``) it tries fewer moves, finds most
wins much sooner, and proves nothing when it runs dry, unless it had no move to leave out.
The winning line is read back through each position's parent. A position waiting in the
queue is its board's ``pack``, made a position again with ``unpack``.
"""

from __future__ import annotations

import contextlib
import heapq
import time
from collections.abc import Callable, Mapping
from typing import Any

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK, SUIT
from ..core import PLAYING, WON, Move, State
from ..options import Direction, SuitRule, Unit
from ..piles import FOUNDATION, GRID, RESERVE, TABLEAU
from ..rules import RuleSet
from . import depth
from .board import DEAL, STRIDE, Board
from .gap_board import neighbours
from .verdict import Outcome, Verdict

#: Per card: its rank and suit, as bytes a C loop reads.
RANKS, SUITS = bytes(RANK), bytes(SUIT)
#: Pile kinds played from the top only, where a card lying on one of lower rank has to
#: move before that one can go home: such a card counts as blocked in ``Promise``.
BLOCKING_KINDS = (TABLEAU, RESERVE)
#: What each card lying on the card its suit's foundation needs next costs in ``Promise``.
BURIED = 2


class Promise:
    """How far along a position is: three per card on a foundation, less one per card face
    down and one per card **blocked** (lying above a card of lower rank in a pile of
    ``BLOCKING_KINDS``: one the foundations take later). Declared by pile kind, by the deal
    and by the foundations' building rule; where they wrap from King to Ace, ranks count from
    their base once it is known.

    Why: in an open game the blocked cards are what guides the search (best first won 20 of
    20 Eight Off deals in 17,000 positions in all with them, 15 in 180,000 without). Where
    cards lie face down the face-down count guides it, and blocked cards count only in piles
    whose cards leave one at a time (``Unit.TOP``: Baker's Dozen); there, where the
    foundations build up in suit, each card lying on the card its suit needs next costs
    ``BURIED`` more (docs/solver.md)."""

    def __init__(self, rules: RuleSet) -> None:
        founds = tuple(rules.by_kind.get(FOUNDATION, ()))
        dealt_down = any(g.down for g in rules.groups)
        self.founds = bytes(founds)
        self.blocking = bytes(p for p, g in enumerate(rules.pile_group)
                              if g.kind in BLOCKING_KINDS
                              and (not dealt_down or g.unit == Unit.TOP))
        build = rules.pile_group[founds[0]].build if founds else None
        self.needs = (dealt_down and bool(self.blocking) and build is not None
                      and build.direction == Direction.UP and build.suit == SuitRule.SAME
                      and (build.wrap or rules.base == 1))
        self.wraps = build is not None and build.wrap
        #: Where cards are slid into a grid's gaps (``GapRule``): its cells, a row's length,
        #: the rank a row starts with, and per card the card that follows it in a row.
        gap = rules.gap_rule
        grid = rules.by_kind.get(GRID, [])
        self.cells = len(grid) if gap is not None and grid else 0
        self.columns = rules.pile_group[grid[0]].columns if self.cells else 0
        self.start = gap.start if gap is not None else 0
        self.after = neighbours(gap)[0] if gap is not None else bytes(52)

    def placed(self, board: Board) -> cython.Py_ssize_t:
        """The grid's cards in place: each row's unbroken run from its first cell, from
        the start rank by the build (Gaps' score)."""
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        after: cython.p_uchar = self.after
        rank_of: bytes = RANKS
        ranks: cython.p_uchar = rank_of
        stride: cython.Py_ssize_t = STRIDE
        columns: cython.Py_ssize_t = self.columns
        g: cython.Py_ssize_t
        n: cython.Py_ssize_t
        out: cython.Py_ssize_t = 0
        for g in range(0, self.cells, columns):
            if not size[g] or ranks[cards[g * stride]] != self.start:
                continue
            out += 1
            for n in range(g + 1, g + columns):
                if not size[n] or cards[n * stride] != after[cards[(n - 1) * stride]]:
                    break
                out += 1
        return out

    def score(self, board: Board) -> cython.Py_ssize_t:
        board.ready()
        if self.cells:
            return 3 * self.placed(board)
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        down: cython.p_uchar = board.down
        rank_of: bytes = RANKS
        ranks: cython.p_uchar = rank_of
        suit_of: bytes = SUITS
        suits: cython.p_uchar = suit_of
        stride: cython.Py_ssize_t = STRIDE
        needed = bytearray(b"\xff" * 4)  # by suit: the card its foundation needs next
        need: cython.p_uchar = needed
        f: cython.Py_ssize_t
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        c: cython.Py_ssize_t
        r: cython.Py_ssize_t
        low: cython.Py_ssize_t
        home: cython.Py_ssize_t = 0
        hidden: cython.Py_ssize_t = 0
        blocked: cython.Py_ssize_t = 0
        buried: cython.Py_ssize_t = 0
        base: cython.Py_ssize_t = board.vars[0] if self.wraps else 1
        shift: cython.Py_ssize_t = 0  # ranks from the foundations' base (``promise``)
        if self.wraps and base:
            shift = 14 - base
        if self.needs and base:
            for i in range(4):
                need[i] = i * 13 + base - 1  # the base card
            for f in self.founds:
                if size[f]:
                    c = cards[f * stride + size[f] - 1]
                    need[suits[c]] = 255 if size[f] == 13 else suits[c] * 13 + ranks[c] % 13
        for p in self.blocking:
            low = 14
            for i in range(size[p]):
                c = cards[p * stride + i]
                r = (ranks[c] + shift - 1) % 13 + 1
                if r > low:
                    blocked += 1
                elif r < low:
                    low = r
                if need[suits[c]] == c:
                    buried += size[p] - 1 - i
        for f in self.founds:
            home += size[f]
        for p in range(len(board.down)):
            hidden += down[p]
        return 3 * home - hidden - blocked - BURIED * buried


def read_line(parents: Mapping[object, tuple[object, Any] | None], k: object,
              decode: Callable[[Any], Move]) -> tuple[Move, ...]:
    """The moves from the start to the position keyed ``k``, read back through ``parents``
    (each position's parent's key and the move from there; ``None`` at the start), each
    made a ``Move`` by ``decode`` (a board's ``move_of``)."""
    out: list[Move] = []
    step = parents[k]
    while step is not None:
        k, m = step
        out.append(decode(m))
        step = parents[k]
    return tuple(reversed(out))


def best_first(start: State, cap: int | None, deadline: float | None,
               progress: Callable[[int], None] | None = None,
               next_report: float | None = None, narrow: bool = False) -> Verdict:
    """Search from ``start`` (left unchanged) until a win, a proof of loss, ``cap``
    positions or the ``deadline`` (``time.perf_counter``); ``progress(positions)`` is
    called about once a second, first at ``next_report``. ``narrow``: try only the moves
    of ``Choice(narrow=True)``; such a search answers won or unknown, and lost only when it
    had no move to leave out."""
    from . import state_board

    rules = start.rules
    t0 = time.perf_counter()
    next_report = t0 + 1.0 if next_report is None else next_report
    choice = depth.choice_for(rules, narrow=narrow, start=start)
    board = state_board.board_for(start)
    talon = choice.talon
    score = Promise(rules).score
    parents: dict[object, tuple[object, int] | None] = {}
    root = board.key()
    parents[root] = None

    def verdict(outcome: Outcome, moves: tuple[Move, ...] = (), complete: bool = False) -> Verdict:
        return Verdict(outcome, moves, len(parents), time.perf_counter() - t0, None, complete)

    made = 0
    frontier: list[tuple[int, int, bytes, object, bool]] = [(0, 0, board.pack(), root, False)]
    while frontier:
        if cap is not None and len(parents) >= cap:
            return verdict(Outcome.UNKNOWN)
        _, _, packed, here, dealt = heapq.heappop(frontier)
        board.unpack(packed)
        quick = choice.after_deal(board) if dealt else None
        if quick is None:
            legal, status = board.legal()
            if status != PLAYING:
                if status == WON:
                    return verdict(Outcome.WON, read_line(parents, here, board.move_of))
                continue
        else:
            legal = quick
        for m in choice.choose(board, legal, dealt):
            board.play(m)
            by_deal = talon and m == DEAL
            k: object = board.dealt_key() if by_deal else board.key()
            if k not in parents:
                parents[k] = (here, m)
                made += 1
                heapq.heappush(frontier, (-score(board), -made, board.pack(), k, by_deal))
                if cap is not None and len(parents) >= cap:
                    return verdict(Outcome.UNKNOWN)
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    return verdict(Outcome.UNKNOWN)
                if progress is not None and now >= next_report:
                    next_report = now + 1.0
                    progress(len(parents))
            board.undo()
    if choice.dropped:  # a narrowed search left moves out: it proves nothing
        return verdict(Outcome.UNKNOWN)
    return verdict(Outcome.LOST, complete=True)


__all__ = ["BLOCKING_KINDS", "BURIED", "Promise", "best_first", "read_line"]
