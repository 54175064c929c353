"""The production shape on loopback, and what it survives: redis-server started from
deploy/redis.conf (AOF on), two SameDeal nodes, and Debian's nginx running deploy/nginx.conf
with only its addresses rewritten. Players are SDK clients talking to nginx alone, so a
reconnect lands wherever the balancer sends it, as in production.

Each test plays a 20-player race (or daily attempts) while something fails: a node killed
(SIGKILL), a node shut down (SIGTERM), Redis killed and restarted. Every move a player saw
acknowledged must be in the final transcripts, at the revision its acknowledgement gave."""

from __future__ import annotations

import asyncio
import random
import shutil
import signal
import socket
import subprocess
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

from clients.sdk import Client, ServerError
from clients.sdk.messages import Session
from tests.conftest import FAST, ROOT, answers, free_port, start_node, wait_for
from tests.fault_figures import Figures, Tally, measure, record
from tests.server.client import Node

T = TypeVar("T")
PLAYERS = 20
MOVES = 12  # each player's moves before resigning
RETRY = ("store.unavailable", "conflict", "server.error")


class Shape:
    """redis-server, two nodes and nginx, each a real process on loopback."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.redis_port = free_port()
        self.redis = self.start_redis()
        self.nodes: list[tuple[Node, subprocess.Popen[bytes]]] = [
            start_node(self.redis_url, work / f"node{i}.log", **FAST) for i in range(2)]
        self.port = free_port()
        self.nginx = self.start_nginx()

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start_redis(self) -> subprocess.Popen[bytes]:
        exe = shutil.which("redis-server")
        assert exe, "redis-server is not installed: run the README's test command"
        proc = subprocess.Popen(
            [exe, str(ROOT / "deploy" / "redis.conf"), "--port", str(self.redis_port),
             "--bind", "127.0.0.1", "--dir", str(self.work), "--daemonize", "no"],
            stdout=open(self.work / "redis.log", "ab"), stderr=subprocess.STDOUT)  # noqa: SIM115

        def ping() -> bool:
            if proc.poll() is not None:
                raise RuntimeError((self.work / "redis.log").read_text()[-2000:])
            with socket.create_connection(("127.0.0.1", self.redis_port), 0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")

        wait_for(ping, "redis-server")
        return proc

    def start_nginx(self) -> subprocess.Popen[bytes]:
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        for old, new in (("server node1:8000", f"server {self.nodes[0][0].url[7:]}"),
                         ("server node2:8000", f"server {self.nodes[1][0].url[7:]}"),
                         ("listen 80;", f"listen 127.0.0.1:{self.port};")):
            assert conf.count(old) == 1, f"deploy/nginx.conf no longer has {old!r} once"
            conf = conf.replace(old, new)
        (self.work / "nginx.conf").write_text(conf)
        exe = shutil.which("nginx") or "/usr/sbin/nginx"
        proc = subprocess.Popen(
            [exe, "-p", str(self.work), "-c", str(self.work / "nginx.conf"),
             "-e", str(self.work / "nginx-error.log"),
             "-g", f"daemon off; pid {self.work / 'nginx.pid'};"],
            stdout=open(self.work / "nginx.log", "ab"), stderr=subprocess.STDOUT)  # noqa: SIM115

        def up() -> bool:
            if proc.poll() is not None:
                raise RuntimeError((self.work / "nginx.log").read_text()[-2000:])
            return answers(f"{self.url}/healthz") == 200

        wait_for(up, "nginx")
        return proc

    def restart_nginx(self) -> None:
        self.nginx.terminate()  # SIGTERM: nginx's fast shutdown
        self.nginx.wait(10)
        self.nginx = self.start_nginx()

    def kill_redis(self) -> None:
        """Kill Redis outright: no chance to save beyond its AOF."""
        self.redis.kill()
        self.redis.wait(10)

    def revive_redis(self) -> None:
        self.redis = self.start_redis()

    def close(self) -> None:
        for proc in (self.nginx, *(p for _, p in self.nodes), self.redis):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.fixture
def shape(tmp_path: Path) -> Iterator[Shape]:
    s = Shape(tmp_path)
    yield s
    s.close()


@dataclass
class Player:
    client: Client
    token: str
    retried: int = 0  # moves refused by a failure, or applied with the reply lost
    tally: Tally = field(default_factory=Tally)

    @property
    def acked(self) -> list[tuple[int, str]]:
        return self.tally.acked


async def players(url: str, count: int) -> list[Player]:
    out = []
    for i in range(count):
        _, token = await Client.register(url, f"Bot{i:02d}", kind="bot")
        out.append(Player(Client(url, token, reconnect_timeout=60), token))
    return out


async def settled(action: Callable[[], Awaitable[T]], tally: Tally | None = None) -> T:
    """Retry what a failure refused without changing anything (Redis away for a moment)."""
    refused: ServerError | None = None
    for _ in range(300):
        try:
            return await action()
        except ServerError as e:
            if tally is not None:
                tally.errors[e.code] += 1
            if e.code not in RETRY:
                raise
            refused = e
        await asyncio.sleep(0.2)
    raise AssertionError(f"the store did not come back: {refused!r}")


class Halt:
    """Where the players wait, a third of the way through their moves, until the disruption
    has begun. A disruption started while they play can miss them all: a move takes a few
    milliseconds, and every player may have played its last one before Redis or a node goes."""

    def __init__(self, players: int) -> None:
        self.waiting = players
        self.began: float | None = None  # loop time the disruption began
        self.here = asyncio.Event()  # every player is halted, or done with its moves
        self.go = asyncio.Event()

    async def reached(self, wait: bool = True) -> None:
        self.waiting -= 1
        if not self.waiting:
            self.here.set()
        if wait:
            await self.go.wait()


async def play(p: Player, sid: str, rng: random.Random, halt: Halt | None = None) -> None:
    """Random legal moves, each at the revision it was chosen at, then resign."""
    loop = asyncio.get_running_loop()
    s = await settled(lambda: p.client.session(sid), p.tally)
    while len(p.acked) < MOVES and s.status == "playing" and s.legal:
        if halt is not None and len(p.acked) == MOVES // 3:
            await halt.reached()
            halt = None
        move = rng.choice(s.legal)
        p.tally.sent.append((s.rev, move))
        try:
            s = await p.client.move(sid, move, rev=s.rev)
        except ServerError as e:  # refused, changing nothing, or applied with its reply lost:
            p.tally.errors[e.code] += 1
            if e.code not in RETRY:  # either way the session says where things stand
                raise
            p.retried += 1
            await asyncio.sleep(0.2)
            s = await settled(lambda: p.client.session(sid), p.tally)
            continue
        p.acked.append((s.rev, move))
        p.tally.acked_at.append(loop.time())
    if halt is not None:  # the game ended before the halt
        await halt.reached(wait=False)

    async def resign() -> Session:  # once: a resign whose reply was lost is not sent again
        now = await p.client.session(sid)
        if now.status != "playing":
            return now
        p.tally.sent.append((now.rev, "resign"))  # stored as a move named so
        try:
            return await p.client.resign(sid)
        except ServerError as e:  # a resign refused as unavailable that was stored after all,
            if e.code != "game.over":  # read before it was (the shard changing hands)
                raise
        now = await p.client.session(sid)
        assert now.status != "playing", now
        return now

    await settled(resign, p.tally)


Disrupt = Callable[[Shape, list[Player], asyncio.Event], Awaitable[None]]


async def when_halted(shape: Shape, ps: list[Player], halt: Halt, then: Disrupt) -> None:
    await halt.here.wait()
    halt.began = asyncio.get_running_loop().time()
    await then(shape, ps, halt.go)


def signal_node(sig: signal.Signals) -> Disrupt:
    async def send(shape: Shape, ps: list[Player], go: asyncio.Event) -> None:
        shape.nodes[0][1].send_signal(sig)
        go.set()
    return send


async def redis_outage(shape: Shape, ps: list[Player], go: asyncio.Event) -> None:
    """Kill Redis, and start it again on its AOF only once a move has met the outage:
    a restart quicker than the gap between two moves would test nothing."""
    await asyncio.to_thread(shape.kill_redis)
    go.set()
    while not any(p.retried for p in ps):
        await asyncio.sleep(0.02)
    await asyncio.to_thread(shape.revive_redis)


def redis_paused(seconds: float) -> Disrupt:
    """Stop Redis (SIGSTOP) for ``seconds``, past the store deadline: what was sent to it
    meanwhile runs when it resumes, after its callers were answered ``store.unavailable``."""
    async def pause(shape: Shape, ps: list[Player], go: asyncio.Event) -> None:
        shape.redis.send_signal(signal.SIGSTOP)
        go.set()
        try:
            await asyncio.sleep(seconds)
        finally:
            shape.redis.send_signal(signal.SIGCONT)
    return pause


async def balancer_restarted(shape: Shape, ps: list[Player], go: asyncio.Event) -> None:
    """Every socket cut at once: nginx shut down fast (it closes its connections, with no
    WebSocket close frame: it only relays bytes) and started again on the same port."""
    await asyncio.to_thread(shape.restart_nginx)
    go.set()


def fault_figures(fault: str, store: str, url: str, sessions: dict[str, Player],
                  began: float | None) -> Figures:
    """The run's figures (tests/fault_figures.py), from every session's stored moves."""
    runs = []
    for sid, p in sessions.items():
        moves = httpx.get(f"{url}/api/v1/sessions/{sid}/moves", timeout=10).json()["moves"]
        assert p.acked, f"{sid} played no move"
        runs.append((p.tally, moves))
    return measure(fault, store, runs, [c for p in sessions.values()
                                        for c in p.client.lost_codes], began)


async def race(shape: Shape, disrupt: Disrupt | None, fault: str = "none",
               frames_may_drop: bool = False) -> list[Player]:
    ps = await players(shape.url, PLAYERS)
    try:
        figures = await race_with(shape, ps, disrupt, fault)
    finally:
        for p in ps:
            await p.client.close()
    record(figures, frames_may_drop)
    return ps


async def race_with(shape: Shape, ps: list[Player], disrupt: Disrupt | None,
                    fault: str) -> Figures:
    creator = ps[0].client
    r = await creator.create_race("klondike", "easy", PLAYERS, countdown=0, time_limit=600)
    for p in ps[1:]:
        await p.client.join_race(r.id)
    sessions = {}
    for p in ps:
        s = await p.client.wait_race_session(r.id, timeout=30)
        sessions[s.id] = p
    rngs = [random.Random(i) for i in range(PLAYERS)]
    halt = Halt(PLAYERS) if disrupt is not None else None
    jobs = [play(p, sid, rng, halt)
            for (sid, p), rng in zip(sessions.items(), rngs, strict=True)]
    if disrupt is not None and halt is not None:
        jobs.append(when_halted(shape, ps, halt, disrupt))
    await asyncio.wait_for(asyncio.gather(*jobs), 240)
    results = await ps[1].client.wait_race_end(r.id, timeout=60)
    assert len(results.ranking) == PLAYERS
    assert {e["player"] for e in results.ranking} == {p.client.player["id"] for p in ps
                                                      if p.client.player}
    return fault_figures(fault, "one Redis", shape.url, sessions,
                         halt.began if halt is not None else None)


async def test_a_twenty_player_race_through_nginx(shape: Shape) -> None:
    ps = await race(shape, None, "no fault")
    assert sum(len(p.acked) for p in ps) >= PLAYERS * MOVES // 2
    assert all(p.client.connections == 1 for p in ps)  # nothing dropped on the way


async def test_a_node_killed_mid_race_loses_no_acknowledged_move(shape: Shape) -> None:
    victim = shape.nodes[0][1]
    ps = await race(shape, signal_node(signal.SIGKILL), "a node killed", frames_may_drop=True)
    assert victim.wait(10) == -signal.SIGKILL
    moved = [p for p in ps if p.client.connections > 1]
    assert moved, "no player was on the killed node"


async def test_a_node_shut_down_mid_race_hands_its_players_over(shape: Shape) -> None:
    node, proc = shape.nodes[0]
    ps = await race(shape, signal_node(signal.SIGTERM), "a node shut down")
    assert proc.wait(30) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled
    moved = [p for p in ps if p.client.connections > 1]
    assert moved, "no player was on the node shut down"
    log = node.log.read_text()
    assert "draining: telling" in log and "Traceback" not in log, log[-3000:]


async def test_redis_restarted_mid_race(shape: Shape) -> None:
    ps = await race(shape, redis_outage, "Redis killed and restarted")
    assert sum(p.retried for p in ps) > 0, "no move met the restart"
    for node, proc in shape.nodes:
        assert proc.poll() is None, node.log.read_text()[-2000:]


async def test_redis_paused_past_the_store_deadline_mid_race(shape: Shape) -> None:
    ps = await race(shape, redis_paused(10), "Redis paused for 10 s")
    assert sum(p.retried for p in ps) > 0, "no move met the pause"


async def test_every_socket_cut_at_once_mid_race(shape: Shape) -> None:
    ps = await race(shape, balancer_restarted, "every socket cut at once",
                    frames_may_drop=True)
    assert all(p.client.connections > 1 for p in ps), "a player kept its connection"


async def test_redis_restarted_mid_daily_loses_no_move_and_no_board_entry(
        shape: Shape) -> None:
    """Half the players finish their ranked attempt before Redis is killed and restarted,
    half play through it: every entry is on the day's board, once, with its moves."""
    ps = await players(shape.url, 10)
    try:
        sessions = {(await p.client.start_daily("golf", "easy")).id: p for p in ps}
        early, late = list(sessions.items())[:5], list(sessions.items())[5:]
        await asyncio.gather(*(play(p, sid, random.Random(i))
                               for i, (sid, p) in enumerate(early)))
        before = await settled(lambda: ps[0].client.board("daily/today/golf/easy", kind="bot",
                                                           count=100))
        assert {e["player"] for e in before.entries} == {p.client.player["id"]
                                                          for _, p in early}
        late_players = [p for _, p in late]
        halt = Halt(len(late))
        await asyncio.wait_for(asyncio.gather(
            *(play(p, sid, random.Random(10 + i), halt) for i, (sid, p) in enumerate(late)),
            when_halted(shape, late_players, halt, redis_outage)), 240)
        assert sum(p.retried for p in late_players) > 0, "no move met the restart"
        for _ in range(100):  # an end Redis refused to record is recorded on a later sweep
            board = await settled(lambda: ps[0].client.board("daily/today/golf/easy",
                                                             kind="bot", count=100))
            if board.total >= 10:
                break
            await asyncio.sleep(0.2)
        entries = {e["player"]: e for e in board.entries}
        assert board.total == len(entries) == 10
        runs = []
        for sid, p in sessions.items():
            assert entries[p.client.player["id"]]["session"] == sid
            runs.append((p.tally, (await p.client.transcript(sid))["moves"]))  # Redis is up
        alltime = await settled(lambda: ps[0].client.board("alltime/golf/easy", kind="bot",
                                                            count=100))
        assert sorted(e["results"] for e in alltime.entries) == [1] * 10  # none counted twice
        record(measure("Redis killed and restarted mid-daily", "one Redis", runs,
                       [c for p in ps for c in p.client.lost_codes], halt.began))
    finally:
        for p in ps:
            await p.client.close()
