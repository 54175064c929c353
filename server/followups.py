"""Follow-ups: the work that follows a game's end, made durable.

Before a change that may end a game (a move that finishes a game or a race entry, a match's
last move or placement, a race's start with its time limit, a race's or match's end), the work
that end would leave is expected on the due set (``store.DUE``): ending the race, recording
results, ratings, the daily board. The request that made the change does that work at once
and forgets the member; if its node dies first, or Redis fails part-way, any node's sweep takes
the member over once its grace has passed (``followup_grace``) and does the work again. Every
piece of it is idempotent per result, so doing it twice records it once (docs/server.md).

Expected first, not in the change's own script: on a Redis Cluster the due set and the game
live on different shards, and no script spans two. A crash between the two steps leaves a
member whose game has nothing to do yet ("idle"), never an ended game with nothing due. An idle
member is kept, looked at again after each grace, until its last expectation is older than
``horizon`` (a change lands within its store deadline of being sent, or never): only then is
it dropped. Each expectation is stamped, and a sweep settles a member only if no expectation
came after the one it saw, so a member expected again meanwhile is never lost.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from redis.asyncio import Redis

from . import store
from .config import Settings
from .store import script_replies, scripts

log = logging.getLogger("samedeal.followups")

#: What a handler found: its work is done (or there is none and can be none); nothing to do
#: unless a change still lands ("idle"); or, as a server ms, when to look again (a running
#: race: its time limit).
Outcome = Literal["done", "idle"] | int
DONE: Outcome = "done"
IDLE: Outcome = "idle"
#: Does the follow-up of one game, given its id.
Handler = Callable[[str], Awaitable[Outcome]]


def grace_ms(settings: Settings) -> int:
    return int(settings.followup_grace * 1000)


class Expected:
    """Puts a follow-up on the due set before the change that may leave it."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.settings = settings
        self._expect = store.script(redis, scripts.EXPECT)
        self._settle = store.script(redis, scripts.SETTLE)

    async def soon(self, member: str) -> int:
        """``member`` (``store.follow_up``) due a grace from now (the store's clock), unless
        due sooner already; the expectation's stamp."""
        stamp: int = await self._expect(keys=[store.DUE, store.EXPECTED],
                                        args=[member, grace_ms(self.settings), ""])
        return stamp

    async def at(self, member: str, at_ms: int) -> int:
        """``member`` due at ``at_ms``, unless due sooner already; the expectation's stamp."""
        stamp: int = await self._expect(keys=[store.DUE, store.EXPECTED],
                                        args=[member, 0, at_ms])
        return stamp

    async def met(self, member: str, stamp: int, then_ms: int | None = None) -> None:
        """The change expected by ``stamp`` is made and its follow-up done: drop ``member``,
        or make it due at ``then_ms`` (a race now running: its time limit), unless it was
        expected again since (that expectation stands)."""
        await self._settle(keys=[store.DUE, store.EXPECTED],
                           args=[member, stamp, "" if then_ms is None else then_ms])


async def forget(redis: Redis, member: str) -> None:
    """The request that made the change did the follow-up itself: nothing is due."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.zrem(store.DUE, member)
        pipe.hdel(store.EXPECTED, member)
        await pipe.execute()


class FollowUps:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.handlers: dict[str, Handler] = {}
        self._claim = script_replies.bind(redis, scripts.CLAIM, script_replies.claimed)
        self._settle = script_replies.bind(redis, scripts.SETTLE, script_replies.settled)

    def handle(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    @property
    def horizon_ms(self) -> int:
        """How long after its last expectation a member may still see its change land: six
        store deadlines (the change is sent as soon as the expectation is answered, and a
        call that outlives its deadline closes its connection)."""
        return int(6 * self.settings.store_timeout * 1000)

    async def run_due(self, limit: int = 100) -> int:
        """Take over and complete the follow-ups whose grace has passed; how many completed.
        Each is claimed first (held one grace more), so two sweeping nodes never share one."""
        now = await store.now_ms(self.redis)
        done = 0
        keys = [store.DUE, store.EXPECTED]
        for raw in await self.redis.zrangebyscore(store.DUE, 0, now, start=0, num=limit):
            member = store.text(raw)
            seen = await self._claim(keys=keys, args=[member, grace_ms(self.settings)])
            if seen < 0:
                continue  # not due any more, or another node took it
            log.info("taking over follow-up %s", member)
            kind, _, ident = member.partition(":")
            handler = self.handlers.get(kind)
            try:
                outcome = DONE if handler is None else await handler(ident)
            except Exception:
                log.exception("follow-up %s failed; trying again later", member)
                continue
            fresh = now - seen < self.horizon_ms  # a change it expected may still land
            if outcome == DONE or (outcome == IDLE and not fresh):
                done += await self._settle(keys=keys, args=[member, seen, ""])
            elif outcome != IDLE and not fresh:  # look again at that time; sooner if expected
                at = max(int(outcome), now + grace_ms(self.settings))
                await self._settle(keys=keys, args=[member, seen, at])
            # else: claimed, so looked at again after a grace
        return done
