"""Races from creation to results: listing, leaving, starting by hand, the countdown, the
time limit; solo practice with unlimited undo; the default store (a private redis-server)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import asyncio as redis

import engine
from server.store import own_redis
from tests.conftest import SUITE_ACCOUNTS, start_node, stop_node, wait_for

from .client import MSGPACK, Node, Rest, Ws, player


async def test_open_races_are_listed_joined_left_and_started_by_their_creator(
        node: Node) -> None:
    _, a_token = await player(node, "Ann")
    _, b_token = await player(node, "Bob")
    a, b = Rest(node, a_token), Rest(node, b_token)
    status, race = await a.call("POST", "/races", {"game": "pyramid", "variant": "easy",
                                                  "seats": 3, "start": "manual"})
    assert status == 201 and race["state"] == "open" and len(race["entrants"]) == 1
    rid = race["race"]
    _, listed = await b.call("GET", "/races")
    assert rid in [r["race"] for r in listed["races"]]
    status, joined = await b.call("POST", f"/races/{rid}/join")
    assert status == 200 and len(joined["entrants"]) == 2
    status, left = await b.call("POST", f"/races/{rid}/leave")
    assert status == 200 and len(left["entrants"]) == 1
    await b.call("POST", f"/races/{rid}/join")
    status, started = await a.call("POST", f"/races/{rid}/start")
    assert status == 200 and started["state"] == "running"
    assert all(e["status"] == "playing" for e in started["entrants"])
    _, listed = await b.call("GET", "/races")
    assert rid not in [r["race"] for r in listed["races"]]
    await a.aclose()
    await b.aclose()


async def test_a_deal_with_no_move_ends_the_race_as_it_starts(
        node: Node, redis_url: str) -> None:
    rules = engine.get("castile", "standard")
    seed = next(s for s in (hashlib.sha256(b"%d" % i).digest() for i in range(10_000))
                if rules.deal(s, competitive=True).over)
    a_id, a_token = await player(node, "Ann")
    b_id, b_token = await player(node, "Bob")
    a, b = await Ws.open(node, a_token), await Ws.open(node, b_token)
    race = await a.request({"type": "race.create", "game": "castile", "variant": "standard",
                            "seats": 2, "countdown": 0})
    store = redis.Redis.from_url(redis_url)  # deal this race from a seed known to be stuck
    await store.hset(f"sd:{{{race['race']}}}:race", mapping={
        "seed": seed.hex(), "commitment": engine.commitment(seed)})
    await store.aclose()
    # Bob's seat fills the race: it starts and ends within his join, and he still gets every
    # event after his seat, after the reply.
    joined = await b.request({"type": "race.join", "race": race["race"]})
    assert joined["state"] == "ended" and joined["joined_seq"] == 2
    assert not b.pending("race.started"), "events after the reply"
    assert (await b.expect("race.started"))["seq"] == 3
    assert (await b.expect("session"))["view"]["status"] == "lost"
    assert (await a.expect("race.ended", timeout=5))["seq"] == 4
    ended = await b.expect("race.ended", timeout=5)
    assert ended["seed"] == seed.hex()
    assert {e["player"] for e in ended["ranking"]} == {a_id, b_id}
    assert all(e["status"] == "lost" for e in ended["ranking"])
    await a.close()
    await b.close()


async def test_the_time_limit_ends_a_race_and_ranks_who_is_still_playing(
        nodes: list[Node]) -> None:
    a_id, a_token = await player(nodes[0], "Ann")
    b_id, b_token = await player(nodes[1], "Bob")
    a, b = await Ws.open(nodes[0], a_token), await Ws.open(nodes[1], b_token)
    race = await a.request({"type": "race.create", "game": "golf", "variant": "easy",
                            "seats": 2, "countdown": 0, "time_limit": 5})
    await b.request({"type": "race.join", "race": race["race"]})
    sa = await a.expect("session")
    await b.expect("session")
    ack = await a.request({"type": "move", "session": sa["session"], "move": "s"})
    assert ack["type"] == "ack"
    ended = await b.expect("race.ended", timeout=15)
    ranking = ended["ranking"]
    assert {e["player"] for e in ranking} == {a_id, b_id}
    assert all(e["status"] == "playing" and e["finished_at"] is None for e in ranking)
    assert all(4000 <= e["time_ms"] <= 7000 for e in ranking)
    # Golf scores low: both still hold their cards, so fewer moves break the tie.
    assert [e["player"] for e in ranking] == [b_id, a_id]
    late = await a.request({"type": "move", "session": sa["session"], "move": "s"})
    assert late["code"] == "race.over"
    await a.close()
    await b.close()


async def test_moves_wait_for_the_countdown(node: Node) -> None:
    _, a_token = await player(node, "Ann")
    _, b_token = await player(node, "Bob")
    a, b = await Ws.open(node, a_token), await Ws.open(node, b_token)
    race = await a.request({"type": "race.create", "game": "golf", "variant": "easy",
                            "seats": 2, "countdown": 2})
    await b.request({"type": "race.join", "race": race["race"]})
    sa = await a.expect("session")
    early = await a.request({"type": "move", "session": sa["session"], "move": "s"})
    assert early["code"] == "race.not_started" and "starts in" in early["message"]
    assert (await a.request({"type": "session.get", "session": sa["session"]}))["rev"] == 0
    await asyncio.sleep(2.2)
    assert (await a.request({"type": "move", "session": sa["session"],
                             "move": "s"}))["type"] == "ack"
    await a.close()
    await b.close()


@pytest.mark.parametrize("protocol", ["samedeal.json", MSGPACK])
async def test_practice_has_unlimited_undo_and_a_chosen_seed(node: Node, protocol: str) -> None:
    _, token = await player(node, "Ann", "human")
    ws = await Ws.open(node, token, protocol)
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "difficult",
                          "seed": "00ff"})
    assert s["type"] == "session" and s["mode"] == "practice" and s["seed"] == "00ff"
    st = engine.get("klondike", "difficult").deal(bytes.fromhex("00ff"))
    assert s["view"] == st.view()
    first = s
    for _ in range(6):
        s = await ws.request({"type": "move", "session": s["session"], "move": s["legal"][0]})
        assert s["type"] == "ack"
    for _ in range(6):  # undo takes back even the moves that showed cards
        s = await ws.request({"type": "undo", "session": s["session"]})
        assert s["type"] == "ack"
    assert s["view"] == first["view"] and s["rev"] == 12
    random_seed = await ws.request({"type": "solo.start", "game": "golf", "variant": "easy"})
    assert "seed" not in random_seed and len(random_seed["commitment"]) == 64
    gone = await ws.request({"type": "resign", "session": random_seed["session"]})
    assert engine.verify(bytes.fromhex(gone["seed"]), random_seed["commitment"])
    await ws.close()


@pytest.fixture(scope="module")
def default(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    """A node given no Redis URL: it runs its own redis-server (tests/server/test_own_redis.py
    checks what that keeps across restarts)."""
    work = tmp_path_factory.mktemp("default")
    node, proc = start_node("", work / "node.log", SAMEDEAL_DATA_DIR=str(work / "data"),
                            **SUITE_ACCOUNTS)
    yield node
    stop_node(proc, node.log)


async def test_the_default_store_serves_solo_games_and_races(default: Node) -> None:
    rest = Rest(default)
    status, ready = await rest.call("GET", "/../../readyz")
    assert status == 200 and ready["store"] == "redis"
    a_id, a_token = await player(default, "Ann")
    _, b_token = await player(default, "Bob")
    a, b = await Ws.open(default, a_token), await Ws.open(default, b_token)
    solo = await a.request({"type": "solo.start", "game": "spiderette", "variant": "easy"})
    ack = await a.request({"type": "move", "session": solo["session"],
                           "move": solo["legal"][0]})
    assert ack["type"] == "ack" and ack["rev"] == 1
    race = await a.request({"type": "race.create", "game": "golf", "variant": "difficult",
                            "seats": 2, "countdown": 0})
    await b.request({"type": "race.join", "race": race["race"]})
    sa, sb = await a.expect("session"), await b.expect("session")
    for ws, s in ((a, sa), (b, sb)):
        assert (await ws.request({"type": "resign", "session": s["session"]}))["type"] == "ack"
    ended = await a.expect("race.ended")
    assert engine.verify(bytes.fromhex(ended["seed"]), race["commitment"])
    assert {e["player"] for e in ended["ranking"]} >= {a_id}
    await a.close()
    await b.close()
    await rest.aclose()


async def test_a_burst_of_moves_beyond_the_redis_pool_all_succeed(node: Node) -> None:
    """More moves in flight at once than a process has Redis connections (64): they queue
    for a connection instead of failing."""
    _, token = await player(node)
    sockets = [await Ws.open(node, token) for _ in range(150)]
    sessions = [await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy"})
                for ws in sockets]
    replies = await asyncio.gather(*(
        ws.request({"type": "move", "session": s["session"], "move": s["legal"][0]})
        for ws, s in zip(sockets, sessions, strict=True)))
    assert [r["type"] for r in replies] == ["ack"] * 150, [r for r in replies
                                                            if r["type"] != "ack"][:1]
    for ws in sockets:
        await ws.close()


async def test_a_node_stops_when_asked_after_a_client_vanished_mid_request(
        redis_url: str, tmp_path: Path) -> None:
    """A socket cut while its race.create (with a seat) was being served once left the
    connection's writer waiting for ever, and the node hung on SIGTERM."""
    node, proc = start_node(redis_url, tmp_path / "node.log", **SUITE_ACCOUNTS)
    _, token = await player(node, "Gone")
    for _ in range(3):
        ws = await Ws.open(node, token)
        await ws.send({"type": "race.create", "game": "klondike", "variant": "easy",
                       "seats": 2})
        ws.conn.transport.abort()
    await asyncio.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    # uvicorn re-raises the signal once it has shut down; a hang raises TimeoutExpired
    assert proc.wait(15) in (0, -signal.SIGTERM)


