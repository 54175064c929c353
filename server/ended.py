"""What ended, as typed records features listen to: a game, a race, a match.

The app factory publishes each once its end is stored, and again from the follow-up that
completes it after a node died mid-way (server/followups.py), so every listener is idempotent.
A feature listens by declaring ``Feature.listens`` (server/feature.py): the end of a race
reaches its statistics and ratings, its arena's board, its bot race, its ghost race and its
analysis without the races knowing any of them."""

from __future__ import annotations

from dataclasses import dataclass

from .sessions import Session
from .transport.reply_types import MatchResults, RaceBot, RaceResults


@dataclass(frozen=True)
class GameEnded:
    """A practice game's or an unranked replay's first end (a race's game ends with its race,
    a ranked daily attempt with its day)."""

    session: Session
    finished_at: int  # ms


@dataclass(frozen=True)
class RaceEnded:
    """A race's results as stored (server/races/__init__.py): its ranking, seed, bot."""

    results: RaceResults

    @property
    def ghost(self) -> str | None:
        """The ghost race this race was a run of: its results are that ghost race's alone,
        never statistics or ratings (docs/protocol.md, "Ghost races")."""
        return self.results.get("ghost")

    @property
    def bot(self) -> RaceBot | None:
        """A bot race's bot (its player id, name and strength)."""
        return self.results.get("bot")


@dataclass(frozen=True)
class MatchEnded:
    """A match's results as stored (server/matches/results.py): its ranking and seed."""

    results: MatchResults


Ended = GameEnded | RaceEnded | MatchEnded
