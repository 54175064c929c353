"""Hostile input, generated: every field of every message (and unknown fields, the ``type``
and the ``id``) gets what an attacker sends: lone surrogates, NUL and control characters,
over-long strings, huge numbers, nan and infinities, deep and wide nesting, bytes, wrong
types, Unicode oddities. Over the WebSocket in JSON and in msgpack and over REST (bodies,
query strings, path parameters, the bearer header), to real nodes on a real redis-server.

Every reply must be an error with a known code (never ``server.error``, never a 5xx), every
message gets exactly one reply (carrying its id when the id is one the reply can carry), the
hostile player's session is unchanged, and after each batch a second player on the same node
still gets its own correct replies.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import re
from typing import Any
from urllib.parse import quote

import httpx
import msgpack
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from bench.fuzz import NOT_TEXT, SURROGATE, good_id, strings
from server.errors import STATUS
from server.transport import schema

from .client import JSON, MSGPACK, V2_JSON, V2_MSGPACK, Node, Rest, Ws, player

SEED = "5a" * 16
LIMIT = 16384  # the default largest message, in bytes
MISSING = object()  # a field taken out of its message
#: Engine refusals also come back (a move that does not parse, for one).
ENGINE_CODE = re.compile(r"^[a-z]+(\.[a-z_]+)+$")

# ----- what an attacker sends ----------------------------------------------------------------

#: A first character no valid value starts with, so a hostile string is never, by chance, a
#: good move, token, id or choice (which would change something).
ODD = ["\ufeff", "\u202e", "\u200b", "\u0301", "\U0001f0a1", "\uffff", "\ufffd", "Ω", "\u00a0",
       "\U000e0001", "\u2028", "²", "١"]  # the last two: digits to str.isdigit, not to int
NOT_TEXT_CHARS = ["\x00", "\x01", "\x1b", "\n", "\t", "\x7f", "\x85", "\x9f"]
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]


@functools.cache  # built once each way (see ``hostile``)
def not_text(surrogates: bool) -> st.SearchStrategy[str]:
    """A short string with a character that is not text in it (a lone surrogate or a
    control character), somewhere."""
    bad = st.sampled_from(NOT_TEXT_CHARS + (SURROGATES if surrogates else []))
    return st.tuples(st.text(max_size=20), bad, st.text(max_size=20)).map("".join)


#: Valid text: no control characters (Cc), no lone surrogates (Cs).
TEXT = st.characters(blacklist_categories=("Cc", "Cs"))
odd_text = st.tuples(st.sampled_from(ODD), st.text(TEXT, max_size=40)).map("".join)
#: Over-long, yet under the 65536 bytes of a frame after which the socket is closed (1009).
long_text = st.one_of(
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "é", "\U0001f0a1", "9"]),
              st.sampled_from([65, 97, 129, 1000, 4000])),
    st.builds(lambda n: "x" * n, st.just(LIMIT + 1)))


def huge_int(protocol: str) -> st.SearchStrategy[int]:
    """Out of every field's range; in msgpack, as big as it carries (64 bits)."""
    top = 2**64 - 1 if protocol == MSGPACK else 2**1000
    return st.one_of(st.integers(min_value=2**63, max_value=top),
                     st.integers(min_value=-top, max_value=-(2**62)).filter(
                         lambda n: protocol != MSGPACK or n >= -(2**63)),
                     st.sampled_from([2**31 + 1, -1, 10**9 + 1]))


floats = st.one_of(st.sampled_from([math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308, 1.0]),
                   st.floats())


def nested(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)),
        max_leaves=30)


class Deep:
    """A value nested ``n`` deep, made only when sent (a report can't print it)."""

    def __init__(self, n: int, leaf: Any) -> None:
        self.n, self.leaf = n, leaf

    def __repr__(self) -> str:
        return f"Deep({self.n}, {self.leaf!r})"

    def encoded(self, protocol: str) -> bytes | str:
        """Its encoding, written out (the encoders recurse, and this is deeper than they go):
        {"a": x} is 81 a1 61 x in msgpack, [x] is 91 x."""
        inner = pack(self.leaf, protocol)
        if protocol == MSGPACK:
            assert isinstance(inner, bytes)
            return b"".join(b"\x91" if i % 2 else b"\x81\xa1a" for i in range(self.n)) + inner
        opened = "".join("[" if i % 2 else '{"a":' for i in range(self.n))
        return opened + str(inner) + "".join("]" if i % 2 else "}" for i in range(self.n))[::-1]


