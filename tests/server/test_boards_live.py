"""Boards published live (docs/protocol.md, board.subscribe), on two real server processes over
a real redis-server: a result posted through one node reaches a watcher on the other within
about a second; updates are coalesced to one a second per board; each watcher's own entry is
right; Redis reads stay bounded however many sockets watch; a node restart, unsubscribing and
unknown boards; and ``retry_after`` on rate-limit refusals."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from server.boards import WATCH
from server.daily import daily_rule_sets
from tests.conftest import FAST, start_node, stop_node

from .client import JSON, MSGPACK, V2_JSON, V2_MSGPACK, Node, Rest, Ws, player

#: One-player rule sets handed out one per test, so no two tests share a daily board.
GAMES = iter([(r.id, r.variant) for r in reversed(daily_rule_sets())])
_names = itertools.count()


async def daily_games(node: Node) -> list[tuple[str, str]]:
    rest = Rest(node)
    status, day = await rest.call("GET", "/daily")
    await rest.aclose()
    assert status == 200, day
    return [(d["game"], d["variant"]) for d in day["deals"]]


@pytest.fixture
async def game(nodes: list[Node]) -> tuple[str, str]:
    """A rule set of today's daily deals that no other test of this module uses."""
    offered = set(await daily_games(nodes[0]))
    for g in GAMES:
        if g in offered:
            return g
    raise AssertionError("out of daily rule sets for these tests")


async def finish(node: Node, token: str, game: tuple[str, str]) -> str:
    """Play today's ranked attempt at ``game`` and resign it: a result on the daily board."""
    rest = Rest(node, token)
    status, s = await rest.call("POST", "/daily", {"game": game[0], "variant": game[1]})
    assert status == 201, s
    status, out = await rest.call("POST", f"/sessions/{s['session']}/resign", {})
    assert status == 200, out
    await rest.aclose()
    return str(s["session"])


async def human(node: Node) -> tuple[str, str]:
    return await player(node, f"W{next(_names)}", "human")


async def watch(node: Node, token: str, board: str, protocol: str = JSON,
                **extra: Any) -> Ws:
    ws = await Ws.open(node, token, protocol)
    reply = await ws.request({"type": "board.subscribe", "board": board, **extra})
    assert reply["type"] == "subscribed", reply
    return ws


def name(game: tuple[str, str]) -> str:
    return f"daily/today/{game[0]}/{game[1]}"


async def rest_board(node: Node, token: str, board: str, **query: Any) -> dict[str, Any]:
    rest = Rest(node, token)
    q = "&".join(f"{k}={v}" for k, v in query.items())
    status, page = await rest.call("GET", f"/boards/{board}?{q}")
    await rest.aclose()
    assert status == 200, page
    return page  # type: ignore[no-any-return]


#: How long a test waits for a board update that must come: a sign of a fault, not a figure.
LATE = 30.0


async def updates_until(ws: Ws, done: Any, timeout: float = 10) -> list[dict[str, Any]]:
    """``board.update`` events until one satisfies ``done``, each stamped with its arrival."""
    got = []
    deadline = time.monotonic() + timeout
    while True:
        m = await ws.expect("board.update", timeout=max(0.01, deadline - time.monotonic()))
        m = {**m, "_at": time.monotonic()}  # a copy: the socket keeps the message as sent
        got.append(m)
        if done(m):
            return got


@pytest.mark.parametrize("protocol", [JSON, MSGPACK, V2_JSON, V2_MSGPACK])
async def test_a_watcher_on_one_node_sees_a_result_posted_through_the_other(
        nodes: list[Node], protocol: str) -> None:
    offered = set(await daily_games(nodes[0]))
    game = next(g for g in GAMES if g in offered)
    _, wtoken = await human(nodes[1])
    ws = await watch(nodes[1], wtoken, name(game), protocol, count=100)
    first = await ws.expect("board.update")  # once at subscription
    assert first["board"].startswith("daily/20") and first["kind"] == "human"
    base = first["total"]  # other tests of the suite may have played today's deal too
    assert first["you"] is None and len(first["entries"]) == min(base, 100)
    pid, ptoken = await human(nodes[0])
    await finish(nodes[0], ptoken, game)
    # The watching node's reader sleeps until the board's "changed" message wakes it: the
    # update comes through the other node's publish or not at all (how often: the flood test
    # below). The wait is long so that a busy machine only slows it.
    got = await updates_until(ws, lambda m: m["total"] == base + 1, timeout=LATE)
    (entry,) = [e for e in got[-1]["entries"] if e["player"] == pid]
    assert entry["rank"] >= 1
    # The same rows and fields the REST board page gives (nothing more before the reveal).
    page = await rest_board(nodes[0], wtoken, first["board"], count=100)
    assert got[-1]["entries"] == page["entries"] and got[-1]["total"] == page["total"]
    assert "integrity" not in entry and "key" not in entry and "member" not in entry
    await ws.close()


