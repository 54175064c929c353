"""Post-game analysis (server/analyses/__init__.py) on real nodes over a real redis-server: a
practice game's to its player once it is over; a race's to no one while it runs (its players,
another account, a spectator; WebSocket and REST) and to everyone after, computed by the background
job without anyone asking, once; a ghost race run's judged when it ends yet kept from everyone
until the ghost race is revealed; a ranked daily attempt's hidden until its day is revealed,
then queued by the reveal. Matches are refused with why. A node judges as many games at once
as its analysis workers, in processes niced behind it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import uvicorn
from redis.asyncio import Redis

import engine
from server import store
from server.analyses import QUEUE
from server.app import create_app
from server.config import Settings
from server.daily import opens_at
from server.fairplay.review import ENTRIES as REVIEWED
from server.store import analysis_key as key
from server.transport import replies

from ..conftest import FAST, free_port, start_node, stop_node, wait_for
from .client import JSON, MSGPACK, Node, Rest, Ws, player
from .stated import unstated

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster

KLONDIKE = engine.get("klondike", "easy")
#: A deal the solver wins at once (docs/solver.md: 5,625 positions).
WON_AT_ONCE = "00"
#: How long a test waits for an analysis at most: a cap against hanging, not a speed.
PATIENCE = 180
SCHEMA = replies.REPLIES["analysis"][1]
#: A budget that makes an analysis quick, where a test is of who gets what, not the search.
SMALL = {"SAMEDEAL_ANALYSIS_POSITIONS": "200", "SAMEDEAL_ANALYSIS_TOTAL": "20000"}

#: Games judged before anyone asks: off on the suite's shared nodes (tests/conftest.py).
AHEAD = {**FAST, "SAMEDEAL_ANALYSIS_AHEAD": "1"}

Ask = Callable[[], Awaitable[dict[str, Any]]]


@pytest.fixture(scope="module")
def nodes(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Two nodes of this module's own that judge ended games with no one asking, on the
    test's store beside the suite's nodes (which judge, with the same budget, only what
    is asked for)."""
    logs = tmp_path_factory.mktemp("ahead")
    started = [start_node(store_url, logs / f"node{i}.log", **AHEAD) for i in range(2)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


async def ready(ask: Ask) -> dict[str, Any]:
    """Ask until the analysis is ready, as the reply's ``retry_ms`` says."""
    end = time.monotonic() + PATIENCE
    while True:
        r = await ask()
        jsonschema.validate(r, SCHEMA)
        if r["state"] == "ready":
            assert not unstated(r), unstated(r)
            return r
        assert r["state"] == "pending" and r["retry_ms"] >= 1, r
        assert time.monotonic() < end, f"no analysis in {PATIENCE} s"
        await asyncio.sleep(r["retry_ms"] / 1000)


def by_ws(ws: Ws, sid: str) -> Ask:
    return lambda: ws.request({"type": "analysis.get", "session": sid})


def by_rest(rest: Rest, sid: str) -> Ask:
    async def ask() -> dict[str, Any]:
        status, body = await rest.call("GET", f"/sessions/{sid}/analysis")
        assert status == 200, (status, body)
        return dict(body, type="analysis")

    return ask


async def stored(url: str, sid: str) -> dict[str, Any] | None:
    """The analysis as the server keeps it (read straight from the store: one Redis or the
    cluster, connected as a node connects)."""
    r = store.connect(url)
    try:
        raw = await r.get(key(sid))
    finally:
        await store.close(r)
    return None if raw is None else json.loads(raw)


async def refused(ws: Ws, sid: str, code: str) -> None:
    r = await ws.request({"type": "analysis.get", "session": sid})
    assert r["type"] == "error" and r["code"] == code, r


async def refused_rest(node: Node, token: str | None, sid: str, code: str, status: int) -> None:
    rest = Rest(node, token)
    got, body = await rest.call("GET", f"/sessions/{sid}/analysis")
    await rest.aclose()
    assert (got, body["code"]) == (status, code), (got, body)


def replayed(moves: list[str]) -> engine.State:
    st = KLONDIKE.deal(bytes.fromhex(WON_AT_ONCE))
    for m in moves:
        st.play(engine.parse_move(KLONDIKE, m))
    return st


def check_line(analysis: dict[str, Any]) -> None:
    """Its shape, and its verdicts held against the engine: a won position's winning line
    (the turning point's better line) replays to a win from where it stood."""
    moves = analysis["moves"]
    assert len(analysis["positions"]) == len(moves) + 1
    assert analysis["game"] == "klondike" and analysis["variant"] == "easy"
    assert analysis["positions"][0]["verdict"] == "won"  # dealt winnable, proved at once
    tp = analysis["turning_point"]  # resigned with the deal still winnable: the resignation
    assert tp is not None and tp["better"], analysis
    n = tp["move_number"]
    st = replayed(moves[:n - 1])
    assert analysis["positions"][n - 1]["verdict"] == "won"
    assert tp["to_go"] <= analysis["positions"][n - 1]["to_go"]  # the line made short
    for m in tp["better"]:
        st.play(engine.parse_move(KLONDIKE, m))
    assert st.status == "won", tp


@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
async def test_a_practice_game_is_analysed_for_its_player_once_it_is_over(
        nodes: list[Node], store_url: str, protocol: str) -> None:
    _, token = await player(nodes[0], "Student", "human")
    _, other = await player(nodes[0], "Onlooker", "human")
    ws = await Ws.open(nodes[0], token, protocol)
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": WON_AT_ONCE})
    sid = s["session"]
    await refused(ws, sid, "analysis.not_over")
    await refused_rest(nodes[1], token, sid, "analysis.not_over", 409)
    played = []
    for _ in range(4):  # the first legal move each time, then give up
        move = s["legal"][0]
        s = await ws.request({"type": "move", "session": sid, "move": move})
        assert s["type"] == "ack", s
        played.append(move)
    assert (await ws.request({"type": "resign", "session": sid}))["type"] == "ack"
    # Over: not anyone else's to see, nor without a token; its player's, on either node.
    await refused_rest(nodes[0], other, sid, "session.not_yours", 403)
    await refused_rest(nodes[0], None, sid, "auth.required", 401)
    got = await ready(by_ws(ws, sid))
    assert got["type"] == "analysis" and got["session"] == sid
    analysis = got["analysis"]
    assert analysis["moves"] == played and analysis["resigned"] is True, analysis
    check_line(analysis)
    rest = Rest(nodes[1], token)
    assert (await ready(by_rest(rest, sid)))["analysis"] == analysis
    # Computed once: asked again, the kept one is served, not judged anew.
    kept = await stored(store_url, sid)
    assert kept is not None and kept["analysis"] == analysis and kept["at"] > 0
    for ask in (by_ws(ws, sid), by_rest(rest, sid)):
        assert (await ask())["state"] == "ready"
    assert await stored(store_url, sid) == kept  # the same stamp: not computed again
    await rest.aclose()
    await ws.close()


async def play_out(ws: Ws, s: dict[str, Any]) -> list[str]:
    """Play the last legal move until the game is over (Golf: lost within some 20 moves);
    the moves played."""
    played = []
    while s["view"]["status"] == "playing":
        move = s["legal"][-1]
        s = await ws.request({"type": "move", "session": s["session"], "move": move})
        assert s["type"] == "ack", s
        played.append(move)
    return played


async def test_a_practice_game_taken_back_is_judged_again_at_its_new_end(
        nodes: list[Node]) -> None:
    _, token = await player(nodes[0], "Rethinker", "human")
    ws = await Ws.open(nodes[0], token)
    s = await ws.request({"type": "solo.start", "game": "golf", "variant": "easy",
                          "seed": WON_AT_ONCE})
    sid = s["session"]
    first = await play_out(ws, s)
    one = await ready(by_ws(ws, sid))
    assert one["analysis"]["moves"] == first and one["analysis"]["status"] == "lost"
    s = await ws.request({"type": "undo", "session": sid})  # practice: undo after the end
    assert s["type"] == "ack" and s["view"]["status"] == "playing", s
    await refused(ws, sid, "analysis.not_over")
    s = await ws.request({"type": "undo", "session": sid})
    assert s["type"] == "ack", s
    again = first[:-2] + await play_out(ws, s)
    two = await ready(by_ws(ws, sid))
    assert two["analysis"]["moves"] == again
    await ws.close()


async def test_a_race_is_analysed_for_no_one_while_it_runs_and_for_everyone_after(
        nodes: list[Node], store_url: str) -> None:
    a_id, a_token = await player(nodes[0], "Anna", "human")
    b_id, b_token = await player(nodes[1], "Boris", "human")
    _, a2_token = await player(nodes[1], "Anna Again", "human")  # Anna's other account
    _, c_token = await player(nodes[0], "Watcher", "human")
    a = await Ws.open(nodes[0], a_token)
    b = await Ws.open(nodes[1], b_token, MSGPACK)
    a2 = await Ws.open(nodes[1], a2_token)
    c = await Ws.open(nodes[0], c_token)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 0})
    rid = race["race"]
    await c.send({"type": "race.subscribe", "race": rid})  # a spectator
    await c.expect("race", race=rid)
    await b.request({"type": "race.join", "race": rid})
    started = await a.expect("race.started")
    sa, sb = started["sessions"][a_id], started["sessions"][b_id]
    own = await a.request({"type": "session.get", "session": sa})
    await a.request({"type": "move", "session": sa, "move": own["legal"][0]})
    await a.request({"type": "resign", "session": sa})  # Anna is done; Boris plays on
    # While the race runs: Anna's game is over, yet no one sees its analysis, Anna neither.
    for ws in (a, b, a2, c):
        await refused(ws, sa, "session.hidden")
    await refused(b, sb, "analysis.not_over")  # Boris's own, still being played
    for ws in (a, a2, c):
        await refused(ws, sb, "session.hidden")
    for token in (a_token, b_token, a2_token, c_token):
        await refused_rest(nodes[1], token, sa, "session.hidden", 403)
    await refused_rest(nodes[0], None, sa, "auth.required", 401)
    await refused_rest(nodes[0], b_token, sb, "analysis.not_over", 409)
    assert await stored(store_url, sa) is None  # nothing judged yet, nor queued
    # Boris resigns: the race ends, and the job judges both games with no one asking.
    await b.request({"type": "resign", "session": sb})
    await a.expect("race.ended", race=rid)
    end = time.monotonic() + PATIENCE
    while await stored(store_url, sa) is None or await stored(store_url, sb) is None:
        assert time.monotonic() < end, "the race's games were not analysed"
        await asyncio.sleep(0.2)
    kept = await stored(store_url, sa)
    for ws in (a, b, a2, c):
        got = await ws.request({"type": "analysis.get", "session": sa})
        assert got["type"] == "analysis" and got["state"] == "ready", got
        assert got["analysis"] == kept["analysis"]  # type: ignore[index]
    public = Rest(nodes[1])  # no token: public, as the transcript is
    status, body = await public.call("GET", f"/sessions/{sb}/analysis")
    assert status == 200 and body["state"] == "ready", body
    assert len(body["analysis"]["positions"]) == len(body["analysis"]["moves"]) + 1
    status, moves = await public.call("GET", f"/sessions/{sa}/moves")
    assert kept["analysis"]["moves"] == [m for m in moves["moves"] if m != "resign"]  # type: ignore[index]
    assert await stored(store_url, sa) == kept  # served, not judged again
    await public.aclose()
    for ws in (a, b, a2, c):
        await ws.close()


