"""Bad input, over the WebSocket and REST: every refusal carries a stable code, changes
nothing, and the WebSocket stays usable afterwards (a ping still gets its pong)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import httpx
import msgpack
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from server.app import create_app
from server.config import Settings
from server.transport import api_docs

from .client import JSON, MSGPACK, Node, Rest, Ws, player

PROTOCOLS = pytest.mark.parametrize("protocol", [JSON, MSGPACK])
SEED = "5a" * 16
BIG = 20000  # above the 16384-byte limit on a message or a body


# ----- helpers ---------------------------------------------------------------------------


async def connect(node: Node, protocol: str = JSON) -> tuple[str, Ws]:
    """A new player with a socket that has said hello."""
    pid, token = await player(node)
    return pid, await Ws.open(node, token, protocol)


async def solo(ws: Ws) -> dict[str, Any]:
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": SEED})
    assert s["type"] == "session", s
    return s


async def snapshot(ws: Ws, sid: str) -> tuple[int, dict[str, Any]]:
    s = await ws.request({"type": "session.get", "session": sid})
    assert s["type"] == "session", s
    return s["rev"], s["view"]


async def alive(ws: Ws) -> None:
    """The socket still answers: a ping, then its pong."""
    assert (await ws.request({"type": "ping"}))["type"] == "pong"


def refused(reply: dict[str, Any], code: str) -> None:
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    assert isinstance(reply["message"], str) and reply["message"], reply


async def rest_solo(node: Node) -> tuple[Rest, str]:
    """A new player's REST client and a Klondike practice session of theirs."""
    _, token = await player(node)
    rest = Rest(node, token)
    status, s = await rest.call("POST", "/solo", {"game": "klondike", "variant": "easy",
                                                  "seed": SEED})
    assert status == 201, s
    return rest, s["session"]


async def rest_state(rest: Rest, sid: str) -> tuple[int, dict[str, Any]]:
    status, s = await rest.call("GET", f"/sessions/{sid}")
    assert status == 200, s
    return s["rev"], s["view"]


def pack(message: Any, protocol: str) -> str | bytes:
    return msgpack.packb(message) if protocol == MSGPACK else json.dumps(message)


async def closed_with(ws: Ws, timeout: float = 5) -> tuple[list[dict[str, Any]], int | None]:
    """Everything received until the server closes the socket, and the close code."""
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(await ws._next(timeout))
    except ConnectionClosed:
        pass
    return got, ws.conn.close_code


# ----- frames and the message schema -----------------------------------------------------


