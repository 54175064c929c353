"""One change at a time per key (a session) within this process, the others waiting their
turn in arrival order: what an ``asyncio.Lock`` per key gives, without making a lock (and a
weak reference to it) on every move. Nothing is kept for a key nobody holds."""

from __future__ import annotations

import asyncio
from collections import deque


class Turns:
    def __init__(self) -> None:
        # key -> who waits for it after its holder; a key is here exactly while it is held.
        self._held: dict[str, deque[asyncio.Future[None]]] = {}

    async def take(self, key: str) -> None:
        """Wait for ``key``'s turn; the caller must ``give`` it back (try/finally)."""
        waiting = self._held.get(key)
        if waiting is None:
            self._held[key] = deque()
            return
        turn = asyncio.get_running_loop().create_future()
        waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.give(key)  # handed the turn as it was cancelled: pass it on
            elif turn in waiting:
                waiting.remove(turn)
            raise

    def give(self, key: str) -> None:
        """End the holder's turn: the next waiter's begins, or the key is free."""
        waiting = self._held[key]
        while waiting:
            turn = waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        del self._held[key]

    def held(self, key: str) -> bool:
        return key in self._held
