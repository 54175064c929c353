"""Daily seeds nobody can choose: a pre-committed hash chain of day secrets (docs/fairness.md).

A chain is made from a random 32-byte root ``r`` and a length ``N``: ``s[N-1] = r``,
``s[k-1] = link(s[k])``, and its anchor ``a = link(s[0])`` is published before day 0. The
secret of day k (the chain's start plus k days, UTC) is ``s[k]``; ``link^(k+1)(s[k]) == a``
proves it was fixed when the anchor was, and ``s[k]`` says nothing about ``s[k+1]`` (it would
take a SHA-256 preimage). A day's seed is an HMAC of its label under the day's secret, with
the public beacon's randomness in the label when the day uses one.

Pure functions (hashlib and hmac only): the server, ``samedeal verify-day`` and the tests share
them, and docs/fairness.md states them for other languages.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

LINK_PREFIX = b"samedeal-chain/"
#: Days a chain covers unless told otherwise: a century.
DEFAULT_LENGTH = 36500


def link(x: bytes) -> bytes:
    """One step down the chain: SHA-256 of the prefix and the link."""
    return hashlib.sha256(LINK_PREFIX + x).digest()


def links(x: bytes, times: int) -> bytes:
    for _ in range(times):
        x = link(x)
    return x


def anchor(root: bytes, length: int = DEFAULT_LENGTH) -> bytes:
    """The public anchor of the chain made from ``root``: ``link^length(root)``."""
    if length < 1:
        raise ValueError("a chain has at least one day")
    return links(root, length)


def day_secret(root: bytes, length: int, k: int) -> bytes:
    """The secret of day ``k`` (0-based): ``N-1-k`` links down from the root."""
    if not 0 <= k < length:
        raise ValueError(f"day {k} is outside a chain of {length} days")
    return links(root, length - 1 - k)


def all_secrets(root: bytes, length: int) -> list[bytes]:
    """Every day's secret, day 0 first: one walk down the chain (a server caches this)."""
    out = [root]
    for _ in range(length - 1):
        out.append(link(out[-1]))
    out.reverse()
    return out


def day_index(start: date, day: date) -> int:
    """Which link of a chain starting on ``start`` is ``day``'s (negative: before it)."""
    return (day - start).days


def verify_day_secret(anchor_: bytes, k: int, secret: bytes) -> bool:
    """Does ``secret`` hash to the anchor in exactly ``k + 1`` links?"""
    return k >= 0 and hmac.compare_digest(links(secret, k + 1), anchor_)


def daily_label(day: date, game: str, variant: str, beacon: bytes | None = None,
                edition: str = "daily") -> bytes:
    """``samedeal-daily/YYYY-MM-DD/GAME/VARIANT``, then ``/beacon/HEX`` when the day mixes in
    a beacon round's randomness. (The winnable-deal rule reserves a further ``/K``.) The live
    edition's label starts ``samedeal-live/``: another deal of the same day and rule set, so
    playing the all-day deal first tells nothing of the live one."""
    text = f"samedeal-{edition}/{day.isoformat()}/{game}/{variant}"
    if beacon is not None:
        text += "/beacon/" + beacon.hex()
    return text.encode()


def daily_seed(day_secret: bytes, day: date, game: str, variant: str,
               beacon: bytes | None = None, edition: str = "daily") -> bytes:
    """A rule set's seed for a day (``edition``: ``daily`` or ``live``): HMAC-SHA256 of its
    label under the day's secret."""
    return hmac.new(day_secret, daily_label(day, game, variant, beacon, edition),
                    hashlib.sha256).digest()
