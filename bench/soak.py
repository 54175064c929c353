"""A node's memory over a long stretch of play: is it flat, and under what bound?

``python -m bench.soak [--minutes 60] [--quick]``: one node and a throwaway redis-server;
tables of players play through the node at a moderate pace for the given time, each table in
turn a two-entrant race, a practice game and a ranked daily attempt of a newly registered
player (who connects, plays and leaves). Games are many and distinct: each ends after a random
number of moves (resigned), and some are left unfinished, as players leave them, so the cache
also meets games nobody ends. Every ``--every`` seconds the node's RSS and its
``samedeal_cached_sessions`` gauge are sampled; the result is memory against time, the slope
over the last half, and the bound: the first sample after the warm-up plus ``cache_size`` game
states at their size measured here. Without ``--quick`` it writes its section of
bench/results.md and results.json (replacing the last one).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import re
import time
import tracemalloc
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import engine
from clients.sdk import diffs
from server.config import Settings
from server.sessions import Session, session_payload

from .common import FAST, Section, fmt, rss_bytes, start_redis, start_server, stop
from .ws import Player, connect, register

GAME = {"game": "klondike", "variant": "easy"}
TITLE = "Memory of a node over an hour of play"
#: a game's length: random legal moves up to a number drawn from this range, then resign
MOVES = (5, 60)
#: the share of practice games and race entries left unfinished (never moved in again)
LEFT = 0.25


@dataclass
class Tally:
    moves: int = 0
    games: int = 0
    races: int = 0
    left: int = 0
    errors: list[str] = field(default_factory=list)
    #: (seconds since the start, RSS bytes, cached sessions)
    samples: list[tuple[float, int, int]] = field(default_factory=list)


class Pace:
    """Moves at ``rate`` a second in all, whatever the number of tables."""

    def __init__(self, rate: float) -> None:
        self.gap = 1 / rate
        self.next = time.monotonic()

    async def wait(self) -> None:
        now = time.monotonic()
        self.next = max(self.next + self.gap, now - 1)  # no burst after a stall
        if self.next > now:
            await asyncio.sleep(self.next - now)


async def play(p: Player, s: dict[str, Any], rng: random.Random, pace: Pace, tally: Tally,
               leave: bool) -> None:
    """Random legal moves up to a random length; then resign, or (``leave``) stop there."""
    length = rng.randint(*MOVES)
    moves = 0
    while s["legal"] and moves < length:
        await pace.wait()
        reply = await p.request({"type": "move", "session": s["session"],
                                 "move": rng.choice(s["legal"])})
        if reply["type"] != "ack":  # a race past its time limit, say: counted, not fatal
            tally.errors.append(reply.get("code", reply["type"]))
            return
        whole = diffs.apply(s, reply)
        assert whole is not None, reply
        s = whole
        moves += 1
        tally.moves += 1
    if leave:
        tally.left += 1
    elif s["view"]["status"] == "playing":
        await pace.wait()
        reply = await p.request({"type": "resign", "session": s["session"]})
        if reply["type"] == "ack":
            tally.moves += 1
        else:
            tally.errors.append(reply.get("code", reply["type"]))
    tally.games += 1


async def table(url: str, n: int, until: float, pace: Pace, tally: Tally) -> None:
    """Two players on long-lived sockets: a race between them, a practice game each, a ranked
    daily attempt each by a new player; again until ``until``."""
    rng = random.Random(n)
    a, b = [await connect(url, await register(url), "v2 json") for _ in range(2)]
    try:
        for turn in itertools.count():
            if time.monotonic() >= until:
                return
            job = turn % 3
            if job == 0:
                race = await a.request({"type": "race.create", "seats": 2, "countdown": 0,
                                        "time_limit": 120, **GAME})
                await b.request({"type": "race.join", "race": race["race"]})
                deals = [await asyncio.wait_for(p.pushed.get(), 30) for p in (a, b)]
                await asyncio.gather(*(play(p, s, rng, pace, tally, rng.random() < LEFT)
                                       for p, s in zip((a, b), deals, strict=True)))
                tally.races += 1
            elif job == 1:
                async def practice(p: Player) -> None:
                    s = await p.request({"type": "solo.start", **GAME})
                    await play(p, s, rng, pace, tally, rng.random() < LEFT)
                await asyncio.gather(practice(a), practice(b))
            else:
                async def daily() -> None:
                    p = await connect(url, await register(url), "v2 json")
                    try:
                        s = await p.request({"type": "daily.start", **GAME})
                        assert s["type"] == "session", s
                        await play(p, s, rng, pace, tally, False)
                    finally:
                        await p.conn.close()
                await asyncio.gather(daily(), daily())
    finally:
        for p in (a, b):
            await p.conn.close()


def cached_sessions(url: str) -> int:
    text = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()
    m = re.search(r"^samedeal_cached_sessions (\S+)$", text, re.M)
    return int(float(m.group(1))) if m else -1


async def sample(url: str, pid: int, every: float, until: float, tally: Tally,
                 log: Any) -> None:
    t0 = time.monotonic()
    while True:
        now = time.monotonic()
        kept = await asyncio.to_thread(cached_sessions, url)
        tally.samples.append((now - t0, rss_bytes(pid), kept))
        t, rss, _ = tally.samples[-1]
        print(f"{t / 60:6.1f} min  RSS {rss / 2**20:7.1f} MiB  cached {kept:6d}  "
              f"games {tally.games}  moves {tally.moves}  races {tally.races}  "
              f"errors {len(tally.errors)}", file=log, flush=True)
        if now >= until:
            return
        await asyncio.sleep(min(every, max(0.0, until - time.monotonic())))


async def soak(url: str, pid: int, seconds: float, every: float, tables: int, rate: float,
               log: Any) -> Tally:
    tally = Tally()
    until = time.monotonic() + seconds
    pace = Pace(rate)
    sampler = asyncio.create_task(sample(url, pid, every, until, tally, log))
    await asyncio.gather(*(table(url, n, until, pace, tally) for n in range(tables)))
    await sampler
    return tally


def state_bytes(n: int = 200) -> float:
    """The memory one cached game state holds, measured here as the node builds it: a
    Klondike deal, the game's moves (the middle of ``MOVES``), its payload as last shown."""
    rules = engine.get(GAME["game"], GAME["variant"])
    rng = random.Random(7)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = []
    for i in range(n):
        st = rules.deal(os.urandom(32), competitive=False)
        for _ in range(sum(MOVES) // 2):
            legal = st.legal_moves()
            if not legal:
                break
            st.play(rng.choice(legal))
        s = Session(f"s{i:012d}", "p", "", os.urandom(32), False, 0, st)
        session_payload(s)
        kept.append(s)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return grown / n


def slope(points: list[tuple[float, float]]) -> float:
    """Least squares: the change of y per unit of x."""
    n = len(points)
    if n < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else float("nan")


def at(samples: list[tuple[float, int, int]], minute: float) -> tuple[float, int, int] | None:
    """The sample nearest ``minute`` (None when the run ended well before it)."""
    if not samples or samples[-1][0] < minute * 60 - 60:
        return None
    return min(samples, key=lambda s: abs(s[0] - minute * 60))


def section(t: Tally, minutes: float, every: float, tables: int, rate: float, size: int,
            idle: float, per_state: float) -> Section:
    mib = 2 ** 20
    s = t.samples
    warm = next((x for x in s if x[0] >= min(60, s[-1][0] / 4)), s[0])
    bound = warm[1] + size * per_state
    half = [(x[0] / 60, x[1] / mib) for x in s if x[0] >= s[-1][0] / 2]
    per_min = slope(half)
    rows: list[list[Any]] = []
    for x in s:
        rows.append([f"{x[0] / 60:.1f}", fmt(x[1] / mib), fmt(x[2])])
    marks = [f"{m:g} min: {fmt(x[1] / mib)} MiB" for m in (5, 30, 60)
             if (x := at(s, m)) is not None]
    peak = max(x[1] for x in s)
    kept_max = max(x[2] for x in s)
    errors = {e: t.errors.count(e) for e in sorted(set(t.errors))}
    method = (
        f"One node (`cache_size` {size}, `cache_idle` {idle:g} s) and a throwaway "
        f"redis-server; {tables} tables of two players on long-lived sockets, at "
        f"{rate:g} moves a second in all, for {minutes:g} minutes. Each table in turn plays a "
        "two-entrant race of Klondike (easy; 120 s time limit), a practice game each, and a "
        "ranked daily attempt each by a newly registered player who connects, plays and "
        f"leaves. A game is {MOVES[0]} to {MOVES[1]} random legal moves then a resignation; "
        f"{LEFT:.0%} of practice games and race entries are left unfinished instead. The node's "
        "RSS (/proc) and its `samedeal_cached_sessions` gauge are sampled every "
        f"{every:g} s. "
        f"Played: {t.games:,} games ({t.races:,} races, {t.left:,} left unfinished), "
        f"{t.moves:,} moves acknowledged; refusals: {errors or 'none'}. "
        f"RSS {'; '.join(marks)}; peak {fmt(peak / mib)} MiB; the cache held at most "
        f"{kept_max:,} states. Slope of RSS over the last half: {per_min:+.3f} MiB a minute. "
        f"The bound: RSS after the warm-up ({fmt(warm[1] / mib)} MiB at "
        f"{warm[0] / 60:.1f} min) plus `cache_size` game states of {fmt(per_state / 1024)} KiB "
        f"each (a state with {sum(MOVES) // 2} moves and its last payload, measured with "
        f"tracemalloc): {fmt(bound / mib)} MiB.")
    return Section(TITLE, method, ["minute", "RSS (MiB)", "cached game states"], rows,
                   raw={"samples": s, "moves": t.moves, "games": t.games, "races": t.races,
                        "left": t.left, "errors": errors, "slope_mib_min": per_min,
                        "bound": bound, "per_state": per_state})


def run(minutes: float = 60, every: float = 30, tables: int = 6, rate: float = 20,
        log: Any = None) -> Section:
    settings = Settings.from_env({})
    redis_proc, redis_url = start_redis(0)
    node, port = start_server("samedeal", 1, redis_url, FAST)
    url = f"http://127.0.0.1:{port}"
    try:
        tally = asyncio.run(soak(url, node.pid, minutes * 60, every, tables, rate, log))
    finally:
        stop(node)
        stop(redis_proc)
    return section(tally, minutes, every, tables, rate, settings.cache_size,
                   settings.cache_idle, state_bytes())


def main(argv: list[str] | None = None) -> Section:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    p.add_argument("--minutes", type=float, default=60)
    p.add_argument("--every", type=float, default=30, help="seconds between samples")
    p.add_argument("--tables", type=int, default=6)
    p.add_argument("--rate", type=float, default=20, help="moves a second, all tables")
    p.add_argument("--quick", action="store_true",
                   help="one minute, a sample every 10 s; results.md untouched")
    args = p.parse_args(argv)
    if args.quick:
        args.minutes, args.every = 1, 10
    import sys
    started = time.monotonic()
    sec = run(args.minutes, args.every, args.tables, args.rate, sys.stdout)
    from .__main__ import refresh

    print(sec.method)
    if not args.quick:
        refresh([sec], time.monotonic() - started)
    return sec


if __name__ == "__main__":
    main()
