"""What the chain of day secrets costs (engine/fairness.py, server/daily/__init__.py):
``python -m bench chain`` (a section of bench/results.md), or ``python -m bench.chain``.

The one-off walk of a century-long chain (each process does it once per chain), and the
daily page and a day's seed with the chain on against the same with it off, on a throwaway
redis-server, in the same run: the ratio is the figure, not the milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from datetime import date

import engine
from engine import fairness
from server.app import build_services
from server.boards.records import opens_at
from server.config import Settings

from .common import Section, start_redis, stop


def walk(length: int) -> float:
    t = time.perf_counter()
    fairness.all_secrets(bytes(32), length)
    return time.perf_counter() - t


async def median(call: Callable[[], Awaitable[object]], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        await call()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


async def pages(rounds: int) -> dict[str, tuple[float, float]]:
    proc, url = start_redis()
    try:
        return await _pages(rounds, url)
    finally:
        stop(proc)


async def _pages(rounds: int, url: str) -> dict[str, tuple[float, float]]:
    day = date(2030, 6, 3)
    out: dict[str, list[float]] = {}
    rules = engine.get("klondike", "easy")
    for db, chain in enumerate((False, True)):  # a database each: neither sees the other's keys
        async def clock() -> int:
            return opens_at(day) + 3_600_000
        settings = Settings(redis_url=f"{url.rsplit('/', 1)[0]}/{db}", daily_secret="bench",
                            daily_chain=chain)
        sv = build_services(settings, clock)
        await sv.daily.info()  # the first use: the chain is made and walked
        out.setdefault("daily page", []).append(await median(sv.daily.info, rounds))
        out.setdefault("a day's seed", []).append(
            await median(lambda: sv.daily.seed(day, rules), rounds))  # noqa: B023
    return {k: (v[0], v[1]) for k, v in out.items()}


def run(quick: bool = False) -> Section:
    rounds = 40 if quick else 200
    walks = [walk(fairness.DEFAULT_LENGTH) for _ in range(3 if quick else 7)]
    baseline = [walk(1) for _ in range(3 if quick else 7)]
    rows: list[list[object]] = [[f"walk a {fairness.DEFAULT_LENGTH}-day chain (once per chain "
                                 "per process)", f"{statistics.median(walks) * 1e6:,.0f}",
                                 f"{statistics.median(baseline) * 1e6:,.1f} (a 1-day chain)",
                                 f"{statistics.median(walks) / statistics.median(baseline):,.0f}"]]
    raw: dict[str, object] = {"walk_s": walks, "walk_1_s": baseline}
    for what, (off, on) in asyncio.run(pages(rounds)).items():
        rows.append([f"{what}, chain on", f"{on * 1e6:,.0f}", f"{off * 1e6:,.0f} (chain off)",
                     f"{on / off:.2f}"])
        raw[what] = {"off_s": off, "on_s": on}
    method = (f"The walk from a chain's root to its anchor (median of {len(walks)}), beside a "
              f"one-day walk; the daily page and one day's seed (medians of {rounds} calls on "
              "a throwaway redis-server, after the first use made and walked the chain) with the "
              "chain on, beside the same with it off (the old secret), in the same run.")
    return Section("The chain of day secrets", method,
                   ["what", "us (median)", "baseline us", "ratio"], rows, raw=raw)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=200)
    args = p.parse_args()
    walks = [walk(fairness.DEFAULT_LENGTH) for _ in range(5)]
    ms = statistics.median(walks) * 1000
    print(f"walk a {fairness.DEFAULT_LENGTH}-day chain: median {ms:.1f} ms")
    for what, (off, on) in asyncio.run(pages(args.rounds)).items():
        print(f"{what}: chain on / off = {on / off:.2f} (medians {on * 1e6:.0f} us / "
              f"{off * 1e6:.0f} us)")


if __name__ == "__main__":
    main()
