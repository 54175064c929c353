"""The public randomness beacon (drand): the round at a day's opening, fetched over drand's HTTP
API and verified against the configured public key before anything uses it.

Fetches run urllib in a thread: one request a day per node needs no HTTP client dependency,
and a thread keeps a slow beacon off the event loop. The BLS check (about half a second of pure
Python) runs in a thread too, once per round per process: a verified round is remembered.
"""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from collections import OrderedDict
from dataclasses import dataclass

from engine import beacon_check

from ..config import Settings
from ..transport.reply_types import BeaconChain, Round

log = logging.getLogger("samedeal.beacon")

#: Tries per fetch (network errors and 5xx answers only; a round not yet published is not
#: retried here, the caller tries again later), and the pause before each retry.
ATTEMPTS = 3
BACKOFF = 0.5
#: Largest answer read from the beacon: a round or the chain's info is a few hundred bytes.
MAX_ANSWER = 65536
#: Verified rounds remembered per process (a day needs one).
REMEMBERED = 64


class BeaconError(Exception):
    """The beacon's round can't be used (yet): not published, unreachable, or not genuine."""


@dataclass(frozen=True)
class BeaconRound:
    """One drand round: its number, randomness (SHA-256 of the signature) and signature."""

    round: int
    randomness: bytes
    signature: bytes
    previous_signature: bytes | None = None

    def public(self) -> Round:
        """drand's own JSON shape (hex strings): what is stored and published."""
        out: Round = {"round": self.round, "randomness": self.randomness.hex(),
                      "signature": self.signature.hex()}
        if self.previous_signature is not None:
            out["previous_signature"] = self.previous_signature.hex()
        return out

    def to_json(self) -> str:
        return json.dumps(self.public(), separators=(",", ":"))

    @classmethod
    def parse(cls, data: object) -> BeaconRound:
        """A round from drand's JSON shape, its randomness checked against its signature
        (the BLS signature itself is checked by ``Beacon.verified``)."""
        if not isinstance(data, dict):
            raise BeaconError("the beacon's round is not a JSON object")
        try:
            number = data["round"]
            signature = bytes.fromhex(data["signature"])
            randomness = bytes.fromhex(data["randomness"])
            previous = data.get("previous_signature")
            previous_signature = bytes.fromhex(previous) if previous else None
        except (KeyError, TypeError, ValueError) as e:
            raise BeaconError(f"the beacon's round is malformed ({e})") from None
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise BeaconError("the beacon's round number is not a positive integer")
        if randomness != beacon_check.randomness(signature):
            raise BeaconError(f"round {number}'s randomness is not SHA-256 of its signature")
        return cls(number, randomness, signature, previous_signature)

    @classmethod
    def from_json(cls, text: str | bytes) -> BeaconRound:
        try:
            return cls.parse(json.loads(text))
        except ValueError as e:
            raise BeaconError(f"the stored round is not JSON ({e})") from None


@dataclass(frozen=True)
class Chain:
    """What identifies a drand chain and times its rounds (genesis and period in seconds)."""

    hash: str
    public_key: bytes
    scheme: str
    genesis: int
    period: int

    def public(self) -> BeaconChain:
        """What a checker needs besides the round (published with a day that used it):
        drand's /info names, the key in hex."""
        return {"hash": self.hash, "public_key": self.public_key.hex(), "schemeID": self.scheme,
                "genesis_time": self.genesis, "period": self.period}

    def round_at(self, at_ms: int) -> int:
        """The first round published at or after ``at_ms``."""
        return beacon_check.round_at(self.genesis, self.period, at_ms)

    def due_ms(self, round: int) -> int:
        return beacon_check.round_due_ms(self.genesis, self.period, round)


