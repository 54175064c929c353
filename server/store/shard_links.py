"""Scripts on a Redis Cluster over one link per primary (server/store/link.py): each script goes to
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
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.connection import Connection
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ClusterError,
    MovedError,
    RedisClusterException,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .link import TIMEOUT_S, Arg, Link

log = logging.getLogger("samedeal.shard_links")

#: Answers after which a script did not run and the cluster client knows what to do.
REDIRECTED = (MovedError, AskError, TryAgainError, ClusterDownError)
#: What the cluster client raises while a shard changes hands (``ClusterError``: CLUSTERDOWN,
#: or "TTL exhausted" after too many redirections; ``AskError``, and ``MovedError`` with it:
#: a transaction whose keys have gone to a slot's importing primary, which redis-py's
#: transactions do not follow, or MOVED past their retries).
CHANGING_HANDS = (ClusterError, TryAgainError, SlotNotCoveredError, AskError)


def as_unavailable(e: BaseException) -> RedisConnectionError | None:
    """The store failure that ``e`` stands for, or ``None`` if it is not one.

    Every request answers a store that cannot serve it now with ``store.unavailable`` (retry),
    which the server's handlers give redis-py's ``ConnectionError``. The cluster client fails
    in other ways too while a primary is replaced or a slot moves: the cluster's answers
    (CLUSTERDOWN, TRYAGAIN, too many redirections, a slot no primary covers), no seed
    node reachable, and, when a connection is
    closed under a command in flight, a ``RuntimeError`` or ``AttributeError`` raised inside
    redis-py's connection code (a write to a closed transport, a writer already dropped)."""
    if isinstance(e, CHANGING_HANDS):
        return RedisConnectionError(f"the cluster is changing hands ({e})")
    if isinstance(e, RedisClusterException) and str(e).startswith(
            "Redis Cluster cannot be connected"):
        return RedisConnectionError("no node of the cluster can be reached")
    if isinstance(e, RuntimeError | AttributeError) and any(
            frame.filename.endswith(_CONNECTION_CODE)
            for frame in traceback.extract_tb(e.__traceback__)):
        return RedisConnectionError(f"a connection to the cluster was closed mid-command ({e})")
    return None


_CONNECTION_CODE = ("redis/asyncio/connection.py", "redis/_parsers/base.py")


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
    one for a ``redis-cluster://`` URL.

    It sends a command once, as a client of one Redis does. redis-py's cluster client sends a
    command again after a lost connection or a timeout, yet the command may have run before
    its reply was lost: a write would run twice (a count added to twice, a claim by ``SET
    NX`` refused to the caller whose first send won it). So a lost reply fails the call as
    the store unavailable, and the caller reads where things stand. What redis-py retries
    after an answer that says nothing ran (MOVED, ASK, TRYAGAIN, CLUSTERDOWN, a slot no
    primary covers) it still retries, a transaction's MOVED among them."""

    #: redis-py's errors after which a command is sent again, less a lost connection and a
    #: timeout (above).
    ERRORS_ALLOW_RETRY = (ClusterDownError, SlotNotCoveredError)  # type: ignore[assignment]

    def __init__(self, *, store_timeout: float = TIMEOUT_S, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.links: dict[str, Link] = {}
        self.store_timeout = store_timeout
        self._refresh: asyncio.Task[None] | None = None

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        """redis-py's, once the slot map is read: redis-py looks a command's keys up before it
        reads the map, and fails with an ``AttributeError`` when it never could."""
        if self._initialize:
            await self.initialize()
        with _unavailable():
            return await super().execute_command(*args, **kwargs)

    async def initialize(self, *args: Any, **kwargs: Any) -> RedisCluster:
        with _unavailable():
            return await super().initialize(*args, **kwargs)

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)
        return _Pipeline(self, transaction)  # type: ignore[abstract]  # as redis-py makes its own

    async def node_for(self, key: Arg) -> ClusterNode:
        """The primary that owns ``key``'s slot, by the slot map (read first, once, by every
        caller together: a thousand first calls must not each start reading it)."""
        if self._initialize:  # redis-py's: the slot map was never read
            await self.initialize()
        node = self.get_node_from_key(key)  # type: ignore[arg-type]
        assert node is not None
        return node

    async def link_for(self, key: Arg) -> Link:
        """The link to the primary that owns ``key``'s slot."""
        node = await self.node_for(key)
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
        """redis-py's, which it also calls itself to read the slot map afresh (after
        CLUSTERDOWN, or every few MOVED): the links stay open, since they follow the map by
        themselves and closing them would fail every command in flight on every shard.
        ``close_links`` ends them."""
        await super().aclose()

    async def close_links(self) -> None:
        for link in self.links.values():
            link.close()
        if self._refresh is not None:
            self._refresh.cancel()
            with contextlib.suppress(BaseException):
                await self._refresh


class _Pipeline(ClusterPipeline):
    """redis-py's cluster pipeline, failing as a store that cannot serve now (above)."""

    async def execute(self, raise_on_error: bool = True,
                      allow_redirections: bool = True) -> list[Any]:
        with _unavailable():
            return await super().execute(raise_on_error, allow_redirections)


@contextlib.contextmanager
def _unavailable() -> Iterator[None]:
    """Raise what fails inside as the store failure it stands for (``as_unavailable``)."""
    try:
        yield
    except Exception as e:
        failure = as_unavailable(e)
        if failure is None:
            raise
        raise failure from e


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
