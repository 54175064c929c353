"""Scouting on a real server and the review queue: a scout account opens the day's deal and
drops it, then a main account plays it from the same network and browser; the main's result
waits for review, off the public boards, until a moderator clears or removes it
(``samedeal moderate queue|clear|remove``).

The node has its own Redis database and trusts 127.0.0.1 as a proxy, so each player here
comes from its own address (X-Forwarded-For) and nothing else the suite plays links to it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis

from server import store as server_store
from server.analyses import QUEUE
from tests.conftest import FAST, ROOT, clear_of_midnight, start_node, stop_node

from .client import Node, Rest, Ws

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"


@pytest.fixture(scope="module")
def node(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Node]]:
    url = redis_url.rsplit("/", 1)[0] + "/2"
    logs: Path = tmp_path_factory.mktemp("review")
    n, proc = start_node(url, logs / "node.log", SAMEDEAL_TRUSTED_PROXIES="127.0.0.1/32",
                         SAMEDEAL_DAILY_SECRET="review", **FAST)
    yield url, n
    stop_node(proc)


class Client:
    """A player's browser: an address, a User-Agent and an install id."""

    def __init__(self, node: Node, address: str, install: str, agent: str = BROWSER) -> None:
        self.rest = Rest(node)
        self.headers = {"x-forwarded-for": address, "user-agent": agent}
        self.install = install

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return await self.rest.call(method, path, body, headers=self.headers)

    async def register(self, name: str) -> str:
        status, body = await self.call("POST", "/players", {"name": name, "kind": "human"})
        assert status == 201, body
        self.rest.token = body["token"]
        return str(body["player"]["id"])

    async def play(self, game: str, variant: str, moves: int) -> str:
        """Start the day's ranked attempt, play ``moves`` moves, resign: its session id."""
        status, s = await self.call("POST", "/daily", {"game": game, "variant": variant,
                                                       "install": self.install})
        assert status == 201 and s["ranked"] is True, s
        for _ in range(moves):
            if s["view"]["status"] != "playing":
                break
            status, s = await self.call("POST", f"/sessions/{s['session']}/moves",
                                        {"move": s["legal"][0]})
            assert status == 200, s
        if s["view"]["status"] == "playing":
            status, s = await self.call("POST", f"/sessions/{s['session']}/resign", {})
            assert status == 200, s
        return str(s["session"])

    async def mine(self, game: str, variant: str) -> dict[str, Any]:
        """The day's page as this player reads it: their standing on one deal."""
        status, page = await self.call("GET", "/daily")
        assert status == 200, page
        deal = next(d for d in page["deals"] if (d["game"], d["variant"]) == (game, variant))
        return dict(deal["you"])

    async def board(self, game: str, variant: str) -> dict[str, Any]:
        status, page = await self.call("GET", f"/boards/daily/today/{game}/{variant}"
                                              "?around=me")
        assert status == 200, page
        return dict(page)


@pytest.fixture
async def clients(node: tuple[str, Node]) -> AsyncIterator[list[Client]]:
    made: list[Client] = []
    yield made
    for c in made:
        await c.rest.aclose()


def moderate(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", "moderate", *args,
                           "--redis-url", url], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


async def scout_then_main(n: Node, clients: list[Client], game: str, variant: str,
                          address: str) -> tuple[Client, str, str, str]:
    """The scripted pair: the scout account plays 3 moves and resigns, then the main account
    (same address, same browser) plays the deal. (main, main id, scout session, main's)."""
    scout, main = Client(n, address, "install-1"), Client(n, address, "install-1")
    clients += [scout, main]
    await scout.register("Scout")
    main_id = await main.register("Main")
    scouted = await scout.play(game, variant, 3)
    played = await main.play(game, variant, 12)
    return main, main_id, scouted, played


