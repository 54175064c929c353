"""The ``durable`` setting on one redis-server with a replica (server/store/__init__.py
``durably``): a change is answered once the replica has it, or after ``durable_wait`` with a
warning; a Redis that does not know the script yet runs it once, not twice."""

from __future__ import annotations

import logging
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Iterator

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