HOLE = "deep-value-here"


def made(m: dict[Any, Any], sid: str) -> dict[Any, Any]:
    """The message as sent: the hostile player's session in."""
    return {k: sid if v == "{sid}" else v for k, v in m.items()}


@functools.cache  # built once per protocol: a strategy is immutable, and building this tree
def hostile(protocol: str) -> st.SearchStrategy[Any]:  # at every draw cost most of the run
    """One hostile value: the kinds of the module's docstring."""
    short = st.one_of(st.booleans(), st.none(), huge_int(protocol), floats, odd_text)
    plain = short | long_text
    kinds = [not_text(protocol != MSGPACK), plain, odd_text, long_text, huge_int(protocol),
             floats,
             nested(short | not_text(protocol != MSGPACK)),
             st.builds(Deep, st.sampled_from([20, 200, 3000, 8000]), plain),
             st.lists(st.just("s"), min_size=200, max_size=3000),  # wide
             st.dictionaries(st.text(min_size=1, max_size=3), st.just(1), min_size=50,
                             max_size=300)]
    if protocol == MSGPACK:
        kinds += [st.binary(max_size=40), st.builds(msgpack.ExtType, st.integers(1, 100),
                                                   st.binary(max_size=8))]
    return st.one_of(*kinds)


# ----- messages --------------------------------------------------------------------------------

#: A valid message of each type that changes nothing and finds nothing (an unknown game, race,
#: match or session, a move that does not parse), so no hostile value in one field can make a
#: message that does something to the hostile player's session ("{sid}"). A registration
#: (REST only) with a name that is odd but text does register a player; a rename to their own
#: name changes nothing, and one to a name that is odd but text renames them to it.
BASE: dict[str, dict[str, Any]] = {
    "hello": {"token": "not-a-token"},
    "ping": {},
    "player.register": {"name": "X", "kind": "bot"},
    "player.rename": {"name": "Hostile"},
    "solo.start": {"game": "nope", "variant": "easy"},
    "session.get": {"session": "{sid}"},
    "move": {"session": "{sid}", "move": "zz9", "rev": 0},
    "undo": {"session": "snothere"},
    "resign": {"session": "snothere"},
    "race.create": {"game": "nope", "variant": "easy", "seats": 2},
    "race.join": {"race": "rnothere"},
    "race.leave": {"race": "rnothere"},
    "race.start": {"race": "rnothere"},
    "race.rematch": {"race": "rnothere"},
    "race.bot": {"game": "nope", "variant": "easy"},
    "race.subscribe": {"race": "rnothere"},
    "race.unsubscribe": {"race": "rnothere"},
    "match.create": {"game": "nope", "variant": "easy", "seats": 2},
    "match.join": {"match": "mnothere"},
    "match.leave": {"match": "mnothere"},
    "match.start": {"match": "mnothere"},
    "match.rematch": {"match": "mnothere"},
    "match.get": {"match": "mnothere"},
    "match.move": {"match": "mnothere", "move": "zz9"},
    "match.subscribe": {"match": "mnothere"},
    "match.unsubscribe": {"match": "mnothere"},
    "daily.start": {"game": "nope", "variant": "easy"},
    "daily.get": {},
    "board.get": {"board": "nope/none"},
    "board.subscribe": {"board": "nope/none"},
    "board.unsubscribe": {"board": "nope/none"},
    "ghost.create": {"game": "nope", "variant": "easy"},
    "ghost.enter": {"ghost": "gnothere"},
    "ghost.get": {"ghost": "gnothere"},
    "hint": {"session": "snothere"},
    "analysis.get": {"session": "snothere"},
    # A league made by league.create is the hostile player's own (up to league_max of them,
    # then league.too_many): the one change a base here makes, as a rename is.
    "league.create": {"name": "Hostile"},
    "league.join": {"code": "nothere"},
    "league.leave": {"league": "lnothere"},
    "league.remove": {"league": "lnothere", "player": "pnothere"},
    "league.code": {"league": "lnothere"},
    "league.get": {"league": "lnothere"},
    "league.list": {},
    "arena.join": {"arena": "anothere"},
    "arena.leave": {"arena": "anothere"},
    "arena.get": {"arena": "anothere"},
    "arena.subscribe": {"arena": "anothere"},
    "arena.unsubscribe": {"arena": "anothere"},
    "arena.create": {"game": "nope", "variant": "easy", "duration": 60, "interval": 10},
    "arena.cancel": {"arena": "anothere"},
    "daily_live.join": {"game": "nope", "variant": "easy"},
    "daily_live.leave": {"game": "nope", "variant": "easy"},
    "daily_live.get": {},
    "challenge.send": {"to": "X", "game": "nope", "variant": "easy"},
    "challenge.list": {},
    "challenge.accept": {"challenge": "cnothere"},
    "challenge.decline": {"challenge": "cnothere"},
    "challenge.withdraw": {"challenge": "cnothere"},
    "challenge.refuse": {"refuse": False},
}


