"""A node killed right after a game-ending change is stored leaves nothing half-finished: the
change put its follow-up in the due set, and another node completes it within seconds; done
twice, it records once; a race started just before its node died still ends at its time
limit. And an ended race's event list expires once its replay window has passed, leaving the
summary."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redis import asyncio as redis

from server import store as keys
from server.boards import Boards
from server.boards.ratings import Ratings
from server.boards.records import Records
from server.config import Settings
from tests.conftest import FAST, start_node, stop_node

from .client import Node, Rest, Ws, player
from .test_records import record

DELAYS_MS = (0, 2, 5, 10, 20, 50)  # after the final moves are sent, before the SIGKILL
RACES = 6  # per delay, finishing at once: some kills land between a change and its follow-up
DAILIES = 4
MATCHES = 2
SETTLE_S = 10.0  # a follow-up is due after its grace (2 s) and a sweep (1 s): well within


@dataclass
class Pending:
    """A game whose final move is about to be sent over ``ws``, on the node about to die."""
    ws: Ws
    session: str
    players: list[str]
    race: str = ""
    match: str = ""

    def final(self) -> dict[str, Any]:
        if self.match:
            return {"type": "match.leave", "match": self.match, "id": 1}
        return {"type": "resign", "session": self.session, "id": 1}


async def race_at_its_last_move(node: Node) -> Pending:
    """A two-entrant race on ``node`` in which the first entrant has already finished."""
    a_id, a_token = await player(node, "Ann")
    b_id, b_token = await player(node, "Bob")
    a, b = await Ws.open(node, a_token), await Ws.open(node, b_token)
    race = await a.request({"type": "race.create", "game": "golf", "variant": "easy",
                            "seats": 2, "countdown": 0})
    await b.request({"type": "race.join", "race": race["race"]})
    sa, sb = await a.expect("session"), await b.expect("session")
    assert (await a.request({"type": "resign", "session": sa["session"]}))["type"] == "ack"
    await a.close()
    return Pending(b, sb["session"], [a_id, b_id], race["race"])


async def daily_at_its_last_move(node: Node) -> Pending:
    pid, token = await player(node, "Dee")
    ws = await Ws.open(node, token)
    s = await ws.request({"type": "daily.start", "game": "golf", "variant": "easy"})
    assert s["type"] == "session" and s["mode"] == "daily", s
    return Pending(ws, s["session"], [pid])


async def match_at_its_last_move(node: Node) -> Pending:
    """A two-bowler match on ``node`` that one bowler has left: the other leaving ends it."""
    a_id, a_token = await player(node, "Ann")
    b_id, b_token = await player(node, "Bob")
    a, b = await Ws.open(node, a_token), await Ws.open(node, b_token)
    created = await a.request({"type": "match.create", "game": "bowling", "variant": "easy",
                               "seats": 2})
    mid = created["match"]
    assert (await b.request({"type": "match.join", "match": mid}))["type"] == "match"
    await a.expect("match.started")
    assert (await b.request({"type": "match.leave", "match": mid}))["state"] == "running"
    await b.close()
    return Pending(a, "", [a_id, b_id], match=mid)


async def finished(node: Node, game: Pending) -> bool:
    """Whether the final move was stored (it was sent, not acknowledged: the kill may have
    come first, and then the game simply goes on)."""
    rest = Rest(node, game.ws.token)
    if game.match:
        status, m = await rest.call("GET", f"/matches/{game.match}")
        await rest.aclose()
        assert status == 200, m
        return all(p["forfeited"] for p in m["players"])
    status, s = await rest.call("GET", f"/sessions/{game.session}")
    await rest.aclose()
    assert status == 200, s
    return s["view"]["status"] != "playing"


async def poll(check: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_S
    while not await check():
        assert loop.time() < deadline, f"{what} within {SETTLE_S:g} s"
        await asyncio.sleep(0.1)


async def recorded(rest: Rest, game: Pending) -> bool:
    """The race or match has ended, and each player's statistics and rating counted it."""
    path, rules = ((f"/matches/{game.match}", ("bowling", "easy")) if game.match
                   else (f"/races/{game.race}", ("golf", "easy")))
    _, ended = await rest.call("GET", path)
    if ended["state"] != "ended":
        return False
    for pid in game.players:
        _, profile = await rest.call("GET", f"/players/{pid}")
        played = {(s["game"], s["variant"]): s["played"] for s in profile["stats"]}
        if played.get(rules) != 1 or "/".join(rules) not in profile["ratings"]:
            return False
    return True


async def on_daily_board(ws: Ws, game: Pending) -> bool:
    page = await ws.request({"type": "board.get", "board": "daily/today/golf/easy",
                             "kind": "bot", "around": game.players[0], "count": 1})
    return page["type"] == "board" and any(e["player"] == game.players[0]
                                           for e in page["entries"])


