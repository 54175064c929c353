"""Follow-ups: the work that follows a game's end, made durable.

The script that ends a game (a race's last entrant finishing, a match's last move, a ranked
daily attempt or a practice game ending) also adds the work still to do to the due set
(``store.DUE``), in the same atomic step: ending the race, recording results, ratings, the
daily board. The request that made the change does that work at once and takes the member
off; if its node dies first, or Redis fails part-way, any node's sweep takes the member over
once its grace has passed (``followup_grace``) and does the work again. Every piece of it is
idempotent per result, so doing it twice records it once (docs/server.md).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from . import script_replies, store
from .config import Settings

log = logging.getLogger("samedeal.followups")

#: Does the follow-up of one game, given its id; ``True`` when it is complete (or there is
#: nothing left to do), ``False`` to try again after another grace.
Handler = Callable[[str], Awaitable[bool]]


class FollowUps:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.handlers: dict[str, Handler] = {}
        self._claim = script_replies.bind(redis, store.CLAIM, script_replies.claimed)

    def handle(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    @property
    def grace_ms(self) -> int:
        return int(self.settings.followup_grace * 1000)

    async def run_due(self, limit: int = 100) -> int:
        """Take over and complete the follow-ups whose grace has passed; how many completed.
        Each is claimed first (held one grace more), so two sweeping nodes never share one."""
        now = await store.now_ms(self.redis)
        done = 0
        for raw in await self.redis.zrangebyscore(store.DUE, 0, now, start=0, num=limit):
            member = store.text(raw)
            if not await self._claim(keys=[store.DUE], args=[member, self.grace_ms]):
                continue
            log.info("taking over follow-up %s", member)
            kind, _, ident = member.partition(":")
            handler = self.handlers.get(kind)
            try:
                complete = handler is None or await handler(ident)
            except Exception:
                log.exception("follow-up %s failed; trying again later", member)
                continue
            if complete:
                await self.redis.zrem(store.DUE, member)
                done += 1
        return done
