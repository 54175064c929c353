"""Past one Redis: the WebSocket move path on a Redis Cluster beside one redis-server, with and
without the ``durable`` setting; and what a hot board costs a cluster.

The move path reuses bench/ws.py's load generator and run shape: one server process, the same
players and phases, a fresh store per run, runs interleaved across the configurations. The hot
board calls the daily board's write (``Boards.put``) directly, as bench/boards.py does.

    python -m bench cluster [--quick]
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server import store
from server.boards import Boards
from tests.cluster import Cluster

from .boards import EXPIRE_AT, _result
from .common import (
    CORES,
    FAST,
    Section,
    cpu_seconds,
    fmt,
    free_port,
    interleaved,
    median,
    phase_median,
    pinned,
    start_redis,
    start_server,
    stop,
    wait_port,
)
from .ws import LOADS, drive

REDIS_CPU = CORES - 1  # Redis, every node of it, with the load generator (as bench/ws.py)
SERVER_CPU = 0
DURABLE = {"SAMEDEAL_DURABLE": "1"}
#: name: (store, durable)
CONFIGS = {"one Redis": ("one", False), "cluster": ("cluster", False),
           "one Redis, durable": ("replicated", True), "cluster, durable": ("cluster", True)}
BASE = "one Redis"
#: Where the extra CPU per move goes: a profile of the server and INFO commandstats, on this
#: machine, runs of 'one Redis', 'cluster' and both durable configurations as this section
#: runs them.
WHY = (
    "Why the extra CPU per move: on a cluster a script goes over a link per primary "
    "(server/store/shard_links.py), as on one Redis over its one link "
    "(server/store/link.py), but the events arrive on one pub/sub connection per primary "
    "and each script first looks its slot's owner up in the cluster client's map. "
    "A durable move does not go over the link: "
    "WAIT must follow the script on its own connection. A durable move "
    "takes a connection from redis-py's pool (on a cluster, the primary's) and sends the "
    "script (by its SHA) and its WAIT on it together, once (server/store/durable.py), on "
    "one Redis and on a cluster alike. Sampled during development, with a pipeline in "
    "place of that exchange, redis-py and the link were about 9% of the server's CPU "
    "on one Redis and about a third with durable (its pipeline and pool), most of the "
    "difference; a first cluster version that sent every script through redis-py's "
    "cluster client cost 1.35x one Redis's CPU per move (a slot lookup, a pool checkout "
    "and a reply read per command). The WAIT itself "
    "costs the server no CPU, only latency (the replica's round trip); an earlier durable "
    "path that let redis-py's pipeline ask SCRIPT EXISTS before every move cost 2.0x to "
    "2.7x one Redis's CPU per move, against the figures here.")
HOT_WRITERS = 50  # concurrent submits, as bench/boards.py
SPREAD = 64  # boards the same writes are spread over


@dataclass
class Store:
    """A running store: the URL a server is given, and every redis-server in it."""

    url: str
    procs: list[subprocess.Popen[bytes]]
    ports: list[int] = field(default_factory=list)


def pin_all(pid: int, cpu: int) -> None:
    """Every thread of a running process onto one core (a redis-server has helper threads
    already, which ``sched_setaffinity`` on its pid alone would leave anywhere)."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(tid), {cpu % CORES})


def cli(port: int, *args: str) -> str:
    return subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True,
                          text=True, timeout=10).stdout


def info(port: int, section: str) -> dict[str, str]:
    return dict(line.strip().split(":", 1) for line in cli(port, "INFO", section).splitlines()
                if ":" in line)


