"""Boards published live: watchers of one daily board against Redis's work, beside polling.

One real server process on a throwaway redis-server; results are written to a daily board at a
steady rate (a player starts today's ranked attempt and resigns it, over REST) while N sockets
watch the board (``board.subscribe``), or, the baseline, while N clients read the same board
over REST once a second each (``GET /api/v1/boards/...``, what a page polling the board does).
Redis's work is read from INFO: script calls and every command (INFO commandstats, which also
counts the commands a script runs inside Redis) and Redis's CPU, per second, with the same
writes and no watcher at all as the zero line.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets
from redis.asyncio import Redis

from bench.common import (
    FAST,
    Section,
    Target,
    cpu_seconds,
    fmt,
    start_redis,
    start_server,
    stop,
)
from server.daily import daily_rule_sets

SERVER_CPU = 0
RATE = 4.0  # results written a second
OWN = {"config|resetstat", "info"}  # the measurement's own commands


async def register(http: httpx.AsyncClient, n: int, name: str) -> list[tuple[str, str]]:
    """``n`` new human players: (id, token)."""
    out: list[tuple[str, str]] = []
    for start in range(0, n, 50):
        replies = await asyncio.gather(*(
            http.post("/api/v1/players", json={"name": f"{name}{i}", "kind": "human"})
            for i in range(start, min(n, start + 50))))
        out += [(r.json()["player"]["id"], r.json()["token"]) for r in replies]
    return out


async def finish(http: httpx.AsyncClient, token: str, game: tuple[str, str]) -> None:
    auth = {"authorization": f"Bearer {token}"}
    r = await http.post("/api/v1/daily", json={"game": game[0], "variant": game[1]},
                        headers=auth)
    await http.post(f"/api/v1/sessions/{r.json()['session']}/resign", json={}, headers=auth)


async def board_reads(http: httpx.AsyncClient) -> float:
    """The server's own count of watched-board reads (its /metrics)."""
    text = (await http.get("/metrics")).text
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith("samedeal_board_reads_total"))


async def stats(r: Redis) -> tuple[int, int, float]:
    """(script calls, every command, Redis CPU seconds) so far."""
    info = await r.info("commandstats")
    calls = {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in info.items()}
    cpu = await r.info("cpu")
    scripts = calls.get("evalsha", 0) + calls.get("eval", 0)
    every = sum(c for k, c in calls.items() if k not in OWN)
    return scripts, every, float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


async def watch(url: str, token: str, board: str, updates: list[int],
                ready: asyncio.Event, opened: list[int], n: int) -> None:
    """One watching socket; ``updates[0]`` counts every socket's updates."""
    ws_url = url.replace("http", "ws", 1) + "/api/v1/ws"
    async with websockets.connect(ws_url, subprotocols=["samedeal.json"],  # type: ignore[list-item]
                                  max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "id": 0}))
        await ws.send(json.dumps({"type": "board.subscribe", "board": board, "id": 1}))
        opened[0] += 1
        if opened[0] == n:
            ready.set()
        async for data in ws:
            if json.loads(data).get("type") == "board.update":
                updates[0] += 1


async def poll(http: httpx.AsyncClient, token: str, board: str, polls: list[int],
               offset: float) -> None:
    await asyncio.sleep(offset)
    auth = {"authorization": f"Bearer {token}"}
    while True:
        t0 = time.monotonic()
        await http.get(f"/api/v1/boards/{board}?count=20&around=me", headers=auth)
        polls[0] += 1
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))


