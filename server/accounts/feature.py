"""Accounts: registering (REST only, within the registration limit per network), a player's
profile and statistics, and choosing a new display name."""

from __future__ import annotations

import math
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..api import Services
from ..daily import day_of
from ..errors import ApiError
from ..feature import Feature, Operation, Socket
from ..transport import replies
from ..transport.endpoints import Endpoint
from ..transport.messages import PlayerRename
from ..transport.reply_types import PlayerReply, Profile
from ..transport.rest import API, address_of, caller, param, read_body, respond, run, services
from . import Player


async def player_rename(sv: Services, player: Player, body: PlayerRename) -> PlayerReply:
    return {"player": (await sv.accounts.rename(player, body["name"])).public()}


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


async def profile(request: Request, who: Player) -> Profile:
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


async def answered(socket: Socket, reply: dict[str, Any]) -> None:
    """A socket's player renamed: what it copies from now on carries the new name."""
    if reply["type"] == "player" and socket.player is not None:
        socket.player = Player(socket.player.id, reply["player"]["name"], socket.player.kind)


PLAYER_REPLY = replies.obj({"player": replies.PLAYER, "token": replies.STR})

FEATURE = Feature(
    "accounts",
    operations={"player.rename": Operation(player_rename, "player")},
    endpoints=[
        Endpoint("POST", f"{API}/players", register, "Register; the token is shown once",
                 "player.register", 201, PLAYER_REPLY, auth="none", errors=("rate.limited",)),
        Endpoint("GET", f"{API}/players/me", me, "The caller's profile", reply=replies.PROFILE),
        Endpoint("PATCH", f"{API}/players/me", run("player.rename"),
                 "Choose a new display name", "player.rename", operation="player.rename"),
        Endpoint("GET", f"{API}/players/{{player}}", player,
                 "A player's public profile: statistics, streaks, ratings", reply=replies.PROFILE,
                 errors=("player.unknown",)),
        Endpoint("GET", f"{API}/players/{{player}}/stats", stats,
                 "Per rule set: played, won, best time, best and average score",
                 reply=replies.obj({"player": replies.STR, "stats": replies.STATS}),
                 errors=("player.unknown",)),
    ],
    # the leases of this node's sockets (server/accounts/limits.py)
    loops=lambda sv, stop: [sv.limits.run(stop)],
    answered=answered,
)
