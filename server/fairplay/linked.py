"""Linked accounts on a daily deal: where each ranked attempt was played from.

A scout plays (or opens and drops) the day's deal on one account, then plays it knowing the
deal on another, usually from the same network and the same browser. So every ranked
attempt's start and moves note two fingerprints: its **origin** (the client's address as
``server/transport/rest.py`` ``client_address`` reads it, an IPv6 address by its /64; not a loopback
address, this machine's own) and its **client** (the install id the client sent with
``daily.start``, with the User-Agent; a User-Agent alone is shared by everyone on one
browser version, so without an install id there is no client fingerprint). Only a keyed hash
of each is kept (HMAC-SHA256 under a key made once in Redis), never an address, and only for
a few days. When an attempt is recorded, the other accounts' attempts on the same deal
sharing a fingerprint and started before it are its evidence (docs/daily.md, "Integrity
signal").
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import TypedDict

from redis.asyncio import Redis

from .. import store
from ..accounts.signups import bucket_name, loopback
from .integrity import Evidence, LinkedAttempt

KEY = "sd:integrity:key"
#: Seconds the fingerprints are kept: past the day's deadline, when the last attempt is
#: recorded.
KEEP = 3 * 86400
#: Fingerprints this process noted already, (attempt, fingerprint), past which it forgets
#: them all: each move of an attempt would note the same ones again.
NOTED = 50_000
#: An earlier attempt that stopped within this many moves (resigned, or left) before this one
#: started "ended early": what a look at the deal looks like.
EARLY_MOVES = 10


class _Seen(TypedDict):
    """What an earlier attempt shows of itself: when it started, its moves (a resignation
    not counted), whether it resigned, its last move's time, its player."""

    created: int
    moves: int
    resigned: bool
    last_at: int
    player: str


def seen_key(sid: str) -> str:
    return f"sd:{{{sid}}}:seen"  # beside the session's own keys


def index_key(deal: str, fingerprint: str) -> str:
    return f"sd:{{seen:{deal}}}:{fingerprint}"


class Linked:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._key: bytes | None = None
        self._noted: set[tuple[str, str]] = set()

    async def key(self) -> bytes:
        if self._key is None:
            await self.redis.set(KEY, os.urandom(32).hex(), nx=True)
            self._key = bytes.fromhex(store.text(await self.redis.get(KEY)))
        return self._key

    async def fingerprints(self, address: str, agent: str, install: str = "") -> list[str]:
        key = await self.key()

        def mark(kind: str, text: str) -> str:
            return kind + hmac.new(key, text.encode("utf-8", "replace"),
                                   hashlib.sha256).hexdigest()[:20]

        # This machine's own address says nothing: behind a proxy on the same machine (with
        # no trusted_proxies) every player would share it, as every local bot and test does.
        out = [mark("o", bucket_name(address))] if address and not loopback(address) else []
        if install:  # a User-Agent alone is shared by everyone on that browser's version
            out.append(mark("c", f"{agent[:512]}\n{install}"))
        return out

    async def saw(self, sid: str, deal: str, address: str, agent: str,
                  install: str = "") -> None:
        """Note where a move (or the start) of attempt ``sid`` at ``deal`` (a day's deal of
        a rule set) came from: once per fingerprint and process, so moves after the first
        cost nothing here."""
        prints = [p for p in await self.fingerprints(address, agent, install)
                  if (sid, p) not in self._noted]  # noted here before: in Redis already
        if not prints:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(seen_key(sid), *prints)
            pipe.expire(seen_key(sid), KEEP)
            for p in prints:
                pipe.sadd(index_key(deal, p), sid)
                pipe.expire(index_key(deal, p), KEEP)
            await pipe.execute()
        if len(self._noted) >= NOTED:
            self._noted.clear()
        self._noted.update((sid, p) for p in prints)

    async def evidence(self, sid: str, deal: str, player: str,
                       created: int) -> Evidence:
        """The other accounts' attempts on ``deal`` from one of attempt ``sid``'s origins or
        clients (``player``'s, started at ``created``), started before it: how many, how many
        ended early, and each."""
        prints = sorted(store.text(p) for p in await self.redis.smembers(seen_key(sid)))
        via: dict[str, set[str]] = {}
        for p in prints:
            for other in await self.redis.smembers(index_key(deal, p)):
                o = store.text(other)
                if o != sid:
                    via.setdefault(o, set()).add("origin" if p[0] == "o" else "client")
        found: list[LinkedAttempt] = []
        for other, how in sorted(via.items()):
            seen = await self._attempt(other)
            if seen is None or seen["player"] == player or seen["created"] >= created:
                continue
            early = seen["moves"] <= EARLY_MOVES and seen["last_at"] < created
            found.append({"session": other, "player": seen["player"],
                          "via": sorted(how), "moves": seen["moves"],
                          "resigned": seen["resigned"], "early": early})
        return {"linked": len({f["player"] for f in found}),
                "linked_early": len({f["player"] for f in found if f["early"]}),
                "linked_attempts": found[:10]}

    async def _attempt(self, sid: str) -> _Seen | None:
        key, moves_key = store.session_keys(sid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(key, "created", "finished_at", "player")
            pipe.llen(moves_key)
            pipe.lindex(moves_key, -1)
            (created, finished, player), n, last = await pipe.execute()
        if created is None:
            return None
        last_text = store.text(last) if last is not None else ""
        resigned = last_text.partition(" ")[2] == "resign"
        moves = n - 1 if resigned else n
        at = int(last_text.partition(" ")[0]) if last_text else int(created)
        if finished is not None:
            at = max(at, int(finished))
        return {"created": int(created), "moves": moves, "resigned": resigned, "last_at": at,
                "player": store.text(player or b"")}
