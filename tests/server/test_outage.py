"""A node whose Redis is away: paused mid-play (a move answers ``store.unavailable`` at the
store deadline, over the WebSocket and REST; /readyz says 503; all works once Redis is back),
and absent when the node starts (it stays up, unready, one log line per try, and becomes ready
when Redis comes). Each test runs a redis-server of its own."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest
from redis import Redis
from websockets.exceptions import ConnectionClosed

from tests.cluster import PRIMARIES, Cluster
from tests.conftest import FAST, answers, free_port, start_node, wait_for

from . import own_redis
from .client import Node, Rest, Ws, player


def status(node: Node, path: str) -> int:
    return answers(node.url + path, timeout=10)


@contextlib.contextmanager
def node_on_own_redis(tmp_path: Path, **env: str
                      ) -> Iterator[tuple[Node, subprocess.Popen[bytes], Redis]]:
    """A node (``FAST`` and ``env``) on a redis-server of its own, once it is ready, and a
    client of that Redis for the test's own commands; all stopped after."""
    port = free_port()
    redis = own_redis.start(port, tmp_path)
    node, proc = start_node(f"redis://127.0.0.1:{port}/0", tmp_path / "node.log",
                            **FAST, **env)
    admin = Redis(port=port)
    try:
        wait_for(lambda: status(node, "/readyz") == 200, "the node's readiness")
        yield node, redis, admin
    finally:
        admin.close()
        proc.terminate()
        proc.wait(15)
        own_redis.stop(redis)


async def test_a_paused_redis_answers_store_unavailable_then_play_goes_on(
        tmp_path: Path) -> None:
    with node_on_own_redis(tmp_path, SAMEDEAL_STORE_TIMEOUT="1") as (node, redis, _):
        _, token = await player(node)
        ws = await Ws.open(node, token)
        rest = Rest(node, token)
        s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy"})
        sid = s["session"]
        redis.send_signal(signal.SIGSTOP)
        try:
            # Once moves waited silently for as long as Redis was paused.
            move = {"type": "move", "session": sid, "move": s["legal"][0]}
            failed = await ws.request(move, timeout=30)
            assert failed["type"] == "error" and failed["code"] == "store.unavailable"
            assert failed["id"] and failed["message"]
            code, body = await asyncio.wait_for(rest.call(
                "POST", f"/sessions/{sid}/moves", {"move": s["legal"][0]}), 30)
            assert code == 503 and body["code"] == "store.unavailable"
            assert status(node, "/readyz") == 503
            assert status(node, "/healthz") == 200
        finally:
            redis.send_signal(signal.SIGCONT)
        wait_for(lambda: status(node, "/readyz") == 200, "readiness after the pause")
        # A change whose reply was lost may have been stored: re-read, then play on.
        now = await ws.request({"type": "session.get", "session": sid})
        assert now["type"] == "session", now
        ack = await ws.request({"type": "move", "session": sid, "move": now["legal"][0]})
        assert ack["type"] == "ack" and ack["rev"] == now["rev"] + 1, ack
        await ws.close()
        await rest.aclose()


async def plays(node: Node) -> None:
    """A new player starts a game on ``node`` and has a move acknowledged."""
    _, token = await player(node, "Late")
    ws = await Ws.open(node, token)
    s = await ws.request({"type": "solo.start", "game": "golf", "variant": "easy"})
    assert (await ws.request({"type": "move", "session": s["session"],
                              "move": s["legal"][0]}))["type"] == "ack"
    await ws.close()


async def test_a_node_started_before_redis_waits_unready_and_serves_once_it_comes(
        tmp_path: Path) -> None:
    port = free_port()  # nothing listens there yet
    log = tmp_path / "node.log"
    node, proc = start_node(f"redis://127.0.0.1:{port}/0", log, **FAST)
    redis: subprocess.Popen[bytes] | None = None
    try:
        tries = "pub/sub connection: Redis unreachable"
        wait_for(lambda: log.read_text().count(tries) >= 3, "three tries in the log")
        assert proc.poll() is None
        assert status(node, "/healthz") == 200
        assert status(node, "/readyz") == 503
        code, body = await Rest(node).call("POST", "/players", {"name": "Early", "kind": "bot"})
        assert code == 503 and body["code"] == "store.unavailable"
        redis = own_redis.start(port, tmp_path)
        wait_for(lambda: status(node, "/readyz") == 200, "readiness once Redis came")
        await plays(node)
    finally:
        proc.terminate()
        proc.wait(15)
        if redis is not None:
            own_redis.stop(redis)
    text = log.read_text()
    assert "Traceback" not in text and "startup failed" not in text.lower(), text[-3000:]
    # One line per try, each saying when the next comes: 0.5 s doubling up to 5 s.
    waits = [line.rsplit("next try in ", 1)[1] for line in text.splitlines() if tries in line]
    assert waits[:3] == ["0.5 s", "1 s", "2 s"], waits
    assert set(waits) <= {"0.5 s", "1 s", "2 s", "4 s", "5 s"}, waits


