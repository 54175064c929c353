"""How fast one client address may make new accounts: a token bucket in Redis, so every node
draws from the same bucket.

Without a limit anyone can make throwaway accounts by the thousand (to scout a daily deal, or
to flood the boards). Each address holds up to ``signup_burst`` registrations and earns them
back at ``signup_per_hour``; the bucket is one small hash whose expiry is the time it takes to
fill up again, so an address that stops registering leaves nothing behind. IPv6 addresses
count by their /64, the block one line usually gets, so a client cannot walk through its own
addresses. Behind a reverse proxy the address is read from X-Forwarded-For, but only when the
connection comes from one of the ``trusted_proxies`` (server/transport/rest.py ``client_address``).
"""

from __future__ import annotations

import ipaddress
import math

from redis.asyncio import Redis

from .. import store
from ..config import Settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# KEYS: the address's bucket; ARGV: burst, tokens per ms. Redis's clock, so all nodes agree.
# Returns 0 when a registration may go ahead (and takes its token), else the ms to wait.
TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(s[1]) or burst
local at = tonumber(s[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
if tokens < 1 then return math.ceil((1 - tokens) / rate) end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((burst - tokens) / rate)))
return 0
"""


def networks(text: str) -> list[Network]:
    """The ``trusted_proxies`` setting: CIDRs (or single addresses), comma-separated."""
    return [ipaddress.ip_network(part.strip(), strict=False)
            for part in text.split(",") if part.strip()]


def is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def within(address: str, nets: list[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in nets)


def bucket_name(address: str) -> str:
    """The bucket an address draws from: itself, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]  # not an IP (a test client, a Unix socket): as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is a.b.c.d
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def loopback(address: str) -> bool:
    """Whether ``address`` is this machine's own (127.0.0.0/8, ::1, or mapped)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


class SignupLimit:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.burst = settings.signup_burst
        self.per_ms = max(settings.signup_per_hour, 1e-6) / 3_600_000  # never 0: a wait
        self.trusted = networks(settings.trusted_proxies)
        self.local_free = settings.signup_local_free
        self._take = store.script(redis, TAKE)

    async def take(self, address: str) -> int:
        """Take one registration from the address's bucket: 0, or whole seconds to wait
        (none taken). A burst of 0 turns the limit off; ``signup_local_free`` turns it off
        for this machine's own addresses."""
        if self.burst <= 0 or (self.local_free and loopback(address)):
            return 0
        wait_ms = int(await self._take(keys=[f"sd:signups:{{{bucket_name(address)}}}"],
                                       args=[self.burst, repr(self.per_ms)]))
        return math.ceil(wait_ms / 1000) if wait_ms else 0
