"""A local drand beacon for tests: a Starlette app served by uvicorn on loopback that speaks
drand's HTTP API (GET /{chain}/info, /{chain}/public/{round}, /{chain}/public/latest) and signs
each round with a BLS key made for the test, as a one-node drand network would.

Round r is published at genesis + (r - 1) * period by the real clock; a later round is a 404,
as on drand. ``hold`` makes every round a 404 (a beacon not there yet), ``broken`` every answer
a 500, and ``tamper`` serves a forgery: ``"signature"`` (its last byte flipped, the randomness
recomputed to match), ``"randomness"``, ``"round"`` (another round's
signature under this round's number) or ``"key"`` (rounds signed by a key other than the one
the info advertises: an impostor of the chain).
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from engine import beacon_check


@dataclass
class LocalBeacon:
    secret: int
    scheme: str = beacon_check.QUICKNET
    genesis: int = 0  # Unix seconds
    period: int = 3
    hold: bool = False
    broken: bool = False
    tamper: str = ""
    url: str = ""
    requests: list[str] = field(default_factory=list)
    _signatures: dict[tuple[int, int], bytes] = field(default_factory=dict)

    @property
    def public_key(self) -> bytes:
        return beacon_check.public_key(self.scheme, self.secret)

    @property
    def chain_hash(self) -> str:
        """A hash naming this chain (drand's is a hash of its info; any stable one serves)."""
        return hashlib.sha256(b"local beacon/" + self.public_key
                              + f"/{self.genesis}/{self.period}".encode()).hexdigest()

    def info(self) -> dict[str, Any]:
        return {"public_key": self.public_key.hex(), "period": self.period,
                "genesis_time": self.genesis, "hash": self.chain_hash,
                "groupHash": hashlib.sha256(self.chain_hash.encode()).hexdigest(),
                "schemeID": self.scheme, "metadata": {"beaconID": "local"}}

    def env(self) -> dict[str, str]:
        """The settings that point a ``samedeal serve`` process at this beacon."""
        return {"SAMEDEAL_BEACON_URL": self.url, "SAMEDEAL_BEACON_CHAIN": self.chain_hash,
                "SAMEDEAL_BEACON_PUBLIC_KEY": self.public_key.hex(),
                "SAMEDEAL_BEACON_SCHEME": self.scheme,
                "SAMEDEAL_BEACON_GENESIS": str(self.genesis),
                "SAMEDEAL_BEACON_PERIOD": str(self.period)}

    def latest(self) -> int:
        return max(0, (int(time.time()) - self.genesis) // self.period + 1)

    def signature(self, number: int, secret: int | None = None) -> bytes:
        """Round ``number``'s signature (round 0's is the chain's genesis seed)."""
        secret = self.secret if secret is None else secret
        if number == 0:
            return hashlib.sha256(b"local beacon genesis seed").digest()
        key = (secret, number)
        if key not in self._signatures:
            previous = self.signature(number - 1, secret) if self.chained else None
            self._signatures[key] = beacon_check.sign_round(self.scheme, secret, number,
                                                            previous)
        return self._signatures[key]

    @property
    def chained(self) -> bool:
        return self.scheme == beacon_check.CHAINED

    def round(self, number: int) -> dict[str, Any]:
        """Round ``number`` as drand serves it, forged as ``tamper`` says."""
        signature = self.signature(number, self.secret + 1 if self.tamper == "key" else None)
        if self.tamper == "round":
            signature = self.signature(number + 1)
        if self.tamper == "signature":  # its last byte flipped
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        randomness = hashlib.sha256(signature).digest()
        if self.tamper == "randomness":
            randomness = bytes([randomness[0] ^ 1]) + randomness[1:]
        out: dict[str, Any] = {"round": number, "randomness": randomness.hex(),
                               "signature": signature.hex()}
        if self.chained:
            out["previous_signature"] = self.signature(number - 1).hex()
        return out

    def app(self) -> Starlette:
        async def info(request: Request) -> Response:
            return self.answer(request, lambda: self.info())

        async def public(request: Request) -> Response:
            which = request.path_params["which"]
            if self.hold:
                return JSONResponse({"error": "not found"}, 404)
            number = self.latest() if which == "latest" else int(which)
            if not 1 <= number <= self.latest():
                return JSONResponse({"error": "requested future beacon"}, 404)
            return self.answer(request, lambda: self.round(number))

        return Starlette(routes=[Route("/{chain}/info", info),
                                 Route("/{chain}/public/{which}", public)])

    def answer(self, request: Request, body: Any) -> Response:
        self.requests.append(request.url.path)
        if request.path_params["chain"] != self.chain_hash:
            return JSONResponse({"error": "unknown chain"}, 404)
        if self.broken:
            return JSONResponse({"error": "internal"}, 500)
        return JSONResponse(body())


@contextmanager
def serving(beacon: LocalBeacon, port: int) -> Iterator[LocalBeacon]:
    """``beacon`` on 127.0.0.1:``port`` (uvicorn in a thread of its own) until the block ends."""
    server = uvicorn.Server(uvicorn.Config(beacon.app(), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=asyncio.run, args=(server.serve(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the local beacon did not start")
        time.sleep(0.02)
    beacon.url = f"http://127.0.0.1:{port}"
    try:
        yield beacon
    finally:
        server.should_exit = True
        thread.join(10)
