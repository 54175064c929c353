"""Matches: players taking turns or placing called cards on one deal (the match forms the
engine declares); a socket follows a match's events with ``match.subscribe``."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Operation, Socket
from ..transport import replies
from ..transport.endpoints import Endpoint
from ..transport.rest import API, caller, get, param, post, respond, services

MATCH_ERRORS = ("match.unknown",)


async def match_create(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.create(player, body, body.get("present", False))


async def match_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.join(player, body["match"], body.get("present", False))


async def match_rematch(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.rematch(player, body["match"], body.get("present", False))


async def match_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.leave(player, body["match"])


async def match_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.start(player, body["match"])


async def match_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.summary(body["match"], player.id)


async def match_move(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.move(player, body["match"], body["move"])


async def subscribe(socket: Socket, kind: str, m: dict[str, Any]) -> dict[str, Any] | None:
    """Follow a match's events from after ``after`` (the socket sends them), or stop."""
    if kind == "match.unsubscribe":
        await socket.unfollow(m["match"])
        return {"type": "unsubscribed", "match": m["match"]}
    await socket.sv.matches.load(m["match"])  # match.unknown before subscribing
    await socket.follow(m["match"], m.get("after"), match=True)
    return None


async def matches(request: Request) -> Response:
    await caller(request)
    return respond(request, {"matches": await services(request).matches.list_open()})


async def transcript(request: Request) -> Response:
    """A match's placements and seed: public once it is over, no token needed."""
    return respond(request, await services(request).matches.transcript(
        param(request, "match")))


async def stop(sv: Services) -> None:
    """This node's presence counts handed back (Redis away: the others time it out)."""
    await sv.matches.leave_nodes()


FEATURE = Feature(
    "matches",
    operations={
        "match.create": Operation(match_create, "match", copies_name=True, seats=True),
        "match.join": Operation(match_join, "match", copies_name=True, seats=True),
        "match.leave": Operation(match_leave, "match"),
        "match.start": Operation(match_start, "match"),
        "match.rematch": Operation(match_rematch, "match", seats=True),
        "match.get": Operation(match_get, "match"),
        "match.move": Operation(match_move, "match.ack"),
    },
    socket={"match.subscribe": subscribe, "match.unsubscribe": subscribe},
    endpoints=[
        post("/matches", "match.create", "Create a match of a rule set that has a match kind "
             "in the catalog; its seed's commitment is shown now",
             ("game.unknown", "match.game"), 201),
        Endpoint("GET", f"{API}/matches", matches, "The open matches",
                 reply=replies.obj({"matches": {"type": "array", "items": replies.OBJ}})),
        get("/matches/{match}", "match.get",
            "A match: players, scores, whose turn; your own grid", MATCH_ERRORS),
        post("/matches/{match}/join", "match.join", "Take a seat",
             (*MATCH_ERRORS, "match.full", "match.not_open", "match.joined",
              "match.not_invited")),
        post("/matches/{match}/leave", "match.leave",
             "Give up a seat, or leave a running match for good",
             (*MATCH_ERRORS, "match.not_player", "match.left", "match.done")),
        post("/matches/{match}/start", "match.start", "Start now (the creator only)",
             (*MATCH_ERRORS, "match.not_open", "match.not_creator", "match.too_few")),
        post("/matches/{match}/rematch", "match.rematch",
             "Ask for (or accept) a rematch of an ended match you played in: the same players "
             "on a new deal; you take a seat in it",
             (*MATCH_ERRORS, "match.not_player", "match.not_over", "match.not_open")),
        post("/matches/{match}/moves", "match.move", "Place your card",
             (*MATCH_ERRORS, "match.not_player", "match.not_running", "match.left",
              "match.wait", "match.done"), refusable=True),
        Endpoint("GET", f"{API}/matches/{{match}}/transcript", transcript,
                 "Every placement, the seed and the results, public once the match is over",
                 reply=replies.obj({"match": replies.STR, "seed": replies.HEX}), auth="none",
                 errors=(*MATCH_ERRORS, "match.not_over")),
    ],
    # the heartbeat first: it takes back the match presence counted by nodes that died
    sweeps=lambda sv: [sv.matches.keep_presence],
    loops=lambda sv, stop: [sv.matches.run_timers(stop)],
    stop=stop,
)
