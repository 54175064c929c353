"""Limits per account, per address and on sockets, on two real nodes sharing one real
redis-server: one account spreading its requests over REST and sockets on both nodes is served
its budget (plus what it earns back meanwhile) and then refused, naming the limit, while another
account is served; requests without a token are limited per address; an account's sockets are
capped across nodes, and a killed node's stop counting; a private server's own machine is free.

The nodes trust 127.0.0.1 as a proxy, so each test's client names its own address in
X-Forwarded-For and no two tests (nor two runs on the shared Redis) share a bucket."""

from __future__ import annotations

import asyncio
import math
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.conftest import start_node, stop_node

from .client import JSON, MSGPACK, Node, Ws

BURST, PER_SECOND = 40, 2  # an account's budget on these nodes
#: Tokens each node may have taken and not spent when the account is refused (they lapse): a
#: node takes a twentieth of the burst at once (server/accounts/limits.py).
UNSPENT = 2 * (max(1, BURST // 20) - 1)
ORIGIN_BURST = 10  # requests without a token, per address
#: One more every 10 s: slow enough that what a test sends right after a refusal is refused
#: too, however busy the machine (at one a second, a second between the two was enough to
#: earn one back).
ORIGIN_PER_SECOND = 0.1
SOCKETS = 3  # an account's sockets
LEASE = 3  # seconds a socket's count lasts unrenewed

ENV = {"SAMEDEAL_ACCOUNT_BURST": str(BURST), "SAMEDEAL_ACCOUNT_PER_SECOND": str(PER_SECOND),
       "SAMEDEAL_ORIGIN_BURST": str(ORIGIN_BURST),
       "SAMEDEAL_ORIGIN_PER_SECOND": str(ORIGIN_PER_SECOND),
       "SAMEDEAL_SOCKETS_PER_ACCOUNT": str(SOCKETS), "SAMEDEAL_SOCKET_LEASE": str(LEASE),
       "SAMEDEAL_TRUSTED_PROXIES": "127.0.0.1/32", "SAMEDEAL_SIGNUP_BURST": "0",
       "SAMEDEAL_RATE_PER_SECOND": "5000", "SAMEDEAL_RATE_BURST": "5000",
       "SAMEDEAL_FLOOD_AFTER": "5000"}


@pytest.fixture(scope="module")
def pair(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    logs = tmp_path_factory.mktemp("limits")
    started = [start_node(redis_url, logs / f"node{i}.log", **ENV) for i in range(2)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


def address() -> str:
    """An address of the documentation range no other test or run uses."""
    return f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1"


async def register(node: Node, name: str = "Limited") -> tuple[str, str]:
    """A new account (its id and token), registered from an address of its own."""
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        r = await http.post("/api/v1/players", json={"name": name, "kind": "bot"},
                            headers={"x-forwarded-for": address()})
    assert r.status_code == 201, r.text
    return r.json()["player"]["id"], r.json()["token"]


async def hello(node: Node, token: str, origin: str, protocol: str = JSON
                ) -> tuple[Ws, dict[str, Any]]:
    """A socket from ``origin`` and the answer to its hello."""
    conn = await websockets.connect(node.ws_url, subprotocols=[protocol],
                                    additional_headers={"x-forwarded-for": origin})
    ws = Ws(conn, protocol)
    return ws, await ws.request({"type": "hello", "token": token})


def refused(body: dict[str, Any], limit: str) -> bool:
    return body.get("code") == "rate.limited" and body.get("limit") == limit


async def test_one_account_over_rest_and_sockets_on_two_nodes_spends_one_budget(
        pair: list[Node]) -> None:
    n0, n1 = pair
    origin = address()
    _, token = await register(n0, "Hog")
    _, other = await register(n1, "Bystander")
    sockets = [await hello(n, token, origin, p) for n, p in ((n0, JSON), (n0, MSGPACK),
                                                             (n1, MSGPACK))]
    for _, welcome in sockets:
        assert welcome["type"] == "welcome", welcome
    https = [httpx.AsyncClient(base_url=n.url, timeout=10, headers={
        "authorization": f"Bearer {token}", "x-forwarded-for": origin}) for n in (n0, n1)]

    results: list[tuple[str, Any]] = []

    async def over_rest(http: httpx.AsyncClient) -> None:
        for _ in range(40):
            r = await http.get("/api/v1/challenges")
            results.append(("rest", r))

    async def over_socket(ws: Ws) -> None:
        for _ in range(40):
            results.append(("ws", await ws.request({"type": "challenge.list"})))

    began = time.monotonic()
    await asyncio.gather(*(over_rest(h) for h in https),
                         *(over_socket(ws) for ws, _ in sockets))
    took = time.monotonic() - began
    served = [x for how, x in results if (x.status_code == 200 if how == "rest"
                                           else x["type"] == "challenges")]
    earned = math.ceil(PER_SECOND * took) + 1
    assert len(results) == 200
    assert BURST - UNSPENT <= len(served) <= BURST + earned, (len(served), took)

    # Every other answer is the account's refusal, naming it, with when to come back.
    for how, x in results:
        if how == "rest" and x.status_code != 200:
            assert x.status_code == 429 and refused(x.json(), "account"), x.text
            assert int(x.headers["retry-after"]) >= 1
            assert x.json()["retry_after"] > 0 and "account" in x.json()["message"]
        elif how == "ws" and x["type"] != "challenges":
            assert x["type"] == "error" and refused(x, "account"), x
            assert isinstance(x["id"], int) and x["retry_after"] > 0

    # Meanwhile another player on the same nodes notices nothing.
    async with httpx.AsyncClient(base_url=n1.url, timeout=10, headers={
            "authorization": f"Bearer {other}", "x-forwarded-for": origin}) as http:
        for _ in range(10):
            assert (await http.get("/api/v1/challenges")).status_code == 200
    ws_other, welcome = await hello(n0, other, origin)
    assert welcome["type"] == "welcome"
    for _ in range(10):
        assert (await ws_other.request({"type": "challenge.list"}))["type"] == "challenges"
    # A ping costs the account nothing: the socket still answers it.
    assert (await sockets[0][0].request({"type": "ping"}))["type"] == "pong"

    # Waiting what the refusal said is enough, on either node.
    got = await sockets[2][0].request({"type": "challenge.list"})
    if got["type"] == "error":
        assert refused(got, "account"), got
        await asyncio.sleep(got["retry_after"])
        got = await sockets[2][0].request({"type": "challenge.list"})
    assert got["type"] == "challenges", got
    for h in https:
        await h.aclose()
    for ws in [ws_other, *(ws for ws, _ in sockets)]:
        await ws.close()


async def test_requests_without_a_token_are_limited_per_address(pair: list[Node]) -> None:
    n0, n1 = pair
    origin, elsewhere = address(), address()
    _, token = await register(n0)
    codes = []
    https = [httpx.AsyncClient(base_url=n.url, timeout=10) for n in pair]
    began = time.monotonic()
    for i in range(3 * ORIGIN_BURST):
        r = await https[i % 2].get("/api/v1/daily", headers={"x-forwarded-for": origin})
        codes.append(r.status_code)
        if r.status_code == 429:
            assert refused(r.json(), "origin"), r.text
            assert int(r.headers["retry-after"]) >= 1
    took = time.monotonic() - began
    for h in https:
        await h.aclose()
    # The burst, plus at most what was earned back while they ran.
    earned = math.ceil(took * ORIGIN_PER_SECOND)
    assert ORIGIN_BURST <= codes.count(200) <= ORIGIN_BURST + earned + 1, codes
    assert 429 in codes
    async with httpx.AsyncClient(base_url=n1.url, timeout=10) as http:
        # A bad token counts as no token: refused for the address, not told about the token.
        r = await http.get("/api/v1/players/me", headers={
            "x-forwarded-for": origin, "authorization": "Bearer not-a-token"})
        assert r.status_code == 429 and refused(r.json(), "origin"), r.text
        # A good token from the same address spends its account's budget instead.
        r = await http.get("/api/v1/players/me", headers={
            "x-forwarded-for": origin, "authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        # Another address is served.
        r = await http.get("/api/v1/daily", headers={"x-forwarded-for": elsewhere})
        assert r.status_code == 200, r.text
        # The probes are never limited.
        for _ in range(ORIGIN_BURST + 2):
            assert (await http.get("/healthz")).status_code == 200


async def test_an_accounts_sockets_are_capped_across_nodes(
        pair: list[Node], redis_url: str, tmp_path: Path) -> None:
    n0, n1 = pair
    origin = address()
    _, token = await register(n0, "Many")
    _, other = await register(n0, "Few")
    held = [await hello(n, token, origin) for n in (n0, n1, n0)]
    assert all(w["type"] == "welcome" for _, w in held)

    extra, no = await hello(n1, token, origin)
    assert no["type"] == "error" and refused(no, "sockets"), no
    assert isinstance(no["id"], int) and no["retry_after"] > 0
    assert str(SOCKETS) in no["message"]
    ws_other, yes = await hello(n1, other, origin)  # someone else's sockets are theirs
    assert yes["type"] == "welcome", yes

    # One closed, the refused socket's hello is welcomed (it stayed open).
    await held[1][0].close()
    for _ in range(50):
        again = await extra.request({"type": "hello", "token": token})
        if again["type"] == "welcome":
            break
        await asyncio.sleep(0.1)
    assert again["type"] == "welcome", again

    # A node killed with sockets open: theirs stop counting once their leases lapse.
    _, doomed_token = await register(n0, "Doomed")
    doomed, proc = start_node(redis_url, tmp_path / "doomed.log", **ENV)
    try:
        lost = [await hello(doomed, doomed_token, origin) for _ in range(SOCKETS)]
        assert all(w["type"] == "welcome" for _, w in lost)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        late, no = await hello(n0, doomed_token, origin)
        assert refused(no, "sockets"), no
        await asyncio.sleep(no["retry_after"])
        welcome = await late.request({"type": "hello", "token": doomed_token})
        assert welcome["type"] == "welcome", welcome
        await late.close()
    finally:
        if proc.poll() is None:
            stop_node(proc)
    for ws in [extra, ws_other, held[0][0], held[2][0]]:
        await ws.close()


async def test_a_private_servers_own_machine_is_not_limited(
        redis_url: str, tmp_path: Path) -> None:
    free, proc = start_node(redis_url, tmp_path / "free.log", **{
        **ENV, "SAMEDEAL_TRUSTED_PROXIES": "", "SAMEDEAL_LIMITS_LOCAL_FREE": "1"})
    try:
        _, token = await register(free)  # from 127.0.0.1: the header is not believed here
        sockets = [await Ws.open(free, token) for _ in range(SOCKETS + 1)]

        async def asks(ws: Ws) -> list[str]:
            return [(await ws.request({"type": "challenge.list"}))["type"]
                    for _ in range(BURST // 2)]

        answers = await asyncio.gather(*(asks(ws) for ws in sockets))
        assert [a for got in answers for a in got] == ["challenges"] * (BURST // 2) * len(sockets)
        async with httpx.AsyncClient(base_url=free.url, timeout=10) as http:
            for _ in range(ORIGIN_BURST + 5):
                assert (await http.get("/api/v1/daily")).status_code == 200
        for ws in sockets:
            await ws.close()
    finally:
        stop_node(proc)
