"""Arenas on two real nodes over one real redis-server, with seconds-long intervals: rounds
dealt on time and once while both nodes sweep, points per place on the live arena board, the
winner at the end, the repeat made once; a node killed in the middle (and a round whose dealer
died after claiming it) with nothing lost; the operator's REST calls refused without the admin
token; ``samedeal arena`` making one straight in Redis; a round's games analysed once it ends,
never before."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from redis.asyncio import Redis

from server import arenas, store
from server.accounts import admin
from server.config import Settings
from server.errors import ApiError
from server.transport import replies
from tests.conftest import FAST, ROOT, start_node, stop_node

from .client import JSON, V2_MSGPACK, Node, Rest, Ws, player

ADMIN = "operator-secret-for-the-test"
#: A one-player rule set whose deals end with a score after about sixteen placements.
GAME, VARIANT = "cribbage-square", "difficult"
ENV = {**FAST, "SAMEDEAL_ADMIN_TOKEN": ADMIN, "SAMEDEAL_SWEEP_INTERVAL": "0.2",
       "SAMEDEAL_FOLLOWUP_GRACE": "0.5", "SAMEDEAL_ARENA_COUNTDOWN": "0",
       "SAMEDEAL_ANALYSIS_AHEAD": "1"}  # a round's games judged with no one asking


def database(redis_url: str, db: int) -> str:
    return redis_url.rsplit("/", 1)[0] + f"/{db}"


@pytest.fixture(scope="module")
def pair(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Two nodes with the admin token and a fast sweep, on a database of their own (the
    suite's other nodes would sweep these arenas too)."""
    logs = tmp_path_factory.mktemp("arena-nodes")
    started = [start_node(database(redis_url, 14), logs / f"a{i}.log", **ENV) for i in range(2)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


async def create(node: Node, **body: Any) -> dict[str, Any]:
    rest = Rest(node, ADMIN)
    status, out = await rest.call("POST", "/arenas", {"game": GAME, "variant": VARIANT, **body})
    await rest.aclose()
    assert status == 201, out
    return out


async def joined(node: Node, name: str, protocol: str = JSON) -> tuple[str, Ws]:
    pid, token = await player(node, name, "bot")
    return pid, await Ws.open(node, token, protocol)


async def play_out(ws: Ws, sid: str, rng: random.Random) -> dict[str, Any]:
    """Random legal placements until the game ends (or, on a machine slow enough, the
    round's time does); the last session payload."""
    s = await ws.request({"type": "session.get", "session": sid})
    while s["view"]["status"] == "playing":
        out = await ws.request({"type": "move", "session": sid,
                                "move": rng.choice(s["legal"]), "rev": s["rev"]})
        if out.get("code") == "race.over":
            break
        assert out["type"] == "ack", out
        s = out
    return s


def expected_points(ranking: list[dict[str, Any]]) -> dict[str, int]:
    """The table in docs/protocol.md: places 5, 4, 3 among those who played the deal to its
    end, later ones 2, a resignation or a game still going 0. A grid filled here is finished,
    or won when its score reaches the target (random placements sometimes do); none is
    lost."""
    out = {}
    for e in ranking:
        if e.get("resigned") or e["status"] == "playing":
            out[e["player"]] = 0
        else:
            assert e["status"] in ("finished", "won"), e
            out[e["player"]] = [5, 4, 3][e["rank"] - 1] if e["rank"] <= 3 else 2
    return out


async def results(node: Node, rid: str) -> dict[str, Any]:
    """The round's race's results, once it has ended."""
    rest = Rest(node, (await player(node, "Look"))[1])
    try:
        for _ in range(100):
            status, out = await rest.call("GET", f"/races/{rid}/results")
            if status == 200:
                return out  # type: ignore[no-any-return]
            await asyncio.sleep(0.1)
    finally:
        await rest.aclose()
    raise AssertionError(f"race {rid} never ended")


def held_by_their_schemas(messages: list[dict[str, Any]]) -> None:
    """Every arena reply and event received fits its declared schema
    (server/transport/replies.py)."""
    schemas = {k: v for k, (_, v) in {**replies.REPLIES, **replies.EVENTS}.items()}
    kinds = {"arena", "arena.round", "arena.ended", "board.update", "unsubscribed"}
    checked = set()
    for m in messages:
        if m.get("type") in kinds:
            errors = [e.message for e in jsonschema.Draft202012Validator(
                schemas[m["type"]]).iter_errors(m)]
            assert not errors, (m, errors)
            checked.add(m["type"])
    assert {"arena", "arena.round", "arena.ended"} <= checked, checked


def test_points_follow_the_table() -> None:
    line = {"status": "finished", "moves": 9}
    assert [arenas.points(line | {"rank": r}) for r in (1, 2, 3, 4, 9)] == [5, 4, 3, 2, 2]
    assert arenas.points({"status": "won", "rank": 1, "moves": 3}) == 5
    assert arenas.points({"status": "lost", "rank": 1, "moves": 3}) == 1
    assert arenas.points({"status": "lost", "rank": 1, "moves": 0}) == 0
    assert arenas.points({"status": "playing", "rank": 1, "moves": 30}) == 0
    assert arenas.points(line | {"rank": 1, "resigned": True}) == 0


def test_operator_calls_are_off_without_a_token_setting() -> None:
    with pytest.raises(ApiError) as no:
        admin.check(Settings(), f"Bearer {ADMIN}")
    assert no.value.code == "arena.forbidden" and no.value.status == 403
    admin.check(Settings(admin_token=ADMIN), f"Bearer {ADMIN}")  # no refusal


async def test_admin_rest_is_refused_without_the_token(pair: list[Node]) -> None:
    _, token = await player(pair[0], "Nosy", "human")
    body = {"game": GAME, "variant": VARIANT, "duration": 60, "interval": 10}
    rest = Rest(pair[0])
    for bearer in (None, token, ADMIN + "x", ""):
        status, out = await rest.call("POST", "/arenas", body, token=bearer)
        assert (status, out["code"]) == (403, "arena.forbidden"), (bearer, out)
    before = (await rest.call("GET", "/arenas"))[1]["arenas"]
    assert all(a["duration"] != 60 or a["interval"] != 10 for a in before)  # nothing made
    status, out = await rest.call("POST", "/arenas", body | {"starts_at": 2**52},
                                  token=ADMIN)
    assert status == 201 and out["state"] == "scheduled", out
    status, gone = await rest.call("POST", f"/arenas/{out['arena']}/cancel", {}, token=token)
    assert (status, gone["code"]) == (403, "arena.forbidden")
    status, gone = await rest.call("POST", f"/arenas/{out['arena']}/cancel", {}, token=ADMIN)
    assert status == 200 and gone["state"] == "cancelled", gone
    ws = await Ws.open(pair[1], token)  # and never over the WebSocket
    no = await ws.request({"type": "arena.create", **body})
    assert no["code"] == "message.unknown_type", no
    no = await ws.request({"type": "arena.join", "arena": out["arena"]})
    assert no["code"] == "arena.not_running", no
    no = await ws.request({"type": "arena.get", "arena": "anothere"})
    assert no["code"] == "arena.unknown", no
    await ws.close()
    await rest.aclose()


async def test_an_arena_deals_on_time_once_scores_and_names_the_winner(
        pair: list[Node], redis_url: str) -> None:
    rng = random.Random(27)
    # Cy's socket speaks protocol v2 in msgpack: arenas are the same on every protocol.
    (a, wa), (b, wb), (c, wc) = [await joined(pair[i % 2], n, p) for i, (n, p) in enumerate(
        (("Ann", JSON), ("Bob", JSON), ("Cy", V2_MSGPACK)))]
    start = int(time.time() * 1000) + 1500
    arena = await create(pair[0], starts_at=start, duration=7, interval=3, repeat=600,
                         name="Test arena")
    aid = arena["arena"]  # two whole rounds of three seconds
    assert arena["state"] == "scheduled" and arena["ends_at"] == start + 6000
    for ws in (wa, wb, wc):
        got = await ws.request({"type": "arena.join", "arena": aid})
        assert got["type"] == "arena" and got["joined"], got
    again = await wa.request({"type": "arena.join", "arena": aid})  # joining twice: fine
    assert len(again["players"]) == 3, again
    for ws in (wa, wb):
        sub = await ws.request({"type": "board.subscribe", "board": f"arena/{aid}"})
        assert sub["type"] == "subscribed", sub
    totals = {a: 0, b: 0, c: 0}
    for n in range(2):
        rounds = [await ws.expect("arena.round", timeout=8, arena=aid, round=n)
                  for ws in (wa, wb, wc)]
        assert len({r["race"] for r in rounds}) == 1
        due = start + n * 3000
        assert due - 300 <= rounds[0]["starts_at"] <= due + 1500, (rounds[0], due)
        sessions = rounds[0]["sessions"]
        assert set(sessions) == {a, b, c}
        await asyncio.gather(play_out(wa, sessions[a], rng), play_out(wb, sessions[b], rng))
        done = await wc.request({"type": "resign", "session": sessions[c]})
        assert done["type"] == "ack", done
        ranking = (await results(pair[1], rounds[0]["race"]))["ranking"]
        for pid, pts in expected_points(ranking).items():
            totals[pid] += pts
        # The live board follows: Ann's socket sees every total as counted.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5
        while True:
            update = await wa.expect("board.update", timeout=max(0.1, deadline - loop.time()),
                                     board=f"arena/{aid}")
            if {e["player"]: e["points"] for e in update["entries"]} == totals:
                break
    ended = await wb.expect("arena.ended", timeout=10, arena=aid)
    best = max(totals.values())
    assert ended["winner"]["points"] == best and totals[ended["winner"]["player"]] == best
    assert not ended["cancelled"]
    for ws in (wa, wb, wc):  # each round announced once to each follower, and ended once
        await ws.drain(0.5)
        seen = [m["round"] for m in ws.received if m.get("type") == "arena.round"]
        assert seen == [0, 1], seen
        assert sum(m.get("type") == "arena.ended" for m in ws.received) == 1
        held_by_their_schemas(ws.received)
    rest = Rest(pair[1])
    status, final = await rest.call("GET", f"/arenas/{aid}", token=(await player(
        pair[1], "Look"))[1])
    assert status == 200 and final["state"] == "ended", final
    assert final["winner"] == ended["winner"] and len(final["rounds"]) == 2
    assert final["next"], final
    # Its records go with its board, 30 days (daily_board_days) after its end.
    db = Redis.from_url(database(redis_url, 14))
    for key in arenas.arena_keys(aid):
        left = await db.pttl(key)
        assert abs(arena["ends_at"] + 30 * 86_400_000 - time.time() * 1000 - left) < 10_000, key
    await db.aclose()
    await asyncio.sleep(1)  # more sweeps by both nodes: still one next occurrence
    listed = (await rest.call("GET", "/arenas"))[1]["arenas"]
    nexts = [x for x in listed if x["repeat_of"] == aid]
    assert [x["arena"] for x in nexts] == [final["next"]], nexts
    assert nexts[0]["starts_at"] == start + 600_000 and nexts[0]["state"] == "scheduled"
    status, _ = await rest.call("POST", f"/arenas/{final['next']}/cancel", {}, token=ADMIN)
    assert status == 200
    await rest.aclose()
    for ws in (wa, wb, wc):
        await ws.close()


async def test_a_node_killed_mid_arena_and_a_dealer_dying_after_its_claim_lose_nothing(
        redis_url: str, tmp_path: Path) -> None:
    """Two nodes of its own: the one holding a player's socket is killed after the first
    round; the second round is claimed as a dying dealer would (and nothing more); the other
    node still deals it, the player reconnects and plays on, and every point counts."""
    url = database(redis_url, 15)
    (x, px), (y, py) = [start_node(url, tmp_path / f"{n}.log", **ENV) for n in "xy"]
    r = store.connect(url)
    try:
        rng = random.Random(7)
        (a, wa), (b, wb) = await joined(x, "Ann"), await joined(y, "Bob")
        start = int(time.time() * 1000) + 1000
        aid = (await create(y, starts_at=start, duration=12, interval=4))["arena"]
        for ws in (wa, wb):
            assert (await ws.request({"type": "arena.join", "arena": aid}))["type"] == "arena"
        first = await wa.expect("arena.round", timeout=8, arena=aid, round=0)
        await asyncio.gather(play_out(wa, first["sessions"][a], rng),
                             play_out(wb, first["sessions"][b], rng))
        points = expected_points((await results(y, first["race"]))["ranking"])

        os.kill(px.pid, signal.SIGKILL)  # Ann's node, mid-arena
        px.wait(10)
        token = wa.token
        wa = await Ws.open(y, token)  # Ann reconnects, to the node still up
        back = await wa.request({"type": "arena.join", "arena": aid})
        assert back["joined"] and back["round"] == 0, back
        # Round 1 claimed as a dealer that dies at once would leave it: no race, no event.
        while await store.now_ms(r) < start + 4000 - 500:
            await asyncio.sleep(0.02)
        hk, _, rk = arenas.arena_keys(aid)
        claimed = await r.eval(arenas.CLAIM, 2, hk, rk, 1, arenas.round_race(aid, 1))
        assert claimed == 1, "the surviving node claimed round 1 before the test could"

        second = await wa.expect("arena.round", timeout=8, arena=aid, round=1)
        assert second["race"] == arenas.round_race(aid, 1)
        assert second["starts_at"] >= start + 4000 - 800
        now = await wa.request({"type": "arena.get", "arena": aid})
        assert now["current"] == second["race"] and now["round"] == 1, now
        await asyncio.gather(play_out(wa, second["sessions"][a], rng),
                             play_out(wb, second["sessions"][b], rng))
        for pid, pts in expected_points((await results(y, second["race"]))["ranking"]).items():
            points[pid] += pts
        third = await wb.expect("arena.round", timeout=8, arena=aid, round=2)
        for pid, ws in ((a, wa), (b, wb)):
            assert (await ws.request({"type": "resign", "session": third["sessions"][pid]}
                                     ))["type"] == "ack"
        ended = await wb.expect("arena.ended", timeout=10, arena=aid)
        assert ended["winner"]["points"] == max(points.values())
        await wb.drain(0.3)
        assert [m["round"] for m in wb.received if m.get("type") == "arena.round"] == [0, 1, 2]
        board = await wb.request({"type": "board.get", "board": f"arena/{aid}"})
        assert {e["player"]: e["points"] for e in board["entries"]} == points, board
        for ws in (wa, wb):
            await ws.close()
    finally:
        await r.aclose()
        for proc in (px, py):
            if proc.poll() is None:
                stop_node(proc)


def test_the_operator_command_creates_lists_and_cancels(pair: list[Node], redis_url: str
                                                        ) -> None:
    url = database(redis_url, 14)

    def arena(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "engine.cli", "arena", *args,
                               "--redis-url", url], cwd=ROOT, capture_output=True, text=True,
                              timeout=60, check=False)

    made = arena("create", GAME, VARIANT, "--start", "+2h", "--duration", "30m",
                 "--interval", "5m", "--repeat", "1d", "--name", "Nightly")
    assert made.returncode == 0, made.stderr
    aid = made.stdout.split()[0]
    assert made.stdout.split()[1] == "scheduled" and "Nightly" in made.stdout
    got = httpx.get(f"{pair[1].url}/api/v1/arenas", timeout=10).json()["arenas"]
    got = next(x for x in got if x["arena"] == aid)
    assert got["state"] == "scheduled" and (got["duration"], got["interval"], got["repeat"]) == (
        1800, 300, 86400), got
    assert aid in arena("list").stdout
    gone = arena("cancel", aid)
    assert gone.returncode == 0 and "cancelled" in gone.stdout, gone.stderr
    listed = httpx.get(f"{pair[0].url}/api/v1/arenas", timeout=10).json()["arenas"]
    assert aid not in [x["arena"] for x in listed]
    bad = arena("create", GAME, VARIANT, "--interval", "soon")
    assert bad.returncode == 2 and "span" in bad.stderr


