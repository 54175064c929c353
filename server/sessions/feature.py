"""Practice games and every game's moves: the catalog of rule sets, starting a practice game,
a session's view, a move, an undo, a resignation, and a game's transcript."""

from __future__ import annotations

import functools
import time

from starlette.requests import Request
from starlette.responses import Response

import engine

from ..accounts import Player
from ..api import Change, Services, changed, transcript
from ..errors import ApiError
from ..feature import Feature, Handler, Operation
from ..transport import codec, replies
from ..transport.endpoints import Endpoint
from ..transport.messages import SessionGet, SoloStart
from ..transport.reply_types import Session as SessionPayload
from ..transport.rest import API, caller, param, post, reply_encoding, respond, services
from ..transport.web_files import Version, VersionResponse, pack
from . import session_payload

SESSION_ERRORS = ("session.unknown", "session.not_yours")


async def solo_start(sv: Services, player: Player, body: SoloStart) -> SessionPayload:
    s = await sv.sessions.start_solo(player, body["game"], body["variant"], body.get("seed"))
    return session_payload(s)


async def session_get(sv: Services, player: Player, body: SessionGet) -> SessionPayload:
    return session_payload(await sv.sessions.get(player, body["session"]))


def change(op: str) -> Handler[Change]:
    """Play, undo or resign: the session once stored (``repeated``: a change sent again)."""
    async def handler(sv: Services, player: Player, body: Change) -> SessionPayload:
        t0 = time.perf_counter()
        s, repeated = await changed(sv, player, body, op)
        out = session_payload(s)
        if repeated:
            out["repeated"] = True
        sv.metrics.moved(op, time.perf_counter() - t0)
        return out

    return handler


@functools.cache
def catalog(encoding: str) -> Version:
    """The catalog in one encoding, encoded and gzipped once: the engine's rule sets are the
    same for every caller and for the life of the process, so its tag is a digest of it."""
    sets = [r.describe() for r in engine.rule_sets()]
    raw = codec.encode({"rule_sets": sets, "count": len(sets)}, encoding)
    return pack(raw, codec.MEDIA[encoding], text=True)


async def games(request: Request) -> Response:
    """The catalog as the web client's files go (server/transport/web_files.py): gzip where
    accepted, a strong ETag, a 304 to a matching If-None-Match, ``Cache-Control: no-cache``.
    It is asked for on every page load and rarely changes; the token is still checked first."""
    await caller(request)
    return VersionResponse(catalog(reply_encoding(request)), vary="Accept")


async def game(request: Request) -> Response:
    await caller(request)
    try:
        rules = engine.get(param(request, "game"), param(request, "variant"))
    except engine.UnknownGame as e:
        raise ApiError("game.unknown", str(e)) from None
    return respond(request, rules.describe())


async def session(request: Request) -> Response:
    who = await caller(request)
    return respond(request, await session_get(services(request), who,
                                              {"type": "session.get",
                                               "session": param(request, "session")}))


async def moves(request: Request) -> Response:
    """A ranked game's transcript is public once its race or day is over: no token needed."""
    who = await caller(request) if "authorization" in request.headers else None
    return respond(request, await transcript(services(request), who,
                                             param(request, "session")))


FEATURE = Feature(
    "sessions",
    operations={
        "solo.start": Operation(solo_start, "session"),
        "session.get": Operation(session_get, "session"),
        "move": Operation(change("move"), "ack", noted=True),
        "undo": Operation(change("undo"), "ack", noted=True),
        "resign": Operation(change("resign"), "ack", noted=True),
    },
    endpoints=[
        Endpoint("GET", f"{API}/games", games, "The catalog: every rule set and its layout",
                 reply=replies.obj({"rule_sets": {"type": "array", "items": replies.OBJ},
                                    "count": replies.INT})),
        Endpoint("GET", f"{API}/games/{{game}}/{{variant}}", game, "One rule set",
                 reply=replies.obj({"id": replies.STR, "variant": replies.STR,
                                    "name": replies.STR}), errors=("game.unknown",)),
        post("/solo", "solo.start", "Start a practice game", ("game.unknown",), 201),
        Endpoint("GET", f"{API}/sessions/{{session}}", session,
                 "Your view of a session, with its legal moves", errors=SESSION_ERRORS,
                 operation="session.get"),
        post("/sessions/{session}/moves", "move", "Play a move",
             (*SESSION_ERRORS, "conflict", "race.not_started", "daily.closed"),
             refusable=True),
        Endpoint("GET", f"{API}/sessions/{{session}}/moves", moves,
                 "The move list with server times (a ranked game's is public after it, no "
                 "token needed)", reply=replies.SESSION_TRANSCRIPT,
                 auth="optional", errors=("auth.required", *SESSION_ERRORS, "session.hidden")),
        post("/sessions/{session}/undo", "undo", "Take back the last move",
             (*SESSION_ERRORS, "conflict"), refusable=True),
        post("/sessions/{session}/resign", "resign", "Give up the game",
             (*SESSION_ERRORS, "conflict"), refusable=True),
    ],
    # the due follow-ups of ended games that no node completed within their grace
    sweeps=lambda sv: [sv.followups.run_due],
)
