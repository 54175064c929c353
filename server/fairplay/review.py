"""The review queue: flagged ranked daily results wait here, off the public boards, until a
moderator clears them (the result then goes on the boards as it would have) or removes them
(it stays off for good).

A held result earns nothing while it waits: no daily board entry, no points on the weekly
and all-time boards, no won streak, no statistics; clearing records it exactly as an
unflagged result is recorded (server/boards/records.py), so removing has nothing to take back.
Each held result is one JSON record in one hash, keyed by the attempt, with its status
(``pending``, ``cleared``, ``removed``) and its integrity evidence; a sorted set lists the
pending ones by finish time. Its player reads the status on the day's page
(``daily.get``); nobody else sees a held result or its evidence.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import date
from typing import NotRequired, TypedDict, cast

from redis.asyncio import Redis

from .. import store
from ..accounts import Accounts, Player
from ..boards.records import Records
from ..errors import ApiError
from ..sessions import Session, Sessions
from ..transport.reply_types import YouDealReview
from .integrity import Signal

ENTRIES, PENDING = "sd:{review}:entries", "sd:{review}:pending"
STATUSES = ("pending", "cleared", "removed")

# KEYS: entries, pending; ARGV: attempt, its record, its finish time. One step, so a crash
# cannot leave a held result out of the queue; a retry keeps the first record and its status.
HOLD = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
return 0
"""

# KEYS: entries, pending; ARGV: attempt, the record as read, the record decided. Changes it
# only if nobody decided it meanwhile; 1 if it did.
DECIDE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""


class Held(TypedDict):
    """A held result: the attempt, its player, the result as it ended, its review status
    and, once decided, when (ms)."""

    session: str
    player: str
    name: str
    kind: str
    day: str
    game: str
    variant: str
    status: YouDealReview
    result: str
    score: int
    moves: int
    finished_at: int
    walked_away: bool
    integrity: Signal
    decided_at: NotRequired[int]


def held(raw: bytes | str) -> Held:
    """A held result as kept (its JSON)."""
    return cast(Held, json.loads(raw))


async def pending(redis: Redis) -> list[Held]:
    """The results waiting for review, oldest first."""
    sids = [store.text(s) for s in await redis.zrange(PENDING, 0, -1)]
    raw = await redis.hmget(ENTRIES, sids) if sids else []
    return [held(r) for r in raw if r is not None]


class Reviews:
    def __init__(self, redis: Redis, accounts: Accounts, sessions: Sessions,
                 records: Records,
                 cleared: Callable[[str], Awaitable[None]] | None = None) -> None:
        self.redis = redis
        #: What else a cleared result is owed: its analysis queued, as the day's board
        #: entries' were at the reveal (server/analyses/__init__.py).
        self.cleared = cleared
        self.accounts = accounts
        self.sessions = sessions
        self.records = records
        self._hold = store.script(redis, HOLD)
        self._decide = store.script(redis, DECIDE)

    async def hold(self, player: Player, s: Session, day: date, finished_at: int,
                   walked_away: bool, integrity: Signal) -> None:
        """Keep a flagged result for review (a retry keeps the first record and its status)."""
        st = s.state
        record: Held = {"session": s.id, "player": player.id, "name": player.name,
                        "kind": player.kind, "day": day.isoformat(), "game": s.rules.id,
                        "variant": s.rules.variant, "status": "pending", "result": st.status,
                        "score": st.score, "moves": st.ply, "finished_at": finished_at,
                        "walked_away": walked_away, "integrity": integrity}
        await self._hold(keys=[ENTRIES, PENDING],
                         args=[s.id, json.dumps(record, sort_keys=True), finished_at])

    async def statuses(self, sids: list[str]) -> list[YouDealReview | None]:
        """Each attempt's review status, or None: never held."""
        if not sids:
            return []
        raw = await self.redis.hmget(ENTRIES, sids)
        return [None if r is None else held(r)["status"] for r in raw]

    async def queue(self) -> list[Held]:
        return await pending(self.redis)

    async def decide(self, sid: str, verdict: str) -> Held:
        """``clear`` (record the result on the boards) or ``remove`` (keep it off) a pending
        result; the record as decided. A result already decided is refused."""
        raw = await self.redis.hget(ENTRIES, sid)
        if raw is None:
            raise ApiError("review.unknown", f"no result {sid[:64]!r} was held for review")
        record = held(raw)
        if record["status"] != "pending":
            raise ApiError("review.decided", f"that result was {record['status']} already")
        if verdict == "clear":  # idempotent writes, so a retry after a failure is safe
            if self.cleared is not None:
                await self.cleared(sid)
            s = await self.sessions.load(sid)
            player = await self.accounts.get(record["player"])
            await self.records.daily_result(player, s, date.fromisoformat(record["day"]),
                                            record["finished_at"], record["walked_away"],
                                            record["integrity"])
        record["status"] = "cleared" if verdict == "clear" else "removed"
        record["decided_at"] = await store.now_ms(self.redis)
        if not await self._decide(keys=[ENTRIES, PENDING],
                                  args=[sid, raw, json.dumps(record, sort_keys=True)]):
            raise ApiError("review.decided", "that result was decided meanwhile")
        return record