def test_every_message_type_has_a_base() -> None:
    assert set(BASE) == set(schema.MESSAGES)
    for kind, base in BASE.items():
        assert set(base) <= set(schema.MESSAGES[kind]), kind


@st.composite
def message(draw: st.DrawFn, protocol: str, kind: str | None = None
            ) -> tuple[dict[Any, Any], str]:
    """A base message (of ``kind``, or any) with one hostile part: (message, where it went)."""
    kind = kind or draw(st.sampled_from(sorted(BASE)))
    out: dict[Any, Any] = {"type": kind, **BASE[kind]}
    where = draw(st.sampled_from([*schema.MESSAGES[kind], "type", "id", "(name)", "(drop)"]))
    if where == "(name)":  # an unknown field, its name hostile too
        name = draw(st.one_of(not_text(protocol != MSGPACK), odd_text, st.sampled_from(
            ["__proto__", "constructor", "", "type ", "k" * 65, "é" * 100, "n" * 300])))
        out[name] = draw(hostile(protocol))
    elif where == "(drop)":  # a required field left out, or the type
        field = draw(st.sampled_from(["type", *schema.MESSAGES[kind]]))
        out.pop(field, None)
    else:
        out[where] = draw(hostile(protocol))
    # Under the 65536 bytes of a frame after which the socket is closed (1009, its own case).
    assume(len(pack(out, protocol)) < 60000)
    return out, where


def pack(message: Any, protocol: str) -> bytes | str:
    """A message's frame; a ``Deep`` value in it (at the top) is written out in place."""
    holes = [v for v in message.values() if isinstance(v, Deep)] if isinstance(
        message, dict) else []
    if holes:
        message = {k: HOLE if isinstance(v, Deep) else v for k, v in message.items()}
    if protocol == MSGPACK:  # a lone surrogate goes as the UTF-8 bytes it would be
        data: bytes | str = msgpack.packb(message, unicode_errors="surrogatepass")
    else:
        data = json.dumps(message)  # ASCII: a lone surrogate as its \\ud800 escape; nan as NaN
    for deep in holes:
        out = deep.encoded(protocol)
        if isinstance(data, bytes):
            assert isinstance(out, bytes)
            data = data.replace(msgpack.packb(HOLE), out, 1)
        else:
            data = data.replace(json.dumps(HOLE), str(out), 1)
    return data


def depth(value: Any) -> int:
    out, stack = 0, [(value, 1)]
    while stack:
        item, d = stack.pop()
        out = max(out, d)
        if isinstance(item, Deep):
            out = max(out, d + item.n)
        elif isinstance(item, dict):
            stack += [(v, d + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, d + 1) for v in item]
    return out


def readable(m: dict[Any, Any], data: bytes | str, protocol: str) -> bool:
    """A frame that is read: not too big, not too deep, UTF-8 in msgpack (else no id)."""
    return len(data) <= LIMIT and depth(m) < 1000 and not (
        protocol == MSGPACK and any(SURROGATE.search(s) for s in strings(m)))


def known(code: Any) -> bool:
    return code != "server.error" and isinstance(code, str) and (
        code in STATUS or ENGINE_CODE.match(code) is not None)


