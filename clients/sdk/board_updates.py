"""A board watched live (``board.subscribe``): its updates as an async iterator. Each update is
the whole board as it is then, so a reader that falls behind gets the newest one, not a
backlog; after a reconnect the client subscribes again and the next update is the board as it
is then."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .messages import BoardUpdate


class BoardUpdates:
    """``async for update in watch`` (or ``await watch.next()``) until ``close()``."""

    def __init__(self, board: str, kind: str, count: int,
                 unsubscribe: Callable[[BoardUpdates], Awaitable[None]]) -> None:
        self.board, self.kind, self.count = board, kind, count
        #: the newest update received, ``None`` until the first
        self.latest: BoardUpdate | None = None
        self.closed = False
        self._fresh = asyncio.Event()
        self._unsubscribe = unsubscribe

    @property
    def message(self) -> dict[str, Any]:
        """The subscription, as sent again after a reconnect."""
        return {"type": "board.subscribe", "board": self.board, "kind": self.kind,
                "count": self.count}

    def offer(self, update: BoardUpdate) -> None:
        self.latest = update
        self._fresh.set()

    async def next(self, timeout: float | None = None) -> BoardUpdate:
        """The newest update not yet taken (waiting for one): ``TimeoutError`` after
        ``timeout`` s, ``StopAsyncIteration`` once closed."""
        if self.closed:
            raise StopAsyncIteration
        await asyncio.wait_for(self._fresh.wait(), timeout)
        if self.closed:
            raise StopAsyncIteration
        self._fresh.clear()
        assert self.latest is not None
        return self.latest

    def __aiter__(self) -> BoardUpdates:
        return self

    async def __anext__(self) -> BoardUpdate:
        return await self.next()

    async def close(self) -> None:
        """Stop watching (``board.unsubscribe``); the iteration ends."""
        if not self.closed:
            self.closed = True
            self._fresh.set()
            await self._unsubscribe(self)

    async def __aenter__(self) -> BoardUpdates:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
