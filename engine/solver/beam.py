"""Beam search: one move deeper a level, keeping each level's most promising positions only.

Best first (``bestfirst.py``) expands the most promising open position wherever it lies,
so on a deal whose winning line is long it spends its budget among the many positions near
the start that look about as good. A beam goes one move deeper each level and keeps only
the ``width`` most promising new positions of the level (``promise``; the first made first
among equals), so a line of a hundred moves costs about a hundred levels of ``width``
positions. Of 28 deals of Baker's Dozen, Bristol, Fortress and Shamrocks that the other
searches left undecided in 30 s, a beam 500 wide won half within 2 s (docs/solver.md).

It tries the same moves (``depth.Choice``) and keys positions the same way, on the same
boards (``board.py``, ``state_board.py``), and a position met before, in any level, is not
kept again; the
winning line is read back through each position's parent, so every win it reports is a line
of legal moves. It leaves positions out, so it proves nothing, unless it ran dry having kept
every position it met: then it was the whole search, breadth first, as sound as best first
run dry (``bestfirst.py``), and the deal is lost. Otherwise, when a beam runs dry (no new
position to keep), the next one is ``WIDER`` times as wide, with a new table: a wider beam
keeps positions a narrower one dropped. Under a budget of positions the first beam is
narrower (``PER_WIDTH``), so that a small budget still goes deep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..core import PLAYING, WON, Move, State
from . import depth, state_board
from .bestfirst import Promise, read_line
from .verdict import Outcome, Verdict

#: The first beam's width, and how much wider each next one is.
FIRST_WIDTH, WIDER = 500, 4
#: With a budget of positions, the first beam is at most one position wide for each this
#: many of them (and at least ``LEAST_WIDTH``), so that it goes deep enough to win.
PER_WIDTH, LEAST_WIDTH = 1000, 4
#: The table: each position met, with its parent's key and the move from there (``None``
#: for the start).
Parents = dict[object, "tuple[object, object] | None"]
#: A level's new positions: (less is more promising, order made, position, key).
Child = tuple[int, int, object, object]


class Positions:
    """A beam's positions on a board. A new position is kept as its parent's pack and the
    move from there, played again if the position is expanded: most new positions are not
    (a level keeps ``width`` of them), and one pack a parent costs less than one a child."""

    def __init__(self, start: State) -> None:
        self.board = state_board.board_for(start)
        self.choice = depth.choice_for(start.rules, start=start)
        self.score = Promise(start.rules).score
        self.start = (self.board.pack(), -1), self.board.key()

    def root(self) -> tuple[tuple[bytes, int], object]:
        return self.start

    def expand(self, at: tuple[bytes, int], here: object, parents: Parents,
               out: list[Child]) -> str:
        board = self.board
        parent, move = at
        board.unpack(parent)
        if move >= 0:
            board.play(move)
        legal, status = board.legal()
        if status != PLAYING:
            return status
        score = self.score
        packed = board.pack()
        for m in self.choice.choose(board, legal, False):
            board.play(m)
            k = board.key()
            if k not in parents:
                parents[k] = (here, m)
                out.append((-score(board), len(out), (packed, m), k))
            board.undo()
        return PLAYING

    def decode(self, m: object) -> Move:
        assert isinstance(m, int)
        return self.board.move_of(m)


def beam(start: State, cap: int | None, deadline: float | None,
         progress: Callable[[int], None] | None = None,
         next_report: float | None = None) -> Verdict:
    """Beams from ``start`` (left unchanged), each ``WIDER`` times as wide as the last, until
    a win, ``cap`` positions in all or the ``deadline`` (``time.perf_counter``): won or
    unknown, or lost where a beam ran dry without leaving a position out (it was then the
    whole search, breadth first). ``progress(positions)`` is called about once a second,
    first at ``next_report``."""
    t0 = time.perf_counter()
    positions = Positions(start)
    clock = Clock(deadline, progress, t0 + 1.0 if next_report is None else next_report)
    done = 0  # the positions of the beams before this one
    width = FIRST_WIDTH if cap is None else max(LEAST_WIDTH, min(FIRST_WIDTH, cap // PER_WIDTH))
    while True:
        parents: Parents = {}
        won, left_out = one_beam(positions, width, parents,
                                 None if cap is None else cap - done, clock, done)
        if won is not None:
            line = read_line(parents, won, positions.decode)
            return Verdict(Outcome.WON, line, done + len(parents), time.perf_counter() - t0)
        done += len(parents)
        if not left_out:
            return Verdict(Outcome.LOST, (), done, time.perf_counter() - t0, complete=True)
        if clock.late or (cap is not None and done >= cap):
            return Verdict(Outcome.UNKNOWN, (), done, time.perf_counter() - t0)
        width *= WIDER


class Clock:
    """A beam's deadline and progress reports (about once a second)."""

    def __init__(self, deadline: float | None, progress: Callable[[int], None] | None,
                 next_report: float) -> None:
        self.deadline, self.progress, self.next_report = deadline, progress, next_report
        self.late = False

    def check(self, positions: int) -> bool:
        """Whether the deadline has passed (then it stays ``late``)."""
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            self.late = True
        elif self.progress is not None and now >= self.next_report:
            self.next_report = now + 1.0
            self.progress(positions)
        return self.late


def one_beam(positions: Positions, width: int, parents: Parents,
             cap: int | None, clock: Clock, done: int) -> tuple[object | None, bool]:
    """One beam ``width`` wide: the key of the won position it reached (or ``None``: it ran
    dry, ``parents`` holds ``cap`` positions or the clock is late), and whether it left a
    position out (a level with more than ``width`` new positions, or a stop)."""
    packed: Any  # a state's pack or a board's, as ``positions`` makes them
    packed, root = positions.root()
    parents[root] = None
    level: list[tuple[Any, object]] = [(packed, root)]
    left_out = False
    while level:
        out: list[Child] = []
        for packed, here in level:
            if positions.expand(packed, here, parents, out) == WON:
                return here, True
            if cap is not None and len(parents) >= cap:
                while len(parents) > cap:  # the last children made: not counted, not kept
                    parents.popitem()
                return None, True
            if clock.check(done + len(parents)):
                return None, True
        out.sort()
        left_out = left_out or len(out) > width
        level = [(packed, k) for _, _, packed, k in out[:width]]
    return None, left_out


__all__ = ["FIRST_WIDTH", "WIDER", "beam"]