async def test_a_ghost_race_run_is_analysed_for_no_one_until_the_ghost_race_reveals(
        nodes: list[Node], store_url: str) -> None:
    """A ghost race run is judged when the run ends, with no one asking, yet kept from
    everyone (its runner, their other account, a watcher; WebSocket and REST) until the
    ghost race is revealed, as its transcript is; then anyone may read it."""
    ada, a_token = await player(nodes[0], "Ghost Ada", "human")
    _, a2_token = await player(nodes[1], "Ghost Ada Again", "human")  # Ada's other account
    _, b_token = await player(nodes[1], "Ghost Ben", "human")
    _, c_token = await player(nodes[0], "Ghost Watcher", "human")
    a, a2, b, c = [await Ws.open(n, t) for n, t in (
        (nodes[0], a_token), (nodes[1], a2_token), (nodes[1], b_token), (nodes[0], c_token))]
    g = await a.request({"type": "ghost.create", "game": "klondike", "variant": "easy",
                         "cap": 2, "countdown": 0, "time_limit": 120, "open_for": 300})
    gid = g["ghost"]
    entry = await a.request({"type": "ghost.enter", "ghost": gid})
    assert entry["type"] == "ghost.entry", entry
    s = entry["session"]
    sid, played = s["session"], []
    for _ in range(3):
        played.append(s["legal"][0])
        ack = await a.request({"type": "move", "session": sid, "move": played[-1]})
        assert ack["type"] == "ack", ack
        s = {**s, **ack}
    await a.request({"type": "resign", "session": sid})
    # Her run is over and judged in the background; the ghost race is still open to others.
    end = time.monotonic() + PATIENCE
    while await stored(store_url, sid) is None:
        assert time.monotonic() < end, "the run was not analysed when it ended"
        await asyncio.sleep(0.2)
    assert (await a.request({"type": "ghost.get", "ghost": gid}))["state"] == "open"
    for ws in (a, a2, b, c):
        await refused(ws, sid, "session.hidden")
    for token in (a_token, a2_token, b_token, c_token):
        await refused_rest(nodes[1], token, sid, "session.hidden", 403)
    await refused_rest(nodes[0], None, sid, "auth.required", 401)
    # Ben's run fills the ghost race: once it ends, the sweep reveals it.
    theirs = await b.request({"type": "ghost.enter", "ghost": gid})
    assert theirs["type"] == "ghost.entry", theirs
    await b.request({"type": "resign", "session": theirs["session"]["session"]})
    while (await a.request({"type": "ghost.get", "ghost": gid}))["state"] != "revealed":
        assert time.monotonic() < end, "the ghost race was not revealed"
        await asyncio.sleep(0.2)
    kept = await stored(store_url, sid)
    assert kept is not None
    public = Rest(nodes[1])  # no token: public, as the transcript is
    got = await ready(by_rest(public, sid))
    await public.aclose()
    assert got["analysis"] == kept["analysis"]
    assert got["analysis"]["moves"] == played and got["analysis"]["resigned"] is True
    for ws in (a, a2, b, c):
        r = await ws.request({"type": "analysis.get", "session": sid})
        assert r["type"] == "analysis" and r["analysis"] == kept["analysis"], r
    assert await stored(store_url, sid) == kept  # served, not judged again
    assert ada in {t["player"] for t in (await a.request(
        {"type": "ghost.get", "ghost": gid}))["transcripts"]}
    for ws in (a, a2, b, c):
        await ws.close()


