"""Leaderboards: the server's own board code (``server.boards.Boards``) against bare Redis.

Submits and around-me pages per second through ``Boards.put`` and ``Boards.page`` beside
``redis-benchmark`` ZADD and ZREVRANK on the same redis-server and the same concurrency; Redis
commands per submit from INFO commandstats; memory per entry beside a bare sorted set.
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import random
import re
import subprocess
import time
from collections.abc import Iterator
from typing import Any

from redis.asyncio import Redis

from bench.common import (
    Section,
    Target,
    cpu_seconds,
    fmt,
    median,
    pinned,
    start_redis,
    stop,
)
from server import store
from server.boards import PAGE, PUT, Boards, board_keys, order_key

REDIS_CPU, LOAD_CPU = 0, 1
CONCURRENCY = 50
RUNS = 5
# A redis-benchmark run is a valid baseline only when it kept Redis this busy: below that,
# redis-benchmark itself was starved of its core by other load and measured the noise.
SATURATED = 0.8
BOARD = "daily:klondike:draw3:human"
ZSET = "bench:z"
DAY_MS = int(time.time()) // 86_400 * 86_400_000  # today 00:00 UTC: results finish in the day
# A daily board's expiry (in the future: EXPIREAT in the past deletes the board at once), so
# puts take that path of the script too.
EXPIRE_AT = DAY_MS // 1000 + 86_400 * 8
IDS = "abcdefghijkmnpqrstuvwxyz23456789"
# Commands issued by the measurement itself, not by the code under test.
OWN = {"config|resetstat", "info"}
# Commands the Lua scripts call: INFO commandstats counts those under their own names.
IN_SCRIPT = {c.lower() for c in re.findall(r"redis\.call\('(\w+)'", PUT + PAGE)}


def _player(i: int) -> str:
    """A player id shaped like ``accounts.new_id('p')`` (same length), unique per ``i``."""
    chars = []
    for _ in range(12):
        i, r = divmod(i, 32)
        chars.append(IDS[r])
    return "p" + "".join(reversed(chars))


def _result(rng: random.Random, i: int) -> tuple[str, int, int, dict[str, Any]]:
    """A random Klondike daily result for player ``i``, with the details ``daily_result``
    stores, so entry sizes are the real ones: (player, order key, finished at, details)."""
    won = rng.random() < 0.3
    score, time_ms, moves = rng.randint(0, 1500), rng.randint(60_000, 1_800_000), \
        rng.randint(60, 400)
    finished_at = DAY_MS + rng.randrange(86_400_000)
    details = {"name": f"Player {i}", "kind": "human", "status": "won" if won else "lost",
               "score": score, "time_ms": time_ms, "moves": moves, "tie_break": 0,
               "finished_at": finished_at, "session": "s" + _player(i * 7 + 3)[1:],
               "walked_away": False}
    return _player(i), order_key(won, score, False, 0, time_ms, moves), finished_at, details


def _bench(port: int, n: int, keyspace: int, *command: str) -> float:
    """``redis-benchmark`` requests per second for one command, 50 connections, no pipelining,
    on the load core."""
    out = subprocess.run(
        [*pinned(LOAD_CPU), "redis-benchmark", "-h", "127.0.0.1", "-p", str(port),
         "-c", str(CONCURRENCY), "-n", str(n), "-r", str(keyspace), "-P", "1", "--csv",
         *command], capture_output=True, text=True, check=True).stdout
    rows = list(csv.reader(io.StringIO(out)))
    return float(rows[1][1])


async def _fill(boards: Boards, redis: Redis, players: range, seed: int) -> None:
    """Put one result for each player, pipelined in batches of 1000 through the same
    ``Boards.put`` (a pipeline as ``client`` only queues the EVALSHA), four batches in flight
    so building the next batch overlaps Redis running the last."""
    starts = iter(range(players.start, players.stop, 1000))

    async def filler(k: int) -> None:
        rng = random.Random(seed * 100 + k)
        for s in starts:
            async with redis.pipeline(transaction=False) as pipe:
                for i in range(s, min(s + 1000, players.stop)):
                    p, key, at, details = _result(rng, i)
                    await boards.put(BOARD, p, key, at, details, EXPIRE_AT, client=pipe)
                await pipe.execute()

    await asyncio.gather(*(filler(k) for k in range(4)))


async def _timed(redis_pid: int, jobs: Iterator[Any], n: int, call: Any) -> dict[str, float]:
    """Run ``call(job)`` for ``n`` jobs on 50 tasks; calls per second and the CPU share the
    client and Redis used, which shows which side was the bottleneck."""

    async def worker() -> None:
        for job in jobs:  # one shared iterator: each task takes the next job
            await call(job)

    r0, c0, t0 = cpu_seconds(redis_pid), time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    wall = time.perf_counter() - t0
    return {"per_s": n / wall, "client_cpu": (time.process_time() - c0) / wall,
            "redis_cpu": (cpu_seconds(redis_pid) - r0) / wall}


async def _commandstats(redis: Redis) -> dict[str, int]:
    info = await redis.info("commandstats")
    return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in info.items()}


def _split(stats: dict[str, int], n: int) -> tuple[float, float, dict[str, int]]:
    """(client commands per call, commands run inside scripts per call, all counts)."""
    client = sum(v for k, v in stats.items() if k not in OWN and k not in IN_SCRIPT)
    inner = sum(v for k, v in stats.items() if k in IN_SCRIPT)
    return client / n, inner / n, stats


async def _used(redis: Redis) -> int:
    return int((await redis.info("memory"))["used_memory"])


async def _memory(redis: Redis, boards: Boards, sizes: tuple[int, int]) -> dict[str, Any]:
    """Bytes per entry (used_memory after minus before, over entries) at each size, for the
    board (sorted set + details hash) and a bare sorted set of the same members and scores.
    The bare set is copied from the board's own sorted set (ZRANGE WITHSCORES, 10,000 at a
    time), measured, then deleted before the board grows: regenerating 1M results in Python
    would double the slowest part of the run."""
    rank = board_keys(BOARD)[0]
    out: dict[str, Any] = {}
    await redis.flushall()
    base = await _used(redis)
    done = 0
    for size in sizes:
        await _fill(boards, redis, range(done, size), seed=size)
        done = size
        board = await _used(redis)
        count = await redis.zcard(rank)
        out[f"board_{size}"] = {
            "entries": count, "used_memory_delta": board - base,
            "per_entry": (board - base) / count,
            "memory_usage_keys": [int(await redis.memory_usage(k, samples=0) or 0)
                                  for k in board_keys(BOARD)]}
        for start in range(0, count, 10_000):
            chunk = await redis.zrange(rank, start, start + 9_999, withscores=True)
            await redis.zadd(ZSET, dict(chunk))
        bare = await _used(redis)
        out[f"bare_{size}"] = {
            "entries": await redis.zcard(ZSET), "used_memory_delta": bare - board,
            "per_entry": (bare - board) / count,
            "memory_usage_keys": [int(await redis.memory_usage(ZSET, samples=0) or 0)]}
        await redis.delete(ZSET)
        base += await _used(redis) - board  # whatever the deleted copy left allocated
    await redis.flushall()
    return out


async def _main(url: str, redis_pid: int, quick: bool) -> dict[str, Any]:
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    players = 10_000 if quick else 100_000
    n_rb = 20_000 if quick else 150_000
    n_put = 3_000 if quick else 15_000
    n_page = 2_000 if quick else 8_000
    n_stat = 1_000 if quick else 5_000
    sizes = (10_000, 100_000) if quick else (100_000, 1_000_000)

    redis = store.connect(url, CONCURRENCY)  # as the server makes it: scripts over its link
    boards = Boards(redis)
    raw: dict[str, Any] = {"players": players, "requests": {
        "redis_benchmark": n_rb, "put": n_put, "page": n_page, "commandstats": n_stat},
        "memory_sizes": list(sizes)}
    phase = {"start": time.perf_counter()}
    try:
        await redis.flushall()
        await redis.script_flush()
        # A cold submit: Redis has no script yet, so it is loaded and called again.
        await redis.config_resetstat()
        await boards.put(BOARD, *_result(random.Random(0), 0), EXPIRE_AT)
        raw["cold_first_put_commands"] = _split(await _commandstats(redis), 1)[2]
        phase["cold put"] = time.perf_counter()
        # Both sides start from a full board: every player has a result / every member exists.
        await _fill(boards, redis, range(players), seed=1)
        await redis.zadd(ZSET, {f"member:{i:012d}": i for i in range(players)})

        phase["prefill"] = time.perf_counter()
        rng = random.Random(2)
        rounds: list[dict[str, Any]] = []
        for run in range(RUNS):
            r: dict[str, Any] = {}
            c0 = cpu_seconds(redis_pid)
            t0 = time.perf_counter()
            r["zadd_per_s"] = _bench(port, n_rb, players, "ZADD", ZSET, "__rand_int__",
                                     "member:__rand_int__")
            r["zadd_redis_cpu"] = (cpu_seconds(redis_pid) - c0) / (time.perf_counter() - t0)
            work = [_result(rng, rng.randrange(players)) for _ in range(n_put)]
            # Later runs submit later results, so the same share of them improves on the board.
            work = [(p, k, at + run * 86_400_000, d) for p, k, at, d in work]
            written = 0

            async def put(job: tuple[str, int, int, dict[str, Any]]) -> None:
                nonlocal written
                ok, _ = await boards.put(BOARD, *job, EXPIRE_AT)  # not `written +=` an await:
                written += ok  # that reads `written` before the await and loses updates

            r["put"] = await _timed(redis_pid, iter(work), n_put, put)
            r["put"]["written_share"] = written / n_put
            c0 = cpu_seconds(redis_pid)
            t0 = time.perf_counter()
            r["zrevrank_per_s"] = _bench(port, n_rb, players, "ZREVRANK", ZSET,
                                         "member:__rand_int__")
            r["zrevrank_redis_cpu"] = (cpu_seconds(redis_pid) - c0) / (time.perf_counter()
                                                                         - t0)
            who = [_player(rng.randrange(players)) for _ in range(n_page)]

            async def page(p: str) -> None:
                if await boards.page(BOARD, 0, 20, around=p) is None:
                    raise RuntimeError(f"{p} is not on the board")

            r["page"] = await _timed(redis_pid, iter(who), n_page, page)

            async def rank(p: str) -> None:  # where am I: my entry, my rank, the board's size
                if await boards.page(BOARD, 0, 1, around=p) is None:
                    raise RuntimeError(f"{p} is not on the board")

            r["rank"] = await _timed(redis_pid, iter(who), n_page, rank)
            # The Python client's own ceiling: one bare command a call, same link and tasks.
            r["py_zadd"] = await _timed(
                redis_pid, iter(work), n_put,
                lambda job: store.call(redis, "ZADD", ZSET, job[1],
                                       f"member:{rng.randrange(players):012d}"))
            r["py_zrevrank"] = await _timed(
                redis_pid, iter(who), n_page,
                lambda _: store.call(redis, "ZREVRANK", ZSET,
                                     f"member:{rng.randrange(players):012d}"))
            r["put_vs_zadd"] = r["put"]["per_s"] / r["zadd_per_s"]
            r["page_vs_zrevrank"] = r["page"]["per_s"] / r["zrevrank_per_s"]
            r["rank_vs_zrevrank"] = r["rank"]["per_s"] / r["zrevrank_per_s"]
            r["put_vs_py_zadd"] = r["put"]["per_s"] / r["py_zadd"]["per_s"]
            r["page_vs_py_zrevrank"] = r["page"]["per_s"] / r["py_zrevrank"]["per_s"]
            r["py_zadd_vs_zadd"] = r["py_zadd"]["per_s"] / r["zadd_per_s"]
            r["py_zrevrank_vs_zrevrank"] = r["py_zrevrank"]["per_s"] / r["zrevrank_per_s"]
            rounds.append(r)
        raw["runs"] = rounds
        phase["runs"] = time.perf_counter()

        # Commands per call, with the script cached (the steady state).
        await redis.config_resetstat()
        work = [_result(rng, rng.randrange(players)) for _ in range(n_stat)]
        await _timed(redis_pid, iter(work), n_stat,
                     lambda job: boards.put(BOARD, *job, EXPIRE_AT))
        client, inner, stats = _split(await _commandstats(redis), n_stat)
        raw["put_commands"] = {"client_per_call": client, "in_script_per_call": inner,
                               "commandstats": stats}
        await redis.config_resetstat()
        who = [_player(rng.randrange(players)) for _ in range(n_stat)]
        await _timed(redis_pid, iter(who), n_stat,
                     lambda p: boards.page(BOARD, 0, 20, around=p))
        client, inner, stats = _split(await _commandstats(redis), n_stat)
        raw["page_commands"] = {"client_per_call": client, "in_script_per_call": inner,
                                "commandstats": stats}

        phase["commandstats"] = time.perf_counter()
        raw["memory"] = await _memory(redis, boards, sizes)
        phase["memory"] = time.perf_counter()
        marks = list(phase.values())
        raw["phase_s"] = {k: t - u for k, t, u in zip(list(phase)[1:], marks[1:], marks,
                                                     strict=False)}
    finally:
        await redis.aclose()
    return raw


def run(quick: bool = False) -> Section:
    """Leaderboard throughput, commands per submit and memory per entry, each beside bare
    Redis on the same redis-server in the same run."""
    proc, url = start_redis(cpu=REDIS_CPU)
    affinity = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {LOAD_CPU % (os.cpu_count() or 1)})
    started = time.perf_counter()
    try:
        raw = asyncio.run(_main(url, proc.pid, quick))
    finally:
        os.sched_setaffinity(0, affinity)
        stop(proc)
    raw["wall_s"] = time.perf_counter() - started
    runs = raw["runs"]

    def med(name: str, field: str = "") -> float:
        return median([r[name][field] if field else r[name] for r in runs])

    put_s, page_s, rank_s = med("put", "per_s"), med("page", "per_s"), med("rank", "per_s")
    py_zadd_s, py_zrevrank_s = med("py_zadd", "per_s"), med("py_zrevrank", "per_s")
    clean_zadd = [r for r in runs if r["zadd_redis_cpu"] >= SATURATED] or runs
    clean_zrevrank = [r for r in runs if r["zrevrank_redis_cpu"] >= SATURATED] or runs
    put_ratio = median([r["put_vs_zadd"] for r in clean_zadd])
    page_ratio = median([r["page_vs_zrevrank"] for r in clean_zrevrank])
    rank_ratio = median([r["rank_vs_zrevrank"] for r in clean_zrevrank])
    zadd_s = median([r["zadd_per_s"] for r in clean_zadd])
    zrevrank_s = median([r["zrevrank_per_s"] for r in clean_zrevrank])
    clean = {"zadd_runs": [i for i, r in enumerate(runs) if r in clean_zadd],
             "zrevrank_runs": [i for i, r in enumerate(runs) if r in clean_zrevrank],
             "all_runs_ratios": {"put_vs_zadd": med("put_vs_zadd"),
                                 "page_vs_zrevrank": med("page_vs_zrevrank")}}
    pc, gc = raw["put_commands"], raw["page_commands"]
    mem = raw["memory"]
    raw["summary"] = {
        "put_per_s": put_s, "page_per_s": page_s, "zadd_per_s": zadd_s,
        "zrevrank_per_s": zrevrank_s, "link_zadd_per_s": py_zadd_s,
        "link_zrevrank_per_s": py_zrevrank_s, "put_vs_zadd": put_ratio,
        "page_vs_zrevrank": page_ratio, "rank_per_s": rank_s, "rank_vs_zrevrank": rank_ratio,
        "put_vs_link_zadd": med("put_vs_py_zadd"),
        "page_vs_link_zrevrank": med("page_vs_py_zrevrank"),
        "link_zadd_vs_zadd": median([r["py_zadd_vs_zadd"] for r in clean_zadd]),
        "link_zrevrank_vs_zrevrank": median([r["py_zrevrank_vs_zrevrank"]
                                                 for r in clean_zrevrank]),
        "put_cpu": {"client": med("put", "client_cpu"), "redis": med("put", "redis_cpu")},
        "page_cpu": {"client": med("page", "client_cpu"), "redis": med("page", "redis_cpu")},
        "rank_cpu": {"client": med("rank", "client_cpu"), "redis": med("rank", "redis_cpu")},
        "redis_benchmark_redis_cpu": {"zadd": med("zadd_redis_cpu"),
                                      "zrevrank": med("zrevrank_redis_cpu")},
        "baseline_runs_used": clean}
    sm = raw["summary"]

    rows: list[list[Any]] = [
        ["submits/s: Boards.put vs redis-benchmark ZADD", fmt(put_s), fmt(zadd_s),
         f"{put_ratio:.1%}"],
        ["  Boards.put vs a bare ZADD over the same link (the Python ceiling)", fmt(put_s),
         fmt(py_zadd_s), f"{sm['put_vs_link_zadd']:.1%}"],
        ["rank queries/s: Boards.page around me, 1 entry, vs redis-benchmark ZREVRANK",
         fmt(rank_s), fmt(zrevrank_s), f"{rank_ratio:.1%}"],
        ["around-me pages/s: Boards.page around me, 20 entries, vs redis-benchmark ZREVRANK",
         fmt(page_s), fmt(zrevrank_s), f"{page_ratio:.1%}"],
        ["  Boards.page vs a bare ZREVRANK over the same link", fmt(page_s), fmt(py_zrevrank_s),
         f"{sm['page_vs_link_zrevrank']:.1%}"],
        ["client commands per submit (run inside the script)",
         f"{fmt(pc['client_per_call'])} ({fmt(pc['in_script_per_call'])})", "1 (ZADD)",
         fmt(pc["client_per_call"])],
        ["client commands per around-me page (run inside the script)",
         f"{fmt(gc['client_per_call'])} ({fmt(gc['in_script_per_call'])})", "1 (ZREVRANK)",
         fmt(gc["client_per_call"])],
    ]
    for size in raw["memory_sizes"]:
        b, z = mem[f"board_{size}"], mem[f"bare_{size}"]
        rows.append([f"bytes per entry at {size:,} entries vs bare sorted set",
                     fmt(b["per_entry"]), fmt(z["per_entry"]),
                     f"{b['per_entry'] / z['per_entry']:.2f}x"])

    def starved(cpu: float) -> str:
        return " (the rest went to other load on this machine)" if cpu < 0.9 else ""

    def ceiling(share: float, target: float) -> str:
        if share < target:
            return (f"so no change to {what} can reach {target:.0%} from one Python core")
        return f"so the rest of the gap is {what}'s own cost"

    what = "the script or Boards.put"
    why_put = "" if put_ratio >= 0.15 else (
        f"client-bound: Redis was busy only {sm['put_cpu']['redis']:.0%} of the time during "
        f"the submits; the one Python client process got {sm['put_cpu']['client']:.0%} of "
        f"its core{starved(sm['put_cpu']['client'])}. The same link sending a bare ZADD "
        f"reaches {sm['link_zadd_vs_zadd']:.1%} of redis-benchmark ZADD and Boards.put "
        f"runs at {sm['put_vs_link_zadd']:.0%} of that ceiling, "
        f"{ceiling(sm['link_zadd_vs_zadd'], 0.15)}. A second client process could only "
        "share that core (Redis needs the other), so it was not measured.")
    what = "the page script or Boards.page"
    pcpu = sm["page_cpu"]
    bound = "Redis" if pcpu["redis"] >= pcpu["client"] else "the client"
    why_rank = (
        f"A rank query is the API's around-me query asking for 1 entry (the player's own "
        f"entry, its rank and the board's size): the same script and code as a page. The "
        f"usual 20-entry around-me page runs at {page_ratio:.1%} of ZREVRANK, bound by "
        f"{bound} (Redis busy {pcpu['redis']:.0%} of the time, the client "
        f"{pcpu['client']:.0%}): it reads and "
        f"sends 20 entries' details (about 300 bytes of JSON each) where ZREVRANK returns "
        f"one integer. A bare ZREVRANK over the same link reaches "
        f"{sm['link_zrevrank_vs_zrevrank']:.1%} of redis-benchmark's.")
    if rank_ratio < 0.20:
        why_rank += (" The rank query falls short of 20%: "
                     f"{ceiling(sm['link_zrevrank_vs_zrevrank'], 0.20)}.")
    targets = [
        Target("leaderboard submits at least 15% of raw ZADD", f"{put_ratio:.1%}",
               put_ratio >= 0.15, why_put),
        Target("rank (around-me) queries at least 20% of raw ZREVRANK",
               f"{rank_ratio:.1%} (a 20-entry page: {page_ratio:.1%})", rank_ratio >= 0.20,
               why_rank),
        Target("at most two Redis commands per submit",
               f"{fmt(pc['client_per_call'])} client round-trip commands per submit "
               f"({fmt(pc['in_script_per_call'])} run inside the script)",
               pc["client_per_call"] <= 2,
               "steady state with the script cached; the first submit on a server without "
               "it costs a failed EVALSHA, SCRIPT LOAD and EVALSHA"),
    ]
    n = raw["requests"]
    method = (
        f"redis-server (7.x, no persistence) pinned to core {REDIS_CPU}; this Python process "
        f"and redis-benchmark pinned to core {LOAD_CPU}. Before the runs the board holds one "
        f"result for each of {raw['players']:,} players and the baseline sorted set "
        f"{raw['players']:,} members. Each of {RUNS} runs, interleaved: redis-benchmark "
        f"-c {CONCURRENCY} -P 1 -n {n['redis_benchmark']:,} -r {raw['players']:,} "
        f"'ZADD {ZSET} __rand_int__ member:__rand_int__'; {n['put']:,} Boards.put calls "
        f"(random Klondike results with the daily details and expiry, random players) on "
        f"{CONCURRENCY} asyncio tasks sharing one client made as the server makes it "
        f"(store.connect: the scripts go over its link, one connection that all requests "
        f"share, server/store/link.py); redis-benchmark "
        f"'ZREVRANK {ZSET} member:__rand_int__'; {n['page']:,} Boards.page(board, 0, 20, "
        f"around=random player) calls the same way, and as many rank queries (the same with "
        f"count 1); then, as the Python client's ceiling, "
        f"the same numbers of bare ZADD and ZREVRANK calls over the same link and "
        f"tasks. CPU shares are CPU seconds over wall time during each load. Figures are "
        f"medians of the {RUNS} runs; ratios are medians of the per-run ratios. The "
        f"redis-benchmark figures and the ratios to them use only the runs where "
        f"redis-benchmark kept Redis at least {SATURATED:.0%} busy (when none did, all runs): "
        f"in the others it was starved of its core by other load on the machine and measured "
        f"that. Used: ZADD runs {clean['zadd_runs']}, ZREVRANK runs {clean['zrevrank_runs']} "
        f"of 0-{RUNS - 1}. "
        f"Commands per call: CONFIG RESETSTAT, "
        f"{n['commandstats']:,} calls, INFO commandstats; commands the Lua scripts call "
        f"({', '.join(sorted(IN_SCRIPT))}) are counted apart from those the client sent. "
        f"Memory: FLUSHALL, used_memory before and after filling the board through Boards.put "
        f"on a non-transactional pipeline (batches of 1000, 4 in flight) to each size; the "
        f"baseline is a bare sorted set with the same members and scores, copied from the "
        f"board's sorted set (ZRANGE WITHSCORES and ZADD, 10,000 a call), measured as the "
        f"used_memory it adds, then deleted. "
        f"One Python process throughout: it is single-threaded and Redis needs the other "
        f"core, so a second client process could only share this one.")
    return Section(title="Leaderboards", method=method,
                   columns=["measure", "SameDeal (server code)", "baseline", "ratio"],
                   rows=rows, targets=targets, raw=raw)
