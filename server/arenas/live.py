"""A socket's side of arenas (server/arenas/__init__.py): ``arena.join``, ``arena.leave``,
``arena.subscribe`` and ``arena.unsubscribe`` on the WebSocket. A socket that joins or
subscribes follows the arena's channel: each ``arena.round`` and ``arena.ended`` is pushed to
it as published. These events carry no number: a client that reconnects (or whose node lost
its pub/sub connection: the arena is then sent again) reads the arena's state from the
``arena`` reply, whose ``current`` round it follows with ``race.subscribe``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

import msgpack

from ..accounts import Player
from ..api import Services
from ..transport.messages import ArenaJoin, ArenaLeave, ArenaSubscribe, ArenaUnsubscribe
from . import arena_channel

log = logging.getLogger("samedeal.arenas")

KINDS = frozenset({"arena.join", "arena.leave", "arena.subscribe", "arena.unsubscribe"})
Shape = Callable[[dict[str, Any]], dict[str, Any]]
Resend = Callable[[], Awaitable[dict[str, Any]]]
TASKS: set[asyncio.Task[None]] = set()  # resyncs under way (a reference, so none is lost)


class Socket(Protocol):
    sv: Services
    player: Player | None
    own: dict[str, Any]  # "arenas": arena id -> its listener

    def push(self, message: dict[str, Any]) -> None: ...


async def handle(socket: Socket, kind: str,
                 m: ArenaJoin | ArenaLeave | ArenaSubscribe | ArenaUnsubscribe
                 ) -> dict[str, Any]:
    sv, aid = socket.sv, m["arena"]
    assert socket.player is not None
    if m["type"] == "arena.unsubscribe":
        await unfollow(socket, aid)
        return {"type": "unsubscribed", "arena": aid}
    out: Mapping[str, Any]
    if m["type"] == "arena.subscribe":
        out = await sv.arenas.summary(aid, socket.player.id)  # arena.unknown first
    else:
        out = await sv.operations[kind].handler(sv, socket.player, m)
    if m["type"] == "arena.leave":
        await unfollow(socket, aid)
    else:
        await follow(socket, aid)
    return {"type": "arena", **out}


async def follow(socket: Socket, aid: str, shape: Shape | None = None,
                 resend: Resend | None = None) -> None:
    """Push the arena's events to the socket, each as ``shape`` makes it (the daily's live
    edition speaks of its own events: server/daily/live_socket.py); after a pub/sub outage, what
    ``resend`` reads (else the arena's summary)."""
    arenas = followed(socket)
    if aid in arenas:
        return

    def listener(data: bytes | None) -> None:
        if data is not None:
            event = msgpack.unpackb(data, raw=False)
            socket.push(shape(event) if shape is not None else event)
            return
        task = asyncio.get_running_loop().create_task(resync(socket, aid, resend))
        TASKS.add(task)
        task.add_done_callback(TASKS.discard)

    arenas[aid] = listener
    await socket.sv.hub.subscribe(arena_channel(aid), listener)


def followed(socket: Socket) -> dict[str, Any]:
    """The arenas ``socket`` follows, each with its listener."""
    arenas: dict[str, Any] = socket.own.setdefault("arenas", {})
    return arenas


async def resync(socket: Socket, aid: str, resend: Resend | None = None) -> None:
    """Pub/sub was made again: events may have been missed, so the arena is sent whole."""
    try:
        if resend is not None:
            socket.push(await resend())
            return
        viewer = socket.player.id if socket.player else None
        socket.push({"type": "arena", **await socket.sv.arenas.summary(aid, viewer)})
    except Exception:
        log.info("arena %s could not be sent again", aid, exc_info=True)


async def unfollow(socket: Socket, aid: str) -> None:
    listener = followed(socket).pop(aid, None)
    if listener is not None:
        await socket.sv.hub.unsubscribe(arena_channel(aid), listener)


async def leave_all(socket: Socket) -> None:
    """The socket closed: it follows no arena any more."""
    for aid in list(followed(socket)):
        try:
            await unfollow(socket, aid)
        except Exception:
            log.info("unfollowing arena %s failed", aid, exc_info=True)
