"""The operations behind both transports: each takes the caller and a checked body and
returns the reply's payload. REST routes and WebSocket messages are thin layers over these."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from .accounts import Accounts, Player
from .config import Settings
from .errors import ApiError
from .events import Hub
from .metrics import Metrics
from .races import Races
from .sessions import Sessions, session_payload


@dataclass
class Services:
    settings: Settings
    redis: Redis
    accounts: Accounts
    sessions: Sessions
    races: Races
    hub: Hub
    metrics: Metrics


Handler = Callable[[Services, Player, dict[str, Any]], Awaitable[dict[str, Any]]]


async def solo_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    s = await sv.sessions.start_solo(player, body["game"], body["variant"], body.get("seed"))
    return session_payload(s)


async def session_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return session_payload(await sv.sessions.get(player, body["session"]))


def _change(op: str) -> Handler:
    async def change(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
        t0 = time.perf_counter()
        s = await sv.sessions.change(player, body["session"], op, body.get("move"),
                                     body.get("rev"))
        out = session_payload(s)
        sv.metrics.moves.labels(op).inc()
        sv.metrics.latency.observe(time.perf_counter() - t0)
        return out

    return change


async def race_create(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    sv.metrics.races.labels("created").inc()
    return await sv.races.create(player, body)


async def race_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.races.join(player, body["race"])


async def race_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.races.leave(player, body["race"])


async def race_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    sv.metrics.races.labels("started").inc()
    return await sv.races.start(player, body["race"])


#: message type -> (operation, reply type on the WebSocket)
OPERATIONS: dict[str, tuple[Handler, str]] = {
    "solo.start": (solo_start, "session"),
    "session.get": (session_get, "session"),
    "move": (_change("move"), "ack"),
    "undo": (_change("undo"), "ack"),
    "resign": (_change("resign"), "ack"),
    "race.create": (race_create, "race"),
    "race.join": (race_join, "race"),
    "race.leave": (race_leave, "race"),
    "race.start": (race_start, "race"),
}


async def transcript(sv: Services, player: Player, sid: str) -> dict[str, Any]:
    """A session's moves: its player's at any time; a race entrant's for anyone once the race
    is over, with the seed. A practice seed shows when the player chose it or the game ended."""
    s = await sv.sessions.load(sid)
    if s.race:
        race = await sv.races.summary(s.race)
        over = race["state"] == "ended"
        if not over and s.player != player.id:
            raise ApiError("session.hidden", "a race entrant's moves are shown after the race")
        return await sv.sessions.transcript(sid, reveal=over)
    if s.player != player.id:
        raise ApiError("session.not_yours", "that session is another player's")
    return await sv.sessions.transcript(sid, reveal=s.reveal or s.state.over)
