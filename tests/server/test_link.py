"""The link (one Redis connection every request of a process shares) and the pub/sub channels
beside it, on a real redis-server: replies reach their own callers, errors keep their redis-py
types, a lost connection fails what was in flight and is made again; a command that cannot be
encoded fails alone; hostile arguments fare as through redis-py's own client; a peer speaking
broken RESP (a tiny server on loopback standing in for one) closes the connection and the next
call reaches the real Redis; a paused Redis fails calls at the deadline."""

from __future__ import annotations

import abc
import asyncio
import logging
import random
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import hiredis
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from redis import asyncio as redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server import store
from server.store.channels import Channels
from server.store.link import Client, Link, link_of
from server.transport.events import Hub
from tests.conftest import free_port

from . import own_redis as own_redis_server


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


async def test_a_channel_waiting_for_its_change_holds_up_no_other_channel(
        client: Client, redis_url: str) -> None:
    """The hub orders each channel's subscribes and unsubscribes (each waits for Redis to
    confirm it), but one channel's wait holds up no other: while ``ch``'s lock is held,
    as it is for the round trip of its change, ``other`` is subscribed, and hears."""
    hub = Hub(client)
    admin = redis.Redis.from_url(redis_url)
    ch = key("ch")
    other = next(o for o in (key(f"other{i}") for i in range(100))
                 if hub._lock(o) is not hub._lock(ch))
    got: list[bytes | None] = []
    try:
        await hub.start()
        async with hub._lock(ch):
            await asyncio.wait_for(hub.subscribe(other, got.append), 5)
            assert await admin.publish(other, b"1") == 1
        await wait(lambda: got == [b"1"])
        await hub.unsubscribe(other, got.append)
        assert await admin.publish(other, b"unheard") == 0
    finally:
        await hub.stop()
        await admin.aclose()


async def wait(check, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def echoes(link: Link, tag: str, n: int = 20) -> None:
    """``n`` callers at once, each with its own payload: each must get its own back."""
    payloads = [f"{tag}:{i}:{random.random()}" for i in range(n)]
    replies = await asyncio.wait_for(asyncio.gather(*(link.call("ECHO", p) for p in payloads)),
                                     10)
    assert replies == [p.encode() for p in payloads]


async def test_a_command_that_cannot_be_encoded_fails_alone(client: Client) -> None:
    """The issue's ``"around": "\\ud800"``: a lone surrogate once left a waiting caller behind
    with no command written, and every later reply went to the caller before it."""
    link = link_of(client)
    assert link is not None
    k = key("mine")
    await link.call("SET", k, "before")
    values = [f"v{i}" for i in range(50)]

    async def set_get(v: str) -> Any:
        await link.call("SET", f"{k}:{v}", v)
        return await link.call("GET", f"{k}:{v}")

    async def lone_surrogate() -> None:
        with pytest.raises(UnicodeEncodeError):
            await link.call("ZREVRANK", "sd:{board:alltime/all}:rank", "\ud800")

    replies = await asyncio.wait_for(asyncio.gather(
        *(set_get(v) for v in values[:25]), lone_surrogate(),
        *(set_get(v) for v in values[25:])), 10)
    assert replies[:25] + replies[26:] == [v.encode() for v in values]
    for i in range(3):  # later callers too, one at a time and many at once
        assert await asyncio.wait_for(link.call("GET", k), 5) == b"before"
        await echoes(link, f"after{i}")


# Hostile arguments: what a player's text could become, and what a bug could pass.
HUGE = st.builds(lambda n, c: c * n, st.integers(10_000, 1_000_000),
                 st.sampled_from(["x", "é", "\x00", "\ud800", "\udfff\ud800"]))
HOSTILE = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=20),  # lone surrogates
    st.text(st.sampled_from("a\x00\r\n$*\ud800\udc00é"), max_size=20),
    st.binary(max_size=30), st.integers(), st.integers(min_value=2**63),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([None, True, False, b"", "", bytearray(b"ba"), [1], {"a": 1}, (1, 2),
                     object()]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=2), st.integers()),
    HUGE)
COMMANDS = {  # each with a reply that redis-py returns unparsed, and a key of its own per path
    "ECHO": lambda k: ("ECHO",),
    "EVAL": lambda k: ("EVAL", "return ARGV", 0),
    "RPUSH": lambda k: ("RPUSH", k),
    "STRLEN": lambda k: ("STRLEN",),
    "APPEND": lambda k: ("APPEND", k),
    "HSET": lambda k: ("HSET", k),
}


