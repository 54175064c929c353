"""The WebSocket move path: simulated players racing over real sockets, against a bare echo.

The load generator is a separate process (``python -m bench.ws load ...``) pinned to another
core than the server. Each simulated player is in a two-player Klondike race with a partner on
the same or the other server process; each move is validated, persisted to Redis (one script),
acknowledged, and relayed to both entrants as a race.progress event. The baseline is
bench/echo.py on the same uvicorn and starlette: one message in, the same message back; and
bench/floor.py is a move's input and output alone (one script, the ack, the partner's event),
what any server on this stack spends on a move before its game.

Phases, per run: a warm-up; saturation (closed loop: every player sends its next move as soon
as the last is acknowledged) for the moves per second and the server's CPU time per move; then
open loop at 50% and 80% of that rate (each player on a fixed schedule, latency measured from
the scheduled time, so a late reply also delays what follows it: no coordinated omission).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

import msgpack

from clients.sdk import diffs

from .common import (
    CORES,
    FAST,
    Section,
    Target,
    cpu_seconds,
    fmt,
    interleaved,
    percentile,
    phase_median,
    pinned,
    start_redis,
    start_server,
    stop,
)

LOADS = (0.5, 0.8)
WHY_CPU = (
    "Per move the server reads one frame and writes two (the mover's ack, the partner's "
    "race.progress), sends Redis one script and reads its reply and one pub/sub message; the "
    "echo reads one frame and writes one. The system calls alone cost about what the echo's "
    "whole message does (by profile, uvicorn's socket write is about 17 µs of a move, the "
    "event loop's polling and reads about 10 µs), so no leaner Python on top brings a move "
    "to 3x in this stack. Where the rest goes (by profile, protocol v2, shares of the server's "
    "CPU): the rules engine about 20% (the legal moves alone 10%: every reply lists them and "
    "the same search says whether the game is over), the WebSocket layers (uvicorn, "
    "websockets, starlette) about 20% for three frames, the event loop about 10%, "
    "SameDeal's request path about 35% (the message's checks, the session's turn, the "
    "script's arguments, the ack's changes, the race's events in order), the Redis link "
    "7%. What each lever gave, measured during the work by runs of this benchmark "
    "interleaved with the code before it (medians of 4 to 5 runs each): {levers}")
LEVERS = (
    "protocol v2 (the ack carries the piles that changed, 97 bytes against the whole "
    "view's 751, and stands in for the mover's own progress event): {v2} in this run (the "
    "'v1' row against 'samedeal'); building its changes from the piles the move touched "
    "(the engine's moved_piles and view_after) instead of building every pile and "
    "comparing, the ack written by the reading task with no hand-over to the writer when "
    "nothing is queued, and an event already acknowledged dropped where it arrives took v2 "
    "from even with v1 to 10% under it; uvloop with orjson took the server's CPU per move "
    "from 199 µs to 182 µs on v1 but the echo's from 33 µs to 27 µs, so the ratio grew "
    "(5.99x to 6.65x): the faster loop helps the baseline, all frames, more than the move, "
    "mostly Python; the collector frozen after startup and run on the young generation "
    "every 10,000 allocations cut its share of the server's CPU from 5% to under 1% (0.57 s "
    "of 11.3 s over a run, then 0.06 s of 10.9 s) and its longest pause from 59 ms to 6 ms; "
    "httptools was left out (it answers a control character in a header with a plain-text "
    "400 of its own, not the `bad.text` error), and so was msgspec (checking a message "
    "costs under 1% of a move with the schema's compiled quick check, and its errors would "
    "need mapping back to the stable codes); legal moves computed incrementally were not "
    "done: the status needs the search anyway, and a second move generator for 60 rule "
    "sets' declarations would be a second rules engine to keep right, for at most 10%; "
    "the engine's inner loop compiled (Cython, engine/compiled.py) together with the move "
    "script's fields read in one HMGET each (9 Redis calls a race move, not 14): 218 and 229 "
    "µs of server CPU a move before, 168 and 177 after (quick runs, 20 players, the two "
    "builds alternating in one session, the echo at 29 to 35 µs), about 23% less.")
# ----- the load generator (its own process) --------------------------------------------------


#: the wire a load generator speaks: (subprotocol, decode, encode)
WIRES: dict[str, tuple[str, Any, Any]] = {
    "v1 json": ("samedeal.json", json.loads, json.dumps),
    "v2 json": ("samedeal.v2.json", json.loads, json.dumps),
    "v2 msgpack": ("samedeal.v2.msgpack", msgpack.unpackb, msgpack.packb),
}


class Player:
    """One socket: a reader task resolves replies by id; events are only counted. On protocol
    v2 it keeps its session's payload up to date from each ack's changes, as the SDK does."""

    def __init__(self, conn: Any, wire: str) -> None:
        self.conn = conn
        _, self.decode, self.encode = WIRES[wire]
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.pushed: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ids = itertools.count(1)
        self.events = 0
        self.session: dict[str, Any] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.conn:
            m = self.decode(raw)
            fut = self.waiting.pop(m.get("id"), None) if "id" in m else None
            if fut is not None:
                fut.set_result(m)
            elif m.get("type") == "session":
                self.pushed.put_nowait(m)
            else:
                self.events += 1

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        rid = next(self.ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        await self.conn.send(self.encode({**message, "id": rid}))
        return await fut


async def register(url: str) -> str:
    import httpx

    async with httpx.AsyncClient(base_url=url) as http:
        r = await http.post("/api/v1/players", json={"name": "Load", "kind": "bot"})
        return r.json()["token"]


async def connect(url: str, token: str | None, wire: str) -> Player:
    import websockets

    conn = await websockets.connect(url.replace("http", "ws", 1) + "/api/v1/ws",
                                    subprotocols=[WIRES[wire][0]], max_size=2**22)
    p = Player(conn, wire)
    if token:
        assert (await p.request({"type": "hello", "token": token}))["type"] == "welcome"
    return p


async def seat(players: list[Player]) -> None:
    """Pair the players in two-seat Klondike races (countdown 0) and wait for their deals."""
    for a, b in zip(players[::2], players[1::2], strict=True):
        race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                                "seats": 2, "countdown": 0, "time_limit": 86400})
        await b.request({"type": "race.join", "race": race["race"]})
    for p in players:
        p.session = await asyncio.wait_for(p.pushed.get(), 30)


async def step(p: Player, rng: random.Random, echo: bool) -> None:
    """One move (or, on the echo server, one message of a move's size) and its reply."""
    if echo:
        await p.request({"type": "move", "session": "rip3z6zn2qqer.p7gc23bjt75iy",
                         "move": "t7-t1"})
        return
    s = p.session
    if not s["legal"]:  # this game is over: carry on in a practice game
        s = await p.request({"type": "solo.start", "game": "klondike", "variant": "easy"})
    reply = await p.request({"type": "move", "session": s["session"],
                             "move": rng.choice(s["legal"])})
    assert reply["type"] == "ack", reply
    whole = diffs.apply(s, reply)
    assert whole is not None, "an ack of changes that does not follow the kept payload"
    p.session = whole


async def closed_loop(players: list[Player], seconds: float, echo: bool) -> int:
    stop_at = time.perf_counter() + seconds
    counts = [0] * len(players)

    async def run(i: int, p: Player) -> None:
        rng = random.Random(i)
        while time.perf_counter() < stop_at:
            await step(p, rng, echo)
            counts[i] += 1

    await asyncio.gather(*(run(i, p) for i, p in enumerate(players)))
    return sum(counts)


async def open_loop(players: list[Player], rate: float, seconds: float,
                    echo: bool) -> list[float]:
    """Latencies (s) of moves sent on a fixed schedule at ``rate`` moves/s in all."""
    interval = len(players) / rate
    start = time.perf_counter() + 0.05
    latencies: list[float] = []

    async def run(i: int, p: Player) -> None:
        rng = random.Random(i)
        due = start + interval * i / len(players)
        while due < start + seconds:
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            await step(p, rng, echo)
            latencies.append(time.perf_counter() - due)
            due += interval

    await asyncio.gather(*(run(i, p) for i, p in enumerate(players)))
    return latencies


async def load(urls: list[str], pids: list[int], redis_pids: list[int], players: int,
               seconds: float, echo: bool, wire: str) -> dict[str, Any]:
    clients = []
    for i in range(players):
        url = urls[i % len(urls)]
        clients.append(await connect(url, None if echo else await register(url), wire))
    if not echo:
        await seat(clients)
    warm = await closed_loop(clients, 1.0, echo)  # warm up

    def cpu() -> float:
        return sum(cpu_seconds(pid) for pid in pids)

    def redis_cpu() -> float:  # every redis-server of the configuration (a cluster's six)
        return sum(cpu_seconds(pid) for pid in redis_pids)

    out: dict[str, Any] = {"warm_up_moves": warm}
    c0, t0, me0, r0 = cpu(), time.perf_counter(), time.process_time(), redis_cpu()
    moves = await closed_loop(clients, seconds, echo)
    elapsed = time.perf_counter() - t0
    used = cpu() - c0
    out["saturation"] = {"moves": moves, "seconds": elapsed, "rate": moves / elapsed,
                         "server_cpu_per_move": used / moves,
                         "server_cpu_share": used / elapsed / len(pids),
                         "loadgen_cpu_share": (time.process_time() - me0) / elapsed,
                         "redis_cpu_share": (redis_cpu() - r0) / elapsed}
    for share in LOADS:
        rate = out["saturation"]["rate"] * share
        c0 = cpu()
        lat = await open_loop(clients, rate, seconds, echo)
        out[f"open_{share}"] = {"rate": rate, "moves": len(lat), "p50": percentile(lat, 50),
                                "p99": percentile(lat, 99),
                                "server_cpu_per_move": (cpu() - c0) / max(1, len(lat))}
    for c in clients:
        await c.conn.close()
    if not echo:
        out["gc"] = await collector_pauses(urls)
    return out


async def collector_pauses(urls: list[str]) -> dict[str, float]:
    """The servers' garbage-collector pauses over the whole run (their /metrics): how many,
    their sum, and the bound of the slowest bucket any fell in (s)."""
    import httpx

    count = total = longest = 0.0
    async with httpx.AsyncClient() as http:
        for url in urls:
            text = (await http.get(url + "/metrics")).text
            below: dict[str, float] = {}
            for line in text.splitlines():
                if line.startswith("samedeal_gc_pause_seconds_count"):
                    count += float(line.split()[-1])
                elif line.startswith("samedeal_gc_pause_seconds_sum"):
                    total += float(line.split()[-1])
                elif line.startswith("samedeal_gc_pause_seconds_bucket"):
                    bound = line.partition('le="')[2].partition('"')[0]
                    below[bound] = below.get(bound, 0.0) + float(line.split()[-1])
            mine = float(sum(float(line.split()[-1]) for line in text.splitlines()
                             if line.startswith("samedeal_gc_pause_seconds_count")))
            # buckets count every pause up to their bound: the slowest pause is under the
            # first bound that counts them all
            longest = max(longest, min(float(b) for b, n in below.items() if n >= mine))
    return {"count": count, "seconds": total, "longest": longest}


# ----- the orchestrator --------------------------------------------------------------------


def drive(servers: list[tuple[subprocess.Popen[bytes], int]], redis_pids: list[int],
          players: int, seconds: float, echo: bool = False,
          wire: str = "v2 json") -> dict[str, Any]:
    """The load generator, on the last core, against running servers; its figures."""
    args = [*pinned(CORES - 1), sys.executable, "-m", "bench.ws", "load",
            "--urls", ",".join(f"http://127.0.0.1:{port}" for _, port in servers),
            "--pids", ",".join(str(p.pid) for p, _ in servers),
            "--redis-pid", ",".join(str(pid) for pid in redis_pids),
            "--players", str(players), "--seconds", str(seconds), "--wire", wire]
    if echo:
        args.append("--echo")
    out = subprocess.run(args, capture_output=True, text=True, timeout=300,
                         cwd=os.path.dirname(os.path.dirname(__file__)))
    if out.returncode:
        raise RuntimeError(f"the load generator failed: {out.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures


def one_run(kind: str, nodes: int, wire: str, players: int,
            seconds: float) -> dict[str, Any]:
    """Fresh Redis and server(s), then the load generator on another core; its figures."""
    redis, url = start_redis(cpu=CORES - 1)
    servers = [start_server(kind, cpu=i, redis_url=url, env=FAST) for i in range(nodes)]
    try:
        return drive(servers, [redis.pid], players, seconds, echo=kind != "samedeal", wire=wire)
    finally:
        for proc, _ in servers:
            stop(proc)
        stop(redis)


def why_scale(med: Any) -> str:
    """Why two processes fall short here, from the figures: what core 1 was asked for, and
    what the CPU per move says two processes would do with a core each."""
    def sat(name: str, key: str) -> float:
        return float(med(name, "saturation", key))

    each, gen = sat("samedeal x2", "server_cpu_share"), sat("samedeal x2", "loadgen_cpu_share")
    rds = sat("samedeal x2", "redis_cpu_share")
    one, two = sat("samedeal", "server_cpu_per_move"), sat("samedeal x2", "server_cpu_per_move")
    core1 = each + gen + rds
    crowd = (f"core 1 was asked for {core1:.0%} of itself ({each:.0%} + {gen:.0%} + {rds:.0%}), "
             f"so all three were starved, and the starved load generator could not keep the "
             f"first server (alone on core 0) busier than {each:.0%} either"
             if core1 >= 0.95 else
             f"core 1 was {core1:.0%} busy ({each:.0%} + {gen:.0%} + {rds:.0%}) and core 0 "
             f"{each:.0%}: the rate was bound by round trips through the crowded core")
    return (
        f"On this {CORES}-core machine the second server shares core 1 with the load "
        f"generator and Redis: {crowd}. One server alone used {one * 1e6:.0f} µs of CPU per "
        f"move, the two together {two * 1e6:.0f} µs ({one / two:.0%} as efficient): they "
        f"share nothing but Redis, so with a core each, and the load generator and Redis on "
        f"others, two would do about {2 * one / two:.1f}x one's moves. That is a projection "
        f"from CPU time, not a measurement, which needs a machine with at least 4 cores.")


def why_p99(med: Any) -> str:
    """What the slow moves wait behind, from the figures of the open-loop phases."""
    def busy(name: str, share: float) -> float:  # the server's core's share in that phase
        phase = f"open_{share}"
        return float(med(name, phase, "server_cpu_per_move") * med(name, phase, "rate"))

    sat = med("samedeal", "saturation", "server_cpu_per_move") * 1e6
    at80 = med("samedeal", "open_0.8", "server_cpu_per_move") * 1e6
    pauses, seconds = med("samedeal", "gc", "count"), med("samedeal", "gc", "seconds")
    longest = med("samedeal", "gc", "longest")
    return (
        f"The slow moves wait behind other moves: at '80%' the server's core was "
        f"{busy('samedeal', 0.8):.0%} busy (the echo's {busy('echo', 0.8):.0%}). Moves "
        f"sent on a schedule arrive fewer at a time than in the closed loop, so each costs "
        f"more ({at80:.0f} µs of CPU against {sat:.0f} µs at saturation: fewer messages "
        f"per wake-up of the event loop and per Redis read), and 80% of the closed loop's "
        f"rate fills the core; the p50 at 80% ({med('samedeal', 'open_0.8', 'p50') * 1000:.1f}"
        f" ms against {med('samedeal', 'open_0.5', 'p50') * 1000:.1f} ms at 50%) shows "
        f"the queue. The echo, bound by the load generator, is far from its core's limit at "
        f"either load. Not the garbage collector any more: it paused the server {pauses:.0f} "
        f"times over a run, {seconds * 1000:.0f} ms in all, none longer than "
        f"{longest * 1000:g} ms (`samedeal_gc_pause_seconds`), where a full collection "
        f"stopped it for up to 59 ms before it was quieted (server/app.py). The p99 follows "
        f"the CPU per move: the target needs the same cut as the CPU target.")


def projection(med: Any) -> tuple[float, str]:
    """Moves/s a two-core box would acknowledge running two server processes and Redis
    (the clients elsewhere), from the CPU each move costs the server and Redis here."""
    rate = float(med("samedeal", "saturation", "rate"))
    server = float(med("samedeal", "saturation", "server_cpu_per_move")) * 1e6
    redis = float(med("samedeal", "saturation", "redis_cpu_share")) / rate * 1e6
    two_core = 2e6 / (server + redis)
    return two_core, (
        f"The load generator needs a core of its own, which this box does not have, so this "
        f"is a projection: a move costs the server {server:.0f} µs of CPU and Redis "
        f"{redis:.0f} µs (its CPU share over the moves acknowledged, one server), so two "
        f"cores' 2,000,000 µs a second make 2,000,000 / ({server:.0f} + {redis:.0f}) = "
        f"{two_core:,.0f} moves/s, given that two processes share nothing but Redis (the "
        f"'x2' row's CPU per move says how well that holds here).")


CONFIGS = {"echo": ("echo", 1, "v2 json"), "echo msgpack": ("echo", 1, "v2 msgpack"),
           "floor": ("floor", 1, "v2 json"), "floor msgpack": ("floor", 1, "v2 msgpack"),
           "samedeal": ("samedeal", 1, "v2 json"),
           "samedeal msgpack": ("samedeal", 1, "v2 msgpack"),
           "samedeal v1": ("samedeal", 1, "v1 json"),
           "samedeal x2": ("samedeal", 2, "v2 json")}


def run(quick: bool = False) -> Section:
    runs, seconds, players = (1, 2.0, 20) if quick else (3, 4.0, 100)
    raw = interleaved(CONFIGS, runs, lambda c: one_run(*c, players, seconds))
    return section(raw, runs, seconds, players)


def section(raw: Any, runs: int, seconds: float, players: int) -> Section:
    """The section from the runs' figures (``raw``, as results.json keeps them)."""
    configs = CONFIGS
    med = phase_median(raw)

    rows = []
    for name in configs:
        rows.append([
            name, fmt(med(name, "saturation", "rate")),
            fmt(med(name, "saturation", "server_cpu_per_move") * 1e6),
            *(fmt(med(name, f"open_{s}", q) * 1000) for s in LOADS for q in ("p50", "p99")),
            fmt(med(name, "saturation", "server_cpu_share") * 100, 2),
            fmt(med(name, "saturation", "loadgen_cpu_share") * 100, 2),
            fmt(med(name, "saturation", "redis_cpu_share") * 100, 2)])
    def per_move(name: str) -> float:
        return float(med(name, "saturation", "server_cpu_per_move"))

    cpu_json = per_move("samedeal") / per_move("echo")
    cpu_msgpack = per_move("samedeal msgpack") / per_move("echo msgpack")
    floors = {w: per_move(f"floor{w}") / per_move(f"echo{w}") for w in ("", " msgpack")}
    left = {w: (3 * per_move(f"echo{w}") - per_move(f"floor{w}")) * 1e6 for w in floors}
    why_floor = (
        f"The floor, a server that does a move's input and output and nothing of a game's "
        f"(bench/floor.py: the frame decoded, one script over SameDeal's Redis link that "
        f"appends and publishes, the ack written, the published event relayed to the "
        f"partner's socket), is {floors['']:.2f}x the echo in JSON and "
        f"{floors[' msgpack']:.2f}x in msgpack: 3x the echo leaves {left['']:.0f} µs (JSON) "
        f"and {left[' msgpack']:.0f} µs (msgpack) a move for everything a game adds to it, "
        f"while the rules engine's part alone (validating the move, its legal moves and "
        f"status, the view's changes: bench/results.md's engine figures for Klondike) is "
        f"about 20 µs. ")
    scale = med("samedeal x2", "saturation", "rate") / med("samedeal", "saturation", "rate")
    p99_half = med("samedeal", "open_0.5", "p99") / med("echo", "open_0.5", "p99")
    p99_busy = med("samedeal", "open_0.8", "p99") / med("echo", "open_0.8", "p99")
    two_core, arithmetic = projection(med)
    loadgen = med("samedeal", "saturation", "loadgen_cpu_share")
    targets = [
        Target("server CPU per move at most 3x the echo's CPU per message (JSON)",
               f"{cpu_json:.2f}x", cpu_json <= 3, why_floor + WHY_CPU.format(levers=LEVERS.format(
                   v2=f"{per_move('samedeal v1'):.0f} µs a move on v1, "
                      f"{per_move('samedeal'):.0f} µs on v2"))),
        Target("server CPU per move at most 3x the echo's CPU per message (msgpack)",
               f"{cpu_msgpack:.2f}x", cpu_msgpack <= 3, why_floor),
        Target("at least 14,000 moves/s on a two-core box: two server processes and Redis "
               "(a projection from CPU per move)", f"{two_core:,.0f} moves/s",
               two_core >= 14_000, arithmetic),
        Target("p99 at 80% load at most 5x the echo's p99", f"{p99_busy:.2f}x",
               p99_busy <= 5, why_p99(med)),
        Target("p99 at 50% load at most 3x the echo's p99", f"{p99_half:.2f}x",
               p99_half <= 3),
        Target("two server processes at least 1.6x one", f"{scale:.2f}x", scale >= 1.6,
               "" if scale >= 1.6 else why_scale(med)),
    ]
    if loadgen > 0.9:
        targets[-1].note += (f" The load generator used {loadgen:.0%} of its core at "
                             "saturation, so the rates are partly its limit.")
    method = (
        f"{players} simulated players on one load-generator process (asyncio), pinned "
        f"to core {CORES - 1} with Redis; the server on core 0 (the second server, in 'x2', "
        f"on core 1). SameDeal players race in pairs (Klondike easy, partners on alternate "
        f"servers) and send random legal moves on protocol v2 (JSON; 'msgpack': msgpack; "
        f"'v1': protocol v1, the whole view in every ack and the mover's own progress "
        f"event), keeping their session from each ack's changes as the SDK does; echo "
        f"and floor players send a move-sized message, in JSON or msgpack (the floor pairs "
        f"them as they connect and relays each one's event to the other). "
        f"Per run: 1 s warm-up, {seconds:g} s closed loop (saturation), then {seconds:g} s "
        f"open loop at 50% and 80% of that rate; {runs} runs, interleaved across the "
        f"configurations, medians shown. CPU per move is the server processes' user+system "
        f"time over the saturation phase divided by the moves acknowledged; the CPU columns "
        f"say how busy each server process, the load generator and Redis were at saturation "
        f"(a rate with none near 100% is bound by round trips, not by any of them).")
    return Section(
        "WebSocket move path",
        method,
        ["server", "moves/s at saturation", "server CPU µs/move", "p50 ms @50%", "p99 ms @50%",
         "p50 ms @80%", "p99 ms @80%", "server CPU % (each)", "load generator CPU %",
         "Redis CPU %"],
        rows, targets, {"runs": raw})


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.ws")
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("load", help="the load generator (started by the benchmark)")
    g.add_argument("--urls", required=True)
    g.add_argument("--pids", required=True)
    g.add_argument("--redis-pid", required=True,
                   help="a redis-server's pid, or several, comma-separated: their CPU summed")
    g.add_argument("--players", type=int, default=40)
    g.add_argument("--seconds", type=float, default=4.0)
    g.add_argument("--echo", action="store_true")
    g.add_argument("--wire", choices=WIRES, default="v2 json")
    args = p.parse_args()
    result = asyncio.run(load(args.urls.split(","), [int(x) for x in args.pids.split(",")],
                              [int(x) for x in args.redis_pid.split(",")], args.players,
                              args.seconds, args.echo, args.wire))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
