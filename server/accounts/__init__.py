"""Players and their bearer tokens: random, shown once, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from redis.asyncio import Redis

from .. import store
from ..errors import ApiError
from ..transport.reply_types import Player as PlayerPayload
from ..transport.reply_types import PlayerKind


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    kind: PlayerKind

    def public(self) -> PlayerPayload:
        return {"id": self.id, "name": self.name, "kind": self.kind}


def kind_of(text: str) -> PlayerKind:
    """A player's kind as the store keeps it (a bot's is ``bot``; the rest are people)."""
    return "bot" if text == "bot" else "human"


def new_id(prefix: str) -> str:
    """Short random ids: a letter for the kind of thing, then 12 base-32 characters."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(12))


def display_name(name: str) -> str:
    """A name as shown: runs of whitespace made one space, none at the ends; at least one
    visible character (the schema has bounded its length and checked it is text)."""
    name = " ".join(name.split())
    if not name:
        raise ApiError("message.invalid", "'name' needs a visible character")
    return name


def name_key(name: str) -> str:
    """The players going by ``name`` (a set of ids): names are not unique, and are found
    without regard to case (a challenge by name, server/challenges/__init__.py)."""
    return f"sd:name:{display_name(name).casefold()}"


TOKEN_PREFIX = "sd_"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(self, redis: Redis,
                 clock: Callable[[], Awaitable[int]] | None = None) -> None:
        self.redis = redis
        self.clock = clock or (lambda: store.now_ms(redis))  # the daily's clock: "made today"

    async def register(self, name: str, kind: PlayerKind) -> tuple[Player, str]:
        name = display_name(name)
        player = Player(new_id("p"), name, kind)
        # The prefix keeps a token from starting with "-", which a command line would take
        # for an option (`--token -x...`), and lets a secret scanner tell a SameDeal token.
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        now = await self.clock()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(store.player_key(player.id),
                      mapping={"name": name, "kind": kind, "created": now})
            pipe.set(store.token_key(_digest(token)), player.id)
            pipe.sadd(name_key(name), player.id)
            await pipe.execute()
        return player, token

    async def rename(self, player: Player, name: str) -> Player:
        """The player under a new display name. Races, matches and boards copy the name when
        the player joins or a result is recorded, so what is already recorded keeps the old."""
        name = display_name(name)
        old = store.text(await self.redis.hget(store.player_key(player.id), "name"))
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(store.player_key(player.id), "name", name)
            pipe.srem(name_key(old or player.name), player.id)
            pipe.sadd(name_key(name), player.id)
            await pipe.execute()
        return Player(player.id, name, player.kind)

    async def named(self, name: str) -> list[Player]:
        """The players going by ``name`` now, case aside (an entry left behind by a rename
        that failed half-way is checked against the name and dropped)."""
        key = name_key(name)
        out = []
        for pid in sorted(store.text(p) for p in await self.redis.smembers(key))[:10]:
            try:
                found = await self.get(pid)
            except ApiError:
                found = None
            if found is not None and name_key(found.name) == key:
                out.append(found)
            else:
                await self.redis.srem(key, pid)
        return out

    async def listed(self, player: Player) -> None:
        """``player`` findable by name: accounts made before the index are added when they
        connect (server/challenges/notices.py)."""
        await self.redis.sadd(name_key(player.name), player.id)

    async def authenticate(self, token: str | None) -> Player:
        if not token:
            raise ApiError("auth.required", "send your bearer token (register at /api/v1/players)")
        pid = await self.redis.get(store.token_key(_digest(token)))
        if pid is None:
            raise ApiError("auth.invalid", "that token is not valid")
        return await self.get(store.text(pid))

    async def get(self, pid: str) -> Player:
        name, kind = await self.redis.hmget(store.player_key(pid), "name", "kind")
        if name is None:
            raise ApiError("player.unknown", "there is no such player")
        return Player(pid, store.text(name), kind_of(store.text(kind)))

    async def created(self, pid: str) -> int:
        """When the account was made (server ms); 0 for an account older than the field."""
        return int(await self.redis.hget(store.player_key(pid), "created") or 0)