async def test_a_socket_whose_catch_up_fails_is_closed_to_resume_not_left_deaf(
        tmp_path: Path) -> None:
    """A subscription's catch-up reads the race's events from the store; if that read fails,
    the socket was once left open and silent for good (it dropped every later event, not
    knowing where it stood). It is closed with 1013 instead, and a new socket resumes."""
    with node_on_own_redis(tmp_path) as (node, _, admin):
        _, ann = await player(node, "Ann")
        _, bob = await player(node, "Bob")
        host = await Ws.open(node, ann)
        race = await host.request({"type": "race.create", "game": "golf", "variant": "easy",
                                   "seats": 3})
        rid = race["race"]
        watcher = await Ws.open(node, bob)
        # The window's read (LRANGE) alone fails: the subscription's check of the race works.
        admin.execute_command("ACL", "SETUSER", "default", "-lrange")
        try:
            await watcher.send({"type": "race.subscribe", "race": rid, "after": 0})
            with pytest.raises(ConnectionClosed):
                await watcher.expect("race.joined", timeout=10)
            assert watcher.conn.close_code == 1013
        finally:
            admin.execute_command("ACL", "SETUSER", "default", "+lrange")
        again = await Ws.open(node, bob)
        await again.send({"type": "race.subscribe", "race": rid, "after": 0})
        joined = await again.expect("race.joined")
        assert joined["seq"] == 1 and joined["race"] == rid
        await host.close()
        await again.close()


async def test_a_socket_whose_events_cannot_be_read_for_a_moment_is_made_whole_not_closed(
        tmp_path: Path) -> None:
    """An event that needs a read (it comes after a gap) while Redis answers nothing, past
    the store deadline: once Redis answers again, the socket is sent the race's summary,
    events go on after it, and it stays open (a spectator that never reconnects missed
    every later event once Redis restarted under it, when the read fell in the outage)."""
    with node_on_own_redis(tmp_path, SAMEDEAL_STORE_TIMEOUT="1") as (node, _, admin):
        _, ann = await player(node, "Ann")
        _, bob = await player(node, "Bob")
        _, cy = await player(node, "Cy")
        host = await Ws.open(node, ann)
        rid = (await host.request({"type": "race.create", "game": "golf", "variant": "easy",
                                   "seats": 3}))["race"]
        watcher = await Ws.open(node, bob)
        await watcher.send({"type": "race.subscribe", "race": rid, "after": 0})
        assert (await watcher.expect("race.joined"))["seq"] == 1
        # Event 3 with no event 2: the socket reads what it missed, and Redis, paused for
        # 2.5 s (twice the deadline and more), answers nothing meanwhile.
        gap = b"3\n" + msgpack.packb({"type": "race.joined", "race": rid})
        with admin.pipeline(transaction=False) as p:
            p.publish(f"sd:{{{rid}}}:ev", gap).execute_command("CLIENT", "PAUSE", 2500, "ALL")
            p.execute()
        summary = await watcher.expect("race", timeout=30)
        assert summary["race"] == rid and summary["seq"] == 1
        joined = await (await Ws.open(node, cy)).request({"type": "race.join", "race": rid})
        assert joined["type"] == "race", joined
        assert (await watcher.expect("race.joined", timeout=30))["seq"] == 2
        assert watcher.conn.close_code is None
        await host.close()
        await watcher.close()


async def test_a_node_started_before_its_cluster_answers_store_unavailable_until_it_comes(
        tmp_path: Path) -> None:
    """As with one Redis: a node whose cluster's seed nodes do not answer yet stays up,
    answers ``store.unavailable`` with no traceback in its log, and serves once they come."""
    ports = [free_port() for _ in range(2 * PRIMARIES)]
    url = "redis-cluster://" + ",".join(f"127.0.0.1:{p}" for p in ports[:PRIMARIES])
    log = tmp_path / "node.log"
    node, proc = start_node(url, log, **FAST)
    cluster: Cluster | None = None
    try:
        wait_for(lambda: status(node, "/healthz") == 200, "the node")
        assert status(node, "/readyz") == 503
        for _ in range(3):
            code, body = await Rest(node).call("POST", "/players",
                                               {"name": "Early", "kind": "bot"})
            assert code == 503 and body["code"] == "store.unavailable", body
        (tmp_path / "cluster").mkdir()
        cluster = Cluster(tmp_path / "cluster", ports)
        wait_for(lambda: status(node, "/readyz") == 200, "readiness once the cluster came",
                 timeout=60)
        await plays(node)
    finally:
        proc.terminate()
        proc.wait(15)
        if cluster is not None:
            cluster.close()
    text = log.read_text()
    assert "Traceback" not in text and "server.error" not in text, text[-3000:]
