"""The link (one Redis connection every request of a process shares) and the pub/sub channels
beside it, on a real redis-server: replies reach their own callers, errors keep their redis-py
types, a lost connection fails what was in flight and is made again."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import pytest
from redis import asyncio as redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from server import store
from server.link import Channels, Client, Link, link_of


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Client]:
    r = store.connect(redis_url)
    assert isinstance(r, Client)
    yield r
    await r.aclose()


def key(name: str) -> str:
    return f"test:link:{time.time_ns()}:{name}"


async def kill(admin: redis.Redis, client_name_or_id: int) -> None:
    assert await admin.execute_command("CLIENT", "KILL", "ID", client_name_or_id) == 1


async def test_many_callers_in_flight_each_get_their_own_reply(client: Client) -> None:
    k = key("n")
    values = list(range(500))
    random.Random(1).shuffle(values)
    replies = await asyncio.gather(*(store.call(client, "ECHO", f"v{v}") for v in values),
                                   *(store.call(client, "INCR", k) for _ in range(300)))
    assert replies[:500] == [f"v{v}".encode() for v in values]
    assert sorted(replies[500:]) == list(range(1, 301))  # every INCR seen once
    # One connection carried all 800: the pool never opened one of its own.
    pool = client.connection_pool
    assert not pool._available_connections and not pool._in_use_connections  # type: ignore[attr-defined]


async def test_an_error_reply_raises_redis_py_s_error_and_the_link_goes_on(
        client: Client) -> None:
    k = key("s")
    await store.call(client, "SET", k, "text")
    with pytest.raises(ResponseError, match="not an integer"):
        await store.call(client, "INCR", k)
    assert await store.call(client, "GET", k) == b"text"


async def test_a_script_is_loaded_when_redis_does_not_know_it(client: Client) -> None:
    script = store.script(client, "return {KEYS[1], tonumber(ARGV[1]) * 2}")
    assert await script(keys=["a"], args=[21]) == [b"a", 42]
    await client.script_flush()  # as after a Redis restart without the script cache
    assert await script(keys=["b"], args=[5]) == [b"b", 10]
    # In a pipeline the call is queued there, as redis-py's own scripts are.
    async with client.pipeline(transaction=False) as pipe:
        assert await script(keys=["c"], args=[1], client=pipe) is pipe
        assert await pipe.execute() == [[b"c", 2]]


async def test_a_cancelled_caller_leaves_the_order_intact(client: Client) -> None:
    slow = asyncio.create_task(store.call(client, "EVAL",
                                          "local t = redis.call('TIME') "
                                          "while true do local n = redis.call('TIME') "
                                          "if (n[1] - t[1]) * 1e6 + n[2] - t[2] > 100000 "
                                          "then return 'slow' end end", 0))
    await asyncio.sleep(0.02)
    slow.cancel()
    assert await store.call(client, "ECHO", "next") == b"next"  # not 'slow'
    assert slow.cancelled()


async def test_a_lost_connection_fails_what_was_in_flight_and_is_made_again(
        client: Client, redis_url: str) -> None:
    link = link_of(client)
    assert isinstance(link, Link)
    my_id = await store.call(client, "CLIENT", "ID")
    busy = asyncio.create_task(store.call(client, "BLPOP", key("never"), 5))
    await asyncio.sleep(0.05)
    admin = redis.Redis.from_url(redis_url)
    try:
        await kill(admin, my_id)
    finally:
        await admin.aclose()
    with pytest.raises(RedisConnectionError):
        await busy
    assert await store.call(client, "ECHO", "again") == b"again"
    assert await store.call(client, "CLIENT", "ID") != my_id


async def test_a_plain_client_has_no_link_and_gets_redis_py_s_scripts(redis_url: str) -> None:
    plain = redis.Redis.from_url(redis_url)
    try:
        assert link_of(plain) is None
        script = store.script(plain, "return ARGV[1]")
        assert not isinstance(script, type(store.script(store.connect(redis_url), "")))
        assert await script(args=["x"]) == b"x"
        assert await store.call(plain, "ECHO", "y") == b"y"
    finally:
        await plain.aclose()


async def test_channels_deliver_and_come_back_after_a_lost_connection(
        client: Client, redis_url: str) -> None:
    got: list[tuple[str, bytes]] = []
    reconnected = asyncio.Event()
    channels = Channels(client.connection_pool, lambda c, d: got.append((c, d)),
                        reconnected.set)
    channels.RETRY_S = 0.05
    ch, other = key("ch"), key("other")
    admin = redis.Redis.from_url(redis_url)
    try:
        await channels.start(ch)
        await channels.subscribe(other)
        # Subscribed when subscribe() returns: a publish right after reaches us.
        assert await admin.publish(other, b"1") == 1
        await channels.unsubscribe(other)
        assert await admin.publish(other, b"unheard") == 0
        assert await admin.publish(ch, b"2") == 1
        await wait(lambda: len(got) == 2)
        assert got == [(other, b"1"), (ch, b"2")]

        assert channels.transport is not None
        host, port = channels.transport.get_extra_info("sockname")[:2]
        assert await admin.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}") == 1
        await asyncio.wait_for(reconnected.wait(), 5)
        # Subscribed again before on_reconnect ran.
        assert await admin.publish(ch, b"3") == 1
        await wait(lambda: len(got) == 3)
        assert got[-1] == (ch, b"3")
    finally:
        await channels.stop()
        await admin.aclose()


async def wait(check, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)
