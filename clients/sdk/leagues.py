"""Leagues (docs/protocol.md#leagues): private groups with their own daily and week boards.

Replies are returned as the server sends them (dicts: the league summary, or the list), so a
field the server adds is there at once. A change whose reply is lost in a dropped connection
is settled from the leagues you are in after the reconnect, never blindly sent twice."""

from __future__ import annotations

from typing import Any, cast

from .accounts import Accounts
from .board_updates import BoardUpdates
from .daily import DailyAndBoards
from .messages import Board
from .payloads import League, LeagueLeft, LeagueListed


def league_daily_board(league: str, game: str, variant: str, day: str = "today") -> str:
    """The name of a league's daily board: its members' results on that public board."""
    return f"league/{league}/daily/{day}/{game}/{variant}"


def league_week_board(league: str, week: str = "current") -> str:
    """The name of a league's week board: points per daily place among the members."""
    return f"league/{league}/weekly/{week}"


class Leagues(Accounts, DailyAndBoards):
    """Create, join, leave, remove, a new code, read; and the league boards."""

    async def create_league(self, name: str) -> League:
        """A new league you own; its summary holds the invite ``code``. Never re-sent after a
        drop (it would make a second league): ``ConnectionLost``."""
        return cast(League, await self.request({"type": "league.create", "name": name}, None))

    async def join_league(self, code: str) -> League:
        """Join with an invite code (``league.unknown`` for a wrong one). Every try counts
        against your limit of tries at joining: beyond it ``ServerError`` ``rate.limited``
        with ``retry_after`` (minutes, not the socket's pace: so this goes over REST, and the
        client's other messages are not held back for it). Never re-sent: a failed call
        raises (``ConnectionLost`` when the server could not be reached); look at
        ``leagues()``."""
        return cast(League, await self._rest("POST", "/leagues/join", {"code": code}))

    async def leave_league(self, league: str) -> LeagueLeft:
        """Leave (``{"league", "closed"}``); the owner leaving closes the league."""
        async def recover() -> dict[str, Any] | None:
            if any(x["league"] == league for x in await self.leagues()):
                return None  # still in: send it again
            return {"type": "league.left", "league": league, "closed": False}
        return cast(LeagueLeft, await self.request({"type": "league.leave", "league": league},
                                                   recover))

    async def remove_from_league(self, league: str, player: str) -> League:
        """Remove a member (the owner only); the summary after it."""
        async def recover() -> dict[str, Any] | None:
            summary = await self.league(league)
            if any(m["player"] == player for m in summary["members"]):
                return None
            return dict(summary)
        return cast(League, await self.request({"type": "league.remove", "league": league,
                                                "player": player}, recover))

    async def new_league_code(self, league: str) -> League:
        """A new invite code (the owner only); the old one stops working. Sent again after a
        drop: a second new code is as good as the first."""
        return cast(League, await self.request({"type": "league.code", "league": league}))

    async def league(self, league: str) -> League:
        """A league you are in: name, owner, members, code (``league.unknown`` otherwise)."""
        return cast(League, await self.request({"type": "league.get", "league": league}))

    async def leagues(self) -> list[LeagueListed]:
        """The leagues you are in: ``league``, ``name``, ``owner``, ``members`` (a count)."""
        reply = await self.request({"type": "league.list"})
        return list(reply["leagues"])

    async def league_board(self, league: str, game: str | None = None,
                           variant: str | None = None, day: str = "today",
                           week: str = "current", kind: str = "human") -> Board:
        """A league's daily board for ``game``/``variant``, or without them its week board."""
        return await self.board(_name(league, game, variant, day, week), kind, count=100)

    async def watch_league_board(self, league: str, game: str | None = None,
                                 variant: str | None = None, day: str = "today",
                                 week: str = "current", kind: str = "human") -> BoardUpdates:
        """The same, watched live (``subscribe_board``)."""
        return await self.subscribe_board(_name(league, game, variant, day, week), kind, 100)


def _name(league: str, game: str | None, variant: str | None, day: str, week: str) -> str:
    if game is not None and variant is not None:
        return league_daily_board(league, game, variant, day)
    return league_week_board(league, week)