async def test_bots_play_an_arena_with_the_sdk_and_the_runner(pair: list[Node]) -> None:
    """``samedeal bot --arena``: two bots join, play each round as it is dealt (the SDK's
    ``arena_rounds``) and report the winner the arena names."""
    from clients.sdk import Client
    from tests.clients.test_runner import samedeal

    start = int(time.time() * 1000) + 4000
    aid = (await create(pair[0], starts_at=start, duration=6, interval=3))["arena"]
    tokens = [(await Client.register(pair[i].url, f"Arena bot {i}", "bot"))[1]
              for i in range(2)]
    runs = await asyncio.gather(*(
        samedeal("bot", "clients.bots.random:RandomBot", "--server", pair[i].url,
                 "--token", tokens[i], "--arena", aid, "--json", "--quiet", "-o", f"seed={i}",
                 timeout=60) for i in range(2)))
    outs = []
    for code, out, err in runs:
        assert code == 0, err
        outs.append(json.loads(out.strip().splitlines()[-1]))
    async with Client(pair[1].url, tokens[0]) as c:
        final = await c.arena(aid)
        board = await c.board(f"arena/{aid}")
        entrants = [{e["player"] for e in (await c.race(rid)).entrants}
                    for rid in final["rounds"]]
    assert final["state"] == "ended" and len(final["rounds"]) == 2
    for out in outs:
        # Every round dealt once the bot had joined (a slow start may miss the first), each
        # played to its end.
        mine = [n for n, who in enumerate(entrants) if out["player"]["id"] in who]
        assert out["mode"] == "arena" and 1 in mine, out
        assert [r["round"] for r in out["rounds"]] == mine, out
        assert all(r["status"] != "playing" for r in out["rounds"]), out
        assert out["winner"] == final["winner"], out
        assert [e["points"] for e in out["board"]] == [e["points"] for e in board.entries]
    assert final["winner"]["points"] == board.entries[0]["points"] > 0


