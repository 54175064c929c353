"""Ghost races: a deal raced against the runs recorded on it before, open for a while."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player
from ..api import Services
from ..ended import RaceEnded
from ..feature import Feature, Listen, Operation, Socket
from ..transport import replies
from ..transport.endpoints import Endpoint
from ..transport.messages import GhostCreate, GhostEnter, GhostGet
from ..transport.reply_types import Ghost, GhostEntry
from ..transport.rest import API, caller, get, post, respond, services
from .replay import Replays


async def ghost_create(sv: Services, player: Player, body: GhostCreate) -> Ghost:
    return await sv.ghosts.create(player, body)


async def ghost_enter(sv: Services, player: Player, body: GhostEnter) -> GhostEntry:
    return await sv.ghosts.enter(player, body["ghost"])


async def ghost_get(sv: Services, player: Player, body: GhostGet) -> Ghost:
    return await sv.ghosts.summary(body["ghost"])


async def listing(request: Request) -> Response:
    """The open ghost races, newest first (at most 50)."""
    await caller(request)
    return respond(request, {"ghosts": await services(request).ghosts.list_open()})


async def answered(socket: Socket, reply: dict[str, Any]) -> None:
    """A run entered or resumed: the earlier runs are replayed to this socket as it plays."""
    if reply["type"] == "ghost.entry" and socket.player is not None:
        replays = socket.own.setdefault("ghosts", Replays())
        replays.start(socket.sv, socket.push, reply["ghost"]["ghost"], socket.player.id)


async def closed(socket: Socket) -> None:
    replays = socket.own.get("ghosts")
    if replays is not None:  # every replay ends with the socket
        replays.stop()


async def race_ended(sv: Services, ended: RaceEnded) -> None:
    if ended.ghost:  # a run: its timeline, its place on the board, perhaps the reveal
        await sv.ghosts.run_over(ended.results)


FEATURE = Feature(
    "ghosts",
    operations={
        "ghost.create": Operation(ghost_create, "ghost"),
        "ghost.enter": Operation(ghost_enter, "ghost.entry"),
        "ghost.get": Operation(ghost_get, "ghost"),
    },
    endpoints=[
        post("/ghosts", "ghost.create", "Create a ghost race; its seed's commitment is shown "
             "now", ("game.unknown",), 201),
        Endpoint("GET", f"{API}/ghosts", listing,
                 "The open ghost races, newest first (at most 50)",
                 reply=replies.obj({"ghosts": {"type": "array", "items": replies.GHOST}})),
        get("/ghosts/{ghost}", "ghost.get",
            "A ghost race: its ranking and the ghost to beat; the seed and every transcript "
            "once revealed", ("ghost.unknown",)),
        post("/ghosts/{ghost}/enter", "ghost.enter",
             "Enter (once), or resume your run while it is in progress",
             ("ghost.unknown", "ghost.closed", "ghost.entered")),
    ],
    # ghost races whose time is up closed, closed ones revealed
    sweeps=lambda sv: [sv.ghosts.sweep],
    answered=answered,
    closed=closed,
    listens=[Listen(RaceEnded, race_ended)],
)