async def test_a_flood_of_results_is_coalesced_to_one_update_a_second(
        nodes: list[Node], game: tuple[str, str]) -> None:
    watchers = []
    for i in range(6):
        node = nodes[i % 2]
        _, token = await human(node)
        ws = await watch(node, token, name(game))
        await ws.expect("board.update")
        watchers.append(ws)
    people = [await human(nodes[i % 2]) for i in range(30)]
    reads_before = [await board_reads(n) for n in nodes]
    # Read each socket as the updates arrive, to time them.
    readers = [asyncio.create_task(updates_until(ws, lambda m: m["total"] == 30, timeout=15))
               for ws in watchers]
    t0 = time.monotonic()
    await asyncio.gather(*(finish(nodes[i % 2], t, game) for i, (_, t) in enumerate(people)))
    spent = time.monotonic() - t0
    for ws, reader in zip(watchers, readers, strict=True):
        got = await reader
        # Each watcher's node starts a read of the board at most once a second, so updates
        # come about a second apart (less the jitter of a read's latency under this load and
        # of this test's own busy loop reading them: 0.64 s is the least seen) ...
        gaps = [b["_at"] - a["_at"] for a, b in itertools.pairwise(got)]
        assert all(g > 0.5 for g in gaps), gaps
        # ... about one a second while results land, not one per result.
        assert len(got) <= spent + 2, (len(got), spent)
        await ws.drain(1.5)
        assert not ws.pending("board.update")  # nothing more once the board is still
        await ws.close()
    # Each node read the board at most once a second, for its three watchers together.
    settled = time.monotonic() - t0
    for node, before in zip(nodes, reads_before, strict=True):
        reads = await board_reads(node) - before
        assert 1 <= reads <= settled + 1, (node.url, reads, settled)


async def board_reads(node: Node) -> float:
    """The node's own count of watched-board reads (its /metrics)."""
    rest = Rest(node)
    r = await rest.http.get("/metrics")
    await rest.aclose()
    return sum(float(line.split()[-1]) for line in r.text.splitlines()
               if line.startswith("samedeal_board_reads_total"))


async def test_each_watcher_gets_its_own_entry(nodes: list[Node], game: tuple[str, str]
                                               ) -> None:
    people = [await human(nodes[i % 2]) for i in range(5)]
    sockets = [await watch(nodes[i % 2], t, name(game), count=2)
               for i, (_, t) in enumerate(people)]
    for ws in sockets:
        await ws.expect("board.update")
    for i, (_, token) in enumerate(people[:4]):  # the fifth watches without a result
        await finish(nodes[i % 2], token, game)
    page = await rest_board(nodes[0], people[0][1], name(game), count=100)
    assert page["total"] == 4
    ranks = {e["player"]: e for e in page["entries"]}
    for (pid, _), ws in zip(people, sockets, strict=True):
        got = await updates_until(ws, lambda m: m["total"] == 4)
        last = got[-1]
        assert len(last["entries"]) == 2  # the count asked for
        assert last["entries"] == page["entries"][:2]
        if pid in ranks:
            assert last["you"] == ranks[pid], (pid, last["you"])
        else:
            assert last["you"] is None
        await ws.close()


async def test_unsubscribe_stops_updates(nodes: list[Node], game: tuple[str, str]) -> None:
    _, token = await human(nodes[0])
    ws = await watch(nodes[0], token, name(game))
    other = await watch(nodes[0], (await human(nodes[0]))[1], name(game))
    await ws.expect("board.update")
    await other.expect("board.update")
    reply = await ws.request({"type": "board.unsubscribe", "board": name(game)})
    assert reply["type"] == "unsubscribed" and reply["board"].startswith("daily/20"), reply
    await finish(nodes[1], (await human(nodes[1]))[1], game)
    await other.expect("board.update", timeout=5)  # the board did change ...
    await ws.drain(1.0)
    assert not ws.pending("board.update")  # ... but not for the socket that left
    await ws.close()
    await other.close()


