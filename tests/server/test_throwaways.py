"""Throwaway accounts on real server processes: the registration limit per client address
(one token bucket in Redis for every node, X-Forwarded-For believed only from a trusted
proxy), and an account made during the day playing that day's deals off the boards.

The nodes here use their own Redis database, so the rest of the suite's registrations from
127.0.0.1 (with the limit off) never touch these buckets."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from tests.conftest import ROOT, start_node, stop_node

from .client import Node, Rest

BURST = 3


@pytest.fixture(scope="module")
def limited(redis_url: str, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[str, Node, Node]]:
    """Two nodes sharing one bucket per address (3 at once, 1 back an hour): the first
    trusts 127.0.0.1 as a proxy, the second trusts nobody."""
    url = redis_url.rsplit("/", 1)[0] + "/1"
    logs: Path = tmp_path_factory.mktemp("throwaways")
    env = {"SAMEDEAL_SIGNUP_BURST": str(BURST), "SAMEDEAL_SIGNUP_PER_HOUR": "1",
           "SAMEDEAL_DAILY_SECRET": "throwaways",
           # The same-day rule is off by default; these nodes turn it on to test it.
           "SAMEDEAL_DAILY_RANK_NEW_ACCOUNTS": "false"}
    a, pa = start_node(url, logs / "a.log", SAMEDEAL_TRUSTED_PROXIES="127.0.0.1/32", **env)
    b, pb = start_node(url, logs / "b.log", **env)
    yield url, a, b
    for proc in (pa, pb):
        stop_node(proc)


async def register(node: Node, forwarded: str | None = None) -> httpx.Response:
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        return await http.post("/api/v1/players", json={"name": "Throwaway", "kind": "human"},
                               headers=headers)


async def players(url: str) -> int:
    r = aioredis.from_url(url)
    try:
        return len([k async for k in r.scan_iter("sd:player:*")])
    finally:
        await r.aclose()


async def test_registrations_per_address_are_limited_across_nodes(
        limited: tuple[str, Node, Node]) -> None:
    url, a, b = limited
    # 127.0.0.1 straight to either node: one bucket, shared by both nodes.
    made = [await register(n) for n in (a, b, a)]
    assert [r.status_code for r in made] == [201] * BURST
    before = await players(url)
    for node in (b, a):
        r = await register(node)
        assert r.status_code == 429, r.text
        body = r.json()
        assert body["code"] == "rate.limited" and "try again in" in body["message"]
        assert 0 < int(r.headers["retry-after"]) <= 3600
    assert await players(url) == before  # a refusal makes no account

    # An untrusted peer's X-Forwarded-For is ignored: still 127.0.0.1's empty bucket.
    r = await register(b, forwarded="198.51.100.1")
    assert r.status_code == 429 and r.json()["code"] == "rate.limited"

    # Through the trusted proxy the header names the client: another address, another bucket.
    made = [await register(a, forwarded="198.51.100.1") for _ in range(BURST)]
    assert [r.status_code for r in made] == [201] * BURST
    # The proxy appends what it saw; whatever the client wrote to the left is not believed.
    for spoof in ("203.0.113.5, 198.51.100.1", "10.9.9.9, 198.51.100.1, 127.0.0.1"):
        r = await register(a, forwarded=spoof)
        assert r.status_code == 429, (spoof, r.text)
    assert (await register(a, forwarded="203.0.113.5, 198.51.100.2")).status_code == 201

    # Each bucket expires once it would be full again: nothing grows.
    r = aioredis.from_url(url)
    keys = [k async for k in r.scan_iter("sd:signups:*")]
    ttls = [await r.pttl(k) for k in keys]
    await r.aclose()
    assert len(keys) == 3 and all(0 < t <= BURST * 3_600_000 for t in ttls), ttls


async def test_an_account_made_today_plays_the_daily_off_the_boards(
        limited: tuple[str, Node, Node]) -> None:
    """On a node with the same-day rule on, a player registered now (during today) gets a
    ranked attempt that does not reach the day's board, and the day's page says so before
    the attempt starts."""
    _, a, _ = limited
    r = await register(a, forwarded="192.0.2.44")
    assert r.status_code == 201, r.text
    rest = Rest(a, r.json()["token"])
    status, page = await rest.call("GET", "/daily")
    golf = next(d for d in page["deals"] if d["game"] == "golf" and d["variant"] == "easy")
    assert golf["you"]["ranked"] is False and golf["you"]["played"] is False, golf
    assert "from the next day on" in golf["you"]["unranked_reason"]
    status, s = await rest.call("POST", "/daily", {"game": "golf", "variant": "easy"})
    assert status == 201 and s["mode"] == "daily" and s["ranked"] is False, s
    assert "from the next day on" in s["unranked_reason"] and "seed" not in s
    status, ack = await rest.call("POST", f"/sessions/{s['session']}/resign", {})
    assert status == 200 and ack["view"]["status"] != "playing"
    status, err = await rest.call("POST", "/daily", {"game": "golf", "variant": "easy"})
    assert status == 409 and err["code"] == "daily.played"  # one attempt all the same
    status, page = await rest.call("GET", "/boards/daily/today/golf/easy?around=me")
    assert status == 200 and page["you"] is None, page  # not on the board: no own entry
    status, me = await rest.call("GET", "/players/me")
    assert status == 200 and me["stats"][0]["played"] == 1  # it counts for the player
    await rest.aclose()


def test_an_ipv6_client_counts_by_its_64_and_a_mapped_ipv4_as_itself() -> None:
    from server.accounts.signups import bucket_name, networks, within

    assert bucket_name("2001:db8:1:2:aaaa::1") == bucket_name("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert bucket_name("2001:db8:1:3::1") != bucket_name("2001:db8:1:2::1")
    assert bucket_name("::ffff:198.51.100.7") == bucket_name("198.51.100.7") == "198.51.100.7"
    trusted = networks(" 10.0.0.0/8, 192.168.1.5 ,")
    assert within("10.20.30.40", trusted) and within("192.168.1.5", trusted)
    assert not within("192.168.1.6", trusted) and not within("not an address", trusted)


def test_this_machines_own_addresses_are_loopback_and_no_others() -> None:
    from server.accounts.signups import loopback

    assert loopback("127.0.0.1") and loopback("127.8.9.10") and loopback("::1")
    assert loopback("::ffff:127.0.0.1")
    assert not loopback("10.0.0.1") and not loopback("::ffff:198.51.100.7")
    assert not loopback("2001:db8::1") and not loopback("localhost")


async def test_the_bot_runner_says_why_a_new_accounts_daily_is_off_the_boards(
        limited: tuple[str, Node, Node]) -> None:
    _, a, _ = limited
    async with httpx.AsyncClient(base_url=a.url, timeout=10) as http:
        r = await http.post("/api/v1/players", json={"name": "Newbot", "kind": "bot"},
                            headers={"x-forwarded-for": "192.0.2.45"})
    assert r.status_code == 201, r.text
    out = subprocess.run([sys.executable, "-m", "engine.cli", "bot",
                          "clients.bots.random:RandomBot", "--server", a.url, "--token",
                          r.json()["token"], "--daily", "golf", "easy", "--max-moves", "20"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    why = "off the boards: accounts made on "
    assert why in out.stderr  # told as the attempt starts
    summary = out.stdout.strip().splitlines()[-1]
    assert summary.startswith("daily ") and why in summary
    assert summary.endswith("your attempts rank from the next day on")
