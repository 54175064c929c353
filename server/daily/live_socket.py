"""A socket's side of the daily's live edition (server/daily/live.py): ``daily_live.join``,
``daily_live.leave`` and ``daily_live.get`` on the WebSocket. After each, the socket follows
every edition of the day its player is in and that has not ended (it stops following one it
left), through the edition's arena channel (server/arenas/live.py), and is pushed
``daily_live.dealt`` (with the player's own session, so the client opens the game at once) and
``daily_live.ended``. A client that reconnects sends ``daily_live.get`` again: the reply says
whether it was dealt, and its session."""

from __future__ import annotations

from datetime import date
from typing import Any

import engine

from ..api import live_of
from ..arenas import live as arena_live
from ..transport.messages import DailyLiveGet, DailyLiveJoin, DailyLiveLeave
from .live import edition_id

KINDS = frozenset({"daily_live.join", "daily_live.leave", "daily_live.get"})


async def handle(socket: arena_live.Socket, kind: str,
                 m: DailyLiveJoin | DailyLiveLeave | DailyLiveGet) -> dict[str, Any]:
    assert socket.player is not None
    op = socket.sv.operations[kind]
    out = await op.handler(socket.sv, socket.player, m)
    day = date.fromisoformat(out["day"])
    for e in out["editions"]:
        aid = edition_id(day, engine.get(e["game"], e["variant"]))
        if e.get("joined") and e["state"] != "ended":
            await arena_live.follow(socket, aid, shaper(socket.player.id, day, e),
                                    resender(socket, day))
        else:
            await arena_live.unfollow(socket, aid)
    return {"type": op.reply, **out}


def shaper(player: str, day: date, edition: dict[str, Any]) -> arena_live.Shape:
    """The edition's arena events in the edition's words, the player's own session named."""
    where = {"day": day.isoformat(), "game": edition["game"], "variant": edition["variant"]}

    def shape(event: dict[str, Any]) -> dict[str, Any]:
        if event.get("type") == "arena.round":
            return {"type": "daily_live.dealt", **where, "race": event["race"],
                    "commitment": event["commitment"], "starts_at": event["starts_at"],
                    "ends_at": event["ends_at"],
                    "session": event.get("sessions", {}).get(player)}
        return {"type": "daily_live.ended", **where, "board": edition["board"]}

    return shape


def resender(socket: arena_live.Socket, day: date) -> arena_live.Resend:
    async def resend() -> dict[str, Any]:
        assert socket.player is not None
        return {"type": "daily_live", **await live_of(socket.sv).view(day, socket.player.id)}

    return resend
