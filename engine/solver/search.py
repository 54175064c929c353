"""Depth-first search over the engine's own moves, with a transposition table.

The search plays on a copy of the given state with ``State.push`` / ``State.pop`` (the
moves come from ``legal_moves``, so they need no second check), and asks the state itself
whether a position is won, lost or finished: the solver has no rules of its own.

Why "lost" is sound: the table holds every position met, and a position is skipped only
when it was met before, so when the stack runs out every position reachable from the start
(through the moves tried, ``moves.py``) was searched and none was won. No depth limit cuts
anything: a cycle (a stock turned for ever, a card moved back and forth) comes back to a
position in the table. Only the budget stops a search early, and then the answer is
``unknown``.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace

from ..core import FINISHED, PLAYING, STOCK, WON, Move, State
from ..options import Scoring
from .moves import Chooser
from .position import key_maker
from .verdict import Budget, Outcome, Verdict

#: Called now and then during a long search with (positions so far, seconds so far).
Progress = Callable[[int, float], None]
REPORT_EVERY = 1.0  # seconds between progress calls


def scored(st: State) -> bool:
    """Games that end with a score and no win or loss get a best-score search."""
    return st.rules.scoring == Scoring.POINTS


DEPTH, NARROW_DEPTH, NARROW_BEST, BEAM, BEST = (
    "depth", "narrow depth", "narrow best", "beam", "best")
#: The turns for a game with moves from one pile of the table to another
#: (``Chooser.can_narrow``): elsewhere (Golf, Pyramid, Nestor, ...) depth first alone
#: decides more in the same time (Golf lost six of 40 deals to a best-first turn).
BUILDING = (NARROW_DEPTH, NARROW_BEST, BEST)
#: How a budget is shared: each turn gets this share of the positions and the seconds, and
#: what a turn leaves unspent goes to the next. A depth-first turn goes on from where the
#: last one of its kind stopped (its table kept).
SCHEDULE = ((DEPTH, 0.03), (NARROW_DEPTH, 0.07), (NARROW_BEST, 0.1), (BEAM, 0.15), (BEST, 0.15),
            (DEPTH, 0.5))


def solve(st: State, budget: Budget | None = None, progress: Progress | None = None) -> Verdict:
    """Search from ``st`` (left unchanged) within ``budget``: a win, a proof of loss, or
    the best score of a scored game. The state holds the whole deal, face-down cards
    included, so the answer is for this deal (a "thoughtful" solver).

    A game played to a win is searched in turns (``SCHEDULE``): a short depth-first search,
    which wins many deals in a few hundred positions; then narrowed searches (``moves.py``),
    depth first and best first (``bestfirst.py``), which find most other wins in a few
    thousand positions but can prove nothing; then a beam (``beam.py``), which wins deals
    whose line is long, open games above all, going a level deeper at a time with the most
    promising positions alone; then best first with every move, which wins more open games
    (nothing face down), where narrowing leaves few moves; then depth first again, on from
    where it stopped, which is what proves losses: when it runs out of positions, every
    reachable position was searched. A scored game, or a search with no budget, is depth
    first alone. ``positions`` counts every search's positions together. Where a board
    plays the rule set (``board.plain``), the depth-first turns run on one
    (``board_search.py``): the same search, position for position, faster."""
    with collector_paused():
        return _solve(st, budget or Budget(), progress)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a search, as it was after: a search makes
    millions of small objects and keeps most of them (its table), none in a cycle, so each
    pass of the collector walks them all for nothing (about a tenth of a Klondike search's
    time when it ran)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _solve(st: State, budget: Budget, progress: Progress | None) -> Verdict:
    from . import step_rules
    from .beam import beam
    from .board_best import best_first  # on a board where one plays the rule set
    from .board_search import searcher  # a subclass of Search: imported once Search is

    if not scored(st) and step_rules.applies(st):
        return step_rules.solve(st, budget, progress)
    t0 = time.perf_counter()
    cap, secs = budget.positions, budget.seconds
    depth = searcher(st, progress)
    if scored(st) or (cap is None and secs is None):
        return depth.run(cap, None if secs is None else t0 + secs)
    share = 0.0
    others = 0  # positions of the other turns than depth first
    v: Verdict | None = None
    for turn, part in SCHEDULE:
        share += part
        deadline = None if secs is None else t0 + secs * share
        spent = len(depth.seen) + others
        room = None if cap is None else max(0, round(cap * share) - spent)
        if room == 0 or (turn in BUILDING and not depth.chooser.can_narrow):
            continue
        if turn == DEPTH:
            v = depth.run(None if room is None else len(depth.seen) + room, deadline, others)
        elif turn == NARROW_DEPTH:
            v = searcher(st, progress, narrow=True).run(room, deadline, spent)
            others += v.positions
        else:
            report = shifted(progress, spent, t0)
            v = (beam(st, room, deadline, report, depth.next_report) if turn == BEAM else
                 best_first(st, room, deadline, report, depth.next_report,
                            narrow=turn == NARROW_BEST))
            others += v.positions
        if v.outcome is not Outcome.UNKNOWN:
            break
    assert v is not None  # the last turn always has room: its share is the whole budget
    used = len(depth.seen) + others
    return replace(v, positions=used, seconds=time.perf_counter() - t0)


def shifted(progress: Progress | None, done: int, t0: float) -> Callable[[int], None] | None:
    """A best-first search's progress, counted on from the positions searched before it."""
    if progress is None:
        return None
    report = progress
    return lambda n: report(done + n, time.perf_counter() - t0)