@pytest.mark.parametrize(("protocol", "data", "code"), [
    (JSON, "{not json", "frame.malformed"),
    (JSON, '{"type": "ping"', "frame.malformed"),
    (JSON, b"\xff\xfe{", "frame.malformed"),
    (MSGPACK, b"\xc1", "frame.malformed"),  # a byte msgpack never uses
    (MSGPACK, b"\x82\xa4type\xa4ping", "frame.malformed"),  # a map cut short
    (MSGPACK, msgpack.packb({1: "ping"}), "frame.malformed"),  # keys are strings
    (MSGPACK, '{"type": "ping"}', "frame.malformed"),  # a JSON text frame on msgpack
    (JSON, "[" * 8000 + "]" * 8000, "frame.malformed"),  # nested too deep
    (MSGPACK, b"\x91" * 8000 + b"\x90", "frame.malformed"),
    (JSON, "", "frame.malformed"),
    (MSGPACK, b"", "frame.malformed"),
    # Not an object at all.
    (JSON, "[1, 2]", "message.invalid"),
    (JSON, '"ping"', "message.invalid"),
    (JSON, "null", "message.invalid"),
    (MSGPACK, msgpack.packb([1, 2]), "message.invalid"),
    (MSGPACK, msgpack.packb("ping"), "message.invalid"),
])
async def test_undecodable_frames_are_refused_and_change_nothing(
        node: Node, protocol: str, data: str | bytes, code: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    before = await snapshot(ws, s["session"])
    await ws.send_raw(data)
    refused(await ws.expect("error"), code)
    await alive(ws)
    assert await snapshot(ws, s["session"]) == before
    await ws.close()


@pytest.mark.parametrize("text", ["7", "x", " "])
async def test_any_text_frame_on_msgpack_is_malformed(node: Node, text: str) -> None:
    _, ws = await connect(node, MSGPACK)
    await ws.send_raw(text)  # each of these happens to be a whole msgpack value
    refused(await ws.expect("error"), "frame.malformed")
    await alive(ws)
    await ws.close()


@PROTOCOLS
@pytest.mark.parametrize(("message", "code"), [
    ({"type": "teleport"}, "message.unknown_type"),
    ({"type": "player.register", "name": "X", "kind": "bot"}, "message.unknown_type"),
    ({"kind": "move"}, "message.unknown_type"),
    ({"type": 7}, "message.unknown_type"),
    ({"type": "move", "move": "s"}, "message.invalid"),  # no session
    ({"type": "move", "session": "{sid}"}, "message.invalid"),  # no move
    ({"type": "move", "session": "{sid}", "move": 42}, "message.invalid"),
    ({"type": "move", "session": "{sid}", "move": ["s"]}, "message.invalid"),
    ({"type": "move", "session": "{sid}", "move": "s", "rev": "0"}, "message.invalid"),
    ({"type": "move", "session": "{sid}", "move": "s", "rev": -1}, "message.invalid"),
    ({"type": "move", "session": "{sid}", "move": "s", "rev": True}, "message.invalid"),
    ({"type": "move", "session": "{sid}", "move": "s", "fast": True}, "message.invalid"),
    ({"type": "move", "session": "{sid}", "move": "s" * 65}, "bad.too_long"),
    ({"type": "undo", "session": 12}, "message.invalid"),
    ({"type": "resign", "session": "{sid}", "really": "yes"}, "message.invalid"),
    ({"type": "solo.start", "game": "klondike", "variant": "easy", "seed": "xyz"},
     "message.invalid"),
    ({"type": "race.create", "game": "klondike", "variant": "easy", "seats": 1},
     "message.invalid"),
    ({"type": "race.create", "game": "klondike", "variant": "easy", "seats": 2,
      "start": "whenever"}, "message.invalid"),
    ({"type": "hello"}, "message.invalid"),
])
async def test_bad_messages_are_refused_and_change_nothing(
        node: Node, protocol: str, message: dict[str, Any], code: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    before = await snapshot(ws, s["session"])
    body = {k: s["session"] if v == "{sid}" else v for k, v in message.items()}
    reply = await ws.request(body)
    refused(reply, code)
    await alive(ws)
    assert await snapshot(ws, s["session"]) == before
    await ws.close()


@PROTOCOLS
async def test_a_bad_request_id_is_refused(node: Node, protocol: str) -> None:
    _, ws = await connect(node, protocol)
    await ws.send({"type": "ping", "id": {"nested": 1}})
    refused(await ws.expect("error"), "message.invalid")
    await ws.send({"type": "ping", "id": "x" * 65})
    refused(await ws.expect("error"), "bad.too_long")
    await alive(ws)
    await ws.close()


# ----- text: every string is checked as text first -----------------------------------------

SURROGATE, NUL = "\ud800", "\x00"


def text_cases(protocol: str) -> list[tuple[dict[str, Any], str]]:
    """Messages with a string that is not text somewhere: (message, code). A lone surrogate
    only travels in JSON (its \\ud800 escape); msgpack's strings are UTF-8, so it gets NUL,
    a control character and an over-long string instead."""
    bad = [NUL, "a\x1bb", "x\x7f"] + ([SURROGATE, "a\udfffb"] if protocol == JSON else [])
    out: list[tuple[dict[str, Any], str]] = []
    for b in bad:
        out += [
            ({"type": "hello", "token": b}, "bad.text"),
            ({"type": "session.get", "session": b}, "bad.text"),
            ({"type": "move", "session": "{sid}", "move": "t7" + b}, "bad.text"),
            ({"type": "move", "session": "{sid}", "move": {"kind": "move", "from": b,
                                                         "to": "f1"}}, "bad.text"),
            ({"type": "undo", "session": "{sid}", b: 1}, "bad.text"),
            ({"type": "race.join", "race": b}, "bad.text"),
            ({"type": "race.subscribe", "race": "r" + b}, "bad.text"),
            ({"type": "match.get", "match": b}, "bad.text"),
            ({"type": "match.subscribe", "match": b}, "bad.text"),
            ({"type": "solo.start", "game": b, "variant": "easy"}, "bad.text"),
            ({"type": "board.get", "board": "alltime/all", "around": b}, "bad.text"),
            ({"type": "resign", "session": "{sid}", "x": [[{"deep": b}]]}, "bad.text"),
        ]
    out += [({"type": "hello", "token": "t" * 129}, "bad.too_long"),
            ({"type": "session.get", "session": "s" * 65}, "bad.too_long"),
            ({"type": "undo", "session": "{sid}", "k" * 65: 1}, "bad.too_long"),
            ({"type": "move", "session": "{sid}", "move": {"kind": "move", "from": "t" * 65,
                                                         "to": "f1"}}, "bad.too_long")]
    return out


@PROTOCOLS
async def test_strings_that_are_not_text_are_refused_with_the_id(node: Node,
                                                                  protocol: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    before = await snapshot(ws, s["session"])
    for message, code in text_cases(protocol):
        body = {k: s["session"] if v == "{sid}" else v for k, v in message.items()}
        reply = await ws.request(body)  # an id: the error carries it
        refused(reply, code)
        assert SURROGATE not in reply["message"] and NUL not in reply["message"], reply
    await alive(ws)
    assert await snapshot(ws, s["session"]) == before
    await ws.close()


@PROTOCOLS
async def test_an_id_that_cant_be_echoed_still_gets_its_error(node: Node,
                                                                protocol: str) -> None:
    """A bad id gets an error without an id, never silence; a good one comes back as sent."""
    _, ws = await connect(node, protocol)
    bad: list[tuple[Any, str]] = [(float("nan"), "message.invalid"), (1.5, "message.invalid"),
                                  (True, "message.invalid"), (None, "message.invalid"),
                                  ("a" * 65, "bad.too_long"), ("\x00", "bad.text")]
    if protocol == JSON:
        bad += [(SURROGATE, "bad.text"), (2**64, "message.invalid"),
                (-(2**63) - 1, "message.invalid"), (10**300, "message.invalid")]
    for rid, code in bad:
        await ws.send({"type": "ping", "id": rid})
        reply = await ws.expect("error")
        refused(reply, code)
        assert "id" not in reply, reply
        await alive(ws)
    for rid in (2**64 - 1, -(2**63), "", "é✓ 🂡"):
        await ws.send({"type": "ping", "id": rid})
        assert await ws.expect("pong") == {"type": "pong", "id": rid}
    if protocol == JSON:  # a field's name that is not text: the error keeps the good id
        await ws.send_raw('{"type": "ping", "id": 77, "\\ud800": 1}')
        reply = await ws.expect("error")
        refused(reply, "bad.text")
        assert reply["id"] == 77, reply
    await ws.close()


async def test_rest_refuses_what_is_not_text(node: Node) -> None:
    rest, sid = await rest_solo(node)
    before = await rest_state(rest, sid)
    anon = Rest(node)
    for name in (SURROGATE, "Bob\x00", "\x1b[31mred"):
        status, err = await anon.call("POST", "/players", {"name": name, "kind": "bot"})
        assert (status, err["code"]) == (400, "bad.text"), (name, err)
    status, err = await anon.call("POST", "/players", {"name": "n" * 33, "kind": "bot"})
    assert (status, err["code"]) == (400, "bad.too_long"), err
    for body in ({"move": SURROGATE}, {"move": "s", SURROGATE: 1}, {"move": {"kind": NUL}}):
        status, err = await rest.call("POST", f"/sessions/{sid}/moves", body)
        assert (status, err["code"]) == (400, "bad.text"), (body, err)
    for path in ("/sessions/s%00", "/sessions/s%00/moves", "/races/r%01", "/races/r%01/results",
                 "/players/p%00", "/players/p%00/stats", "/games/k%00/easy",
                 "/matches/m%00", "/matches/m%00/transcript", "/boards/alltime%00/all",
                 "/daily/2026-01-0%00", "/boards/alltime/all?around=%00",
                 "/boards/alltime/all?%00=1", "/daily?day=%7f"):
        status, err = await rest.call("GET", path)
        assert (status, err["code"]) == (400, "bad.text"), (path, err)
    for path in ("/sessions/%00/undo", "/races/r%00/join", "/matches/m%00/start"):
        status, err = await rest.call("POST", path)
        assert (status, err["code"]) == (400, "bad.text"), (path, err)
    status, err = await rest.call("GET", "/sessions/" + "s" * 65)
    assert (status, err["code"]) == (400, "bad.too_long"), err
    for query in ("start=\u00b2", "count=" + "9" * 5000, "start=\u0661"):
        status, err = await rest.call("GET", f"/boards/alltime/all?{query}")
        assert (status, err["code"]) == (400, "message.invalid"), (query, err)
    status, err = await rest.call("GET", "/players/me", token="abc\x01def")
    assert (status, err["code"]) == (400, "bad.text"), err
    status, err = await rest.call("GET", "/players/me", token="t" * 129)
    assert (status, err["code"]) == (400, "bad.too_long"), err
    assert await rest_state(rest, sid) == before
    await anon.aclose()
    await rest.aclose()


@PROTOCOLS
async def test_a_bearer_header_that_is_not_text_is_refused(node: Node, protocol: str) -> None:
    for token, code in (("a\x85b", "bad.text"), ("t" * 129, "bad.too_long")):
        conn = await websockets.connect(node.ws_url, subprotocols=[protocol],
                                        additional_headers={"Authorization": f"Bearer {token}"})
        ws = Ws(conn, protocol)
        refused(await ws.expect("error"), code)
        await alive(ws)  # the socket stays, unauthenticated
        await ws.close()


async def test_text_frames_that_are_not_utf8_close_without_a_traceback(node: Node) -> None:
    """uvicorn closes such a socket with 1007; the node's log gets no traceback for it."""
    start = node.log.stat().st_size
    for _ in range(50):
        conn = await websockets.connect(node.ws_url, subprotocols=[JSON])
        await conn.send(b'{"type": "ping", "x": "\xed\xa0\x80\xff"}', text=True)
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(conn.recv(), 5)
        assert conn.close_code == 1007
    _, ws = await connect(node)
    await alive(ws)  # the node is fine
    await ws.close()
    await asyncio.sleep(0.2)
    with open(node.log, "rb") as f:
        f.seek(start)
        written = f.read().decode(errors="replace")
    assert "Traceback" not in written and "UTF-8" not in written, written[-3000:]


@PROTOCOLS
async def test_an_oversized_message_is_refused_and_the_socket_survives(
        node: Node, protocol: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    before = await snapshot(ws, s["session"])
    big = {"type": "move", "session": s["session"], "move": "s", "pad": "x" * BIG}
    data = pack(big, protocol)
    assert len(data) > 16384
    await ws.send_raw(data)
    refused(await ws.expect("error"), "frame.too_big")
    await alive(ws)
    assert await snapshot(ws, s["session"]) == before
    await ws.close()


async def test_rest_bodies_that_are_too_big_or_malformed_are_refused(node: Node) -> None:
    rest, sid = await rest_solo(node)
    before = await rest_state(rest, sid)
    path = f"/sessions/{sid}/moves"
    status, err = await rest.call("POST", path, {"move": "s", "pad": "x" * BIG})
    assert (status, err["code"]) == (413, "frame.too_big"), err
    status, err = await rest.call("POST", path, raw=b"{not json",
                                  headers={"content-type": "application/json"})
    assert (status, err["code"]) == (400, "frame.malformed"), err
    for body in (["s"], {"move": "s", "fast": True}, {"move": "s", "session": sid}, {},
                 {"move": "s", "rev": "1"}):
        status, err = await rest.call("POST", path, body)
        assert (status, err["code"]) == (400, "message.invalid"), (body, err)
        assert err["message"]
    assert await rest_state(rest, sid) == before
    await rest.aclose()
    # Registration checks its body too.
    anon = Rest(node)
    for body, want in (({"name": "x" * BIG, "kind": "bot"}, (413, "frame.too_big")),
                       ({"name": "  ", "kind": "bot"}, (400, "message.invalid")),
                       ({"name": "Z", "kind": "robot"}, (400, "message.invalid")),
                       ({"name": "Z"}, (400, "message.invalid"))):
        status, err = await anon.call("POST", "/players", body)
        assert (status, err["code"]) == want, err
    await anon.aclose()


# ----- authentication --------------------------------------------------------------------


@PROTOCOLS
async def test_hello_with_a_bad_token_and_messages_before_hello(node: Node,
                                                                 protocol: str) -> None:
    pid, token = await player(node)
    ws = await Ws.open(node, protocol=protocol)
    await alive(ws)  # a ping needs no hello
    refused(await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy"}),
            "auth.required")
    refused(await ws.request({"type": "hello", "token": "not-a-token"}), "auth.invalid")
    refused(await ws.request({"type": "session.get", "session": "s1"}), "auth.required")
    refused(await ws.request({"type": "race.subscribe", "race": "r1"}), "auth.required")
    await alive(ws)
    welcome = await ws.request({"type": "hello", "token": token})
    assert welcome["type"] == "welcome" and welcome["player"]["id"] == pid, welcome
    await solo(ws)
    await ws.close()


@PROTOCOLS
async def test_the_websocket_takes_a_bearer_header(node: Node, protocol: str) -> None:
    pid, token = await player(node)
    conn = await websockets.connect(node.ws_url, subprotocols=[protocol],
                                    additional_headers={"Authorization": f"Bearer {token}"})
    ws = Ws(conn, protocol)
    assert (await ws.expect("welcome"))["player"]["id"] == pid
    s = await solo(ws)  # no hello needed
    assert s["view"]["moves"] == 0
    await alive(ws)
    await ws.close()


@PROTOCOLS
async def test_the_websocket_refuses_a_bad_bearer_header(node: Node, protocol: str) -> None:
    conn = await websockets.connect(node.ws_url, subprotocols=[protocol],
                                    additional_headers={"Authorization": "Bearer nope"})
    ws = Ws(conn, protocol)
    refused(await ws.expect("error"), "auth.invalid")
    # The socket stays, unauthenticated: a hello may still bring a good token.
    refused(await ws.request({"type": "session.get", "session": "s1"}), "auth.required")
    await alive(ws)
    await ws.close()


async def test_rest_needs_a_valid_token(node: Node) -> None:
    rest = Rest(node)
    for method, path in (("GET", "/players/me"), ("GET", "/games"), ("POST", "/solo"),
                         ("GET", "/sessions/s1"), ("GET", "/races")):
        status, err = await rest.call(method, path)
        assert (status, err["code"]) == (401, "auth.required"), (path, err)
        status, err = await rest.call(method, path, token="wrong")
        assert (status, err["code"]) == (401, "auth.invalid"), (path, err)
    status, err = await rest.call("GET", "/players/me", headers={"authorization": "Basic abc"})
    assert (status, err["code"]) == (401, "auth.required"), err
    await rest.aclose()


# ----- unknown things --------------------------------------------------------------------


@PROTOCOLS
async def test_unknown_games_sessions_and_races(node: Node, protocol: str) -> None:
    _, ws = await connect(node, protocol)
    refused(await ws.request({"type": "solo.start", "game": "nope", "variant": "easy"}),
            "game.unknown")
    refused(await ws.request({"type": "solo.start", "game": "klondike", "variant": "nope"}),
            "game.unknown")
    refused(await ws.request({"type": "race.create", "game": "nope", "variant": "easy",
                              "seats": 2}), "game.unknown")
    refused(await ws.request({"type": "session.get", "session": "snothere"}),
            "session.unknown")
    refused(await ws.request({"type": "move", "session": "snothere", "move": "s"}),
            "session.unknown")
    refused(await ws.request({"type": "undo", "session": "rnone.pnone"}), "session.unknown")
    for kind in ("race.join", "race.leave", "race.start", "race.subscribe"):
        refused(await ws.request({"type": kind, "race": "rnothere"}), "race.unknown")
    await alive(ws)
    await ws.close()


async def test_rest_unknown_games_sessions_and_races(node: Node) -> None:
    _, token = await player(node)
    rest = Rest(node, token)
    for method, path, body, code in (
            ("GET", "/games/nope/easy", None, "game.unknown"),
            ("GET", "/games/klondike/nope", None, "game.unknown"),
            ("POST", "/solo", {"game": "nope", "variant": "easy"}, "game.unknown"),
            ("GET", "/sessions/snothere", None, "session.unknown"),
            ("GET", "/sessions/snothere/moves", None, "session.unknown"),
            ("POST", "/sessions/snothere/moves", {"move": "s"}, "session.unknown"),
            ("POST", "/sessions/snothere/undo", None, "session.unknown"),
            ("GET", "/races/rnothere", None, "race.unknown"),
            ("GET", "/races/rnothere/results", None, "race.unknown"),
            ("POST", "/races/rnothere/join", None, "race.unknown"),
            ("GET", "/players/pnothere", None, "player.unknown"),
            ("GET", "/nothing/here", None, "not_found")):
        status, err = await rest.call(method, path, body)
        assert (status, err["code"]) == (404, code), (path, err)
    status, err = await rest.call("DELETE", "/games")
    assert (status, err["code"]) == (405, "method.not_allowed"), err
    await rest.aclose()


# ----- moves the rules or the session refuse ---------------------------------------------


@PROTOCOLS
async def test_illegal_moves_are_refused_with_the_engines_code(node: Node,
                                                               protocol: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    sid = s["session"]
    before = await snapshot(ws, sid)
    for move, code in (("w-t1", "source.empty"),  # the waste is empty before any draw
                       ("@@", "move.syntax"), ("t1-t9", "move.syntax"), ("", "move.syntax"),
                       ("t1:x-t2", "move.syntax"), ({}, "move.syntax"),
                       ("zz", "move.unknown")):  # parses as a kind of move Klondike lacks
        assert move not in s["legal"]
        refused(await ws.request({"type": "move", "session": sid, "move": move}), code)
    refused(await ws.request({"type": "undo", "session": sid}), "undo.nothing")
    await alive(ws)
    assert await snapshot(ws, sid) == before
    await ws.close()


async def test_rest_refusals_are_422_with_a_sentence(node: Node) -> None:
    rest, sid = await rest_solo(node)
    before = await rest_state(rest, sid)
    for path, body, code in ((f"/sessions/{sid}/moves", {"move": "w-t1"}, "source.empty"),
                             (f"/sessions/{sid}/moves", {"move": "@@"}, "move.syntax"),
                             (f"/sessions/{sid}/undo", None, "undo.nothing")):
        status, err = await rest.call("POST", path, body)
        assert (status, err["code"]) == (422, code), err
        assert isinstance(err["message"], str) and err["message"], err
    assert await rest_state(rest, sid) == before
    await rest.aclose()


@PROTOCOLS
async def test_someone_elses_session(node: Node, protocol: str) -> None:
    _, ann = await connect(node, protocol)
    _, bob = await connect(node, protocol)
    s = await solo(ann)
    sid = s["session"]
    before = await snapshot(ann, sid)
    for message in ({"type": "move", "session": sid, "move": s["legal"][0]},
                    {"type": "undo", "session": sid}, {"type": "resign", "session": sid},
                    {"type": "session.get", "session": sid}):
        refused(await bob.request(message), "session.not_yours")
    await alive(bob)
    _, token = await player(node)
    rest = Rest(node, token)
    for method, path, body in (("GET", f"/sessions/{sid}", None),
                               ("GET", f"/sessions/{sid}/moves", None),
                               ("POST", f"/sessions/{sid}/moves", {"move": s["legal"][0]}),
                               ("POST", f"/sessions/{sid}/resign", None)):
        status, err = await rest.call(method, path, body)
        assert (status, err["code"]) == (403, "session.not_yours"), (path, err)
    await rest.aclose()
    assert await snapshot(ann, sid) == before
    await ann.close()
    await bob.close()


@PROTOCOLS
async def test_moves_after_the_game_ended(node: Node, protocol: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    sid = s["session"]
    done = await ws.request({"type": "resign", "session": sid})
    assert done["type"] == "ack" and done["view"]["status"] == "lost", done
    after = await snapshot(ws, sid)
    refused(await ws.request({"type": "move", "session": sid, "move": s["legal"][0]}),
            "game.over")
    refused(await ws.request({"type": "resign", "session": sid}), "game.over")
    await alive(ws)
    assert await snapshot(ws, sid) == after
    await ws.close()


@PROTOCOLS
async def test_a_stale_revision_is_a_conflict(node: Node, protocol: str) -> None:
    _, ws = await connect(node, protocol)
    s = await solo(ws)
    sid = s["session"]
    moved = await ws.request({"type": "move", "session": sid, "move": s["legal"][0],
                              "rev": 0})
    assert moved["type"] == "ack" and moved["rev"] == 1, moved
    before = await snapshot(ws, sid)
    for rev in (0, 2, 99):
        refused(await ws.request({"type": "move", "session": sid, "move": moved["legal"][0],
                                  "rev": rev}), "conflict")
    await alive(ws)
    assert await snapshot(ws, sid) == before
    _, token = await player(node)
    rest = Rest(node, token)
    status, err = await rest.call("POST", f"/sessions/{sid}/moves", {"move": "s", "rev": 0})
    assert (status, err["code"]) == (403, "session.not_yours"), err
    await rest.aclose()
    await ws.close()


# ----- races -----------------------------------------------------------------------------


async def race_state(rest: Rest, rid: str) -> tuple[str, list[str], int]:
    status, r = await rest.call("GET", f"/races/{rid}")
    assert status == 200, r
    return r["state"], [e["player"] for e in r["entrants"]], r["seq"]


@PROTOCOLS
async def test_race_refusals_before_the_start(node: Node, protocol: str) -> None:
    a_id, a = await connect(node, protocol)
    b_id, b = await connect(node, protocol)
    _, c = await connect(node, protocol)
    _, token = await player(node)
    rest = Rest(node, token)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "start": "manual"})
    assert race["type"] == "race", race
    rid = race["race"]
    before = await race_state(rest, rid)
    assert before[:2] == ("open", [a_id])
    refused(await a.request({"type": "race.join", "race": rid}), "race.joined")
    refused(await a.request({"type": "race.start", "race": rid}), "race.too_few")
    refused(await b.request({"type": "race.leave", "race": rid}), "race.not_entrant")
    assert await race_state(rest, rid) == before
    joined = await b.request({"type": "race.join", "race": rid})
    assert joined["type"] == "race", joined
    before = await race_state(rest, rid)
    assert sorted(before[1]) == sorted([a_id, b_id])
    refused(await c.request({"type": "race.join", "race": rid}), "race.full")
    refused(await b.request({"type": "race.start", "race": rid}), "race.not_creator")
    refused(await b.request({"type": "race.join", "race": rid}), "race.joined")
    status, err = await rest.call("GET", f"/races/{rid}/results")
    assert (status, err["code"]) == (409, "race.not_over"), err
    status, err = await rest.call("POST", f"/races/{rid}/join")
    assert (status, err["code"]) == (409, "race.full"), err
    status, err = await rest.call("POST", f"/races/{rid}/start")
    assert (status, err["code"]) == (403, "race.not_creator"), err
    for ws in (a, b, c):
        await alive(ws)
    assert await race_state(rest, rid) == before
    await rest.aclose()
    for ws in (a, b, c):
        await ws.close()


@PROTOCOLS
async def test_race_refusals_after_the_start(node: Node, protocol: str) -> None:
    a_id, a = await connect(node, protocol)
    _, b = await connect(node, protocol)
    _, c = await connect(node, protocol)
    _, token = await player(node)
    rest = Rest(node, token)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 30})
    rid = race["race"]
    assert (await b.request({"type": "race.join", "race": rid}))["type"] == "race"
    started = await a.expect("race.started")
    own = await a.expect("session")
    sid = f"{rid}.{a_id}"
    assert started["sessions"][a_id] == sid == own["session"]
    before = await race_state(rest, rid)
    assert before[0] == "running"
    rev_view = (own["rev"], own["view"])
    refused(await a.request({"type": "move", "session": sid, "move": own["legal"][0]}),
            "race.not_started")
    refused(await b.request({"type": "race.leave", "race": rid}), "race.not_open")
    refused(await c.request({"type": "race.join", "race": rid}), "race.not_open")
    refused(await a.request({"type": "race.start", "race": rid}), "race.not_open")
    status, err = await rest.call("GET", f"/races/{rid}/results")
    assert (status, err["code"]) == (409, "race.not_over"), err
    status, err = await rest.call("GET", f"/sessions/{sid}/moves")
    assert (status, err["code"]) == (403, "session.hidden"), err
    status, err = await rest.call("POST", f"/sessions/{sid}/moves", {"move": "s"})
    assert (status, err["code"]) == (403, "session.not_yours"), err
    for ws in (a, b, c):
        await alive(ws)
    assert await race_state(rest, rid) == before
    assert await snapshot(a, sid) == rev_view
    await rest.aclose()
    for ws in (a, b, c):
        await ws.close()


# ----- the rate limit and the hello timeout (the strict node) -----------------------------


@PROTOCOLS
async def test_a_flood_is_limited_then_disconnected(strict_node: Node, protocol: str) -> None:
    _, ws = await connect(strict_node, protocol)
    for i in range(100):
        try:
            await ws.send({"type": "ping", "id": i})
        except ConnectionClosed:
            break
    got, code = await closed_with(ws)
    kinds = [m["type"] if m["type"] != "error" else m["code"] for m in got]
    limited = [m["id"] for m in got if m.get("code") == "rate.limited"]
    answered = [m["id"] for m in got if m["type"] == "pong"]
    # a refusal for the rate names the request it refuses: each one once, in order
    assert limited == sorted(set(limited)) and not set(limited) & set(answered), got
    assert kinds.count("pong") >= 1, kinds
    assert kinds.count("rate.limited") == 20, kinds  # refused 20 times, closed on the 21st
    assert kinds[-1] == "rate.flood", kinds
    assert kinds.index("rate.limited") < kinds.index("rate.flood")
    assert set(kinds) == {"pong", "rate.limited", "rate.flood"}, kinds
    assert code == 1008


async def test_a_steady_sender_is_not_limited(strict_node: Node) -> None:
    _, ws = await connect(strict_node)
    for _ in range(15):  # more than the burst of 10, at under 7 a second
        await alive(ws)
        await asyncio.sleep(0.15)
    await ws.close()


@PROTOCOLS
async def test_a_socket_that_never_says_hello_is_closed(strict_node: Node,
                                                        protocol: str) -> None:
    t0 = time.monotonic()
    ws = await Ws.open(strict_node, protocol=protocol)
    got, code = await closed_with(ws, timeout=30)  # closed by the node, however busy
    elapsed = time.monotonic() - t0
    assert [m.get("code") for m in got] == ["auth.required"], got
    assert code == 1008
    assert elapsed >= 0.8, elapsed  # not before its hello timeout of a second


# ----- the documents ---------------------------------------------------------------------


def fill(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "x", path)


async def test_openapi_documents_every_route(node: Node, redis_url: str) -> None:
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        r = await http.get("/openapi.json")
        assert r.status_code == 200
        doc = r.json()
    assert doc["openapi"] == "3.1.0"
    documented = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    app = create_app(Settings(redis_url=redis_url))
    # OpenAPI writes a path parameter without its converter: {board:path} is {board}.
    routed = {(m, re.sub(r":\w+}", "}", getattr(route, "path", ""))) for route in app.routes
              if not getattr(route, "path", "").startswith(api_docs.PREFIX)  # the API's pages
              for m in (getattr(route, "methods", None) or set()) - {"HEAD"}}
    assert documented == routed
    _, token = await player(node)
    rest = Rest(node, token)
    api = [(m, p) for m, p in sorted(documented) if p.startswith("/api/v1/")]
    assert len(api) >= 18
    for method, path in api:
        status, body = await rest.call(method, fill(path)[len("/api/v1"):])
        assert (status, body.get("code")) not in ((404, "not_found"),
                                                  (405, "method.not_allowed")), (path, body)
        assert status != 500, (path, body)
    await rest.aclose()


def sample(text: str, name: str, **labels: str) -> float | None:
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    head = f"{name}{{{want}}} " if labels else f"{name} "
    for line in text.splitlines():
        if line.startswith(head):
            return float(line[len(head):])
    return None


async def test_metrics_count_moves_errors_and_sockets(node: Node) -> None:
    async def metrics() -> str:
        async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
            r = await http.get("/metrics")
            assert r.status_code == 200
            return r.text

    _, ws = await connect(node)
    s = await solo(ws)
    moved = await ws.request({"type": "move", "session": s["session"], "move": s["legal"][0]})
    assert moved["type"] == "ack"
    before = sample(await metrics(), "samedeal_errors_total", code="race.too_few") or 0.0
    race = await ws.request({"type": "race.create", "game": "klondike", "variant": "easy",
                             "seats": 3, "start": "manual"})
    refused(await ws.request({"type": "race.start", "race": race["race"]}), "race.too_few")
    text = await metrics()
    assert sample(text, "samedeal_errors_total", code="race.too_few") == before + 1
    assert (sample(text, "samedeal_moves_total", op="move") or 0) >= 1
    assert (sample(text, "samedeal_sockets") or 0) >= 1
    assert "samedeal_move_seconds_bucket{" in text
    assert (sample(text, "samedeal_move_seconds_count") or 0) >= 1
    await ws.close()


# ----- REST in msgpack -------------------------------------------------------------------


async def test_rest_in_msgpack(node: Node) -> None:
    _, token = await player(node)
    rest = Rest(node, token, msgpack_=True)
    status, s = await rest.call("POST", "/solo", {"game": "klondike", "variant": "easy",
                                                  "seed": SEED})
    assert status == 201 and s["rev"] == 0, s
    sid = s["session"]
    status, moved = await rest.call("POST", f"/sessions/{sid}/moves",
                                    {"move": s["legal"][0], "rev": 0})
    assert status == 200 and moved["rev"] == 1 and moved["view"]["moves"] == 1, moved
    status, undone = await rest.call("POST", f"/sessions/{sid}/undo")
    assert status == 200 and undone["rev"] == 2 and undone["view"] == s["view"], undone
    before = await rest_state(rest, sid)
    for method, path, body, raw, want in (
            ("POST", f"/sessions/{sid}/undo", None, None, (422, "undo.nothing")),
            ("POST", f"/sessions/{sid}/moves", {"move": "w-t1"}, None, (422, "source.empty")),
            ("POST", f"/sessions/{sid}/moves", {"move": "s", "rev": 0}, None,
             (409, "conflict")),
            ("POST", f"/sessions/{sid}/moves", {"move": 5}, None, (400, "message.invalid")),
            ("POST", f"/sessions/{sid}/moves", None, b"\xc1", (400, "frame.malformed")),
            ("POST", f"/sessions/{sid}/moves", {"pad": "x" * BIG}, None,
             (413, "frame.too_big")),
            ("POST", "/solo", {"game": "nope", "variant": "easy"}, None, (404, "game.unknown")),
            ("GET", "/sessions/snothere", None, None, (404, "session.unknown"))):
        headers = {"content-type": "application/msgpack"} if raw else None
        status, err = await rest.call(method, path, body, raw=raw, headers=headers)
        assert (status, err["code"]) == want, (path, err)
        assert err["message"]
    assert await rest_state(rest, sid) == before
    status, err = await rest.call("GET", "/players/me", token="wrong")
    assert (status, err["code"]) == (401, "auth.invalid"), err
    status, done = await rest.call("POST", f"/sessions/{sid}/resign")
    assert status == 200 and done["view"]["status"] == "lost" and done["rev"] == 3, done
    status, err = await rest.call("POST", f"/sessions/{sid}/resign")
    assert (status, err["code"]) == (422, "game.over"), err
    await rest.aclose()


async def test_rest_msgpack_replies_are_binary(node: Node) -> None:
    _, token = await player(node)
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        r = await http.get("/api/v1/sessions/snothere", headers={
            "authorization": f"Bearer {token}", "accept": "application/msgpack"})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/msgpack")
    assert msgpack.unpackb(r.content)["code"] == "session.unknown"


async def test_a_body_cut_short_logs_one_line_at_most(node: Node) -> None:
    """A client that hangs up part-way through its body made a mistake, the server did not:
    no traceback, at most one line per request."""
    start = node.log.stat().st_size
    host, port = node.url.removeprefix("http://").split(":")
    for _ in range(20):
        _, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"POST /api/v1/players HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                     b'{"name": "Cut')
        await writer.drain()
        writer.close()
        await writer.wait_closed()
    async with httpx.AsyncClient(base_url=node.url) as http:
        assert (await http.get("/healthz")).status_code == 200  # the node is fine
    await asyncio.sleep(0.3)
    with open(node.log, "rb") as f:
        f.seek(start)
        written = f.read().decode(errors="replace")
    assert "Traceback" not in written, written[-3000:]
    assert len(written.splitlines()) <= 20, written[-3000:]


async def test_a_method_not_allowed_says_which_are(node: Node) -> None:
    async with httpx.AsyncClient(base_url=node.url) as http:
        r = await http.delete("/api/v1/daily")
    assert r.status_code == 405 and r.json()["code"] == "method.not_allowed"
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}, r.headers