# ----- the players -------------------------------------------------------------------------


class Pair:
    """The hostile player and the bystander, on the same node, each with a practice game."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.tokens: dict[str, str] = {}
        self.sessions: dict[str, str] = {}

    async def setup(self) -> Pair:
        for who in ("hostile", "bystander"):
            _, token = await player(self.node, who.title())
            rest = Rest(self.node, token)
            status, s = await rest.call("POST", "/solo", {"game": "klondike", "variant": "easy",
                                                          "seed": SEED})
            assert status == 201, s
            await rest.aclose()
            self.tokens[who], self.sessions[who] = token, s["session"]
        return self


@pytest.fixture(scope="module")
def pair(nodes: list[Node]) -> Pair:
    return asyncio.run(Pair(nodes[0]).setup())


async def session_state(ws: Ws, sid: str) -> tuple[int, Any]:
    s = await ws.request({"type": "session.get", "session": sid})
    assert s["type"] == "session" and s["session"] == sid, s
    return s["rev"], s["view"]


async def bystander_is_served(pair: Pair) -> None:
    """The second player on the same node: their ping, their session, their own race id."""
    ws = await Ws.open(pair.node, pair.tokens["bystander"], JSON)
    pong = await ws.request({"type": "ping"})
    assert pong == {"type": "pong", "id": pong["id"]}, pong
    rev, view = await session_state(ws, pair.sessions["bystander"])
    assert rev == 0 and view["moves"] == 0
    race = await ws.request({"type": "race.create", "game": "klondike", "variant": "easy",
                             "seats": 2})
    assert race["type"] == "race" and race["race"].startswith("r"), race
    left = await ws.request({"type": "race.leave", "race": race["race"]})
    assert left.get("code") != "server.error", left
    await ws.close()


# ----- the WebSocket ---------------------------------------------------------------------


async def ws_batch(pair: Pair, protocol: str, batch: list[tuple[dict[Any, Any], str]],
                   v2: bool = False) -> None:
    """``protocol``: the encoding (``JSON``, ``MSGPACK``); ``v2``: on that encoding's v2
    subprotocol."""
    sid = pair.sessions["hostile"]
    subprotocol = {JSON: V2_JSON, MSGPACK: V2_MSGPACK}[protocol] if v2 else protocol
    ws = await Ws.open(pair.node, pair.tokens["hostile"], subprotocol)
    before = await session_state(ws, sid)
    expected: list[tuple[Any, dict[Any, Any], int]] = []  # (id or None, message, frame size)
    for i, (m, where) in enumerate(batch):
        m = made(m, sid)
        if where != "id":
            m["id"] = 10_000 + i  # hostile ids are the id's own case
        data = pack(m, protocol)
        await ws.send_raw(data)
        rid = m["id"] if readable(m, data, protocol) and good_id(m.get("id", MISSING)) else None
        expected.append((rid, m, len(data)))
    await ws.send({"type": "ping", "id": "end"})  # everything before it is answered first
    replies: list[dict[str, Any]] = []
    while True:
        r = await ws._next(20)
        if r.get("id") == "end" and r["type"] == "pong":
            break
        replies.append(r)
    assert len(replies) == len(batch), (replies, batch)
    for (rid, m, size), r in zip(expected, replies, strict=True):
        if rid is None:
            assert "id" not in r, (m, r)
        else:
            assert r.get("id") == rid, (m, r)
        if r["type"] == "error":
            assert known(r["code"]), (m, r)
            assert isinstance(r["message"], str) and r["message"], r
            bad = [s for s in strings(m) if NOT_TEXT.search(s)]
            if size > LIMIT:
                assert r["code"] == "frame.too_big", (m, r)
            elif r["code"] == "frame.malformed":
                assert rid is None, (m, r)
            elif bad and protocol == JSON:
                assert r["code"] in ("bad.text", "bad.too_long", "frame.malformed"), (m, r)
        elif r["type"] == "player":  # a rename to a name that is text: that very name
            assert m.get("type") == "player.rename", (m, r)
            assert r["player"]["name"] == " ".join(m["name"].split()), (m, r)
        elif r["type"] == "league":  # a league made, under a name that is text
            assert m.get("type") == "league.create", (m, r)
            assert r["name"] == " ".join(m["name"].split()), (m, r)
        elif r["type"] == "challenge.settings":  # challenges refused, or taken: as asked
            assert m.get("type") == "challenge.refuse", (m, r)
            assert r["refuse"] is m["refuse"], (m, r)
        else:  # only a read, or an unsubscribe from nothing: nothing can be done by these
            assert r["type"] in ("pong", "session", "daily", "unsubscribed", "board",
                                 "leagues", "challenges", "daily_live"), (m, r)
            assert r["type"] != "daily_live" or m.get("type") == "daily_live.get", (m, r)
    assert await session_state(ws, sid) == before
    await ws.close()
    await bystander_is_served(pair)


@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
@pytest.mark.parametrize("kind", sorted(BASE))
def test_hostile_websocket_messages(pair: Pair, protocol: str, kind: str) -> None:
    @settings(max_examples=8)
    @given(st.lists(message(protocol, kind), min_size=1, max_size=12))
    def run(batch: list[tuple[dict[Any, Any], str]]) -> None:
        asyncio.run(ws_batch(pair, protocol, batch))

    run()


@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
def test_hostile_websocket_messages_of_every_type_at_once(pair: Pair, protocol: str) -> None:
    @settings(max_examples=20)
    @given(st.lists(message(protocol), min_size=10, max_size=40))
    def run(batch: list[tuple[dict[Any, Any], str]]) -> None:
        asyncio.run(ws_batch(pair, protocol, batch))

    run()


@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
def test_hostile_websocket_messages_on_protocol_v2(pair: Pair, protocol: str) -> None:
    """v2 changes only what a move's ack carries: hostile input is refused as on v1."""
    @settings(max_examples=20)
    @given(st.lists(message(protocol), min_size=10, max_size=40))
    def run(batch: list[tuple[dict[Any, Any], str]]) -> None:
        asyncio.run(ws_batch(pair, protocol, batch, v2=True))

    run()