def outcome(result: Any) -> tuple[Any, ...]:
    """A call's reply, or its error's type (and Redis's message, which both get verbatim)."""
    if isinstance(result, ResponseError):
        return type(result), str(result)
    if isinstance(result, Exception):
        return (type(result),)
    return ("reply", result)


@pytest.fixture(scope="module")
def fuzz_loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@hypothesis_settings(max_examples=150)
@given(name=st.sampled_from(sorted(COMMANDS)),
       args=st.lists(HOSTILE, max_size=6) | st.integers(1_000, 30_000).map(lambda n: [b"a"] * n))
def test_hostile_arguments_fare_as_through_redis_py_and_the_link_goes_on(
        redis_url: str, fuzz_loop: asyncio.AbstractEventLoop, name: str, args: list[Any]
        ) -> None:
    async def example() -> None:
        client = store.connect(redis_url)
        assert isinstance(client, Client)
        try:
            k = key("fuzz")
            command = COMMANDS[name]
            # The link's call among other callers, then the same through redis-py's pool.
            via_link, _ = await asyncio.wait_for(asyncio.gather(
                client.link.call(*command(k + ":link"), *args), echoes(client.link, "during"),
                return_exceptions=True), 20)
            if isinstance(_, BaseException):
                raise _
            try:
                via_py: Any = await client.execute_command(*command(k + ":py"), *args)
            except Exception as e:
                via_py = e
            assert outcome(via_link) == outcome(via_py), (via_link, via_py)
            await echoes(client.link, "after")
            await client.delete(k + ":link", k + ":py")
        finally:
            await client.aclose()

    fuzz_loop.run_until_complete(example())


async def test_commands_that_would_shift_the_replies_are_refused(client: Client) -> None:
    link = link_of(client)
    assert link is not None
    for command in (("MULTI",), ("subscribe", "x"), (b"CLIENT", b"reply", b"skip"),
                    ("CLIENT", "REPLY", "OFF"), ("monitor",), ()):
        with pytest.raises(DataError):
            await link.call(*command)
    await echoes(link, "after")


Answer = Callable[[list[bytes]], list[bytes | None]]
#: What redis-py's connect asks a new connection, answered as Redis 7 does.
HANDSHAKE = {b"HELLO": b"%1\r\n$5\r\nproto\r\n:3\r\n", b"CLIENT": b"+OK\r\n",
             b"SELECT": b"+OK\r\n", b"PING": b"+PONG\r\n"}


