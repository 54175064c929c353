"""Boards published live: sockets that watch a board get its top and their own entry whenever
either changes, at most once a second, for at most one Redis read per board per second per
process, however many sockets watch it.

Each watched board has one reader in the process (``Watched``), not one per socket. It sleeps
until the board's "changed" channel (server/boards/__init__.py publishes a write's player id there)
or a new watcher wakes it, then reads the board once (``Boards.watch``: the top entries and
the entry of every player watching on this process, in one script call) no sooner than
``board_interval`` after its last read, and sends each socket the update only if its top or
own entry differs from what that socket was last sent. Writes arriving during the wait are
folded into the one read. Idle boards cost nothing; the last watcher leaving ends the reader
and the channel's subscription. docs/server.md, "Boards published live", gives the cost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..daily.winnable import add_par
from ..metrics import Metrics
from ..transport.events import Hub
from ..transport.reply_types import Entry
from . import Boards, Page, channel
from .formats import board_format

log = logging.getLogger("samedeal.boards")

UPDATE = "board.update"  # the event's type
ParOf = Callable[[str], Awaitable[int | None]]


class Watcher(Protocol):
    """A socket watching boards: who it is and where its messages go (server/transport/ws.py)."""

    @property
    def watcher_id(self) -> str: ...

    def push(self, message: dict[str, Any]) -> None: ...


class Source(Protocol):
    """A board computed from other boards (a league's, server/leagues/boards.py): the channels
    that wake its reader, which of their messages do, and its read (the top ``count``, each
    watching player's own entry, and who may still be sent it: ``None`` for anyone)."""

    channels: list[str]

    def wakes(self, data: bytes | None) -> bool: ...

    async def read(self, count: int, players: list[str]
                   ) -> tuple[Page, dict[str, Entry], set[str] | None]: ...


@dataclass
class Seat:
    """One socket's watch of one board: how many entries it asked for, what it was sent."""

    count: int
    sent: dict[str, Any] | None = None


@dataclass
class Watched:
    """A board watched on this process: its reader and its watchers."""

    key: str  # the board's name in Redis (server/boards/records.py)
    public: str  # its public name, 'today' and 'current' resolved
    kind: str
    watchers: dict[Watcher, Seat] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    last_read: float = float("-inf")
    task: asyncio.Task[None] | None = None
    listener: Any = None
    source: Source | None = None  # None: the board ``key`` itself
    closed: bool = False  # its last watcher left: the reader ends at its next turn

    @property
    def channels(self) -> list[str]:
        return self.source.channels if self.source is not None else [channel(self.key)]


class BoardWatch:
    """Every board watched on this process, each with one reader."""

    def __init__(self, boards: Boards, hub: Hub, metrics: Metrics, interval: float = 1.0,
                 par_of: ParOf | None = None) -> None:
        self.boards = boards
        #: A board's par (a revealed daily board, server/daily/winnable.py), else None.
        self.par_of = par_of
        self.hub = hub
        self.metrics = metrics
        self.interval = interval
        self.watched: dict[str, Watched] = {}
        self._lock = asyncio.Lock()

    async def subscribe(self, watcher: Watcher, key: str, public: str, kind: str,
                        count: int, source: Source | None = None) -> None:
        """``watcher`` follows the board from now on; its first update comes with the
        reader's next read (at once, or within ``interval`` of the last)."""
        async with self._lock:
            w = self.watched.get(key)
            if w is None:
                w = self.watched[key] = Watched(key, public, kind, source=source)

                def listener(data: bytes | None, w: Watched = w) -> None:
                    # a write, or pub/sub made again (writes may be missed)
                    if w.source is None or w.source.wakes(data):
                        w.wake.set()

                w.listener = listener
                # Subscribed before the first read: no write after that read goes unseen.
                for name in w.channels:
                    await self.hub.subscribe(name, listener)
                w.task = asyncio.create_task(self._read_loop(w))
            w.watchers[watcher] = Seat(count)
            w.wake.set()

    async def unsubscribe(self, watcher: Watcher, key: str) -> bool:
        """``watcher`` stops following the board; whether it was."""
        async with self._lock:
            w = self.watched.get(key)
            if w is None or w.watchers.pop(watcher, None) is None:
                return False
            if not w.watchers:
                # The reader is told to end, not cancelled and waited for under the lock: a
                # cancellation landing in a store call can be swallowed there, and every
                # socket's subscribe and unsubscribe on this process would wait for ever.
                del self.watched[key]
                w.closed = True
                w.wake.set()
                for name in w.channels:
                    await self.hub.unsubscribe(name, w.listener)
            return True

    async def stop(self) -> None:
        for w in list(self.watched.values()):
            for watcher in list(w.watchers):
                await self.unsubscribe(watcher, w.key)

    async def _read_loop(self, w: Watched) -> None:
        while not w.closed:
            await w.wake.wait()
            delay = w.last_read + self.interval - time.monotonic()
            if delay > 0 and not w.closed:
                await asyncio.sleep(delay)  # writes meanwhile fold into this one read
            if w.closed:
                return
            w.wake.clear()
            w.last_read = time.monotonic()
            try:
                await self._read(w)
            except (RedisConnectionError, RedisTimeoutError) as e:
                log.info("board %s could not be read (%s): trying again", w.key,
                         type(e).__name__)
                w.wake.set()
            except Exception:
                log.exception("board %s: reading failed", w.key)
                w.wake.set()

    async def _read(self, w: Watched) -> None:
        watchers = list(w.watchers.items())
        if not watchers:
            return
        count = max(seat.count for _, seat in watchers)
        players = sorted({watcher.watcher_id for watcher, _ in watchers})
        self.metrics.board_reads.inc()
        allowed: set[str] | None = None
        if w.source is not None:
            page, own, allowed = await w.source.read(count, players)
        else:
            page, own = await self.boards.watch(w.key, count, players)
        par = None if self.par_of is None else await self.par_of(w.public)
        for watcher, seat in watchers:
            if w.watchers.get(watcher) is not seat:
                continue  # gone (or subscribed again) during the read
            if allowed is not None and watcher.watcher_id not in allowed:
                continue  # no longer allowed to see it (removed from a league)
            update = {"board": w.public, "kind": w.kind, "format": board_format(w.public),
                      "total": page.total,
                      "entries": page.entries[:seat.count],
                      "you": own.get(watcher.watcher_id)}
            if par is not None:
                update = add_par(update, par)
            if update != seat.sent:
                seat.sent = update
                watcher.push({"type": UPDATE, **update})
                self.metrics.board_updates.inc()
