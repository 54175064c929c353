"""One Redis connection that every request of a process shares for its scripts and single
commands: each command is written as it comes and the replies are matched to their callers in
order (Redis answers a connection's commands in the order it got them).

Why: through redis-py's pool every command takes a connection, writes, waits for its own reply
and gives the connection back, about 80 µs of client CPU per command here. That was a third of
the server's CPU per move and the whole of a leaderboard submit's. Many requests in flight on one
connection cost a few µs each, and their replies arrive several to a read.

Matching by position is only safe while every command written gets exactly one reply, so the
link keeps that true by construction: a command is encoded before anything about it is queued
(one that cannot be encoded fails alone); anything else unexpected (bytes that are not Redis's
protocol, a reply no command asked for, a failed write, an exception while handing a reply over,
no reply within the store deadline) closes the connection and fails every command in flight
with redis-py's ``ConnectionError`` or ``TimeoutError``; the next command connects afresh. A
reply can only reach the caller whose command was written in its place on its connection.

Transactions (WATCH/MULTI) and pipelines stay on redis-py's pool, whose connections the
link's connection is made like (same URL, password, database, TLS); pub/sub has a connection
of its own (server/store/channels.py).
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
from redis.asyncio.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, NoScriptError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..crash_points import CrashAt

log = logging.getLogger("samedeal.link")

Arg = str | bytes | int | float
#: Seconds a command may wait for its reply, and a new connection for Redis, by default.
TIMEOUT_S = 5.0
#: Commands that change how a connection answers (no reply, several, or other callers'
#: commands queued into a transaction): on a shared connection they would shift every later
#: reply onto the wrong caller, so the link refuses them. redis-py's pool serves them.
NOT_ON_LINK = frozenset({"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "UNSUBSCRIBE",
                         "PUNSUBSCRIBE", "SUNSUBSCRIBE", "MONITOR", "SYNC", "PSYNC", "QUIT",
                         "RESET", "HELLO", "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH"})


def pack(args: tuple[Any, ...]) -> bytes:
    """A command in Redis's wire format. hiredis's type information takes a one-item tuple
    only, so every command of any length is packed through here."""
    packed: bytes = hiredis.pack_command(args)
    return packed

class Wire(asyncio.Protocol):
    """A connection redis-py made (address, TLS, AUTH, SELECT, HELLO) and then handed over:
    its transport now feeds this protocol, and its own stream objects are never used again."""

    def __init__(self) -> None:
        self.reader = hiredis.Reader(replyError=BaseParser.parse_error)
        self.transport: asyncio.Transport | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.outgoing: list[bytes] = []  # commands written once per loop turn, not each

    async def open(self, pool: ConnectionPool, timeout: float) -> None:
        """Connect within ``timeout`` seconds, the handshake included."""
        conn = pool.make_connection()  # type: ignore[no-untyped-call]  # redis-py's
        try:
            async with asyncio.timeout(timeout):
                await conn.connect()
        except BaseException as e:
            with contextlib.suppress(Exception):
                conn._close()
            if isinstance(e, TimeoutError):  # asyncio's, not redis-py's
                raise RedisTimeoutError(
                    f"Redis did not accept a connection within {timeout:g} s") from None
            raise
        writer = conn._writer
        conn._reader = conn._writer = None
        self.reader = hiredis.Reader(replyError=BaseParser.parse_error)
        self.outgoing = []
        self.writer = writer  # kept: a collected StreamWriter closes its transport
        self.transport = writer.transport
        writer.transport.set_protocol(self)

    def send(self, command: bytes) -> None:
        if not self.outgoing:
            asyncio.get_running_loop().call_soon(self.flush)
        self.outgoing.append(command)

    def flush(self) -> None:
        outgoing, self.outgoing = self.outgoing, []
        if self.transport is not None and outgoing:
            try:
                self.transport.write(b"".join(outgoing))
            except Exception as e:  # the transport refused: its commands would get no reply
                self.broken(f"writing to Redis failed ({e})")

    def broken(self, reason: str) -> None:
        """Something unexpected on the connection: drop it (the link and the pub/sub
        connection also fail or renew what was waiting on it)."""
        transport, self.transport = self.transport, None
        if transport is not None:
            transport.abort()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class _Replies(Wire):
    """The link's connection: replies, in order, resolve the oldest waiting future; the oldest
    command still waiting past its deadline closes the connection."""

    def __init__(self, timeout: float) -> None:
        super().__init__()
        self.timeout = timeout
        self.waiting: collections.deque[tuple[asyncio.Future[Any], float]] = (
            collections.deque())
        self.timer: asyncio.TimerHandle | None = None

    def watch(self, loop: asyncio.AbstractEventLoop, deadline: float) -> None:
        """Check the oldest command at ``deadline``: one timer per connection, not one per
        command (``Link.call`` queues the commands)."""
        self.timer = loop.call_at(deadline, self._check)

    def _check(self) -> None:
        self.timer = None
        if not self.waiting:
            return
        loop = asyncio.get_running_loop()
        deadline = self.waiting[0][1]
        if loop.time() >= deadline - 0.001:  # the loop may fire a timer a hair early
            log.warning("Redis did not answer within %g s: closing the link", self.timeout)
            self.fail(lambda: RedisTimeoutError(
                f"Redis did not answer within {self.timeout:g} s"))
        else:
            self.timer = loop.call_at(deadline, self._check)

    def data_received(self, data: bytes) -> None:
        if self.transport is None:
            return
        waiting, gets = self.waiting, self.reader.gets
        try:
            self.reader.feed(data)
            while (reply := gets()) is not False:
                if not waiting:
                    raise ValueError(f"a reply no command asked for: {reply!r:.80}")
                fut = waiting[0][0]  # taken off only once resolved: fail() gets it otherwise
                if not fut.done():  # else its caller was cancelled: the reply is dropped
                    if isinstance(reply, RedisError):
                        fut.set_exception(reply)
                    else:
                        fut.set_result(reply)
                waiting.popleft()
        except Exception as e:  # the order is no longer known: nothing more can be matched
            self.broken(f"{type(e).__name__}: {e}")

    def broken(self, reason: str) -> None:
        log.warning("the link to Redis broke (%s): closing it", reason)
        self.fail(lambda: RedisConnectionError(
            f"the connection to Redis broke ({reason}) and was closed"))

    def fail(self, error: Callable[[], Exception]) -> None:
        """Close the connection and fail every command in flight with ``error()``."""
        transport, self.transport = self.transport, None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if transport is not None:
            transport.abort()
        while self.waiting:
            fut = self.waiting.popleft()[0]
            if not fut.done():
                fut.set_exception(error())

    def connection_lost(self, exc: Exception | None) -> None:
        self.fail(lambda: RedisConnectionError("the connection to Redis was lost"))


class Link:
    """The shared connection, made on first use and again after it was lost. A command caught
    by the loss fails with redis-py's ``ConnectionError``, as through the pool; one without a
    reply within ``timeout`` seconds with its ``TimeoutError``, and so do the others in flight,
    since the connection is then closed."""

    def __init__(self, pool: ConnectionPool, timeout: float = TIMEOUT_S) -> None:
        self.pool = pool
        self.timeout = timeout
        self._wire: _Replies | None = None
        self._opening: asyncio.Task[_Replies] | None = None
        self._vetted: set[str] = set()
        self.crash: CrashAt | None = None  # a test hook (server/crash_points.py); off

    async def call(self, *args: Arg) -> Any:
        crash = self.crash
        n = crash.before() if crash is not None else 0
        name = args[0] if args else None
        if type(name) is not str or name not in self._vetted:
            self._vet(args)
        try:  # encoded before anything is queued: a failure here fails this call alone
            command = pack(args)
        except TypeError:
            command = self._encoded(args)
        wire = self._wire
        if wire is None or wire.transport is None:
            wire = await self._connect()
            if wire.transport is None:  # lost again before this caller's turn
                raise RedisConnectionError("the connection to Redis was lost")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        deadline = loop.time() + self.timeout
        wire.waiting.append((fut, deadline))
        if wire.timer is None:
            wire.watch(loop, deadline)
        wire.send(command)
        if crash is not None:
            reply = await fut
            crash.answered(n)
            return reply
        return await fut

    async def evalsha(self, sha: str, lua: str, keys: Sequence[Arg],
                      args: Sequence[Arg]) -> Any:
        """A script by its SHA1, loaded first when this Redis doesn't know it (a fresh or
        restarted one, a replica just promoted): NOSCRIPT means it did not run."""
        try:
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)
        except NoScriptError:
            await self.call("SCRIPT", "LOAD", lua)
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)

    def _vet(self, args: tuple[Any, ...]) -> None:
        """Refuse a command that would shift the replies (``NOT_ON_LINK``). The few names the
        code uses are remembered once vetted, so a call costs a set lookup."""
        if not args:
            raise DataError("a command needs a name")
        name = _word(args[0])
        if name in NOT_ON_LINK or (name == "CLIENT" and len(args) > 1
                                   and _word(args[1]) == "REPLY"):
            raise DataError(f"{name} changes how the connection answers: not on the link")
        if type(args[0]) is str and name != "CLIENT" and len(self._vetted) < 256:
            self._vetted.add(args[0])

    def _encoded(self, args: tuple[Any, ...]) -> bytes:
        """Arguments hiredis does not take, encoded as redis-py encodes them: a bytearray is
        sent; ``None``, a bool, a list raise redis-py's ``DataError``."""
        encode = self.pool.get_encoder().encode  # type: ignore[no-untyped-call]  # redis-py's
        return pack(tuple(bytes(encode(a)) for a in args))

    async def _connect(self) -> _Replies:
        """The one connection being made; every caller waiting for it shares its outcome. An
        attempt cut short under its callers (the link closed, a timeout racing the connect)
        fails them as a lost connection: only a caller cancelled itself sees a cancellation."""
        if self._opening is None:
            self._opening = asyncio.ensure_future(self._open())
            self._opening.add_done_callback(_seen)
        opening = self._opening
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not opening.cancelled() or (task is not None and task.cancelling()):
                raise
            raise RedisConnectionError("connecting to Redis was cut short") from None

    async def _open(self) -> _Replies:
        try:
            wire = _Replies(self.timeout)
            await wire.open(self.pool, self.timeout)
            self._wire = wire
            return wire
        finally:
            self._opening = None

    def close(self) -> None:
        if self._opening is not None:
            self._opening.cancel()
        if self._wire is not None:
            self._wire.fail(lambda: RedisConnectionError("the link to Redis was closed"))
        self._wire = None


