"""What the client keeps of each race and match it follows: where a resume starts, the
latest summary, and your own latest position in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .messages import Match, Race, RaceEnded, Session
from .payloads import Yours


@dataclass
class RaceState:
    """What the client knows of a race it follows: the last event number (where a resume
    starts), the latest summary received (its ``state``, times and ``seed`` kept current by
    the events; its entrants as they were), your latest session if you are an entrant, and
    the ``race.ended`` event once it came."""

    id: str
    seq: int = 0
    summary: Race | None = None
    session: Session | None = None
    ended: RaceEnded | None = None

    @property
    def over(self) -> bool:
        return self.ended is not None or (self.summary is not None
                                           and self.summary.state == "ended")


@dataclass
class MatchState:
    """What the client knows of a match it follows: the last event number, the summary, and
    your own latest ``view``/``legal`` (from ``match.you`` or ``match.ack``)."""

    id: str
    seq: int = 0
    summary: Match | None = None
    you: Yours | None = None
    you_seq: int = -1  # the match's event number when ``you`` was computed
    ended: dict[str, Any] | None = None
