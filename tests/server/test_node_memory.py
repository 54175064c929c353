"""What a node keeps as games and races come and go stays bounded: its session cache holds
only games in play, at most ``cache_size``, none idle past ``cache_idle``
(server/sessions/cache.py); a socket lets go of races that ended long ago
(server/transport/ws.py)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis

from server import store
from server.transport.ws import ENDED_KEPT

from ..conftest import FAST, start_node, stop_node
from .client import Node, Ws, player

SIZE, IDLE = 5, 3.0
GAME = {"game": "klondike", "variant": "easy"}


@pytest.fixture(scope="module")
def small_cache(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    logs = tmp_path_factory.mktemp("memory")
    node, proc = start_node(redis_url, logs / "memory.log", SAMEDEAL_CACHE_SIZE=str(SIZE),
                            SAMEDEAL_CACHE_IDLE=str(IDLE), **FAST)
    yield node
    stop_node(proc)


def cached(node: Node) -> int:
    text = httpx.get(f"{node.url}/metrics", timeout=5).text
    m = re.search(r"^samedeal_cached_sessions (\S+)$", text, re.M)
    assert m, "the gauge is scraped"
    return int(float(m.group(1)))


async def settle() -> None:
    """Every state kept so far is idle from now on: the next store drops them."""
    await asyncio.sleep(IDLE + 0.2)


async def started(ws: Ws, moves: int = 1) -> dict[str, Any]:
    s = await ws.request({"type": "solo.start", **GAME})
    assert s["type"] == "session", s
    for _ in range(moves):
        ack = await ws.request({"type": "move", "session": s["session"], "move": s["legal"][0]})
        assert ack["type"] == "ack", ack  # protocol v1: the whole payload
        s = ack
    return s


async def test_finished_games_leave_the_cache(small_cache: Node) -> None:
    _, token = await player(small_cache)
    ws = await Ws.open(small_cache, token)
    await settle()
    playing = await started(ws)
    assert cached(small_cache) == 1
    for _ in range(2 * SIZE):
        s = await started(ws)
        done = await ws.request({"type": "resign", "session": s["session"]})
        assert done["type"] == "ack" and done["view"]["status"] == "lost", done
    assert cached(small_cache) == 1  # the one in play, none of the finished
    done = await ws.request({"type": "resign", "session": playing["session"]})
    assert done["type"] == "ack", done
    assert cached(small_cache) == 0
    await ws.close()


async def test_games_left_unfinished_are_capped_and_still_play(small_cache: Node) -> None:
    _, token = await player(small_cache)
    ws = await Ws.open(small_cache, token)
    await settle()
    games = [await started(ws) for _ in range(SIZE + 3)]
    assert cached(small_cache) == SIZE
    # The first was let go: its next move rebuilds it from Redis, at the right revision.
    first = games[0]
    ack = await ws.request({"type": "move", "session": first["session"],
                            "move": first["legal"][0]})
    assert ack["type"] == "ack" and ack["rev"] == 2 and ack["view"]["moves"] == 2, ack
    assert cached(small_cache) == SIZE
    await ws.close()


async def test_games_nobody_moves_in_are_let_go(small_cache: Node) -> None:
    _, token = await player(small_cache)
    ws = await Ws.open(small_cache, token)
    await settle()
    left = [await started(ws) for _ in range(3)]
    assert cached(small_cache) == 3
    await settle()
    await started(ws)
    assert cached(small_cache) == 1  # the three idle ones dropped by that store
    back = await ws.request({"type": "move", "session": left[0]["session"],
                             "move": left[0]["legal"][0]})
    assert back["type"] == "ack" and back["rev"] == 2, back
    await ws.close()


async def test_a_socket_lets_go_of_races_that_ended_long_ago(small_cache: Node,
                                                             redis_url: str) -> None:
    (a, ta), (b, tb) = await player(small_cache, "Ann"), await player(small_cache, "Bob")
    wa, wb = await Ws.open(small_cache, ta), await Ws.open(small_cache, tb)
    races = []
    for _ in range(ENDED_KEPT + 2):
        race = await wa.request({"type": "race.create", "seats": 2, "countdown": 0,
                                 "time_limit": 120, **GAME})
        rid = race["race"]
        assert (await wb.request({"type": "race.join", "race": rid}))["type"] == "race"
        for pid, ws in ((a, wa), (b, wb)):
            await ws.expect("race.started", race=rid)
            done = await ws.request({"type": "resign", "session": f"{rid}.{pid}"})
            assert done["type"] == "ack", done
        for ws in (wa, wb):
            await ws.expect("race.ended", race=rid)
        races.append(rid)
    r = redis.Redis.from_url(redis_url)

    def followed(rid: str) -> int:
        return int(dict(r.pubsub_numsub(store.channel(rid)))[store.channel(rid).encode()])

    async def let_go() -> bool:
        for _ in range(50):
            if [followed(rid) for rid in races[:2]] == [0, 0]:
                return True
            await asyncio.sleep(0.1)
        return False

    assert await let_go()  # the two that ended first: no socket follows them
    assert all(followed(rid) == 1 for rid in races[2:])  # the last ENDED_KEPT still followed
    # A race let go is still there to ask about: following it again is allowed.
    await wa.send({"type": "race.subscribe", "race": races[0]})
    summary = await wa.expect("race", race=races[0])
    assert summary["state"] == "ended", summary
    r.close()
    for ws in (wa, wb):
        await ws.close()
