"""Idle connections: the server's memory per open, authenticated, idle WebSocket, beside the
bare echo server's (same uvicorn, same WebSocket implementation), at two socket counts.

Each figure is (RSS with N idle sockets - RSS before them) / N of a fresh server process, so
the N are independent and nothing left from an earlier run is counted or reused. The client
is a few raw asyncio protocols (handshake, one message, pongs), not a WebSocket library, so
10,000 sockets fit in one process on the other core and open in seconds.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import resource
import socket
import struct
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.common import (
    CORES,
    Section,
    Target,
    fmt,
    median,
    rss_bytes,
    start_redis,
    start_server,
    stop,
)

SUBPROTOCOL = "samedeal.v2.json"  # as the SDK speaks
PATH = "/api/v1/ws"
FULL_COUNTS, QUICK_COUNTS = (1_000, 10_000), (200, 1_000)
FULL_RUNS, QUICK_RUNS = 3, 1
IN_FLIGHT = 50  # handshakes at once: enough to keep both cores busy, far below the backlog
GOAL_RATIO = 2.0
SETTLE = 2.0  # seconds to wait before the first reading with the sockets open
WARM_SETTLE = 1.0  # the same before them: only the warm-up's resets to finish
STABLE = 0.01  # RSS is settled when a reading moves less than this share of the growth
SETTLE_MAX = 8.0
SERVER_CPU, CLIENT_CPU = 0, 1


class IdleClient(asyncio.Protocol):
    """One WebSocket: upgrade, send ``message``, wait for a reply holding ``expect``, then
    stay idle answering the server's keepalive pings (an unanswered ping closes it)."""

    def __init__(self, request: bytes, message: bytes, expect: bytes,
                 done: asyncio.Future[None]) -> None:
        self.request, self.message, self.expect, self.done = request, message, expect, done
        self.transport: asyncio.Transport | None = None
        self.buf = b""
        self.upgraded = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.upgraded:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if not sep:
                return
            if not head.startswith(b"HTTP/1.1 101"):
                self._fail(f"no upgrade: {head[:80]!r}")
                return
            self.upgraded, self.buf = True, rest
            self._write(0x1, self.message)
        while (frame := _parse(self.buf)) is not None:
            opcode, payload, used = frame
            self.buf = self.buf[used:]
            if opcode == 0x9:
                self._write(0xA, payload)
            elif opcode == 0x8:
                self._fail(f"closed by the server: {payload!r}")
            elif opcode in (0x1, 0x2) and not self.done.done():
                if self.expect in payload:
                    self.done.set_result(None)
                else:
                    self._fail(f"unexpected reply: {payload[:120]!r}")

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(f"connection lost: {exc}")

    def _fail(self, why: str) -> None:
        if not self.done.done():
            self.done.set_exception(ConnectionError(why))

    def _write(self, opcode: int, payload: bytes) -> None:
        assert self.transport is not None
        self.transport.write(_frame(opcode, payload))

    def abort(self) -> None:
        """Reset rather than close: no TIME_WAIT left behind on the loopback's ports."""
        if self.transport is None or self.transport.is_closing():
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


def _frame(opcode: int, payload: bytes) -> bytes:
    """A final, masked client frame (clients must mask)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    mask = os.urandom(4)
    key = (mask * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
    return head + mask + masked


def _parse(buf: bytes) -> tuple[int, bytes, int] | None:
    """One whole unmasked server frame at the start of ``buf``: (opcode, payload, length)."""
    if len(buf) < 2:
        return None
    opcode, n, at = buf[0] & 0x0F, buf[1] & 0x7F, 2
    if n == 126:
        if len(buf) < 4:
            return None
        n, at = struct.unpack_from("!H", buf, 2)[0], 4
    elif n == 127:
        if len(buf) < 10:
            return None
        n, at = struct.unpack_from("!Q", buf, 2)[0], 10
    if len(buf) < at + n:
        return None
    return opcode, buf[at:at + n], at + n


def _request(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n").encode()


async def _open(port: int, n: int, message: bytes, expect: bytes) -> list[IdleClient]:
    """``n`` sockets that have each done their one round trip, ``IN_FLIGHT`` at a time."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(IN_FLIGHT)
    clients: list[IdleClient] = []

    async def one() -> None:
        async with gate:
            done: asyncio.Future[None] = loop.create_future()
            client = IdleClient(_request(port), message, expect, done)
            clients.append(client)
            await loop.create_connection(lambda: client, "127.0.0.1", port)
            await asyncio.wait_for(done, 30.0)

    try:
        await asyncio.gather(*(one() for _ in range(n)))
    except BaseException:
        for c in clients:
            c.abort()
        raise
    return clients


async def _settled(pid: int, wait: float) -> tuple[int, list[int]]:
    """RSS once it stops moving: readings every 0.5 s after ``wait`` s until one changes
    by less than ``STABLE`` of the rise (or ``SETTLE_MAX`` s pass): (last, all readings)."""
    start = rss_bytes(pid)
    await asyncio.sleep(wait)
    readings = [rss_bytes(pid)]
    deadline = time.monotonic() + SETTLE_MAX
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        readings.append(rss_bytes(pid))
        rise = max(abs(readings[-2] - start), 4096)
        if abs(readings[-1] - readings[-2]) <= STABLE * rise:
            break
    return readings[-1], readings


