"""Races: several players on one deal, from the seat to the ranking; a socket follows a race's
events with ``race.subscribe`` (its ``Stream``: an entrant is sent their own session as the race
starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Follower, Operation, Socket, Stream
from ..sessions import session_payload
from ..transport import replies
from ..transport.endpoints import Endpoint
from ..transport.messages import (
    RaceCreate,
    RaceJoin,
    RaceLeave,
    RaceRematch,
    RaceStart,
    RaceSubscribe,
    RaceUnsubscribe,
)
from ..transport.reply_types import Race
from ..transport.rest import API, caller, param, post, respond, services

RACE_ERRORS = ("race.unknown",)


async def race_create(sv: Services, player: Player, body: RaceCreate) -> Race:
    sv.metrics.races.labels("created").inc()
    return await sv.races.create(player, body)


async def race_join(sv: Services, player: Player, body: RaceJoin) -> Race:
    return await sv.races.join(player, body["race"])


async def race_leave(sv: Services, player: Player, body: RaceLeave) -> Race:
    return await sv.races.leave(player, body["race"])


async def race_start(sv: Services, player: Player, body: RaceStart) -> Race:
    sv.metrics.races.labels("started").inc()
    return await sv.races.start(player, body["race"])


async def race_rematch(sv: Services, player: Player, body: RaceRematch) -> Race:
    return await sv.races.rematch(player, body["race"])


async def subscribe(socket: Socket, kind: str, m: RaceSubscribe | RaceUnsubscribe
                    ) -> dict[str, Any] | None:
    """Follow a race's events from after ``after`` (the socket sends them), or stop."""
    if m["type"] == "race.unsubscribe":
        await socket.unfollow(m["race"])
        return {"type": "unsubscribed", "race": m["race"]}
    await socket.sv.races.summary(m["race"])  # race.unknown before subscribing
    await socket.follow(m["race"], m.get("after"), "race")
    return None


async def summary(sv: Services, rid: str, viewer: str | None) -> Race:
    return await sv.races.summary(rid)  # the same for everyone


async def own_session(socket: Follower, rid: str, event: dict[str, Any] | None,
                      summary: Mapping[str, Any] | None) -> None:
    """An entrant's own session, once the race has started (``race.started`` names every
    entrant's; a summary, the entrants' that have one)."""
    assert socket.player is not None
    if event is not None:
        sessions = event["sessions"]
    else:
        summary = summary or await socket.sv.races.summary(rid)
        sessions = {e["player"]: e["session"] for e in summary["entrants"] if "session" in e}
    sid = sessions.get(socket.player.id)
    if sid is not None:
        s = await socket.sv.sessions.get(socket.player, sid)
        await socket.write({"type": "session", **session_payload(s)})


async def races(request: Request) -> Response:
    await caller(request)
    return respond(request, {"races": await services(request).races.list_open()})


async def race(request: Request) -> Response:
    await caller(request)
    return respond(request, await services(request).races.summary(param(request, "race")))


async def results(request: Request) -> Response:
    await caller(request)
    return respond(request, await services(request).races.results(param(request, "race")))


FEATURE = Feature(
    "races",
    operations={
        "race.create": Operation(race_create, "race", copies_name=True),
        "race.join": Operation(race_join, "race", copies_name=True),
        "race.leave": Operation(race_leave, "race"),
        "race.start": Operation(race_start, "race"),
        "race.rematch": Operation(race_rematch, "race"),
    },
    socket={"race.subscribe": subscribe, "race.unsubscribe": subscribe},
    endpoints=[
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
             "Ask for (or accept) a rematch of an ended race you were in: the same entrants "
             "on a new deal; you take a seat in it",
             (*RACE_ERRORS, "race.not_entrant", "race.not_over", "race.not_open",
              "race.bot_rematch", "ghost.entered")),
        Endpoint("GET", f"{API}/races/{{race}}/results", results,
                 "The ranking and the revealed seed",
                 reply=replies.RACE_RESULTS,
                 errors=(*RACE_ERRORS, "race.not_over")),
    ],
    streams=[Stream("race", summary, ended=frozenset({"race.ended"}),
                    owned=frozenset({"race.started"}), own=own_session)],
    sweeps=lambda sv: [sv.races.end_due],  # races past their time limit ended
)
