"""The SDK's boards published live (``subscribe_board``) against real server processes: updates
from the other node, your own entry, watching again after a dropped connection, closing; and
rate-limited requests waiting the server's ``retry_after``."""

from __future__ import annotations

import asyncio
import time

import pytest

from clients.sdk import BoardUpdate, Client, ServerError
from server.daily import daily_rule_sets
from tests.server.client import Node

# Rule sets no other test here uses for its daily board (from the middle of the list).
GAMES = iter([(r.id, r.variant) for r in daily_rule_sets()][20:40])


def drop(c: Client) -> None:
    """Cut the client's connection as a network failure would: no close handshake."""
    assert c._ws is not None
    c._ws.transport.abort()


async def finish(node: Node, name: str, game: tuple[str, str]) -> str:
    """A new human plays today's ranked attempt at ``game`` through ``node`` and resigns."""
    player, token = await Client.register(node.url, name, "human")
    async with Client(node.url, token) as c:
        s = await c.start_daily(*game)
        await c.resign(s.id)
    return str(player["id"])


async def until(watch: object, done: object, timeout: float = 10) -> BoardUpdate:
    deadline = time.monotonic() + timeout
    while True:
        u = await watch.next(max(0.01, deadline - time.monotonic()))  # type: ignore[attr-defined]
        if done(u):  # type: ignore[operator]
            return u  # type: ignore[no-any-return]


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
async def test_subscribe_board_follows_the_board_across_nodes_and_a_drop(
        nodes: list[Node], encoding: str) -> None:
    game = next(GAMES)
    me, token = await Client.register(nodes[1].url, "Wes", "human", encoding=encoding)
    async with Client(nodes[1].url, token, encoding=encoding) as c:
        watch = await c.subscribe_board(f"daily/today/{game[0]}/{game[1]}", count=5)
        assert watch.board.startswith("daily/20") and watch.kind == "human"
        first = await watch.next(5)
        assert first.total == 0 and first.entries == [] and first.you is None
        other = await finish(nodes[0], "Ola", game)
        u = await until(watch, lambda u: u.total == 1)
        assert u.entries[0]["player"] == other and u.entries[0]["rank"] == 1

        s = await c.start_daily(*game)  # our own result: our own entry comes with it
        await c.resign(s.id)
        u = await until(watch, lambda u: u.you is not None)
        assert u.you is not None and u.you["player"] == me["id"] and u.total == 2
        assert u.you in u.entries

        drop(c)  # the client reconnects and watches again by itself
        third = await finish(nodes[0], "Pam", game)
        u = await until(watch, lambda u: u.total == 3, timeout=15)
        assert third in {e["player"] for e in u.entries} and u.you is not None

        await watch.close()
        async for _ in watch:
            raise AssertionError("a closed watch yields nothing")
        await finish(nodes[1], "Quin", game)
        await asyncio.sleep(1.5)
        assert watch.latest is not None and watch.latest.total == 3

        with pytest.raises(ServerError) as e:
            await c.subscribe_board("nope/none")
        assert e.value.code == "board.unknown"


async def test_rate_limited_requests_wait_the_servers_retry_after(strict_node: Node) -> None:
    """The node allows 5 messages a second, bursts of 10: with the client's own pacing off,
    twenty pings at once are refused past the burst and sent again after ``retry_after``; all
    come back, within the time the limit allows."""
    _, token = await Client.register(strict_node.url, "Rae", "bot")
    async with Client(strict_node.url, token, rate_limit=None, rate_retries=20) as c:
        t0 = time.monotonic()
        await asyncio.gather(*(c.ping() for _ in range(20)))
        spent = time.monotonic() - t0
        assert c.connections == 1  # never refused so often that the server closed it
    # Ten over the burst at five a second: about two seconds, never much more (a blind
    # backoff doubles past it).
    assert 1.0 < spent < 6, spent
