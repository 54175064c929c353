"""The daily challenge and the leaderboards."""

from __future__ import annotations

from typing import Any

from .connection import Connection
from .messages import Board, Daily, Session


class DailyAndBoards(Connection):
    """Today's deals, the ranked attempt and the leaderboards' pages."""

    # ----- the daily challenge and leaderboards --------------------------------------------

    async def daily(self, day: str | None = None) -> Daily:
        """A day's deals and commitments (today's when ``day`` is left out)."""
        msg: dict[str, Any] = {"type": "daily.get"}
        if day is not None:
            msg["day"] = day
        return Daily.from_raw(await self.request(msg))

    async def start_daily(self, game: str, variant: str, ranked: bool = True,
                          day: str | None = None) -> Session:
        """Today's ranked attempt (asking again resumes it), or an unranked replay."""
        msg: dict[str, Any] = {"type": "daily.start", "game": game, "variant": variant,
                               "ranked": ranked}
        if day is not None:
            msg["day"] = day
        return Session.from_raw(await self.request(msg))

    async def board(self, name: str, kind: str = "human", start: int = 0, count: int = 20,
                    around: str | None = None) -> Board:
        """A page of a leaderboard (``daily/today/golf/easy``, ``alltime/all``, …);
        ``around``: ``me`` or a player id, to centre the page on them."""
        msg: dict[str, Any] = {"type": "board.get", "board": name, "kind": kind,
                               "start": start, "count": count}
        if around is not None:
            msg["around"] = around
        return Board.from_raw(await self.request(msg))

