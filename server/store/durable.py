"""The ``durable`` setting's exchange: a script and its ``WAIT 1`` on one connection, sent
once.

``WAIT`` counts the replicas that have the writes of the connection it is sent on, so its
answer means something only right after the script, on the script's own connection. A
pipeline will not do: redis-py's cluster pipeline follows a redirection by sending the
script again by itself, leaving the ``WAIT`` with the node that refused it; and where it
may retry, it resends a command that failed alone, so a ``WAIT`` whose connection died
under it would go to another connection, which wrote nothing, and answer at once that a
replica has everything.
Here the two commands go out together on a connection taken for them; a lost
connection, a timeout or a cancellation closes it and fails the call as the store being
unavailable (the script may have run: the caller reads where things stand, as after any
lost reply). On a Redis Cluster, answers after which the script did not run are followed:
MOVED (to the new owner, and the slot map read again in the background), ASK (``ASKING``
at the slot's importing primary), TRYAGAIN and CLUSTERDOWN (a moment later), a few times.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .link import Arg, link_of
from .shard_links import ClusterClient

#: Exchanges a call may make while a cluster's slot moves or its shard changes hands.
ATTEMPTS = 5
#: Seconds before trying again after TRYAGAIN or CLUSTERDOWN, times the attempt.
PAUSE_S = 0.05


async def durably(redis: Redis, run: Any, keys: Sequence[Arg], args: Sequence[Arg],
                  wait_ms: int) -> tuple[Any, int]:
    """Run the script ``run`` (``store.script``'s: its ``sha`` and ``lua``) and then
    ``WAIT 1 wait_ms`` on the same connection: the script's answer, and how many replicas
    have its writes. By its SHA; on a Redis that does not know it yet (NOSCRIPT: nothing
    ran), once more with its text, which loads it."""
    if isinstance(redis, ClusterClient):
        return await _on_cluster(redis, run, keys, args, wait_ms)
    link = link_of(redis)
    crash = link.crash if link is not None else None
    n = crash.before() if crash is not None else 0
    pool = redis.connection_pool
    conn = await pool.get_connection()  # type: ignore[no-untyped-call]  # redis-py's
    try:
        answer, replicas = await _script_and_wait(conn, run, keys, args, wait_ms)
    finally:
        await pool.release(conn)
    if crash is not None:
        crash.answered(n)
    if isinstance(answer, Exception):
        raise answer
    return answer, counted(replicas)


async def _on_cluster(cluster: ClusterClient, run: Any, keys: Sequence[Arg],
                      args: Sequence[Arg], wait_ms: int) -> tuple[Any, int]:
    node: ClusterNode | None = await cluster.node_for(keys[0])
    asking = False
    for attempt in range(1, ATTEMPTS + 1):
        if node is None:  # a redirection to a node the slot map does not know yet
            await cluster.nodes_manager.initialize()
            node, asking = await cluster.node_for(keys[0]), False
        conn = node.acquire_connection()
        try:
            answer, replicas = await _script_and_wait(conn, run, keys, args, wait_ms, asking)
        except (RedisConnectionError, RedisTimeoutError):
            cluster.refresh_later()  # the primary may be gone, replaced by its replica
            raise
        finally:
            node.release(conn)
        if isinstance(answer, AskError):  # MovedError too: both name where the slot is
            node = cluster.get_node(host=answer.host, port=answer.port)
            asking = not isinstance(answer, MovedError)
            if not asking:
                cluster.refresh_later()
            continue
        if isinstance(answer, TryAgainError | ClusterDownError):
            await asyncio.sleep(PAUSE_S * attempt)
            cluster.refresh_later()
            node, asking = await cluster.node_for(keys[0]), False
            continue
        if isinstance(answer, Exception):
            raise answer
        return answer, counted(replicas)
    raise RedisConnectionError(f"the cluster is changing hands ({keys[0]!r} was redirected "
                               f"{ATTEMPTS} times)")


async def _script_and_wait(conn: AbstractConnection, run: Any, keys: Sequence[Arg],
                           args: Sequence[Arg], wait_ms: int, asking: bool = False
                           ) -> tuple[Any, Any]:
    """One exchange (two on NOSCRIPT) on ``conn``: the replies to the script and to
    ``WAIT``, each an answer or the error it was answered with. Any other failure closes
    ``conn`` (a reply may still be on its way) and is raised."""
    try:
        for command in (("EVALSHA", run.sha), ("EVAL", run.lua)):
            sent: list[tuple[Any, ...]] = [("ASKING",)] if asking else []
            sent += [(*command, len(keys), *keys, *args), ("WAIT", 1, wait_ms)]
            await conn.send_packed_command(conn.pack_commands(sent))
            replies = [await _reply(conn) for _ in sent]
            if not isinstance(replies[-2], NoScriptError):
                return replies[-2], replies[-1]
    except BaseException:
        await conn.disconnect()
        raise
    raise AssertionError("EVAL never answers NOSCRIPT")


def counted(replicas: Any) -> int:
    """``WAIT``'s answer; its error, after a script that ran, as the store unavailable (the
    caller cannot know that a replica has the change)."""
    if isinstance(replicas, Exception):
        raise RedisConnectionError(f"WAIT failed after the script ran ({replicas})")
    return int(replicas)


async def _reply(conn: AbstractConnection) -> Any:
    """The next reply, an error reply returned rather than raised: it was read whole, and
    the connection stays in step."""
    try:
        return await conn.read_response()
    except ResponseError as e:
        return e