class Search:
    """The depth-first search: its state, table, stack and counters. ``run`` may be called
    again with a larger budget, to go on from where it stopped."""

    #: Positions between two looks at the clock: every one, as a position can cost much (a
    #: rule's own search).
    clock_every = 1

    def __init__(self, st: State, progress: Progress | None, narrow: bool = False) -> None:
        self.start = st
        self.st = st.copy()
        self.progress = progress
        self.scored = scored(st)
        self.chooser = Chooser(st.rules, safe=not self.scored, narrow=narrow, start=st)
        self.key = key_maker(st.rules, sinks=not self.scored)
        self.seen: set[object] = set()
        self.stack: list[tuple[list[Move], int]] | None = None
        self.t0 = time.perf_counter()
        self.next_report = self.t0 + REPORT_EVERY  # kept across runs: one report a second
        self.best: tuple[int, tuple[Move, ...]] | None = None

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def verdict(self, outcome: Outcome, moves: tuple[Move, ...] = (), complete: bool = False,
                score: int | None = None) -> Verdict:
        return Verdict(outcome, moves, len(self.seen), self.elapsed(), score, complete)

    def run(self, cap: int | None = None, deadline: float | None = None,
            offset: int = 0) -> Verdict:
        """Search until decided, ``cap`` positions in the table or the ``deadline``
        (``time.perf_counter``); ``offset``: positions other searches made, for progress."""
        st = self.st
        key, seen, choose = self.key, self.seen, self.chooser.moves
        after_deal = self.chooser.legal_after_deal
        talon = bool(self.chooser.talon)
        if self.stack is None:
            seen.add(key(st))
            found = self.arrive(st)
            if found is not None:
                return found
            self.stack = [(choose(st, st.legal_moves()), 0)]
        stack = self.stack
        push, pop, legal = st.push, st.pop, st.legal_moves
        ticks = 0
        while stack:
            # Checked before a move, so a search that stops can go on from here.
            if cap is not None and len(seen) >= cap:
                return self.out_of_budget()
            ticks += 1
            if not ticks % self.clock_every and self.late(deadline, offset):
                return self.out_of_budget()
            moves, i = stack[-1]
            if i == len(moves):
                stack.pop()
                if stack:
                    pop()
                continue
            stack[-1] = (moves, i + 1)
            move = moves[i]
            push(move)
            # A position reached by a deal is its own node: fewer moves are tried from it.
            dealt = talon and move.kind == STOCK
            k: object = (key(st), True) if dealt else key(st)
            if k in seen:
                pop()
                continue
            seen.add(k)
            quick = after_deal(st) if dealt else None
            if quick is not None:
                stack.append((choose(st, quick, True), 0))
                continue
            moves = legal()  # the status comes with them, in one pass over the moves
            if st.status != PLAYING:
                found = self.arrive(st)
                if found is not None:
                    return found
                pop()
                continue
            stack.append((choose(st, moves, dealt), 0))
        return self.exhausted()

    def late(self, deadline: float | None, offset: int) -> bool:
        """Whether the deadline has passed; reports the progress now and then."""
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            return True
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + REPORT_EVERY
            self.progress(len(self.seen) + offset, now - self.t0)
        return False

    def line(self) -> tuple[Move, ...]:
        return tuple(self.st.history)

    def arrive(self, st: State) -> Verdict | None:
        """At a position: a verdict if the search ends here, else ``None`` (record a score)."""
        status = st.status
        if status == PLAYING:
            return None
        if self.scored:
            if status in (FINISHED, WON):
                score = st.score
                if self.best is None or score > self.best[0]:
                    self.best = (score, self.line())
            return None
        if status == WON:
            return self.verdict(Outcome.WON, self.line())
        return None

    def out_of_budget(self) -> Verdict:
        if self.scored and self.best is not None:
            return self.verdict(Outcome.BEST, self.best[1], score=self.best[0])
        return self.verdict(Outcome.UNKNOWN)

    def exhausted(self) -> Verdict:
        if self.chooser.dropped:  # the moves a narrowed search left out may have won
            return self.verdict(Outcome.UNKNOWN)
        if self.scored:
            if self.best is None:  # no finished position reachable: cannot happen in play
                return self.verdict(Outcome.UNKNOWN, complete=True)
            return self.verdict(Outcome.BEST, self.best[1], complete=True, score=self.best[0])
        return self.verdict(Outcome.LOST, complete=True)
