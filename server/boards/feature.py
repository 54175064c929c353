"""Leaderboards: a page of any board, and boards watched live on a socket
(server/boards/live.py)."""

from __future__ import annotations

from typing import cast

from ..accounts import Player, kind_of
from ..api import Services, board_of
from ..daily.winnable import add_par
from ..ended import GameEnded, MatchEnded, RaceEnded
from ..errors import ApiError
from ..feature import Feature, Listen, Operation
from ..leagues.boards import league_board
from ..transport.messages import BoardGet
from ..transport.reply_types import Board
from ..transport.rest import get
from . import live
from .formats import board_format


async def board_get(sv: Services, player: Player, body: BoardGet) -> Board:
    if league_board(body["board"]):
        return await sv.league_boards.page(player.id, body)  # members only
    name, public, kind = await board_of(sv, body)
    around = body.get("around", "")
    start, count = body.get("start", 0), body.get("count", 20)
    page = await sv.boards.page(name, start, count, player.id if around == "me" else around)
    if around == "me" and page is None:  # no entry yet (the attempt is still going)
        page = await sv.boards.page(name, start, count)
    if page is None:
        raise ApiError("board.absent", "that player has no entry on this board")
    reply: Board = {"board": public, "kind": kind_of(kind), "format": board_format(public),
                    "total": page.total, "entries": page.entries}
    if around == "me":  # your rank, or null: no entry yet
        reply["you"] = next((e["rank"] for e in page.entries if e["player"] == player.id), None)
    par = await sv.winnable.board_par(public)
    if par is not None:  # a revealed day's board
        reply = cast(Board, add_par(dict(reply), par))
    return reply


async def stop(sv: Services) -> None:
    await sv.board_watch.stop()  # the boards' readers stopped


async def game_ended(sv: Services, ended: GameEnded) -> None:
    await sv.records.game_over(ended.session, ended.finished_at)


async def race_ended(sv: Services, ended: RaceEnded) -> None:
    r = ended.results
    if not ended.ghost:  # a ghost race's run counts on its ghost race's board alone
        await sv.records.results(r["game"], r["variant"], r["ranking"], r["race"], ended.bot)


async def match_ended(sv: Services, ended: MatchEnded) -> None:
    r = ended.results
    await sv.records.results(r["game"], r["variant"], r["ranking"], r["match"])


FEATURE = Feature(
    "boards",
    operations={"board.get": Operation(board_get, "board")},
    socket={"board.subscribe": live.handle, "board.unsubscribe": live.handle},
    endpoints=[get("/boards/{board:path}", "board.get", "A leaderboard page (docs/protocol.md)",
                   ("board.unknown", "board.absent"))],
    closed=live.leave_all,
    stop=stop,
    # every entrant's statistics, then the ratings
    listens=[Listen(GameEnded, game_ended), Listen(RaceEnded, race_ended),
             Listen(MatchEnded, match_ended)],
)
