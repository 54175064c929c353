"""Hostile input at bench size: over a million generated hostile messages (lone surrogates,
control characters, over-long strings, huge numbers, nan, deep and wide nesting, bytes, wrong
types, unknown fields, bad ids) to two real server processes on a real Redis, in JSON and in
msgpack, with a bystander player on each node whose requests are checked all along.

The load generator is a separate process per encoding (``python -m bench.fuzz load ...``).
Each socket sends a window of frames from a pool made up front (a seeded ``random``, every
message type and field), then a ping; the replies before its pong must be one for each frame,
in order, each carrying the frame's id when that id is one a reply can carry
(docs/protocol.md). Counted: replies by code, ``server.error`` replies, missing replies, wrong
ids; the bystander's pings and session reads, and whether each came back right.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from typing import Any

from .common import CORES, FAST, Section, Target, fmt, pinned, start_redis, start_server, stop

PROTOCOLS = {"json": "samedeal.v2.json", "msgpack": "samedeal.v2.msgpack"}  # as the SDK speaks
LIMIT = 16384  # the default largest message
WINDOW = 64  # frames a socket sends before its ping
SOCKETS = 8  # hostile sockets per node, per encoding
POOL = 4000  # distinct hostile frames per encoding
NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
SURROGATE = re.compile("[\ud800-\udfff]")

# ----- the hostile frames --------------------------------------------------------------------


def base(kind: str, fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A valid message of ``kind`` that finds nothing (an unknown game, session, race...)."""
    out: dict[str, Any] = {"type": kind}
    for name, f in fields.items():
        if not f["required"]:
            continue
        if f["kind"] == "integer":
            out[name] = f["lo"]
        elif f["kind"] == "move":
            out[name] = "zz9"
        elif f.get("choices"):
            out[name] = f["choices"][0]
        else:
            out[name] = "n" + "x" * max(0, f["lo"] - 1)
    return out


def hostile(rng: random.Random, protocol: str) -> Any:
    """One value an attacker sends."""
    pick = rng.randrange(16)
    chars = ["\x00", "\x01", "\x1b", "\n", "\x7f", "\x85"] + (
        ["\ud800", "\udfff", "\udbff"] if protocol == "json" else [])
    if pick < 4:
        return "ab" + rng.choice(chars) + "cd"
    if pick == 4:
        return rng.choice(["x", "é", "\U0001f0a1"]) * rng.choice([65, 129, 300, 2000])
    if pick == 5:
        top = 2**64 if protocol == "msgpack" else 2**200
        return rng.choice([2**63, top - 1, -(2**63), 2**31 + 1, -1])
    if pick == 6:
        return rng.choice([math.nan, math.inf, -math.inf, 0.5, 1e308, -0.0])
    if pick == 7:
        out: Any = "s"
        for i in range(rng.choice([5, 50, 400])):
            out = [out] if i % 2 else {"a": out}
        return out
    if pick == 8:
        return ["s"] * rng.choice([100, 1000])
    if pick == 9:
        return {f"k{i}": i for i in range(rng.choice([20, 300]))}
    if pick == 10:
        return rng.choice(["\ufeff", "\u202e", "\u200b\u0301", "\uffff", "²", "١٢"]) + "x"
    if pick == 11:
        return rng.choice([True, False, None, [], {}, 0])
    if pick == 12 and protocol == "msgpack":
        import msgpack

        return rng.choice([b"\xff\x00", msgpack.ExtType(7, b"x")])
    if pick == 13:
        return {"kind": "move", "from": "t1" + rng.choice(chars), "to": ["f1"] * 3}
    return "x" + rng.choice(chars) * rng.randrange(1, 4)


def depth(value: Any) -> int:
    out, stack = 0, [(value, 1)]
    while stack:
        item, d = stack.pop()
        out = max(out, d)
        if isinstance(item, dict):
            stack += [(v, d + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, d + 1) for v in item]
    return out


def strings(value: Any) -> list[str]:
    """Every string in ``value``: map keys, values, at any depth."""
    out, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item
    return out


def good_id(value: Any) -> bool:
    """The documented rule: an integer from -2**63 to 2**64-1, or text of at most 64."""
    if type(value) is int:
        return -(2**63) <= value <= 2**64 - 1
    return isinstance(value, str) and len(value) <= 64 and not NOT_TEXT.search(value)


def encode(message: Any, protocol: str) -> bytes | str:
    if protocol == "msgpack":
        import msgpack

        return msgpack.packb(message, unicode_errors="surrogatepass")
    return json.dumps(message)


