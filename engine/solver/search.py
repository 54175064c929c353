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

import time
from collections.abc import Callable
from dataclasses import replace

from ..core import FINISHED, PLAYING, STOCK, WON, Move, State
from ..options import Scoring
from .bestfirst import best_first
from .moves import Chooser
from .position import key_maker
from .verdict import Budget, Outcome, Verdict

#: Called now and then during a long search with (positions so far, seconds so far).
Progress = Callable[[int, float], None]
REPORT_EVERY = 1.0  # seconds between progress calls


def scored(st: State) -> bool:
    """Games that end with a score and no win or loss get a best-score search."""
    return st.rules.scoring == Scoring.POINTS


#: The share of a budget the depth-first search has before the best-first one takes over.
DEPTH_FIRST_SHARE = 0.2


def solve(st: State, budget: Budget | None = None, progress: Progress | None = None) -> Verdict:
    """Search from ``st`` (left unchanged) within ``budget``: a win, a proof of loss, or
    the best score of a scored game. The state holds the whole deal, face-down cards
    included, so the answer is for this deal (a "thoughtful" solver).

    A game played to a win is searched depth first with a fifth of the budget (most deals
    are won that way in a few thousand positions), then, if undecided, best first with the
    rest (``bestfirst.py``: a wrong early choice no longer holds the whole budget). Either
    search that runs out of positions has proved the loss. Without a budget, depth first
    alone. ``positions`` counts both searches together."""
    budget = budget or Budget()
    if scored(st) or (budget.positions is None and budget.seconds is None):
        return Search(st, budget, progress).run()
    share = Budget(None if budget.positions is None
                   else max(1, int(budget.positions * DEPTH_FIRST_SHARE)),
                   None if budget.seconds is None else budget.seconds * DEPTH_FIRST_SHARE)
    first = Search(st, share, progress).run()
    if first.outcome is not Outcome.UNKNOWN:
        return first
    cap = None if budget.positions is None else budget.positions - first.positions
    if cap is not None and cap < 1:
        return first
    deadline = None if budget.seconds is None else (
        time.perf_counter() + budget.seconds - first.seconds)
    began = time.perf_counter()
    report = None if progress is None else (
        lambda n: progress(first.positions + n, first.seconds + time.perf_counter() - began))
    then = best_first(st, cap, deadline, report)
    return replace(then, positions=first.positions + then.positions,
                   seconds=first.seconds + then.seconds)


class Search:
    """One search: its state, table, stack and counters."""

    def __init__(self, st: State, budget: Budget, progress: Progress | None) -> None:
        self.start = st
        self.st = st.copy()
        self.budget = budget
        self.progress = progress
        self.scored = scored(st)
        self.chooser = Chooser(st.rules, safe=not self.scored)
        self.key = key_maker(st.rules, sinks=not self.scored)
        self.seen: set[object] = set()
        self.t0 = time.perf_counter()
        self.best: tuple[int, tuple[Move, ...]] | None = None

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def verdict(self, outcome: Outcome, moves: tuple[Move, ...] = (), complete: bool = False,
                score: int | None = None) -> Verdict:
        return Verdict(outcome, moves, len(self.seen), self.elapsed(), score, complete)

    def run(self) -> Verdict:
        st = self.st
        cap = self.budget.positions
        deadline = None if self.budget.seconds is None else self.t0 + self.budget.seconds
        key, seen, choose = self.key, self.seen, self.chooser.moves
        talon = bool(self.chooser.talon)
        seen.add(key(st))
        found = self.arrive(st)
        if found is not None:
            return found
        stack: list[tuple[list[Move], int]] = [(choose(st, st.legal_moves()), 0)]
        next_report = self.t0 + REPORT_EVERY
        push, pop, legal = st.push, st.pop, st.legal_moves
        while stack:
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
            if cap is not None and len(seen) >= cap:
                return self.out_of_budget()
            now = time.perf_counter()  # a position can cost much (a rule's own search)
            if deadline is not None and now >= deadline:
                return self.out_of_budget()
            if self.progress is not None and now >= next_report:
                next_report = now + REPORT_EVERY
                self.progress(len(seen), now - self.t0)
            moves = legal()  # the status comes with them, in one pass over the moves
            if st.status != PLAYING:
                found = self.arrive(st)
                if found is not None:
                    return found
                pop()
                continue
            stack.append((choose(st, moves, dealt), 0))
        return self.exhausted()

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
        if self.scored:
            if self.best is None:  # no finished position reachable: cannot happen in play
                return self.verdict(Outcome.UNKNOWN, complete=True)
            return self.verdict(Outcome.BEST, self.best[1], complete=True, score=self.best[0])
        return self.verdict(Outcome.LOST, complete=True)
