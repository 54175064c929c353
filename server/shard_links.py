"""Scripts on a Redis Cluster over one link per primary (server/link.py): each script goes to
the primary that owns its keys' slot, by the cluster client's slot map, on the connection that
every request of the process shares with that primary, as on one Redis.

The cluster's own answers are left to redis-py's cluster client, which knows them: a script
answered MOVED (its slot moved, or its primary failed over), ASK (its slot is being migrated),
TRYAGAIN or CLUSTERDOWN did not run, so it is sent again through that client, which follows
the redirection and updates the slot map the links read. A link that loses its connection
fails the call as on one Redis (the request answers ``store.unavailable``), and the slot map is
read again in the background: the primary may be gone, replaced by its replica.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import Connection
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .link import TIMEOUT_S, Arg, Link

log = logging.getLogger("samedeal.shard_links")

#: Answers after which a script did not run and the cluster client knows what to do.
REDIRECTED = (MovedError, AskError, TryAgainError, ClusterDownError)


class NodeConnections:
    """What a link or a pub/sub connection asks of a pool: a new connection to one cluster
    node, made as the cluster client makes its own (address, TLS, AUTH), and its encoder."""

    def __init__(self, node: ClusterNode, cluster: RedisCluster) -> None:
        self.node = node
        self.cluster = cluster

    def make_connection(self) -> Connection:
        return self.node.connection_class(**self.node.connection_kwargs)

    def get_encoder(self) -> Any:
        return self.cluster.encoder


class ClusterClient(RedisCluster):
    """redis-py's cluster client with a link per primary beside it: ``store.connect`` makes
    one for a ``redis-cluster://`` URL."""

    def __init__(self, *, store_timeout: float = TIMEOUT_S, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.links: dict[str, Link] = {}
        self.store_timeout = store_timeout
        self._refresh: asyncio.Task[None] | None = None

    async def link_for(self, key: Arg) -> Link:
        """The link to the primary that owns ``key``'s slot, by the slot map (read first, once,
        by every caller together: a thousand first calls must not each start reading it)."""
        if self._initialize:  # redis-py's: the slot map was never read
            await self.initialize()
        node = self.get_node_from_key(key)  # type: ignore[arg-type]
        assert node is not None
        link = self.links.get(node.name)
        if link is None:
            link = self.links[node.name] = Link(
                NodeConnections(node, self), self.store_timeout)  # type: ignore[arg-type]
        return link

    def refresh_later(self) -> None:
        """Read the slot map again, once at a time, in the background."""
        if self._refresh is None or self._refresh.done():
            self._refresh = asyncio.get_running_loop().create_task(self._read_map())

    async def _read_map(self) -> None:
        try:
            await self.nodes_manager.initialize()
        except Exception as e:  # still electing a new primary: the next failure asks again
            log.info("reading the cluster's slot map failed: %s", e)

    async def aclose(self) -> None:
        for link in self.links.values():
            link.close()
        if self._refresh is not None:
            self._refresh.cancel()
            with contextlib.suppress(BaseException):
                await self._refresh
        await super().aclose()


class ShardScript:
    """A script on a Redis Cluster, called like redis-py's. Queued in a pipeline (``client=``)
    it goes as EVAL with its whole text: redis-py's cluster pipeline refuses EVALSHA."""

    def __init__(self, cluster: ClusterClient, lua: str) -> None:
        self.cluster = cluster
        self.lua = lua
        self.sha = hashlib.sha1(lua.encode()).hexdigest()
        self._fallback = cluster.register_script(lua)

    async def __call__(self, keys: Sequence[Arg] = (), args: Sequence[Arg] = (),
                       client: Any = None) -> Any:
        if client is not None:
            client.execute_command("EVAL", self.lua, len(keys), *keys, *args)
            return None
        try:
            link = await self.cluster.link_for(keys[0])
        except SlotNotCoveredError:  # the slot not covered now: the client looks for it
            return await self._fallback(keys=keys, args=args)  # type: ignore[arg-type]
        try:
            return await link.evalsha(self.sha, self.lua, keys, args)
        except REDIRECTED:
            return await self._fallback(keys=keys, args=args)  # type: ignore[arg-type]
        except (RedisConnectionError, RedisTimeoutError):
            self.cluster.refresh_later()
            raise
