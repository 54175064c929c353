"""Reading a match while a change forgets it: the cached match's freshness check reads Redis,
and a change on the same node may drop the match from the cache during that read. The read
then once failed (a KeyError, answered as server.error to `match.get`); it rebuilds the match
instead."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from server.config import Settings
from server.matches.book import Book

from .client import Node, Ws, player


async def test_a_match_forgotten_during_its_read_is_read_afresh(node: Node,
                                                                redis_url: str) -> None:
    _, token = await player(node, "Booker", "human")
    ws = await Ws.open(node, token)
    mid = (await ws.request({"type": "match.create", "game": "bowling", "variant": "easy",
                             "seats": 1}))["match"]
    await ws.close()
    redis = Redis.from_url(redis_url)
    book = Book(redis, Settings())
    try:
        first = await book.load(mid)
        reading = asyncio.create_task(book.load(mid))
        await asyncio.sleep(0)  # the read has taken the cached match and is out to Redis
        book.forget(mid)  # a change, meanwhile, on this node
        again = await reading
        assert again.id == mid and again is not first  # rebuilt, not the forgotten copy
    finally:
        await redis.aclose()
