"""Head-to-head races over WebSockets: one deal, private views, live progress, ranking,
the seed revealed, and every move list replaying on the engine."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import engine
from engine.cli import check_transcript
from server import store
from server.races import rank
from server.transport import replies

from .client import JSON, MSGPACK, Node, Rest, Ws, cards_in, player, view_cards

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster


async def play(ws: Ws, session: dict[str, Any], moves: int, rng: random.Random,
               acks: list[dict[str, Any]]) -> dict[str, Any]:
    """Play up to ``moves`` random legal moves, preferring the foundations; the last state."""
    for _ in range(moves):
        if session["view"]["status"] != "playing" or not session["legal"]:
            break
        home = [m for m in session["legal"] if "-f" in m]
        move = rng.choice(home or session["legal"])
        reply = await ws.request({"type": "move", "session": session["session"], "move": move})
        assert reply["type"] == "ack", reply
        acks.append(reply)
        session = reply
    return session


@pytest.mark.parametrize("spread", ["one node", "two nodes"])
@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
async def test_two_players_race_one_klondike_deal(nodes: list[Node], spread: str,
                                                  protocol: str, tmp_path: Path) -> None:
    node_b = nodes[1] if spread == "two nodes" else nodes[0]
    a_id, a_token = await player(nodes[0], "Ann", "human")
    b_id, b_token = await player(node_b, "Bob", "bot")
    a = await Ws.open(nodes[0], a_token, protocol)
    b = await Ws.open(node_b, b_token, protocol)

    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 0})
    assert race["type"] == "race" and race["state"] == "open", race
    assert [e["player"] for e in race["entrants"]] == [a_id]
    commitment = race["commitment"]
    assert "seed" not in race

    joined = await b.request({"type": "race.join", "race": race["race"]})
    assert joined["type"] == "race", joined
    assert (await a.expect("race.joined"))["player"]["id"] == b_id
    started = await a.expect("race.started")
    assert started["sessions"] == {a_id: f"{race['race']}.{a_id}", b_id: f"{race['race']}.{b_id}"}
    sa = await a.expect("session")
    sb = await b.expect("session")
    assert sa["session"] != sb["session"] and sa["race"] == sb["race"] == race["race"]
    # The same deal: the same face-up cards and face-down counts everywhere.
    assert sa["view"]["piles"] == sb["view"]["piles"]
    assert sa["commitment"] == sb["commitment"] == commitment
    assert "seed" not in sa and "seed" not in sb

    rng = random.Random(7)
    acks_a: list[dict[str, Any]] = []
    acks_b: list[dict[str, Any]] = []
    last_a = await play(a, sa, 12, rng, acks_a)
    # Bob sees Ann's progress live, and never her cards.
    progress = await b.expect("race.progress", player=a_id, moves=last_a["view"]["moves"])
    assert progress["score"] == last_a["view"]["score"]
    assert set(progress) == {"type", "race", "seq", "player", "moves", "score", "cards",
                             "status"}
    last_b = await play(b, sb, 5, rng, acks_b)
    await a.expect("race.progress", player=b_id, moves=last_b["view"]["moves"])

    # Competitive undo: a move that showed a card can't be taken back.
    revealing = next((x for x in acks_a if x["view"]["piles"] != sa["view"]["piles"]), None)
    assert revealing is not None
    for ws, last in ((a, last_a), (b, last_b)):
        if last["view"]["status"] == "playing":
            done = await ws.request({"type": "resign", "session": last["session"]})
            assert done["type"] == "ack" and done["view"]["status"] == "lost"
    ended_a = await a.expect("race.ended")
    ended_b = await b.expect("race.ended")
    assert ended_a["ranking"] == ended_b["ranking"]
    assert engine.verify(bytes.fromhex(ended_a["seed"]), commitment)

    # The ranking: won, then score, then played on before resigned, then finishing time (a
    # resignation's counts as the race's end), then moves.
    ranking = ended_a["ranking"]
    keys = [(e["status"] != "won", -e["score"], e["resigned"],
             math.inf if e["resigned"] else e["finished_at"], e["moves"]) for e in ranking]
    assert keys == sorted(keys) and [e["rank"] for e in ranking] == [1, 2]

    rest = Rest(node_b, b_token, protocol == MSGPACK)
    status, results = await rest.call("GET", f"/races/{race['race']}/results")
    assert status == 200 and results["ranking"] == ranking and results["seed"] == ended_a["seed"]
    # The event and the results as the schema says (docs/protocol.md).
    jsonschema.validate(ended_a, replies.EVENTS["race.ended"][1])
    jsonschema.validate(results, replies.RACE_RESULTS)
    for entry in ranking:
        status, t = await rest.call("GET", f"/sessions/{entry['session']}/moves")
        assert status == 200 and t["seed"] == ended_a["seed"], t
        assert check_transcript(t) == []
        assert t["score"] == entry["score"] and len(t["moves"]) == entry["moves"]
        path = tmp_path / f"{entry['player']}.json"
        path.write_text(json.dumps(t))
        done = subprocess.run([sys.executable, "-m", "engine.cli", "replay", str(path)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        t["moves"] = t["moves"][:-1]
        assert check_transcript(t), "a cut transcript must not pass"
    await rest.aclose()

    # Nothing either player received names a card they had not been shown.
    for ws in (a, b):
        seen: set[str] = set()
        for m in ws.received:
            if "view" in m:
                seen |= view_cards(m["view"])
            else:
                assert cards_in(m) <= seen, m
    await a.close()
    await b.close()


def test_ranking_orders_won_score_tie_break_time_then_moves() -> None:
    def e(p: str, status: str, score: int, at: int | None, moves: int, tie: int = 0
          ) -> dict[str, Any]:
        return {"player": p, "name": p, "kind": "human", "status": status, "score": score,
                "finished_at": at, "moves": moves, "tie_break": tie}

    entries = [e("lost-high", "lost", 40, 10, 5), e("won-slow", "won", 52, 90, 5, tie=2),
               e("won-fast-more-piles", "won", 52, 20, 5, tie=3),
               e("won-fast", "won", 52, 20, 9, tie=2), e("won-fast-fewer", "won", 52, 20, 4, tie=2),
               e("playing", "playing", 40, None, 1), e("twin", "lost", 40, 10, 5)]
    order = rank(entries, low=False, starts_at=0, ended_at=100, ends_at=100)
    assert [x["player"] for x in order][:4] == [
        "won-fast-fewer", "won-fast", "won-slow", "won-fast-more-piles"]
    # Equal keys share a rank; still playing at the end counts as finishing at the end.
    assert [(x["player"], x["rank"]) for x in order][4:] in (
        [("lost-high", 5), ("twin", 5), ("playing", 7)],
        [("twin", 5), ("lost-high", 5), ("playing", 7)])
    # Low scoring (Golf): fewer points first among the equally lost.
    low = rank([e("a", "lost", 9, 5, 1), e("b", "lost", 3, 50, 1)], low=True, starts_at=0,
               ended_at=60, ends_at=100)
    assert [x["player"] for x in low] == ["b", "a"]


def test_a_resignation_ranks_after_the_same_score_played_on() -> None:
    def e(p: str, at: int | None, moves: int, resigned: bool = False) -> dict[str, Any]:
        return {"player": p, "name": p, "kind": "human", "status": "lost" if at else "playing",
                "score": 0, "finished_at": at, "moves": moves, "tie_break": 0,
                "resigned": resigned}

    # Ended at 100 by the last finish, of a race started at 10 with its limit at 110.
    order = rank([e("resigned-at-once", 1, 0, True), e("stuck-late", 90, 30),
                  e("playing-at-the-limit", None, 50), e("resigned-late", 80, 9, True)],
                 low=False, starts_at=10, ended_at=100, ends_at=110)
    assert [x["player"] for x in order] == [
        "stuck-late", "playing-at-the-limit", "resigned-at-once", "resigned-late"]
    # A resignation's time is the race's whole time limit; playing on, until the end.
    assert [x["time_ms"] for x in order] == [80, 90, 100, 100]


async def test_an_entrys_session_names_its_race(nodes: list[Node], store_url: str) -> None:
    """A race entry's session hash names its race (nothing reads a race out of an id); an
    entry stored before the hash named it is named by ``samedeal upgrade``, on every shard,
    and a second run changes nothing."""
    _, a_token = await player(nodes[0], "Ann", "human")
    _, b_token = await player(nodes[0], "Bob", "human")
    a = await Ws.open(nodes[0], a_token)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 0, "time_limit": 60})
    b = await Ws.open(nodes[0], b_token)
    await b.request({"type": "race.join", "race": race["race"]})
    await b.close()
    session = await a.expect("session")
    assert session["race"] == race["race"], session
    key = store.session_keys(session["session"])[0]
    r = store.connect(store_url)
    rest = Rest(nodes[1], a_token)  # a node that has not read the session yet

    def upgrade() -> str:
        done = subprocess.run([sys.executable, "-m", "engine.cli", "upgrade", "--redis-url",
                               store_url], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    try:
        assert await r.hget(key, "race") == race["race"].encode()
        await r.hdel(key, "race")  # as an entry stored before the hash named its race
        said = upgrade()
        assert said.startswith("race entries named: ") and int(said.split(": ")[1]) >= 1, said
        assert await r.hget(key, "race") == race["race"].encode()
        status, body = await rest.call("GET", f"/sessions/{session['session']}")
        assert status == 200 and body["race"] == race["race"], body
        assert upgrade() == "race entries named: 0\n"
    finally:
        await r.aclose()
        await rest.aclose()
        await a.close()


async def test_resigning_at_once_ranks_below_playing_on_to_the_same_score(
        nodes: list[Node]) -> None:
    """Ann resigns as the race starts; Bob makes a move that scores nothing and plays on
    until the time limit: both end on 0, and Bob ranks first."""
    a_id, a_token = await player(nodes[0], "Ann", "human")
    b_id, b_token = await player(nodes[1], "Bob", "human")
    a = await Ws.open(nodes[0], a_token)
    b = await Ws.open(nodes[1], b_token)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 0, "time_limit": 5})
    await b.request({"type": "race.join", "race": race["race"]})
    sa, sb = await a.expect("session"), await b.expect("session")
    ack = await a.request({"type": "resign", "session": sa["session"]})
    assert ack["type"] == "ack" and ack["view"]["score"] == 0, ack
    quiet = "s" if "s" in sb["legal"] else next(m for m in sb["legal"] if "-f" not in m)
    ack = await b.request({"type": "move", "session": sb["session"], "move": quiet})
    assert ack["type"] == "ack" and ack["view"]["score"] == 0, ack
    ended = await a.expect("race.ended", timeout=20)
    ranking = {e["player"]: e for e in ended["ranking"]}
    assert ranking[b_id]["rank"] == 1 and ranking[a_id]["rank"] == 2, ended["ranking"]
    assert ranking[a_id]["resigned"] and not ranking[b_id]["resigned"]
    # The resignation's time is the race's whole time limit.
    assert ranking[a_id]["time_ms"] == 5000
    await a.close()
    await b.close()
