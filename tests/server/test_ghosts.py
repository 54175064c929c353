"""Ghost races on two real nodes over one real redis-server: an entrant on node B sees the
earlier entrant's (node A) run replayed at the moments it happened, never a card; one attempt
each; the seed and the transcripts withheld until the ghost race closes and its last run
ends, public after; closing done once however many nodes sweep; a node killed mid-run loses
nothing; the ghost race's live board follows the finishes."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import msgpack
import pytest
import redis.asyncio as aioredis

from server.accounts import Player
from server.api import Services
from server.app import build_services
from server.config import Settings
from server.errors import ApiError
from server.ghosts import CLOSING, DEALING_MS, DUE, OPEN
from server.ghosts.record import board_key, ghost_keys, run_id
from server.transport import replies
from tests.conftest import FAST, SUITE_NICE, start_node, stop_node

from .client import JSON, V2_JSON, Node, Rest, Ws, cards_in, player
from .stated import unstated
from .test_documents import payloads, served

GAME = {"game": "klondike", "variant": "easy"}
GHOST_TYPES = ("ghost", "ghost.entry", "ghost.progress")


async def play(ws: Ws, session: dict[str, Any], n: int, gap: float) -> list[float]:
    """``n`` moves, ``gap`` s apart (the first after one gap): the monotonic time each was
    acknowledged."""
    at = []
    for _ in range(n):
        await asyncio.sleep(gap)
        ack = await ws.request({"type": "move", "session": session["session"],
                                "move": session["legal"][0]})
        assert ack["type"] == "ack", ack
        if "legal" in ack:
            session = {**session, **ack}
        at.append(time.monotonic())
    return at


async def until(check: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = await check()
        if got:
            return got
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.2)


async def entered(ws: Ws) -> tuple[str, dict[str, Any]]:
    """A new ghost race for two, runs of 60 s starting at once, entered by ``ws``'s player:
    its id and the entry."""
    g = await ws.request({"type": "ghost.create", **GAME, "cap": 2, "countdown": 0,
                          "time_limit": 60})
    return g["ghost"], await ws.request({"type": "ghost.enter", "ghost": g["ghost"]})


async def summary(rest: Rest, gid: str) -> dict[str, Any]:
    status, body = await rest.call("GET", f"/ghosts/{gid}")
    assert status == 200, body
    return body


async def test_a_ghost_race_replays_earlier_runs_hides_then_reveals(nodes: list[Node]) -> None:
    a, b = nodes
    ada, ta = await player(a, "Ada", "human")
    ben, tb = await player(b, "Ben", "human")
    _, tc = await player(b, "Cy", "human")
    ws_a = await Ws.open(a, ta, JSON)
    ws_b = await Ws.open(b, tb, V2_JSON)
    watcher = await Ws.open(b, tc, JSON)
    rest_b = Rest(b, tb)

    g = await ws_a.request({"type": "ghost.create", **GAME, "cap": 2, "countdown": 0,
                            "time_limit": 60, "open_for": 120})
    assert g["type"] == "ghost" and g["state"] == "open" and "seed" not in g, g
    gid = g["ghost"]
    status, listed = await rest_b.call("GET", "/ghosts")
    assert status == 200 and listed["ghosts"][0]["ghost"] == gid  # newest first
    sub = await watcher.request({"type": "board.subscribe", "board": f"ghost/{gid}"})
    assert sub["type"] == "subscribed", sub
    first = await watcher.expect("board.update")
    assert first["total"] == 0

    # Ada's run, on node A: three moves at about 0.4, 0.8 and 1.2 s, then she resigns.
    entry = await ws_a.request({"type": "ghost.enter", "ghost": gid})
    assert entry["type"] == "ghost.entry", entry
    t0 = time.monotonic()
    sid_a = entry["session"]["session"]
    acked = await play(ws_a, entry["session"], 3, 0.4)
    await ws_a.request({"type": "resign", "session": sid_a})
    ada_offsets = [t - t0 for t in acked]
    assert (await ws_a.request({"type": "ghost.enter", "ghost": gid}))["code"] == "ghost.entered"
    update = await watcher.expect("board.update", total=1)  # the live board follows
    assert update["entries"][0]["player"] == ada

    # Before the close: no seed, no transcript, anywhere.
    s = await summary(rest_b, gid)
    assert "seed" not in s and "transcripts" not in s and s["to_beat"]["player"] == ada
    status, body = await rest_b.call("GET", f"/sessions/{sid_a}/moves")
    assert (status, body["code"]) == (403, "session.hidden")
    status, body = await Rest(b).call("GET", f"/sessions/{sid_a}/moves")
    assert status == 401
    for path in (f"/races/{entry['race']}", f"/races/{entry['race']}/results"):
        status, body = await rest_b.call("GET", path)
        assert status == 200 and "seed" not in body, body
    assert all("seed" not in m for m in ws_a.received if m["type"] == "race.ended")
    again = await ws_a.request({"type": "race.rematch", "race": entry["race"]})
    assert again["code"] == "ghost.entered"  # no second attempt through a rematch

    # Ben's run, on node B (protocol v2): Ada's run replayed at its own moments.
    entry_b = await ws_b.request({"type": "ghost.enter", "ghost": gid})
    t1 = time.monotonic()
    assert entry_b["type"] == "ghost.entry" and entry_b["ghost"]["state"] == "closed"  # cap
    ghosts, arrived = [], []
    for _ in range(4):
        ghosts.append(await ws_b.expect("ghost.progress", timeout=5))
        arrived.append(time.monotonic() - t1)
    assert [m["player"] for m in ghosts] == [ada] * 4
    assert [m["moves"] for m in ghosts[:3]] == [1, 2, 3]
    assert ghosts[-1]["status"] != "playing"  # her resignation
    for m, expected in zip(ghosts, ada_offsets, strict=False):
        assert abs(m["offset"] / 1000 - expected) < 0.35, (m, expected)
    for i in range(3):  # each as late in Ben's run as it was in Ada's
        assert -0.15 < arrived[i] - ghosts[i]["offset"] / 1000 < 0.5, (arrived, ghosts)
    await ws_b.drain(0.3)
    for m in ws_b.received:
        if m["type"] == "ghost.progress":
            assert not cards_in(m) and "seed" not in m, m
    own = entry_b["session"]
    await play(ws_b, own, 1, 0)
    ack = [m for m in ws_b.received if m["type"] == "ack"][-1]
    assert isinstance(ack.get("seq"), int), ack  # v2: the ack stands for his race.progress
    await ws_b.request({"type": "resign", "session": own["session"]})

    # Both runs over and the cap reached: revealed, by a sweep.
    async def revealed() -> dict[str, Any] | None:
        out = await summary(rest_b, gid)
        return out if out["state"] == "revealed" else None

    done = await until(revealed)
    assert hashlib.sha256(bytes.fromhex(done["seed"])).hexdigest() == done["commitment"]
    assert [t["player"] for t in done["transcripts"]] == [ada, ben]
    assert len(done["transcripts"][0]["moves"]) == 4
    assert {e["player"] for e in done["ranking"]} == {ada, ben}
    jsonschema.validate(done, replies.GHOST)  # revealed: the transcripts as the schema says
    status, body = await Rest(b).call("GET", f"/sessions/{sid_a}/moves")
    assert status == 200 and body["seed"] == done["seed"], body
    status, body = await rest_b.call("POST", f"/ghosts/{gid}/enter")
    assert (status, body["code"]) == (409, "ghost.entered")
    _, td = await player(b, "Dee", "human")
    status, body = await Rest(b, td).call("POST", f"/ghosts/{gid}/enter")
    assert (status, body["code"]) == (409, "ghost.closed")

    # Every ghost message holds the AsyncAPI document's schema.
    schemas = payloads(await served(a, "/asyncapi.json"), "send")
    seen = set()
    for m in ws_a.received + ws_b.received:
        if m["type"] in GHOST_TYPES:
            seen.add(m["type"])
            jsonschema.validate(m, schemas[m["type"]])
    assert seen == set(GHOST_TYPES)
    for ws in (ws_a, ws_b, watcher):
        await ws.close()
    await rest_b.aclose()


async def test_closing_is_done_once_with_both_nodes_sweeping(nodes: list[Node],
                                                            redis_url: str) -> None:
    a, b = nodes
    _, token = await player(a, "Eve", "human")
    rest = Rest(a, token)
    gids = []
    for node in (a, b, a, b):
        status, g = await Rest(node, token).call("POST", "/ghosts", {**GAME, "open_for": 1})
        assert status == 201, g
        gids.append(g["ghost"])
    for gid in gids:
        async def shut(gid: str = gid) -> bool:
            return (await summary(rest, gid))["state"] == "revealed"  # no entrant: at once
        await until(shut)
    await asyncio.sleep(2.5)  # more sweeps, on both nodes
    store = aioredis.from_url(redis_url)
    for gid in gids:
        events = [msgpack.unpackb(e.split(b"\n", 1)[1])["type"]
                  for e in await store.lrange(f"sd:{{{gid}}}:events", 0, -1)]
        assert events == ["ghost.closed", "ghost.revealed"], events
    await store.aclose()
    _, listed = await rest.call("GET", "/ghosts")
    assert not {g["ghost"] for g in listed["ghosts"]} & set(gids)
    await rest.aclose()


async def test_the_seed_stays_hidden_while_the_entry_that_closed_it_is_being_dealt(
        nodes: list[Node], redis_url: str) -> None:
    """The entry that reaches the cap closes the ghost race before its run is dealt: a
    sweep in between must not reveal the seed the entrant is about to play (it did, on a
    busy machine). An entry left undealt for longer than a deal may take no longer holds
    the reveal back: a closed ghost race's undealt run can never be played."""
    a, _ = nodes
    _, token = await player(a, "Gus", "human")
    ws = await Ws.open(a, token, JSON)
    gid, entry = await entered(ws)
    await ws.request({"type": "resign", "session": entry["session"]["session"]})
    rest = Rest(a, token)
    await until(lambda: _recorded(redis_url, gid))
    # A second entrant as the entry script leaves one, the run not yet dealt; closed.
    gk, ek, _, _ = ghost_keys(gid)
    r = aioredis.from_url(redis_url)
    now = int((await r.time())[0]) * 1000
    await r.hset(ek, "p-late", json.dumps({"name": "Late", "kind": "human", "entered": now}))
    await r.hset(gk, "state", "closed")
    await r.zrem(OPEN, gid)
    await r.zrem(DUE, gid)
    await r.zadd(CLOSING, {gid: now})
    await asyncio.sleep(2.5)  # several sweeps, on both nodes
    assert (await summary(rest, gid))["state"] == "closed"
    long_ago = now - DEALING_MS - 1000
    await r.hset(ek, "p-late", json.dumps({"name": "Late", "kind": "human", "entered": long_ago}))

    async def revealed() -> bool:
        return (await summary(rest, gid))["state"] == "revealed"
    await until(revealed)
    await r.aclose()
    await rest.aclose()
    await ws.close()