def _word(arg: Any) -> str:
    """A command's name (or sub-command) in capitals, however it was given."""
    return (arg.decode("latin-1") if isinstance(arg, bytes) else str(arg)).upper()


def _seen(task: asyncio.Task[Any]) -> None:
    """A connection attempt whose callers all left: its failure is not worth a warning."""
    if not task.cancelled():
        task.exception()


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
            return await self._queued(keys=keys, args=args, client=client)  # type: ignore[arg-type]
        return await self.link.evalsha(self.sha, self.lua, keys, args)


class Client(Redis):
    """redis-py's client with the link beside its pool: ``store.connect`` makes one."""

    def __init__(self, *, connection_pool: ConnectionPool, store_timeout: float = TIMEOUT_S,
                 **kwargs: Any) -> None:
        super().__init__(connection_pool=connection_pool, **kwargs)
        self.link = Link(connection_pool, store_timeout)

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        self.link.close()
        await super().aclose(close_connection_pool)

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        crash = self.link.crash
        if crash is None:
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        n = crash.before()
        reply = await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        crash.answered(n)
        return reply

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        if self.link.crash is None:
            return super().pipeline(transaction, shard_hint)
        pipe = _CrashPipeline(self.connection_pool, self.response_callbacks, transaction,
                              shard_hint)
        pipe.crash = self.link.crash
        return pipe


class _CrashPipeline(Pipeline):
    """A pipeline the crash hook sees (server/crash_points.py): one store call."""

    crash: CrashAt

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        n = self.crash.before()
        replies = await super().execute(raise_on_error)
        self.crash.answered(n)
        return replies


def link_of(redis: Redis) -> Link | None:
    """The client's link: ``None`` for a Redis Cluster's client or a plain redis-py one."""
    link = getattr(redis, "link", None)
    return link if isinstance(link, Link) else None


def script(redis: Redis, lua: str) -> Any:
    """A script over the link where there is one, else redis-py's own."""
    link = link_of(redis)
    return Script(redis, link, lua) if link else redis.register_script(lua)


async def call(redis: Redis, *args: Arg) -> Any:
    """A single command over the link where there is one."""
    link = link_of(redis)
    if link:
        return await link.call(*args)
    return await redis.execute_command(*args)  # type: ignore[no-untyped-call]  # redis-py's
