"""Boards published live, one process's side (server/boards/watch.py) on a real Redis: a socket
leaving a board never waits on the board's reader, even one whose read never ends."""

from __future__ import annotations

import asyncio
from typing import Any

from server import store
from server.boards import Boards, Page
from server.boards.watch import BoardWatch
from server.metrics import Metrics
from server.transport.events import Hub


class Socket:
    def __init__(self, name: str) -> None:
        self.watcher_id = name
        self.sent: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


class Stuck:
    """A board whose read does not end until the test lets it, and ignores being cancelled
    (as a cancellation landing in a store call can be swallowed)."""

    def __init__(self, channel: str) -> None:
        self.channels = [channel]
        self.reading = asyncio.Event()
        self.released = asyncio.Event()

    def wakes(self, data: bytes | None) -> bool:
        return True

    async def read(self, count: int, players: list[str]
                   ) -> tuple[Page, dict[str, dict[str, Any]], set[str] | None]:
        self.reading.set()
        while not self.released.is_set():
            try:
                await self.released.wait()
            except asyncio.CancelledError:
                continue
        return Page(0, []), {}, None


async def test_leaving_a_board_never_waits_on_its_reader(redis_url: str) -> None:
    redis = store.connect(redis_url)
    hub = Hub(redis)
    await hub.start()
    watch = BoardWatch(Boards(redis), hub, Metrics(), interval=0)
    ann, bob = Socket("pann"), Socket("pbob")
    stuck, stuck2 = Stuck("sd:test:stuck:changed"), Stuck("sd:test:stuck2:changed")
    try:
        await watch.subscribe(ann, "sd:test:stuck", "league/x/weekly/current", "human", 10,
                              stuck)
        await asyncio.wait_for(stuck.reading.wait(), 10)
        # Ann leaves while the reader is mid-read; then Bob watches another board.
        left = asyncio.ensure_future(watch.unsubscribe(ann, "sd:test:stuck"))
        done, _ = await asyncio.wait({left}, timeout=10)
        assert done and left.result() is True
        other = asyncio.ensure_future(watch.subscribe(bob, "sd:test:stuck2",
                                                      "league/y/weekly/current", "human", 10,
                                                      stuck2))
        done, _ = await asyncio.wait({other}, timeout=10)
        assert done, "a subscribe waited on another board's reader"
        assert watch.watched.keys() == {"sd:test:stuck2"} and not ann.sent
    finally:
        stuck.released.set()
        stuck2.released.set()
        await hub.stop()
        await store.close(redis)