async def _recorded(redis_url: str, gid: str) -> bool:
    """Whether every run of the ghost race has its end recorded."""
    r = aioredis.from_url(redis_url)
    _, ek, _, tk = ghost_keys(gid)
    done = set(await r.hkeys(tk)) >= set(await r.hkeys(ek))
    await r.aclose()
    return done


@pytest.fixture
def doomed(redis_url: str, tmp_path: Path) -> Iterator[tuple[Node, Any]]:
    node, proc = start_node(redis_url, tmp_path / "doomed.log", **FAST)
    yield node, proc
    if proc.poll() is None:
        stop_node(proc)


async def test_a_node_killed_mid_run_loses_nothing(nodes: list[Node],
                                                  doomed: tuple[Node, Any]) -> None:
    node, proc = doomed
    _, survivor = nodes
    fay, tf = await player(node, "Fay", "human")
    ws = await Ws.open(node, tf, JSON)
    gid, entry = await entered(ws)
    await play(ws, entry["session"], 2, 0.1)
    os.kill(proc.pid, signal.SIGKILL)  # mid-run, with its socket
    proc.wait(10)

    ws = await Ws.open(survivor, tf, JSON)
    again = await ws.request({"type": "ghost.enter", "ghost": gid})  # resumes: one attempt
    assert again["type"] == "ghost.entry", again
    assert again["race"] == entry["race"] and again["session"]["rev"] == 2
    assert again["session"]["view"]["moves"] == 2
    await play(ws, again["session"], 1, 0.1)
    await ws.request({"type": "resign", "session": again["session"]["session"]})
    rest = Rest(survivor, tf)

    async def ranked() -> dict[str, Any] | None:
        s = await summary(rest, gid)
        return s if s["finished"] == 1 else None

    s = await ranked() or await until(ranked)
    # three moves and the resignation, each a ply
    assert s["ranking"][0]["player"] == fay and s["ranking"][0]["moves"] == 4
    assert not unstated({"type": "ghost", **s}), s
    # Her recorded timeline, as the next entrant sees it: three moves, then her resignation.
    _, tg = await player(survivor, "Gus", "human")
    gus = await Ws.open(survivor, tg, JSON)
    await gus.request({"type": "ghost.enter", "ghost": gid})
    steps = [await gus.expect("ghost.progress", timeout=30, player=fay) for _ in range(4)]
    assert [m["moves"] for m in steps[:3]] == [1, 2, 3] and steps[3]["status"] != "playing"
    for w in (ws, gus):
        await w.close()
    await rest.aclose()