async def test_unknown_boards_and_bad_subscriptions_are_refused(nodes: list[Node]) -> None:
    _, token = await human(nodes[0])
    ws = await Ws.open(nodes[0], token, MSGPACK)
    for board, code in (("nope/none", "board.unknown"), ("daily/someday/golf/easy",
                                                          "board.unknown"),
                        ("weekly/2026-48/all", "board.unknown"),
                        ("daily/today/nogame/easy", "game.unknown")):
        reply = await ws.request({"type": "board.subscribe", "board": board})
        assert reply["type"] == "error" and reply["code"] == code, (board, reply)
        assert reply["id"]
    reply = await ws.request({"type": "board.subscribe", "board": "alltime/all", "count": 101})
    assert reply["code"] == "message.invalid", reply
    for day in range(1, 17):
        reply = await ws.request({"type": "board.subscribe",
                                  "board": f"daily/2020-01-{day:02d}/golf/easy"})
        assert reply["type"] == "subscribed", reply
    reply = await ws.request({"type": "board.subscribe", "board": "alltime/all"})
    assert reply["code"] == "board.too_many", reply
    # Again the same board is no new watch.
    reply = await ws.request({"type": "board.subscribe", "board": "daily/2020-01-01/golf/easy"})
    assert reply["type"] == "subscribed", reply
    await ws.close()


# ----- Redis reads, counted ------------------------------------------------------------------


async def watch_reads(redis_url: str, board_key: str, seconds: float,
                      during: Any) -> tuple[int, int]:
    """While ``during`` runs and for ``seconds``: the reads of the board by its watchers
    (the watch script on the board's rank key), and every command any client sent (MONITOR;
    the commands a script runs inside Redis are not counted)."""
    r = aioredis.from_url(redis_url)
    sha = (await r.script_load(WATCH)).lower()
    reads = total = 0
    counting = True

    async def monitor() -> None:
        nonlocal reads, total
        async with r.monitor() as m:
            while True:
                cmd = await m.next_command()
                if not counting or cmd.get("client_type") == "lua":
                    continue  # a script's own commands: not sent by any client
                total += 1
                text = str(cmd.get("command", ""))
                if sha in text.lower() and board_key in text:
                    reads += 1

    task = asyncio.create_task(monitor())
    await asyncio.sleep(0.3)
    await during()
    await asyncio.sleep(seconds)
    counting = False
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    await r.aclose()
    return reads, total


async def test_two_hundred_watchers_cost_one_read_a_second(
        nodes: list[Node], redis_url: str, game: tuple[str, str]) -> None:
    writers = [await human(nodes[0]) for _ in range(20)]

    def write_steadily(these: list[tuple[str, str]]) -> Any:
        async def write() -> None:  # ten results over about two seconds
            for _, t in these:
                await finish(nodes[0], t, game)
                await asyncio.sleep(0.2)
        return write

    # The same writes with nobody watching first: every client of the suite's redis-server
    # (the nodes' sweeps, other tests' nodes) sends it commands meanwhile too.
    _, alone = await watch_reads(redis_url, "-", 1.5, write_steadily(writers[:10]))
    tokens = [t for _, t in await asyncio.gather(*(human(nodes[1]) for _ in range(200)))]
    sockets = await asyncio.gather(*(watch(nodes[1], t, name(game)) for t in tokens))
    firsts = await asyncio.gather(*(ws.expect("board.update", timeout=20) for ws in sockets))
    board = (await sockets[0].request({"type": "board.subscribe", "board": name(game)}))["board"]
    key = f"sd:{{board:daily:{board.split('/')[1]}:{game[0]}:{game[1]}:human}}:rank"
    t0 = time.monotonic()
    reads, total = await watch_reads(redis_url, key, 1.5, write_steadily(writers[10:]))
    spent = time.monotonic() - t0
    # One reader for the 200 sockets: at most one read a second (plus the one at each edge).
    assert 1 <= reads <= spent + 2, (reads, spent)
    # ... and the commands the clients sent Redis do not grow with the watchers: one read per
    # socket per result would be 2,000 more than the same writes watched by nobody.
    assert total - alone < 1000, (total, alone)
    for ws in sockets:
        got = await updates_until(ws, lambda m: m["total"] == firsts[0]["total"] + 10)
        assert got[-1]["you"] is None
    await asyncio.gather(*(ws.close() for ws in sockets))


# ----- a node restart ------------------------------------------------------------------------


@pytest.fixture
def own_nodes(redis_url: str, tmp_path: Path) -> Iterator[list[tuple[Node, Any]]]:
    """Two nodes of this test's own, on the shared redis-server, one of which it kills."""
    started = [start_node(redis_url, tmp_path / f"n{i}.log", **FAST) for i in range(2)]
    yield started
    for _, proc in started:
        if proc.poll() is None:
            stop_node(proc)


