"""The operator's side of arenas (``samedeal arena create/list/cancel``), straight in the
servers' Redis, as the admin REST calls do it: the servers' sweeps take it from there."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from .. import store
from ..boards import Boards
from ..config import Settings
from ..races import Races
from ..sessions import Sessions
from ..transport.reply_types import Arena
from . import Arenas

UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def seconds(text: str) -> int:
    """``90``, ``90s``, ``5m``, ``1h``, ``1d``: a span in whole seconds."""
    found = re.fullmatch(r"\s*(\d+)\s*([smhd]?)\s*", text)
    if found is None:
        raise ValueError(f"a span is a number with s, m, h or d after it (5m), not {text!r}")
    return int(found.group(1)) * UNITS[found.group(2)]


def start_ms(text: str, now_ms: int) -> int:
    """``now``, ``+10m`` (from now) or an ISO time (UTC unless it says otherwise)."""
    if text == "now":
        return now_ms
    if text.startswith("+"):
        return now_ms + seconds(text[1:]) * 1000
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"a start is now, +10m or an ISO time, not {text!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp() * 1000)


async def run(url: str, action: str, **opts: Any) -> list[Arena]:
    """Do ``action``; the arenas it made, cancelled or lists."""
    redis = store.connect(url)
    try:
        settings = Settings()

        async def nothing(*_: Any) -> None:
            return None

        races = Races(redis, settings, Sessions(redis, settings, nothing), nothing)
        arenas = Arenas(redis, settings, races, Boards(redis))
        if action == "create":
            body = {"game": opts["game"], "variant": opts["variant"],
                    "duration": seconds(opts["duration"]),
                    "interval": seconds(opts["interval"]),
                    "repeat": seconds(opts["repeat"]) if opts.get("repeat") else 0,
                    "starts_at": start_ms(opts.get("start") or "now",
                                          await store.now_ms(redis))}
            if opts.get("name"):
                body["name"] = opts["name"]
            return [await arenas.create(body)]
        if action == "cancel":
            return [await arenas.cancel(opts["arena"])]
        return await arenas.listing()
    finally:
        await store.close(redis)