async def test_one_run_per_player_even_entering_twice_at_once(nodes: list[Node]) -> None:
    a, b = nodes
    _, token = await player(a, "Ida", "human")
    _, other = await player(b, "Jo", "human")
    status, g = await Rest(a, token).call("POST", "/ghosts", {**GAME, "countdown": 0})
    assert status == 201, g
    sockets = [await Ws.open(n, token, JSON) for n in (a, b)]
    entries = await asyncio.gather(*(ws.request({"type": "ghost.enter", "ghost": g["ghost"]})
                                     for ws in sockets))
    assert [e["type"] for e in entries] == ["ghost.entry"] * 2, entries
    assert entries[0]["race"] == entries[1]["race"]  # one run, one session
    assert entries[0]["session"]["session"] == entries[1]["session"]["session"]
    # Nobody else can take a seat in it, or read its moves.
    intruder = await Ws.open(b, other, JSON)
    refused = await intruder.request({"type": "race.join", "race": entries[0]["race"]})
    assert refused["type"] == "error" and refused["code"] in ("race.full", "race.not_open")
    status, body = await Rest(b, other).call(
        "GET", f"/sessions/{entries[0]['session']['session']}/moves")
    assert (status, body["code"]) == (403, "session.hidden")
    status, s = await Rest(b, other).call("GET", f"/ghosts/{g['ghost']}")
    assert s["entrants"] == 1
    for ws in (*sockets, intruder):
        await ws.close()