def pool(protocol: str, seed: int, size: int) -> list[tuple[bytes | str, Any]]:
    """(frame, the id its reply must carry or None) for ``size`` hostile messages, each a base
    message of some type with one part hostile: a field, the type, the id, an unknown field
    (its name hostile too), or a required field left out."""
    from server.transport.schema import MESSAGES

    rng = random.Random(seed)
    fields = {k: {n: {"kind": f.kind, "required": f.required, "lo": f.lo,
                      "choices": f.choices} for n, f in v.items()}
              for k, v in MESSAGES.items()}
    out: list[tuple[bytes | str, Any]] = []
    while len(out) < size:
        kind = rng.choice(sorted(fields))
        m: dict[Any, Any] = base(kind, fields[kind])
        m["id"] = len(out)
        where = rng.choice([*fields[kind], "type", "id", "(name)", "(drop)"])
        if where == "(name)":
            m[rng.choice(["ab\x00", "\u202e", "k" * 65, "__proto__", "x"]
                         + (["\ud800"] if protocol == "json" else []))] = hostile(rng, protocol)
        elif where == "(drop)":
            m.pop(rng.choice(["type", *fields[kind]]), None)
        else:
            m[where] = hostile(rng, protocol)
        data = encode(m, protocol)
        if len(data) > 60000:
            continue
        readable = len(data) <= LIMIT and depth(m) < 1000 and not (
            protocol == "msgpack" and any(SURROGATE.search(s) for s in strings(m)))
        rid = m["id"] if "id" in m and readable and good_id(m["id"]) else None
        out.append((data, rid))
    return out


# ----- the load generator (its own process) ----------------------------------------------------


async def register(url: str, name: str) -> tuple[str, str]:
    """A new player's token and a practice session of theirs."""
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.post("/api/v1/players", json={"name": name, "kind": "bot"})
        token = r.json()["token"]
        r = await http.post("/api/v1/solo", json={"game": "klondike", "variant": "easy"},
                            headers={"authorization": f"Bearer {token}"})
        return token, r.json()["session"]


class Counts:
    def __init__(self) -> None:
        self.replies: Counter[str] = Counter()
        self.sent = self.missing = self.wrong_id = self.server_error = 0
        self.bystander_ok = self.bystander_wrong = self.session_changed = 0


async def open_socket(url: str, protocol: str, token: str) -> Any:
    import websockets

    conn = await websockets.connect(url.replace("http", "ws", 1) + "/api/v1/ws",
                                    subprotocols=[PROTOCOLS[protocol]], max_size=2**22)
    await conn.send(encode({"type": "hello", "token": token, "id": "hello"}, protocol))
    reply = decode(await conn.recv(), protocol)
    assert reply["type"] == "welcome", reply
    return conn


def decode(data: bytes | str, protocol: str) -> Any:
    if protocol == "msgpack":
        import msgpack

        return msgpack.unpackb(data)
    return json.loads(data)


async def hostile_socket(url: str, protocol: str, frames: list[tuple[bytes | str, Any]],
                         quota: int, seed: int, counts: Counts) -> None:
    token, sid = await register(url, "Hostile")
    conn = await open_socket(url, protocol, token)
    before = await session(conn, protocol, sid)
    rng = random.Random(seed)
    done = 0
    while done < quota:
        start = rng.randrange(len(frames))
        window = [frames[(start + i) % len(frames)] for i in range(min(WINDOW, quota - done))]
        for data, _ in window:
            await conn.send(data)
        await conn.send(encode({"type": "ping", "id": "end"}, protocol))
        got: list[dict[str, Any]] = []
        while True:
            r = decode(await conn.recv(), protocol)
            if r.get("id") == "end" and r["type"] == "pong":
                break
            got.append(r)
        counts.sent += len(window)
        done += len(window)
        counts.missing += max(0, len(window) - len(got))
        for (_, rid), r in zip(window, got, strict=False):
            code = r.get("code", f"({r['type']})") if r["type"] == "error" else f"({r['type']})"
            counts.replies[code] += 1
            counts.server_error += code == "server.error"
            counts.wrong_id += r.get("id") != rid
    if await session(conn, protocol, sid) != before:
        counts.session_changed += 1
    await conn.close()


async def session(conn: Any, protocol: str, sid: str) -> Any:
    await conn.send(encode({"type": "session.get", "session": sid, "id": "s"}, protocol))
    while True:
        r = decode(await conn.recv(), protocol)
        if r.get("id") == "s":
            return r.get("rev"), r.get("view")


async def bystander(url: str, protocol: str, stop_at: asyncio.Event, counts: Counts) -> None:
    """Another player on the same node: a ping and their own session, every 20 ms."""
    token, sid = await register(url, "Bystander")
    conn = await open_socket(url, protocol, token)
    n = 0
    while not stop_at.is_set():
        n += 1
        await conn.send(encode({"type": "ping", "id": n}, protocol))
        pong = decode(await conn.recv(), protocol)
        rev, view = await session(conn, protocol, sid)
        good = pong == {"type": "pong", "id": n} and rev == 0 and view["moves"] == 0
        counts.bystander_ok += good
        counts.bystander_wrong += not good
        await asyncio.sleep(0.02)
    await conn.close()


