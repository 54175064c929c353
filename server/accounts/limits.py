"""How much one account, or one client address without a token, may ask of the server: limits
shared by every node, so a player cannot multiply them by spreading requests over REST, many
sockets or several nodes.

- **account**: every request of an account over REST and every message of all its sockets
  (``ping`` aside) draw from one token bucket: ``account_burst`` at once, ``account_per_second``
  earned back, kept in Redis (the registration limit's bucket, taken a few tokens at a time:
  ``TAKE_SOME``), on Redis's clock, so two nodes spend one budget. A node takes a
  twentieth of the burst at once (one take under way per bucket: requests arriving meanwhile
  wait for it and share it) and spends it within a second before asking again, so a
  request costs a round trip to Redis only now and then (the move path stays one script): no
  account is ever served more than its budget, and one is refused at most a twentieth of the
  burst per node early (a node's unspent tokens lapse).
- **origin**: requests without a token (registration, the daily page, transcripts, a bad
  token...) draw from their client address's bucket (``origin_burst``, ``origin_per_second``);
  the address is found as for the registration limit (trusted proxies, IPv6 by its /64).
- **sockets**: an account holds at most ``sockets_per_account`` authenticated sockets across
  every node. Each is a lease in a sorted set (its expiry as score), renewed by its node while
  it is open: a node that dies leaves leases that lapse within ``socket_lease`` seconds.

Over a limit the request is refused (``rate.limited``, naming the limit, with ``retry_after``)
and not processed. A bucket that refused knows when it can take again: this node refuses
without asking Redis until then. When Redis is unreachable the check fails as every store call
does, and the request answers ``store.unavailable``: nothing is served unlimited.
``limits_local_free`` (a private server's own machine) lifts the three limits for loopback
clients; the per-socket limit (server/transport/ws.py) stays for everyone.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import secrets
import time

from redis.asyncio import Redis

from .. import store
from ..config import Settings
from ..errors import ApiError
from ..loops import pause
from .signups import bucket_name, loopback

log = logging.getLogger("samedeal.limits")

#: Refusals and unspent tokens remembered per node (bucket -> until when, monotonic); past
#: this many, the expired go.
REMEMBERED = 4096
#: A node takes this share of a bucket's burst at once (at least one token), and spends it
#: within ``SPEND_WITHIN`` seconds or lets it lapse.
TAKEN_SHARE = 20
SPEND_WITHIN = 1.0

# The registration limit's token bucket (server/accounts/signups.py ``TAKE``), taking up to ARGV[3]
# tokens at once. KEYS: the bucket; ARGV: burst, tokens earned per ms, tokens wanted.
# {tokens taken, 0}, or {0, ms until one can be}.
TAKE_SOME = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst, rate, want = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(s[1]) or burst
local at = tonumber(s[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
if tokens < 1 then return {0, math.ceil((1 - tokens) / rate)} end
local got = math.min(want, math.floor(tokens))
tokens = tokens - got
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((burst - tokens) / rate)))
return {got, 0}
"""

