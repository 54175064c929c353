"""A finished game's analysis: every position along the line played judged by the server's
solver, and the turning point (docs/protocol.md#analysis). Over REST, so a tool needs no
socket, and no token once a ranked game's moves are public."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from .accounts import Accounts
from .errors import SdkError
from .messages import _build


class AnalysisPending(SdkError):
    """The analysis was still being computed when the wait ran out: ask again later."""

    def __init__(self, session: str, retry_ms: int) -> None:
        super().__init__(f"the analysis of {session} is still being computed: ask again in "
                         f"{retry_ms} ms")
        self.session = session
        self.retry_ms = retry_ms


@dataclass
class Position:
    """One position (the deal, then the one after each move): ``verdict`` ``won`` (``to_go``
    moves still to go on the line found), ``lost`` (proved), ``unknown`` (the budget ran out)
    or ``best`` (a game played for points: ``score``, the best still reachable that was found,
    proved when ``complete``); ``searched`` positions."""

    verdict: str
    to_go: int | None = None
    score: int | None = None
    complete: bool = False
    searched: int = 0


@dataclass
class TurningPoint:
    """The move after which the deal could no longer be won (``after``: ``lost``,
    ``unknown``, ``resigned``, ``stopped``), or, in a game played for points, the one that
    cost the most (``score_before``, ``score_after``); ``move_number`` 1-based; ``better`` a
    winning line from the position before it, made short (``to_go`` moves); ``words``,
    ``better_words`` and ``text`` in players' words."""

    move_number: int
    move: str
    words: str
    after: str
    better: list[str]
    better_words: str
    text: str
    to_go: int | None = None
    score_before: int | None = None
    score_after: int | None = None


@dataclass
class Analysis:
    """``positions[k]`` is the position after ``k`` of ``moves`` (a final resignation is
    ``resigned``, not a move); ``turning_point`` the move after which the deal could no longer
    be won (or that lost the most points), with ``better``, a line that kept it winnable
    (``None`` for a game won); ``summary`` one sentence for players."""

    session: str
    game: str
    variant: str
    status: str
    moves: list[str]
    positions: list[Position]
    resigned: bool = False
    turning_point: TurningPoint | None = None
    last_winnable: int | None = None
    summary: str = ""
    par: int | None = None
    over_par: int | None = None
    searched: int = 0
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Analysis:
        body = raw["analysis"]
        out = _build(cls, {**body, "session": raw["session"]})
        out.positions = [_build(Position, p) for p in body["positions"]]
        if body.get("turning_point") is not None:
            out.turning_point = _build(TurningPoint, body["turning_point"])
        out.raw = raw
        return out


class Analyses(Accounts):
    """``analysis(session)``."""

    async def analysis(self, session: str, *, wait: float = 120.0) -> Analysis:
        """The analysis of a finished game whose moves you may see in full: your practice
        game once it is over, a race's or a ranked daily attempt's once its race or day is
        over, a called-card match player's grid (``<match>.<player id>``) once the match is
        (anyone's then). While the server computes it, asks again as often as it says,
        for up to ``wait`` seconds (0: once), then raises ``AnalysisPending``. Refusals raise
        ``ServerError``: ``analysis.not_over`` (still being played), ``session.hidden`` or
        ``match.not_over`` (not public yet), ``session.not_yours``, ``analysis.match``
        (a Bowling match)."""
        end = time.monotonic() + wait
        while True:
            raw = await self._rest("GET", f"/sessions/{session}/analysis")
            if raw["state"] == "ready":
                return Analysis.from_raw(raw)
            retry_ms = int(raw.get("retry_ms") or 1000)
            left = end - time.monotonic()
            if left <= 0:
                raise AnalysisPending(session, retry_ms)
            await asyncio.sleep(min(max(retry_ms, 50) / 1000, left))
