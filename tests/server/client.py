"""Test clients speaking the documented protocol over real sockets (no server imports)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import httpx
import msgpack
import websockets

JSON, MSGPACK = "samedeal.json", "samedeal.msgpack"
V2_JSON, V2_MSGPACK = "samedeal.v2.json", "samedeal.v2.msgpack"
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([cdhs♣♦♥♠])(?![A-Za-z0-9])")
SYMBOL = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
#: The nodes serve plain HTTP on loopback; an HTTP client still makes a TLS context, and loading
#: the system's certificates into a new one costs about 45 ms: every client shares this one.
TLS = ssl.create_default_context()


@dataclass
class Node:
    url: str
    pid: int
    log: Path

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/api/v1/ws"


def cards_in(message: Any) -> set[str]:
    """Every card named anywhere in a message, as 'Th' text ('10♥' counts as 'Th')."""
    text = json.dumps(message, ensure_ascii=False)
    return {("T" if r == "10" else r) + SYMBOL.get(s, s) for r, s in CARD.findall(text)}


def view_cards(view: dict[str, Any]) -> set[str]:
    return {c for pile in view["piles"].values() for c in pile["up"]}


#: How long a test waits for a message at most: a cap against hanging, not a speed; generous,
#: since a busy machine may be many times slower.
PATIENCE = 60.0
#: what a v2 ack carries besides the session payload's fields
ACK_ONLY = ("type", "id", "seq", "cards", "changes")


def apply_ack(payload: dict[str, Any], ack: dict[str, Any]) -> dict[str, Any]:
    """The session payload after a v2 ``ack``, from the previous revision's ``payload``, as
    docs/protocol.md "Protocol v2" says a client rebuilds it (written from the doc, not the
    server's code): a full ack replaces it; changes apply to revision ``rev - 1`` only; a
    payload of the ack's revision or later (a pushed ``session`` overtook the ack) is kept."""
    if "changes" not in ack:
        assert "view" in ack and "legal" in ack, ack
        return {k: v for k, v in ack.items() if k not in ACK_ONLY}
    if payload["rev"] >= ack["rev"]:
        return payload
    assert ack["rev"] == payload["rev"] + 1, (payload["rev"], ack)
    out = {**payload, **{k: v for k, v in ack.items() if k not in ACK_ONLY}}
    changes = ack["changes"]
    out["view"] = {**payload["view"], **changes,
                   "piles": {**payload["view"]["piles"], **changes.get("piles", {})}}
    return out


class Rest:
    """REST calls in JSON or msgpack; replies decoded whatever their encoding, and kept (for
    the check after each test: tests/conftest.py ``stated_replies``)."""

    #: The clients made since the last test ended.
    made: ClassVar[list[Rest]] = []

    def __init__(self, node: Node, token: str | None = None, msgpack_: bool = False) -> None:
        Rest.made.append(self)
        #: (method, path, status, body) of each call.
        self.replies: list[tuple[str, str, int, Any]] = []
        self.node = node
        self.token = token
        self.msgpack = msgpack_
        self.http = httpx.AsyncClient(base_url=node.url, timeout=10, verify=TLS)

    async def call(self, method: str, path: str, body: Any = None,
                   raw: bytes | None = None, token: str | None = None,
                   headers: dict[str, str] | None = None) -> tuple[int, Any]:
        h = dict(headers or {})
        if token or self.token:
            h["authorization"] = f"Bearer {token or self.token}"
        content = raw
        if body is not None:
            if self.msgpack:
                content = msgpack.packb(body)
                h["content-type"] = "application/msgpack"
            else:
                content = json.dumps(body).encode()
                h["content-type"] = "application/json"
        if self.msgpack:
            h["accept"] = "application/msgpack"
        r = await self.http.request(method, "/api/v1" + path, content=content, headers=h)
        if r.headers.get("content-type", "").startswith("application/msgpack"):
            got = msgpack.unpackb(r.content)
        else:
            got = r.json()
        self.replies.append((method, r.url.path, r.status_code, got))
        return r.status_code, got

    async def register(self, name: str = "Tester", kind: str = "bot") -> dict[str, Any]:
        status, body = await self.call("POST", "/players", {"name": name, "kind": kind})
        assert status == 201, body
        self.token = body["token"]
        return body

    async def aclose(self) -> None:
        await self.http.aclose()


async def player(node: Node, name: str = "Tester", kind: str = "bot") -> tuple[str, str]:
    """A new player's (id, token)."""
    rest = Rest(node)
    body = await rest.register(name, kind)
    await rest.aclose()
    return body["player"]["id"], body["token"]


class Ws:
    """A WebSocket client that keeps every message it receives (for the hidden-card checks,
    and for the check after each test that they state only what the reply schema states:
    tests/conftest.py ``stated_replies``)."""

    #: The sockets opened since the last test ended.
    opened: ClassVar[list[Ws]] = []

    def __init__(self, conn: Any, protocol: str) -> None:
        Ws.opened.append(self)
        self.conn = conn
        self.protocol = protocol
        self.token: str | None = None
        self.received: list[dict[str, Any]] = []
        self._buffer: list[dict[str, Any]] = []
        self._ids = itertools.count(1)

    @classmethod
    async def open(cls, node: Node, token: str | None = None, protocol: str = JSON,
                   hello: bool = True) -> Ws:
        conn = await websockets.connect(node.ws_url, subprotocols=[protocol],
                                        max_size=2**22, open_timeout=PATIENCE)
        ws = cls(conn, protocol)
        ws.token = token
        if token and hello:
            welcome = await ws.request({"type": "hello", "token": token})
            assert welcome["type"] == "welcome", welcome
        return ws

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(msgpack.packb(message) if self.protocol.endswith("msgpack")
                            else json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self.conn.send(data)

    async def _next(self, timeout: float) -> dict[str, Any]:
        data = await asyncio.wait_for(self.conn.recv(), timeout)
        if self.protocol.endswith("msgpack"):
            assert isinstance(data, bytes), "msgpack replies come in binary frames"
            message = msgpack.unpackb(data)
        else:
            assert isinstance(data, str), "JSON replies come in text frames"
            message = json.loads(data)
        self.received.append(message)
        return message

    async def expect(self, kind: str, timeout: float = PATIENCE, **match: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (and the given fields); others wait their turn."""
        def fits(m: dict[str, Any]) -> bool:
            return m.get("type") == kind and all(m.get(k) == v for k, v in match.items())

        for i, m in enumerate(self._buffer):
            if fits(m):
                return self._buffer.pop(i)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            m = await self._next(max(0.01, deadline - loop.time()))
            if fits(m):
                return m
            self._buffer.append(m)

    async def request(self, message: dict[str, Any], timeout: float = PATIENCE) -> dict[str, Any]:
        """Send with a fresh id and return the reply carrying it (a result or an error)."""
        rid = next(self._ids)
        await self.send({**message, "id": rid})
        for i, m in enumerate(self._buffer):
            if m.get("id") == rid:
                return self._buffer.pop(i)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            m = await self._next(max(0.01, deadline - loop.time()))
            if m.get("id") == rid:
                return m
            self._buffer.append(m)

    def pending(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self._buffer if m.get("type") == kind]

    async def drain(self, wait: float = 0.2) -> None:
        """Receive whatever is still coming, into the buffer."""
        try:
            while True:
                self._buffer.append(await self._next(wait))
        except TimeoutError:
            pass

    async def close(self) -> None:
        await self.conn.close()
