"""Leagues: private groups of players, each with its own boards (server/leagues/boards.py).

A league is a hash (name, owner, invite code, created) and a hash of its members (player id
-> when they joined), both under the league's hash tag, so each change of its membership is
one Lua script on one shard: two nodes joining the last seat at once cannot both get it. Each
player's leagues are a set under the player's hash tag, bounded by ``league_max``; it is
reserved (``RESERVE``) before a join and released if the join is refused, so a node dying in
between leaves at most a stale entry, which reading the player's leagues drops.

The invite code is random (50 bits), shown to members only; ``sd:leaguecode:<code>`` finds the
league, and the league hash's own ``code`` must match, so a code made stale by a new one stops
working at once. Wrong codes are rate-limited per player (a token bucket in Redis, every node
drawing from it), so codes cannot be guessed. Non-members get ``league.unknown`` for a league,
exactly as for one that does not exist: they learn nothing, not even that it exists.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from .. import store
from ..accounts import display_name, new_id
from ..accounts.signups import TAKE
from ..config import Settings
from ..errors import ApiError
from ..store import scripts
from ..transport.reply_types import League, LeagueLeftReply, LeaguesReplyLeague

CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10  # 50 bits
CHANGED = "~"  # published on the league's channel when its membership changes


def league_keys(lid: str) -> tuple[str, str]:
    """The league hash and its members hash, on one shard."""
    return f"sd:{{league:{lid}}}:league", f"sd:{{league:{lid}}}:members"


def league_channel(lid: str) -> str:
    """Membership changes are published here (with ``CHANGED``): the league's live boards
    read their members again."""
    return f"sd:{{league:{lid}}}:changed"


def player_leagues(pid: str) -> str:
    """The leagues a player belongs to (owned ones included), under the player's hash tag."""
    return f"sd:leagues:{{{pid}}}"


def code_key(code: str) -> str:
    return f"sd:leaguecode:{code}"


def join_bucket(pid: str) -> str:
    return f"sd:leaguejoins:{{{pid}}}"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def unknown() -> ApiError:
    return ApiError("league.unknown", "there is no such league, or you are not in it")


# KEYS: the player's leagues; ARGV: league id, the most a player may be in.
# 1: reserved (or already there), 0: the player is in too many leagues.
RESERVE = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""

# The league's channel is its hash's key with 'changed' for 'league'.
_CHANNEL = scripts.PUBLISHES + """
local function changed()
  redis.call(PUBLISH, string.sub(KEYS[1], 1, -7) .. 'changed', '~')
end
"""

# KEYS: league, members; ARGV: player, code, members at most, now (ms).
# 1 joined; -1 no such league or not its code; -2 already a member; -3 full.
JOIN = _CHANNEL + """
local code = redis.call('HGET', KEYS[1], 'code')
if not code or code ~= ARGV[2] then return -1 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return -2 end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then return -3 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
changed()
return 1
"""

# KEYS: league, members; ARGV: player. {-1}: not a member; {1}: left; {2, code, members...}:
# the owner left, so the league is closed (every member out, the code gone).
LEAVE = _CHANNEL + """
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return {-1} end
if owner == ARGV[1] then
  local out = {2, redis.call('HGET', KEYS[1], 'code')}
  for _, m in ipairs(redis.call('HKEYS', KEYS[2])) do out[#out + 1] = m end
  redis.call('DEL', KEYS[1], KEYS[2])
  changed()
  return out
end
redis.call('HDEL', KEYS[2], ARGV[1])
changed()
return {1}
"""

# KEYS: league, members; ARGV: owner, the member to remove.
# 1 removed; -1 no league or the caller not in it; -2 not the owner; -3 not a member.
REMOVE = _CHANNEL + """
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return -1 end
if owner ~= ARGV[1] then return -2 end
if redis.call('HDEL', KEYS[2], ARGV[2]) == 0 then return -3 end
changed()
return 1
"""

