"""Leaderboards on a real redis-server: the one-number order, best-only writes, pages around a
player, expiry, and a thousand concurrent writers; the daily seed's published test vector."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import pytest

import engine
from server import store
from server.boards import MOVES_MAX, SCORE_MAX, TIME_MAX, Boards, order_key
from server.daily import daily_seed
from server.races import rank

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster

_names = itertools.count()


@pytest.fixture
async def boards(store_url: str) -> AsyncIterator[Boards]:
    r = store.connect(store_url)  # as a server makes it: the scripts over its link, or the cluster
    yield Boards(r)
    await r.aclose()


def board() -> str:
    return f"test:{time.time_ns()}:{next(_names)}"


def result(rng: random.Random) -> dict[str, Any]:
    return {"status": rng.choice(["won", "lost", "playing"]), "score": rng.randint(-20, 60),
            "tie_break": rng.randint(0, 3), "finished_at": rng.randint(1, 30),
            "moves": rng.randint(0, 9), "resigned": rng.random() < 0.2}


def key_of(e: dict[str, Any], low: bool, start: int = 0) -> int:
    return order_key(e["status"] == "won", e["score"], low, e["tie_break"],
                     e["finished_at"] - start, e["moves"], e.get("resigned", False))


@pytest.mark.parametrize("low", [False, True], ids=["higher-better", "lower-better"])
def test_the_one_number_sorts_exactly_as_the_race_ranking(low: bool) -> None:
    rng = random.Random(low)
    entries = [result(rng) | {"player": f"p{i}", "name": f"p{i}", "kind": "human"}
               for i in range(2000)]
    ranked = rank([dict(e) for e in entries], low, starts_at=0, ended_at=30, ends_at=30)
    by_key = sorted(entries, key=lambda e: key_of(e, low))
    assert [key_of(e, low) for e in by_key] == [key_of(e, low) for e in ranked]
    # Equal numbers exactly where the ranking shares a rank.
    for a, b in itertools.pairwise(ranked):
        assert (key_of(a, low) == key_of(b, low)) == (a["rank"] == b["rank"])


def test_the_order_field_by_field() -> None:
    base = {"won": True, "score": 10, "low": False, "tie_break": 0, "time_ms": 5000, "moves": 50}

    def k(**change: Any) -> int:
        return order_key(**(base | change))

    assert k() < k(won=False, score=SCORE_MAX)  # a win beats any loss
    assert k(score=11) < k() < k(score=9)  # higher score first ...
    assert k(low=True, score=9) < k(low=True) < k(low=True, score=11)  # ... or lower (golf)
    assert k(score=-5) > k(score=-4)  # negative scores keep their order
    assert k(tie_break=0) < k(tie_break=1)  # the game's own tie-break (Eliminator)
    assert k(time_ms=4999) < k() < k(time_ms=5001)
    assert k(moves=49) < k() < k(moves=51)
    # A resignation ranks after the same result played on, however long that took.
    assert k(time_ms=TIME_MAX + 10**9, moves=MOVES_MAX) < k(resigned=True, time_ms=0, moves=0)
    assert k(resigned=True) < k(score=9, time_ms=0)  # ... but never after a lower score
    # Out-of-range values clamp instead of spilling into the next field.
    assert k(time_ms=TIME_MAX + 10**9) == k(time_ms=TIME_MAX) < k(tie_break=1, time_ms=0)
    assert k(moves=MOVES_MAX + 1) == k(moves=MOVES_MAX) < k(time_ms=5001, moves=0)
    assert k(won=False, score=-(10**6), tie_break=99, time_ms=10**12, moves=10**6) < 2**53


async def test_a_worse_result_never_lowers_an_entry(boards: Boards) -> None:
    b = board()
    good = order_key(True, 52, False, 0, 90_000, 120)
    assert await boards.put(b, "ann", good, 1000, {"score": 52}) == (True, 1)
    worse = order_key(True, 52, False, 0, 95_000, 100)
    assert await boards.put(b, "ann", worse, 2000, {"score": 52}) == (False, 1)
    assert await boards.put(b, "ann", good, 3000, {"score": 52}) == (False, 1)  # equal: kept
    better = order_key(True, 52, False, 0, 80_000, 130)
    assert await boards.put(b, "ann", better, 4000, {"score": 52, "n": 2}) == (True, 1)
    page = await boards.page(b)
    assert page is not None and page.total == 1
    assert page.entries == [{"player": "ann", "score": 52, "n": 2, "rank": 1}]


async def test_equal_numbers_rank_the_earlier_finish_first(boards: Boards) -> None:
    b = board()
    key = order_key(False, 30, False, 0, 60_000, 80)
    await boards.put(b, "zed", key, 1_700_000_000_100, {})
    await boards.put(b, "amy", key, 1_700_000_000_200, {})
    await boards.put(b, "bob", key, 1_700_000_000_050, {})
    page = await boards.page(b)
    assert page is not None
    assert [e["player"] for e in page.entries] == ["bob", "zed", "amy"]


async def test_pages_around_a_player_at_the_top_middle_and_bottom(boards: Boards) -> None:
    b = board()
    for i in range(50):  # p00 is best, p49 worst
        await boards.put(b, f"p{i:02d}", order_key(True, 0, False, 0, 1000 * i, 0), i, {})
    assert await boards.count(b) == 50

    async def around(p: str) -> list[tuple[str, int]]:
        page = await boards.page(b, count=5, around=p)
        assert page is not None and page.total == 50
        return [(e["player"], e["rank"]) for e in page.entries]

    assert await around("p00") == [(f"p{i:02d}", i + 1) for i in range(5)]
    assert await around("p20") == [(f"p{i:02d}", i + 1) for i in range(18, 23)]
    assert await around("p49") == [(f"p{i:02d}", i + 1) for i in range(45, 50)]
    assert await boards.page(b, count=5, around="nobody") is None
    top = await boards.page(b, start=10, count=3)
    assert top is not None and [e["rank"] for e in top.entries] == [11, 12, 13]
    empty = await boards.page(board(), count=5)
    assert empty is not None and (empty.total, empty.entries) == (0, [])


async def test_a_board_expires_when_told(boards: Boards) -> None:
    b = board()
    expire_at = int(time.time()) + 3600
    await boards.put(b, "ann", 1, 1, {}, expire_at=expire_at)
    rank_key = f"sd:{{board:{b}}}:rank"
    assert 3500 < await boards.redis.ttl(rank_key) <= 3600
    assert 3500 < await boards.redis.ttl(f"sd:{{board:{b}}}:entries") <= 3600


async def test_a_thousand_concurrent_players_lose_nothing_and_rank_consistently(
        boards: Boards) -> None:
    b = board()
    rng = random.Random(7)
    players = [f"p{i:04d}" for i in range(1000)]
    # Each player submits three results at once; the board must keep each one's best.
    results = {p: [result(rng) for _ in range(3)] for p in players}
    writes = [boards.put(b, p, key_of(r, False), r["finished_at"], {"score": r["score"]})
              for p in players for r in results[p]]
    rng.shuffle(writes)
    await asyncio.gather(*writes)
    best = {p: min((key_of(r, False), r["finished_at"]) for r in rs) for p, rs in results.items()}
    expected = sorted(players, key=lambda p: (best[p], p))
    seen: list[str] = []
    while len(seen) < 1000:
        page = await boards.page(b, start=len(seen), count=137)
        assert page is not None and page.total == 1000
        assert [e["rank"] for e in page.entries] == list(range(len(seen) + 1,
                                                                len(seen) + 1 + len(page.entries)))
        seen += [e["player"] for e in page.entries]
    assert seen == expected
    mine = await boards.page(b, count=1, around=expected[500])
    assert mine is not None and mine.entries[0]["rank"] == 501


def test_the_daily_seed_matches_the_published_vector() -> None:
    seed = daily_seed(b"example secret", date(2026, 11, 23), engine.get("klondike", "easy"))
    assert seed.hex() == "dc7e1f3d4cb377df72d5355ce5d2d77e0895c5d930da837c36ad19ef635a3e1e"
    assert engine.commitment(seed) == (
        "033d1a09e69496c4b2112c754c79e7468fe55ec15b73d0c58bc87835b80e6a02")
    other = daily_seed(b"example secret", date(2026, 11, 24), engine.get("klondike", "easy"))
    assert other != seed
    assert daily_seed(b"example secret", date(2026, 11, 23),
                      engine.get("klondike", "difficult")) != seed
