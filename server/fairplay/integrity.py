"""An integrity signal for a ranked daily attempt: were its reveals luckier than chance?

A player who knows the deal beforehand (a throwaway account scouted it) picks, among moves
that would show different unseen cards, the one that shows a card they can use. A player who
does not know cannot: which card lies under a column, or next in the stock, is as likely any
unseen card whichever move shows it. So the attempt is replayed on the engine, tracking every
card shown to the player so far, and at each **blind choice** (the move played showed a card
never seen before, and another legal move would have shown a different one) the server
notes whether the chosen reveal was **useful** (a move scoring with a just-shown card became
possible) and how many of the alternatives' reveals were. Honest play is useful about as
often as the alternatives; foreknowledge is useful more often.

``foresight`` is the z-score of the useful reveals against the alternatives' rate:
``(useful - expected) / sqrt(sum p(1 - p))``, summed over the blind choices (0 without any).
It is computed from the moves alone, for any rule set, and costs one look-ahead of two moves
per legal move at each step. The median time per move is kept beside it (not scored).
docs/daily.md gives the threshold and the measured false-positive rate (bench/integrity.py).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import TypedDict

import engine
from engine.core import STOCK, Move, State

from . import openplay

#: A moderator looks at attempts with foresight at or above this (docs/daily.md: its rate).
FLAG = 3.0
#: Moves judged at most: the rest of a very long attempt adds cost, not evidence.
MAX_MOVES = 400
#: Solver help: a steady share of the choices on the solver's line at a metronome's pace
#: (times per move spread less than ``STEADY_CV``), or nearly all of them at a pace that
#: does not grow with the choice (correlation below ``PACE_CORR``).
STEADY_FOLLOW, STEADY_JUDGED, STEADY_CV = 0.6, 10, 0.3
FOLLOW, MIN_JUDGED, PACE_CORR = 0.9, 20, 0.1
#: Another account's earlier attempt from the same origin or client, with weaker evidence.
LINKED_FORESIGHT, LINKED_FOLLOW = 2.0, 0.6


class Foresight(TypedDict):
    """The blind choices, how many of them showed a useful card, the alternatives' expected
    count, and the z-score of the two."""

    foresight: float
    blind: int
    useful: int
    expected: float


class LinkedAttempt(TypedDict):
    """Another account's earlier attempt on the deal from one of this one's origins or
    clients (server/fairplay/linked.py)."""

    session: str
    player: str
    via: list[str]  # "origin", "client"
    moves: int
    resigned: bool
    early: bool


class Evidence(TypedDict):
    """How many other accounts made such attempts, how many of them ended early, and the
    first ten."""

    linked: int
    linked_early: int
    linked_attempts: list[LinkedAttempt]


#: Where nobody else's attempts are known.
NO_EVIDENCE: Evidence = {"linked": 0, "linked_early": 0, "linked_attempts": []}


class Measured(Foresight, openplay.Follow, openplay.Pace):
    """What the moves show (``signal``): with the median ms between moves, for context."""

    median_move_ms: int | None


class Signal(Measured, Evidence):
    """An attempt's signal as the board or the review queue keeps it (``flag``)."""

    reasons: list[str]
    flagged: bool


def _visible(st: State) -> set[int]:
    return {c for p, pile in enumerate(st.piles) for c in pile[st.down[p]:]}


def _where(st: State, cards: set[int]) -> dict[int, tuple[int, int]]:
    return {c: (p, i) for p, pile in enumerate(st.piles) for i, c in enumerate(pile)
            if c in cards}


def _useful(st: State, shown: set[int], low: bool) -> bool:
    """Can a card just shown be played at once (moved by a move other than the stock's)?"""
    at = _where(st, shown)
    for b in st.legal_moves():
        if b.kind == STOCK:
            continue
        st.push(b)
        try:
            if _where(st, shown) != at:
                return True
        finally:
            st.pop()
    return False


def foresight(rules: engine.RuleSet, seed: bytes, moves: Sequence[Move]) -> Foresight:
    """Replay ``moves`` (a resignation ends them) and judge every blind choice."""
    low = rules.scoring == "low"
    st = rules.deal(seed, competitive=True)
    seen = _visible(st)
    blind = useful = 0
    expected = variance = 0.0
    for m in moves[:MAX_MOVES]:
        if m.kind == "resign" or st.over:
            break
        reveals: dict[Move, tuple[frozenset[int], bool]] = {}
        for a in st.legal_moves():
            st.push(a)
            try:
                shown = _visible(st) - seen
                if shown:
                    reveals[a] = (frozenset(shown), _useful(st, shown, low))
            finally:
                st.pop()
        if m in reveals and len({s for s, _ in reveals.values()}) >= 2:
            p = sum(u for _, u in reveals.values()) / len(reveals)
            blind += 1
            useful += reveals[m][1]
            expected += p
            variance += p * (1 - p)
        st.push(m)
        seen |= _visible(st)
    z = (useful - expected) / math.sqrt(variance) if variance > 0 else 0.0
    return {"foresight": round(z, 2), "blind": blind, "useful": useful,
            "expected": round(expected, 2)}


def signal(rules: engine.RuleSet, seed: bytes, moves: Sequence[Move],
           times: Sequence[int], created: int, budget: int = openplay.BUDGET) -> Measured:
    """The stored signal's parts computed from the moves: foresight, the share of choices
    following the solver's line and the pace (server/fairplay/openplay.py), and the median ms
    between moves (from the first card shown) for context. ``flag`` then judges it."""
    steps = [b - a for a, b in zip([created, *times], times, strict=False)]
    return {**foresight(rules, seed, moves),
            **openplay.follow(rules, seed, moves, budget, min(STEADY_JUDGED, MIN_JUDGED)),
            **openplay.timing(rules, seed, moves, times, created),
            "median_move_ms": int(statistics.median(steps)) if steps else None}


def flag(sig: Measured, evidence: Evidence = NO_EVIDENCE) -> Signal:
    """The flag rule (docs/daily.md, "Integrity signal") on what the moves show and the
    linked attempts: ``reasons`` lists every part that reaches it, ``flagged`` whether any
    does."""
    reasons = []
    if sig["foresight"] >= FLAG:
        reasons.append("foresight")
    if evidence["linked_early"] >= 1:
        reasons.append("scouted")
    follow, judged, cv, corr = sig["follow"], sig["judged"], sig["pace_cv"], sig["pace_corr"]
    if follow is not None and (
            (judged >= STEADY_JUDGED and follow >= STEADY_FOLLOW and cv is not None
             and cv < STEADY_CV)
            or (judged >= MIN_JUDGED and follow >= FOLLOW and corr is not None
                and corr < PACE_CORR)):
        reasons.append("solver")
    if evidence["linked"] >= 1 and (sig["foresight"] >= LINKED_FORESIGHT or (
            follow is not None and judged >= MIN_JUDGED and follow >= LINKED_FOLLOW)):
        reasons.append("linked")
    return {**sig, **evidence, "reasons": reasons, "flagged": bool(reasons)}