async def test_a_node_killed_after_a_game_ending_move_leaves_no_game_half_finished(
        redis_url: str, tmp_path: Path) -> None:
    """For each delay: every race and match ends with its results, statistics and ratings
    recorded, and every ranked daily attempt reaches the daily board, through the surviving
    node alone."""
    survivor, survivor_proc = start_node(redis_url, tmp_path / "survivor.log", **FAST)
    rest = Rest(survivor)
    await rest.register("Watcher")
    watcher = await Ws.open(survivor, rest.token)
    stored = 0
    try:
        for delay in DELAYS_MS:
            doomed, proc = start_node(redis_url, tmp_path / f"doomed-{delay}.log", **FAST)
            games = [await race_at_its_last_move(doomed) for _ in range(RACES)]
            games += [await daily_at_its_last_move(doomed) for _ in range(DAILIES)]
            games += [await match_at_its_last_move(doomed) for _ in range(MATCHES)]
            for game in games:
                await game.ws.send(game.final())
            await asyncio.sleep(delay / 1000)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
            for game in games:
                with contextlib.suppress(Exception):
                    await game.ws.close()
                if not await finished(survivor, game):
                    continue
                stored += 1
                if game.race or game.match:
                    await poll(lambda g=game: recorded(rest, g), f"{game.race or game.match} "
                               f"(kill after {delay} ms) ended and recorded")
                else:
                    await poll(lambda g=game: on_daily_board(watcher, g),
                               f"attempt {game.session} (kill after {delay} ms) on the board")
    finally:
        await watcher.close()
        await rest.aclose()
        stop_node(survivor_proc)
    assert stored >= len(DELAYS_MS), "most final moves were stored before the kill"


async def test_an_ended_race_s_events_expire_and_a_subscriber_gets_its_summary(
        redis_url: str, tmp_path: Path) -> None:
    node, proc = start_node(redis_url, tmp_path / "node.log", SAMEDEAL_REPLAY_WINDOW="3",
                            **FAST)
    store = redis.Redis.from_url(redis_url)
    try:
        game = await race_at_its_last_move(node)
        assert (await game.ws.request({"type": "resign", "session": game.session}))[
            "type"] == "ack"
        ended = await game.ws.expect("race.ended")
        events = f"sd:{{{game.race}}}:events"
        assert 0 < await store.pttl(events) <= 3000, "the event list expires after the window"
        late = await Ws.open(node, game.ws.token)
        await late.send({"type": "race.subscribe", "race": game.race, "after": 1})
        assert (await late.expect("race.joined"))["seq"] == 2, "replayed within the window"
        await late.close()

        async def gone() -> bool:
            return not await store.exists(events)

        await poll(gone, "the event list expired")
        for after in (None, 0, 1, ended["seq"] - 1):
            late = await Ws.open(node, game.ws.token)
            message: dict[str, Any] = {"type": "race.subscribe", "race": game.race}
            if after is not None:
                message["after"] = after
            await late.send(message)
            summary = await late.expect("race")
            assert summary["state"] == "ended" and summary["seq"] == ended["seq"]
            assert summary["seed"] == ended["seed"]
            assert {e["player"] for e in summary["entrants"]} == set(game.players)
            await late.close()
        rest = Rest(node, game.ws.token)
        _, results = await rest.call("GET", f"/races/{game.race}/results")
        await rest.aclose()
        assert results["ranking"] == ended["ranking"], "the results stay"
        await game.ws.close()
    finally:
        await store.aclose()
        stop_node(proc)


async def test_a_race_recorded_twice_is_rated_once(redis_url: str) -> None:
    """A follow-up done twice (its node died after rating, before taking it off the due set;
    or it outlasted its grace) records the race once: statistics, and ratings too."""
    r = keys.connect(redis_url)
    boards = Boards(r)
    records = Records(r, Settings(), boards, Ratings(r, boards))
    players = [f"pq{time.time_ns()}{i}" for i in range(2)]
    race = {"race": f"r{time.time_ns()}", "game": "golf", "variant": "easy", "ranking": [
        {"player": pid, "name": pid, "kind": "bot", "status": "lost", "score": 10 + i,
         "moves": 3, "time_ms": 1000, "finished_at": None, "tie_break": 0, "rank": i + 1}
        for i, pid in enumerate(players)]}

    async def ratings() -> list[dict[str, Any]]:
        return [json.loads(await r.hget(keys.player_key(pid), "rating:golf/easy"))
                for pid in players]

    await record(records, race)
    once = await ratings()
    await record(records, race)  # the follow-up again
    assert await ratings() == once and [x["races"] for x in once] == [1, 1]
    page = await boards.page("rating:golf:easy:bot", around=players[0])
    assert page is not None and next(e for e in page.entries if e["player"] == players[0])[
        "races"] == 1
    await record(records, race | {"race": race["race"] + "x"})  # another race: rated
    assert [x["races"] for x in await ratings()] == [2, 2]
    await r.aclose()


async def test_a_race_ends_at_its_time_limit_though_its_node_died_as_it_started(
        nodes: list[Node], redis_url: str) -> None:
    """The start is stored with its end due at the time limit, in one script: a node dying
    right after it (before it listed the race among the running ones) cannot leave the race
    running for ever. Reproduced by taking the race off that list."""
    a_id, a_token = await player(nodes[0], "Ann")
    b_id, b_token = await player(nodes[1], "Bob")
    a, b = await Ws.open(nodes[0], a_token), await Ws.open(nodes[1], b_token)
    race = await a.request({"type": "race.create", "game": "golf", "variant": "easy",
                            "seats": 2, "countdown": 0, "time_limit": 5})
    await b.request({"type": "race.join", "race": race["race"]})
    store = redis.Redis.from_url(redis_url)
    assert await store.zrem("sd:races:running", race["race"]) == 1
    await store.aclose()
    ended = await a.expect("race.ended", timeout=15)
    assert {e["player"] for e in ended["ranking"]} == {a_id, b_id}
    assert all(e["status"] == "playing" for e in ended["ranking"])
    await a.close()
    await b.close()
