"""Race and match events: one Redis pub/sub connection per process fanning them out to local
sockets, and the short window of past events a reconnecting client catches up from."""

from __future__ import annotations

import asyncio
import functools
import logging
import zlib
from collections.abc import Callable
from typing import Any

import msgpack
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from .. import store
from ..store.channels import Channels
from ..store.link import link_of
from ..store.shards import ShardChannels
from . import codec

log = logging.getLogger("samedeal.events")

#: Called with each published event, or with ``None`` after the pub/sub connection was lost and
#: made again: events published meanwhile never arrive, so the listener catches up itself.
Listener = Callable[[bytes | None], None]
#: A channel every node listens on, so the connection exists before any race is watched.
NODE_CHANNEL = "sd:node"
LOCK_STRIPES = 64


class Hub:
    """Listeners by channel, fed by one pub/sub connection (``channels.Channels``), or on a
    Redis Cluster one per shard (``shards.ShardChannels``)."""

    def __init__(self, redis: Redis) -> None:
        self._listeners: dict[str, set[Listener]] = {}
        #: Subscribing waits for Redis to confirm: one channel's changes go in order, under
        #: its stripe's lock, while other channels' (a reconnect storm's hellos) go on.
        self._locks = [asyncio.Lock() for _ in range(LOCK_STRIPES)]
        self.channels: Channels | ShardChannels
        if store.sharded(redis):
            self.channels = ShardChannels(redis, self._deliver,  # type: ignore[arg-type]
                                          self._reconnected)
        else:
            link = link_of(redis)
            assert link is not None, "store.connect makes every client with its link"
            self.channels = Channels(redis.connection_pool, self._deliver, self._reconnected,
                                     link.timeout)

    async def start(self) -> None:
        """Listen; with Redis unreachable this returns after one try (within the store
        deadline) and the connection is made in the background (``ready`` says when)."""
        await self.channels.start(NODE_CHANNEL)

    @property
    def ready(self) -> bool:
        """Subscribed: events published from now on reach this process."""
        return self.channels.ready

    async def stop(self) -> None:
        await self.channels.stop()

    def _deliver(self, channel: str, data: bytes) -> None:
        for listener in list(self._listeners.get(channel, ())):
            listener(data)

    def _reconnected(self) -> None:
        log.warning("pub/sub connection made again: %d channel(s) catch up",
                    len(self._listeners))
        for listeners in list(self._listeners.values()):
            for listener in list(listeners):
                listener(None)

    def _lock(self, channel: str) -> asyncio.Lock:
        return self._locks[zlib.crc32(channel.encode()) % LOCK_STRIPES]

    async def subscribe(self, channel: str, listener: Listener) -> None:
        async with self._lock(channel):
            listeners = self._listeners.setdefault(channel, set())
            if not listeners:
                await self.channels.subscribe(channel)
            listeners.add(listener)

    async def unsubscribe(self, channel: str, listener: Listener) -> None:
        async with self._lock(channel):
            listeners = self._listeners.get(channel)
            if listeners is None:
                return
            listeners.discard(listener)
            if not listeners:
                del self._listeners[channel]
                await self.channels.unsubscribe(channel)


@functools.lru_cache(maxsize=1024)
def decode_event(entry: bytes) -> dict[str, Any]:
    """A stored or published event: ``<seq>\\n<msgpack map>``. Every socket following the
    race or match gets the same entry, so it is decoded once (callers must not change it)."""
    seq, _, payload = entry.partition(b"\n")
    event: dict[str, Any] = msgpack.unpackb(payload, raw=False)
    event["seq"] = int(seq)
    return event


#: The start of a private note on a match's channel: a Bowling card that keeps its bowler's
#: turn, for that bowler's own sockets only (``<prefix><player id>``). It is no event: no
#: number, never stored, never sent to anyone; their sockets send them their lane again.
OWN_STEP = b"you\n"


def own_step(player: str) -> bytes:
    """The note that ``player`` placed a card and still has the turn."""
    return OWN_STEP + player.encode()


def step_of(data: bytes) -> str | None:
    """Whose private note ``data`` is; ``None`` for an event."""
    return data[len(OWN_STEP):].decode() if data.startswith(OWN_STEP) else None


def seen_by(event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The event as ``viewer`` may see it. An event with an audience (``to``: the player ids
    that see it whole, as a Bowling placement in a frame others are still to bowl) reaches
    everyone else with the fields in its ``others`` in place of its own; neither field is
    ever sent."""
    return audience_form(event, viewer in event["to"]) if "to" in event else event


def audience_form(event: dict[str, Any], whole: bool) -> dict[str, Any]:
    """An event with an audience as its audience (``whole``) or everyone else sees it."""
    out = {k: v for k, v in event.items() if k not in ("to", "others")}
    return out if whole else out | event["others"]


@functools.lru_cache(maxsize=1024)
def event_frame(entry: bytes, encoding: str, whole: bool = True) -> str | bytes:
    """The event in ``entry`` as a frame in ``encoding``: written once for every socket of
    that encoding following the race or match (the ``codec`` of server/transport/ws.py), and for an
    event with an audience once for its audience (``whole``) and once for everyone else."""
    event = decode_event(entry)
    if "to" in event:
        event = audience_form(event, whole)
    return (codec.encode(event, codec.MSGPACK) if encoding == codec.MSGPACK
            else codec.text(event))


async def events_after(redis: Redis, eid: str, after: int) -> list[dict[str, Any]] | None:
    """A race's or match's events numbered above ``after``; ``None`` when the window no longer
    holds them all, or holds none: the list expired after the end (``replay_window``) or the
    race is too new to have one, so the caller sends the summary.

    Most catch-ups run just after Redis came back (the pub/sub connection was made again),
    when an idle pooled connection may be one that died with it: the read is tried once more
    on a fresh connection before it fails (and the socket is closed to resume)."""
    key = store.events_key(eid)
    try:
        entries = await redis.lrange(key, 0, -1)
    except RedisConnectionError:
        await store.forget_idle(redis)
        entries = await redis.lrange(key, 0, -1)
    events = [decode_event(e) for e in entries]
    if not events:
        return None
    if events[0]["seq"] > after + 1 or after > events[-1]["seq"]:
        return None
    return [e for e in events if e["seq"] > after]
