"""A socket's side of challenges: from its ``hello`` on, the socket follows its player's own
channel of challenge events (server/challenges/__init__.py), so a challenge reaches every socket the
player has open, on any node. Events missed while the socket was away are not replayed: a
client lists the challenges (``challenge.list``) when it connects."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol

import msgpack

from ..accounts import Player
from ..api import Services
from ..transport.events import Listener
from . import channel

log = logging.getLogger("samedeal.challenges")


class Socket(Protocol):
    sv: Services
    player: Player | None
    own: dict[str, Any]  # "challenges": (the player heard, the listener)

    def push(self, message: dict[str, Any]) -> None: ...


async def follow(socket: Socket) -> None:
    """After a good ``hello``: this socket hears its player's challenges (a second hello
    with another player's token moves it to theirs)."""
    player = socket.player
    assert player is not None
    held = socket.own.get("challenges")
    if held is not None:
        if held[0] == player.id:
            return
        await leave(socket)

    def listener(data: bytes | None) -> None:
        if data is not None:  # None: pub/sub came back; nothing to catch up (list instead)
            socket.push(msgpack.unpackb(data, raw=False))

    socket.own["challenges"] = (player.id, listener)
    await socket.sv.hub.subscribe(channel(player.id), listener)
    await socket.sv.accounts.listed(player)  # findable by name (accounts older than that)


async def leave(socket: Socket) -> None:
    """The socket closed (or said hello as someone else)."""
    held: tuple[str, Listener] | None = socket.own.pop("challenges", None)
    if held is None:
        return
    with contextlib.suppress(Exception):  # a closing socket must not fail on this
        await socket.sv.hub.unsubscribe(channel(held[0]), held[1])