async def test_a_node_stops_when_asked_while_a_move_waits_on_a_paused_store(
        tmp_path: Path) -> None:
    """A move stuck on the store, for longer than anyone waits for it: the drain gives up on
    its socket and logs where it waits, and once the stop's grace is over it is cancelled
    (docs/operations.md#graceful-shutdown): the node stops."""
    data, log = tmp_path / "data", tmp_path / "node.log"
    node, proc = start_node("", log, SAMEDEAL_DATA_DIR=str(data),
                            SAMEDEAL_STORE_TIMEOUT="600", **SUITE_ACCOUNTS)
    _, token = await player(node, "Stuck")
    store = redis.Redis(unix_socket_path=str(data / own_redis.SOCKET))
    ws = await Ws.open(node, token)
    try:
        s = await ws.request({"type": "solo.start", "game": "golf", "variant": "easy"})
        await store.execute_command("CLIENT", "PAUSE", 600_000, "WRITE")
        await ws.send({"type": "move", "session": s["session"], "move": s["legal"][0]})
        await asyncio.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        # The drain, then the grace: seconds, not the store's 600.
        await asyncio.to_thread(wait_for, lambda: "Cancel 1 running task(s)" in log.read_text(),
                                "the stuck move's cancellation", 60)
        said = log.read_text()
        assert "drained: 1 socket(s) left open" in said, said
        waits = next(line for line in said.splitlines() if "a socket left open waits at" in line)
        assert "server.transport.ws:" in waits and "_persist" in waits, waits
        await store.execute_command("CLIENT", "UNPAUSE")  # the node's own stop writes
        assert await asyncio.to_thread(proc.wait, 60) in (0, -signal.SIGTERM)
    finally:
        with contextlib.suppress(Exception):
            await store.execute_command("CLIENT", "UNPAUSE")
        await store.aclose()
        ws.conn.transport.abort()
        if proc.poll() is None:
            proc.kill()


