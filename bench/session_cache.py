"""What the session cache saves: a move on a game whose state the node keeps, against one
whose state it must rebuild (read the session and its move list from Redis, deal, replay).

``python -m bench session_cache`` (a section of bench/results.md). Two nodes on one core, one
as configured by default, one with ``cache_size`` 0 (every move rebuilds); the same games (the
same seeds, the same random legal moves) played on each, game by game in turn, one move at a
time, so nothing queues. Per move: the round trip at the client, and per game the node's CPU
time over its moves; medians by how deep into the game the move is (a rebuild replays every
move before it).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from clients.sdk import diffs
from server.config import Settings

from .common import FAST, Section, cpu_seconds, fmt, median, start_redis, start_server, stop
from .ws import Player, connect, register

GAME = {"game": "klondike", "variant": "easy"}
#: the depths (moves already made) the figures are grouped by: [low, high)
DEPTHS = ((0, 10), (10, 30), (30, 60), (60, 100), (100, 150))
#: one player moves as fast as its replies come: its account's limit out of the way too
UNLIMITED = FAST | {"SAMEDEAL_ACCOUNT_PER_SECOND": "1000000", "SAMEDEAL_ACCOUNT_BURST": "1000000"}


async def game(p: Player, seed: str, moves: int) -> list[tuple[int, float]]:
    """One game of random legal moves (seeded): each move's depth and round trip (s)."""
    rng = random.Random(seed)
    s = await p.request({"type": "solo.start", "seed": seed, **GAME})
    out = []
    for depth in range(moves):
        if not s["legal"]:
            break
        t0 = time.perf_counter()
        reply = await p.request({"type": "move", "session": s["session"],
                                 "move": rng.choice(s["legal"])})
        out.append((depth, time.perf_counter() - t0))
        assert reply["type"] == "ack", reply
        whole = diffs.apply(s, reply)
        assert whole is not None, reply
        s = whole
    return out


async def measure(urls: dict[str, str], pids: dict[str, int], games: int,
                  moves: int) -> dict[str, Any]:
    players = {name: await connect(url, await register(url), "v2 json")
               for name, url in urls.items()}
    trips: dict[str, list[tuple[int, float]]] = {name: [] for name in urls}
    cpu: dict[str, list[float]] = {name: [] for name in urls}
    for p in players.values():  # warm: scripts loaded, the engine's tables built
        await game(p, "ff", 20)
    for i in range(games):
        for name, p in players.items():
            c0 = cpu_seconds(pids[name])
            played = await game(p, f"{i:08x}", moves)
            cpu[name].append((cpu_seconds(pids[name]) - c0) / max(1, len(played)))
            trips[name] += played
    for p in players.values():
        await p.conn.close()
    return {"trips": trips, "cpu": cpu}


def run(quick: bool = False) -> Section:
    games, moves = (4, 60) if quick else (30, 150)
    default = Settings.from_env({}).cache_size
    redis_proc, redis_url = start_redis(0)
    nodes = {name: start_server("samedeal", 1, redis_url,
                                UNLIMITED | {"SAMEDEAL_CACHE_SIZE": str(size)})
             for name, size in (("kept", default), ("rebuilt", 0))}
    try:
        m = asyncio.run(measure({n: f"http://127.0.0.1:{port}" for n, (_, port) in nodes.items()},
                                {n: proc.pid for n, (proc, _) in nodes.items()}, games, moves))
    finally:
        for proc, _ in nodes.values():
            stop(proc)
        stop(redis_proc)
    rows: list[list[Any]] = []
    ratios: dict[str, float] = {}
    for low, high in DEPTHS:
        med = {n: median([t for d, t in m["trips"][n] if low <= d < high]) * 1000 for n in nodes}
        if med["kept"] != med["kept"]:  # no game this deep
            continue
        ratios[f"{low}-{high}"] = med["rebuilt"] / med["kept"]
        rows.append([f"{low + 1}-{high}", fmt(med["kept"]), fmt(med["rebuilt"]),
                     f"{med['rebuilt'] / med['kept']:.2f}x"])
    cpu = {n: median(m["cpu"][n]) * 1e6 for n in nodes}
    rows.append(["node CPU µs a move (median of the games)", fmt(cpu["kept"]),
                 fmt(cpu["rebuilt"]), f"{cpu['rebuilt'] / cpu['kept']:.2f}x"])
    method = (
        f"Two nodes on one core and a throwaway redis-server: 'kept' with the default "
        f"`cache_size` ({default}), 'rebuilt' with `cache_size` 0, so every move reads the "
        "session and its move list from Redis, deals and replays it before playing (and "
        "acknowledges with the whole payload: it has no earlier one to take changes "
        "against). "
        f"{games} practice games of Klondike (easy), the same seeds and the same random legal "
        f"moves on each (up to {moves}), played one node after the other game by game, one "
        "move at a time (nothing queues). Medians of each move's round trip at the client "
        "(ms), grouped by the move's number in its game; the node's CPU per move over each "
        "game, median of the games.")
    return Section("What the session cache saves", method,
                   ["move number", "kept, ms", "rebuilt, ms", "rebuilt / kept"], rows,
                   raw={"ratios": ratios, "cpu_us": cpu, "games": games, "moves": moves})


if __name__ == "__main__":
    from .__main__ import refresh

    started = time.monotonic()
    made = run()
    print(refresh([made], time.monotonic() - started))