async def _backdated(sv: Services, gid: str, pid: str) -> None:
    """``pid`` entered longer ago than a deal may take: its undealt or unstarted run no
    longer holds the reveal back (``Ghosts.settle``)."""
    _, ek, _, _ = ghost_keys(gid)
    info = json.loads(await sv.redis.hget(ek, pid))
    info["entered"] -= DEALING_MS + 1000
    await sv.redis.hset(ek, pid, json.dumps(info))


async def _one_run_recorded(sv: Services) -> tuple[str, Player]:
    """A ghost race of two entrants built in this process, the first one's run over and
    recorded: its id and the second entrant, yet to enter."""
    ann, _ = await sv.accounts.register("Ann", "human")
    bob, _ = await sv.accounts.register("Bob", "human")
    gid = (await sv.ghosts.create(ann, {**GAME, "cap": 2, "countdown": 0,
                                        "time_limit": 60}))["ghost"]
    entry = await sv.ghosts.enter(ann, gid)
    await sv.operations["resign"].handler(sv, ann, {"type": "resign",
                                                    "session": entry["session"]["session"]})
    await until(lambda: _recorded_in(sv, gid, ann.id))
    return gid, bob


async def _recorded_in(sv: Services, gid: str, pid: str) -> bool:
    return bool(await sv.redis.hexists(ghost_keys(gid)[3], pid))


async def test_a_run_whose_dealing_outlasts_the_reveal_is_never_played(
        clocked_redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry that fills a ghost race closes it before its run is dealt; a dealing that
    takes longer than DEALING_MS (a stalled node) lets a sweep reveal the seed meanwhile. The
    run is then refused before it starts, and one started in the instant between is played
    but not ranked: nobody plays a ranked run knowing its seed."""
    sv = build_services(Settings(redis_url=clocked_redis_url, **SUITE_NICE))
    gid, bob = await _one_run_recorded(sv)
    deal = sv.races.open_run

    async def stalled_deal(*args: Any, **kwargs: Any) -> None:
        await deal(*args, **kwargs)
        await _backdated(sv, gid, bob.id)
        await sv.ghosts.settle(gid)  # a sweep, while the deal stalls

    monkeypatch.setattr(sv.races, "open_run", stalled_deal)
    with pytest.raises(ApiError) as refused:
        await sv.ghosts.enter(bob, gid)
    assert refused.value.code == "ghost.closed" and "revealed" in refused.value.message
    assert (await sv.ghosts.summary(gid))["state"] == "revealed"
    run = await sv.races.summary(run_id(gid, bob.id))
    assert run["state"] == "open"  # dealt, never started: no session to play
    monkeypatch.undo()

    gid, bob = await _one_run_recorded(sv)
    begin = sv.races.begin

    async def late_begin(rid: str) -> None:
        await _backdated(sv, gid, bob.id)
        await sv.ghosts.settle(gid)  # the reveal, between the last look and the start
        await begin(rid)

    monkeypatch.setattr(sv.races, "begin", late_begin)
    entry = await sv.ghosts.enter(bob, gid)
    assert (await sv.ghosts.summary(gid))["state"] == "revealed"
    await sv.operations["resign"].handler(sv, bob, {"type": "resign",
                                                    "session": entry["session"]["session"]})
    results = await sv.races.finish(entry["race"])
    assert results is not None  # over, and run_over had its say
    await sv.ghosts.run_over(results)  # again, as a follow-up after a failure would
    assert not await _recorded_in(sv, gid, bob.id)
    page = await sv.boards.page(board_key(gid), 0, 10)
    assert page is not None and [e["player"] for e in page.entries] != []
    assert bob.id not in [e["player"] for e in page.entries]
    await sv.redis.aclose()