# ----- REST ------------------------------------------------------------------------------

#: The REST route of each message type: (method, path, the field named in the path).
ROUTES: dict[str, tuple[str, str, str | None]] = {
    "player.register": ("POST", "/players", None),
    "player.rename": ("PATCH", "/players/me", None),
    "solo.start": ("POST", "/solo", None),
    "session.get": ("GET", "/sessions/{session}", "session"),
    "move": ("POST", "/sessions/{session}/moves", "session"),
    "undo": ("POST", "/sessions/{session}/undo", "session"),
    "resign": ("POST", "/sessions/{session}/resign", "session"),
    "race.create": ("POST", "/races", None),
    "race.join": ("POST", "/races/{race}/join", "race"),
    "race.leave": ("POST", "/races/{race}/leave", "race"),
    "race.start": ("POST", "/races/{race}/start", "race"),
    "race.rematch": ("POST", "/races/{race}/rematch", "race"),
    "race.bot": ("POST", "/races/bot", None),
    "match.create": ("POST", "/matches", None),
    "match.join": ("POST", "/matches/{match}/join", "match"),
    "match.rematch": ("POST", "/matches/{match}/rematch", "match"),
    "match.leave": ("POST", "/matches/{match}/leave", "match"),
    "match.start": ("POST", "/matches/{match}/start", "match"),
    "match.get": ("GET", "/matches/{match}", "match"),
    "match.move": ("POST", "/matches/{match}/moves", "match"),
    "daily.start": ("POST", "/daily", None),
    "daily.get": ("GET", "/daily", None),
    "board.get": ("GET", "/boards/{board}", "board"),
    "hint": ("POST", "/sessions/{session}/hint", "session"),
    "analysis.get": ("GET", "/sessions/{session}/analysis", "session"),
    "league.create": ("POST", "/leagues", None),
    "league.join": ("POST", "/leagues/join", None),
    "league.leave": ("POST", "/leagues/{league}/leave", "league"),
    "league.remove": ("POST", "/leagues/{league}/remove", "league"),
    "league.code": ("POST", "/leagues/{league}/code", "league"),
    "league.get": ("GET", "/leagues/{league}", "league"),
    "league.list": ("GET", "/leagues", None),
    "arena.join": ("POST", "/arenas/{arena}/join", "arena"),
    "arena.leave": ("POST", "/arenas/{arena}/leave", "arena"),
    "arena.get": ("GET", "/arenas/{arena}", "arena"),
    "arena.create": ("POST", "/arenas", None),
    "arena.cancel": ("POST", "/arenas/{arena}/cancel", "arena"),
    "daily_live.join": ("POST", "/daily/live/join", None),
    "daily_live.leave": ("POST", "/daily/live/leave", None),
    "daily_live.get": ("GET", "/daily/live", None),
}
#: The other routes, whose only input is the path.
PATHS = ["/players/{x}", "/players/{x}/stats", "/games/{x}/easy", "/games/klondike/{x}",
         "/sessions/{x}/moves", "/races/{x}", "/races/{x}/results",
         "/matches/{x}/transcript", "/daily/{x}", "/arenas/{x}"]


