"""The public randomness beacon's round for each daily day: fetched once, stored with the day
for every node, mixed into the day's seeds (docs/fairness.md#the-public-randomness-beacon).

``DayBeacon`` is what server/daily/beacon.py's ``Beacon`` provides (it verifies each round's
signature before handing it over); here is only what the daily needs of it, so the daily works
without one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime
from typing import Protocol, cast

from redis.asyncio import Redis

from .. import store
from ..boards.records import opens_at
from ..errors import ApiError
from ..transport.reply_types import BeaconChain, Round
from .remembered import Remembered

log = logging.getLogger("samedeal")
NO_BEACON = b"none"  # a day that opened without a beacon: it keeps none for ever


class BeaconRound(Protocol):
    """What the day needs of a verified beacon round (server/daily/beacon.py's ``BeaconRound``)."""

    @property
    def round(self) -> int: ...
    @property
    def randomness(self) -> bytes: ...
    @property
    def signature(self) -> bytes: ...
    @property
    def previous_signature(self) -> bytes | None: ...


class DayBeacon(Protocol):
    """The public randomness beacon (server/daily/beacon.py): the first round at or after a time,
    its signature verified; raises when it is not published yet or cannot be had."""

    async def round_for_day(self, opens_at_ms: int) -> BeaconRound: ...

    def public(self) -> BeaconChain:
        """The beacon chain's hash, scheme, public key and timing (drand's /info names)."""
        ...


def round_json(r: BeaconRound) -> Round:
    """A round as stored with the day and published with it."""
    prev = r.previous_signature
    return {"round": r.round, "randomness": r.randomness.hex(), "signature": r.signature.hex(),
            "previous_signature": prev.hex() if prev is not None else None}


def _day_of(ms: int) -> date:
    return datetime.fromtimestamp(ms / 1000, UTC).date()


class DayRounds:
    """Each day's round, or its mark of none (``sd:daily:beacon:<day>``, set NX)."""

    def __init__(self, redis: Redis, beacon: DayBeacon | None,
                 clock: Callable[[], Awaitable[int]]) -> None:
        self.redis = redis
        self.beacon = beacon
        self.clock = clock
        self._known: Remembered[date, bytes | None] = Remembered(366)  # stored: fixed for good

    async def stored(self, day: date) -> Round | None:
        """The beacon round stored with the day, with its chain, if any."""
        raw = await self.redis.get(store.daily_beacon(day.isoformat()))
        if raw is None or raw == NO_BEACON:
            return None
        return cast(Round, json.loads(raw))

    async def randomness(self, day: date) -> bytes | None:
        """The beacon randomness the day's seeds mix in (None: the day uses no beacon).

        A day without a beacon configured at its first use, or first asked about once over,
        is marked as having none, so configuring one later changes no published commitment.
        With a beacon, the round is fetched, verified (by the beacon) and stored NX, so every
        node uses the same; until then this answers ``daily.waiting`` and the sweep keeps
        trying (``fetch_today``)."""
        if day in self._known:
            return self._known[day]
        key = store.daily_beacon(day.isoformat())
        raw = await self.redis.get(key)
        if raw is None and (self.beacon is None or day < _day_of(await self.clock())):
            # a past day never marked (it opened before this server version) had no beacon
            await self.redis.set(key, NO_BEACON, nx=True)
            raw = await self.redis.get(key)
        if raw is None:
            raw = await self.fetch(day)
        if raw is None:
            raise ApiError("daily.waiting", "today's deals wait for the public randomness "
                           "beacon; try again in a minute")
        value = None if raw == NO_BEACON else bytes.fromhex(json.loads(raw)["randomness"])
        self._known[day] = value
        return value

    async def fetch(self, day: date) -> bytes | None:
        """Fetch and store the day's beacon round (NX); the stored value, or None on failure."""
        assert self.beacon is not None
        key = store.daily_beacon(day.isoformat())
        try:
            got = await self.beacon.round_for_day(opens_at(day))
        except Exception as e:  # not published yet, unreachable, or failed verification
            log.warning("daily %s: no beacon round yet (%s)", day, e)
            return None
        kept: Round = {**round_json(got), "chain": self.beacon.public()}
        await self.redis.set(key, json.dumps(kept), nx=True)
        raw = await self.redis.get(key)
        return None if raw is None else store.text(raw).encode()

    async def fetch_today(self) -> None:
        """A sweep job: fetch today's round while it is missing (the retry behind
        ``daily.waiting``)."""
        if self.beacon is None:
            return
        today = _day_of(await self.clock())
        if await self.redis.get(store.daily_beacon(today.isoformat())) is None:
            await self.fetch(today)
