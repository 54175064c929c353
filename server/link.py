"""One Redis connection that every request of a process shares for its scripts and single
commands: each command is written as it comes and the replies are matched to their callers in
order (Redis answers a connection's commands in the order it got them).

Why: through redis-py's pool every command takes a connection, writes, waits for its own reply
and gives the connection back, about 80 µs of client CPU per command here. That was a third of
the server's CPU per move and the whole of a leaderboard submit's. Many requests in flight on one
connection cost a few µs each, and their replies arrive several to a read.

Transactions (WATCH/MULTI), pipelines and pub/sub stay on redis-py's pool, whose connections
the link's connection is made like (same URL, password, database, TLS).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio import ConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError

log = logging.getLogger("samedeal.link")

Arg = str | bytes | int | float


class _Wire(asyncio.Protocol):
    """A connection redis-py made (address, TLS, AUTH, SELECT, RESP2) and then handed over:
    its transport now feeds this protocol, and its own stream objects are never used again."""

    def __init__(self) -> None:
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.outgoing: list[bytes] = []  # commands written once per loop turn, not each

    async def open(self, pool: ConnectionPool) -> None:
        conn = pool.make_connection()
        await conn.connect()
        writer = conn._writer  # type: ignore[attr-defined]
        conn._reader = conn._writer = None  # type: ignore[attr-defined]
        self.writer = writer  # kept: a collected StreamWriter closes its transport
        self.transport = writer.transport
        writer.transport.set_protocol(self)

    def send(self, command: bytes) -> None:
        if not self.outgoing:
            asyncio.get_running_loop().call_soon(self.flush)
        self.outgoing.append(command)

    def flush(self) -> None:
        if self.transport is not None and self.outgoing:
            self.transport.write(b"".join(self.outgoing))
        self.outgoing.clear()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class _Replies(_Wire):
    """The link's connection: replies, in order, resolve the oldest waiting future."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting, gets = self.waiting, self.reader.gets
        while (reply := gets()) is not False:
            fut = waiting.popleft()
            if fut.done():  # its caller was cancelled: the reply is dropped, the order kept
                continue
            if isinstance(reply, hiredis.ReplyError):
                fut.set_exception(BaseParser.parse_error(str(reply)))
            else:
                fut.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        while self.waiting:
            fut = self.waiting.popleft()
            if not fut.done():
                fut.set_exception(RedisConnectionError("the connection to Redis was lost"))


