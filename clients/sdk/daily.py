"""The daily challenge and the leaderboards."""

from __future__ import annotations

from typing import Any

from .board_updates import BoardUpdates
from .connection import Connection
from .messages import Board, BoardUpdate, Daily, Session


class DailyAndBoards(Connection):
    """Today's deals, the ranked attempt, the leaderboards' pages and boards watched live."""

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

    async def subscribe_board(self, name: str, kind: str = "human", count: int = 20
                              ) -> BoardUpdates:
        """Watch a board live: its top ``count`` entries and your own entry, as an async
        iterator of ``BoardUpdate`` (the first at once, then whenever either changes, at most
        once a second). Watched again after a reconnect; ``close()`` (or ``async with``)
        stops it. ``board.unknown`` / ``game.unknown`` raise ``ServerError``."""
        self._early_boards.clear()  # what comes from now on is fresh
        reply = await self.request({"type": "board.subscribe", "board": name, "kind": kind,
                                    "count": count})
        key = (str(reply["board"]), str(reply["kind"]))
        watch = self._boards.get(key)
        if watch is None or watch.closed or watch.count != count:
            watch = BoardUpdates(key[0], key[1], count, self._unwatch)
            self._boards[key] = watch
        early = self._early_boards.pop(key, None)  # the first update, read before the reply
        if early is not None and watch.latest is None:  # was handed back to this call
            watch.offer(BoardUpdate.from_raw(early))
        return watch

    async def _unwatch(self, watch: BoardUpdates) -> None:
        key = (watch.board, watch.kind)
        if self._boards.get(key) is watch:
            del self._boards[key]
            if self.connected:
                await self.request({"type": "board.unsubscribe", "board": watch.board,
                                    "kind": watch.kind})
