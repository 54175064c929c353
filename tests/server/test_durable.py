"""The ``durable`` setting on one redis-server with a replica (server/store/durable.py): a
change is answered once the replica has it, or after ``durable_wait`` with a warning; a Redis
that does not know the script yet runs it once, not twice; a connection lost while ``WAIT``
waits fails the call, with the script run once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from redis.asyncio import Redis

from server import store
from server.store.script_replies import bind
from tests.conftest import free_port, wait_for

from . import own_redis

COUNT = "return redis.call('INCR', KEYS[1])"


@pytest.fixture(scope="module")
def primary_and_replica(tmp_path_factory: pytest.TempPathFactory
                        ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    work = tmp_path_factory.mktemp("durable")
    port, replica_port = free_port(), free_port()
    primary = own_redis.start(port, work)
    exe = shutil.which("redis-server")
    assert exe is not None
    (work / "replica").mkdir()
    replica = subprocess.Popen(
        [exe, "--port", str(replica_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(work / "replica"),
         "--replicaof", "127.0.0.1", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def synced() -> bool:
        out = subprocess.run(["redis-cli", "-p", str(replica_port), "INFO", "replication"],
                             capture_output=True, text=True, timeout=5).stdout
        return "master_link_status:up" in out

    wait_for(synced, "the replica")
    yield f"redis://127.0.0.1:{port}/0", replica
    own_redis.stop(replica)
    own_redis.stop(primary)


@pytest.fixture
async def redis(primary_and_replica: tuple[str, subprocess.Popen[bytes]]
                ) -> AsyncIterator[Redis]:
    r = store.connect(primary_and_replica[0])
    yield r
    await r.aclose()


async def test_a_durable_change_waits_for_the_replica_and_warns_without_it(
        redis: Redis, primary_and_replica: tuple[str, subprocess.Popen[bytes]],
        caplog: pytest.LogCaptureFixture) -> None:
    # With the replica up, WAIT returns once it acknowledges: a cap of 10 s costs nothing
    # there, where 300 ms could pass on a busy machine before the replica is scheduled.
    patient = bind(redis, COUNT, int, durable_wait=10.0)
    count = bind(redis, COUNT, int, durable_wait=0.3)
    with caplog.at_level(logging.WARNING, logger="samedeal.store"):
        assert await patient(keys=["sd:{t}:n"]) == 1
        assert "no replica acknowledged" not in caplog.text
        replica = primary_and_replica[1]
        replica.send_signal(signal.SIGSTOP)
        try:
            assert await count(keys=["sd:{t}:n"]) == 2  # acknowledged anyway, after the wait
        finally:
            replica.send_signal(signal.SIGCONT)
    assert "no replica acknowledged a change to sd:{t}:n within 300 ms" in caplog.text


async def test_a_redis_that_lost_its_scripts_runs_a_durable_change_once(redis: Redis) -> None:
    count = bind(redis, COUNT, int, durable_wait=1.0)
    await redis.delete("sd:{t}:once")
    await redis.script_flush()
    assert await count(keys=["sd:{t}:once"]) == 1
    assert int(await redis.get("sd:{t}:once")) == 1


async def lost_while_waiting(port: int, replica: subprocess.Popen[bytes],
                             call: Awaitable[Any]) -> BaseException:
    """Run ``call`` (a durable change) with ``replica`` paused, so that its ``WAIT`` waits on
    the primary at ``port``; kill that connection there once it waits; what the call raised.
    (Its connection is told from other processes' by its port, one of this process's.)"""
    replica.send_signal(signal.SIGSTOP)
    try:
        task = asyncio.ensure_future(call)

        def waiting() -> str:
            out = subprocess.run(["redis-cli", "-p", str(port), "CLIENT", "LIST"],
                                 capture_output=True, text=True, timeout=5).stdout
            fields = [dict(f.split("=", 1) for f in line.split() if "=" in f)
                      for line in out.splitlines()]
            mine = own_ports()
            return next((f["id"] for f in fields if f.get("cmd") == "wait"
                         and "b" in f.get("flags", "")  # blocked in WAIT
                         and int(f["addr"].rpartition(":")[2]) in mine), "")

        for _ in range(300):
            if client := await asyncio.to_thread(waiting):
                break
            assert not task.done(), task
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the change never waited for the replica")
        subprocess.run(["redis-cli", "-p", str(port), "CLIENT", "KILL", "ID", client],
                       check=True, capture_output=True, timeout=5)
        with pytest.raises(Exception) as raised:
            await task
        return raised.value
    finally:
        replica.send_signal(signal.SIGCONT)


def own_ports() -> set[int]:
    """The local ports of this process's TCP sockets, by Linux's /proc."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    with open("/proc/self/net/tcp") as table:
        rows = [line.split() for line in table.read().splitlines()[1:]]
    return {int(row[1].rpartition(":")[2], 16) for row in rows if row[9] in inodes}


async def test_a_connection_lost_while_waiting_fails_the_change_and_runs_it_once(
        redis: Redis, primary_and_replica: tuple[str, subprocess.Popen[bytes]]) -> None:
    """The change may be on the primary alone: the call fails as the store unavailable (the
    caller reads where things stand), not answered after sending the script again."""
    url, replica = primary_and_replica
    count = bind(redis, COUNT, int, durable_wait=10.0)
    await redis.delete("sd:{t}:lost")
    assert await count(keys=["sd:{t}:lost"]) == 1  # (the script loaded)
    port = urlsplit(url).port
    assert port is not None
    error = await lost_while_waiting(port, replica, count(keys=["sd:{t}:lost"]))
    assert store.failed(error), repr(error)
    assert int(await redis.get("sd:{t}:lost")) == 2