async def test_a_called_card_grid_is_analysed_after_its_match(
        nodes: list[Node], store_url: str) -> None:
    """A called-card player's grid is a one-player game on the match's deal: analysed per
    player once the match is over; the match's own id is refused with why."""
    ids, socks = [], []
    for i in range(2):
        pid, token = await player(nodes[i], f"Placer{i}", "human")
        ids.append(pid)
        socks.append(await Ws.open(nodes[i], token))
    mid = (await socks[0].request({"type": "match.create", "game": "poker-square",
                                   "variant": "easy", "seats": 2}))["match"]
    assert (await socks[1].request({"type": "match.join", "match": mid}))["type"] == "match"
    grids = [f"{mid}.{p}" for p in ids]
    r = await socks[0].request({"type": "analysis.get", "session": mid})
    assert r["code"] == "analysis.match" and grids[0].partition(".")[0] in r["message"], r
    end = time.monotonic() + PATIENCE
    rounds = 0
    while (await socks[0].request({"type": "match.get", "match": mid}))["state"] != "ended":
        assert time.monotonic() < end, "the match did not end"
        # While it runs (no move since it was read): no one's, the player's own neither.
        for ws in socks:
            await refused(ws, grids[0], "match.not_over")
        assert await stored(store_url, grids[0]) is None
        for ws in socks:
            you = (await ws.request({"type": "match.get", "match": mid})).get("you")
            if you and you["waiting"]:
                await ws.request({"type": "match.move", "match": mid, "move": you["legal"][0]})
        rounds += 1
    assert rounds >= 25
    # Over: the job judges both grids with nobody asking; anyone may read them.
    while any([await stored(store_url, g) is None for g in grids]):
        assert time.monotonic() < end, "the match's grids were not analysed"
        await asyncio.sleep(0.2)
    public = Rest(nodes[1])
    status, transcript = await public.call("GET", f"/matches/{mid}/transcript")
    assert status == 200, transcript
    for pid, sid in zip(ids, grids, strict=True):
        got = await ready(by_rest(public, sid))
        placed = [m["move"] for m in transcript["moves"][pid]]
        assert got["analysis"]["moves"] == placed and len(placed) == 25
        assert got["analysis"]["positions"][0]["verdict"] == "best", got["analysis"]
    await public.aclose()
    await refused(socks[0], "snothere", "session.unknown")
    await refused_rest(nodes[0], None, "snothere", "session.unknown", 404)
    for ws in socks:
        await ws.close()


