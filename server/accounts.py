"""Players and their bearer tokens: random, shown once, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from redis.asyncio import Redis

from . import store
from .errors import ApiError


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    kind: str  # human | bot

    def public(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "kind": self.kind}


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


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(self, redis: Redis,
                 clock: Callable[[], Awaitable[int]] | None = None) -> None:
        self.redis = redis
        self.clock = clock or (lambda: store.now_ms(redis))  # the daily's clock: "made today"

    async def register(self, name: str, kind: str) -> tuple[Player, str]:
        name = display_name(name)
        player = Player(new_id("p"), name, kind)
        token = secrets.token_urlsafe(32)
        now = await self.clock()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(store.player_key(player.id),
                      mapping={"name": name, "kind": kind, "created": now})
            pipe.set(store.token_key(_digest(token)), player.id)
            await pipe.execute()
        return player, token

    async def rename(self, player: Player, name: str) -> Player:
        """The player under a new display name. Races, matches and boards copy the name when
        the player joins or a result is recorded, so what is already recorded keeps the old."""
        name = display_name(name)
        await self.redis.hset(store.player_key(player.id), "name", name)
        return Player(player.id, name, player.kind)

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
        return Player(pid, store.text(name), store.text(kind))

    async def created(self, pid: str) -> int:
        """When the account was made (server ms); 0 for an account older than the field."""
        return int(await self.redis.hget(store.player_key(pid), "created") or 0)