async def measure(url: str, redis_url: str, pid: int, mode: str, n: int,
                  game: tuple[str, str], seconds: float) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        watchers = await register(http, n, "w")
        writers = await register(http, int(seconds * RATE) + 2, "r")
        board = f"daily/today/{game[0]}/{game[1]}"
        tasks: list[asyncio.Task[None]] = []
        seen = [0]
        if mode == "live" and n:
            ready, opened = asyncio.Event(), [0]
            tasks = [asyncio.create_task(watch(url, t, board, seen, ready, opened, n))
                     for _, t in watchers]
            await asyncio.wait_for(ready.wait(), 120)
            await asyncio.sleep(2)  # every first update sent
        elif mode == "poll" and n:
            tasks = [asyncio.create_task(poll(http, t, board, seen, i / n))
                     for i, (_, t) in enumerate(watchers)]
            await asyncio.sleep(2)
        r = Redis.from_url(redis_url)
        s0, c0, r0 = await stats(r)
        b0 = await board_reads(http)
        seen0, cpu0, t0 = seen[0], cpu_seconds(pid), time.monotonic()
        for i, (_, token) in enumerate(writers[:-2]):  # a steady rate of results
            due = t0 + i / RATE
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            await finish(http, token, game)
        await asyncio.sleep(max(0.0, t0 + seconds - time.monotonic()))
        s1, c1, r1 = await stats(r)
        b1 = await board_reads(http)
        elapsed, cpu1 = time.monotonic() - t0, cpu_seconds(pid)
        await r.aclose()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"mode": mode, "watchers": n, "seconds": elapsed,
            "board_reads_per_s": (b1 - b0) / elapsed,
            "scripts_per_s": (s1 - s0) / elapsed, "commands_per_s": (c1 - c0) / elapsed,
            "redis_cpu_per_s": (r1 - r0) / elapsed, "server_cpu_per_s": (cpu1 - cpu0) / elapsed,
            "deliveries_per_s": (seen[0] - seen0) / elapsed,
            "results": len(writers) - 2}


def run(quick: bool = False) -> Section:
    counts = (10, 100) if quick else (10, 100, 1000)
    seconds = 6.0 if quick else 20.0
    games = iter([(g.id, g.variant) for g in daily_rule_sets()])
    redis_proc, redis_url = start_redis()
    env = FAST | {"SAMEDEAL_DAILY_RANK_NEW_ACCOUNTS": "1"}
    server, port = start_server("samedeal", SERVER_CPU, redis_url, env)
    url = f"http://127.0.0.1:{port}"
    results: list[dict[str, Any]] = []
    try:
        base = asyncio.run(measure(url, redis_url, server.pid, "writes", 0, next(games),
                                   seconds))
        results.append(base)
        for n in counts:
            for mode in ("live", "poll"):
                results.append(asyncio.run(measure(url, redis_url, server.pid, mode, n,
                                                   next(games), seconds)))
    finally:
        stop(server)
        stop(redis_proc)
    rows = []
    for m in results:
        zero = m is base
        rows.append([m["watchers"], {"writes": "writes alone", "live": "board.subscribe",
                                     "poll": "REST poll 1/s"}[m["mode"]],
                     fmt(m["board_reads_per_s"]) if m["mode"] == "live" else "",
                     fmt(m["scripts_per_s"] - (0 if zero else base["scripts_per_s"])),
                     fmt(m["commands_per_s"] - (0 if zero else base["commands_per_s"])),
                     fmt(1000 * (m["redis_cpu_per_s"] - (0 if zero else base["redis_cpu_per_s"]))),
                     fmt(1000 * m["server_cpu_per_s"]), fmt(m["deliveries_per_s"])])
    live = {m["watchers"]: m for m in results if m["mode"] == "live"}
    most = max(counts)
    reads = live[most]["board_reads_per_s"]
    targets = [Target(
        f"{most} watchers of one board cost Redis at most one read a second",
        f"{fmt(reads)} reads/s (the server's samedeal_board_reads_total)", reads <= 1.05,
        "one WATCH call per second while results land; its inner commands (an HGET and a "
        "ZRANK per watching player) are in the commands column")]
    return Section(
        "Boards published live: watchers against Redis",
        f"One server process (core {SERVER_CPU}) on one redis-server; {RATE:g} daily results "
        f"a second written over REST for {seconds:g} s while N sockets watch the board "
        "(board.subscribe) or N clients poll it over REST once a second (the top 20 and "
        "around me). Figures per second, above the same writes with no watcher (first row: "
        "the writes themselves); board reads: the server's own count of watched-board reads "
        "(samedeal_board_reads_total); Redis's commands from INFO commandstats count the "
        "commands scripts run inside Redis too; updates: board.update events (or polls) "
        "delivered.",
        ["watchers", "how", "board reads/s", "Redis script calls/s", "Redis commands/s",
         "Redis CPU ms/s", "server CPU ms/s", "updates or polls/s"],
        rows, targets, {"runs": results})