# ----- a ranked daily attempt: a node of our own, its clock moved by the test --------------

class Clock:
    def __init__(self, day: date) -> None:
        self.ms = opens_at(day) + 3_600_000

    async def __call__(self) -> int:
        return self.ms


@pytest.fixture
def clocked(clocked_redis_url: str) -> Iterator[tuple[Node, Clock]]:
    """A real uvicorn serving the app on loopback in a thread of its own, with the daily
    challenge's clock set by the test (a day years ahead no other test uses)."""
    day = date(2041, 3, 4) + timedelta(days=time.time_ns() % 1000)
    clock = Clock(day)
    settings = Settings(redis_url=clocked_redis_url, daily_secret=f"analysis {day}",
                        daily_rank_new_accounts=True, daily_winnable=False, daily_live=False,
                        signup_burst=0, origin_burst=0, hint_workers=1)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings, clock), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "the node did not start"
        time.sleep(0.05)
    yield Node(f"http://127.0.0.1:{port}", 0, None), clock  # type: ignore[arg-type]
    server.should_exit = True
    thread.join(30)


async def test_a_daily_attempt_is_hidden_until_the_day_is_revealed_then_queued(
        clocked: tuple[Node, Clock], clocked_redis_url: str) -> None:
    node, clock = clocked
    _, token = await player(node, "Early", "human")
    _, other = await player(node, "Later", "human")
    # Later is Early's other account: the same browser install (server/fairplay/linked.py
    # links their attempts); it is refused as everyone is.
    rest = Rest(node, token)
    deal = {"game": "klondike", "variant": "easy", "install": "one-browser"}
    status, s = await rest.call("POST", "/daily", deal)
    assert status == 201 and s["mode"] == "daily" and s["ranked"], s
    sid = s["session"]
    linked = Rest(node, other)
    status, s2 = await linked.call("POST", "/daily", deal)
    assert status == 201 and s2["ranked"], s2
    status, _ = await linked.call("POST", f"/sessions/{s2['session']}/resign")
    assert status == 200
    await linked.aclose()
    await refused_rest(node, token, sid, "analysis.not_over", 409)
    status, _ = await rest.call("POST", f"/sessions/{sid}/moves", {"move": s["legal"][0]})
    status, _ = await rest.call("POST", f"/sessions/{sid}/resign")
    assert status == 200
    # Over, and on the board, but the day's deal is still being played by others.
    for who in (token, other):
        await refused_rest(node, who, sid, "session.hidden", 403)
    await refused_rest(node, None, sid, "auth.required", 401)
    ws = await Ws.open(node, other)
    await refused(ws, sid, "session.hidden")
    assert await stored(clocked_redis_url, sid) is None
    # Past the day's deadline: the sweep reveals it and queues its board's entries, and the
    # job judges this one with nobody asking.
    clock.ms += 2 * 86_400_000
    end = time.monotonic() + PATIENCE
    while await stored(clocked_redis_url, sid) is None:
        assert time.monotonic() < end, "the revealed day's attempt was not analysed"
        await asyncio.sleep(0.2)
    public = Rest(node)
    got = await ready(by_rest(public, sid))  # anyone, no token needed
    # Later's attempt, flagged by the link and held for review, is off the board: it is not
    # judged in the background, and is once asked for.
    r = store.connect(clocked_redis_url)
    try:
        held = await r.hget(REVIEWED, s2["session"])
    finally:
        await store.close(r)
    assert held is not None and json.loads(held)["integrity"]["flagged"], held
    assert (await ready(by_rest(public, s2["session"])))["analysis"]["resigned"] is True
    await public.aclose()
    assert got["analysis"]["resigned"] is True and len(got["analysis"]["moves"]) == 1
    got = await ws.request({"type": "analysis.get", "session": sid})
    assert got["state"] == "ready", got
    await ws.close()
    await rest.aclose()


