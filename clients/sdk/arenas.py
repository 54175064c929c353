"""Arenas (docs/protocol.md#arenas): listing them, joining, and their rounds as an async
iterator. Each round is a race among the arena's players; the iterator gives its
``arena.round`` event (the race, your session in it) as it comes, and ends when the arena
does. After a reconnect the client joins again (harmless) and, if a round you are in began
meanwhile that the iterator has not given, gives it from the arena's ``current``."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from .accounts import Accounts
from .following import Following
from .messages import Event
from .payloads import Arena


class ArenaRounds:
    """``async for round in rounds`` (or ``await rounds.next()``): each round's
    ``arena.round`` payload as a dict (``round``, ``race``, ``commitment``, ``starts_at``,
    ``ends_at``, ``sessions``; ``session``: yours), until the arena ends (``ended`` then holds
    its ``arena.ended`` payload, with the ``winner``)."""

    def __init__(self, client: Arenas, arena: str) -> None:
        self.client, self.arena = client, arena
        self.ended: dict[str, Any] | None = None
        self.last = -1  # the last round given
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()

    def offer(self, event: Event) -> None:
        raw = event.raw
        if event.type == "arena.round" and raw.get("arena") == self.arena:
            self._give(raw)
        elif event.type == "arena.ended" and raw.get("arena") == self.arena:
            self.ended = raw
            self._queue.put_nowait(None)
        elif event.type == "connection.resumed":
            task = asyncio.get_running_loop().create_task(self._resume())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _give(self, raw: dict[str, Any]) -> None:
        n = raw.get("round")
        if isinstance(n, int) and n > self.last:
            self.last = n
            me = self.client.player.get("id") if self.client.player else None
            self._queue.put_nowait({**raw, "session": (raw.get("sessions") or {}).get(me)})

    async def _resume(self) -> None:
        """Back on a (new) socket: follow the arena again; a round missed meanwhile is given
        from the arena's summary, a finished arena ends the iteration."""
        summary = await self.client.join_arena(self.arena)
        if summary.get("state") in ("ended", "cancelled"):
            self.ended = self.ended or {"type": "arena.ended", "arena": self.arena,
                                        "winner": summary.get("winner"),
                                        "cancelled": summary.get("state") == "cancelled"}
            self._queue.put_nowait(None)
        elif summary.get("current") and summary.get("round", -1) > self.last:
            await self._give_current(str(summary["current"]), summary["round"])

    async def _give_current(self, race: str, n: int) -> None:
        """Give round ``n`` (race ``race``) if you are one of its entrants and it has not
        ended, with your session as the race's summary names it (an id is never made up from
        others: the server's ids carry no meaning)."""
        got = await self.client._rest("GET", f"/races/{race}")
        me = str((self.client.player or {}).get("id", ""))
        mine = next((e for e in got.get("entrants", []) if e.get("player") == me), None)
        if mine is not None and "session" in mine and got.get("state") != "ended":
            self._give({"type": "arena.round", "arena": self.arena, "round": n,
                        "race": race, "sessions": {me: mine["session"]}})

    async def next(self, timeout: float | None = None) -> dict[str, Any]:
        """The next round (``StopAsyncIteration`` once the arena has ended)."""
        item = await asyncio.wait_for(self._queue.get(), timeout)
        if item is None:
            self._queue.put_nowait(None)  # every later call ends too
            raise StopAsyncIteration
        return item

    def __aiter__(self) -> ArenaRounds:
        return self

    async def __anext__(self) -> dict[str, Any]:
        return await self.next()

    def close(self) -> None:
        if self.offer in self.client.listeners:
            self.client.listeners.remove(self.offer)


class Arenas(Accounts, Following):
    """Arenas: scheduled events, a new deal every few minutes for everyone in them."""

    async def arenas(self) -> list[Arena]:
        """Upcoming and running arenas, soonest first (``GET /api/v1/arenas``)."""
        return list((await self._rest("GET", "/arenas"))["arenas"])

    async def arena(self, arena: str) -> Arena:
        """An arena's summary: its rounds, players, ``current`` round, ``winner``."""
        return _summary(await self.request({"type": "arena.get", "arena": arena}))

    async def join_arena(self, arena: str) -> Arena:
        """Play every round from the next one; this socket follows the arena. Joining again
        is harmless, so it is re-sent after a drop."""
        return _summary(await self.request({"type": "arena.join", "arena": arena}))

    async def leave_arena(self, arena: str) -> Arena:
        return _summary(await self.request({"type": "arena.leave", "arena": arena}))

    async def arena_rounds(self, arena: str) -> ArenaRounds:
        """Join ``arena`` and get its rounds as they come (``ArenaRounds``); a round under way
        as you join is given first if you are in it (after a crash: your seat held)."""
        rounds = ArenaRounds(self, arena)
        self.listeners.append(rounds.offer)
        summary = await self.join_arena(arena)
        current = summary.get("current")
        if current and summary.get("state") == "running":
            await rounds._give_current(current, summary.get("round", -1))
        return rounds


def _summary(reply: dict[str, Any]) -> Arena:
    """The arena summary a reply carries, without the reply's own ``type`` and ``id``."""
    return cast(Arena, {k: v for k, v in reply.items() if k not in ("type", "id")})
