"""A command is sent once. When its reply is lost (the connection cut after the command ran),
the call fails as the store unavailable and the caller reads where things stand, as after any
lost reply; it is not sent again, which would run a write twice: a count of a player's sockets
(``HINCRBY``, or a script that adds to it) counted twice, a claim (``SET NX``) that the first
send won refused to its own caller. On one Redis and on a Redis Cluster, whose client redis-py
makes to resend a command after a lost connection unless told not to."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode

from server import store
from server.store.shard_links import ClusterClient
from tests.cluster import Cluster

#: A script that adds one to its key and answers the count, as the presence script does.
ADD = "return redis.call('HINCRBY', KEYS[1], 'sockets', 1)"


class Relay:
    """A loopback relay in front of one Redis node. Armed, it closes the client's side when
    the node's next reply comes, leaving that reply unread: the command ran, its reply is
    lost."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.armed = False
        self.cut = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter
                     ) -> None:
        node_r, node_w = await asyncio.open_connection("127.0.0.1", self.port)

        async def to_node() -> None:
            while data := await client_r.read(65536):
                node_w.write(data)
                await node_w.drain()

        async def to_client() -> None:
            while data := await node_r.read(65536):
                if self.armed:
                    self.armed, self.cut = False, self.cut + 1
                    return
                client_w.write(data)
                await client_w.drain()

        tasks = [asyncio.create_task(to_node()), asyncio.create_task(to_client())]
        with contextlib.suppress(Exception):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for w in (client_w, node_w):
            w.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()


#: A client whose connections go through relays, and the relay before a key's primary.
Relayed = tuple[Redis, Callable[[str], Relay]]


async def relays(ports: list[int]) -> dict[int, tuple[Relay, int]]:
    out = {}
    for port in ports:
        relay = Relay(port)
        out[port] = relay, await relay.start()
    return out


@pytest.fixture
async def one_redis(redis_url: str) -> AsyncIterator[Relayed]:
    relay = Relay(int(redis_url.rsplit(":", 1)[1].split("/")[0]))
    r = store.connect(f"redis://127.0.0.1:{await relay.start()}/7")  # a database no node uses
    yield r, lambda key: relay
    await store.close(r)
    await relay.close()


@pytest.fixture
async def on_cluster(cluster: Cluster) -> AsyncIterator[Relayed]:
    """The server's kind of cluster client, reaching every node through its relay."""
    by_port = await relays(cluster.live)
    at = {("127.0.0.1", port): ("127.0.0.1", relayed) for port, (_, relayed) in by_port.items()}
    r = ClusterClient(startup_nodes=[ClusterNode("127.0.0.1", p) for p in cluster.live],
                      address_remap=lambda address: at.get(address, address),
                      decode_responses=False)
    yield r, lambda key: by_port[cluster.owner(key)[0]][0]  # type: ignore[misc]
    await store.close(r)  # type: ignore[arg-type]
    for relay, _ in by_port.values():
        await relay.close()


@pytest.fixture(params=["one_redis", "on_cluster"])
def client(request: pytest.FixtureRequest) -> Relayed:
    return request.getfixturevalue(request.param)  # type: ignore[no-any-return]


async def lost(client: Relayed, key: str, call: Callable[[], Awaitable[object]]
               ) -> BaseException:
    """What ``call`` fails with when the reply to its command is lost."""
    r, relay_of = client
    await r.delete(key)
    await call()  # connected, and the script loaded
    relay = relay_of(key)
    cut, relay.armed = relay.cut, True
    with pytest.raises(Exception) as failed:
        await call()
    assert relay.cut == cut + 1
    return failed.value


async def test_a_command_whose_reply_is_lost_is_not_sent_again(client: Relayed) -> None:
    r, _ = client
    key = "sd:{once}:here"
    error = await lost(client, key, lambda: r.hincrby(key, "sockets", 1))
    assert store.failed(error), repr(error)
    assert await r.hget(key, "sockets") == b"2"  # the first call, and the lost one once


@pytest.mark.parametrize("path", ["own", "redis-py"])
async def test_a_script_whose_reply_is_lost_is_not_sent_again(client: Relayed, path: str
                                                              ) -> None:
    """Through the script's own path (the link where there is one), and through redis-py's,
    which a script takes on a cluster after a redirection."""
    r, _ = client
    key = "sd:{once}:here"
    run = store.script(r, ADD) if path == "own" else r.register_script(ADD)
    error = await lost(client, key, lambda: run(keys=[key]))
    assert store.failed(error), repr(error)
    assert await r.hget(key, "sockets") == b"2"
