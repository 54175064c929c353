"""Matches: players taking turns or placing called cards on one deal (the match forms the
engine declares); a socket follows a match's events with ``match.subscribe`` (its ``Stream``: a
player is sent their own grid or lane, and a follower counts as the player's presence)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Follower, Operation, Socket, Stream
from ..transport import replies
from ..transport.endpoints import Endpoint
from ..transport.messages import (
    MatchCreate,
    MatchGet,
    MatchJoin,
    MatchLeave,
    MatchMove,
    MatchRematch,
    MatchStart,
    MatchSubscribe,
    MatchUnsubscribe,
)
from ..transport.reply_types import Match as MatchPayload
from ..transport.rest import API, caller, get, param, post, respond, services

MATCH_ERRORS = ("match.unknown",)


async def match_create(sv: Services, player: Player, body: MatchCreate) -> MatchPayload:
    return await sv.matches.create(player, body, body.get("present", False))


async def match_join(sv: Services, player: Player, body: MatchJoin) -> MatchPayload:
    return await sv.matches.join(player, body["match"], body.get("present", False))


async def match_rematch(sv: Services, player: Player, body: MatchRematch) -> MatchPayload:
    return await sv.matches.rematch(player, body["match"], body.get("present", False))


async def match_leave(sv: Services, player: Player, body: MatchLeave) -> MatchPayload:
    return await sv.matches.leave(player, body["match"])


async def match_start(sv: Services, player: Player, body: MatchStart) -> MatchPayload:
    return await sv.matches.start(player, body["match"])


async def match_get(sv: Services, player: Player, body: MatchGet) -> MatchPayload:
    return await sv.matches.summary(body["match"], player.id)


async def match_move(sv: Services, player: Player, body: MatchMove) -> MatchPayload:
    return await sv.matches.move(player, body["match"], body["move"])


async def subscribe(socket: Socket, kind: str, m: MatchSubscribe | MatchUnsubscribe
                    ) -> dict[str, Any] | None:
    """Follow a match's events from after ``after`` (the socket sends them), or stop."""
    if m["type"] == "match.unsubscribe":
        await socket.unfollow(m["match"])
        return {"type": "unsubscribed", "match": m["match"]}
    await socket.sv.matches.load(m["match"])  # match.unknown before subscribing
    await socket.follow(m["match"], m.get("after"), "match")
    return None


async def summary(sv: Services, mid: str, viewer: str | None) -> MatchPayload:
    return await sv.matches.summary(mid, viewer)


async def present(sv: Services, mid: str, pid: str, delta: int) -> None:
    await sv.matches.present(mid, pid, delta)


async def own_grid(socket: Follower, mid: str, event: dict[str, Any] | None,
                   summary: Mapping[str, Any] | None) -> None:
    """A called-card player's own grid and legal placements, when a card is called; a
    bowler's own lane and legal placements on their turn (``event``: the one just sent,
    whose ``turn`` says whether it is this player's)."""
    assert socket.player is not None
    if event is not None and "turn" in event and (
            (event["turn"] or {}).get("player") != socket.player.id):
        return  # a turns match's event that gives the turn to someone else
    grid = socket.sv.matches.own(await socket.sv.matches.load(mid), socket.player.id)
    if grid is None:
        return
    last = socket.sent(mid)
    if last is not None and grid["as_of"] > last:
        # The match moved on past the events this socket was sent (a catch-up racing the
        # start, events still on their way): send those first, so a grid never names a
        # card before the event that calls it to everyone.
        await socket.send_up_to(mid, grid["as_of"])
    # A catch-up and the event it raced with would send the same grid twice; a bowler's
    # cards that keep the turn change no event number, only their card's deadline.
    sent = (grid["as_of"], grid.get("deadline"))
    if socket.kept.get(mid) != sent:
        socket.kept[mid] = sent
        await socket.write({"type": "match.you", "match": mid, **grid})


#: The events after which a player is sent what is theirs alone (``match.you``): a
#: called-card player's grid, or the lane of the player whose turn the event gives.
OWNED = frozenset({"match.started", "match.card", "match.ended", "match.moved",
                   "match.forfeit"})


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
                 reply=replies.MATCH_TRANSCRIPT, auth="none",
                 errors=(*MATCH_ERRORS, "match.not_over")),
    ],
    streams=[Stream("match", summary, ended=frozenset({"match.ended"}), owned=OWNED,
                    own=own_grid, presence=present)],
    # the heartbeat, which takes back the match presence counted by nodes that died
    loops=lambda sv, stop: [sv.matches.beat(stop), sv.matches.run_timers(stop)],
    stop=stop,
)
