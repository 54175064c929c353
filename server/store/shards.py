"""Pub/sub on a Redis Cluster: each race's or match's channel is a shard channel (SPUBLISH in
the scripts, server/store/scripts.py), subscribed with SSUBSCRIBE on the primary that owns its slot,
so its events travel only within that shard. One ``channels.Channels`` connection per primary.

When a shard's connection is lost, or Redis drops a channel because its slot moved (a
failover, a resharding), the cluster's slot map is read again and every channel is subscribed
at its owner; then ``on_reconnect()`` runs, because what was published meanwhile never
arrives and listeners catch up themselves."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from redis.asyncio.cluster import RedisCluster

from .channels import Channels
from .link import TIMEOUT_S
from .shard_links import NodeConnections

log = logging.getLogger("samedeal.shards")


class ShardChannels:
    """``channels.Channels``' duties on a Redis Cluster (``Hub`` in server/transport/events.py)."""

    RETRY_S = 0.5
    RETRY_MAX_S = 5.0

    def __init__(self, cluster: RedisCluster, on_message: Callable[[str, bytes], None],
                 on_reconnect: Callable[[], None], timeout: float = TIMEOUT_S) -> None:
        self.cluster = cluster
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.timeout = timeout
        self.shards: dict[str, Channels] = {}  # by node name, host:port
        self.where: dict[str, str] = {}  # channel -> node name
        self._moving: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def ready(self) -> bool:
        """Every channel subscribed at its shard's primary now."""
        return bool(self.shards) and self._moving is None and all(
            shard.ready for shard in self.shards.values())

    async def start(self, channel: str) -> None:
        try:
            await self.cluster.initialize()
        except Exception as e:  # no seed node answers: try again in the background
            log.warning("pub/sub on the cluster: no node reachable (%s)", e)
            self.where[channel] = ""
            self._move_later()
            return
        await self.subscribe(channel)

    async def subscribe(self, channel: str) -> None:
        name = self._owner(channel)
        self.where[channel] = name
        if name:
            await self._listen(name, channel)

    async def unsubscribe(self, channel: str) -> None:
        name = self.where.pop(channel, "")
        shard = self.shards.get(name)
        if shard is not None:
            await shard.unsubscribe(channel)

    def _owner(self, channel: str) -> str:
        """The name of the primary that owns ``channel``'s slot, by the client's slot map."""
        try:
            node = self.cluster.get_node_from_key(channel)
        except Exception:  # the map does not cover it now: the next move finds it
            self._move_later()
            return ""
        return node.name if node is not None else ""

    async def _listen(self, name: str, channel: str) -> None:
        """Subscribe ``channel`` on the primary ``name``, connecting to it first if this is
        its first channel (in the background if it does not answer)."""
        shard = self.shards.get(name)
        if shard is not None:
            await shard.subscribe(channel)
            return
        node = self.cluster.get_node(node_name=name)
        assert node is not None
        shard = self.shards[name] = Channels(
            NodeConnections(node, self.cluster), self.on_message,  # type: ignore[arg-type]
            self.on_reconnect,
            self.timeout, sharded=True, on_lost=self._move_later)
        await shard.start(channel)

    def _move_later(self) -> None:
        if not self._closed and self._moving is None:
            self._moving = asyncio.get_running_loop().create_task(self._move())

    async def _move(self) -> None:
        """Read the slot map again and subscribe each channel at its owner, until every
        shard's connection is up; then the listeners catch up."""
        wait = self.RETRY_S
        try:
            while not self._closed:
                await asyncio.sleep(wait)
                try:
                    await self.cluster.nodes_manager.initialize()
                    await self._resubscribe()
                except Exception as e:  # the cluster still electing, a node unreachable
                    log.warning("pub/sub on the cluster: %s; next try in %g s", e, wait)
                else:
                    if all(shard.ready for shard in self.shards.values()):
                        break
                wait = min(wait * 2, self.RETRY_MAX_S)
        finally:
            self._moving = None
        if not self._closed:
            log.warning("pub/sub on the cluster: %d channel(s) at their shards again; they "
                        "catch up", len(self.where))
            self.on_reconnect()

    async def _resubscribe(self) -> None:
        for channel in list(self.where):
            name = self._owner(channel)
            old = self.shards.get(self.where[channel])
            if name == self.where[channel] and old is not None and channel in old.channels:
                continue
            if old is not None and channel in old.channels:
                await old.unsubscribe(channel)
            self.where[channel] = name
            if name:
                await self._listen(name, channel)
        for name in [n for n, shard in self.shards.items() if not shard.channels]:
            await self.shards.pop(name).stop()  # a shard left with nothing to listen to

    async def stop(self) -> None:
        self._closed = True
        if self._moving is not None:
            self._moving.cancel()
        for shard in self.shards.values():
            await shard.stop()
