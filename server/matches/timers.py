"""The turn timer: one sorted set of deadlines (``sd:matches:due``) that every node watches;
whichever node finds a deadline passed makes the timer's placement, and the scripts' revision
and round checks let only one of them do it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .. import store
from ..errors import ApiError
from ..loops import pause
from .book import Book
from .record import Match

log = logging.getLogger("samedeal.matches")


class Timers:
    def __init__(self, book: Book) -> None:
        self.book = book

    def due_at(self, m: Match, now: int) -> int | None:
        """When the timer places for the players the match waits for: at the turn's deadline;
        later while one of them is away within the grace period; at a quick pace
        (``absent_pace``) once all of them have been away longer than that. No turn waits past
        ``turn_time`` + ``grace`` from when its card was shown, so leaving and coming back
        again and again cannot stall the others."""
        awaited = m.awaited()
        if not awaited:
            return None
        due = int(m.meta["deadline"])
        grace = m.meta["grace"] * 1000
        last = m.meta["shown_at"] + m.meta["turn_time"] * 1000 + grace
        ends = [min(a + grace, last) for a in map(m.away_since, awaited) if a is not None]
        if ends and max(ends) > now:
            return int(max(due, *ends))
        if ends and len(ends) == len(awaited):
            pace = int(self.book.settings.absent_pace * 1000)
            return int(min(due, max(m.meta["shown_at"], *ends) + pace))
        return due

    async def schedule(self, m: Match) -> None:
        """Put the match's next timer placement in the deadlines (or take it out)."""
        redis = self.book.redis
        due = self.due_at(m, await self.book.now())
        if due is None:
            await redis.zrem(store.DUE_MATCHES, m.id)
        else:
            await redis.zadd(store.DUE_MATCHES, {m.id: due})

    async def run(self, stop: asyncio.Event, timeout: Callable[[str], Awaitable[None]]) -> None:
        """Every node, until ``stop``: sleep until the earliest deadline (at most
        ``sweep_interval``), then make the due placements (``timeout``) together, so that a
        slow placement holds up no other match. Nodes may overlap; the scripts let one
        placement through. A failing store only delays the timers."""
        redis, settings = self.book.redis, self.book.settings
        while not stop.is_set():
            try:
                first = await redis.zrange(store.DUE_MATCHES, 0, 0, withscores=True)
                now = await self.book.now()
                wait = settings.sweep_interval
                if first:
                    wait = min(wait, max(0.0, (float(first[0][1]) - now) / 1000))
                if await pause(stop, max(wait, 0.02)):
                    return
                now = await self.book.now()
                due = await redis.zrangebyscore(store.DUE_MATCHES, 0, now)
                await asyncio.gather(*(place(timeout, store.text(mid)) for mid in due))
            except (RedisConnectionError, RedisTimeoutError) as e:  # one line, not a trace
                log.warning("the match timers could not reach the store (%s); trying again", e)
                if await pause(stop, settings.sweep_interval):
                    return
            except Exception:
                log.exception("the match timers could not read the store; trying again")
                if await pause(stop, settings.sweep_interval):
                    return


async def place(timeout: Callable[[str], Awaitable[None]], mid: str) -> None:
    """One match's due placement; a refusal or a failure is that match's alone."""
    try:
        await timeout(mid)
    except ApiError as e:  # a move or another node's timer came first
        log.debug("the turn timer for match %s was refused: %s", mid, e.code)
    except Exception:
        log.exception("the turn timer failed for match %s", mid)
