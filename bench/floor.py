"""The floor of a move on this stack: the least any server doing what a race move needs can
spend, for bench/ws.py to set the server against.

Per message it does a move's input and output and nothing of a game's: the frame decoded by
SameDeal's codec, one Lua script over SameDeal's Redis link that appends an entry and
publishes an event (what the move script does, without its checks), the ack written back, and
the event, read from SameDeal's pub/sub connection, written to the partner's socket (sockets
are paired in the order they connect). No rules engine, no session, no checks of the message.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from server.store.channels import Channels
from server.store.link import Client, script
from server.transport import codec

MOVE = """
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PUBLISH', KEYS[2], ARGV[2])
return n
"""


class Floor:
    def __init__(self, url: str) -> None:
        self.url = url
        self.outboxes: dict[str, list[asyncio.Queue[bytes]]] = {}  # a pair's channel: its two
        self.joined = 0

    async def start(self) -> None:
        self.redis = Client.from_url(self.url)
        self.move = script(self.redis, MOVE)
        self.channels = Channels(self.redis.connection_pool, self.relay, lambda: None)
        await self.channels.start("floor")

    def relay(self, channel: str, data: bytes) -> None:
        """A published event to the partner of its mover (its first byte: the mover's seat),
        whose own ack already said it, as SameDeal's protocol v2 does."""
        pair = self.outboxes.get(channel, ())
        if len(pair) == 2:
            pair[1 - data[0]].put_nowait(data[1:])

    async def endpoint(self, ws: WebSocket) -> None:
        wire = (ws.scope.get("subprotocols") or ["samedeal.v2.json"])[0]
        encoding = "msgpack" if wire.endswith("msgpack") else "json"
        await ws.accept(subprotocol=wire)
        channel, seat = f"floor:{self.joined // 2}", self.joined % 2
        self.joined += 1
        outbox: asyncio.Queue[bytes] = asyncio.Queue()
        pair = self.outboxes.setdefault(channel, [])
        pair.append(outbox)
        if len(pair) == 1:
            await self.channels.subscribe(channel)
        writer = asyncio.create_task(self._write(ws, outbox, encoding))
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                data = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
                m: Any = codec.decode(data or b"", encoding, 1 << 16)
                event = bytes([seat]) + codec.encode(
                    {"type": "event", "seq": 1, "move": m.get("move")}, encoding)
                seq = await self.move(keys=[channel + ":moves", channel],
                                      args=[m.get("move") or "", event])
                await _send(ws, codec.encode({"type": "ack", "id": m.get("id"), "seq": seq},
                                             encoding), encoding)
        except WebSocketDisconnect:
            return
        finally:
            writer.cancel()

    @staticmethod
    async def _write(ws: WebSocket, outbox: asyncio.Queue[bytes], encoding: str) -> None:
        """The socket's events, as the pub/sub connection hands them over."""
        while True:
            await _send(ws, await outbox.get(), encoding)


async def _send(ws: WebSocket, frame: bytes, encoding: str) -> None:
    if encoding == "msgpack":
        await ws.send_bytes(frame)
    else:
        await ws.send_text(frame.decode())


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    await floor.start()
    yield


floor = Floor(os.environ["SAMEDEAL_REDIS_URL"])
app = Starlette(routes=[WebSocketRoute("/api/v1/ws", floor.endpoint)], lifespan=lifespan)
