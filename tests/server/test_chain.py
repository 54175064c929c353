"""The daily chain of day secrets in the server: made once for every node, days from its start
derived from their link, the reveal with the secret, a withheld reveal made visible, rotations,
and the beacon's round mixed in. The services run in this process against the real
redis-server (a database of their own, emptied first, so the chain history is the test's),
with an injected clock; the days are years ahead, as in test_daily.py."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from redis.asyncio import Redis

import engine
from engine import fairness
from server import api, store
from server.app import build_services
from server.config import Settings
from server.daily import attempt_id
from server.daily.chain import ChainRefused
from server.errors import ApiError

from .test_daily import HOUR, Clock, start

DAY_MS = 86_400_000
_databases = itertools.cycle(range(3, 10))
_days = itertools.count()
RULES = engine.get("isabel", "standard")


def fresh_day() -> date:
    return date(2045, 1, 2) + timedelta(weeks=next(_days) * 3)


async def empty_database(redis_url: str) -> str:
    url = redis_url.rsplit("/", 1)[0] + f"/{next(_databases)}"
    r = Redis.from_url(url)
    await r.flushdb()
    await r.aclose()
    return url


@pytest.fixture
async def fresh(redis_url: str) -> AsyncIterator[tuple[str, date]]:
    yield await empty_database(redis_url), fresh_day()


def services(url: str, clock: Clock, beacon: object = None, **settings: object) -> api.Services:
    return build_services(Settings(redis_url=url, daily_secret="old secret",
                                   daily_rank_new_accounts=True, **settings),  # type: ignore
                          clock, beacon)  # type: ignore[arg-type]


async def test_days_from_the_chain_start_use_their_link_and_the_reveal_proves_it(
        fresh: tuple[str, date]) -> None:
    url, day = fresh
    clock = Clock(day)
    sv = services(url, clock)
    first = await sv.daily.info()
    # The chain is made at first use and starts tomorrow: today's deals keep the old secret.
    assert first["chain"] is None
    old = fairness.daily_seed(b"old secret", day, RULES.id, RULES.variant)
    assert {"game": RULES.id, "variant": RULES.variant, "name": RULES.name,
            "commitment": engine.commitment(old)} in first["deals"]
    other = services(url, clock)  # another node: the same chain, not a second one
    assert (await other.daily.info())["deals"] == first["deals"]
    clock.at(day + timedelta(1))
    page = await other.daily.info()
    chain = page["chain"]
    assert chain["start"] == (day + timedelta(1)).isoformat() and chain["length"] == 36500
    assert page == await sv.daily.info() and "secret" not in page
    assert all("seed" not in d for d in page["deals"])
    clock.at(day + timedelta(2), 2 * HOUR)  # past the deadline, nothing in flight
    revealed = await sv.daily.info(day + timedelta(1))
    assert revealed["state"] == "revealed" and not revealed["overdue"]
    secret = bytes.fromhex(revealed["secret"])
    assert fairness.verify_day_secret(bytes.fromhex(chain["anchor"]), 0, secret)
    for deal in revealed["deals"]:
        seed = fairness.daily_seed(secret, day + timedelta(1), deal["game"], deal["variant"])
        assert deal["seed"] == seed.hex() and deal["commitment"] == engine.commitment(seed)
    # The day before the chain is revealed with its seeds but never the old secret.
    before = await sv.daily.info(day)
    assert before["state"] == "revealed" and "secret" not in before
    assert old.hex() in {d["seed"] for d in before["deals"]}
    assert b"old secret".hex() not in str(before)
    for s in (sv, other):
        await s.redis.aclose()


async def test_a_withheld_reveal_shows_overdue_until_the_sweep_records_it(
        fresh: tuple[str, date]) -> None:
    url, day = fresh
    clock = Clock(day)
    sv = services(url, clock)
    ann, _ = await sv.accounts.register("Ann", "human")
    await start(sv, ann)  # in flight until the sweep closes it
    clock.at(day + timedelta(1), 2 * HOUR)  # past the deadline
    page = await sv.daily.info(day)
    assert page["state"] == "closing" and page["overdue"] is True
    assert page["reveal_due"] == page["deadline"] < page["now"]
    assert "revealed_at" not in page and all("seed" not in d for d in page["deals"])
    key = f"sd:daily:reveal:{day}"
    await sv.daily.reveal_due()
    assert await sv.redis.exists(key) == 0  # the attempt still in flight: not yet
    await sv.daily.close_due()
    await sv.daily.reveal_due()  # recorded by the sweep job, once
    assert await sv.redis.get(key) == str(clock.ms).encode()
    assert await sv.daily.reveal_due() == 0
    page = await sv.daily.info(day)
    assert page["state"] == "revealed" and page["overdue"] is False
    assert page["revealed_at"] == clock.ms
    await sv.redis.aclose()


async def test_a_rotation_starts_on_a_day_not_yet_open_and_is_public(
        fresh: tuple[str, date]) -> None:
    url, day = fresh
    clock = Clock(day)
    sv = services(url, clock)
    first = (await sv.daily.chains.ensure(day))[0]
    tomorrow = day + timedelta(1)
    for when in (day, tomorrow):  # today is open; tomorrow is the first chain's own start
        with pytest.raises(ChainRefused):
            await sv.daily.chains.add(when, tomorrow, "too soon")
    later = day + timedelta(10)
    new = await sv.daily.chains.add(later, tomorrow, "the root's disk was lost")
    assert new is not None
    history = await sv.daily.chains.history()
    assert [r.anchor for r in history] == [first.anchor, new.anchor]
    assert history[1].reason == "the root's disk was lost" and history[1].start == str(later)
    clock.at(later - timedelta(1))
    assert (await sv.daily.info())["chain"]["anchor"] == first.anchor
    clock.at(later)
    page = await sv.daily.info()
    assert page["chain"] == {"anchor": new.anchor, "start": str(later), "length": 36500}
    clock.at(later + timedelta(1), 2 * HOUR)
    secret = bytes.fromhex((await sv.daily.info(later))["secret"])
    assert fairness.verify_day_secret(bytes.fromhex(new.anchor), 0, secret)
    await sv.redis.aclose()


@dataclass(frozen=True)
class FixedRound:
    round: int
    randomness: bytes
    signature: bytes
    previous_signature: bytes | None = None


class FixedBeacon:
    """A beacon answering fixed rounds (unit tests of the mixing only): the first ``fail``
    calls fail as an unpublished round would."""

    def __init__(self, value: bytes, fail: int = 0) -> None:
        self.value, self.fail = value, fail
        self.asked: list[int] = []

    async def round_for_day(self, opens_at_ms: int) -> FixedRound:
        self.asked.append(opens_at_ms)
        if len(self.asked) <= self.fail:
            raise RuntimeError("round not yet published")
        sig = b"sig:" + self.value
        return FixedRound(7, hashlib.sha256(sig).digest(), sig)

    def public(self) -> dict[str, object]:
        return {"hash": "fixed", "schemeID": "fixed"}


async def test_the_beacon_round_is_stored_once_and_mixed_into_every_seed(
        fresh: tuple[str, date]) -> None:
    url, day = fresh
    clock = Clock(day)
    beacon = FixedBeacon(b"one", fail=2)  # the start, then the page
    sv = services(url, clock, beacon, daily_chain=False)
    ann, _ = await sv.accounts.register("Ann", "human")
    with pytest.raises(ApiError) as refused:
        await start(sv, ann)
    assert refused.value.code == "daily.waiting" and refused.value.status == 503
    waiting = await sv.daily.info()
    assert waiting["waiting"] is True and waiting["beacon"] is None
    assert all("commitment" not in d for d in waiting["deals"])
    attempt = store.session_keys(attempt_id(day, RULES, ann.id))[0]
    assert await sv.redis.exists(attempt) == 0  # nothing was made
    await sv.daily.rounds.fetch_today()  # the sweep's retry
    assert beacon.asked[-1] == waiting["opens_at"]
    # Another node with another beacon answer: the stored round wins (set NX).
    other = services(url, clock, FixedBeacon(b"two"), daily_chain=False)
    page = await other.daily.info()
    randomness = hashlib.sha256(b"sig:one").digest()
    assert page["beacon"] == {"round": 7, "randomness": randomness.hex(),
                              "signature": b"sig:one".hex(), "previous_signature": None,
                              "chain": {"hash": "fixed", "schemeID": "fixed"}}
    assert page == await sv.daily.info()
    seed = fairness.daily_seed(b"old secret", day, RULES.id, RULES.variant, randomness)
    plain = fairness.daily_seed(b"old secret", day, RULES.id, RULES.variant)
    commitments = {d["commitment"] for d in page["deals"]}
    assert engine.commitment(seed) in commitments and engine.commitment(plain) not in commitments
    s = await start(sv, ann)
    assert await sv.redis.exists(attempt) == 1
    assert s["view"] == RULES.deal(seed, competitive=True).view()
    for x in (sv, other):
        await x.redis.aclose()


async def test_a_day_opened_without_a_beacon_keeps_none(fresh: tuple[str, date]) -> None:
    url, day = fresh
    clock = Clock(day)
    plain = services(url, clock, daily_chain=False)
    before = await plain.daily.info()
    assert before["beacon"] is None
    beaconed = services(url, clock, FixedBeacon(b"late"), daily_chain=False)
    assert (await beaconed.daily.info())["deals"] == before["deals"]
    clock.at(day + timedelta(1))  # the next day opens with the beacon configured
    assert (await beaconed.daily.info())["beacon"]["round"] == 7
    for x in (plain, beaconed):
        await x.redis.aclose()


async def test_a_past_day_never_marked_gets_no_beacon(fresh: tuple[str, date]) -> None:
    """A day that opened before the chain and beacon code ran has no mark: a beacon configured
    now must not change its published deals."""
    url, day = fresh
    clock = Clock(day + timedelta(1))
    beacon = FixedBeacon(b"late")
    sv = services(url, clock, beacon, daily_chain=False)
    page = await sv.daily.info(day)
    assert page["beacon"] is None and beacon.asked == []
    plain = fairness.daily_seed(b"old secret", day, RULES.id, RULES.variant)
    assert engine.commitment(plain) in {d["commitment"] for d in page["deals"]}
    await sv.redis.aclose()


async def test_a_day_past_its_chain_fails_loudly_instead_of_using_another_secret(
        fresh: tuple[str, date]) -> None:
    url, day = fresh
    clock = Clock(day)
    sv = services(url, clock, daily_chain_length=2)
    await sv.daily.info()  # the chain: tomorrow and the day after
    clock.at(day + timedelta(2))
    assert (await sv.daily.info())["chain"]["length"] == 2
    clock.at(day + timedelta(3))
    with pytest.raises(RuntimeError, match="rotate"):
        await sv.daily.info()
    await sv.redis.aclose()
