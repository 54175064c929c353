"""``solve``: which search answers for a position, and how the searches share a budget.

The step search (``steps.py``) where a rule set's piles allow it; elsewhere the searches
over the engine's moves take turns on one budget (``SCHEDULE``): depth first
(``depth.py``), narrowed, best first (``bestfirst.py``) and a beam (``beam.py``), all on a
board (``board.py``, or ``state_board.py`` for a rule set with rules of its own). Each plays
by the engine's own rules: the same moves, the same end-of-game rule; the solver has no
rules of its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from ..collector import paused as collector_paused
from ..core import State
from .depth import DepthFirst, Progress, scored
from .verdict import Budget, Outcome, Verdict

DEPTH, NARROW_DEPTH, NARROW_BEST, BEAM, BEST = (
    "depth", "narrow depth", "narrow best", "beam", "best")
#: The turns for a game with moves from one pile of the table to another
#: (``Choice.can_narrow``): elsewhere (Golf, Pyramid, Nestor, ...) depth first alone
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

    Where the step search applies (``step_rules.applies``) it answers alone. Elsewhere a
    game played to a win is searched in turns (``SCHEDULE``): a short depth-first search,
    which wins many deals in a few hundred positions; then narrowed searches
    (``depth.Choice``), depth first and best first, which find most other wins in a few
    thousand positions but can prove nothing; then a beam, which wins deals whose line is
    long, open games above all, going a level deeper at a time with the most promising
    positions alone; then best first with every move, which wins more open games (nothing
    face down), where narrowing leaves few moves; then depth first again, on from where it
    stopped, which is what proves losses: when it runs out of positions, every reachable
    position was searched. A scored game, or a search with no budget, is depth first alone.
    ``positions`` counts every search's positions together."""
    with collector_paused():
        return _solve(st, budget or Budget(), progress)


def _solve(st: State, budget: Budget, progress: Progress | None) -> Verdict:
    from . import step_rules

    if not scored(st) and step_rules.applies(st):
        return step_rules.solve(st, budget, progress)
    return by_moves(st, budget, progress)


def by_moves(st: State, budget: Budget, progress: Progress | None = None) -> Verdict:
    """The searches over the engine's moves, taking turns on ``budget`` (``SCHEDULE``): what
    ``solve`` runs where the step search does not apply (and a baseline for it where it
    does, bench/solver.py)."""
    from .beam import beam
    from .bestfirst import best_first

    t0 = time.perf_counter()
    cap, secs = budget.positions, budget.seconds
    depth = DepthFirst(st, progress)
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
        if room == 0 or (turn in BUILDING and not depth.choice.can_narrow):
            continue
        if turn == DEPTH:
            v = depth.run(None if room is None else len(depth.seen) + room, deadline, others)
        elif turn == NARROW_DEPTH:
            v = DepthFirst(st, progress, narrow=True).run(room, deadline, spent)
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


__all__ = ["SCHEDULE", "Progress", "by_moves", "collector_paused", "solve"]