async def load(urls: list[str], protocol: str, messages: int, seed: int) -> dict[str, Any]:
    frames = pool(protocol, seed, POOL)
    counts = Counts()
    stop_at = asyncio.Event()
    watchers = [asyncio.create_task(bystander(u, protocol, stop_at, counts)) for u in urls]
    sockets = SOCKETS * len(urls)
    quota = -(-messages // sockets)
    t0 = time.perf_counter()
    await asyncio.gather(*(hostile_socket(urls[i % len(urls)], protocol, frames, quota,
                                          seed + i, counts) for i in range(sockets)))
    seconds = time.perf_counter() - t0
    stop_at.set()
    await asyncio.gather(*watchers)
    return {"protocol": protocol, "sent": counts.sent, "seconds": seconds,
            "replies": dict(counts.replies), "missing": counts.missing,
            "wrong_id": counts.wrong_id, "server_error": counts.server_error,
            "bystander_ok": counts.bystander_ok, "bystander_wrong": counts.bystander_wrong,
            "session_changed": counts.session_changed}


# ----- the benchmark ---------------------------------------------------------------------------


def one_run(protocol: str, messages: int, urls: list[str]) -> dict[str, Any]:
    args = [*pinned(CORES - 1), sys.executable, "-m", "bench.fuzz", "load", "--urls",
            ",".join(urls), "--protocol", protocol, "--messages", str(messages)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=900,
                         cwd=os.path.dirname(os.path.dirname(__file__)))
    if out.returncode:
        raise RuntimeError(f"the load generator failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout)


def run(quick: bool = False) -> Section:
    total = 50_000 if quick else 1_000_000
    redis, url = start_redis(cpu=CORES - 1)
    servers = [start_server("samedeal", cpu=i, redis_url=url, env=FAST) for i in range(2)]
    urls = [f"http://127.0.0.1:{port}" for _, port in servers]
    t0 = time.monotonic()
    try:
        results = [one_run(p, total // 2, urls) for p in PROTOCOLS]
        alive = all(proc.poll() is None for proc, _ in servers)
    finally:
        for proc, _ in servers:
            stop(proc)
        stop(redis)
    took = time.monotonic() - t0
    sent = sum(r["sent"] for r in results)
    bad = {k: sum(r[k] for r in results) for k in
           ("missing", "wrong_id", "server_error", "bystander_wrong", "session_changed")}
    seen = sorted({c for r in results for c in r["replies"]},
                  key=lambda c: -sum(r["replies"].get(c, 0) for r in results))
    rows: list[list[Any]] = [
        ["hostile messages", *(fmt(r["sent"]) for r in results)],
        ["seconds", *(f"{r['seconds']:.0f}" for r in results)],
        ["messages/s", *(fmt(r["sent"] / r["seconds"]) for r in results)],
        ["server.error replies", *(r["server_error"] for r in results)],
        ["missing replies", *(r["missing"] for r in results)],
        ["replies with a wrong id", *(r["wrong_id"] for r in results)],
        ["hostile player's session changed", *(r["session_changed"] for r in results)],
        ["bystander requests answered right", *(fmt(r["bystander_ok"]) for r in results)],
        ["bystander requests answered wrong", *(r["bystander_wrong"] for r in results)],
    ] + [[f"reply `{c}`", *(fmt(r["replies"].get(c, 0)) for r in results)] for c in seen]
    clean = not any(bad.values()) and alive and all(r["bystander_ok"] for r in results)
    method = (
        "Two `samedeal serve` processes (cores 0 and 1) on one Redis, rate limits raised out "
        f"of the way; the load generator (`python -m bench.fuzz load`, on core {CORES - 1}) "
        f"runs once per encoding with {SOCKETS} hostile players' sockets per node. Each "
        f"socket sends windows of {WINDOW} frames drawn from a pool of {POOL} generated "
        "hostile messages (every message type; one part hostile: a field, the type, the "
        "id, an unknown field, a required field left out; values: lone surrogates (JSON), "
        "control characters, over-long strings, huge numbers, nan/inf, deep and wide "
        "nesting, bytes and ext types (msgpack), Unicode oddities, wrong types), then a "
        "ping, and checks the replies before its pong: one per frame, in order, with the "
        "frame's id when it can be carried. A bystander player on each node pings and "
        "reads its own session every 20 ms throughout. There is no 5xx on the WebSocket; "
        "REST is fuzzed in tests/server/test_fuzz.py. The rate is the whole machine's "
        "(shared, noisy); the counts are what matter.")
    target = Target(
        "at least 1,000,000 hostile messages in under 10 minutes: no server.error, no "
        "missing reply, no wrong id, the bystander served",
        f"{fmt(sent)} in {took:.0f} s; server.error {bad['server_error']}, missing "
        f"{bad['missing']}, wrong id {bad['wrong_id']}, bystander wrong "
        f"{bad['bystander_wrong']}",
        clean and sent >= 1_000_000 and took < 600)
    return Section("Hostile input", method, ["", "JSON", "msgpack"], rows, [target],
                   raw={"results": results, "seconds": took, "nodes_alive": alive})


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.fuzz")
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("load", help="the load generator (started by the benchmark)")
    g.add_argument("--urls", required=True)
    g.add_argument("--protocol", choices=list(PROTOCOLS), required=True)
    g.add_argument("--messages", type=int, required=True)
    g.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print(json.dumps(asyncio.run(load(args.urls.split(","), args.protocol, args.messages,
                                      args.seed))))


if __name__ == "__main__":
    main()
