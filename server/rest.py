"""The REST routes under /api/v1: request/response work in JSON or msgpack.

A body is read up to the size limit, decoded by its Content-Type, and checked against the
message schema before an operation sees it; the reply is encoded as the Accept header asks.
"""

from __future__ import annotations

import math
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import engine

from . import codec, schema
from .accounts import Player
from .api import OPERATIONS, Services, transcript
from .daily import day_of
from .errors import ApiError
from .signups import Network, is_address, within

API = "/api/v1"


def services(request: Request) -> Services:
    return request.app.state.services


def reply_encoding(request: Request) -> str:
    return codec.MSGPACK if codec.MEDIA[codec.MSGPACK] in request.headers.get(
        "accept", "") else codec.JSON


def respond(request: Request, payload: Any, status: int = 200,
            headers: dict[str, str] | None = None) -> Response:
    encoding = reply_encoding(request)
    return Response(codec.encode(payload, encoding), status, headers,
                    media_type=codec.MEDIA[encoding])


async def read_body(request: Request, kind: str, in_path: tuple[str, ...] = ()) -> dict[str, Any]:
    limit = services(request).settings.max_message_bytes
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise ApiError("frame.too_big", f"a request body is at most {limit} bytes")
    encoding = codec.MSGPACK if request.headers.get("content-type", "").startswith(
        codec.MEDIA[codec.MSGPACK]) else codec.JSON
    data = codec.decode(bytes(raw), encoding, limit) if raw else {}
    return schema.validate(kind, data, in_path)


def param(request: Request, name: str) -> str:
    """A path parameter, checked as text and against its declaration before use."""
    return schema.check_param(name, request.path_params[name])


async def caller(request: Request) -> Player:
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    if token:
        schema.check_token(token)
    return await services(request).accounts.authenticate(token)


def client_address(request: Request, trusted: list[Network]) -> str:
    """The client's address: the connection's, or, when that is a trusted proxy, the
    right-most X-Forwarded-For entry that is not one (each proxy appends the address it saw,
    so entries further left are the client's own say and are not believed)."""
    address = request.client.host if request.client else ""
    if not trusted or not within(address, trusted):
        return address
    hops = [h.strip() for line in request.headers.getlist("x-forwarded-for")
            for h in line.split(",")]
    for hop in reversed(hops):
        if not is_address(hop):  # garbage: keep the last proxy's
            break
        address = hop
        if not within(hop, trusted):
            break
    return address


async def register(request: Request) -> Response:
    """A new account, within the client address's registration limit (server/signups.py)."""
    sv = services(request)
    body = await read_body(request, "player.register")
    wait = await sv.signups.take(client_address(request, sv.signups.trusted))
    if wait:
        sv.metrics.errors.labels("rate.limited").inc()
        when = f"{wait} s" if wait < 120 else f"{math.ceil(wait / 60)} min"
        error = ApiError("rate.limited", "too many new accounts from your network: try "
                         f"again in {when}")
        return respond(request, error.body(), error.status, {"Retry-After": str(wait)})
    player, token = await sv.accounts.register(body["name"], body["kind"])
    return respond(request, {"player": player.public(), "token": token}, 201)


async def profile(request: Request, who: Player) -> dict[str, Any]:
    sv = services(request)
    return await sv.records.profile(who, day_of(await sv.daily.clock()))


async def me(request: Request) -> Response:
    return respond(request, await profile(request, await caller(request)))


async def player(request: Request) -> Response:
    await caller(request)
    found = await services(request).accounts.get(param(request, "player"))
    return respond(request, await profile(request, found))


async def stats(request: Request) -> Response:
    await caller(request)
    found = await services(request).accounts.get(param(request, "player"))
    out = await profile(request, found)
    return respond(request, {"player": out["id"], "stats": out["stats"]})


async def games(request: Request) -> Response:
    await caller(request)
    sets = [r.describe() for r in engine.rule_sets()]
    return respond(request, {"rule_sets": sets, "count": len(sets)})


async def game(request: Request) -> Response:
    await caller(request)
    try:
        rules = engine.get(param(request, "game"), param(request, "variant"))
    except engine.UnknownGame as e:
        raise ApiError("game.unknown", str(e)) from None
    return respond(request, rules.describe())


def operation(kind: str, path: str = "", status: int = 200) -> Any:
    """A POST route running ``OPERATIONS[kind]`` with the body, plus the id named in the path."""
    in_path = (path,) if path else ()

    async def endpoint(request: Request) -> Response:
        who = await caller(request)
        body = await read_body(request, kind, in_path)
        if path:
            body[path] = schema.check_param(path, request.path_params[path],
                                            schema.MESSAGES[kind][path])
        handler, _ = OPERATIONS[kind]
        return respond(request, await handler(services(request), who, body), status)

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