async def test_a_node_restart_leaves_a_resubscribed_watcher_right(
        own_nodes: list[tuple[Node, Any]], redis_url: str, tmp_path: Path,
        game: tuple[str, str]) -> None:
    (a, _), (b, proc_b) = own_nodes
    pid, token = await human(b)
    ws_b = await watch(b, token, name(game))
    ws_a = await watch(a, (await human(a))[1], name(game))
    await ws_b.expect("board.update")
    await ws_a.expect("board.update")
    await finish(b, token, game)  # the watcher's own result, through its node
    await updates_until(ws_b, lambda m: m["you"] is not None)
    os.kill(proc_b.pid, signal.SIGKILL)  # node B dies with its sockets
    proc_b.wait(10)
    for _ in range(3):  # results land through A while B is down
        await finish(a, (await human(a))[1], game)
    await updates_until(ws_a, lambda m: m["total"] == 4)  # A's watcher never stopped
    b2, proc_b2 = start_node(redis_url, tmp_path / "b2.log", **FAST)
    own_nodes.append((b2, proc_b2))
    ws = await watch(b2, token, name(game))  # the watcher comes back, to the new B
    got = await updates_until(ws, lambda m: True)
    page = await rest_board(a, token, name(game), count=20)
    assert got[0]["total"] == page["total"] == 4
    assert got[0]["entries"] == page["entries"]
    assert got[0]["you"] == next(e for e in page["entries"] if e["player"] == pid)
    await finish(a, (await human(a))[1], game)  # and it follows the board from then on
    await updates_until(ws, lambda m: m["total"] == 5)
    for s in (ws, ws_a):
        await s.close()


# ----- rate limits ---------------------------------------------------------------------------


async def test_a_socket_over_its_rate_is_told_which_limit_and_when_to_retry(
        strict_node: Node) -> None:
    """Twenty pings at once on a node allowing 5 a second, bursts of 10: those past the burst
    are refused, each with a turn of its own a token apart; each sent again at its turn (and
    nothing else meanwhile) is taken, not refused again."""
    _, token = await player(strict_node)
    ws = await Ws.open(strict_node, token, JSON)
    for i in range(20):
        await ws.send({"type": "ping", "id": i})
    refusals: list[tuple[float, dict[str, Any]]] = []
    for _ in range(20):
        m = await ws._next(5)
        if m["type"] == "error":
            refusals.append((time.monotonic(), m))
    assert refusals, "the burst of 10 was exceeded"
    for _, m in refusals:
        assert m["code"] == "rate.limited" and m["limit"] == "socket", m
        assert isinstance(m["retry_after"], float | int) and m["retry_after"] > 0, m
        assert "5 messages a second" in m["message"] and "bursts of 10" in m["message"], m

    async def again(at: float, m: dict[str, Any]) -> None:
        await asyncio.sleep(at + m["retry_after"] - time.monotonic())
        await ws.send({"type": "ping", "id": m["id"]})

    await asyncio.gather(*(again(at, m) for at, m in refusals))
    answers = [await ws._next(5) for _ in refusals]
    assert [a["type"] for a in answers] == ["pong"] * len(refusals), answers
    assert sorted(a["id"] for a in answers) == sorted(m["id"] for _, m in refusals)
    await ws.close()


@pytest.fixture
def limited_node(redis_url: str, tmp_path: Path) -> Iterator[Node]:
    """A node with the registration limit on (one account at once, one an hour), on a
    database of its own so its bucket is no other test's."""
    node, proc = start_node(redis_url.rsplit("/", 1)[0] + "/5", tmp_path / "limited.log",
                            SAMEDEAL_SIGNUP_BURST="1", SAMEDEAL_SIGNUP_PER_HOUR="1")
    yield node
    stop_node(proc)


async def test_a_rest_refusal_for_the_rate_carries_retry_after(limited_node: Node) -> None:
    rest = Rest(limited_node)
    answers = [await rest.http.post("/api/v1/players", json={"name": "X", "kind": "bot"})
               for _ in range(2)]
    await rest.aclose()
    assert answers[0].status_code == 201
    r = answers[1]
    assert r.status_code == 429
    body = r.json()
    assert body["code"] == "rate.limited" and "registration limit" in body["message"]
    assert isinstance(body["retry_after"], int | float) and body["retry_after"] > 60
    assert int(r.headers["retry-after"]) == body["retry_after"]