class Beacon:
    """A drand chain over HTTP, trusted only as far as its rounds verify."""

    def __init__(self, url: str, chain: Chain, timeout: float = 5.0) -> None:
        self.url = url.rstrip("/")
        self.chain = chain
        self.timeout = timeout
        self._checked_info = False
        self._verified: OrderedDict[int, BeaconRound] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> Beacon | None:
        """The configured beacon, or None without a ``beacon_url``."""
        if not settings.beacon_url:
            return None
        if settings.beacon_scheme not in beacon_check.SCHEMES:
            raise ValueError(f"beacon_scheme {settings.beacon_scheme!r} is not one of "
                             + ", ".join(beacon_check.SCHEMES))
        try:
            key = bytes.fromhex(settings.beacon_public_key)
        except ValueError:
            raise ValueError("beacon_public_key is not hex") from None
        if len(key) != beacon_check.KEY_BYTES[settings.beacon_scheme]:
            raise ValueError(f"beacon_public_key has {len(key)} bytes; a "
                             f"{settings.beacon_scheme} key has "
                             f"{beacon_check.KEY_BYTES[settings.beacon_scheme]}")
        chain = Chain(settings.beacon_chain.lower(), key, settings.beacon_scheme,
                      settings.beacon_genesis, settings.beacon_period)
        return cls(settings.beacon_url, chain, settings.beacon_timeout)

    # The storage form, for the daily's Redis key (a round's own JSON shape).
    to_json = staticmethod(BeaconRound.to_json)
    from_json = staticmethod(BeaconRound.from_json)

    def public(self) -> BeaconChain:
        """The chain's identity and timing, stored and published with each day's round."""
        return self.chain.public()

    async def round_for_day(self, opens_at_ms: int) -> BeaconRound:
        """The first round at or after the day's opening, fetched and verified; BeaconError
        if it is not published yet, the beacon can't be reached, or the round is not genuine."""
        await self.check_info()
        number = self.chain.round_at(opens_at_ms)
        if number in self._verified:
            return self._verified[number]
        data = await self._get(f"public/{number}", f"round {number}")
        got = BeaconRound.parse(data)
        if got.round != number:
            raise BeaconError(f"the beacon answered round {got.round} for round {number}")
        return await self.verified(got)

    async def verified(self, got: BeaconRound, opens_at_ms: int | None = None) -> BeaconRound:
        """``got`` once its signature verifies (BeaconError otherwise): checked once per
        process, in a thread, so a day's rounds cost one check per node, not one per request.
        With ``opens_at_ms`` (a round another node stored for a day), it must also be that
        day's round."""
        if opens_at_ms is not None:
            await self.check_info()
            if got.round != self.chain.round_at(opens_at_ms):
                raise BeaconError(f"round {got.round} is not the round of the day's opening "
                                  f"({self.chain.round_at(opens_at_ms)})")
        lock = self._locks.setdefault(got.round, asyncio.Lock())
        try:
            async with lock:  # concurrent callers wait for one check, not each run their own
                known = self._verified.get(got.round)
                if known is None:
                    ok = await asyncio.to_thread(
                        beacon_check.verify_round, self.chain.scheme, self.chain.public_key,
                        got.round, got.signature, got.previous_signature)
                    if not ok:
                        raise BeaconError(f"round {got.round}'s signature does not verify "
                                          "against the beacon's public key")
                    self._verified[got.round] = known = got
                    while len(self._verified) > REMEMBERED:
                        self._verified.popitem(last=False)
        finally:
            self._locks.pop(got.round, None)
        if known != got:
            raise BeaconError(f"round {got.round} differs from the one already verified")
        return known

    async def check_info(self) -> None:
        """Once: the beacon's /info names the configured chain, key and scheme, and times its
        rounds as configured (a period or genesis of 0 in the settings is taken from it)."""
        if self._checked_info:
            return
        info = await self._get("info", "the chain's info")
        if not isinstance(info, dict):
            raise BeaconError("the beacon's info is not a JSON object")
        chain = self.chain
        scheme = info.get("schemeID") or beacon_check.CHAINED  # older nodes omit the default
        wrong = [name for name, theirs, ours in (
            ("hash", str(info.get("hash", "")).lower(), chain.hash),
            ("public_key", str(info.get("public_key", "")).lower(), chain.public_key.hex()),
            ("schemeID", scheme, chain.scheme),
            ("genesis_time", info.get("genesis_time"), chain.genesis or info.get("genesis_time")),
            ("period", info.get("period"), chain.period or info.get("period")),
        ) if theirs != ours]
        if wrong:
            raise BeaconError(f"the beacon at {self.url} is not the configured chain: its "
                              + ", ".join(wrong) + " differ from the settings")
        genesis, period = info.get("genesis_time"), info.get("period")
        if not (isinstance(genesis, int) and isinstance(period, int) and period > 0):
            raise BeaconError("the beacon's info has no usable genesis_time and period")
        self.chain = Chain(chain.hash, chain.public_key, chain.scheme, genesis, period)
        self._checked_info = True

    async def _get(self, path: str, what: str) -> object:
        url = f"{self.url}/{self.chain.hash}/{path}"
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return await asyncio.to_thread(self._fetch, url)
            except urllib.error.HTTPError as e:
                if e.code == 404:
                    raise BeaconError(f"the beacon has not published {what} yet") from None
                failure = f"HTTP {e.code}"
                if e.code < 500:
                    break
            except (OSError, ValueError) as e:  # refused, timed out, reset, not JSON
                failure = str(e) or type(e).__name__
            log.info("beacon: %s from %s failed (%s), attempt %d", what, url, failure, attempt)
            if attempt < ATTEMPTS:
                await asyncio.sleep(BACKOFF * attempt)
        raise BeaconError(f"the beacon at {self.url} did not give {what} ({failure})")

    def _fetch(self, url: str) -> object:
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=self.timeout) as answer:
            return json.loads(answer.read(MAX_ANSWER))
