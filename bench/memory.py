"""What a game costs in Redis memory, measured: practice games, ranked daily attempts and
two-entrant races of Klondike played through a real node to their end, then Redis's own
figures: ``MEMORY USAGE`` summed per key kind and ``INFO memory`` ``used_memory_dataset`` before
and after, per game or race. Races are measured again once their replay window has passed (the
node runs with a short ``replay_window``), when their event lists have expired.

Each game plays random legal moves (a seeded generator) up to ``MOVES``, then resigns if it
is still going, so a game is about ``MOVES`` moves: the figures per move come from the key
sizes, the figures per game from both.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import defaultdict
from typing import Any

from redis.asyncio import Redis

from clients.sdk import diffs
from server import store

from .common import FAST, Section, fmt, start_redis, start_server, stop
from .ws import Player, connect, register

MOVES = 100
#: The node's replay_window here (full run, --quick): longer than the race phase, short for a run.
REPLAY_S = {False: 120, True: 20}
GAME = {"game": "klondike", "variant": "easy"}

# Key kinds, by their layout (server/store/__init__.py, server/boards/__init__.py); the first match
# wins.
KINDS = [
    ("player", re.compile(rb"^sd:player:")),
    ("token", re.compile(rb"^sd:token:")),
    ("race hash", re.compile(rb"^sd:\{r\w+\}:race$")),
    ("race entrants", re.compile(rb"^sd:\{r\w+\}:entrants$")),
    ("race events", re.compile(rb"^sd:\{r\w+\}:events$")),
    ("race entry session", re.compile(rb"^sd:\{r\w+\}:session:")),
    ("race entry moves", re.compile(rb"^sd:\{r\w+\}:moves:")),
    ("daily session", re.compile(rb"^sd:\{d[^}]+\}:session$")),
    ("daily moves", re.compile(rb"^sd:\{d[^}]+\}:moves$")),
    ("practice session", re.compile(rb"^sd:\{s\w+\}:session$")),
    ("practice moves", re.compile(rb"^sd:\{s\w+\}:moves$")),
    ("boards", re.compile(rb"^sd:\{board:")),
]


def kind_of(key: bytes) -> str:
    return next((name for name, pattern in KINDS if pattern.match(key)), "other")


async def usage(redis: Redis) -> dict[str, tuple[int, int]]:
    """``MEMORY USAGE`` (every sample) summed per key kind: kind -> (keys, bytes)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    async for key in redis.scan_iter(match="sd:*", count=1000):
        size = await redis.memory_usage(key, samples=0)
        if size is not None:
            row = out[kind_of(key)]
            row[0] += 1
            row[1] += size
    return {k: (v[0], v[1]) for k, v in out.items()}


async def used(redis: Redis) -> int:
    """``used_memory_dataset``: ``used_memory`` without Redis's own overhead (client buffers,
    the script cache), which moves with the traffic of the moment, not with what is kept."""
    await asyncio.sleep(0.5)  # the follow-ups (statistics, boards, ratings) are done
    return int((await redis.info("memory"))["used_memory_dataset"])


async def play(p: Player, s: dict[str, Any], rng: random.Random) -> int:
    """Random legal moves up to ``MOVES``, then resign if the game goes on; the moves made."""
    moves = 0
    while s["legal"] and moves < MOVES:
        reply = await p.request({"type": "move", "session": s["session"],
                                 "move": rng.choice(s["legal"])})
        assert reply["type"] == "ack", reply
        whole = diffs.apply(s, reply)  # protocol v2: the ack's changes over the payload kept
        assert whole is not None, reply
        s = whole
        moves += 1
    if s["view"]["status"] == "playing":
        assert (await p.request({"type": "resign", "session": s["session"]}))["type"] == "ack"
        moves += 1
    return moves


async def players(url: str, n: int) -> list[Player]:
    return [await connect(url, await register(url), "v2 json") for _ in range(n)]


async def practice(ps: list[Player], rng: random.Random) -> int:
    async def one(p: Player) -> int:
        return await play(p, await p.request({"type": "solo.start", **GAME}), rng)
    return sum(await asyncio.gather(*map(one, ps)))


async def daily(ps: list[Player], rng: random.Random) -> int:
    async def one(p: Player) -> int:
        s = await p.request({"type": "daily.start", **GAME})
        assert s["type"] == "session", s
        return await play(p, s, rng)
    return sum(await asyncio.gather(*map(one, ps)))


async def races(ps: list[Player], rng: random.Random) -> int:
    """Two-entrant races (countdown 0), every entrant playing to the end: the races end."""
    for a, b in zip(ps[::2], ps[1::2], strict=True):
        race = await a.request({"type": "race.create", "seats": 2, "countdown": 0, **GAME})
        await b.request({"type": "race.join", "race": race["race"]})
    sessions = [await asyncio.wait_for(p.pushed.get(), 30) for p in ps]
    return sum(await asyncio.gather(*(play(p, s, rng) for p, s in zip(ps, sessions,
                                                                       strict=True))))


