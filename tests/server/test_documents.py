"""The machine-readable documents, served by a real server: /openapi.json covers exactly the
routes the app has, and /asyncapi.json is a well-formed AsyncAPI 3.0 document with a message
for every type the server accepts and sends, whose payload schemas accept real messages
captured from a real server and refuse one with a field of the wrong type."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from starlette.routing import Route

from server.app import FEATURES, create_app
from server.config import Settings
from server.errors import STATUS
from server.transport import api_docs, rest, schema

from .client import JSON, MSGPACK, V2_JSON, V2_MSGPACK, Node, Ws, player

PROTOCOL_MD = Path(__file__).parents[2] / "docs" / "protocol.md"
REF = {"type": "object", "required": ["$ref"], "properties": {"$ref": {"type": "string"}}}
#: The parts of AsyncAPI 3.0 this server emits, with the fields the specification requires.
ASYNCAPI_3 = {
    "type": "object",
    "required": ["asyncapi", "info", "channels", "operations", "components"],
    "properties": {
        "asyncapi": {"const": "3.0.0"},
        "info": {"type": "object", "required": ["title", "version"],
                 "properties": {"title": {"type": "string"}, "version": {"type": "string"},
                                "description": {"type": "string"}}},
        "defaultContentType": {"type": "string"},
        "channels": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "required": ["address", "messages"],
            "properties": {"address": {"type": "string", "pattern": "^/"},
                           "messages": {"type": "object", "additionalProperties": REF}}}},
        "operations": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "required": ["action", "channel"],
            "properties": {"action": {"enum": ["send", "receive"]}, "channel": REF,
                           "messages": {"type": "array", "items": REF}}}},
        "components": {"type": "object", "required": ["messages"], "properties": {
            "messages": {"type": "object", "propertyNames": {"pattern": r"^[a-zA-Z0-9.\-_]+$"},
                         "additionalProperties": {
                             "type": "object", "required": ["name", "payload"],
                             "properties": {"name": {"type": "string"},
                                            "summary": {"type": "string"},
                                            "payload": {"type": "object"}}}}}},
    },
    "additionalProperties": False,
}


async def served(node: Node, path: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        r = await http.get(path)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json", r.text
    doc: dict[str, Any] = r.json()
    return doc


def resolve(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    out: Any = doc
    for part in ref[2:].split("/"):
        out = out[part]
    return out


def table_types(heading: str) -> set[str]:
    """The message types in the first column of the table under ``heading`` in
    docs/protocol.md."""
    text = PROTOCOL_MD.read_text()
    section = text[text.index(heading):]
    table = section[section.index("\n| "):section.index("\n\n", section.index("\n| "))]
    return {m for m in re.findall(r"^\| `([a-z_.]+)`", table, re.M)}


def table_rows(heading: str) -> list[list[str]]:
    """The cells of each row of the table under ``heading`` in docs/protocol.md."""
    text = PROTOCOL_MD.read_text()
    section = text[text.index(heading):]
    table = section[section.index("\n| "):section.index("\n\n", section.index("\n| "))]
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in table.splitlines()[3:]]


def unbracketed(text: str) -> str:
    """``text`` without what it says in brackets (a field's notes, defaults, choices)."""
    while (shorter := re.sub(r"\([^()]*\)", "", text)) != text:
        text = shorter
    return text


def test_the_message_table_lists_each_message_s_fields_as_the_schema_has_them() -> None:
    """docs/protocol.md's table of messages names every field of each message, ``?`` on
    exactly the optional ones (where a row offers one field or another, both are)."""
    for kind, fields, _ in table_rows("## Client → server messages"):
        kind = kind.strip("`")
        listed = dict(re.findall(r"`([a-z_]+)`(\??)", unbracketed(fields)))
        declared = schema.MESSAGES[kind]
        assert set(listed) == set(declared), kind
        if " or " not in unbracketed(fields):
            assert {n: q == "?" for n, q in listed.items()} == {
                n: not f.required for n, f in declared.items()}, kind


def test_the_rest_table_lists_every_route_the_features_declare() -> None:
    """docs/protocol.md's table of REST routes holds every route and no other (a row may
    list several: ``POST /x/{y}/join``, ``/leave``)."""
    listed = set()
    for cell, *_ in table_rows("## REST routes"):
        for name in re.findall(r"`([^`]+)`", cell):
            if " " in name:
                method, path = name.split(" ", 1)
            else:
                path = path.rsplit("/", 1)[0] + name
            listed.add((method, path))
    declared = {(e.method, e.path.removeprefix(rest.API).replace(":path}", "}"))
                for e in FEATURES.endpoints}
    assert listed == declared


# ----- the route table and /openapi.json ------------------------------------------------------


async def test_every_route_has_an_operation_and_every_operation_a_route(
        node: Node, redis_url: str) -> None:
    doc = await served(node, "/openapi.json")
    documented = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    app = create_app(Settings(redis_url=redis_url))
    routed = {(m, re.sub(r":\w+}", "}", r.path)) for r in app.routes if isinstance(r, Route)
              and not r.path.startswith(api_docs.PREFIX)  # pages: the browsable API
              for m in (r.methods or set()) - {"HEAD"}}
    assert documented == routed
    assert ("GET", "/asyncapi.json") in routed
    declared = {(e.method, e.path.replace(":path}", "}")) for e in FEATURES.endpoints}
    assert len(declared) == len(FEATURES.endpoints)  # no route declared twice
    assert declared == {(m, p) for m, p in routed if p.startswith(rest.API)}
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                codes = response["description"].split("; ") if status not in (
                    "200", "201", "422", "default") else []
                assert all(STATUS[c] == int(status) for c in codes), (method, path, status)
    # The document's security is the server's: a route that needs a token refuses a call
    # without one, and a public one (or one where a token is optional) does not.
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        for path, ops in doc["paths"].items():
            for method, op in ops.items():
                r = await http.request(method, re.sub(r"\{[^}]+\}", "x", path))
                needs = op.get("security") == [{"bearer": []}]
                code = r.json().get("code") if "json" in r.headers["content-type"] else None
                assert (r.status_code == 401 and code == "auth.required") == needs, (
                    method, path, r.status_code, code)


# ----- /asyncapi.json ---------------------------------------------------------------------------


async def test_the_asyncapi_document_is_well_formed_and_names_every_message(node: Node) -> None:
    doc = await served(node, "/asyncapi.json")
    jsonschema.validate(doc, ASYNCAPI_3)
    (channel,) = doc["channels"].values()
    assert channel["address"] == "/api/v1/ws"
    for name, ref in channel["messages"].items():
        assert resolve(doc, ref["$ref"])["name"] == name
    by_action: dict[str, set[str]] = {"send": set(), "receive": set()}
    for op in doc["operations"].values():
        assert resolve(doc, op["channel"]["$ref"]) is channel
        for ref in op["messages"]:
            assert ref["$ref"].startswith("#/channels/"), ref  # 3.0: the channel's messages
            by_action[op["action"]].add(resolve(doc, resolve(doc, ref["$ref"])["$ref"])["name"])
    for m in doc["components"]["messages"].values():
        jsonschema.Draft202012Validator.check_schema(m["payload"])
        assert m["payload"]["properties"]["type"] == {"const": m["name"]}

    accepted = table_types("## Client → server messages")
    sent = table_types("## Server → client messages") | table_types("### Match events")
    sent.discard("match.*")
    assert len(accepted) >= 20 and len(sent) >= 20
    assert by_action["receive"] == accepted
    assert sent <= by_action["send"], sent - by_action["send"]
    assert not by_action["receive"] & by_action["send"]


def payloads(doc: dict[str, Any], action: str) -> dict[str, dict[str, Any]]:
    out = {}
    for op in doc["operations"].values():
        if op["action"] == action:
            for ref in op["messages"]:
                m = resolve(doc, resolve(doc, ref["$ref"])["$ref"])
                out[m["name"]] = m["payload"]
    return out


def wrong(field: dict[str, Any]) -> Any:
    """A value of a type ``field`` does not allow (a field that allows any has no type: the
    test fails on it)."""
    check = jsonschema.Draft202012Validator(field)
    for value in ("not this", 1.5, {"not": {"this": 1}}, [[1]], None):
        if not check.is_valid(value):
            return value
    raise AssertionError(f"a field of any type: {field}")


class Recorder:
    """Sends requests and keeps each message sent, to check against the document."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, ws: Ws, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        reply = await ws.request(message)
        assert reply["type"] != "error" or message["type"] == "nonsense", (message, reply)
        return reply


async def play_everything(node: Node, req: Recorder) -> list[Ws]:
    """Practice, the daily, boards, a race, a called-card match and a Bowling match, between
    two players: the sockets, with every message they received."""
    _, ta = await player(node, "Ada", "human")
    _, tb = await player(node, "Ben", "human")
    a, b = await Ws.open(node, ta, JSON), await Ws.open(node, tb, MSGPACK)
    req.sent += [{"type": "hello", "token": ta, "id": 1}, {"type": "hello", "token": tb}]
    await req(a, {"type": "ping"})
    await req(a, {"type": "nonsense"})
    await req(a, {"type": "player.rename", "name": "Ada"})

    s = await req(a, {"type": "solo.start", "game": "klondike", "variant": "easy",
                      "seed": "5a" * 16})
    await req(a, {"type": "move", "session": s["session"], "move": s["legal"][0], "rev": 0})
    await req(a, {"type": "undo", "session": s["session"]})
    await req(a, {"type": "session.get", "session": s["session"]})
    await req(a, {"type": "hint", "session": s["session"]})
    await req(a, {"type": "resign", "session": s["session"]})
    await req(a, {"type": "daily.get"})
    d = await req(a, {"type": "daily.start", "game": "golf", "variant": "easy"})
    await req(a, {"type": "resign", "session": d["session"]})
    await req(a, {"type": "board.get", "board": "daily/today/golf/easy", "around": "me",
                  "count": 3})
    await req(b, {"type": "board.subscribe", "board": "daily/today/golf/easy", "count": 3})
    await b.expect("board.update")  # Ada's result, and Ben's own entry: none
    await req(a, {"type": "board.subscribe", "board": "daily/today/golf/easy"})
    await a.expect("board.update")  # with Ada's own entry
    await req(b, {"type": "board.unsubscribe", "board": "daily/today/golf/easy"})

    # Challenges (Ben challenges Ada): one declined, one withdrawn; both hear each answer.
    ada = next(m for m in a.received if m["type"] == "welcome")["player"]["id"]
    for answer in ({"type": "challenge.decline"}, {"type": "challenge.withdraw"}):
        sent = await req(b, {"type": "challenge.send", "player": ada, "game": "golf",
                             "variant": "easy"})
        await a.expect("challenge.received", challenge=sent["challenge"])
        await req(a, {"type": "challenge.list"})
        await req(a if answer["type"] == "challenge.decline" else b,
                  {**answer, "challenge": sent["challenge"]})
        await a.expect("challenge.answered", challenge=sent["challenge"])
        await b.expect("challenge.answered", challenge=sent["challenge"])

    race = await req(a, {"type": "race.create", "game": "klondike", "variant": "easy",
                         "seats": 2, "countdown": 0, "time_limit": 60})
    rid = race["race"]
    await req(b, {"type": "race.join", "race": rid})
    for ws in (a, b):
        own = await ws.expect("session", race=rid)
        await req(ws, {"type": "resign", "session": own["session"]})
    await a.expect("race.ended", race=rid)
    await req(a, {"type": "race.unsubscribe", "race": rid})
    manual = await req(a, {"type": "race.create", "game": "golf", "variant": "easy",
                           "seats": 3, "start": "manual"})
    await req(b, {"type": "race.join", "race": manual["race"]})
    await req(b, {"type": "race.leave", "race": manual["race"]})
    await a.expect("race.left", race=manual["race"])

    match = await req(a, {"type": "match.create", "game": "poker-square", "variant": "easy",
                          "seats": 2, "turn_time": 120, "grace": 60})
    mid = match["match"]
    await req(b, {"type": "match.join", "match": mid})
    for ws in (a, b):
        mine = await ws.expect("match.you", match=mid)
        await req(ws, {"type": "match.move", "match": mid, "move": mine["legal"][0]})
    await a.expect("match.placed", match=mid)
    await a.expect("match.card", match=mid)
    await b.close()
    await a.expect("match.away", match=mid)
    b = await Ws.open(node, tb, MSGPACK)
    await b.send({"type": "match.subscribe", "match": mid})
    req.sent.append({"type": "match.subscribe", "match": mid})
    await a.expect("match.back", match=mid)
    await req(b, {"type": "match.get", "match": mid})
    await req(a, {"type": "match.leave", "match": mid})
    await b.expect("match.forfeit", match=mid)
    await req(b, {"type": "match.leave", "match": mid})
    await b.expect("match.ended", match=mid)
    await req(b, {"type": "match.unsubscribe", "match": mid})

    waiting = await req(a, {"type": "match.create", "game": "poker-square",
                            "variant": "easy", "seats": 3, "start": "manual"})
    await req(b, {"type": "match.join", "match": waiting["match"]})
    await req(b, {"type": "match.leave", "match": waiting["match"]})
    await a.expect("match.left", match=waiting["match"])
    bowl = await req(b, {"type": "match.create", "game": "bowling", "variant": "easy",
                         "seats": 1})
    legal = (await b.expect("match.you", match=bowl["match"]))["legal"]
    for _ in range(40):  # a card that keeps the bowler's turn is no event: bowl to a frame's end
        if b.pending("match.moved"):
            break
        ack = await req(b, {"type": "match.move", "match": bowl["match"], "move": legal[0]})
        legal = ack["you"]["legal"]
    await b.expect("match.moved", match=bowl["match"])

    # Protocol v2: acks with what changed, whole when the socket is behind, and in a race
    # with the number of the progress event they stand for.
    c, d = await Ws.open(node, ta, V2_JSON), await Ws.open(node, tb, V2_MSGPACK)
    s = await req(c, {"type": "solo.start", "game": "golf", "variant": "easy", "seed": "07"})
    await req(c, {"type": "move", "session": s["session"], "move": s["legal"][0]})
    await req(c, {"type": "resign", "session": s["session"]})
    race = await req(c, {"type": "race.create", "game": "golf", "variant": "easy",
                         "seats": 2, "countdown": 0})
    await req(d, {"type": "race.join", "race": race["race"]})
    for ws in (c, d):
        own = await ws.expect("session", race=race["race"])
        await req(ws, {"type": "move", "session": own["session"], "move": own["legal"][0]})
        await req(ws, {"type": "resign", "session": own["session"]})
    await c.expect("race.ended", race=race["race"])
    return [a, b, c, d]


@pytest.fixture
async def captured(node: Node) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    req = Recorder()
    socks = await play_everything(node, req)
    got = [m for ws in socks for m in ws.received]
    for ws in socks:
        await ws.close()
    return req.sent, got


async def test_asyncapi_payloads_hold_real_messages(
        node: Node, captured: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> None:
    doc = await served(node, "/asyncapi.json")
    sent, got = captured
    acks = [m for m in got if m["type"] == "ack"]
    assert {"changes" in m for m in acks} == {True, False}  # v2's and v1's, both checked
    assert "samedeal.v2.json" in doc["info"]["description"]
    for action, messages in (("receive", sent), ("send", got)):
        schemas = payloads(doc, action)
        samples: dict[str, dict[str, Any]] = {}
        for m in messages:
            if action == "receive" and m["type"] == "nonsense":
                assert m["type"] not in schemas
                continue
            assert m["type"] in schemas, m["type"]
            validator = jsonschema.Draft202012Validator(schemas[m["type"]])
            errors = [e.message for e in validator.iter_errors(m)]
            assert not errors, (m["type"], errors, m)
            samples.setdefault(m["type"], m)
        for kind, m in samples.items():  # each field's type is held: a wrong one is refused
            schema = schemas[kind]
            for name in schema["required"]:
                bad = {**m, name: wrong(schema["properties"].get(name, {}))}
                assert not jsonschema.Draft202012Validator(schema).is_valid(bad), (kind, name)
        if action == "send":
            assert set(samples) >= {
                "welcome", "pong", "player", "error", "session", "ack", "daily", "board", "race",
                "subscribed", "board.update",
                "unsubscribed", "race.started", "race.progress", "race.ended", "race.joined",
                "race.left", "match", "match.ack", "match.you", "match.joined",
                "match.started", "match.card", "match.placed", "match.away", "match.back",
                "match.forfeit", "match.ended", "match.left", "match.moved",
                "suggestion", "challenge", "challenges", "challenge.received",
                "challenge.answered"}, set(samples)
        else:
            assert len(samples) >= 20, set(samples)
