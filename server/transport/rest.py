"""The REST routes under /api/v1: request/response work in JSON or msgpack.

A body is read up to the size limit, decoded by its Content-Type, and checked against the
message schema before an operation sees it; the reply is encoded as the Accept header asks.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import Response

import engine

from ..accounts import Player, admin
from ..accounts.limits import Limits
from ..accounts.signups import Network, is_address, within
from ..api import OPERATIONS, SEEN, Services, analysis, seen_from, transcript
from ..api import daily_page as page_of_day
from ..daily import day_of
from ..errors import ApiError
from . import codec, replies, schema
from .endpoints import Endpoint, Handler
from .web_files import Version, VersionResponse, pack

API = "/api/v1"


def services(request: HTTPConnection) -> Services:
    sv: Services = request.app.state.services
    return sv


def address_of(request: HTTPConnection) -> str:
    """The client's address as every limit and fingerprint reads it (``trusted_proxies``)."""
    return client_address(request, services(request).signups.trusted)


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
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise ApiError("frame.too_big", f"a request body is at most {limit} bytes")
    except ClientDisconnect:  # the client's mistake, answered (to nobody) like any other
        raise ApiError("frame.malformed", "the request's body was cut short") from None
    encoding = codec.MSGPACK if request.headers.get("content-type", "").startswith(
        codec.MEDIA[codec.MSGPACK]) else codec.JSON
    data = codec.decode(bytes(raw), encoding, limit) if raw else {}
    return schema.validate(kind, data, in_path)


def param(request: Request, name: str) -> str:
    """A path parameter, checked as text and against its declaration before use."""
    return schema.check_param(name, request.path_params[name])


async def caller(request: Request) -> Player:
    """The token's player, within their account's limit (server/accounts/limits.py); a request whose
    token is missing or bad counts for its address, as one without a token does."""
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    try:
        if token:
            schema.check_token(token)
        who = await services(request).accounts.authenticate(token)
    except ApiError:
        await anonymous(request)
        raise
    limits, address = limits_of(request)
    if not limits.free(address):
        refusal = await limits.account(who.id)
        if refusal is not None:
            raise refusal
    return who


def limits_of(request: Request) -> tuple[Limits, str]:
    """The node's limits and the request's client address."""
    limits = services(request).limits
    assert limits is not None, "build_services wires them"
    return limits, address_of(request)


async def anonymous(request: Request) -> None:
    """A request without a token (or with a bad one): within its address's limit."""
    limits, address = limits_of(request)
    if not limits.free(address):
        refusal = await limits.origin(address)
        if refusal is not None:
            raise refusal


def limited(e: Endpoint) -> Endpoint:
    """A route within the limits: a public one (or an optional token left out) counts for the
    client's address before anything else; one with a token counts for its account in
    ``caller``."""
    errors = e.errors if "rate.limited" in e.errors else (*e.errors, "rate.limited")
    if e.auth == "bearer":
        return replace(e, errors=errors)
    handler = e.handler

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        if e.auth == "none" or "authorization" not in request.headers:
            await anonymous(request)
        return await handler(request)

    return replace(e, handler=endpoint, errors=errors)


def client_address(request: HTTPConnection, trusted: list[Network]) -> str:
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
    """A new account, within the client address's registration limit
    (server/accounts/signups.py)."""
    sv = services(request)
    body = await read_body(request, "player.register")
    wait = await sv.signups.take(address_of(request))
    if wait:
        sv.metrics.errors.labels("rate.limited").inc()
        when = f"{wait} s" if wait < 120 else f"{math.ceil(wait / 60)} min"
        error = ApiError("rate.limited", "over the registration limit (new accounts per "
                         f"network): try again in {when}", retry_after=wait,
                         limit="registration")
        return respond(request, error.body(), error.status, {"Retry-After": str(wait)})
    player, token = await sv.accounts.register(body["name"], body["kind"])
    return respond(request, {"player": player.public(), "token": token}, 201)


async def profile(request: Request, who: Player) -> dict[str, Any]:
    sv = services(request)
    return await sv.records.profile(who, day_of(await sv.daily.clock()))


async def me(request: Request) -> Response:
    return respond(request, await profile(request, await caller(request)))