# ----- a node killed mid-way: its game is left to another ----------------------------------


@pytest.fixture
def own_store(tmp_path: Path) -> Iterator[str]:
    """A redis-server of this test's own: no other node drains its queue."""
    port = free_port()
    proc = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port),
                             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    wait_for(lambda: subprocess.run(["redis-cli", "-p", str(port), "ping"],
                                    capture_output=True).stdout.startswith(b"PONG"),
             "redis-server")
    yield f"redis://127.0.0.1:{port}/0"
    stop_node(proc)


async def test_a_node_killed_while_judging_leaves_the_game_to_another(
        own_store: str, tmp_path: Path) -> None:
    """Node A, whose budget makes an analysis take minutes, claims a game and is killed
    (SIGKILL) while its pool judges it; node B takes the game once A's lease lapses."""
    lease = {"SAMEDEAL_ANALYSIS_LEASE": "2", **FAST}
    a, a_proc = start_node(own_store, tmp_path / "a.log", **lease | {
        "SAMEDEAL_ANALYSIS_POSITIONS": "100000000", "SAMEDEAL_ANALYSIS_TOTAL": "1000000000"})
    _, token = await player(a, "Patient", "human")
    ws = await Ws.open(a, token)
    s = await ws.request({"type": "solo.start", "game": "poker-square", "variant": "easy",
                          "seed": "0a"})
    sid, played = s["session"], []
    while s["view"]["status"] == "playing":
        played.append(s["legal"][0])
        s = await ws.request({"type": "move", "session": sid, "move": played[-1]})
    assert (await ws.request({"type": "analysis.get", "session": sid}))["state"] == "pending"
    await ws.close()
    store = Redis.from_url(own_store)
    end = time.monotonic() + PATIENCE
    while not (await store.zscore(QUEUE, sid) or 0) > 0:  # asked: 0; claimed: a lease ahead
        assert time.monotonic() < end, "node A never claimed the game"
        await asyncio.sleep(0.05)
    os.kill(a_proc.pid, signal.SIGKILL)
    a_proc.wait(10)
    assert await store.get(key(sid)) is None  # A died before it could keep anything
    b, b_proc = start_node(own_store, tmp_path / "b.log", **lease | SMALL)
    try:
        while await store.get(key(sid)) is None:
            assert time.monotonic() < end, "no node took the game over"
            await asyncio.sleep(0.1)
        kept = json.loads(await store.get(key(sid)))
        assert kept["analysis"]["moves"] == played
        # Done: off the queue. The node keeps the analysis, then takes the game off the
        # queue (two keys of different slots on a cluster), so that comes a moment later.
        while await store.zscore(QUEUE, sid) is not None:
            assert time.monotonic() < end, "the game stayed on the queue once kept"
            await asyncio.sleep(0.05)
        rest = Rest(b)
        metrics = (await rest.http.get("/metrics")).text
        await rest.aclose()
        assert 'samedeal_analyses_total{what="computed"} 1.0' in metrics, metrics[-2000:]
    finally:
        await store.aclose()
        b_proc.terminate()
        b_proc.wait(30)


