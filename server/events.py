"""One Redis pub/sub connection per process, fanning race events out to local sockets."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from redis.asyncio import Redis

log = logging.getLogger("samedeal.events")

Listener = Callable[[bytes], None]
#: A channel every node listens on, so the connection exists before any race is watched.
NODE_CHANNEL = "sd:node"


class Hub:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.pubsub = redis.pubsub()
        self._listeners: dict[str, set[Listener]] = {}
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        await self.pubsub.subscribe(NODE_CHANNEL)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.pubsub.aclose()

    async def subscribe(self, channel: str, listener: Listener) -> None:
        async with self._lock:
            listeners = self._listeners.setdefault(channel, set())
            if not listeners:
                await self.pubsub.subscribe(channel)
            listeners.add(listener)

    async def unsubscribe(self, channel: str, listener: Listener) -> None:
        async with self._lock:
            listeners = self._listeners.get(channel)
            if listeners is None:
                return
            listeners.discard(listener)
            if not listeners:
                del self._listeners[channel]
                await self.pubsub.unsubscribe(channel)

    async def _run(self) -> None:
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True,
                                                    timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("pub/sub read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if msg is None or msg["type"] != "message":
                continue
            channel = msg["channel"].decode()
            for listener in list(self._listeners.get(channel, ())):
                listener(msg["data"])
