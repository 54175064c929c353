"""Best-first search on a board (``board.py``), for the rule sets a board plays.

The same search as ``bestfirst.best_first``, position for position: the same moves tried
(``board_search.Choice``), the same table, the same order of expansion (``promise``, the
newest first among equals), so the same verdicts, lines and position counts
(tests/engine/test_board_search.py holds the two to that); a waiting position is a board's
``pack``, made a position again with ``unpack``.
"""

from __future__ import annotations

import contextlib
import heapq
import time
from collections.abc import Callable

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK, SUIT
from ..core import PLAYING, WON, Move, State
from ..options import Direction, SuitRule, Unit
from ..rules import FOUNDATION, RuleSet
from . import bestfirst
from .board import DEAL, STRIDE, Board, playable
from .board_search import Choice
from .moves import Chooser
from .verdict import Outcome, Verdict

#: Per card: its rank and suit, as bytes a C loop reads.
RANKS, SUITS = bytes(RANK), bytes(SUIT)


class Promise:
    """``bestfirst.promise`` on a board: three per card on a foundation, less one per card
    face down, one per blocked card and ``BURIED`` per card on the card its suit needs next
    (where that is counted), from the same declarations."""

    def __init__(self, rules: RuleSet) -> None:
        founds = tuple(rules.by_kind.get(FOUNDATION, ()))
        dealt_down = any(g.down for g in rules.groups)
        self.founds = bytes(founds)
        self.blocking = bytes(p for p, g in enumerate(rules.pile_group)
                              if g.kind in bestfirst.BLOCKING_KINDS
                              and (not dealt_down or g.unit == Unit.TOP))
        build = rules.pile_group[founds[0]].build if founds else None
        self.needs = (dealt_down and bool(self.blocking) and build is not None
                      and build.direction == Direction.UP and build.suit == SuitRule.SAME
                      and (build.wrap or rules.base == 1))
        self.wraps = build is not None and build.wrap

    def score(self, board: Board) -> cython.Py_ssize_t:
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
        return 3 * home - hidden - blocked - bestfirst.BURIED * buried


def best_first(start: State, cap: int | None, deadline: float | None,
               progress: Callable[[int], None] | None = None,
               next_report: float | None = None, narrow: bool = False) -> Verdict:
    """``bestfirst.best_first``, on a board where one plays the rule set."""
    rules = start.rules
    if not playable(start):  # (``plain`` has no scored game)
        return bestfirst.best_first(start, cap, deadline, progress, next_report, narrow)
    t0 = time.perf_counter()
    next_report = t0 + 1.0 if next_report is None else next_report
    chooser = Chooser(rules, narrow=narrow, start=start)
    choice = Choice(chooser)
    board = Board(start.copy(), ask=False)  # (``Board.legal``)
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
                    return verdict(Outcome.WON, bestfirst.read_line(parents, here, Board.decode))
                continue
        else:
            legal = quick
        for m in choice.choose(board, legal, dealt):
            board.play(m)
            by_deal = talon and m == DEAL
            k: object = (board.key(), True) if by_deal else board.key()
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


__all__ = ["Promise", "best_first"]
