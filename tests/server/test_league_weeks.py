"""A league's week board over several days: points for each daily place among the members,
summed over the ISO week, and each member's current streak of days played. The services run
in this process against the real redis-server with an injected clock (as tests/server/
test_daily.py does), so the test crosses days without sleeping; the days are years ahead."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Any

import pytest

from server import api
from server.accounts import Player
from server.app import build_services
from server.boards import feature as boards_feature
from server.boards.records import opens_at, week_name
from server.config import Settings
from server.daily import feature as daily_feature
from server.errors import ApiError

HOUR = 3_600_000
_weeks = itertools.count()


class Clock:
    """The services' clock, moved by the test."""

    def __init__(self, day: date) -> None:
        self.at(day)

    async def __call__(self) -> int:
        return self.ms

    def at(self, day: date, ms: int = HOUR) -> None:
        self.ms = opens_at(day) + ms


@pytest.fixture
async def services(clocked_redis_url: str) -> AsyncIterator[tuple[api.Services, Clock, date]]:
    monday = date(2041, 1, 7) + timedelta(weeks=3 * next(_weeks))  # a Monday, years ahead
    clock = Clock(monday)
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_secret=f"leagues {monday}",
                                 daily_rank_new_accounts=True), clock)
    yield sv, clock, monday
    await sv.redis.aclose()


async def play(sv: api.Services, p: Player, game: str = "isabel",
               variant: str = "standard") -> None:
    """Today's ranked attempt, resigned at once: places among equal results go by the finish."""
    s = await daily_feature.daily_start(sv, p, {"game": game, "variant": variant})
    await sv.operations["resign"].handler(sv, p, {"type": "resign", "session": s["session"]})
    await asyncio.sleep(0.005)  # the next finish is a later millisecond


async def board(sv: api.Services, p: Player, name: str) -> dict[str, Any]:
    return await boards_feature.board_get(sv, p, {"board": name, "count": 100})


async def test_week_points_per_place_and_streaks(
        services: tuple[api.Services, Clock, date]) -> None:
    sv, clock, monday = services
    ann, ben, cat, dan = [(await sv.accounts.register(n, "human"))[0]
                          for n in ("Ann", "Ben", "Cat", "Dan")]
    made = await sv.leagues.create(ann.id, "Week club")
    lid = made["league"]
    for p in (ben, cat):
        await sv.leagues.join(p.id, made["code"])
    # Monday: Dan (no member) first, then Ann, Ben, Cat; Ben alone plays Golf too.
    for p in (dan, ann, ben, cat):
        await play(sv, p)
    await play(sv, ben, "golf", "easy")
    day1 = await board(sv, ann, f"league/{lid}/daily/{monday}/isabel/standard")
    assert [e["player"] for e in day1["entries"]] == [ann.id, ben.id, cat.id]
    assert [e["rank"] for e in day1["entries"]] == [1, 2, 3] and day1["total"] == 3
    # Tuesday: Cat then Ann; Ben does not play.
    clock.at(monday + timedelta(days=1))
    for p in (cat, ann):
        await play(sv, p)
    # Wednesday: Ann alone.
    clock.at(monday + timedelta(days=2))
    await play(sv, ann)
    week = await board(sv, ben, f"league/{lid}/weekly/current")
    assert week["board"] == f"league/{lid}/weekly/{week_name(monday)}"
    rows = {e["player"]: e for e in week["entries"]}
    assert [e["player"] for e in week["entries"]] == [ann.id, ben.id, cat.id]
    # Ann: 10 + 7 + 10; Ben: 7 + 10 (Golf, alone); Cat: 5 + 10.
    assert {p: (r["points"], r["results"], r["firsts"]) for p, r in rows.items()} == {
        ann.id: (27, 3, 2), ben.id: (17, 2, 1), cat.id: (15, 2, 1)}
    # Streaks of days played as of Wednesday: Ann 3; Cat played up to yesterday, 2; Ben's
    # run ended on Monday, 0.
    assert {p: r["streak"] for p, r in rows.items()} == {ann.id: 3, ben.id: 0, cat.id: 2}
    assert dan.id not in rows and week["total"] == 3
    # The next week starts from nothing; the week before keeps its points.
    clock.at(monday + timedelta(days=7))
    fresh = await board(sv, ann, f"league/{lid}/weekly/current")
    assert {e["points"] for e in fresh["entries"]} == {0}
    before = await board(sv, ann, f"league/{lid}/weekly/{week_name(monday)}")
    assert [e["points"] for e in before["entries"]] == [27, 17, 15]
    with pytest.raises(ApiError) as refused:
        await board(sv, dan, f"league/{lid}/weekly/current")
    assert refused.value.code == "league.unknown"
    with pytest.raises(ApiError) as bad:
        await board(sv, ann, f"league/{lid}/weekly/2041-W99")
    assert bad.value.code == "board.unknown"