class StandIn(abc.ABC):
    """A tiny server on loopback between a client and the real redis-server: ``async with``
    gives the URL to connect to; ``_serve`` handles each connection."""

    def __init__(self, real_url: str) -> None:
        self.real_port = int(real_url.rsplit(":", 1)[1].split("/")[0])
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()

    @abc.abstractmethod
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection to the stand-in, from its opening to its end."""


class Broken(StandIn):
    """Standing in for a Redis that speaks RESP badly: its first connection answers
    redis-py's handshake, then each command with ``answer(command)`` (``None`` in it: close
    the connection there); every later connection is passed through to the real
    redis-server, so the next call after a failure shows where it went."""

    def __init__(self, real_url: str, answer: Answer) -> None:
        super().__init__(real_url)
        self.answer = answer
        self.connections = 0
        self.misbehaved = 0  # commands answered badly: the test reached the broken part

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            if self.connections == 1:
                await self._misbehave(reader, writer)
            else:
                await self._pass_through(reader, writer)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _misbehave(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        commands = hiredis.Reader()
        while data := await reader.read(65536):
            commands.feed(data)
            while (command := commands.gets()) is not False:
                handshake = HANDSHAKE.get(command[0].upper())
                if handshake is not None:
                    writer.write(handshake)
                    continue
                self.misbehaved += 1
                for out in self.answer(command):
                    if out is None:
                        await writer.drain()
                        return
                    writer.write(out)
            await writer.drain()

    async def _pass_through(self, reader: asyncio.StreamReader,
                            writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.real_port)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer),
                             return_exceptions=True)


def bulk(data: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(data), data)


@pytest.mark.parametrize(("answer", "at_once"), [
    pytest.param(lambda c: [b"?garbage\r\n"], 3, id="garbage"),
    pytest.param(lambda c: [b"*2\r\n$1\r\nx\r\n?\r\n"], 3, id="garbage-inside-an-array"),
    pytest.param(lambda c: [b"$100\r\nhalf a rep", None], 3, id="cut-mid-reply"),
    pytest.param(lambda c: [b"$100\r\nhalf a rep"], 3, id="stalled-mid-reply"),
    pytest.param(lambda c: [None], 3, id="closed"),
    # A surplus reply can only be told from the next caller's when nothing else waits (the
    # same holds for any client on a connection): one call at a time.
    pytest.param(lambda c: [bulk(c[1]), b"+surplus\r\n"], 1, id="extra-reply"),
    pytest.param(lambda c: [bulk(c[1]) + bulk(c[1])], 1, id="extra-reply-of-the-same-shape"),
])
async def test_a_peer_speaking_broken_resp_closes_the_link_and_the_next_call_reconnects(
        redis_url: str, answer: Answer, at_once: int,
        caplog: pytest.LogCaptureFixture) -> None:
    broken = Broken(redis_url, answer)
    async with broken as url:
        client = store.connect(url, timeout=0.5)  # a stalled reply fails at this deadline
        assert isinstance(client, Client)
        try:
            first = await asyncio.wait_for(asyncio.gather(
                *(client.link.call("ECHO", f"first{i}") for i in range(at_once)),
                return_exceptions=True), 10)
            assert broken.misbehaved
            # What is not a caller's own reply is a ConnectionError (TimeoutError when the
            # reply stalled), never another's reply.
            for i, reply in enumerate(first):
                assert reply == f"first{i}".encode() or isinstance(
                    reply, RedisConnectionError | RedisTimeoutError), reply
            await wait(lambda: client.link._wire is None or client.link._wire.transport is None)
            # Closed, and made again on the real Redis (the second connection), all callers
            # getting their own replies.
            await echoes(client.link, "next")
            assert broken.connections == 2
            assert isinstance(await client.link.call("CLIENT", "ID"), int)
        finally:
            await client.aclose()
    # Handled by the link itself, not by asyncio's fatal-error path with a traceback.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_channels_drop_a_connection_speaking_broken_resp_and_subscribe_again(
        redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    got: list[tuple[str, bytes]] = []
    reconnected = asyncio.Event()
    admin = redis.Redis.from_url(redis_url)
    ch = key("ch")
    broken = Broken(redis_url, lambda c: [b"?garbage\r\n"])
    async with broken as url:
        pool = redis.BlockingConnectionPool.from_url(url)
        channels = Channels(pool, lambda c, d: got.append((c, d)), reconnected.set)
        channels.RETRY_S = 0.05
        try:
            await asyncio.wait_for(channels.start(ch), 10)
            await asyncio.wait_for(reconnected.wait(), 10)
            assert broken.misbehaved and channels.ready
            assert await admin.publish(ch, b"heard") == 1
            await wait(lambda: got == [(ch, b"heard")])
        finally:
            await channels.stop()
            await pool.aclose()
            await admin.aclose()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = own_redis_server.start(port, tmp_path)
    yield f"redis://127.0.0.1:{port}/0", proc
    own_redis_server.stop(proc)


async def test_a_paused_redis_fails_link_and_pool_calls_at_the_deadline(
        own_redis: tuple[str, subprocess.Popen[bytes]]) -> None:
    url, proc = own_redis
    client = store.connect(url, timeout=0.5)
    assert isinstance(client, Client)
    try:
        k = key("paused")
        await client.link.call("SET", k, "kept")
        assert await client.get(k) == b"kept"  # a pooled connection exists before the pause
        proc.send_signal(signal.SIGSTOP)
        try:
            # Redis takes the bytes but never answers: every call in flight fails with
            # redis-py's TimeoutError, not the test's own guard (asyncio's TimeoutError).
            link_calls = asyncio.gather(*(client.link.call("GET", k) for _ in range(5)),
                                        return_exceptions=True)
            pool_call = asyncio.gather(client.get(k), return_exceptions=True)
            failed = await asyncio.wait_for(asyncio.gather(link_calls, pool_call), 30)
            assert all(isinstance(e, RedisTimeoutError) for e in failed[0] + failed[1]), failed
            # A new connection while paused: the handshake has the deadline too.
            with pytest.raises(RedisTimeoutError):
                await asyncio.wait_for(client.link.call("GET", k), 30)
        finally:
            proc.send_signal(signal.SIGCONT)
        # Back: the next calls connect afresh and get their own replies.
        assert await asyncio.wait_for(client.link.call("GET", k), 10) == b"kept"
        await echoes(client.link, "resumed")
        assert await client.get(k) == b"kept"
    finally:
        await client.aclose()


async def test_channels_started_without_redis_retry_with_backoff_until_it_comes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()  # nothing listens there yet
    got: list[tuple[str, bytes]] = []
    pool = redis.BlockingConnectionPool.from_url(f"redis://127.0.0.1:{port}/0")
    channels = Channels(pool, lambda c, d: got.append((c, d)), lambda: None)
    channels.RETRY_S, channels.RETRY_MAX_S = 0.01, 0.04
    caplog.set_level(logging.WARNING)
    proc = None
    try:
        await channels.start("ch")  # returns: the tries go on in the background
        assert not channels.ready
        tries = "pub/sub connection: Redis unreachable"
        await wait(lambda: caplog.text.count(tries) >= 6)
        waits = [r.getMessage().rsplit("next try in ", 1)[1] for r in caplog.records
                 if tries in r.getMessage()]
        assert waits[:6] == ["0.01 s", "0.02 s", "0.04 s", "0.04 s", "0.04 s", "0.04 s"]
        assert not [r for r in caplog.records if r.exc_info], "a traceback in the log"
        proc = own_redis_server.start(port, tmp_path)
        await wait(lambda: channels.ready)
        admin = redis.Redis(port=port)
        assert await admin.publish("ch", b"late") == 1
        await admin.aclose()
        await wait(lambda: got == [("ch", b"late")])
    finally:
        await channels.stop()
        await pool.aclose()
        if proc is not None:
            own_redis_server.stop(proc)


async def test_a_connect_cut_short_fails_its_waiting_callers_as_a_lost_connection() -> None:
    """Callers share one connection attempt; when it is cut short under them (here the link
    is closed while a peer that accepts but never answers the handshake holds it), each
    fails as on a lost connection, which the server answers ``store.unavailable``, never
    with a cancellation that would end the request without a reply."""
    silent = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = silent.sockets[0].getsockname()[1]
    client = store.connect(f"redis://127.0.0.1:{port}/0", timeout=30)
    assert isinstance(client, Client)
    try:
        callers = [asyncio.create_task(client.link.call("ECHO", f"c{i}")) for i in range(3)]
        await asyncio.sleep(0.1)
        assert client.link._opening is not None and not any(c.done() for c in callers)
        client.link.close()
        for caller in callers:
            with pytest.raises(RedisConnectionError, match="cut short"):
                await caller
        mine = asyncio.create_task(client.link.call("ECHO", "mine"))
        await asyncio.sleep(0.1)
        mine.cancel()  # a caller cancelled itself still sees its own cancellation
        with pytest.raises(asyncio.CancelledError):
            await mine
    finally:
        client.link.close()
        await client.aclose()
        silent.close()


class Freezer(StandIn):
    """A pass-through whose connections so far can be frozen: their bytes are held in both
    directions while their sockets stay open, as a network cut or a vanished host leaves
    them (a half-open connection). Later connections pass."""

    def __init__(self, real_url: str) -> None:
        super().__init__(real_url)
        self.frozen: list[asyncio.Event] = []  # one a connection: set, it stops relaying

    def freeze(self) -> None:
        for f in self.frozen:
            f.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frozen = asyncio.Event()
        self.frozen.append(frozen)
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.real_port)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                if frozen.is_set():
                    await asyncio.Event().wait()  # held for good, the socket left open
                dst.write(data)
                await dst.drain()

        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
            up_writer.close()


async def test_a_half_open_pub_sub_connection_is_found_by_its_heartbeat_and_made_again(
        redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A connection whose peer went silent without closing it gets no event again, ever:
    the heartbeat's PING goes unanswered, the connection is broken and made again, and the
    channels are subscribed again, as after any lost connection."""
    freezer = Freezer(redis_url)
    async with freezer as url:
        client = store.connect(url)
        assert isinstance(client, Client)
        got: list[bytes] = []
        reconnected = asyncio.Event()
        channels = Channels(client.connection_pool, lambda c, d: got.append(d),
                            reconnected.set, timeout=0.5)
        channels.HEARTBEAT_S = 0.3
        channels.RETRY_S = 0.05
        ch = key("half-open")
        admin = redis.Redis.from_url(redis_url)
        try:
            await channels.start(ch)
            await asyncio.sleep(1)  # a few heartbeats answered: a quiet connection stays
            assert not reconnected.is_set()
            assert await admin.publish(ch, b"1") == 1
            await wait(lambda: got == [b"1"])
            freezer.freeze()
            await admin.publish(ch, b"lost")  # Redis sent it; it never arrives
            await asyncio.wait_for(reconnected.wait(), 10)
            assert await admin.publish(ch, b"2") >= 1
            await wait(lambda: got[-1:] == [b"2"])
            assert b"lost" not in got
        finally:
            await channels.stop()
            await admin.aclose()
            await client.aclose()
    assert "no answer to PING within 0.5 s" in caplog.text
