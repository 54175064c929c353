"""A socket's side of boards published live: ``board.subscribe`` and ``board.unsubscribe``
on the WebSocket (server/transport/ws.py), over the process's readers (server/boards/watch.py)."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from ..api import Services, board_of
from ..errors import ApiError
from ..leagues.boards import league_board
from ..transport.messages import BoardSubscribe, BoardUnsubscribe
from .watch import Source, Watcher

log = logging.getLogger("samedeal.boards")


class Socket(Watcher, Protocol):
    sv: Services
    own: dict[str, Any]  # "boards": the key names of the boards it watches


def watched(socket: Socket) -> set[str]:
    boards: set[str] = socket.own.setdefault("boards", set())
    return boards


async def handle(socket: Socket, kind: str, m: BoardSubscribe | BoardUnsubscribe
                 ) -> dict[str, Any]:
    """Subscribe or unsubscribe; the reply (``subscribed``, ``unsubscribed``) names the board
    as its updates do: 'today' or 'current' resolved by the server's clock."""
    sv = socket.sv
    watch = sv.board_watch
    assert watch is not None
    source: Source | None = None
    if league_board(m["board"]):
        if m["type"] == "board.unsubscribe":  # a removed member may still leave it
            b = await sv.league_boards.named(m)
            key, public, board_kind = b.key, b.public, b.kind
        else:  # members only: anyone else gets league.unknown
            source = await sv.league_boards.source(socket.watcher_id, m)
            key, public, board_kind = source.board.key, source.board.public, source.board.kind
    else:
        key, public, board_kind = await board_of(sv, m)  # board.unknown, game.unknown
    boards = watched(socket)
    if m["type"] == "board.unsubscribe":
        await watch.unsubscribe(socket, key)
        boards.discard(key)
        return {"type": "unsubscribed", "board": public, "kind": board_kind}
    if key not in boards and len(boards) >= sv.settings.board_watches:
        raise ApiError("board.too_many", f"a socket watches at most "
                       f"{sv.settings.board_watches} boards at once: unsubscribe from one "
                       "first")
    boards.add(key)
    await watch.subscribe(socket, key, public, board_kind, m.get("count", 20), source)
    return {"type": "subscribed", "board": public, "kind": board_kind}


async def leave_all(socket: Socket) -> None:
    """The socket closed: it watches nothing any more."""
    watch = socket.sv.board_watch
    if watch is None:
        return
    boards = watched(socket)
    for key in list(boards):
        try:
            await watch.unsubscribe(socket, key)
        except Exception:  # the store away: a closing socket must still close
            log.info("leaving board %s failed", key, exc_info=True)
    boards.clear()