async def rename(request: Request) -> Response:
    """A new display name for the caller (``player.rename``, as on the WebSocket)."""
    who = await caller(request)
    body = await read_body(request, "player.rename")
    handler, _ = OPERATIONS["player.rename"]
    return respond(request, await handler(services(request), who, body))


async def player(request: Request) -> Response:
    await caller(request)
    found = await services(request).accounts.get(param(request, "player"))
    return respond(request, await profile(request, found))


async def stats(request: Request) -> Response:
    await caller(request)
    found = await services(request).accounts.get(param(request, "player"))
    out = await profile(request, found)
    return respond(request, {"player": out["id"], "stats": out["stats"]})


@functools.cache
def catalog(encoding: str) -> Version:
    """The catalog in one encoding, encoded and gzipped once: the engine's rule sets are the
    same for every caller and for the life of the process, so its tag is a digest of it."""
    sets = [r.describe() for r in engine.rule_sets()]
    raw = codec.encode({"rule_sets": sets, "count": len(sets)}, encoding)
    return pack(raw, codec.MEDIA[encoding], text=True)


async def games(request: Request) -> Response:
    """The catalog as the web client's files go (server/web_files.py): gzip where accepted,
    a strong ETag, a 304 to a matching If-None-Match, ``Cache-Control: no-cache``. It is
    asked for on every page load and rarely changes; the token is still checked first."""
    await caller(request)
    return VersionResponse(catalog(reply_encoding(request)), vary="Accept")


async def game(request: Request) -> Response:
    await caller(request)
    try:
        rules = engine.get(param(request, "game"), param(request, "variant"))
    except engine.UnknownGame as e:
        raise ApiError("game.unknown", str(e)) from None
    return respond(request, rules.describe())


def operation(kind: str, path: str = "", status: int = 200) -> Handler:
    """A POST route running ``OPERATIONS[kind]`` with the body, plus the id named in the path."""
    in_path = (path,) if path else ()

    async def endpoint(request: Request) -> Response:
        who = await caller(request)
        body = await read_body(request, kind, in_path)
        if path:
            body[path] = schema.check_param(path, request.path_params[path],
                                            schema.MESSAGES[kind][path])
        handler, _ = OPERATIONS[kind]
        sv = services(request)
        out = await handler(sv, who, body)
        if kind in SEEN:
            await seen_from(sv, kind, body, out, address_of(request),
                            request.headers.get("user-agent", ""))
        return respond(request, out, status)

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


async def analysis_of(request: Request) -> Response:
    """A finished game's analysis: public like its moves once they are, no token needed."""
    who = await caller(request) if "authorization" in request.headers else None
    body = query_body(request, "analysis.get", "session")
    return respond(request, await analysis(services(request), who, body["session"]))


def query_body(request: Request, kind: str, path: str = "") -> dict[str, Any]:
    """The query string (and a path part) as the body of a ``kind`` message, checked; whole
    numbers (ASCII digits, at most 30 of them) are read as integers, after the text check."""
    body: dict[str, Any] = dict(request.query_params.items())
    if path:
        body[path] = request.path_params[path]
    schema.check_text(body)
    for k, v in body.items():
        if k != path and v.isascii() and v.isdigit() and len(v) <= 30:
            body[k] = int(v)
    schema.check_fields(kind, body)
    return body


def get_operation(kind: str, path: str = "") -> Handler:
    """A GET route running ``OPERATIONS[kind]`` for the caller, with ``query_body``."""

    async def endpoint(request: Request) -> Response:
        who = await caller(request)
        handler, _ = OPERATIONS[kind]
        body = query_body(request, kind, path)
        return respond(request, await handler(services(request), who, body))

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


async def daily_page(request: Request) -> Response:
    """Today's or a day's page: public, so that anyone can check a reveal; with a token, each
    deal also says where the caller stands on it (``daily.get``)."""
    body = query_body(request, "daily.get", "day" if "day" in request.path_params else "")
    if "authorization" in request.headers:
        handler, _ = OPERATIONS["daily.get"]
        return respond(request, await handler(services(request), await caller(request), body))
    return respond(request, await page_of_day(services(request), body))


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


