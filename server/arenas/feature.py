"""Arenas: scheduled events, a deal every few minutes for whoever joined; the operator
schedules and cancels them with the admin token (REST only). The socket's side, which
follows an arena's rounds, is server/arenas/live.py."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player, admin
from ..api import Services
from ..ended import RaceEnded
from ..feature import Feature, Listen, Operation
from ..transport import replies
from ..transport.endpoints import Endpoint, Handler
from ..transport.messages import ArenaGet, ArenaJoin, ArenaLeave
from ..transport.reply_types import Arena
from ..transport.rest import API, get, param, post, read_body, respond, services
from . import live


async def arena_join(sv: Services, player: Player, body: ArenaJoin) -> Arena:
    return await sv.arenas.join(player, body["arena"])


async def arena_leave(sv: Services, player: Player, body: ArenaLeave) -> Arena:
    return await sv.arenas.leave(player, body["arena"])


async def arena_get(sv: Services, player: Player, body: ArenaGet) -> Arena:
    return await sv.arenas.summary(body["arena"], player.id)


async def listing(request: Request) -> Response:
    """Upcoming and running arenas: public, no token needed."""
    return respond(request, {"arenas": await services(request).arenas.listing()})


def operator(kind: str, path: str = "", status: int = 200) -> Handler:
    """An operator's POST (``arena.create``, ``arena.cancel``): the admin token first."""

    async def endpoint(request: Request) -> Response:
        sv = services(request)
        admin.check(sv.settings, request.headers.get("authorization", ""))
        body = await read_body(request, kind, (path,) if path else ())
        if path:
            body[path] = param(request, path)
        if kind == "arena.cancel":
            return respond(request, await sv.arenas.cancel(body["arena"]), status)
        return respond(request, await sv.arenas.create(body), status)

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


async def race_ended(sv: Services, ended: RaceEnded) -> None:
    if not ended.ghost:  # an arena's round also scores on the arena's board
        await sv.arenas.scored(ended.results)


FEATURE = Feature(
    "arenas",
    operations={
        "arena.join": Operation(arena_join, "arena", copies_name=True),
        "arena.leave": Operation(arena_leave, "arena"),
        "arena.get": Operation(arena_get, "arena"),
    },
    socket=dict.fromkeys(live.KINDS, live.handle),
    endpoints=[
        Endpoint("GET", f"{API}/arenas", listing, "Upcoming and running arenas",
                 reply=replies.obj({"arenas": {"type": "array", "items": replies.ARENA}}),
                 auth="none"),
        Endpoint("POST", f"{API}/arenas", operator("arena.create", status=201),
                 "The operator's: schedule an arena (Authorization: Bearer <the admin token>)",
                 "arena.create", 201, replies.ARENA, auth="none",
                 errors=("arena.forbidden", "game.unknown")),
        get("/arenas/{arena}", "arena.get", "An arena: its rounds, players, winner",
            ("arena.unknown",)),
        post("/arenas/{arena}/join", "arena.join", "Play every round of the arena from the "
             "next", ("arena.unknown", "arena.not_running", "arena.full", "arena.started")),
        post("/arenas/{arena}/leave", "arena.leave", "Play no more rounds of the arena",
             ("arena.unknown", "arena.not_player")),
        Endpoint("POST", f"{API}/arenas/{{arena}}/cancel", operator("arena.cancel", "arena"),
                 "The operator's: cancel an arena (no more rounds, no winner, no next "
                 "occurrence)", "arena.cancel", reply=replies.ARENA, auth="none",
                 errors=("arena.forbidden", "arena.unknown")),
    ],
    # the rounds now due dealt, the arenas whose time is up ended (decided in Redis)
    sweeps=lambda sv: [sv.arenas.run_due],
    closed=live.leave_all,
    listens=[Listen(RaceEnded, race_ended)],
)
