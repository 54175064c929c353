"""A solver over the engine's own rules, for every rule set.

    >>> import engine
    >>> from engine.solver import Budget, solve
    >>> st = engine.get("klondike", "easy").deal(bytes.fromhex("00"))
    >>> verdict = solve(st, Budget(seconds=10))
    >>> verdict.outcome, len(verdict.moves) > 0
    (<Outcome.WON: 'won'>, True)

``solve(state, budget)`` answers ``won`` (with the moves that win from that position),
``lost`` (proved: every reachable position was searched) or ``unknown`` (the budget ran out);
for games that end with a score (``Scoring.POINTS``) it answers ``best``: the best score
found and the line that reaches it, ``complete`` when that score is proved the best.
docs/solver.md says how it searches and why each shortcut is sound.
"""

from __future__ import annotations

from ..rules import RuleSet
from . import bestfirst, depth, steps  # noqa: F401  (loaded with the rest: compiled() lists them)
from .search import Progress, solve
from .verdict import Budget, Outcome, Verdict


def plays_on_board(rules: RuleSet) -> bool:
    """Whether the solver plays ``rules`` by steps (``step_rules``) or on a plain board
    (``board.plain``), rather than by rules of its own, whose positions cost several times
    as much through the engine's own state: the published budget goes by it
    (``winnable.budget``), so Gaps, Pyramid and Aces Up, played on a ``GapBoard``, a
    ``PairBoard`` and a ``BeatenBoard`` since, keep theirs."""
    from .board import plain
    from .step_rules import plan

    return plan(rules).fits or plain(rules)

#: The search's version. It changes with any change that could alter a verdict, a line or the
#: positions a search counts, so that a published verdict (the winnable daily deals' in
#: docs/fairness.md) names the search that made it, and a check with another one says so.
VERSION = 28

__all__ = ["VERSION", "Budget", "Outcome", "Progress", "Verdict", "plays_on_board", "solve"]
