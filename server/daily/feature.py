"""The daily challenge: the day's deals, a ranked attempt or an unranked replay, the day's
page with its commitments and reveals, the chain of day secrets, and the live edition (a
scout-proof deal at one instant; its socket side is server/daily/live_socket.py)."""

from __future__ import annotations

from typing import cast

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player
from ..api import Services, daily_page, live_of
from ..feature import Feature, Operation
from ..sessions import session_payload
from ..transport import replies
from ..transport.endpoints import Endpoint
from ..transport.messages import DailyGet, DailyLiveGet, DailyLiveJoin, DailyLiveLeave, DailyStart
from ..transport.reply_types import Daily as DailyPayload
from ..transport.reply_types import Live
from ..transport.reply_types import Session as SessionPayload
from ..transport.rest import API, caller, get, post, query_body, respond, services
from . import day_of, live_socket, parse_day


async def daily_start(sv: Services, player: Player, body: DailyStart) -> SessionPayload:
    """A ranked attempt or an unranked replay. The transports note where a ranked attempt's
    start and moves come from (``Operation.noted``)."""
    s = await sv.daily.start(player, body["game"], body["variant"], body.get("ranked", True),
                             body.get("day"))
    out = session_payload(s)
    why = await sv.daily.unranked_reason(player.id, parse_day(s.daily)) if s.competitive else ""
    out["ranked"] = s.competitive and not why
    if why:
        out["unranked_reason"] = why
    return out


async def daily_get(sv: Services, player: Player, body: DailyGet) -> DailyPayload:
    """The day's page, and in each deal ``you``: the caller's standing on it."""
    page = await daily_page(sv, body)
    yours = await sv.daily.yours(player, parse_day(page["day"]))
    for deal in page["deals"]:
        deal["you"] = yours[(deal["game"], deal["variant"])]
    return page


async def live_join(sv: Services, player: Player, body: DailyLiveJoin) -> Live:
    return await live_of(sv).join(player, body["game"], body["variant"])


async def live_leave(sv: Services, player: Player, body: DailyLiveLeave) -> Live:
    return await live_of(sv).leave(player, body["game"], body["variant"])


async def live_get(sv: Services, player: Player, body: DailyLiveGet) -> Live:
    day = parse_day(body["day"]) if "day" in body else day_of(await sv.daily.clock())
    return await live_of(sv).view(day, player.id)


async def page(request: Request) -> Response:
    """Today's or a day's page: public, so that anyone can check a reveal; with a token, each
    deal also says where the caller stands on it (``daily.get``)."""
    body = cast(DailyGet, query_body(request, "daily.get",
                                     "day" if "day" in request.path_params else ""))
    if "authorization" in request.headers:
        return respond(request, await daily_get(services(request), await caller(request),
                                                body))
    return respond(request, await daily_page(services(request), body))


async def chain(request: Request) -> Response:
    """The chain of day secrets in use, and every chain made: public, no token needed."""
    sv = services(request)
    history = await sv.daily.chains.ensure(day_of(await sv.daily.clock()))
    current = history[-1].public() if history else None
    return respond(request, {"current": current, "history": [r.public() for r in history]})


async def stop(sv: Services) -> None:
    """The winnable-daily job's pool and the daily's own stopped."""
    sv.winnable.close()
    sv.daily.close()


FEATURE = Feature(
    "daily",
    operations={
        "daily.start": Operation(daily_start, "session", copies_name=True, noted=True),
        "daily.get": Operation(daily_get, "daily"),
        "daily_live.join": Operation(live_join, "daily_live", copies_name=True),
        "daily_live.leave": Operation(live_leave, "daily_live"),
        "daily_live.get": Operation(live_get, "daily_live"),
    },
    socket=dict.fromkeys(live_socket.KINDS, live_socket.handle),
    endpoints=[
        post("/daily", "daily.start",
             "Start (or resume) today's ranked attempt, or replay unranked",
             ("game.unknown", "daily.not_open", "daily.played", "daily.not_revealed",
              "daily.waiting"), 201),
        Endpoint("GET", f"{API}/daily", page,
                 "Today's daily deals and their commitments (with a token, your standing on "
                 "each)", "daily.get", auth="optional", operation="daily.get"),
        # the live edition (server/daily/live.py), before /daily/{day}
        get("/daily/live", "daily_live.get",
            "The day's live edition: its instant, commitments, sign-ups; yours marked",
            ("daily_live.off", "daily.not_open")),
        post("/daily/live/join", "daily_live.join",
             "Sign up for today's live edition: dealt at its instant with everyone signed up",
             ("game.unknown", "daily_live.off", "daily_live.not_live", "daily_live.started",
              "arena.full", "daily.waiting")),
        post("/daily/live/leave", "daily_live.leave", "Give up your place before the deal",
             ("game.unknown", "daily_live.off", "daily_live.not_live", "daily_live.started",
              "daily_live.not_player")),
        Endpoint("GET", f"{API}/daily/chain", chain,
                 "The chains of day secrets: the latest (anchor, start day, length) and every "
                 "one made, to publish elsewhere (docs/fairness.md)", auth="none",
                 reply=replies.obj({"current": replies.CHAIN,
                                    "history": {"type": "array", "items": replies.CHAIN}})),
        Endpoint("GET", f"{API}/daily/{{day}}", page,
                 "A day's deals: commitments, seeds once revealed", "daily.get",
                 auth="optional", errors=("daily.not_open",), operation="daily.get"),
    ],
    # attempts past their deadline closed, the reveals now due recorded, a missing beacon
    # round fetched (until it comes)
    sweeps=lambda sv: [sv.daily.close_due, sv.daily.reveal_due, sv.daily.rounds.fetch_today],
    # the winnable daily deals decided ahead (server/daily/winnable.py)
    loops=lambda sv, stop: [sv.winnable.run(stop)],
    stop=stop,
)
