"""Who is at the table: a player is present while one of their sockets (on any node) follows
the match. A node that dies cannot take its sockets' presence back, so each node keeps a
ledger of what it counted and beats a heartbeat; the others take a silent node's presence
back once its heartbeat stops. The heartbeat is a loop of its own, not a sweep job: a slow
job (a beacon that does not answer, a long reveal) must not make a live node look dead."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

import msgpack

from .. import store
from ..accounts import new_id
from ..errors import ApiError
from ..loops import drain
from ..store import script_replies, scripts
from .book import Book
from .record import Match

log = logging.getLogger("samedeal.matches")


class Presence:
    def __init__(self, book: Book, schedule: Callable[[Match], Awaitable[None]]) -> None:
        self.book = book
        self.schedule = schedule  # the turn timer waits for an away player's grace
        self._here = script_replies.bind(book.redis, scripts.MATCH_HERE, script_replies.changed)
        #: this process, for the presence ledger (``keep``)
        self.node = new_id("n")
        self._here_now: Counter[tuple[str, str]] = Counter()  # this node's ledger, in memory
        self._beating = False

    async def present(self, mid: str, pid: str, delta: int, ledger: bool = True) -> None:
        """A player's socket started (+1) or stopped (-1) following the match; ``ledger``:
        this node's own sockets (not a dead node's, taken back by ``keep``)."""
        if ledger:
            await self.count(mid, pid, delta)
        mk, _, ek = store.match_keys(mid)
        away = {"type": "match.away", "match": mid, "player": pid}
        back = {"type": "match.back", "match": mid, "player": pid}
        if await self._here(keys=[mk, ek], args=[
                pid, delta, msgpack.packb(away), msgpack.packb(back),
                *self.book.emit_args(mid)]):
            self.book.forget(mid)
            with contextlib.suppress(ApiError):
                await self.schedule(await self.book.load(mid))

    async def count(self, mid: str, pid: str, delta: int) -> None:
        """This node's ledger: ``delta`` more of its sockets follow the match for ``pid``."""
        self._here_now[mid, pid] += delta
        if self._here_now[mid, pid] <= 0:
            del self._here_now[mid, pid]
        key = store.node_presence(self.node)
        redis = self.book.redis
        if await redis.hincrby(key, f"{mid} {pid}", delta) <= 0:
            await redis.hdel(key, f"{mid} {pid}")

    async def beat(self, stop: asyncio.Event) -> None:
        """Every node, every ``sweep_interval`` until ``stop`` (the first at once, before any
        socket's presence counts): ``keep``. A failing store only delays it."""
        async def step() -> bool:
            await self.keep()
            return False  # nothing to do again before the next beat

        await drain(stop, step, self.book.settings.sweep_interval, log, "the heartbeat")

    async def keep(self) -> None:
        """This node's heartbeat; and a node silent past ``node_timeout`` (killed, its
        sockets gone without a word) has its players' presence taken back, by whichever node
        claims it first."""
        redis = self.book.redis
        now = await self.book.now()
        if await redis.zadd(store.NODES, {self.node: now}) and self._beating:
            # Taken for dead (stalled past the timeout, or cut off from Redis): its players'
            # presence was taken back, so count what this node's sockets still follow again.
            log.warning("node %s was taken for dead: counting its players present again",
                        self.node)
            for (mid, pid), count in list(self._here_now.items()):
                del self._here_now[mid, pid]
                await self.present(mid, pid, count)
        self._beating = True
        timeout = int(self.book.settings.node_timeout * 1000)
        for raw in await redis.zrangebyscore(store.NODES, 0, now - timeout):
            node = store.text(raw)
            if not await redis.zrem(store.NODES, node):
                continue  # another node claimed it
            key = store.node_presence(node)
            for entry, sockets in (await redis.hgetall(key)).items():
                mid, _, pid = store.text(entry).partition(" ")
                with contextlib.suppress(ApiError):
                    await self.present(mid, pid, -int(sockets), ledger=False)
                await redis.hdel(key, entry)
            log.warning("node %s stopped beating: its match presence was taken back", node)

    async def leave_nodes(self) -> None:
        """A clean stop: this node's sockets have closed (their presence with them)."""
        await self.book.redis.zrem(store.NODES, self.node)