async def test_a_move_without_a_revision_is_judged_on_the_session_as_stored(
        nodes: list[Node]) -> None:
    """Node B holds a copy of the session from before a move made on node A. A move sent to B
    without ``rev``, legal only after A's move, is played, not refused by B's old copy."""
    a, b = nodes
    _, token = await player(a, "Cy", "human")
    on_a, on_b = await Ws.open(a, token), await Ws.open(b, token)
    s = await on_a.request({"type": "solo.start", "game": "klondike", "variant": "difficult",
                            "seed": "00ff"})
    sid = s["session"]
    await on_b.request({"type": "session.get", "session": sid})  # B's copy, at revision 0
    rules = engine.get("klondike", "difficult")
    st = rules.deal(bytes.fromhex("00ff"))
    before = {engine.move_text(rules, m) for m in st.legal_moves()}
    for first in sorted(before):
        st.play(engine.parse_move(rules, first))
        fresh = sorted({engine.move_text(rules, m) for m in st.legal_moves()} - before)
        if fresh:
            break
        st.pop()
    assert fresh, "no move of this deal is legal only after another"
    ack = await on_a.request({"type": "move", "session": sid, "move": first})
    assert ack["type"] == "ack"
    late = await on_b.request({"type": "move", "session": sid, "move": fresh[0]})
    assert late["type"] == "ack" and late["rev"] == 2, late
    await on_a.close()
    await on_b.close()