def start_replica(primary: int) -> tuple[subprocess.Popen[bytes], int]:
    """A redis-server replicating the one on ``primary``, once its link is up."""
    port = free_port()
    exe = shutil.which("redis-server") or "redis-server"
    proc = subprocess.Popen([*pinned(REDIS_CPU), exe, "--port", str(port), "--bind",
                             "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", tempfile.mkdtemp(prefix="bench-replica-"),
                             "--replicaof", "127.0.0.1", str(primary)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    wait_port(port, proc)
    deadline = time.monotonic() + 30
    while info(port, "replication").get("master_link_status") != "up":
        if time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError("the replica did not reach its primary in 30 s")
        time.sleep(0.05)
    return proc, port


@contextmanager
def running(kind: str) -> Iterator[Store]:
    """A fresh store of ``kind``: "one" redis-server, "replicated" (one with a replica), or a
    "cluster" of three primaries and three replicas; all of it on the Redis core."""
    if kind == "cluster":
        work = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
        c = Cluster(work)
        try:
            for proc in c.procs:
                pin_all(proc.pid, REDIS_CPU)
            yield Store(c.url, list(c.procs), list(c.ports))
        finally:
            c.close()
            shutil.rmtree(work, ignore_errors=True)
        return
    proc, url = start_redis(cpu=REDIS_CPU)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    procs, ports = [proc], [port]
    try:
        if kind == "replicated":
            replica, rport = start_replica(port)
            procs.append(replica)
            ports.append(rport)
        yield Store(url, procs, ports)
    finally:
        for p in reversed(procs):
            stop(p)


def waits(ports: list[int]) -> int:
    """WAIT commands the store has run (on its primaries: replicas get none)."""
    total = 0
    for port in ports:
        stat = info(port, "commandstats").get("cmdstat_wait", "")
        if stat:
            total += int(stat.split(",")[0].removeprefix("calls="))
    return total


def one_run(kind: str, durable: bool, players: int, seconds: float) -> dict[str, Any]:
    """One server on a fresh store, the load generator against it; its figures, and how many
    WAITs the store ran per acknowledged move (1 when durable, 0 when not: a check that the
    setting took)."""
    with running(kind) as s:
        server = start_server("samedeal", cpu=SERVER_CPU, redis_url=s.url,
                              env=FAST | (DURABLE if durable else {}))
        try:
            out = drive([server], [p.pid for p in s.procs], players, seconds)
        finally:
            stop(server[0])
        moves = (out["warm_up_moves"] + out["saturation"]["moves"]
                 + sum(out[f"open_{x}"]["moves"] for x in LOADS))
        out["waits_per_move"] = waits(s.ports) / max(1, moves)
        return out


# ----- a hot board ---------------------------------------------------------------------------


def primaries(s: Store) -> dict[int, int]:
    """The cluster's primaries now: port -> pid."""
    return {port: proc.pid for port, proc in zip(s.ports, s.procs, strict=True)
            if info(port, "replication").get("role") == "master"}


async def writes(url: str, pids: dict[int, int], boards_n: int, seconds: float,
                 start: int) -> dict[str, Any]:
    """``HOT_WRITERS`` tasks submitting new daily results for ``seconds``, each to one of
    ``boards_n`` boards in turn: writes per second, and each primary's CPU share."""
    redis = store.connect(url, HOT_WRITERS)  # as the server makes it
    boards = Boards(redis)
    names = [f"daily:2026-11-24:hot{i}:human" for i in range(boards_n)]
    ids = itertools.count(start)
    try:
        await boards.put(names[0], *_result(random.Random(0), start - 1), EXPIRE_AT)  # warm
        rng = random.Random(start)
        stop_at = time.perf_counter() + seconds
        done = 0

        async def writer() -> None:
            nonlocal done
            while time.perf_counter() < stop_at:
                i = next(ids)
                await boards.put(names[i % boards_n], *_result(rng, i), EXPIRE_AT)
                done += 1

        cpu0 = {port: cpu_seconds(pid) for port, pid in pids.items()}
        me0, t0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(writer() for _ in range(HOT_WRITERS)))
        wall = time.perf_counter() - t0
        shares = sorted(((cpu_seconds(pid) - cpu0[port]) / wall for port, pid in pids.items()),
                        reverse=True)
        return {"writes": done, "per_s": done / wall, "primary_cpu": shares,
                "client_cpu": (time.process_time() - me0) / wall}
    finally:
        await redis.aclose()


def hot_board(runs: int, seconds: float) -> dict[str, list[dict[str, Any]]]:
    """One board against ``SPREAD`` boards on one fresh cluster, interleaved; the client on
    the server's core (no server runs now), the cluster on the Redis core."""
    raw: dict[str, list[dict[str, Any]]] = {"one board": [], f"{SPREAD} boards": []}
    affinity = os.sched_getaffinity(0)
    phases = itertools.count(1)
    with running("cluster") as s:
        pids = primaries(s)
        os.sched_setaffinity(0, {SERVER_CPU % CORES})
        try:
            for _ in range(runs):
                for name, n in (("one board", 1), (f"{SPREAD} boards", SPREAD)):
                    start = 1_000_000 * next(phases)  # new players every phase
                    raw[name].append(asyncio.run(writes(s.url, pids, n, seconds, start)))
        finally:
            os.sched_setaffinity(0, affinity)
    return raw


# ----- the sections --------------------------------------------------------------------------


def run(quick: bool = False) -> list[Section]:
    runs, seconds, players = (1, 2.0, 20) if quick else (3, 4.0, 100)
    raw = interleaved(CONFIGS, runs, lambda c: one_run(c[0], c[1], players, seconds))
    med = phase_median(raw)

    rows = []
    for name in CONFIGS:
        cpu = med(name, "saturation", "server_cpu_per_move")
        rate = med(name, "saturation", "rate")
        rows.append([
            name, fmt(rate), fmt(cpu * 1e6),
            *(fmt(med(name, "open_0.5", q) * 1000) for q in ("p50", "p99")),
            fmt(med(name, "saturation", "server_cpu_share") * 100, 2),
            fmt(med(name, "saturation", "loadgen_cpu_share") * 100, 2),
            fmt(med(name, "saturation", "redis_cpu_share") * 100, 2),
            f"{cpu / med(BASE, 'saturation', 'server_cpu_per_move'):.2f}x",
            f"{rate / med(BASE, 'saturation', 'rate'):.2f}x",
            fmt(median([r["waits_per_move"] for r in raw[name]]), 2)])
    method = (
        f"One server process on core {SERVER_CPU}; the load generator of bench/ws.py and "
        f"every redis-server of the configuration on core {REDIS_CPU} (this machine has "
        f"{CORES} cores, shared). {players} simulated players race in pairs (Klondike easy) "
        f"and send random legal moves: 1 s warm-up, {seconds:g} s closed loop (saturation), "
        f"then {seconds:g} s open loop at 50% of that rate for the latencies. 'one Redis' is "
        f"one redis-server (bench/ws.py's 'samedeal'); 'cluster' three primaries and three "
        f"replicas (tests/cluster.py), the server on its `redis-cluster://` URL; 'durable' "
        f"sets SAMEDEAL_DURABLE=1, so a move is acknowledged once a replica has it (WAIT 1), "
        f"on one redis-server with one replica or on the cluster. A fresh store and server "
        f"every run; {runs} runs interleaved across the four configurations, medians shown. "
        f"Ratios are against 'one Redis' in the same run. Redis CPU % sums every redis-server "
        f"of the configuration (the cluster's six, replicas included); WAITs per move counts "
        f"the store's WAIT commands over every move of the run, a check that the setting took. "
        f"With every Redis node on one core a cluster cannot show what it is for, more Redis "
        f"capacity: here one server process, not Redis, sets the rate, so these figures are "
        f"the cluster's and the durable setting's cost per move, not their capacity. Each "
        f"configuration's 50% load is half of its own saturation rate. {WHY}")
    move_section = Section(
        "Redis Cluster and the durable setting (move path)", method,
        ["store", "moves/s at saturation", "server CPU µs/move", "p50 ms @50%", "p99 ms @50%",
         "server CPU %", "load generator CPU %", "Redis CPU %", "CPU/move vs one Redis",
         "moves/s vs one Redis", "WAITs per move"],
        rows, [], {"runs": raw})
    return [move_section, hot_section(*((1, 1.5) if quick else (3, 3.0)))]


def hot_section(runs: int, seconds: float) -> Section:
    raw = hot_board(runs, seconds)
    spread = f"{SPREAD} boards"

    def med(name: str, f: Any) -> float:
        return median([f(r) for r in raw[name]])

    def ceiling(r: dict[str, Any]) -> float:  # the rate at which the busiest primary is full
        return float(r["per_s"] / max(1e-9, r["primary_cpu"][0]))

    rows = []
    for name in raw:
        rows.append([
            name, fmt(med(name, lambda r: r["per_s"])),
            fmt(med(name, lambda r: r["primary_cpu"][0]) * 100, 2),
            fmt(med(name, lambda r: sum(r["primary_cpu"][1:]) / (len(r["primary_cpu"]) - 1))
                * 100, 2),
            fmt(med(name, lambda r: sum(r["primary_cpu"]) / r["per_s"]) * 1e6),
            fmt(med(name, lambda r: r["client_cpu"]) * 100, 2),
            fmt(med(name, ceiling)),
            f"{med(name, ceiling) / med(spread, ceiling):.2f}x"])
    method = (
        f"Daily results submitted through the server's own board write (`Boards.put`, one "
        f"script per submit, on a `server.store.connect` cluster client, as the server makes "
        f"it) by {HOT_WRITERS} concurrent tasks in one process on core {SERVER_CPU}, for "
        f"{seconds:g} s: every write to one board, then the same writes spread over {SPREAD} "
        f"boards; every write a new player's result (the board grows); {runs} runs "
        f"interleaved, medians. A fresh cluster of three primaries and three replicas, all on "
        f"core {REDIS_CPU}. A board's keys share one hash tag, so a board lives in one slot "
        f"on one primary: the busiest primary's CPU beside the other two's shows where a hot "
        f"board's load lands. The measured rate is the client's (one Python process, its CPU "
        f"column near 100%), not Redis's. The last two columns are a projection from CPU "
        f"time, not a measurement: the write rate at which the busiest primary would use a "
        f"whole core (measured rate over its CPU share), if clients could send that much. "
        f"One board's writes cannot use more than one primary however many shards the "
        f"cluster has, so its ceiling is one Redis core's; spread boards' ceiling grows with "
        f"the primaries, though by less than their number: slots do not split evenly over "
        f"{SPREAD} boards, and a primary that gets fewer commands at once reads fewer per "
        f"wake-up, so a write costs Redis more CPU (the µs/write column). Readers of a board "
        f"(its pages) land on the same primary as its writers.")
    return Section("A hot board on a Redis Cluster", method,
                   ["writes to", "writes/s", "busiest primary CPU %",
                    "other primaries CPU % (each, mean)", "Redis CPU µs/write (primaries)",
                    "client CPU %", "projected writes/s, busiest primary full",
                    f"projection vs {spread}"], rows, [], {"runs": raw})