async def session(request: Request) -> Response:
    who = await caller(request)
    handler, _ = OPERATIONS["session.get"]
    return respond(request, await handler(services(request), who,
                                           {"session": param(request, "session")}))


async def moves(request: Request) -> Response:
    """A ranked game's transcript is public once its race or day is over: no token needed."""
    who = await caller(request) if "authorization" in request.headers else None
    return respond(request, await transcript(services(request), who,
                                             param(request, "session")))


def get_operation(kind: str, path: str = "") -> Any:
    """A GET route running ``OPERATIONS[kind]`` with the query string (and a path part) as
    the body; whole numbers in the query (ASCII digits, at most 30 of them) are read as
    integers, after the text check."""

    async def endpoint(request: Request) -> Response:
        who = await caller(request)
        body: dict[str, Any] = dict(request.query_params.items())
        if path:
            body[path] = request.path_params[path]
        schema.check_text(body)
        for k, v in body.items():
            if k != path and v.isascii() and v.isdigit() and len(v) <= 30:
                body[k] = int(v)
        schema.check_fields(kind, body)
        handler, _ = OPERATIONS[kind]
        return respond(request, await handler(services(request), who, body))

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


async def races(request: Request) -> Response:
    await caller(request)
    return respond(request, {"races": await services(request).races.list_open()})


async def race(request: Request) -> Response:
    await caller(request)
    return respond(request, await services(request).races.summary(param(request, "race")))


async def results(request: Request) -> Response:
    await caller(request)
    return respond(request, await services(request).races.results(param(request, "race")))


async def matches(request: Request) -> Response:
    await caller(request)
    return respond(request, {"matches": await services(request).matches.list_open()})


async def transcript_of_match(request: Request) -> Response:
    """A match's placements and seed: public once it is over, no token needed."""
    return respond(request, await services(request).matches.transcript(
        param(request, "match")))


ROUTES = [
    Route(f"{API}/players", register, methods=["POST"]),
    Route(f"{API}/players/me", me, methods=["GET"]),
    Route(f"{API}/players/{{player}}", player, methods=["GET"]),
    Route(f"{API}/players/{{player}}/stats", stats, methods=["GET"]),
    Route(f"{API}/games", games, methods=["GET"]),
    Route(f"{API}/games/{{game}}/{{variant}}", game, methods=["GET"]),
    Route(f"{API}/solo", operation("solo.start", status=201), methods=["POST"]),
    Route(f"{API}/sessions/{{session}}", session, methods=["GET"]),
    Route(f"{API}/sessions/{{session}}/moves", operation("move", "session"), methods=["POST"]),
    Route(f"{API}/sessions/{{session}}/moves", moves, methods=["GET"]),
    Route(f"{API}/sessions/{{session}}/undo", operation("undo", "session"), methods=["POST"]),
    Route(f"{API}/sessions/{{session}}/resign", operation("resign", "session"),
          methods=["POST"]),
    Route(f"{API}/races", operation("race.create", status=201), methods=["POST"]),
    Route(f"{API}/races", races, methods=["GET"]),
    Route(f"{API}/races/{{race}}", race, methods=["GET"]),
    Route(f"{API}/races/{{race}}/join", operation("race.join", "race"), methods=["POST"]),
    Route(f"{API}/races/{{race}}/leave", operation("race.leave", "race"), methods=["POST"]),
    Route(f"{API}/races/{{race}}/start", operation("race.start", "race"), methods=["POST"]),
    Route(f"{API}/races/{{race}}/results", results, methods=["GET"]),
    Route(f"{API}/matches", operation("match.create", status=201), methods=["POST"]),
    Route(f"{API}/matches", matches, methods=["GET"]),
    Route(f"{API}/matches/{{match}}", get_operation("match.get", "match"), methods=["GET"]),
    Route(f"{API}/matches/{{match}}/join", operation("match.join", "match"), methods=["POST"]),
    Route(f"{API}/matches/{{match}}/leave", operation("match.leave", "match"),
          methods=["POST"]),
    Route(f"{API}/matches/{{match}}/start", operation("match.start", "match"),
          methods=["POST"]),
    Route(f"{API}/matches/{{match}}/moves", operation("match.move", "match"), methods=["POST"]),
    Route(f"{API}/matches/{{match}}/transcript", transcript_of_match, methods=["GET"]),
    Route(f"{API}/daily", operation("daily.start", status=201), methods=["POST"]),
    Route(f"{API}/daily", get_operation("daily.get"), methods=["GET"]),
    Route(f"{API}/daily/{{day}}", get_operation("daily.get", "day"), methods=["GET"]),
    Route(f"{API}/boards/{{board:path}}", get_operation("board.get", "board"),
          methods=["GET"]),
]