# KEYS: the account's sockets (member -> lease's end, ms); ARGV: this socket, the most an
# account holds, the lease (ms). 0: counted (or already was); else ms until the first lease
# ends.
OPEN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and
    redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
  return math.max(1, tonumber(first) - now)
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0
"""

# KEYS: the account's sockets; ARGV: this socket, the lease (ms). A lease still held runs on.
RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""


def account_key(pid: str) -> str:
    return f"sd:limit:account:{{{pid}}}"


def origin_key(address: str) -> str:
    return f"sd:limit:origin:{{{bucket_name(address)}}}"


def sockets_key(pid: str) -> str:
    return f"sd:sockets:{{{pid}}}"


def refusal(limit: str, wait: float, what: str) -> ApiError:
    return ApiError("rate.limited", f"slow down: over {what}; try again in {wait:g} s",
                    retry_after=wait, limit=limit)


class Limits:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self._take = store.script(redis, TAKE_SOME)
        self._open = store.script(redis, OPEN)
        self._renew = store.script(redis, RENEW)
        self.node = secrets.token_hex(6)  # this process's sockets' prefix in the leases
        self._ids = itertools.count(1)
        self.held: dict[str, str] = {}  # this node's counted sockets -> their account
        self.refused: dict[str, float] = {}  # bucket -> no token before (monotonic)
        self.unspent: dict[str, tuple[int, float]] = {}  # bucket -> tokens taken, lapse at
        self.taking: dict[str, asyncio.Future[None]] = {}  # bucket -> its take under way

    def free(self, address: str) -> bool:
        """No account, origin or socket limit for this client: a private server's own."""
        return self.settings.limits_local_free and loopback(address)

    async def account(self, pid: str) -> ApiError | None:
        """One request from the account's budget; the refusal if it has none left."""
        s = self.settings
        wait = await self._draw(account_key(pid), s.account_burst, s.account_per_second)
        if wait is None:
            return None
        return refusal("account", wait, f"your account's limit of {s.account_per_second:g} "
                       f"requests a second (bursts of {s.account_burst}), counted over REST and "
                       "all your sockets together")

    async def origin(self, address: str) -> ApiError | None:
        """One request without a token from the client address's budget, or the refusal."""
        s = self.settings
        wait = await self._draw(origin_key(address), s.origin_burst, s.origin_per_second)
        if wait is None:
            return None
        return refusal("origin", wait, f"the limit of {s.origin_per_second:g} requests a second "
                       f"(bursts of {s.origin_burst}) without a token from your network")

    async def _draw(self, key: str, burst: int, per_second: float) -> float | None:
        """None when a token was taken (or the limit is off: a burst of 0), else the seconds
        until one can be."""
        if burst <= 0:
            return None
        while True:
            now = time.monotonic()
            held, lapse = self.unspent.get(key, (0, 0.0))
            if held > 0 and now < lapse:  # taken from the bucket already: spend one here
                self.unspent[key] = (held - 1, lapse)
                return None
            until = self.refused.get(key)
            if until is not None:
                if now < until:  # the bucket only fills with time: no need to ask
                    return math.ceil((until - now) * 1000) / 1000
                del self.refused[key]
            taking = self.taking.get(key)
            if taking is None:
                break
            await asyncio.shield(taking)  # another request here is asking: share its take
        self.taking[key] = done = asyncio.get_running_loop().create_future()
        try:
            per_ms = max(per_second, 1e-6) / 1000
            got, wait_ms = await self._take(keys=[key], args=[
                burst, repr(per_ms), max(1, burst // TAKEN_SHARE)])
        finally:
            del self.taking[key]
            done.set_result(None)
        if int(got):
            if len(self.unspent) >= REMEMBERED:
                self.unspent = {k: v for k, v in self.unspent.items() if v[1] > now}
            self.unspent[key] = (int(got) - 1, now + SPEND_WITHIN)
            return None
        if len(self.refused) >= REMEMBERED:
            self.refused = {k: t for k, t in self.refused.items() if t > now}
        # From when Redis answered, not from before asking: its wait counts from when the
        # script ran, and a refusal's retry_after must never come before a token can.
        self.refused[key] = time.monotonic() + int(wait_ms) / 1000
        return int(wait_ms) / 1000

    def socket_id(self) -> str:
        return f"{self.node}:{next(self._ids)}"

    async def open_socket(self, sid: str, pid: str) -> None:
        """Count socket ``sid`` as the account's (after its hello), releasing the account it
        counted for before; ``rate.limited`` (limit ``sockets``) when the account holds its
        most already."""
        s = self.settings
        before = self.held.get(sid)
        if before == pid:
            return
        if s.sockets_per_account > 0:
            wait_ms = int(await self._open(keys=[sockets_key(pid)], args=[
                sid, s.sockets_per_account, int(s.socket_lease * 1000)]))
            if wait_ms:  # the first lease's end: a socket of a dead node, at the latest
                wait = math.ceil(wait_ms / 1000)
                raise ApiError("rate.limited", f"your account has {s.sockets_per_account} "
                               "sockets open already, the most it may have at once on all "
                               "servers together: close one and say hello again (or try again "
                               f"in {wait} s)", retry_after=wait, limit="sockets")
        if before is not None:
            await self.close_socket(sid)
        self.held[sid] = pid

    async def close_socket(self, sid: str) -> None:
        pid = self.held.pop(sid, None)
        if pid is not None and self.settings.sockets_per_account > 0:
            await self.redis.zrem(sockets_key(pid), sid)

    async def renew(self) -> None:
        """Extend the leases of this node's open sockets."""
        lease = int(self.settings.socket_lease * 1000)
        for sid, pid in list(self.held.items()):
            if sid in self.held:  # not closed meanwhile
                await self._renew(keys=[sockets_key(pid)], args=[sid, lease])

    async def run(self, stop: asyncio.Event) -> None:
        """Every node: renew its sockets' leases three times a lease, until ``stop``."""
        if self.settings.sockets_per_account <= 0:
            return
        while not await pause(stop, self.settings.socket_lease / 3):
            try:
                await self.renew()
            except Exception as e:  # Redis away: the next round tries again
                log.warning("the sockets' leases could not be renewed: %s", e)
