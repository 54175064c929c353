"""Winnable daily deals: the candidate seeds of a day's rule set, the solver's verdict on
each, the winning line and its par (docs/fairness.md, "Winnable daily deals").

A rule set's day has candidate seeds k = 0, 1, 2, ...: candidate 0 is the day's seed as it
always was (``fairness.daily_seed``), candidate k >= 1 the HMAC of the same label followed by
``"/" + k``. The day's deal is the first candidate the solver proves winnable within a budget
of positions (never seconds: a budget of positions gives the same verdicts on any machine, the
search being deterministic), up to a cap; if none is, candidate 0. Games played for a score
alone (``Scoring.POINTS`` in the catalog) keep candidate 0: they are not won or lost.

Pure functions over the engine: the server's job runs ``judge`` in a worker process, and
``samedeal verify-day`` runs the same to check a published day.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import date
from typing import Literal, TypedDict

from . import registry
from .core import WON
from .fairness import daily_label
from .notation import move_text, parse_move
from .options import Scoring
from .rules import RuleSet

#: The published budget: positions the solver may search per candidate (``budget``).
POSITIONS = 100_000
#: A rule set the solver plays through the engine's own state (rules of its own: no board
#: plays it) searches this share of them: each of its positions costs several times as much
#: (bench/solver.py), and the day's job is held to about a minute of CPU in all.
STATE_SHARE = 8
#: Candidates tried at most (k = 0 .. CAP - 1); none proved winnable: candidate 0.
CAP = 20


def applies(rules: RuleSet) -> bool:
    """The rule is for games that are won or lost; a game scored by points alone keeps
    candidate 0 (judged from the catalog's ``scoring``, never from the game's name)."""
    return rules.scoring != Scoring.POINTS


def candidate_label(day: date, game: str, variant: str, beacon: bytes | None, k: int,
                    edition: str = "daily") -> bytes:
    """The day's label (the live edition's: ``edition`` "live"), then ``"/" + k`` for k >= 1
    (candidate 0 is the label itself)."""
    if k < 0:
        raise ValueError("a candidate is numbered from 0")
    base = daily_label(day, game, variant, beacon, edition)
    return base if k == 0 else base + f"/{k}".encode()


def candidate_seed(day_secret: bytes, day: date, game: str, variant: str,
                   beacon: bytes | None, k: int, edition: str = "daily") -> bytes:
    """Candidate ``k``'s seed: HMAC-SHA256 of its label under the day's secret."""
    return hmac.new(day_secret, candidate_label(day, game, variant, beacon, k, edition),
                    hashlib.sha256).digest()


#: A candidate's verdict: a game this rule judges is won or lost, never scored.
Verdict = Literal["won", "lost", "unknown"]


class JudgedJson(TypedDict):
    """``Judged`` as the server records it for each candidate."""

    verdict: Verdict
    positions: int
    line: str | None
    par: int | None


@dataclass(frozen=True)
class Judged:
    """The solver's verdict on one candidate: ``won``, ``lost`` or ``unknown``, the positions
    it searched, and for a win the line (move notation, space-separated) and its par."""

    verdict: Verdict
    positions: int
    line: str | None = None
    par: int | None = None

    def json(self) -> JudgedJson:
        return {"verdict": self.verdict, "positions": self.positions, "line": self.line,
                "par": self.par}


def budget(rules: RuleSet, positions: int) -> int:
    """A candidate's budget of positions under the published ``positions``: all of them
    where the solver plays the rule set by steps or on a board, ``1 / STATE_SHARE`` of them
    where it plays it through the engine's own state (judged from the declarations, as the
    solver chooses)."""
    from .solver import plays_on_board

    return positions if plays_on_board(rules) else positions // STATE_SHARE


def judge(game: str, variant: str, seed: bytes, positions: int) -> Judged:
    """Solve one candidate within ``budget(rules, positions)`` (a worker process runs this:
    CPU-bound)."""
    from .solver import Budget, Outcome, solve  # only where a search is run
    from .solver.par import par_line

    rules = registry.get(game, variant)
    start = rules.deal(seed)
    # (leaves ``start`` as dealt)
    v = solve(start, Budget(positions=budget(rules, positions)))
    if v.outcome != Outcome.WON:
        return Judged("lost" if v.outcome == Outcome.LOST else "unknown", v.positions)
    moves = par_line(start, v.moves)
    return Judged("won", v.positions, " ".join(move_text(rules, m) for m in moves), len(moves))


def line_wins(game: str, variant: str, seed: bytes, line: str) -> tuple[bool, str]:
    """Replay a line in move notation from a seed: does it win, and a sentence saying so."""
    rules = registry.get(game, variant)
    st = rules.deal(seed)
    texts = line.split()
    for i, text in enumerate(texts, 1):
        try:
            st.play(parse_move(rules, text))
        except ValueError as e:
            why = getattr(e, "message", str(e))
            return False, f"move {i} ({text}) is illegal: {why}"
    moves = f"{len(texts)} move{'' if len(texts) == 1 else 's'}"
    if st.status == WON:
        return True, f"its {moves} win"
    return False, f"its {moves} end {st.status}, not won"


__all__ = ["CAP", "POSITIONS", "STATE_SHARE", "Judged", "JudgedJson", "Verdict", "applies",
           "budget", "candidate_label", "candidate_seed", "judge", "line_wins"]