def as_text(value: Any) -> str:
    """A hostile value as a path or query part (which are text): lone surrogates as their
    UTF-8 bytes, percent-encoded."""
    if isinstance(value, Deep):
        value = value.encoded(JSON)
    text = value if isinstance(value, str) else json.dumps(value) if not isinstance(
        value, bytes | msgpack.ExtType) else repr(value)
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def rest_call(draw: st.DrawFn, encoding: str, kind: str) -> tuple[str, str, Any, str | None]:
    """(method, path with its query, body or None, bearer token or None for the player's) of
    the route of ``kind``, or ``"paths"``: a route whose only input is its path."""
    protocol = MSGPACK if encoding == "msgpack" else JSON
    token = None
    if draw(st.integers(0, 9)) == 0:  # a hostile bearer header
        token = draw(st.one_of(not_text(False), odd_text, long_text))
    if kind == "paths":
        path = draw(st.sampled_from(PATHS)).replace("{x}", as_text(draw(hostile(protocol))))
        return "GET", path, None, token
    m, _ = draw(message(protocol, kind))
    if m.get("type") == kind:  # a REST body has no type (a hostile one is still checked)
        del m["type"]
    method, path, in_path = ROUTES[kind]
    if in_path:
        value = m.pop(in_path, BASE[kind].get(in_path, "x"))
        path = path.replace("{" + in_path + "}", as_text(value) or "x")
    if method == "GET":
        query = "&".join(f"{as_text(k)}={as_text(v)}" for k, v in m.items())
        return method, path + ("?" + query if query else ""), None, token
    return method, path, m, token


async def rest_batch(pair: Pair, encoding: str,
                     batch: list[tuple[str, str, Any, str | None]]) -> None:
    sid = pair.sessions["hostile"]
    ws = await Ws.open(pair.node, pair.tokens["hostile"])
    before = await session_state(ws, sid)
    await ws.close()
    rest = Rest(pair.node, pair.tokens["hostile"], msgpack_=encoding == "msgpack")
    for method, path, body, token in batch:
        path = path.replace("%7Bsid%7D", sid).replace("{sid}", sid)
        if isinstance(body, dict):
            body = made(body, sid)
        content = None
        if body is not None:
            data = pack(body, MSGPACK if encoding == "msgpack" else JSON)
            content = data.encode() if isinstance(data, str) else data
        headers = {"content-type": f"application/{encoding}"}
        headers["authorization"] = (f"Bearer {token}" if token is not None
                                    else f"Bearer {pair.tokens['hostile']}")
        try:
            r = await rest.http.request(method, "/api/v1" + path, content=content,
                                        headers=headers)
        except (UnicodeEncodeError, httpx.LocalProtocolError, httpx.InvalidURL):
            continue  # a header or a URL the client itself won't send
        assert r.status_code < 500, (method, path, body, r.text)
        if r.status_code >= 400:
            err = (msgpack.unpackb(r.content) if r.headers["content-type"].startswith(
                "application/msgpack") else r.json())
            assert known(err.get("code")) and err.get("message"), (method, path, err)
    await rest.aclose()
    ws = await Ws.open(pair.node, pair.tokens["hostile"])
    assert await session_state(ws, sid) == before
    await ws.close()
    await bystander_is_served(pair)


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
@pytest.mark.parametrize("kind", [*sorted(ROUTES), "paths"])
def test_hostile_rest_calls(pair: Pair, encoding: str, kind: str) -> None:
    @settings(max_examples=8)
    @given(st.lists(rest_call(encoding, kind), min_size=1, max_size=10))
    def run(batch: list[tuple[str, str, Any, str | None]]) -> None:
        asyncio.run(rest_batch(pair, encoding, batch))

    run()