async def measure(url: str, redis_url: str, n: int) -> dict[str, Any]:
    redis = Redis.from_url(redis_url)
    rng = random.Random(1)
    out: dict[str, Any] = {"n": n}
    warm = await players(url, 6)  # scripts loaded, boards and rating boards made: not counted
    await practice(warm[:2], rng)
    await daily(warm[2:4], rng)
    await races(warm[4:], rng)
    base = await used(redis)
    groups = {"practice": await players(url, n), "daily": await players(url, n),
              "race": await players(url, 2 * n)}
    out["players"] = {"used": (await used(redis)) - base, "count": 4 * n,
                      "usage": await usage(redis)}
    for name, job in (("practice", practice), ("daily", daily), ("race", races)):
        before, was = await used(redis), await usage(redis)
        moves = await job(groups[name], rng)
        grown = await used(redis) - before
        now = await usage(redis)
        out[name] = {"used": grown, "moves": moves,
                     "usage": {k: (now[k][0] - was.get(k, (0, 0))[0],
                                   now[k][1] - was.get(k, (0, 0))[1]) for k in now}}
    ended, t0 = await used(redis), time.monotonic()
    while [k async for k in redis.scan_iter(match="sd:{r*}:events", count=1000)]:
        await asyncio.sleep(1)  # expired once the window has passed
    out["expired"] = {"freed": ended - (await used(redis)), "after_s": time.monotonic() - t0}
    out["race_after"] = {k: v for k, v in (await usage(redis)).items() if k.startswith("race")}
    out["due_left"] = await redis.zcard(store.DUE)
    await redis.aclose()
    for group in [*groups.values(), warm]:
        for p in group:
            await p.conn.close()
    return out


def rows(m: dict[str, Any]) -> tuple[list[list[Any]], dict[str, float]]:
    n = m["n"]
    race_keys = [k for k, _ in KINDS if k.startswith("race")]
    after = m["race_after"]
    per = {"practice": n, "daily": n, "race": n}
    table: list[list[Any]] = []
    figures: dict[str, float] = {}
    for name in ("practice", "daily", "race"):
        r = m[name]
        moves = r["moves"] / per[name]
        own = {k: v for k, v in r["usage"].items() if v[0] or v[1]}
        for kind, (keys, size) in sorted(own.items()):
            if kind == "player":  # no new key: the players' hashes grew (statistics, ratings)
                kind = "player hashes' growth"
            table.append([name, kind, fmt(keys / per[name], 2), fmt(size / per[name])])
        keys_bytes = sum(v[1] for v in own.values())
        figures[f"{name}_keys"] = keys_bytes / per[name]
        figures[f"{name}_used"] = r["used"] / per[name]
        figures[f"{name}_moves"] = moves / (2 if name == "race" else 1)
    kept = sum(after.get(k, (0, 0))[1] for k in race_keys)
    figures["race_keys_after"] = kept / n
    figures["race_used_after"] = (m["race"]["used"] - m["expired"]["freed"]) / n
    figures["race_events"] = m["race"]["usage"].get("race events", (0, 0))[1] / n
    figures["player_used"] = m["players"]["used"] / m["players"]["count"]
    accounts = m["players"]["usage"]
    figures["player_keys"] = (sum(accounts.get(k, (0, 0))[1] for k in ("player", "token"))
                              / max(1, accounts.get("player", (0, 0))[0]))
    figures["due_left"] = m["due_left"]
    return table, figures


def run(quick: bool = False) -> Section:
    n = 10 if quick else 100
    redis_proc, redis_url = start_redis(0)
    node, port = start_server("samedeal", 1, redis_url,
                              FAST | {"SAMEDEAL_REPLAY_WINDOW": str(REPLAY_S[quick])})
    try:
        m = asyncio.run(measure(f"http://127.0.0.1:{port}", redis_url, n))
    finally:
        stop(node)
        stop(redis_proc)
    table, f = rows(m)
    table += [
        ["practice game", "all its keys / dataset growth", "", f"{fmt(f['practice_keys'])} / "
         f"{fmt(f['practice_used'])} ({fmt(f['practice_moves'])} moves)"],
        ["daily attempt", "all its keys / dataset growth (boards, stats included)", "",
         f"{fmt(f['daily_keys'])} / {fmt(f['daily_used'])} ({fmt(f['daily_moves'])} moves)"],
        ["race (2 entrants)", "all its keys / dataset growth, ended", "",
         f"{fmt(f['race_keys'])} / {fmt(f['race_used'])} "
         f"({fmt(f['race_moves'])} moves per entrant)"],
        ["race (2 entrants)", "all its keys / dataset growth, after the replay window", "",
         f"{fmt(f['race_keys_after'])} / {fmt(f['race_used_after'])}"],
        ["player, registered", "its hash and token / dataset growth", "",
         f"{fmt(f['player_keys'])} / {fmt(f['player_used'])}"],
    ]
    method = (
        f"One node and a throwaway redis-server; {n} practice games, {n} ranked daily attempts "
        f"and {n} two-entrant races of Klondike (easy), each entrant playing random legal "
        f"moves up to {MOVES} then resigning. Per item: `MEMORY USAGE` (all samples) of the "
        "keys each kind added, and the growth of `INFO memory` `used_memory_dataset` over the "
        "whole phase (what Redis keeps, without its client buffers and script cache; it also "
        "holds the statistics, boards and ratings the games wrote). The node ran with "
        f"`replay_window` {REPLAY_S[quick]} s; the last race row is measured once every "
        f"race's event list had expired ({m['expired']['after_s']:.0f} s after the last race "
        "ended). "
        f"Follow-ups left in the due set at the end: {f['due_left']}.")
    return Section("Memory in Redis", method, ["what", "key kind", "keys per item",
                                               "bytes per item"], table, raw=m | {"f": f})


if __name__ == "__main__":
    from .__main__ import markdown

    print(markdown([run()], 0))
