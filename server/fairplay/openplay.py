"""Solver help in a ranked attempt: moves that follow a solver's line, timed like a machine.

Where every card is face up from the deal (24 of the 60 rule sets), one look shows the whole
deal and a solver plays it; foresight (server/fairplay/integrity.py) sees nothing, as nothing is
ever revealed. Two things tell solver help from play:

- **follow**: the share of the player's choices (positions with two legal moves or more)
  that play the next move of ``engine.solver``'s line from that position. The line is found
  from the deal, and found again from where the player left it, within a budget of positions
  per attempt (``BUDGET``), so the cost is bounded and the verdict the same on any machine.
- **timing**: a player thinks longer where there is more to choose from, and plays a forced
  move at once; someone copying a line plays at the pace of their copying. ``pace_corr`` is
  the correlation of the log of the time per move with the log of the number of legal moves
  (about 0.3 to 0.6 for play, about 0 for copying), ``pace_cv`` the spread of the times
  (standard deviation over mean; a metronome's is near 0).

It applies to any rule set the solver finds a line in; docs/daily.md gives the flag rule and
its measured rates (bench/integrity.py).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import TypedDict

import engine
from engine.core import Move, State
from engine.solver import Budget, Outcome, solve

#: Positions the solver may search for one attempt in all; for the first line, and for each
#: line found again where the player left the last one; at most ``MAX_SOLVES`` searches. Never
#: a cap in seconds: a busy machine would judge the same attempt otherwise. A position costs
#: 20 times more in some games (Eight Off) than in others (Fortress), so the search runs in a
#: low-priority worker process (server/daily/__init__.py), never on the event loop.
BUDGET = 60_000
FIRST = 30_000
AGAIN = 10_000
MAX_SOLVES = 6
#: Moves judged at most.
MAX_MOVES = 400


class Follow(TypedDict):
    """The share of the choices judged that played the solver's next move (None: none
    judged), and the positions its searches cost."""

    follow: float | None
    judged: int
    solver_positions: int


class Pace(TypedDict):
    """How the time per move goes with the choice (None: fewer than ten moves, or no spread)."""

    pace_corr: float | None
    pace_cv: float | None


def is_open(st: State) -> bool:
    """Every card of the deal face up from the start: nothing is ever revealed."""
    return not any(st.down)


def choices(rules: engine.RuleSet, seed: bytes, moves: Sequence[Move],
            enough: int | None = None) -> int:
    """The positions of the attempt (its first ``MAX_MOVES``) with two legal moves or more;
    counted no further than ``enough``."""
    st = rules.deal(seed, competitive=True)
    count = 0
    for m in moves[:MAX_MOVES]:
        if m.kind == "resign" or st.over or count == enough:
            break
        count += len(st.legal_moves()) >= 2
        st.push(m)
    return count


def follow(rules: engine.RuleSet, seed: bytes, moves: Sequence[Move],
           budget: int = BUDGET, fewest: int = 0) -> Follow:
    """Replay ``moves``, comparing each choice with the solver's line from there. An attempt
    with fewer than ``fewest`` choices in all is not searched: no rule counts so few, and a
    walked-away attempt then costs no search."""
    if fewest and choices(rules, seed, moves, fewest) < fewest:
        return {"follow": None, "judged": 0, "solver_positions": 0}
    st = rules.deal(seed, competitive=True)
    line: list[Move] = []
    judged = followed = spent = solves = 0
    for m in moves[:MAX_MOVES]:
        if m.kind == "resign" or st.over:
            break
        choice = len(st.legal_moves()) >= 2
        if choice and not line and spent < budget and solves < MAX_SOLVES:
            cap = min(FIRST if solves == 0 else AGAIN, budget - spent)
            v = solve(st, Budget(positions=cap))
            spent += v.positions
            solves += 1
            if v.outcome in (Outcome.WON, Outcome.BEST):
                line = list(v.moves)
        if line:
            if choice:
                judged += 1
            if m == line[0]:
                followed += choice
                line.pop(0)
            else:
                line = []  # the player left the line: find it again from the next choice
        st.push(m)
    return {"follow": round(followed / judged, 3) if judged else None, "judged": judged,
            "solver_positions": spent}


def timing(rules: engine.RuleSet, seed: bytes, moves: Sequence[Move], times: Sequence[int],
           created: int) -> Pace:
    """How the time per move goes with the number of legal moves, and how steady it is."""
    st = rules.deal(seed, competitive=True)
    xs: list[float] = []
    ys: list[float] = []
    last = created
    for m, t in zip(moves[:MAX_MOVES], times, strict=False):
        if m.kind == "resign" or st.over:
            break
        xs.append(math.log(len(st.legal_moves())))
        ys.append(math.log(max(t - last, 1)))
        last = t
        st.push(m)
    if len(ys) < 10:
        return {"pace_corr": None, "pace_cv": None}
    steps = [math.exp(y) for y in ys]
    mean = statistics.fmean(steps)
    cv = statistics.pstdev(steps) / mean if mean > 0 else 0.0
    corr = _corr(xs, ys)
    return {"pace_corr": None if corr is None else round(corr, 3), "pace_cv": round(cv, 3)}


def _corr(xs: list[float], ys: list[float]) -> float | None:
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    return statistics.correlation(xs, ys)