async def test_an_arena_round_s_games_are_analysed_after_the_round_and_not_before(
        pair: list[Node], redis_url: str) -> None:
    """A round is a race: its games are kept from everyone while it runs (their player's own
    too), then judged by the analysis job once the round ends at its time, with no one
    asking (a game still going at the time limit too), and public."""
    (a, wa), (b, wb) = [await joined(pair[i], n) for i, n in enumerate(("Ana Lyse", "Bo Lyse"))]
    start = int(time.time() * 1000) + 1500
    aid = (await create(pair[0], starts_at=start, duration=5, interval=5,
                        name="Analysed arena"))["arena"]
    for ws in (wa, wb):
        assert (await ws.request({"type": "arena.join", "arena": aid}))["joined"]
    rnd = await wa.expect("arena.round", timeout=10, arena=aid, round=0)
    mine, theirs = rnd["sessions"][a], rnd["sessions"][b]
    s = await wa.request({"type": "session.get", "session": mine})
    placed = []
    for _ in range(2):
        placed.append(s["legal"][0])
        s = await wa.request({"type": "move", "session": mine, "move": placed[-1],
                              "rev": s["rev"]})
        assert s["type"] == "ack", s
    assert (await wb.request({"type": "resign", "session": theirs}))["type"] == "ack"
    for ws, sid, code in ((wa, mine, "analysis.not_over"), (wb, mine, "session.hidden"),
                          (wa, theirs, "session.hidden"), (wb, theirs, "session.hidden")):
        r = await ws.request({"type": "analysis.get", "session": sid})
        assert r["type"] == "error" and r["code"] == code, (sid, r)
    ranking = (await results(pair[1], rnd["race"]))["ranking"]  # the round's time is up
    assert next(e for e in ranking if e["player"] == a)["status"] == "playing"
    db = Redis.from_url(database(redis_url, 14))
    public = Rest(pair[1])  # no token: public, as the moves are
    try:
        for sid in (mine, theirs):
            for _ in range(900):  # the job's, within 180 s: a cap against hanging
                if await db.get(store.analysis_key(sid)) is not None:
                    break
                await asyncio.sleep(0.2)
            kept = json.loads(await db.get(store.analysis_key(sid)))
            status, body = await public.call("GET", f"/sessions/{sid}/analysis")
            assert status == 200 and body["analysis"] == kept["analysis"], body
            assert body["analysis"]["positions"][0]["verdict"] == "best"  # scored by points
        assert kept["analysis"]["resigned"] and kept["analysis"]["moves"] == []
        status, body = await public.call("GET", f"/sessions/{mine}/analysis")
        assert body["analysis"]["moves"] == placed and not body["analysis"]["resigned"]
    finally:
        await db.aclose()
        await public.aclose()
    for ws in (wa, wb):
        await ws.close()