# ----- floods ----------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
def test_a_hostile_flood_is_limited_then_closed(strict_node: Node, protocol: str) -> None:
    """Hostile messages as fast as they go, on a node with a low rate limit: each is refused
    for the rate (with its id) or for what it is, the socket closes as a flood (1008), and a
    second player on the node is served."""
    @settings(max_examples=6)
    @given(st.lists(message(protocol), min_size=60, max_size=80))
    def run(batch: list[tuple[dict[Any, Any], str]]) -> None:
        asyncio.run(flood(strict_node, protocol, batch))

    run()


async def flood(node: Node, protocol: str, batch: list[tuple[dict[Any, Any], str]]) -> None:
    _, token = await player(node)
    ws = await Ws.open(node, token, protocol)
    sent = []
    try:
        for i, (m, _) in enumerate(batch):
            data = pack({**m, "id": i}, protocol)
            sent.append(readable({**m, "id": i}, data, protocol))
            await ws.send_raw(data)
    except ConnectionClosed:
        pass
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(await ws._next(10))
    except ConnectionClosed:
        pass
    codes = [m.get("code") for m in got if m["type"] == "error"]
    assert all(known(c) for c in codes), got
    closed = (ws.conn.close_code, ws.conn.close_reason)
    assert codes.count("rate.limited") == 20 and codes[-1] == "rate.flood", (codes, closed)
    assert closed[0] == 1008
    ids = [m["id"] for m in got if "id" in m]  # one reply a message, in order
    assert ids == sorted(set(ids)), got
    assert len(got) <= len(sent)
    for i, m in enumerate(got[:-1]):  # each answered in turn, with its id if it was read
        assert m.get("id", None) == (i if sent[i] else None), (i, m)
    _, other = await player(node)
    ws = await Ws.open(node, other, JSON)
    assert (await ws.request({"type": "ping"}))["type"] == "pong"
    await ws.close()


# ----- the OpenAPI document, by schemathesis ---------------------------------------------------


def checker(check: Any, label: str) -> Any:
    def run(case: Any) -> None:
        check(case, label)

    return run


def test_the_served_openapi_document_holds(nodes: list[Node]) -> None:
    """schemathesis generates requests from the served /openapi.json (valid ones, and ones
    that break it), ~20 per operation and mode, with a player's token: no 5xx, and every
    response conforms to the document (status, content type, body schema)."""
    import schemathesis
    from hypothesis import HealthCheck, Phase
    from hypothesis.errors import Unsatisfiable
    from schemathesis import checks

    node = nodes[1]
    _, token = asyncio.run(player(node, "Schema"))
    api = schemathesis.openapi.from_url(f"{node.url}/openapi.json")
    failures: list[str] = []
    ran = 0
    def check(case: Any, label: str) -> None:
        response = case.call(base_url=node.url, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code < 500, (label, response.text)
        try:  # conformance only: a valid request may still be refused (422, a bad move)
            case.validate_response(response, checks=[
                checks.not_a_server_error, checks.status_code_conformance,
                checks.content_type_conformance, checks.response_schema_conformance,
                checks.response_headers_conformance])
        except Exception as e:  # gathered: one report for every operation
            failures.append(f"{label}: {str(e)[:400]}")

    for result in api.get_all_operations():
        operation = result.ok()
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            label = f"{operation.label} ({mode.value})"
            try:
                given(operation.as_strategy(generation_mode=mode))(settings(
                    max_examples=20, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))(checker(check, label)))()
                ran += 1
            except Unsatisfiable:  # nothing to break: a route that takes no input
                assert mode == schemathesis.GenerationMode.NEGATIVE, label
    assert ran >= 40, ran  # every operation, valid requests and (where any) invalid ones
    assert not failures, "\n".join(failures[:20])
