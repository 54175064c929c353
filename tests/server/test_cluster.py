"""A race on a Redis Cluster of its own (three primaries, three replicas) while the shard that
owns it changes hands: a planned failover (``CLUSTER FAILOVER`` on its replica), its slot
migrated to another primary, and, with the ``durable`` setting, its primary killed outright.
Every move a player saw acknowledged is in the final transcripts, the race ends with every
entrant ranked, and its events still reach a spectator on another node, by sharded pub/sub on
the shard that owns the race."""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from server import store
from tests.cluster import Cluster
from tests.conftest import FAST, start_node, stop_node
from tests.deploy.test_failover import MOVES, Player, fault_figures, play, players
from tests.fault_figures import record

from .client import Node, Rest, Ws, player
from .test_durable import COUNT, lost_while_waiting

PER_NODE = 5


@pytest.fixture(scope="module")
def own_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Not the session's: these tests fail its shards over, and kill one."""
    c = Cluster(tmp_path_factory.mktemp("own-cluster"))
    yield c
    c.close()


def two_nodes(cluster: Cluster, work: Path, **env: str) -> Iterator[list[Node]]:
    started = [start_node(cluster.url, work / f"node{i}.log", **FAST, **env) for i in range(2)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


@pytest.fixture(scope="module")
def cluster_nodes(own_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[list[Node]]:
    yield from two_nodes(own_cluster, tmp_path_factory.mktemp("cluster-nodes"))


@pytest.fixture(scope="module")
def durable_nodes(own_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[list[Node]]:
    yield from two_nodes(own_cluster, tmp_path_factory.mktemp("durable-nodes"),
                         SAMEDEAL_DURABLE="1", SAMEDEAL_DURABLE_WAIT="0.3")


async def race_through(nodes: list[Node], cluster: Cluster, disrupt: Callable[[str], object],
                       fault: str) -> None:
    """Four entrants, two on each node, and a spectator on the second; ``disrupt(race key)``
    once a third of the moves are acknowledged. Its figures are recorded and held to the
    promise (tests/fault_figures.py)."""
    began: list[float] = []
    ps: list[Player] = []
    for node in nodes:
        ps += await players(node.url, PER_NODE)
    _, token = await player(nodes[1], "Watcher", "human")
    spectator = await Ws.open(nodes[1], token)
    try:
        r = await ps[0].client.create_race("klondike", "easy", len(ps), countdown=0,
                                           time_limit=600)
        await spectator.send({"type": "race.subscribe", "race": r.id})
        await spectator.expect("race")
        for p in ps[1:]:
            await p.client.join_race(r.id)
        sessions = {(await p.client.wait_race_session(r.id, timeout=30)).id: p for p in ps}
        key, channel = f"sd:{{{r.id}}}:race", f"sd:{{{r.id}}}:ev"
        assert owner_has_subscribers(cluster, channel)

        async def when_a_third_acknowledged() -> None:
            while sum(len(p.acked) for p in ps) < len(ps) * MOVES // 3:
                await asyncio.sleep(0.02)
            began.append(asyncio.get_running_loop().time())
            await asyncio.to_thread(disrupt, key)
            for _ in range(150):  # both nodes follow the race to its shard's new primary
                if await asyncio.to_thread(owner_has_subscribers, cluster, channel):
                    return
                await asyncio.sleep(0.1)
            raise AssertionError("the nodes did not subscribe at the race's new primary")

        await asyncio.wait_for(asyncio.gather(
            *(play(p, sid, random.Random(i)) for i, (sid, p) in enumerate(sessions.items())),
            when_a_third_acknowledged()), 240)
        results = await ps[1].client.wait_race_end(r.id, timeout=60)
        assert {e["player"] for e in results.ranking} == {
            p.client.player["id"] for p in ps if p.client.player}
        ended = await spectator.expect("race.ended", timeout=30)
        assert ended["race"] == r.id and len(ended["ranking"]) == len(ps)
        # The spectator's socket never reconnected: each event once, in order, across the
        # pub/sub reconnects (a catch-up once sent again events the socket had).
        highest, behind = 0, []
        for m in spectator.received:
            if m["type"].startswith("race."):
                if m["seq"] <= highest:
                    behind.append(m["seq"])
                highest = max(highest, m["seq"])
        assert not behind, f"{len(behind)} event(s) sent again or late: {behind[:40]}"
        figures = await asyncio.to_thread(fault_figures, fault, "cluster", nodes[0].url,
                                          sessions, began[0])
    finally:
        await spectator.close()
        for p in ps:
            await p.client.close()
    record(figures)


def owner_has_subscribers(cluster: Cluster, channel: str) -> bool:
    """The race's channel is a shard channel, subscribed on the primary that owns it (both
    nodes follow the race), and no node has it as a classic channel."""
    primary, _ = cluster.owner(channel)
    shard = cluster.cli(primary, "PUBSUB", "SHARDNUMSUB", channel).split()
    classic = [cluster.cli(p, "PUBSUB", "NUMSUB", channel).split() for p in cluster.live]
    return int(shard[1]) == 2 and all(int(n[1]) == 0 for n in classic)


async def test_a_planned_failover_mid_race_keeps_every_acknowledged_move(
        cluster_nodes: list[Node], own_cluster: Cluster) -> None:
    moved: list[tuple[int, int]] = []
    await race_through(cluster_nodes, own_cluster,
                       lambda key: moved.append(own_cluster.fail_over(key)), "a planned failover")
    (old, new), = moved
    assert old != new


async def test_a_slot_migrated_mid_race_keeps_every_acknowledged_move(
        cluster_nodes: list[Node], own_cluster: Cluster) -> None:
    moved: list[tuple[int, int]] = []
    await race_through(cluster_nodes, own_cluster,
                       lambda key: moved.append(own_cluster.migrate(key)), "a slot migrated")
    (old, new), = moved
    assert old != new


async def test_durable_waits_for_the_replica_of_the_move_s_own_shard(
        durable_nodes: list[Node], own_cluster: Cluster) -> None:
    """A move is acknowledged once the replica of its own shard has it: with that replica
    paused, the move waits its ``durable_wait`` and is acknowledged with a warning. (Before
    the test that kills a primary: every shard still has its replica.)"""
    node = durable_nodes[0]
    _, token = await player(node)
    rest = Rest(node, token)
    status, s = await rest.call("POST", "/solo", {"game": "klondike", "variant": "easy"})
    assert status == 201, s
    key = f"sd:{{{s['session']}}}:session"
    status, s = await rest.call("POST", f"/sessions/{s['session']}/moves",
                                {"move": s["legal"][0]})
    assert status == 200, s
    assert f"no replica acknowledged a change to {key}" not in node.log.read_text()
    _, replica = own_cluster.owner(key)
    paused = own_cluster.procs[own_cluster.ports.index(replica)]
    paused.send_signal(signal.SIGSTOP)
    try:
        status, s = await rest.call("POST", f"/sessions/{s['session']}/moves",
                                    {"move": s["legal"][0]})
    finally:
        paused.send_signal(signal.SIGCONT)
    assert status == 200 and s["rev"] == 2, s
    assert f"no replica acknowledged a change to {key}" in node.log.read_text()
    await rest.aclose()


async def test_a_durable_change_whose_connection_dies_while_it_waits_is_not_acknowledged(
        own_cluster: Cluster) -> None:
    """The change may be on its primary alone, so the call fails as the store unavailable:
    a WAIT sent again on another connection, which wrote nothing, would answer at once that
    a replica has everything (redis-py's cluster pipeline resends a failed command so)."""
    r = store.connect(own_cluster.url)
    try:
        key = "sd:{lost}:n"
        primary, replica = own_cluster.owner(key)
        paused = own_cluster.procs[own_cluster.ports.index(replica)]
        count = store.script(r, COUNT)
        assert await store.durably(r, count, [key], [], 10_000) == (1, 1)  # (and loaded)
        error = await lost_while_waiting(primary, paused,
                                         store.durably(r, count, [key], [], 10_000))
        assert store.failed(error), repr(error)
        assert own_cluster.cli(primary, "GET", key) == "2"  # the script ran, once
    finally:
        await store.close(r)


async def test_a_durable_change_follows_its_slot_and_waits_for_the_new_owner_s_replica(
        own_cluster: Cluster) -> None:
    """While its slot migrates (ASK) and once it has moved (MOVED), the change runs on the
    slot's new primary and its WAIT counts that primary's replica: paused, none."""
    r = store.connect(own_cluster.url)
    c = own_cluster
    try:
        key = "sd:{moving}:n"
        count = store.script(r, COUNT)
        assert await store.durably(r, count, [key], [], 10_000) == (1, 1)
        source, target, slot = c.start_migrating(key)
        assert c.cli(source, "MIGRATE", "127.0.0.1", str(target), "", "0", "5000", "KEYS",
                     key) == "OK"
        paused = c.procs[c.ports.index(c.replica_of(target))]
        paused.send_signal(signal.SIGSTOP)
        try:
            assert await store.durably(r, count, [key], [], 300) == (2, 0)  # by ASK
        finally:
            paused.send_signal(signal.SIGCONT)
        c.end_migrating(key, source, target, slot)
        assert await store.durably(r, count, [key], [], 10_000) == (3, 1)  # by MOVED
        assert c.cli(target, "GET", key) == "3"
    finally:
        await store.close(r)


async def test_a_transaction_follows_its_moved_slot_and_is_a_store_failure_while_it_migrates(
        own_cluster: Cluster) -> None:
    """redis-py's cluster client sends a transaction again after MOVED (nothing ran), as it
    does a single command, and the client that sends nothing again after a lost reply keeps
    that. Its transactions do not follow ASK: while the slot migrates, a transaction whose
    keys have gone to the importing primary fails as the store unavailable (the player
    tries again), not as a server error."""
    r = store.connect(own_cluster.url)
    c = own_cluster
    key = "sd:{reading}:n"

    async def read() -> list[bytes]:
        async with r.pipeline(transaction=True) as pipe:
            pipe.get(key)
            pipe.strlen(key)
            return await pipe.execute()  # type: ignore[no-any-return]

    try:
        await r.set(key, "here")
        source, target, slot = c.start_migrating(key)
        assert c.cli(source, "MIGRATE", "127.0.0.1", str(target), "", "0", "5000", "KEYS",
                     key) == "OK"
        with pytest.raises(Exception) as failed:
            await read()  # ASK
        assert store.failed(failed.value), repr(failed.value)
        c.end_migrating(key, source, target, slot)
        assert await read() == [b"here", 4]  # by MOVED
    finally:
        await store.close(r)


async def test_a_primary_killed_mid_race_loses_no_acknowledged_move_when_durable(
        durable_nodes: list[Node], own_cluster: Cluster) -> None:
    killed: list[tuple[int, int]] = []
    await race_through(durable_nodes, own_cluster,
                       lambda key: killed.append(own_cluster.kill_primary(key)),
                       "a primary killed (durable)")
    (dead, new), = killed
    assert dead in own_cluster.dead and new not in own_cluster.dead
