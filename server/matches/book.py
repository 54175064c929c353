"""Reading matches: each match rebuilt from Redis, kept while nothing changed since, and one
lock per match so that this node's changes to it take turns."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections import OrderedDict

from redis.asyncio import Redis

import engine

from .. import store
from ..config import Settings
from ..errors import ApiError
from ..followups import Expected
from . import rounds, turns
from .record import TURNS, Match, read


class Book:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.expected = Expected(redis, settings)  # before a change that may end a match
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    def lock(self, mid: str) -> asyncio.Lock:
        lock = self._locks.get(mid)
        if lock is None:
            lock = self._locks[mid] = asyncio.Lock()
        return lock

    def forget(self, mid: str) -> None:
        """The match changed (or may have): the next read rebuilds it."""
        self._cache.pop(mid, None)

    def emit_args(self, mid: str) -> tuple[int, str]:
        """The event window and channel every script that announces an event takes."""
        return self.settings.event_window, store.channel(mid)

    async def now(self) -> int:
        return await store.now_ms(self.redis)

    async def load(self, mid: str) -> Match:
        """The match as Redis has it now; the cached one when nothing changed since."""
        mk, pk, _ = store.match_keys(mid)
        cached = self._cache.get(mid)
        if cached is not None:
            # Every change bumps rev or seq (a Bowling card that keeps the turn has no event).
            state, seq, rev = await self.redis.hmget(mk, "state", "seq", "rev")
            # Kept only if no change forgot it meanwhile (while this read was out).
            if state is not None and store.text(state) == cached.meta["state"] and (
                    int(seq or 0) == cached.meta["seq"]) and int(rev or 0) == cached.rev and (
                    self._cache.get(mid) is cached):
                self._cache.move_to_end(mid)
                return cached
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(mk)
            pipe.hgetall(pk)
            pipe.lrange(store.match_moves(mid), 0, -1)
            raw, players, bowled = await pipe.execute()
        if not raw:
            raise unknown(mid)
        meta = read(raw)
        infos = {k.decode(): json.loads(v) for k, v in players.items()}
        order = sorted(infos, key=lambda p: meta["seat"].get(p, 0))
        rules = engine.get(meta["game"], meta["variant"])
        form = rules.match
        if form is None:  # a match stored by a server that still matched this game
            raise ApiError("match.game", f"{rules.name} is no longer played as a match")
        seed = bytes.fromhex(meta["seed"])
        calls = rules.deal(seed).piles[rules.stock_pile][::-1]
        m = Match(mid, meta, infos, order, rules, form, seed, calls)
        if meta["state"] != "open":
            if m.kind == TURNS:
                turns.replay(m, bowled, cached)
            else:
                # The record read again with the grids, in one transaction: read apart, a
                # placement landing between left a round's record beside the next round's
                # grids, a match that waited for no one, and the timer dropped it.
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.hgetall(mk)
                    for p in order:
                        pipe.lrange(store.match_moves(mid, p), 0, -1)
                    raw, *lists = await pipe.execute()
                if not raw:
                    raise unknown(mid)
                m.meta = read(raw)
                rounds.replay(m, dict(zip(order, lists, strict=True)))
        self._cache[mid] = m
        self._cache.move_to_end(mid)
        while len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)
        return m


def unknown(mid: str) -> ApiError:
    return ApiError("match.unknown", f"there is no match {mid[:40]!r}")
