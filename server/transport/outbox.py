"""A socket's outbox: what is to be written to it, in order, by one writer at a time.

A deque and one waiting future rather than an ``asyncio.Queue``: a frame's hand-over is on
every move's path, and the writer takes whatever is queued in one wake-up. A reply may also be
written by the task that made it, with no hand-over, when nothing is queued or being written
(``idle``): ``begin`` and ``done`` bracket that write as ``next`` and ``done`` bracket the
writer's, so frames never overtake one another.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any


class Outbox:
    def __init__(self, limit: int) -> None:
        self.limit = limit  # items queued before the client counts as too slow
        self._items: deque[tuple[Any, ...]] = deque()
        self._writing = False
        self._waiting: asyncio.Future[None] | None = None  # the writer's, while it waits

    @property
    def full(self) -> bool:
        return len(self._items) >= self.limit

    @property
    def idle(self) -> bool:
        """Nothing queued and nothing being written: a frame may be written at once."""
        return not self._items and not self._writing

    def put(self, item: tuple[Any, ...]) -> None:
        self._items.append(item)
        if not self._writing:  # a writer busy now takes it next without being woken
            self._wake()

    def clear(self) -> None:
        self._items.clear()

    async def next(self) -> tuple[Any, ...]:
        """The next item, once nobody else is writing; the caller then writes it and calls
        ``done``."""
        while not self._items or self._writing:
            self._waiting = asyncio.get_running_loop().create_future()
            try:
                await self._waiting
            finally:
                self._waiting = None
        self._writing = True
        return self._items.popleft()

    def begin(self) -> None:
        """A frame is written now by a task other than the writer (``idle`` said it may)."""
        self._writing = True

    def done(self) -> None:
        self._writing = False
        if self._items:
            self._wake()

    def _wake(self) -> None:
        waiting = self._waiting
        if waiting is not None and not waiting.done():
            waiting.set_result(None)
