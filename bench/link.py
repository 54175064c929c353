"""Client CPU per Redis call: the link (server/store/link.py, one connection every request shares)
beside redis-py's own client on its pool, as ``store.connect`` makes both, on one redis-server.

The same script call (EVALSHA with one key and one argument, as a move's) from the same asyncio
tasks in the same process, the two clients in alternating runs; this process's CPU time per
call (Redis runs on the other core), medians of the runs, and the per-run ratio's median.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from bench.common import CORES, Section, fmt, median, start_redis, stop
from server import store

REDIS_CPU, CLIENT_CPU = 0, 1
RUNS, QUICK_RUNS = 5, 2
#: Callers at once (one request at a time; many in flight, as a busy server has): calls a run.
CALLS = {1: 5_000, 50: 40_000}
QUICK = 10  # --quick: a tenth of the calls
SCRIPT = "return {KEYS[1], ARGV[1]}"


async def _load(call: Any, calls: int, callers: int) -> tuple[float, float]:
    """``calls`` calls from ``callers`` tasks: (client CPU µs per call, calls per second)."""
    each = calls // callers

    async def caller(i: int) -> None:
        for j in range(each):
            reply = await call(f"bench:{i}", j)
            assert reply[1] == str(j).encode()

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(callers)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / (each * callers) * 1e6, each * callers / wall


async def _measure(url: str, share: int, runs: int) -> dict[str, Any]:
    client = store.connect(url, max(CALLS) + 14)
    link = client.link  # type: ignore[attr-defined]
    sha = await client.script_load(SCRIPT)

    async def over_link(key: str, arg: int) -> Any:
        return await link.call("EVALSHA", sha, 1, key, arg)

    async def over_pool(key: str, arg: int) -> Any:
        return await client.execute_command("EVALSHA", sha, 1, key, arg)

    raw: dict[str, Any] = {}
    try:
        for n, calls in CALLS.items():
            calls //= share
            await _load(over_link, calls // 10, n)  # warm: connections made, code paths hot
            await _load(over_pool, calls // 10, n)
            runs_n = raw[str(n)] = []
            for _ in range(runs):  # alternating, so drift on the machine hits both alike
                link_us, link_rate = await _load(over_link, calls, n)
                pool_us, pool_rate = await _load(over_pool, calls, n)
                runs_n.append({"link_us": link_us, "pool_us": pool_us, "link_per_s": link_rate,
                               "pool_per_s": pool_rate, "ratio": pool_us / link_us})
    finally:
        await client.aclose()
    return raw


def run(quick: bool = False) -> Section:
    share, runs = (QUICK, QUICK_RUNS) if quick else (1, RUNS)
    redis, url = start_redis(REDIS_CPU)
    affinity = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {CLIENT_CPU % CORES})
    t0 = time.perf_counter()
    try:
        raw = asyncio.run(_measure(url, share, runs))
    finally:
        os.sched_setaffinity(0, affinity)
        stop(redis)
    raw["seconds"] = round(time.perf_counter() - t0, 1)
    rows = []
    for n in CALLS:
        rs = raw[str(n)]
        rows.append([n, fmt(median([r["link_us"] for r in rs])),
                     fmt(median([r["pool_us"] for r in rs])),
                     f"{median([r['ratio'] for r in rs]):.1f}x",
                     fmt(median([r["link_per_s"] for r in rs])),
                     fmt(median([r["pool_per_s"] for r in rs]))])
    method = (
        f"redis-server (no persistence) pinned to core {REDIS_CPU}, this process to core "
        f"{CLIENT_CPU % CORES}. One client made as the server makes it (store.connect): its "
        f"link and its redis-py pool. Each of {runs} runs, alternating: calls of EVALSHA (a "
        f"cached script, one key and one argument, its reply checked) over the link, then the "
        f"same through redis-py's execute_command on the pool, "
        f"{CALLS[1] // share:,} from 1 task and {CALLS[50] // share:,} from 50 tasks at once, "
        f"after a warm-up of a tenth as many. Client CPU is this process's CPU time per call; "
        f"medians of the runs, and the median of the per-run ratios.")
    return Section("Redis client CPU per call: the link and redis-py's pool", method,
                   ["callers at once", "link µs/call", "redis-py pool µs/call",
                    "pool / link", "link calls/s", "pool calls/s"], rows, raw=raw)
