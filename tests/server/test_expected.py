"""The due set's rules (server/followups.py), on a real redis-server: a follow-up expected before
its change is taken over once its grace has passed, settled once done, kept while a change it
expected may still land, and never dropped when it was expected again meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from redis.asyncio import Redis

from server import store
from server.config import Settings
from server.followups import DONE, IDLE, Expected, FollowUps, Outcome

# A grace of 0.2 s; six store deadlines of 0.1 s make a horizon of 0.6 s.
SETTINGS = Settings(followup_grace=0.2, store_timeout=0.1)
#: The test's own connection waits longer than the deadline the rules count with: a busy
#: machine (load 18) took more than 0.1 s to connect or to answer.
PATIENT_S = 10.0


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """A database of its own: the suite's nodes sweep the shared one's due set."""
    r = store.connect(redis_url.rsplit("/", 1)[0] + "/12", timeout=PATIENT_S)
    await r.delete(store.DUE, store.EXPECTED)
    yield r
    await r.aclose()


def sweeper(redis: Redis, outcome: Callable[[str], Outcome]) -> tuple[FollowUps, list[str]]:
    """A node's follow-ups whose handler of kind ``t`` answers ``outcome``; what it was
    called with."""
    seen: list[str] = []
    f = FollowUps(redis, SETTINGS)

    async def handler(ident: str) -> Outcome:
        seen.append(ident)
        return outcome(ident)

    f.handle("t", handler)
    return f, seen


async def test_a_follow_up_is_taken_over_after_its_grace_and_settled_once_done(
        redis: Redis) -> None:
    f, seen = sweeper(redis, lambda _: DONE)
    await Expected(redis, SETTINGS).soon("t:1")
    assert await f.run_due() == 0 and seen == []  # still the request's own
    await asyncio.sleep(0.25)
    assert await f.run_due() == 1 and seen == ["1"]
    assert await redis.zscore(store.DUE, "t:1") is None
    assert await redis.hget(store.EXPECTED, "t:1") is None


async def test_an_idle_follow_up_is_kept_until_no_change_it_expected_can_land(
        redis: Redis) -> None:
    f, seen = sweeper(redis, lambda _: IDLE)
    await Expected(redis, SETTINGS).soon("t:2")
    await asyncio.sleep(0.25)
    await f.run_due()
    assert seen == ["2"] and await redis.zscore(store.DUE, "t:2") is not None
    await asyncio.sleep(0.7)  # past the horizon
    await f.run_due()
    assert seen == ["2", "2"] and await redis.zscore(store.DUE, "t:2") is None


async def test_a_follow_up_expected_again_while_it_was_handled_is_not_dropped(
        redis: Redis) -> None:
    expected = Expected(redis, SETTINGS)
    f = FollowUps(redis, SETTINGS)
    calls = 0

    async def handler(ident: str) -> Outcome:
        nonlocal calls
        calls += 1
        if calls == 1:  # another change that may end the game comes in meanwhile
            await expected.soon("t:3")
        return DONE

    f.handle("t", handler)
    await expected.soon("t:3")
    await asyncio.sleep(0.25)
    assert await f.run_due() == 0 and await redis.zscore(store.DUE, "t:3") is not None
    await asyncio.sleep(0.25)  # the claim's grace
    assert await f.run_due() == 1 and calls == 2
    assert await redis.zscore(store.DUE, "t:3") is None


async def test_a_running_race_is_looked_at_again_at_its_time_limit_once_its_horizon_passed(
        redis: Redis) -> None:
    at = 0

    def later(_: str) -> Outcome:
        return at

    f, seen = sweeper(redis, later)
    await Expected(redis, SETTINGS).soon("t:4")
    await asyncio.sleep(0.25)
    at = await store.now_ms(redis) + 60_000
    await f.run_due()  # fresh: looked at again after a grace, not at ``at``
    assert await redis.zscore(store.DUE, "t:4") < at - 50_000
    await asyncio.sleep(0.7)
    await f.run_due()
    assert await redis.zscore(store.DUE, "t:4") == at and len(seen) == 2


async def test_two_sweeping_nodes_never_share_a_follow_up(redis: Redis) -> None:
    expected = Expected(redis, SETTINGS)
    for i in range(50):
        await expected.soon(f"t:{i}")
    await asyncio.sleep(0.25)
    (a, seen_a), (b, seen_b) = sweeper(redis, lambda _: DONE), sweeper(redis, lambda _: DONE)
    done = await asyncio.gather(a.run_due(), b.run_due())
    assert sum(done) == 50 and sorted(seen_a + seen_b, key=int) == [str(i) for i in range(50)]