async def daily_chain(request: Request) -> Response:
    """The chain of day secrets in use, and every chain made: public, no token needed."""
    sv = services(request)
    history = await sv.daily.chains.ensure(day_of(await sv.daily.clock()))
    current = history[-1].public() if history else None
    return respond(request, {"current": current, "history": [r.public() for r in history]})


async def ghosts(request: Request) -> Response:
    """The open ghost races, newest first (at most 50)."""
    await caller(request)
    sv = services(request)
    assert sv.ghosts is not None
    return respond(request, {"ghosts": await sv.ghosts.list_open()})
async def arenas(request: Request) -> Response:
    """Upcoming and running arenas: public, no token needed."""
    sv = services(request)
    assert sv.arenas is not None
    return respond(request, {"arenas": await sv.arenas.listing()})


def operator(kind: str, path: str = "", status: int = 200) -> Handler:
    """An operator's POST (``arena.create``, ``arena.cancel``): the admin token first."""

    async def endpoint(request: Request) -> Response:
        sv = services(request)
        admin.check(sv.settings, request.headers.get("authorization", ""))
        body = await read_body(request, kind, (path,) if path else ())
        if path:
            body[path] = param(request, path)
        assert sv.arenas is not None
        if kind == "arena.cancel":
            return respond(request, await sv.arenas.cancel(body["arena"]), status)
        return respond(request, await sv.arenas.create(body), status)

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


def reply_of(kind: str) -> dict[str, Any]:
    """The reply schema of the operation behind ``kind`` (its WebSocket reply's fields; a
    change's is the whole session, as v1's ack: v2's changes are the WebSocket's alone)."""
    reply = OPERATIONS[kind][1]
    return replies.SESSION if reply == "ack" else replies.REPLIES[reply][1]


def post(path: str, kind: str, summary: str, errors: tuple[str, ...], status: int = 200,
         refusable: bool = False) -> Endpoint:
    """A POST route running ``OPERATIONS[kind]`` (``operation``), the path's id in the body."""
    params = [p[1:-1] for p in path.split("/") if p.startswith("{")]
    return Endpoint("POST", f"{API}{path}", operation(kind, params[0] if params else "", status),
                    summary, kind, status, reply_of(kind), errors=errors,
                    refusable=refusable)


PLAYER_REPLY = replies.obj({"player": replies.PLAYER, "token": replies.STR})
PROFILE = replies.obj({"id": replies.STR, "name": replies.STR, "kind": replies.STR,
                       "stats": {"type": "array"}})
RACE_ERRORS = ("race.unknown",)
MATCH_ERRORS = ("match.unknown",)
LEAGUE_ERRORS = ("league.unknown",)
CHALLENGE_ERRORS = ("challenge.unknown", "challenge.answered", "challenge.expired")