# KEYS: league, members; ARGV: owner, the new code. The old code, or -1 (no league or the
# caller not in it) or -2 (not the owner).
RECODE = """
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return -1 end
if owner ~= ARGV[1] then return -2 end
local old = redis.call('HGET', KEYS[1], 'code')
redis.call('HSET', KEYS[1], 'code', ARGV[2])
return old
"""


class Leagues:
    """Creating, joining, leaving, removing, new codes, and reading leagues."""

    def __init__(self, redis: Redis, settings: Settings,
                 clock: Callable[[], Awaitable[int]] | None = None) -> None:
        self.redis = redis
        self.settings = settings
        self.clock = clock or (lambda: store.now_ms(redis))
        self._reserve = store.script(redis, RESERVE)
        self._join = store.script(redis, JOIN)
        self._leave = store.script(redis, LEAVE)
        self._remove = store.script(redis, REMOVE)
        self._recode = store.script(redis, RECODE)
        self._take = store.script(redis, TAKE)

    # ----- changes ----------------------------------------------------------------------

    async def _reserve_for(self, pid: str, lid: str) -> None:
        for attempt in range(2):
            if await self._reserve(keys=[player_leagues(pid)],
                                   args=[lid, self.settings.league_max]):
                return
            if attempt == 0:
                await self.mine(pid)  # drops stale entries, then one more try
        raise ApiError("league.too_many", f"you are in {self.settings.league_max} leagues "
                       "already (the ones you own included): leave one first")

    async def _new_code(self, lid: str) -> str:
        while True:  # a collision in 50 bits is next to impossible, but never shared
            code = new_code()
            if await self.redis.set(code_key(code), lid, nx=True):
                return code

    async def create(self, pid: str, name: str) -> League:
        name = display_name(name)
        lid = new_id("l")
        await self._reserve_for(pid, lid)
        code = await self._new_code(lid)
        now = await self.clock()
        league, members = league_keys(lid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(league, mapping={"name": name, "owner": pid, "code": code,
                                       "created": now})
            pipe.hset(members, pid, now)
            await pipe.execute()
        return await self.summary(pid, lid)

    async def join(self, pid: str, code: str) -> League:
        """Join with an invite code. Every attempt takes a token from the player's bucket
        first, right code or wrong, so a refusal says nothing about the code."""
        await self._take_attempt(pid)
        code = code.strip().lower()
        lid = store.text(await self.redis.get(code_key(code))) if code else ""
        if not lid:
            raise ApiError("league.unknown", "no league has that invite code")
        league, members = league_keys(lid)
        if await self.redis.hexists(members, pid):
            raise ApiError("league.joined", "you are in that league already")
        await self._reserve_for(pid, lid)
        now = await self.clock()
        out = int(await self._join(keys=[league, members],
                                   args=[pid, code, self.settings.league_members, now]))
        if out == 1:  # again: a concurrent read of the player's leagues may have dropped
            await self.redis.sadd(player_leagues(pid), lid)  # the reservation as stale
            return await self.summary(pid, lid)
        if out != -2:
            await self.redis.srem(player_leagues(pid), lid)
        if out == -2:
            raise ApiError("league.joined", "you are in that league already")
        if out == -3:
            raise ApiError("league.full", f"that league has its {self.settings.league_members}"
                           " members already")
        raise ApiError("league.unknown", "no league has that invite code")

    async def _take_attempt(self, pid: str) -> None:
        burst = self.settings.league_join_burst
        if burst <= 0:
            return
        per_ms = max(self.settings.league_join_per_hour, 1e-6) / 3_600_000
        wait_ms = int(await self._take(keys=[join_bucket(pid)], args=[burst, repr(per_ms)]))
        if wait_ms:
            wait = math.ceil(wait_ms / 1000)
            raise ApiError("rate.limited", "too many tries at joining a league: check the code "
                           f"and try again in {wait} s", retry_after=wait,
                           limit="league.join")

    async def leave(self, pid: str, lid: str) -> LeagueLeftReply:
        """Leave a league; the owner leaving closes it (every member out, its code dead)."""
        out = await self._leave(keys=list(league_keys(lid)), args=[pid])
        if int(out[0]) < 0:
            raise unknown()
        closed = int(out[0]) == 2
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.srem(player_leagues(pid), lid)
            if closed:
                pipe.delete(code_key(store.text(out[1])))
                for member in out[2:]:
                    pipe.srem(player_leagues(store.text(member)), lid)
            await pipe.execute()
        return {"league": lid, "closed": closed}

    async def remove(self, pid: str, lid: str, member: str) -> League:
        if member == pid:
            raise ApiError("message.invalid", "to leave your own league, use league.leave "
                           "(which closes it)")
        out = int(await self._remove(keys=list(league_keys(lid)), args=[pid, member]))
        if out == -1:
            raise unknown()
        if out == -2:
            raise ApiError("league.not_owner", "only the league's owner can do that")
        if out == -3:
            raise ApiError("league.not_member", "that player is not in this league")
        await self.redis.srem(player_leagues(member), lid)
        return await self.summary(pid, lid)

    async def recode(self, pid: str, lid: str) -> League:
        """A new invite code; the old one stops working at once (members stay)."""
        code = await self._new_code(lid)
        out = await self._recode(keys=list(league_keys(lid)), args=[pid, code])
        if isinstance(out, int) and out < 0:
            await self.redis.delete(code_key(code))
            if out == -1:
                raise unknown()
            raise ApiError("league.not_owner", "only the league's owner can do that")
        await self.redis.delete(code_key(store.text(out)))
        return await self.summary(pid, lid)

    # ----- reading ----------------------------------------------------------------------

    async def members(self, lid: str) -> tuple[dict[str, str], dict[str, int]]:
        """The league's fields and its members (id -> joined ms); empty when it is gone."""
        league, members = league_keys(lid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(league)
            pipe.hgetall(members)
            fields, joined = await pipe.execute()
        return ({store.text(k): store.text(v) for k, v in fields.items()},
                {store.text(k): int(v) for k, v in joined.items()})

    async def check_member(self, pid: str, lid: str) -> tuple[dict[str, str], dict[str, int]]:
        fields, joined = await self.members(lid)
        if not fields or pid not in joined:
            raise unknown()
        return fields, joined

    async def players(self, ids: list[str]) -> dict[str, tuple[str, str]]:
        """Each player's current name and kind."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in ids:
                pipe.hmget(store.player_key(p), "name", "kind")
            rows = await pipe.execute()
        return {p: (store.text(n), store.text(k) or "human")
                for p, (n, k) in zip(ids, rows, strict=True)}

    async def summary(self, pid: str, lid: str) -> League:
        """The league as its members see it (``league.unknown`` to anyone else)."""
        fields, joined = await self.check_member(pid, lid)
        order = sorted(joined, key=lambda p: (joined[p], p))
        people = await self.players(order)
        owner = fields["owner"]
        return {"league": lid, "name": fields["name"], "code": fields["code"],
                "created": int(fields.get("created", 0)),
                "owner": {"id": owner, "name": people.get(owner, ("", ""))[0]},
                "members": [{"player": p, "name": people[p][0], "kind": people[p][1],
                             "joined": joined[p]} for p in order]}

    async def mine(self, pid: str) -> list[LeaguesReplyLeague]:
        """The player's leagues, by name; stale entries (a join cut short, a closed league)
        are dropped from the player's set on the way."""
        ids = sorted(store.text(x) for x in await self.redis.smembers(player_leagues(pid)))
        async with self.redis.pipeline(transaction=False) as pipe:
            for lid in ids:
                league, members = league_keys(lid)
                pipe.hmget(league, "name", "owner")
                pipe.hexists(members, pid)
                pipe.hlen(members)
            rows = await pipe.execute()
        out: list[LeaguesReplyLeague] = []
        stale = []
        for i, lid in enumerate(ids):
            (name, owner), member, count = rows[3 * i: 3 * i + 3]
            if name is None or not member:
                stale.append(lid)
                continue
            out.append({"league": lid, "name": store.text(name), "owner": store.text(owner),
                        "members": int(count)})
        if stale:
            await self.redis.srem(player_leagues(pid), *stale)
        return sorted(out, key=lambda x: (x["name"].lower(), x["league"]))
