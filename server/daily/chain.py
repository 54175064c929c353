"""The daily chains of day secrets, kept in Redis for every node (docs/fairness.md).

The first chain is made at first use (or by ``samedeal chain init``) and starts on the next
UTC day, so no day already open changes; a rotation makes a new chain that starts on a later
day. Each chain's public record (anchor, start, length, when made, why) is appended to a public
history; its root is kept apart and never leaves the server. The chain for a day is the last one
that starts on or before it; days before the first chain keep the older secret.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any

from redis.asyncio import Redis

from engine import fairness

from .. import store

log = logging.getLogger("samedeal")

HISTORY, ROOTS = "sd:{daily}:chains", "sd:{daily}:chain:roots"

# Append a chain to the history, its root alongside, if it starts after every chain there and
# on or after the first day allowed. KEYS: history, roots. ARGV: record JSON, start (ISO day),
# earliest start (ISO day), anchor hex, root hex, only_if_empty (1/0). Returns the history
# length after, or 0 when refused; the comparison is of ISO days as text.
ADD = """
local n = redis.call('LLEN', KEYS[1])
if ARGV[6] == '1' and n > 0 then return n end
if ARGV[2] < ARGV[3] then return 0 end
if n > 0 then
  local last = cjson.decode(redis.call('LINDEX', KEYS[1], -1))
  if ARGV[2] <= last['start'] then return 0 end
end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


class ChainRefused(ValueError):
    """A rotation that would change a day already open, or start before a later chain."""


@dataclass(frozen=True)
class ChainRecord:
    """A chain's public record, as published in the history."""

    anchor: str  # hex
    start: str  # YYYY-MM-DD, the day of link 0
    length: int
    created: int  # ms
    reason: str

    @property
    def start_day(self) -> date:
        return date.fromisoformat(self.start)

    def covers(self, day: date) -> bool:
        return 0 <= fairness.day_index(self.start_day, day) < self.length

    def public(self) -> dict[str, Any]:
        return asdict(self)


class Chains:
    """Reads and makes chains; caches each chain's secrets (one walk of the chain each)."""

    def __init__(self, redis: Redis, length: int = fairness.DEFAULT_LENGTH,
                 log_new: bool = True) -> None:
        self.redis = redis
        self.length = length
        self._secrets: dict[str, list[bytes]] = {}
        self._seen = 0 if log_new else 1 << 62  # history entries this process has logged

    async def history(self) -> list[ChainRecord]:
        raw = await self.redis.lrange(HISTORY, 0, -1)
        out = [ChainRecord(**json.loads(r)) for r in raw]
        if len(out) > self._seen:  # every node's log shows each new chain once
            for r in out[self._seen:]:
                log.warning("daily chain %s starts %s (%d days): %s", r.anchor, r.start,
                            r.length, r.reason)
            self._seen = len(out)
        return out

    async def add(self, start: date, earliest: date, reason: str, first: bool = False,
                  length: int | None = None) -> ChainRecord | None:
        """Make a chain starting on ``start`` (not before ``earliest``, after every chain in
        the history); with ``first``, only if there is none yet. The record added, or None
        when ``first`` found a chain already."""
        length = length or self.length
        root = os.urandom(32)
        anchor = await asyncio.to_thread(fairness.anchor, root, length)
        record = ChainRecord(anchor.hex(), start.isoformat(), length, await store.now_ms(
            self.redis), reason)
        n = await self.redis.eval(ADD, 2, HISTORY, ROOTS, json.dumps(record.public()),
                                  record.start, earliest.isoformat(), record.anchor,
                                  root.hex(), "1" if first else "0")
        if n == 0:
            raise ChainRefused(f"a new chain starts after today ({earliest - timedelta(1)}) "
                               "and after every chain already made")
        history = await self.history()
        return record if history[-1] == record else None

    async def ensure(self, today: date) -> list[ChainRecord]:
        """The history, with a first chain (from tomorrow) made if there is none."""
        history = await self.history()
        if not history:
            await self.add(today + timedelta(1), today + timedelta(1),
                           "the first chain, made at first use", first=True)
            history = await self.history()
        return history

    @staticmethod
    def for_day(history: list[ChainRecord], day: date) -> ChainRecord | None:
        """The chain whose link is ``day``'s secret: the last starting on or before it."""
        found = [r for r in history if r.start_day <= day]
        return found[-1] if found else None

    async def secret(self, record: ChainRecord, day: date) -> bytes:
        if not record.covers(day):  # never fall back to another secret: fail loudly
            raise RuntimeError(f"chain {record.anchor} ended before {day}: rotate to a new "
                               "chain (samedeal chain rotate, docs/operations.md)")
        secrets = self._secrets.get(record.anchor)
        if secrets is None:
            raw = await self.redis.hget(ROOTS, record.anchor)
            if raw is None:  # never derive from a made-up root: the anchor would not match
                raise RuntimeError(f"the root of chain {record.anchor} is missing from Redis: "
                                   "restore it from a backup (docs/operations.md)")
            root = bytes.fromhex(store.text(raw))
            secrets = await asyncio.to_thread(fairness.all_secrets, root, record.length)
            self._secrets[record.anchor] = secrets
        return secrets[fairness.day_index(record.start_day, day)]
