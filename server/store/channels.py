"""The process's one pub/sub connection, read straight from its socket (no reading task),
made again in the background whenever Redis is away, at the start or later."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from redis.asyncio import ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .link import TIMEOUT_S, Wire, pack

log = logging.getLogger("samedeal.channels")


class Channels(Wire):
    """The process's pub/sub connection, read straight from the socket: each message goes to
    ``on_message(channel, data)``. When Redis cannot be reached, at the start or later, the
    connection is made again in the background (after half a second, doubling up to five
    between tries, one log line each), every channel is subscribed again, and then
    ``on_reconnect()`` runs: what was published meanwhile never arrives, so listeners catch up
    themselves. ``ready`` says whether every channel is subscribed now.

    ``sharded``: shard channels of one Redis Cluster node (SSUBSCRIBE; server/store/shards.py keeps
    one per shard). ``on_lost()`` then runs whenever the connection is lost or Redis drops a
    channel because its slot moved to another shard."""

    RETRY_S = 0.5
    RETRY_MAX_S = 5.0
    #: Seconds between PINGs on a quiet or busy connection alike: a socket whose peer vanished
    #: without closing it (a host gone, a network cut) would otherwise leave the process deaf
    #: to every event for good. No answer within ``timeout`` breaks it, and it is made again.
    HEARTBEAT_S = 10.0

    def __init__(self, pool: ConnectionPool, on_message: Callable[[str, bytes], None],
                 on_reconnect: Callable[[], None], timeout: float = TIMEOUT_S,
                 sharded: bool = False, on_lost: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.verbs = (b"ssubscribe", b"sunsubscribe") if sharded else (b"subscribe",
                                                                          b"unsubscribe")
        self.message = b"smessage" if sharded else b"message"
        self.on_lost = on_lost
        self.pool = pool
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.timeout = timeout
        self.channels: set[str] = set()
        self.ready = False
        self._confirm: dict[tuple[bytes, str], asyncio.Future[None]] = {}
        self._retry: asyncio.Task[None] | None = None
        self._closed = False
        self._beat: asyncio.TimerHandle | None = None
        self._pong_due = False

    async def start(self, channel: str) -> None:
        """Connect, listening on ``channel``; if Redis does not answer, keep trying in the
        background (this returns either way)."""
        self.channels.add(channel)
        try:
            await self._connect()
        except Exception as e:
            log.warning("pub/sub connection: Redis unreachable (%s); next try in %g s",
                        e, self.RETRY_S)
            self._retry_later()

    async def subscribe(self, channel: str) -> None:
        self.channels.add(channel)
        await self._confirmed(self.verbs[0], channel)

    async def unsubscribe(self, channel: str) -> None:
        self.channels.discard(channel)
        await self._confirmed(self.verbs[1], channel)

    async def _confirmed(self, kind: bytes, channel: str) -> None:
        """Send and wait for Redis to confirm, so events published after this returns reach
        us. Disconnected, or no confirmation within the deadline (the connection is then
        closed): nothing to wait for, the reconnect subscribes ``channels``."""
        if self.transport is None:
            return
        fut = self._confirm[(kind, channel)] = asyncio.get_running_loop().create_future()
        self.send(pack((kind.decode().upper(), channel)))
        try:
            async with asyncio.timeout(self.timeout):
                await fut
        except RedisConnectionError:
            pass
        except TimeoutError:
            self.broken(f"no {kind.decode()} confirmation within {self.timeout:g} s")

    async def _connect(self) -> None:
        """Connect and subscribe every channel; ``ready`` once Redis confirmed them."""
        await self.open(self.pool, self.timeout)
        channels = list(self.channels)
        if channels:  # Redis confirms them in order: the last confirmed, all are
            verb = self.verbs[0]
            last = self._confirm[(verb, channels[-1])] = (
                asyncio.get_running_loop().create_future())
            if self.message == b"smessage":  # one slot per SSUBSCRIBE
                for channel in channels:
                    self.send(pack((verb.decode().upper(), channel)))
            else:
                self.send(pack((verb.decode().upper(), *channels)))
            try:
                async with asyncio.timeout(self.timeout):
                    await last
            except TimeoutError:
                self.broken(f"no subscribe confirmation within {self.timeout:g} s")
                raise RedisTimeoutError("Redis did not confirm the subscriptions") from None
        self.ready = True
        self._beat_in(self.HEARTBEAT_S)

    def _beat_in(self, seconds: float) -> None:
        if self._beat is not None:
            self._beat.cancel()
        self._beat = asyncio.get_running_loop().call_later(seconds, self._heartbeat)

    def _heartbeat(self) -> None:
        """PING; the next beat waits for its answer (``_received``), or breaks the connection
        if it does not come within the deadline."""
        self._beat = None
        if self.transport is None or self._closed:
            return
        if self._pong_due:
            self.broken(f"no answer to PING within {self.timeout:g} s")
            return
        self._pong_due = True
        self.send(pack(("PING",)))
        self._beat_in(self.timeout)

    def data_received(self, data: bytes) -> None:
        if self.transport is None:
            return
        try:
            self.reader.feed(data)
            while (reply := self.reader.gets()) is not False:
                self._received(reply)
        except Exception as e:  # not pub/sub's protocol: start over on a new connection
            self.broken(f"{type(e).__name__}: {e}")

    def _received(self, reply: Any) -> None:
        if reply == b"PONG" or (isinstance(reply, list) and reply[:1] == [b"pong"]):
            self._pong_due = False  # a PING's answer, subscribed (a pair) or not
            self._beat_in(self.HEARTBEAT_S)
            return
        kind = reply[0] if isinstance(reply, list) and len(reply) == 3 else None
        if kind == self.message:
            try:
                self.on_message(reply[1].decode(), reply[2])
            except Exception:  # one listener's fault: the connection is fine
                log.exception("pub/sub: a listener failed on %s", reply[1])
        elif kind in self.verbs:
            channel = reply[1].decode()
            fut = self._confirm.pop((kind, channel), None)
            if fut is not None and not fut.done():
                fut.set_result(None)
            elif kind == b"sunsubscribe" and channel in self.channels:
                self.channels.discard(channel)  # its slot moved: subscribe at the new owner
                if self.on_lost is not None:
                    self.on_lost()
        else:
            raise ValueError(f"an unexpected reply: {reply!r:.80}")

    def broken(self, reason: str) -> None:
        """Drop the connection: ``connection_lost`` makes it again."""
        transport, self.transport = self.transport, None
        self.ready = False
        if transport is not None:
            log.warning("pub/sub connection broke (%s): connecting again", reason)
            transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.ready = False
        self._pong_due = False
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        for fut in self._confirm.values():
            if not fut.done():
                fut.set_exception(RedisConnectionError("the connection to Redis was lost"))
        self._confirm.clear()
        self._retry_later()
        if self.on_lost is not None and not self._closed:
            self.on_lost()

    def _retry_later(self) -> None:
        """Start the reconnecting task unless it runs already (its own tries end up here)."""
        if not self._closed and (self._retry is None or self._retry.done()):
            self._retry = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        wait = self.RETRY_S
        while not self._closed:
            await asyncio.sleep(wait)
            try:
                await self._connect()
            except Exception as e:  # unreachable, timed out, still loading: try again
                wait = min(wait * 2, self.RETRY_MAX_S)
                log.warning("pub/sub connection: Redis unreachable (%s); next try in %g s",
                            e, wait)
                continue
            self.on_reconnect()
            return

    async def stop(self) -> None:
        self._closed = True
        self.ready = False
        if self._retry is not None:
            self._retry.cancel()
        self.close()