#: Every REST route, once: the Starlette routes and the OpenAPI document are built from these.
ENDPOINTS: list[Endpoint] = [
    Endpoint("POST", f"{API}/players", register, "Register; the token is shown once",
             "player.register", 201, PLAYER_REPLY, auth="none", errors=("rate.limited",)),
    Endpoint("GET", f"{API}/players/me", me, "The caller's profile", reply=PROFILE),
    Endpoint("PATCH", f"{API}/players/me", rename, "Choose a new display name",
             "player.rename", reply=reply_of("player.rename")),
    Endpoint("GET", f"{API}/players/{{player}}", player,
             "A player's public profile: statistics, streaks, ratings", reply=PROFILE,
             errors=("player.unknown",)),
    Endpoint("GET", f"{API}/players/{{player}}/stats", stats,
             "Per rule set: played, won, best time, best and average score",
             reply=replies.obj({"player": replies.STR, "stats": {"type": "array"}}),
             errors=("player.unknown",)),
    Endpoint("GET", f"{API}/games", games, "The catalog: every rule set and its layout",
             reply=replies.obj({"rule_sets": {"type": "array", "items": replies.OBJ},
                                "count": replies.INT})),
    Endpoint("GET", f"{API}/games/{{game}}/{{variant}}", game, "One rule set",
             reply=replies.obj({"id": replies.STR, "variant": replies.STR,
                                "name": replies.STR}), errors=("game.unknown",)),
    post("/solo", "solo.start", "Start a practice game", ("game.unknown",), 201),
    Endpoint("GET", f"{API}/sessions/{{session}}", session,
             "Your view of a session, with its legal moves", reply=reply_of("session.get"),
             errors=("session.unknown", "session.not_yours")),
    post("/sessions/{session}/moves", "move", "Play a move",
         ("session.unknown", "session.not_yours", "conflict", "race.not_started",
          "daily.closed"), refusable=True),
    Endpoint("GET", f"{API}/sessions/{{session}}/moves", moves,
             "The move list with server times (a ranked game's is public after it, no token "
             "needed)", reply=replies.obj({"session": replies.STR,
                                           "moves": {"type": "array"}}),
             auth="optional", errors=("auth.required", "session.unknown", "session.hidden",
                                      "session.not_yours")),
    Endpoint("GET", f"{API}/sessions/{{session}}/analysis", analysis_of,
             "A finished game's analysis: each position along the line played, won (moves to "
             "go), proved lost or unknown, and its turning point; pending while it is "
             "computed (public when its moves are)", "analysis.get",
             reply=reply_of("analysis.get"), auth="optional",
             errors=("auth.required", "session.unknown", "session.hidden", "session.not_yours",
                     "analysis.not_over", "analysis.match", "analysis.off", "match.not_over")),
    post("/sessions/{session}/undo", "undo", "Take back the last move",
         ("session.unknown", "session.not_yours", "conflict"), refusable=True),
    post("/sessions/{session}/resign", "resign", "Give up the game",
         ("session.unknown", "session.not_yours", "conflict"), refusable=True),
    post("/sessions/{session}/hint", "hint", "A hint in a practice game: the next move to "
         "play (not played)", ("session.unknown", "session.not_yours", "hint.not_allowed",
                               "rate.limited"), refusable=True),
    post("/races", "race.create", "Create a race; its seed's commitment is shown now",
         ("game.unknown",), 201),
    Endpoint("GET", f"{API}/races", races, "The open races",
             reply=replies.obj({"races": {"type": "array", "items": replies.OBJ}})),
    Endpoint("GET", f"{API}/races/{{race}}", race, "A race and every entrant's progress",
             reply=replies.RACE, errors=RACE_ERRORS),
    post("/races/{race}/join", "race.join", "Take a seat",
         (*RACE_ERRORS, "race.full", "race.not_open", "race.joined", "race.not_invited")),
    post("/races/{race}/leave", "race.leave", "Give up a seat before the start",
         (*RACE_ERRORS, "race.not_open", "race.not_entrant")),
    post("/races/{race}/start", "race.start", "Start now (the creator only)",
         (*RACE_ERRORS, "race.not_open", "race.not_creator", "race.too_few")),
    post("/races/{race}/rematch", "race.rematch",
         "Ask for (or accept) a rematch of an ended race you were in: the same entrants on a "
         "new deal; you take a seat in it",
         (*RACE_ERRORS, "race.not_entrant", "race.not_over", "race.not_open",
          "race.bot_rematch", "ghost.entered")),
    post("/races/bot", "race.bot",
         "Race a server-run bot now: a new race on a fresh secret deal, you and the bot as "
         "its entrants, started at once",
         ("game.unknown", "bot.unknown_strength", "race.bot_busy", "race.bot_limit",
          "race.bot_capacity"), 201),
    Endpoint("GET", f"{API}/races/{{race}}/results", results,
             "The ranking and the revealed seed",
             reply=replies.obj({"race": replies.STR, "seed": replies.HEX,
                                "ranking": {"type": "array"}}),
             errors=(*RACE_ERRORS, "race.not_over")),
    post("/matches", "match.create", "Create a match of a rule set that has a match kind in "
         "the catalog; its seed's commitment is shown now", ("game.unknown", "match.game"),
         201),
    Endpoint("GET", f"{API}/matches", matches, "The open matches",
             reply=replies.obj({"matches": {"type": "array", "items": replies.OBJ}})),
    Endpoint("GET", f"{API}/matches/{{match}}", get_operation("match.get", "match"),
             "A match: players, scores, whose turn; your own grid", "match.get",
             reply=reply_of("match.get"), errors=MATCH_ERRORS),
    post("/matches/{match}/join", "match.join", "Take a seat",
         (*MATCH_ERRORS, "match.full", "match.not_open", "match.joined", "match.not_invited")),
    post("/matches/{match}/leave", "match.leave",
         "Give up a seat, or leave a running match for good",
         (*MATCH_ERRORS, "match.not_player", "match.left", "match.done")),
    post("/matches/{match}/start", "match.start", "Start now (the creator only)",
         (*MATCH_ERRORS, "match.not_open", "match.not_creator", "match.too_few")),
    post("/matches/{match}/rematch", "match.rematch",
         "Ask for (or accept) a rematch of an ended match you played in: the same players on "
         "a new deal; you take a seat in it",
         (*MATCH_ERRORS, "match.not_player", "match.not_over", "match.not_open")),
    post("/matches/{match}/moves", "match.move", "Place your card",
         (*MATCH_ERRORS, "match.not_player", "match.not_running", "match.left",
          "match.wait", "match.done"), refusable=True),
    Endpoint("GET", f"{API}/matches/{{match}}/transcript", transcript_of_match,
             "Every placement, the seed and the results, public once the match is over",
             reply=replies.obj({"match": replies.STR, "seed": replies.HEX}), auth="none",
             errors=(*MATCH_ERRORS, "match.not_over")),
    post("/daily", "daily.start",
         "Start (or resume) today's ranked attempt, or replay unranked",
         ("game.unknown", "daily.not_open", "daily.played", "daily.not_revealed",
          "daily.waiting"), 201),
    Endpoint("GET", f"{API}/daily", daily_page,
             "Today's daily deals and their commitments (with a token, your standing on "
             "each)", "daily.get", auth="optional",
             reply=reply_of("daily.get")),
    # the daily's live edition (server/daily/live.py), before /daily/{day}
    Endpoint("GET", f"{API}/daily/live", get_operation("daily_live.get"),
             "The day's live edition: its instant, commitments, sign-ups; yours marked",
             "daily_live.get", reply=reply_of("daily_live.get"),
             errors=("daily_live.off", "daily.not_open")),
    post("/daily/live/join", "daily_live.join",
         "Sign up for today's live edition: dealt at its instant with everyone signed up",
         ("game.unknown", "daily_live.off", "daily_live.not_live", "daily_live.started",
          "arena.full", "daily.waiting")),
    post("/daily/live/leave", "daily_live.leave", "Give up your place before the deal",
         ("game.unknown", "daily_live.off", "daily_live.not_live", "daily_live.started",
          "daily_live.not_player")),
    Endpoint("GET", f"{API}/daily/chain", daily_chain,
             "The chains of day secrets: the latest (anchor, start day, length) and every "
             "one made, to publish elsewhere (docs/fairness.md)", auth="none",
             reply=replies.obj({"current": replies.CHAIN,
                                "history": {"type": "array", "items": replies.CHAIN}})),
    Endpoint("GET", f"{API}/daily/{{day}}", daily_page,
             "A day's deals: commitments, seeds once revealed", "daily.get", auth="optional",
             reply=reply_of("daily.get"), errors=("daily.not_open",)),
    Endpoint("GET", f"{API}/boards/{{board:path}}", get_operation("board.get", "board"),
             "A leaderboard page (docs/protocol.md)", "board.get",
             reply=reply_of("board.get"), errors=("board.unknown", "board.absent")),
    # ghost races (server/ghosts/__init__.py)
    post("/ghosts", "ghost.create", "Create a ghost race; its seed's commitment is shown now",
         ("game.unknown",), 201),
    Endpoint("GET", f"{API}/ghosts", ghosts, "The open ghost races, newest first (at most 50)",
             reply=replies.obj({"ghosts": {"type": "array", "items": replies.GHOST}})),
    Endpoint("GET", f"{API}/ghosts/{{ghost}}", get_operation("ghost.get", "ghost"),
             "A ghost race: its ranking and the ghost to beat; the seed and every transcript "
             "once revealed", "ghost.get", reply=reply_of("ghost.get"),
             errors=("ghost.unknown",)),
    post("/ghosts/{ghost}/enter", "ghost.enter",
         "Enter (once), or resume your run while it is in progress",
         ("ghost.unknown", "ghost.closed", "ghost.entered")),
    # Leagues (docs/protocol.md "Leagues")
    post("/leagues", "league.create", "Create a league; you own it and see its invite code",
         ("league.too_many",), 201),
    Endpoint("GET", f"{API}/leagues", get_operation("league.list"), "The leagues you are in",
             reply=reply_of("league.list")),
    post("/leagues/join", "league.join", "Join a league with its invite code",
         ("league.unknown", "league.joined", "league.full", "league.too_many",
          "rate.limited")),
    Endpoint("GET", f"{API}/leagues/{{league}}", get_operation("league.get", "league"),
             "A league you are in: its name, owner, members and invite code", "league.get",
             reply=reply_of("league.get"), errors=LEAGUE_ERRORS),
    post("/leagues/{league}/leave", "league.leave",
         "Leave a league (its owner leaving closes it)", LEAGUE_ERRORS),
    post("/leagues/{league}/remove", "league.remove", "Remove a member (the owner only)",
         (*LEAGUE_ERRORS, "league.not_owner", "league.not_member")),
    post("/leagues/{league}/code", "league.code",
         "A new invite code (the owner only); the old one stops working",
         (*LEAGUE_ERRORS, "league.not_owner")),
    # Arenas (server/arenas/__init__.py; docs/protocol.md, "Arenas")
    Endpoint("GET", f"{API}/arenas", arenas, "Upcoming and running arenas",
             reply=replies.obj({"arenas": {"type": "array", "items": replies.ARENA}}),
             auth="none"),
    Endpoint("POST", f"{API}/arenas", operator("arena.create", status=201),
             "The operator's: schedule an arena (Authorization: Bearer <the admin token>)",
             "arena.create", 201, replies.ARENA, auth="none",
             errors=("arena.forbidden", "game.unknown")),
    Endpoint("GET", f"{API}/arenas/{{arena}}", get_operation("arena.get", "arena"),
             "An arena: its rounds, players, winner", "arena.get", reply=replies.ARENA,
             errors=("arena.unknown",)),
    post("/arenas/{arena}/join", "arena.join", "Play every round of the arena from the next",
         ("arena.unknown", "arena.not_running", "arena.full", "arena.started")),
    post("/arenas/{arena}/leave", "arena.leave", "Play no more rounds of the arena",
         ("arena.unknown", "arena.not_player")),
    Endpoint("POST", f"{API}/arenas/{{arena}}/cancel", operator("arena.cancel", "arena"),
             "The operator's: cancel an arena (no more rounds, no winner, no next occurrence)",
             "arena.cancel", reply=replies.ARENA, auth="none",
             errors=("arena.forbidden", "arena.unknown")),
    # challenges by name (docs/protocol.md, "Challenges")
    post("/challenges", "challenge.send",
         "Challenge a player, by name or id, to race you on a rule set",
         ("game.unknown", "player.unknown", "player.ambiguous", "challenge.self",
          "challenge.too_many", "challenge.refused", "challenge.closed", "challenge.busy"), 201),
    post("/challenges/refuse", "challenge.refuse",
         "Refuse every challenge (refuse: true), or take them again (false)", ()),
    Endpoint("GET", f"{API}/challenges", get_operation("challenge.list"),
             "Challenges to you and from you: the pending first, then the newest",
             "challenge.list", reply=reply_of("challenge.list")),
    post("/challenges/{challenge}/accept", "challenge.accept",
         "Accept a challenge to you: a race on a new deal only the two of you may join, "
         "you seated in it", CHALLENGE_ERRORS),
    post("/challenges/{challenge}/decline", "challenge.decline", "Decline a challenge to you",
         CHALLENGE_ERRORS),
    post("/challenges/{challenge}/withdraw", "challenge.withdraw",
         "Withdraw a challenge you sent, before its answer", CHALLENGE_ERRORS),
]
ENDPOINTS = [limited(e) for e in ENDPOINTS]
