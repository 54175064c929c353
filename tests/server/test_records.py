"""Recording a result twice counts it once: after a failure part-way through recording (Redis
restarting), the sweeper records the same result again, and nothing may be added twice."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server import store
from server.boards import Boards
from server.boards.ratings import Ratings
from server.boards.records import Records
from server.config import Settings


@pytest.fixture
async def records(redis_url: str) -> AsyncIterator[Records]:
    r = store.connect(redis_url)  # as a server makes it: the scripts go over its link
    boards = Boards(r)
    yield Records(r, Settings(), boards, Ratings(r, boards))
    await r.aclose()


def ranking(ids: list[str]) -> list[dict[str, object]]:
    return [{"player": pid, "name": pid, "kind": "bot", "status": "lost", "score": 10 + i,
             "moves": 3, "time_ms": 1000, "finished_at": None, "tie_break": 0, "rank": i + 1}
            for i, pid in enumerate(ids)]


async def record(records: Records, race: dict[str, Any]) -> None:
    """What a race's end records, as the boards feature hands it over."""
    await records.results(race["game"], race["variant"], race["ranking"], race["race"])


async def test_a_race_recorded_twice_counts_once_in_the_statistics(records: Records) -> None:
    players = [f"pr{time.time_ns()}{i}" for i in range(3)]
    race = {"race": f"r{time.time_ns()}", "game": "golf", "variant": "easy",
            "ranking": ranking(players)}
    await record(records, race)
    await record(records, race)  # the retry
    await record(records, race | {"race": race["race"] + "x"})  # another race: counts
    for pid in players:
        played = await records.redis.hget(store.player_key(pid), "stats:golf/easy:played")
        assert played == b"2"


async def test_points_for_one_result_are_added_once(records: Records) -> None:
    board = f"test:points:{time.time_ns()}"
    for result in ("s1", "s1", "s2", "s1"):
        await records.boards.add(board, "p1", 5, True, 1000, {"name": "p1"}, result)
    page = await records.boards.page(board)
    assert page is not None
    (entry,) = page.entries
    assert (entry["points"], entry["results"], entry["wins"]) == (10, 2, 2)
    assert "recent" not in entry  # the ids used to spot a retry stay inside Redis
    for n in range(3, 13):  # older ids make room: the entry stays small
        await records.boards.add(board, "p1", 1, False, 1000 + n, {"name": "p1"}, f"s{n}")
    raw = await records.redis.hget(f"sd:{{board:{board}}}:entries", "p1")
    assert raw is not None and raw.count(b'"s') <= 8