async def _session(pid: int, port: int, n: int, message: bytes,
                   expect: bytes) -> dict[str, Any]:
    """Warm up, read RSS, hold ``n`` idle sockets, read RSS again."""
    # Warm-up: one batch as wide as the opening will run, so what grows with concurrency
    # (Redis connections in the pool, buffers) is paid before "before", not charged to sockets.
    for c in await _open(port, IN_FLIGHT, message, expect):
        c.abort()
    before, before_readings = await _settled(pid, WARM_SETTLE)
    t0 = time.perf_counter()
    clients = await _open(port, n, message, expect)
    opened = time.perf_counter() - t0
    try:
        after, after_readings = await _settled(pid, SETTLE)
        lost = sum(c.transport is None or c.transport.is_closing() for c in clients)
        if lost:
            raise RuntimeError(f"{lost} of {n} sockets closed while idle")
    finally:
        for c in clients:
            c.abort()
    return {"sockets": n, "rss_before": before, "rss_after": after,
            "bytes_per_socket": (after - before) / n, "open_seconds": round(opened, 3),
            "before_readings": before_readings, "after_readings": after_readings}


def _register(port: int) -> str:
    """A bot player's token: every SameDeal socket says hello with it."""
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/players",
        data=json.dumps({"name": "Idle", "kind": "bot"}).encode(),
        headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(json.load(r)["token"])


def _measure(kind: str, n: int, redis_url: str, token: list[str]) -> dict[str, Any]:
    """One fresh server of ``kind`` on its core, ``n`` idle sockets, then stopped."""
    proc: subprocess.Popen[bytes]
    proc, port = start_server(kind, SERVER_CPU, redis_url)
    try:
        if kind == "samedeal":
            if not token:
                token.append(_register(port))
            message = json.dumps({"type": "hello", "token": token[0]}).encode()
            expect = b'"welcome"'
        else:
            message = expect = b'{"type": "ping"}'
        return asyncio.run(_session(proc.pid, port, n, message, expect))
    finally:
        stop(proc)


@contextmanager
def _client_setup() -> Iterator[None]:
    """Room for 10,000 sockets here and in the servers (children inherit the soft limit),
    and this client on the core the servers are not on; both restored afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))
    old = os.sched_getaffinity(0)
    if CORES > 1:
        os.sched_setaffinity(0, {CLIENT_CPU % CORES})
    try:
        yield
    finally:
        os.sched_setaffinity(0, old)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def run(quick: bool = False) -> Section:
    """Bytes per idle socket, SameDeal (authenticated) and echo, medians of fresh servers."""
    counts = QUICK_COUNTS if quick else FULL_COUNTS
    runs = QUICK_RUNS if quick else FULL_RUNS
    soft_needed = max(counts) + 1_000
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < soft_needed:
        raise RuntimeError(f"RLIMIT_NOFILE hard limit below {soft_needed}: raise it (ulimit -Hn)")
    raw: dict[str, Any] = {"runs": runs, "in_flight": IN_FLIGHT, "samedeal": {}, "echo": {}}
    token: list[str] = []
    redis, url = start_redis(SERVER_CPU)
    t0 = time.perf_counter()
    try:
        with _client_setup():
            for n in counts:
                for kind in ("samedeal", "echo"):
                    raw[kind][str(n)] = []
                # Alternate the two servers so slow drift on the machine hits both alike.
                for _ in range(runs):
                    for kind in ("samedeal", "echo"):
                        raw[kind][str(n)].append(_measure(kind, n, url, token))
    finally:
        stop(redis)
    raw["seconds"] = round(time.perf_counter() - t0, 1)

    rows: list[list[Any]] = []
    ratios: dict[int, float] = {}
    extra: dict[int, float] = {}
    for n in counts:
        sd = median([r["bytes_per_socket"] for r in raw["samedeal"][str(n)]])
        echo = median([r["bytes_per_socket"] for r in raw["echo"][str(n)]])
        ratios[n] = sd / echo if echo > 0 else float("nan")
        extra[n] = sd - echo
        rows.append([f"{n:,}", fmt(sd), fmt(echo), f"{fmt(ratios[n])}x"])
    raw["ratio"] = {str(n): r for n, r in ratios.items()}

    met = all(r <= GOAL_RATIO for r in ratios.values())
    measured = "; ".join(f"{n:,} sockets: {fmt(r)}x" for n, r in ratios.items())
    note = "SameDeal over echo: " + ", ".join(f"{fmt(e)} B/socket at {n:,}"
                                               for n, e in extra.items())
    if not met:
        note += (". Where to look: beyond the echo's, an idle SameDeal socket holds a second "
                 "task (the writer, waiting on its queue), an asyncio.Queue, a Bucket and two "
                 "dicts (server/transport/ws.py, Connection)")
    method = (
        f"A fresh server process per measurement (SameDeal `samedeal serve` on Redis, or "
        f"the bare starlette echo on the same uvicorn and websockets-sansio), pinned to core "
        f"{SERVER_CPU}; Redis on core {SERVER_CPU}; the client (raw asyncio sockets, "
        f"{IN_FLIGHT} handshakes in flight) in this process on core {CLIENT_CPU % CORES}. "
        f"Warm-up: {IN_FLIGHT} sockets opened, one round trip each, and reset. RSS is read "
        f"once settled ({WARM_SETTLE:g} s before, {SETTLE:g} s with the sockets, then every "
        f"0.5 s until a reading moves less than {STABLE:.0%} of the rise), before and with N "
        f"idle sockets; bytes/socket = "
        f"(after - before) / N. A SameDeal socket is authenticated (hello with a bot's token, "
        f"welcome); an echo socket has echoed one small text message: one round trip each. "
        f"{'Once' if runs == 1 else f'Median of {runs} fresh servers'} per server and N, "
        f"the two servers alternated.")
    return Section(
        title="Idle connections: memory per idle WebSocket",
        method=method,
        columns=["sockets", "SameDeal bytes/socket", "echo bytes/socket", "ratio"],
        rows=rows,
        targets=[Target(goal=f"memory per idle socket at most {GOAL_RATIO:g}x the echo's",
                        measured=measured, met=met, note=note)],
        raw=raw,
    )
