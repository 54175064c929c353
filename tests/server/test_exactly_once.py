"""A socket that never reconnects gets each race event once, in order, while the node's pub/sub
connection is made again under it: the pub/sub connection alone killed (``CLIENT KILL TYPE
pubsub``), and Redis killed and started again on its port and AOF, with moves played all the
while; the entrants' sockets (protocol v2) likewise. Once, the catch-up after a reconnect
started from the number the socket had when the catch-up was queued, not when it ran, and sent
again the events written in between."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from redis import Redis
from websockets.exceptions import ConnectionClosed

from tests.conftest import FAST, free_port, start_node

from . import own_redis
from .client import V2_JSON, Node, Ws, apply_ack, player

PLAYERS = 4
PUBSUB_KILLS = 8
MOVES_BETWEEN = 40  # moves acknowledged between two faults, and after the last


@dataclass
class Seat:
    """An entrant playing random legal moves over its own socket, on a new one when the node
    closes it, counting the moves acknowledged."""

    node: Node
    token: str
    ws: Ws
    session: dict[str, Any]
    rng: random.Random
    acked: int = 0
    closed: list[Ws] = field(default_factory=list)  # its sockets the node closed

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set() and self.session["view"]["status"] == "playing":
            legal = self.session["legal"]
            if not legal:
                return
            move = self.rng.choice(legal)  # at random: a long game, many events
            try:
                reply = await self.ws.request({"type": "move", "session": self.session["session"],
                                               "move": move, "rev": self.session["rev"]},
                                              timeout=30)
                if reply["type"] == "ack":
                    self.acked += 1
                    self.session = apply_ack(self.session, reply)
                else:  # Redis away, or a move whose ack was lost: read where it stands
                    await asyncio.sleep(0.05)
                    now = await self.ws.request({"type": "session.get",
                                                 "session": self.session["session"]})
                    if now["type"] == "session":
                        self.session = now
            except (ConnectionClosed, OSError, TimeoutError):
                await asyncio.sleep(0.1)
                with contextlib.suppress(ConnectionClosed, OSError, AssertionError):
                    ws = await Ws.open(self.node, self.token, V2_JSON)
                    self.closed.append(self.ws)
                    self.ws = ws
            await asyncio.sleep(0)


async def until(check: Callable[[], bool], what: str | Callable[[], str],
                timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, (
            f"timed out waiting for {what if isinstance(what, str) else what()}")
        await asyncio.sleep(0.02)


def numsub(admin: Redis, channel: str) -> int:
    try:
        return int(admin.pubsub_numsub(channel)[0][1])
    except Exception:  # Redis away
        return -1


async def test_a_socket_gets_each_event_once_across_pub_sub_reconnects(tmp_path: Path) -> None:
    port = free_port()
    redis = own_redis.start(port, tmp_path, aof=True)
    # A window long enough that every gap a reconnect leaves is filled from it.
    node, proc = start_node(f"redis://127.0.0.1:{port}/0", tmp_path / "node.log",
                            SAMEDEAL_EVENT_WINDOW="4096", **FAST)
    admin = Redis(port=port, socket_timeout=5)
    reading: asyncio.Task[None] | None = None
    seats: list[Seat] = []
    try:
        tokens = [(await player(node, f"P{i}"))[1] for i in range(PLAYERS)]

        def subscribed(channel: str) -> bool:
            return numsub(admin, channel) == 1

        def acked() -> int:
            return sum(s.acked for s in seats)

        async def play_on(moves: int = MOVES_BETWEEN) -> None:
            target = acked() + moves
            await until(lambda: acked() >= target or all(t.done() for t in playing),
                        "moves to be played")

        for _ in range(3):  # a deal whose games last through every fault
            stop = asyncio.Event()
            socks = [await Ws.open(node, t, V2_JSON) for t in tokens]
            for attempt in range(5):  # a deal that random moves do not lose at once
                race = await socks[0].request({"type": "race.create", "game": "klondike",
                                               "variant": "easy", "seats": PLAYERS,
                                               "countdown": 0})
                rid = race["race"]
                for ws in socks[1:]:
                    joined = await ws.request({"type": "race.join", "race": rid})
                    assert joined["type"] == "race", joined
                seats = [Seat(node, t, ws, await ws.expect("session", timeout=30, race=rid),
                              random.Random(attempt * PLAYERS + i))
                         for i, (t, ws) in enumerate(zip(tokens, socks, strict=True))]
                playing = [asyncio.create_task(s.play(stop)) for s in seats]
                await play_on(PLAYERS * MOVES_BETWEEN)  # random moves lose early or not at all
                if not all(t.done() for t in playing):
                    break
            channel = f"sd:{{{rid}}}:ev"
            _, watcher = await player(node, "Watcher", "human")
            spectator = await Ws.open(node, watcher)
            await spectator.send({"type": "race.subscribe", "race": rid})
            frames: list[str] = []  # every frame the spectator's socket receives, as it came

            async def read(spectator: Ws = spectator, frames: list[str] = frames) -> None:
                with contextlib.suppress(ConnectionClosed):
                    while True:
                        frames.append(await spectator.conn.recv())

            reading = asyncio.create_task(read())

            def closed(spectator: Ws = spectator, seats: list[Seat] = seats) -> str:
                """The node follows the race as long as a socket does: which ones it closed."""
                entrants = [w.conn.close_code for s in seats for w in [*s.closed, s.ws]]
                return (f"the node to subscribe again (spectator: {spectator.conn.close_code} "
                        f"{spectator.conn.close_reason!r}; entrants: {entrants})")

            await play_on()
            for _ in range(PUBSUB_KILLS):
                assert admin.client_kill_filter(_type="pubsub") >= 1
                await until(partial(subscribed, channel), "the node to subscribe again")
                await play_on()
            redis.send_signal(signal.SIGKILL)
            redis.wait(10)
            redis = await asyncio.to_thread(own_redis.start, port, tmp_path, True)
            await until(partial(subscribed, channel), closed)
            await play_on()
            lasted = not all(t.done() for t in playing)
            stop.set()
            await asyncio.gather(*playing)
            if lasted:
                break
            reading.cancel()  # every game ended before the faults were over: again
            await spectator.close()
            for s in seats:
                with contextlib.suppress(Exception):
                    await s.ws.close()
        else:
            raise AssertionError("no deal's games lasted through the faults in 3 tries")
        for s in seats:
            if s.session["view"]["status"] == "playing":
                if s.ws.conn.close_code is not None:  # closed by the node: a new socket
                    s.closed.append(s.ws)
                    s.ws = await Ws.open(node, s.token, V2_JSON)
                done = await s.ws.request({"type": "resign", "session": s.session["session"]})
                assert done["type"] == "ack", done
        await until(lambda: any('"race.ended"' in f for f in frames), "race.ended", 30)
        assert not reading.done(), (spectator.conn.close_code, spectator.conn.close_reason)
    finally:
        if reading is not None:
            reading.cancel()
        for s in seats:
            with contextlib.suppress(Exception):
                await s.ws.close()
        admin.close()
        proc.terminate()
        proc.wait(15)
        own_redis.stop(redis)

    # Every event once, in order: each the next after the one before, or after a resync.
    messages = [json.loads(f) for f in frames]
    events = [m for m in messages if m["type"].startswith("race.")]
    assert len(events) > 2 * MOVES_BETWEEN, len(events)
    highest, repeats, skipped = 0, [], []
    for m in messages:
        if m["type"] == "race":  # a resync: events go on from its number
            assert m["seq"] >= highest, (m["seq"], highest)
            highest = m["seq"]
        elif m["type"].startswith("race."):
            if m["seq"] <= highest:
                repeats.append(m["seq"])
            elif m["seq"] != highest + 1:
                skipped.append((highest, m["seq"]))
            highest = max(highest, m["seq"])
    assert not repeats, f"{len(repeats)} event(s) sent again: {repeats[:40]}"
    assert not skipped, f"gaps with no resync: {skipped}"
    assert events[-1]["type"] == "race.ended"

    # The entrants' sockets (v2) too: each event once, in order.
    for s in seats:
        for ws in [*s.closed, s.ws]:
            seqs = [m["seq"] for m in ws.received
                    if m["type"].startswith("race.") and m["race"] == rid]
            assert all(a < b for a, b in itertools.pairwise(seqs)), seqs
