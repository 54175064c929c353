"""Racing a server-run bot (docs/protocol.md, "Racing a bot"), on real nodes over one real
redis-server (a database of its own, so no other test's node plays these bots): the race
starts with the bot, the bot's moves are legal and recorded, no human board changes and no
one is rated, the bounds and their errors, a bot whose node is killed mid-race played on
by another node, and both games analysed once the race ends, never before."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from redis import asyncio as aioredis

import engine
from server.store import analysis_key
from server.transport import replies
from tests.conftest import FAST, start_node, stop_node

from .client import V2_JSON, Node, Rest, Ws, player

#: A quick bot: a move every 50 to 100 ms, no countdown, a lease of one second.
QUICK = {**FAST, "SAMEDEAL_BOT_THINK_MIN": "0.05", "SAMEDEAL_BOT_THINK_MAX": "0.1",
         "SAMEDEAL_BOT_COUNTDOWN": "0", "SAMEDEAL_BOT_LEASE": "1",
         "SAMEDEAL_BOT_RACES_PER_HOUR": "3",
         "SAMEDEAL_ANALYSIS_AHEAD": "1"}  # a bot race's games judged with no one asking


@pytest.fixture(scope="module")
def bot_url(redis_url: str) -> str:
    return redis_url.rsplit("/", 1)[0] + "/6"


@pytest.fixture(scope="module")
def bot_nodes(bot_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Two nodes; the first plays two bots at most (the per-node cap)."""
    logs = tmp_path_factory.mktemp("botrace")
    started = [start_node(bot_url, logs / "a.log", SAMEDEAL_BOT_TASKS="2", **QUICK),
               start_node(bot_url, logs / "b.log", **QUICK)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


async def human(node: Node, name: str = "Hana") -> tuple[str, Ws]:
    pid, token = await player(node, name, "human")
    return pid, await Ws.open(node, token)


async def race_bot(ws: Ws, strength: str = "medium", game: str = "klondike",
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A started bot race: its summary (the reply) and the player's session."""
    race = await ws.request({"type": "race.bot", "game": game, "variant": "easy",
                             "strength": strength})
    assert race["type"] == "race", race
    session = await ws.expect("session", race=race["race"])
    return race, session


def bot_of(race: dict[str, Any]) -> str:
    return str(race["bot"]["player"])


async def bot_moves(ws: Ws, rid: str, bot: str, count: int, timeout: float = 15) -> int:
    """Wait for the bot's ``count``-th progress event; its move count then."""
    seen = 0
    while True:
        ev = await ws.expect("race.progress", timeout, race=rid, player=bot)
        seen += 1
        if seen >= count:
            return int(ev["moves"])


async def resign_and_end(ws: Ws, race: dict[str, Any], session: dict[str, Any]
                         ) -> dict[str, Any]:
    """Resign the player's entry: the bot resigns too, and the race ends."""
    ack = await ws.request({"type": "resign", "session": session["session"]})
    assert ack["type"] == "ack", ack
    return await ws.expect("race.ended", 15, race=race["race"])


async def board_state(url: str) -> dict[str, Any]:
    """Every board in the store, whole: each sorted set's members and scores, each hash."""
    r = aioredis.from_url(url)
    out: dict[str, Any] = {}
    async for key in r.scan_iter(match="sd:{board:*"):
        kind = (await r.type(key)).decode()
        if kind == "zset":
            out[key.decode()] = await r.zrange(key, 0, -1, withscores=True)
        elif kind == "hash":
            out[key.decode()] = await r.hgetall(key)
    await r.aclose()
    return out


async def test_a_bot_race_starts_the_bot_plays_legally_and_no_human_board_changes(
        bot_nodes: list[Node], bot_url: str) -> None:
    a, b = bot_nodes
    pid, ws = await human(a)
    boards_before = await board_state(bot_url)
    race, session = await race_bot(ws, "hard", "golf")
    jsonschema.validate(race, replies.RACE)  # the reply as docs/protocol.md declares it
    assert race["state"] == "running" and race["bot"]["strength"] == "hard", race
    assert race["bot"]["name"] == "Hard bot"
    kinds = {e["player"]: e["kind"] for e in race["entrants"]}
    assert kinds == {pid: "human", bot_of(race): "bot"}, race
    assert race["commitment"] and "seed" not in race
    # Anyone's view of it, on the other node: the bot named, playing.
    rest = Rest(b, ws.token)
    status, seen = await rest.call("GET", f"/races/{race['race']}")
    assert status == 200 and seen["bot"] == race["bot"], seen
    moved = await bot_moves(ws, race["race"], bot_of(race), 3)
    assert moved >= 3
    ended = await resign_and_end(ws, race, session)
    bot_entry = next(e for e in ended["ranking"] if e["player"] == bot_of(race))
    assert bot_entry["kind"] == "bot" and bot_entry["moves"] >= 3, ended
    # Its moves are recorded, public after the race, and legal on the revealed deal.
    status, moves = await rest.call("GET", f"/sessions/{race['race']}.{bot_of(race)}/moves")
    assert status == 200 and moves["seed"] == ended["seed"], moves
    assert len([m for m in moves["moves"] if m != "resign"]) >= 3
    # engine.replay raises at the first illegal move
    st = engine.replay("golf", "easy", bytes.fromhex(moves["seed"]), moves["moves"],
                       competitive=True)
    assert st.over and st.score == bot_entry["score"], (st.status, bot_entry)
    # Recorded (the player's statistics count it); the human rated against the bot on the
    # board of ratings against bots alone: no other board changed, the bot's rating fixed.
    for _ in range(100):
        status, me = await rest.call("GET", "/players/me")
        if me["stats"] and me["ratings_against_bots"]:
            break
        await asyncio.sleep(0.1)
    assert [s["played"] for s in me["stats"]] == [1], me
    jsonschema.validate(me, replies.PROFILE)  # every field, rating and streak as stated
    assert me["ratings"] == {}, me
    lost = me["ratings_against_bots"]["golf/easy"]  # resigned: beaten by the hard bot
    assert lost["races"] == 1 and lost["mu"] < 25, me
    status, bot_profile = await rest.call("GET", f"/players/{bot_of(race)}")
    assert status == 200 and bot_profile["ratings"] == {}, bot_profile
    assert bot_profile["ratings_against_bots"] == {}, bot_profile
    after = await board_state(bot_url)
    rated = {k for k in after if k.startswith("sd:{board:botrating:golf:easy:human}")}
    assert rated and {k: v for k, v in after.items() if k not in rated} == boards_before
    status, board = await rest.call("GET", "/boards/botratings/golf/easy")
    assert status == 200 and [e["player"] for e in board["entries"]] == [pid], board
    # The race is not listed among the open ones.
    status, listed = await rest.call("GET", "/races")
    assert race["race"] not in [r["race"] for r in listed["races"]]
    await rest.aclose()
    await ws.close()


async def test_the_player_resigning_ends_the_bot(bot_nodes: list[Node]) -> None:
    _, token = await player(bot_nodes[0], "Quinn", "human")
    ws = await Ws.open(bot_nodes[0], token, V2_JSON)  # race.bot on protocol v2 as on v1
    race, session = await race_bot(ws, "easy")
    await bot_moves(ws, race["race"], bot_of(race), 1)
    ended = await resign_and_end(ws, race, session)
    bot_entry = next(e for e in ended["ranking"] if e["player"] == bot_of(race))
    assert bot_entry["resigned"] and bot_entry["status"] != "playing", ended
    again = await ws.request({"type": "race.rematch", "race": race["race"]})
    assert again["code"] == "race.bot_rematch", again  # its bot would never sit
    await ws.close()


async def test_bounds_and_their_errors(bot_nodes: list[Node]) -> None:
    a, b = bot_nodes
    pid, ws = await human(a, "Bo")
    bad = await ws.request({"type": "race.bot", "game": "klondike", "variant": "easy",
                            "strength": "godlike"})
    assert bad["type"] == "error" and bad["code"] == "bot.unknown_strength", bad
    jsonschema.validate(bad, replies.ERROR)
    assert "id" in bad
    bad = await ws.request({"type": "race.bot", "game": "nope", "variant": "easy"})
    assert bad["code"] == "game.unknown", bad
    race, session = await race_bot(ws)  # medium, the default strength, named
    assert race["bot"]["strength"] == "medium"
    busy = await ws.request({"type": "race.bot", "game": "golf", "variant": "easy"})
    # The refusal names the race the player is in: a request whose reply was lost (its
    # node died) is how a player learns where their bot race is.
    assert (busy["code"], busy["race"]) == ("race.bot_busy", race["race"]), busy
    rest = Rest(b, ws.token)  # the other node knows it too, over REST
    status, busy = await rest.call("POST", "/races/bot", {"game": "golf", "variant": "easy"})
    assert (status, busy["code"], busy["race"]) == (409, "race.bot_busy", race["race"]), busy
    await resign_and_end(ws, race, session)
    # Once it is over (recorded), another; three an hour (the test nodes' setting).
    for _ in range(100):
        status, again = await rest.call("POST", "/races/bot",
                                        {"game": "golf", "variant": "easy"})
        if status != 409:
            break
        await asyncio.sleep(0.1)
    assert status == 201 and again["bot"]["strength"] == "medium", again
    await rest.call("POST", f"/sessions/{again['race']}.{pid}"
                    "/resign")
    for _ in range(100):
        status, third = await rest.call("POST", "/races/bot",
                                        {"game": "golf", "variant": "easy"})
        if status != 409:
            break
        await asyncio.sleep(0.1)
    assert status == 201, third
    await rest.call("POST", f"/sessions/{third['race']}.{pid}"
                    "/resign")
    for _ in range(100):
        status, fourth = await rest.call("POST", "/races/bot",
                                         {"game": "golf", "variant": "easy"})
        if status != 409 or fourth["code"] != "race.bot_busy":
            break
        await asyncio.sleep(0.1)
    assert (status, fourth["code"]) == (429, "race.bot_limit"), fourth
    assert 3000 < fourth["retry_after"] <= 3600, fourth
    await rest.aclose()
    await ws.close()


async def test_a_node_plays_at_most_its_cap_of_bots(bot_nodes: list[Node]) -> None:
    a, b = bot_nodes
    players = [await human(a, f"Cap{i}") for i in range(3)]
    races = [await race_bot(ws, "easy") for _, ws in players[:2]]
    full = await players[2][1].request({"type": "race.bot", "game": "golf",
                                        "variant": "easy"})
    assert full["code"] == "race.bot_capacity" and full["retry_after"] > 0, full
    _, other = await human(b, "Cap3")
    elsewhere, session = await race_bot(other, "easy")  # another node has room
    for (_, ws), (race, s) in zip(players, races, strict=False):
        await resign_and_end(ws, race, s)
    await resign_and_end(other, elsewhere, session)
    for _, ws in players:
        await ws.close()
    await other.close()


async def test_a_bot_whose_node_dies_is_played_on_by_another(
        bot_nodes: list[Node], bot_url: str, tmp_path: Path) -> None:
    doomed, proc = start_node(bot_url, tmp_path / "doomed.log", **QUICK)
    try:
        pid, token = await player(doomed, "Kit", "human")
        rest = Rest(doomed, token)
        status, race = await rest.call("POST", "/races/bot", {
            "game": "klondike", "variant": "easy", "strength": "medium"})
        assert status == 201, race
        await rest.aclose()
        ws = await Ws.open(bot_nodes[1], token)  # the player watches from a node that lives
        await ws.send({"type": "race.subscribe", "race": race["race"]})
        await bot_moves(ws, race["race"], bot_of(race), 2)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        await ws.drain(0.3)
        ws._buffer.clear()  # only the moves made after the kill count
        before = await ws_moves(bot_nodes[1], token, race["race"], bot_of(race))
        after = await bot_moves(ws, race["race"], bot_of(race), 3, timeout=20)
        assert after > before, (before, after)
        session = {"session": f"{race['race']}.{pid}"}
        await resign_and_end(ws, race, session)
        await ws.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


async def ws_moves(node: Node, token: str, rid: str, bot: str) -> int:
    rest = Rest(node, token)
    _, race = await rest.call("GET", f"/races/{rid}")
    await rest.aclose()
    return int(next(e for e in race["entrants"] if e["player"] == bot)["moves"])


async def test_the_sdk_races_a_bot(bot_nodes: list[Node]) -> None:
    from clients.sdk import Client
    from clients.sdk.messages import RaceProgress

    _, token = await player(bot_nodes[1], "Sid", "human")
    async with Client(bot_nodes[1].url, token) as c:
        race = await c.race_bot("golf", "easy", "easy")
        assert race.state == "running" and race.bot and race.bot["strength"] == "easy", race
        session = await c.wait_race_session(race.id, 10)
        assert session is not None
        while True:  # the bot's moves arrive as anyone's progress
            ev = await c.next_event(10)
            if isinstance(ev, RaceProgress) and ev.player == race.bot["player"]:
                break
        await c.resign(session.id)
        results = await c.wait_race_end(race.id, 15)
        assert {e["kind"] for e in results.ranking} == {"human", "bot"}


async def test_a_bot_race_s_games_are_analysed_once_it_ends_and_not_before(
        bot_nodes: list[Node], bot_url: str) -> None:
    """Both entries of a bot race (the player's and the bot's) are hidden while it runs, the
    bot's line from the player too, then judged by the analysis job with no one asking and
    public: a bot race is a race (server/analyses/__init__.py)."""
    a, b = bot_nodes
    _, ws = await human(a, "Analysed Hana")
    _, watcher = await human(b, "Analysed Watcher")
    race, session = await race_bot(ws, "easy")
    rid, bot = race["race"], bot_of(race)
    mine, theirs = session["session"], f"{rid}.{bot}"
    await bot_moves(ws, rid, bot, 2)
    for who in (ws, watcher):
        r = await who.request({"type": "analysis.get", "session": theirs})
        assert r["type"] == "error" and r["code"] == "session.hidden", r
    r = await ws.request({"type": "analysis.get", "session": mine})
    assert r["code"] == "analysis.not_over", r
    await resign_and_end(ws, race, session)
    store, public = aioredis.from_url(bot_url), Rest(b)  # no token: public, as the moves are
    try:
        for sid in (mine, theirs):
            for _ in range(900):  # the job's, within 180 s: a cap against hanging
                if await store.get(analysis_key(sid)) is not None:
                    break
                await asyncio.sleep(0.2)
            kept = json.loads(await store.get(analysis_key(sid)))
            status, body = await public.call("GET", f"/sessions/{sid}/analysis")
            assert status == 200 and body["state"] == "ready", body
            assert body["analysis"] == kept["analysis"]
            status, t = await public.call("GET", f"/sessions/{sid}/moves")
            assert kept["analysis"]["moves"] == [m for m in t["moves"] if m != "resign"]
    finally:
        await store.aclose()
        await public.aclose()
    for who in (ws, watcher):
        await who.close()