class Link:
    """The shared connection, made on first use and again after it was lost. A command caught
    by the loss fails with redis-py's ``ConnectionError``, as through the pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool
        self._wire: _Replies | None = None
        self._connecting = asyncio.Lock()

    async def call(self, *args: Arg) -> Any:
        wire = self._wire
        if wire is None or wire.transport is None:
            wire = await self._connect()
        fut = asyncio.get_running_loop().create_future()
        wire.waiting.append(fut)
        wire.send(hiredis.pack_command(args))
        return await fut

    async def _connect(self) -> _Replies:
        async with self._connecting:
            wire = self._wire
            if wire is None or wire.transport is None:  # else another caller made it
                wire = _Replies()
                await wire.open(self.pool)
                self._wire = wire
            return wire

    def close(self) -> None:
        if self._wire is not None:
            self._wire.close()
        self._wire = None


class Channels(_Wire):
    """The process's pub/sub connection, read straight from the socket: each message goes to
    ``on_message(channel, data)``. When the connection is lost it is made again (every half
    second until Redis answers), every channel is subscribed again, and then ``on_reconnect()``
    runs: what was published meanwhile never arrives, so listeners catch up themselves."""

    RETRY_S = 0.5

    def __init__(self, pool: ConnectionPool, on_message: Callable[[str, bytes], None],
                 on_reconnect: Callable[[], None]) -> None:
        super().__init__()
        self.pool = pool
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.channels: set[str] = set()
        self._confirm: dict[tuple[bytes, str], asyncio.Future[None]] = {}
        self._retry: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self, channel: str) -> None:
        """Connect, listening on ``channel``."""
        await self.open(self.pool)
        await self.subscribe(channel)

    async def subscribe(self, channel: str) -> None:
        self.channels.add(channel)
        await self._confirmed(b"subscribe", channel)

    async def unsubscribe(self, channel: str) -> None:
        self.channels.discard(channel)
        await self._confirmed(b"unsubscribe", channel)

    async def _confirmed(self, kind: bytes, channel: str) -> None:
        """Send and wait for Redis to confirm, so events published after this returns reach
        us. Disconnected: nothing to wait for, the reconnect subscribes ``channels``."""
        if self.transport is None:
            return
        fut = self._confirm[(kind, channel)] = asyncio.get_running_loop().create_future()
        self.send(hiredis.pack_command((kind.decode().upper(), channel)))
        with contextlib.suppress(RedisConnectionError):
            await fut

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            kind = reply[0]
            if kind == b"message":
                self.on_message(reply[1].decode(), reply[2])
            elif isinstance(kind, bytes):  # subscribe / unsubscribe confirmations
                fut = self._confirm.pop((kind, reply[1].decode()), None)
                if fut is not None and not fut.done():
                    fut.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        for fut in self._confirm.values():
            if not fut.done():
                fut.set_exception(RedisConnectionError("the connection to Redis was lost"))
        self._confirm.clear()
        if not self._closed:
            self._retry = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.RETRY_S)
            self.reader = hiredis.Reader()
            try:
                await self.open(self.pool)
            except Exception as e:  # unreachable, timed out, still loading: try again
                log.warning("pub/sub connection: Redis unreachable (%s); retrying", e)
                continue
            channels = list(self.channels)
            if channels:  # Redis confirms them in order: the last confirmed, all are
                last = self._confirm[(b"subscribe", channels[-1])] = (
                    asyncio.get_running_loop().create_future())
                self.send(hiredis.pack_command(("SUBSCRIBE", *channels)))
                try:
                    await last
                except RedisConnectionError:
                    return  # lost again: connection_lost started the next try
            self.on_reconnect()
            return

    async def stop(self) -> None:
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
        self.close()


class Script:
    """A Lua script called by its SHA1 over the link, loaded when Redis doesn't know it (a
    fresh or restarted Redis). Called like redis-py's ``await script(keys=..., args=...)``;
    with ``client=`` (a pipeline) it is queued there by redis-py instead."""

    def __init__(self, redis: Redis, link: Link, lua: str) -> None:
        self.link = link
        self.lua = lua
        self.sha = hashlib.sha1(lua.encode()).hexdigest()
        self._queued = redis.register_script(lua)

    async def __call__(self, keys: Sequence[Arg] = (), args: Sequence[Arg] = (),
                       client: Any = None) -> Any:
        if client is not None:
            return await self._queued(keys=keys, args=args, client=client)
        try:
            return await self.link.call("EVALSHA", self.sha, len(keys), *keys, *args)
        except NoScriptError:
            await self.link.call("SCRIPT", "LOAD", self.lua)
            return await self.link.call("EVALSHA", self.sha, len(keys), *keys, *args)


class Client(Redis):
    """redis-py's client with the link beside its pool: ``store.connect`` makes one."""

    def __init__(self, *, connection_pool: ConnectionPool, **kwargs: Any) -> None:
        super().__init__(connection_pool=connection_pool, **kwargs)
        self.link = Link(connection_pool)

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        self.link.close()
        await super().aclose(close_connection_pool)


def link_of(redis: Redis) -> Link | None:
    """The client's link: ``None`` for the embedded store or a plain redis-py client."""
    link = getattr(redis, "link", None)
    return link if isinstance(link, Link) else None


def script(redis: Redis, lua: str) -> Any:
    """A script over the link where there is one, else redis-py's own."""
    link = link_of(redis)
    return Script(redis, link, lua) if link else redis.register_script(lua)


async def call(redis: Redis, *args: Arg) -> Any:
    """A single command over the link where there is one."""
    link = link_of(redis)
    return await (link.call(*args) if link else redis.execute_command(*args))