async def test_each_bowler_s_frames_are_analysed_after_a_bowling_match(
        own_store: str, tmp_path: Path) -> None:
    """A bowler's frames are dealt from the same per-frame decks as a solo game's: each
    bowler's own placements are analysed as a one-player game once the match is over (a
    small budget: the test is of who gets what, not of the search)."""
    node, proc = start_node(own_store, tmp_path / "n.log", **FAST | SMALL)
    socks, ids = [], []
    try:
        for i in range(2):
            pid, token = await player(node, f"Bowler{i}", "human")
            ids.append(pid)
            socks.append(await Ws.open(node, token))
        mid = (await socks[0].request({"type": "match.create", "game": "bowling",
                                       "variant": "easy", "seats": 2}))["match"]
        assert (await socks[1].request({"type": "match.join", "match": mid}))["type"] == "match"
        await refused(socks[0], mid, "analysis.match")
        end = time.monotonic() + PATIENCE
        while (await socks[0].request({"type": "match.get", "match": mid}))["state"] != "ended":
            assert time.monotonic() < end, "the match did not end"
            await refused(socks[1], f"{mid}.{ids[0]}", "match.not_over")
            for ws in socks:
                you = (await ws.request({"type": "match.get", "match": mid})).get("you")
                if you and you["waiting"]:
                    await ws.request({"type": "match.move", "match": mid,
                                      "move": you["legal"][0]})
        public = Rest(node)
        status, transcript = await public.call("GET", f"/matches/{mid}/transcript")
        assert status == 200, transcript
        for pid in ids:
            got = await ready(by_rest(public, f"{mid}.{pid}"))
            own = [m["move"] for m in transcript["moves"] if m["player"] == pid]
            assert got["analysis"]["moves"] == own and len(own) > 20
            assert {p["verdict"] for p in got["analysis"]["positions"]} == {"best"}
            # the node's budget kept: per position searched, and for the game
            each, total = (int(SMALL[f"SAMEDEAL_ANALYSIS_{k}"]) for k in ("POSITIONS", "TOTAL"))
            assert got["analysis"]["budget"] == each
            assert all(p["searched"] <= each for p in got["analysis"]["positions"])
            assert got["analysis"]["searched"] <= total + each
            solo = engine.replay("bowling", "easy", bytes.fromhex(transcript["seed"]), own,
                                 competitive=True)  # the bowler's line is a solo game
            assert got["analysis"]["positions"][-1]["score"] == solo.score
            assert solo.score == next(e["score"] for e in transcript["results"]["ranking"]
                                      if e["player"] == pid)
        await public.aclose()
    finally:
        for ws in socks:
            await ws.close()
        proc.terminate()
        proc.wait(30)


