"""The turn timer's loop (server/matches/timers.py), on a real redis-server: the placements due
together are made together, so a slow one holds up no other match."""

from __future__ import annotations

import asyncio

from server import store
from server.config import Settings
from server.matches.book import Book
from server.matches.timers import Timers
from tests.conftest import PATIENCE


async def test_a_slow_placement_holds_up_no_other_match(redis_url: str) -> None:
    # A database of its own: the suite's nodes run this loop on the shared one's due set.
    redis = store.connect(redis_url.rsplit("/", 1)[0] + "/10", timeout=10)
    await redis.delete(store.DUE_MATCHES)
    await redis.zadd(store.DUE_MATCHES, {"first": 0, "second": 0})
    stop = asyncio.Event()
    second_placed = asyncio.Event()
    placed: list[str] = []

    async def timeout(mid: str) -> None:
        if mid == "first":  # its placement waits for the other's: one after the other, never
            await second_placed.wait()
        placed.append(mid)
        await redis.zrem(store.DUE_MATCHES, mid)
        second_placed.set()
        if len(placed) == 2:
            stop.set()

    try:
        await asyncio.wait_for(Timers(Book(redis, Settings())).run(stop, timeout), PATIENCE)
        assert placed == ["second", "first"]
    finally:
        await redis.aclose()