async def test_a_scouted_result_waits_for_review_off_the_boards_until_cleared(
        node: tuple[str, Node], clients: list[Client]) -> None:
    url, n = node
    clear_of_midnight()
    main, main_id, scouted, played = await scout_then_main(n, clients, "golf", "easy",
                                                           "198.51.100.10")
    # Off the public board: neither in the page nor as the player's own rank.
    page = await main.board("golf", "easy")
    assert main_id not in [e["player"] for e in page["entries"]] and page["you"] is None, page
    ws = await Ws.open(n, main.rest.token)
    try:
        got = await ws.request({"type": "board.get", "board": "daily/today/golf/easy"})
        assert got["type"] == "board" and main_id not in json.dumps(got), got
    finally:
        await ws.close()
    # In the queue, with its evidence: the scout's attempt, from the same origin and client.
    out = moderate(url, "queue", "--json")
    assert out.returncode == 0, out.stderr
    held = {r["session"]: r for r in map(json.loads, out.stdout.splitlines())}
    record = held[played]
    assert record["status"] == "pending" and record["player"] == main_id
    evidence = record["integrity"]
    assert "scouted" in evidence["reasons"] and evidence["linked_early"] == 1
    (linked,) = evidence["linked_attempts"]
    assert linked["session"] == scouted and linked["early"] and linked["resigned"]
    assert linked["via"] == ["client", "origin"]
    assert "198.51.100.10" not in out.stdout  # only keyed hashes are kept
    # The player sees the status; another player sees neither the entry nor the evidence.
    assert (await main.mine("golf", "easy"))["review"] == "pending"
    other = Client(n, "203.0.113.77", "install-9")
    clients.append(other)
    await other.register("Other")
    theirs = await other.mine("golf", "easy")
    assert "review" not in theirs and theirs["played"] is False
    assert main_id not in json.dumps(await other.board("golf", "easy"))
    status, err = await other.call("GET", f"/sessions/{played}/moves")
    assert status == 403 and "integrity" not in json.dumps(err)

    # Cleared: on the board as it would have been.
    out = moderate(url, "clear", played)
    assert out.returncode == 0 and "cleared" in out.stdout, out.stderr
    page = await main.board("golf", "easy")
    assert page["you"] is not None and main_id in [e["player"] for e in page["entries"]]
    assert (await main.mine("golf", "easy"))["review"] == "cleared"
    out = moderate(url, "queue", "--json")
    assert played not in out.stdout  # no longer pending
    out = moderate(url, "clear", played)  # once decided, decided
    assert out.returncode == 2 and "cleared already" in out.stderr
    # Its analysis is owed, as every board entry's is once the day is revealed: queued (or
    # judged already by the node's job).
    store = redis.Redis.from_url(url)
    try:
        assert await store.zscore(QUEUE, played) is not None or await store.exists(
            server_store.analysis_key(played))
    finally:
        await store.aclose()


async def test_a_removed_result_stays_off_the_boards(node: tuple[str, Node],
                                                     clients: list[Client]) -> None:
    url, n = node
    clear_of_midnight()
    main, main_id, _, played = await scout_then_main(n, clients, "golf", "difficult",
                                                     "198.51.100.20")
    out = moderate(url, "remove", played)
    assert out.returncode == 0 and "removed" in out.stdout, out.stderr
    page = await main.board("golf", "difficult")
    assert page["you"] is None and main_id not in [e["player"] for e in page["entries"]]
    status, week = await main.call("GET", "/boards/weekly/current/all?around=me")
    assert status == 200 and week["you"] is None, week  # no points either
    assert (await main.mine("golf", "difficult"))["review"] == "removed"
    assert moderate(url, "clear", played).returncode == 2  # removed for good


async def test_honest_play_by_an_account_made_today_ranks_at_once(
        node: tuple[str, Node], clients: list[Client]) -> None:
    """One account, its own network: no evidence, so on the board at once; and the rule
    that kept accounts made during the day off the boards is off by default."""
    _, n = node
    clear_of_midnight()
    alone = Client(n, "192.0.2.30", "install-honest")
    clients.append(alone)
    me = await alone.register("Alone")
    before = await alone.mine("golf", "easy")
    assert before == {"ranked": True, "played": False}, before  # told before the clock starts
    await alone.play("golf", "easy", 12)
    page = await alone.board("golf", "easy")
    assert page["you"] is not None and me in [e["player"] for e in page["entries"]]
    after = await alone.mine("golf", "easy")
    assert after["played"] is True and "review" not in after


def test_the_bot_runner_puts_a_fresh_accounts_daily_on_the_board(
        node: tuple[str, Node]) -> None:
    """The bot guide's path with an account made a moment ago: its daily attempt ranks, and
    the runner says where it went."""
    _, n = node
    clear_of_midnight()
    out = subprocess.run([sys.executable, "-m", "engine.cli", "bot",
                          "clients.bots.random:RandomBot", "--server", n.url, "--register",
                          "Freshbot", "--daily", "golf", "easy", "--max-moves", "20"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "off the boards" not in out.stderr + out.stdout
    summary = out.stdout.strip().splitlines()[-1]
    assert summary.startswith("daily ") and " on the bots' board" in summary, summary
    assert "; rank " in summary, summary