def niced_children(pid: int, nice: int) -> list[int]:
    """The processes whose parent is ``pid`` and whose niceness is ``nice``."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rpartition(")")[2].split()[1])
            if ppid == pid and os.getpriority(os.PRIO_PROCESS, int(entry.name)) == nice:
                out.append(int(entry.name))
        except (OSError, ValueError):  # gone meanwhile
            continue
    return out


async def test_a_node_judges_as_many_games_at_once_as_its_workers_niced(
        own_store: str, tmp_path: Path) -> None:
    """Three games asked for on a node of two analysis workers niced 17, each analysis taking
    minutes: two are claimed and judged at once, each in a process of the pool 17 steps
    behind the node; the third waits its turn in the queue."""
    node, proc = start_node(own_store, tmp_path / "n.log", **FAST | {
        "SAMEDEAL_ANALYSIS_WORKERS": "2", "SAMEDEAL_ANALYSIS_NICE": "17",
        "SAMEDEAL_ANALYSIS_POSITIONS": "100000000", "SAMEDEAL_ANALYSIS_TOTAL": "1000000000"})
    store = Redis.from_url(own_store)
    try:
        _, token = await player(node, "Busy", "human")
        ws = await Ws.open(node, token)
        sids = []
        for seed in ("0a", "0b", "0c"):
            s = await ws.request({"type": "solo.start", "game": "poker-square",
                                  "variant": "easy", "seed": seed})
            while s["view"]["status"] == "playing":
                s = await ws.request({"type": "move", "session": s["session"],
                                      "move": s["legal"][0]})
            sids.append(s["session"])
        for sid in sids:
            got = await ws.request({"type": "analysis.get", "session": sid})
            assert got["state"] == "pending", got
        await ws.close()
        end = time.monotonic() + PATIENCE
        while True:  # claimed: a lease ahead of the store's clock; waiting: 0
            scores = [await store.zscore(QUEUE, sid) for sid in sids]
            pool = niced_children(proc.pid, 17)
            if sum(1 for x in scores if x) == 2 and len(pool) == 2:
                break
            assert time.monotonic() < end, (scores, pool)
            await asyncio.sleep(0.2)
        await asyncio.sleep(2)  # a while later, still two at once, the third queued
        scores = [await store.zscore(QUEUE, sid) for sid in sids]
        assert sorted(scores)[0] == 0 and all(sorted(scores)[1:]), scores
        assert len(niced_children(proc.pid, 17)) == 2
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == 0  # the node serves at its own
        assert all([await store.get(key(sid)) is None for sid in sids])
    finally:
        await store.aclose()
        proc.terminate()
        proc.wait(30)


async def test_a_node_that_judges_only_what_is_asked_queues_no_ended_race(
        own_store: str, tmp_path: Path) -> None:
    """With ``analysis_ahead`` off (the suite's nodes), a race's end queues nothing and no
    game of it is judged; the first ask puts it at the front of the queue and it is."""
    node, proc = start_node(own_store, tmp_path / "n.log", **FAST | SMALL)
    store = Redis.from_url(own_store)
    try:
        (a_id, a), (_, b) = [await player(node, name, "human") for name in ("Asker", "Idler")]
        wa, wb = await Ws.open(node, a), await Ws.open(node, b)
        race = await wa.request({"type": "race.create", "game": "golf", "variant": "easy",
                                 "seats": 2, "countdown": 0})
        await wb.request({"type": "race.join", "race": race["race"]})
        sid = (await wa.expect("race.started"))["sessions"][a_id]
        for ws in (wa, wb):
            s = await ws.expect("session")
            await ws.request({"type": "resign", "session": s["session"]})
        await wa.expect("race.ended", race=race["race"])
        end = time.monotonic() + 2  # long enough for a race's end to have queued its games
        while time.monotonic() < end:
            assert await store.zcard(QUEUE) == 0 and await store.get(key(sid)) is None
            await asyncio.sleep(0.1)
        got = await ready(by_ws(wa, sid))
        assert got["analysis"]["resigned"] is True
        for ws in (wa, wb):
            await ws.close()
    finally:
        await store.aclose()
        proc.terminate()
        proc.wait(30)
