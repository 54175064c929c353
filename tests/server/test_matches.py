"""Matches over WebSockets on two real server nodes: four-player Bowling in bowling order with
the turn timer, presence and the grace period, and called-card Poker and Cribbage Square where
every player places the same called card; spectators see the same events and nothing hidden."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import engine
from engine.cards import TEXT, parse_card
from server import store
from server.transport import replies
from tests.conftest import FAST, free_port, start_node, stop_node

from .client import JSON, MSGPACK, Node, Rest, Ws, cards_in, player, view_cards
from .test_chain import empty_database

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster

async def next_event(ws: Ws, mid: str, timeout: float = 20, after: int = 0) -> dict[str, Any]:
    """The next event of the match numbered above ``after``, whatever its type."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for i, m in enumerate(ws._buffer):
            if m.get("match") == mid and m.get("seq", 0) > after and m["type"] != "match":
                return ws._buffer.pop(i)
        ws._buffer.append(await ws._next(max(0.01, deadline - loop.time())))


SUMMARY = jsonschema.Draft202012Validator(replies.MATCH)


def check_summaries(*sockets: Ws) -> int:
    """Every match summary the sockets were sent (a reply, a resync, an ack) holds the reply
    schema's; how many there were."""
    summaries = [m for ws in sockets for m in ws.received if m.get("type") in ("match",
                                                                               "match.ack")]
    for m in summaries:
        SUMMARY.validate(m)
    return len(summaries)


def check_hidden(messages: list[dict[str, Any]], shown: set[str]) -> None:
    """Every card named in a message was shown before or is shown by that message."""
    for m in messages:
        seen = view_cards(m["view"]) if "view" in m else set()
        if m.get("card"):
            seen.add(m["card"])
        # Bowling: a complete frame's cards, shown to all by the message that lists them
        seen |= {c["card"] for f in m.get("frames", []) for b in f["bowlers"]
                 for c in b["cards"]}
        assert cards_in(m) <= shown | seen, (m.get("type"), cards_in(m) - shown - seen)
        shown |= seen


def replay_bowling(transcript: dict[str, Any]) -> engine.State:
    rules = engine.get(transcript["game"], transcript["variant"])
    st = rules.deal(bytes.fromhex(transcript["seed"]), competitive=True,
                    players=len(transcript["order"]))
    for entry in transcript["moves"]:
        if entry["move"] == "forfeit":
            rules.forfeit(st, entry["bowler"] - 1)
        else:
            st.play(engine.parse_move(rules, entry["move"]), player=entry["bowler"] - 1)
    return st


# ----- Bowling ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["easy", "difficult"])
async def test_four_bowlers_on_two_nodes_bowl_a_match_to_the_end(nodes: list[Node],
                                                                 variant: str) -> None:
    rng = random.Random(variant)
    ids, socks = [], []
    for i in range(4):
        node = nodes[i % 2]
        pid, token = await player(node, f"Bowler{i + 1}", "human")
        ids.append(pid)
        socks.append(await Ws.open(node, token, MSGPACK if i % 2 else JSON))
    _, spy_token = await player(nodes[1], "Watcher", "human")
    spy = await Ws.open(nodes[1], spy_token)

    created = await socks[0].request({"type": "match.create", "game": "bowling",
                                      "variant": variant, "seats": 4, "turn_time": 120})
    assert created["type"] == "match" and created["state"] == "open", created
    mid = created["match"]
    assert "seed" not in created and len(created["commitment"]) == 64
    await spy.send({"type": "match.subscribe", "match": mid})
    sub = await spy.expect("match")
    assert sub["state"] == "open" and sub["players"][0]["name"] == "Bowler1"
    for ws in socks[1:]:
        joined = await ws.request({"type": "match.join", "match": mid})
        assert joined["type"] == "match", joined

    for ws in socks:  # each bowler follows from their seat: others' seats, then the start
        started = await next_event(ws, mid)
        while started["type"] != "match.started":
            assert started["type"] == "match.joined"
            started = await next_event(ws, mid)
    assert [p["player"] for p in started["order"]] == ids  # bowling order: the seat order
    current = started
    first_cards: dict[int, set[str]] = {}  # frame -> the first card each bowler saw
    last_turn = None
    refused = 0
    kept: dict[str, Any] | None = None  # the next card of a turn kept: the ack's own lane
    while current["turn"] is not None:
        turn = current["turn"]
        k = turn["bowler"] - 1
        assert turn["player"] == ids[k]
        frame = current["view"]["info"]["frame"]
        assert not current["view"]["piles"]["s"]["up"]  # the lane is face down to all
        you = kept or await socks[k].expect("match.you")  # the bowler's own, theirs alone
        while you["as_of"] < current["seq"]:
            you = await socks[k].expect("match.you")
        assert you["view"]["info"]["frame"] == frame and you["legal"]
        if (k, frame) != last_turn:  # a bowler's frame begins: fresh pins, the frame's deck
            first_cards.setdefault(frame, set()).add(you["view"]["piles"]["s"]["up"][0])
            last_turn = (k, frame)
        move = rng.choice(you["legal"])
        if refused < 12:  # somebody else tries first: refused, nothing changes
            other = (k + 1 + rng.randrange(3)) % 4
            no = await socks[other].request({"type": "match.move", "match": mid, "move": move})
            assert no["type"] == "error" and no["code"] == "turn.wrong", no
            assert no["message"] == f"it is player {k + 1}'s turn, not yours"
            refused += 1
        ack = await socks[k].request({"type": "match.move", "match": mid, "move": move})
        assert ack["type"] == "match.ack", ack
        kept = ack.get("you")
        if kept is not None:  # the turn is kept: no event, the next card is the bowler's
            assert ack["seq"] == current["seq"] and ack["turn"] == current["turn"], ack
            continue
        for i, ws in enumerate(socks):  # every bowler sees each turn pass, in order; its
            event = await next_event(ws, mid)  # last pin once the frame is complete
            assert event["type"] == "match.moved", event
            assert event["move"] == (move if i == k or "frames" in event else None), event
            assert event["player"] == ids[k] and event["by"] == "player"
        current = event

    assert sorted(first_cards) == list(range(1, 11))
    assert all(len(cards) == 1 for cards in first_cards.values()), first_cards  # same decks
    ended = await next_event(socks[0], mid)
    assert ended["type"] == "match.ended"
    results = ended["results"]
    rest = Rest(nodes[0])
    status, transcript = await rest.call("GET", f"/matches/{mid}/transcript")
    await rest.aclose()
    assert status == 200 and transcript["seed"] == ended["seed"] == results["seed"]
    # The event and the transcript as the schema says (docs/protocol.md).
    jsonschema.validate(ended, replies.EVENTS["match.ended"][1])
    jsonschema.validate(transcript, replies.MATCH_TRANSCRIPT)
    assert engine.commitment(bytes.fromhex(transcript["seed"])) == created["commitment"]
    st = replay_bowling(transcript)  # the engine's own scorecards
    assert st.over
    assert results["scorecards"] == st.view()["info"]["bowlers"]
    totals = {ids[b["bowler"] - 1]: b["total"] for b in st.view()["info"]["bowlers"]}
    assert {e["player"]: e["score"] for e in results["ranking"]} == totals
    best = max(totals.values())
    assert results["winner"] == [p for p in ids if totals[p] == best]
    assert [e["rank"] for e in results["ranking"]] == sorted(e["rank"] for e in
                                                             results["ranking"])

    # the spectator got every event the bowlers got, and never a card not yet shown
    await spy.drain(0.3)
    spied = [m for m in spy.received if "seq" in m]
    assert [m["seq"] for m in spied] == list(range(spied[0]["seq"], spied[-1]["seq"] + 1))
    assert spied[-1]["type"] == "match.ended"
    check_hidden(spy.received, set())
    for ws in socks:
        check_hidden(ws.received, set())
    rating = await socks[0].request({"type": "board.get", "board": f"ratings/bowling/{variant}",
                                     "around": "me"})
    assert rating["type"] == "board" and rating["total"] >= 4
    for ws in [*socks, spy]:
        await ws.close()
    assert check_summaries(spy, *socks) > 40  # Bowling's: lanes, turns, frames, results


async def test_the_timer_bowls_for_an_absent_bowler_and_a_bowler_comes_back(
        nodes: list[Node]) -> None:
    a_id, a_token = await player(nodes[0], "Present", "human")
    b_id, b_token = await player(nodes[1], "Absent", "human")
    a = await Ws.open(nodes[0], a_token)
    created = await a.request({"type": "match.create", "game": "bowling", "variant": "easy",
                               "seats": 2, "turn_time": 3, "grace": 6})
    mid = created["match"]
    b_rest = Rest(nodes[1], b_token)
    status, _ = await b_rest.call("POST", f"/matches/{mid}/join")  # B never opens a socket
    assert status == 200
    started = await a.expect("match.started", timeout=10)
    assert started["turn"]["player"] == a_id

    current, you = started, await a.expect("match.you")
    while current["turn"]["player"] == a_id:  # A bowls frame 1
        ack = await a.request({"type": "match.move", "match": mid, "move": you["legal"][0]})
        assert ack["type"] == "match.ack", ack
        current, you = ack, ack.get("you")
    timed = []
    while current["turn"] is not None and current["turn"]["player"] == b_id:
        event = await next_event(a, mid, timeout=15, after=current["seq"])
        if event["type"] == "match.moved":
            assert event["player"] == b_id and event["by"] == "timer", event
            # the timer's placement, B's own until B's frame 1 completes the frame
            assert (event["move"] is None) == ("frames" not in event), event
            timed.append(event["move"])
            current = event
    assert timed and current["turn"]["player"] == a_id  # frame 1 done for B; A's frame 2
    card = (await a.request({"type": "match.get", "match": mid}))["view"]["info"]["bowlers"][1]
    assert card["frames"][0]["balls"], card

    # A drops off for longer than a turn and comes back on the other node within the grace:
    # the timer waited for A
    last = current["seq"]
    await a.close()
    await asyncio.sleep(4.5)
    a2 = await Ws.open(nodes[1], a_token)
    await a2.send({"type": "match.subscribe", "match": mid, "after": last})
    away = await a2.expect("match.away", timeout=10)
    back = await a2.expect("match.back", timeout=10)
    assert away["player"] == back["player"] == a_id and back["seq"] > away["seq"] > last
    assert not [m for m in a2.received if m.get("type") == "match.moved"]
    now = await a2.request({"type": "match.get", "match": mid})
    assert now["turn"]["player"] == a_id and now["you"]["legal"]
    # back after the turn's deadline: the turn waits turn_time from the return (4.5 s or more
    # after the card was shown), within turn_time + grace of it
    # (the card's deadline is A's own: the others' turn deadline stays the turn's first card's)
    assert 4000 <= now["you"]["deadline"] - current["turn"]["deadline"] <= 6000, now["you"]
    assert now["turn"] == current["turn"], now["turn"]
    assert not [p for p in now["players"] if p["away"] and p["player"] == a_id]
    ack = await a2.request({"type": "match.move", "match": mid, "move": now["you"]["legal"][0]})
    assert ack["type"] == "match.ack"

    # B leaves for good, then A: the match is over, both frames as bowled
    status, left = await b_rest.call("POST", f"/matches/{mid}/leave")
    assert status == 200 and [p["forfeited"] for p in left["players"]] == [False, True]
    left = await a2.request({"type": "match.leave", "match": mid})
    assert left["type"] == "match" and left["state"] == "ended", left
    ended = await a2.expect("match.ended")
    assert [e["forfeited"] for e in ended["results"]["ranking"]] == [True, True]
    no = await a2.request({"type": "match.move", "match": mid, "move": "s-p1"})
    assert no["code"] == "match.not_running"
    assert "match.forfeit" in [m["type"] for m in a2.received]
    await b_rest.aclose()
    await a2.close()


async def test_leaving_and_coming_back_again_and_again_cannot_hold_a_turn(
        nodes: list[Node]) -> None:
    """Each return after the deadline gives the turn ``turn_time`` more and each leaving a new
    grace, but no turn waits past ``turn_time`` + ``grace`` from when its card was shown."""
    a_id, a_token = await player(nodes[0], "Staller", "human")
    _, b_token = await player(nodes[1], "Waiting", "human")
    a = await Ws.open(nodes[0], a_token)
    created = await a.request({"type": "match.create", "game": "bowling", "variant": "easy",
                               "seats": 2, "turn_time": 2, "grace": 3})
    mid = created["match"]
    b = await Ws.open(nodes[1], b_token)
    assert (await b.request({"type": "match.join", "match": mid}))["type"] == "match"
    started = await b.expect("match.started", timeout=10)
    assert started["turn"]["player"] == a_id
    shown = started["turn"]["deadline"] - 2000
    loop = asyncio.get_running_loop()
    until = loop.time() + 15  # far past 2 + 3 s
    moved: dict[str, Any] | None = None  # A's read once the timer placed A's first card
    while moved is None and loop.time() < until:
        await a.close()  # away: a new grace
        await b.drain(0.5)
        a = await Ws.open(nodes[int(loop.time()) % 2], a_token)
        await a.send({"type": "match.subscribe", "match": mid, "after": started["seq"]})
        got = await a.request({"type": "match.get", "match": mid})  # back: turn_time more
        if "own_frame" in got:
            moved = got
    assert moved is not None and len(moved["own_frame"]["cards"]) == 1, moved
    # the timer's card kept A's turn: it is A's alone, no event for B
    assert "you" in moved and not [m for m in b._buffer if m.get("type") == "match.moved"]
    # placed at the bound, then absent_pace and a sweep: the next card's deadline says when
    assert moved["you"]["deadline"] - 2000 - shown <= 5000 + 1000 + 2500, (moved, shown)
    await a.close()
    await b.close()


async def test_a_killed_nodes_players_count_as_away(
        nodes: list[Node], store_url: str, tmp_path: Path) -> None:
    """A node killed outright never says its sockets closed: once its heartbeat stops, the
    other nodes take its players' presence back (match.away), so the timer stops waiting."""
    doomed, proc = start_node(store_url, tmp_path / "doomed.log", **FAST)
    try:
        a_id, a_token = await player(doomed, "Doomed", "human")
        _, b_token = await player(nodes[0], "Watcher", "human")
        a = await Ws.open(doomed, a_token)
        created = await a.request({"type": "match.create", "game": "bowling",
                                   "variant": "easy", "seats": 2, "turn_time": 30,
                                   "grace": 60})
        mid = created["match"]
        b = await Ws.open(nodes[0], b_token)
        joined = await b.request({"type": "match.join", "match": mid})
        assert joined["type"] == "match", joined
        await b.expect("match.started", timeout=10)
        summary = await b.request({"type": "match.get", "match": mid})
        assert not any(p["away"] for p in summary["players"])
        proc.kill()
        proc.wait(10)
        away = await b.expect("match.away", timeout=30)  # the node timeout (4 s) and a sweep
        assert away["player"] == a_id
        summary = await b.request({"type": "match.get", "match": mid})
        assert [p["away"] for p in summary["players"] if p["player"] == a_id] == [True]
        await b.close()
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_a_slow_sweep_job_does_not_make_a_live_node_look_dead(
        redis_url: str, tmp_path: Path) -> None:
    """Each sweep of these nodes waits on a beacon that takes connections and never answers
    (three tries of 1.5 s each, past the 4 s node timeout); their heartbeats beat beside the
    sweep, so neither node takes the other for dead and both players stay present. The nodes
    get an empty database: where an earlier test opened today's daily, today is marked as
    having no beacon, and no sweep would ask."""
    redis_url = await empty_database(redis_url)
    with socket.create_server(("127.0.0.1", free_port())) as silent:
        env = {**FAST, "SAMEDEAL_BEACON_URL": f"http://127.0.0.1:{silent.getsockname()[1]}",
               "SAMEDEAL_BEACON_TIMEOUT": "1.5"}
        started = [start_node(redis_url, tmp_path / f"node{i}.log", **env) for i in range(2)]
        try:
            (n0, _), (n1, _) = started
            _, a_token = await player(n0, "Patient", "human")
            _, b_token = await player(n1, "Steady", "human")
            a, b = await Ws.open(n0, a_token), await Ws.open(n1, b_token)
            mid = (await a.request({"type": "match.create", "game": "poker-square",
                                    "variant": "easy", "seats": 2, "turn_time": 600}))["match"]
            assert (await b.request({"type": "match.join", "match": mid}))["type"] == "match"
            await asyncio.sleep(9)  # a stalled sweep on each node, and a node timeout past it
            for ws in (a, b):
                await ws.drain(0.3)
                assert not [m for m in ws.received if m.get("type") == "match.away"]
            summary = await a.request({"type": "match.get", "match": mid})
            assert not any(p["away"] for p in summary["players"]), summary
            silent.setblocking(False)
            asked = 0
            with contextlib.suppress(BlockingIOError):
                while True:
                    silent.accept()[0].close()
                    asked += 1
            assert asked >= 4, asked  # each node's sweep did wait on the beacon
            for ws in (a, b):
                await ws.close()
        finally:
            for node, proc in started:
                stop_node(proc, node.log)


# ----- called-card Poker and Cribbage Square ---------------------------------------------


@pytest.mark.parametrize("game", ["poker-square", "cribbage-square"])
@pytest.mark.parametrize("variant", ["easy", "difficult"])
async def test_three_players_place_the_same_called_cards(nodes: list[Node], game: str,
                                                         variant: str) -> None:
    rng = random.Random(game + variant)
    ids, socks = [], []
    for i in range(3):
        pid, token = await player(nodes[i % 2], f"Player{i + 1}", "human")
        ids.append(pid)
        socks.append(await Ws.open(nodes[i % 2], token))
    _, spy_token = await player(nodes[0], "Watcher", "human")
    spy = await Ws.open(nodes[0], spy_token, MSGPACK)
    created = await socks[0].request({"type": "match.create", "game": game,
                                      "variant": variant, "seats": 3})
    mid = created["match"]
    await spy.send({"type": "match.subscribe", "match": mid})
    await spy.expect("match")
    for ws in socks[1:]:
        assert (await ws.request({"type": "match.join", "match": mid}))["type"] == "match"

    called: list[str] = []  # the cards as every player was shown them
    seen: list[list[str]] = [[] for _ in ids]
    grids = [await ws.expect("match.you") for ws in socks]
    first = await socks[0].expect("match.started")
    called.append(first["card"])
    last = first["seq"]
    while True:
        for i, ws in enumerate(socks):
            you = grids[i]
            if not you["waiting"]:
                continue
            seen[i].append(you["view"]["piles"]["s"]["up"][0])
            move = rng.choice(you["legal"])
            ack = await ws.request({"type": "match.move", "match": mid, "move": move})
            assert ack["type"] == "match.ack", ack
            mine = ack["you"]
            if ack["state"] == "running" and ack["round"] == len(called) - 1:
                # others still to place: the next card stays hidden from this player
                assert not mine["waiting"] and mine["legal"] == []
                assert mine["view"]["piles"]["s"]["up"] == []
                again = await ws.request({"type": "match.move", "match": mid, "move": move})
                assert again["code"] in ("match.wait", "match.done"), again
        event = await next_event(socks[0], mid, after=last)
        while event["type"] == "match.placed":
            event = await next_event(socks[0], mid, after=event["seq"])
        last = event["seq"]
        if event["type"] == "match.ended":
            break
        assert event["type"] == "match.card", event
        called.append(event["card"])
        grids = [await ws.expect("match.you", timeout=10) for ws in socks]
        for you in grids:
            if you["waiting"]:
                assert you["view"]["piles"]["s"]["up"] == [event["card"]]

    # every player was shown the same sequence, the deal's own order
    rules = engine.get(game, variant)
    for i in range(3):
        assert seen[i] == called[:len(seen[i])]
    results = event["results"]
    seed = bytes.fromhex(results["seed"])
    deck = rules.deal(seed).piles[rules.stock_pile][::-1]
    assert called == [TEXT[c] for c in deck[:len(called)]]
    rest = Rest(nodes[1])
    status, transcript = await rest.call("GET", f"/matches/{mid}/transcript")
    await rest.aclose()
    assert status == 200
    jsonschema.validate(event, replies.EVENTS["match.ended"][1])
    jsonschema.validate(transcript, replies.MATCH_TRANSCRIPT)
    starter = deck[len(called)]
    totals = {}
    for pid in ids:
        st = rules.deal(seed, competitive=True)
        for entry in transcript["moves"][pid]:
            st.play(engine.parse_move(rules, entry["move"]))
        assert rules.finished(st)
        totals[pid] = rules.scored(st, starter)[0]
    assert {e["player"]: e["score"] for e in results["ranking"]} == totals
    assert results["winner"] == [p for p in ids if totals[p] == max(totals.values())]
    if game == "cribbage-square":  # the common starter: the first card after the last grid
        assert results["starter"] == TEXT[starter]
        assert parse_card(results["starter"]) not in [parse_card(c) for c in called]

    # what anyone saw: only called cards (the starter once the match was over)
    await spy.drain(0.3)
    assert [m["type"] for m in spy.received if "seq" in m][-1] == "match.ended"
    assert check_summaries(spy, *socks) > 10  # a called match's: rounds, scores, grids
    for ws in [spy, *socks]:
        for m in ws.received:
            allowed = set(called) | ({TEXT[starter]} if m.get("type") in (
                "match.ended", "match.you", "match.ack", "match") else set())
            assert cards_in(m) <= allowed, (m.get("type"), cards_in(m) - allowed)
        await ws.close()


async def test_the_timer_places_a_called_card_for_a_player_who_does_not(
        nodes: list[Node]) -> None:
    _, a_token = await player(nodes[0], "Quick", "human")
    b_id, b_token = await player(nodes[1], "Slow", "human")
    a = await Ws.open(nodes[0], a_token)
    b = await Ws.open(nodes[1], b_token)
    mid = (await a.request({"type": "match.create", "game": "poker-square", "variant": "easy",
                            "seats": 2, "turn_time": 1}))["match"]
    joined = await b.request({"type": "match.join", "match": mid})
    assert joined["type"] == "match", joined
    you = await a.expect("match.you")
    for rnd in range(7):  # A places in the grid; B lets the timer place
        ack = await a.request({"type": "match.move", "match": mid, "move": you["legal"][0]})
        assert ack["type"] == "match.ack", ack
        try:
            placed = await b.expect("match.placed", player=b_id, timeout=10)
        except TimeoutError:  # what the match says of itself, to tell why
            now = await a.request({"type": "match.get", "match": mid})
            raise AssertionError(f"round {rnd}: no timer placement for B in 10 s; the "
                                 f"match: {now}; B received: {b.received}") from None
        assert placed["by"] == "timer" and placed["round"] == rnd
        you = await a.expect("match.you", timeout=10)
    now = await b.request({"type": "match.get", "match": mid})
    assert "you" in now, now
    piles = now["you"]["view"]["piles"]
    placed = now["scores"][b_id]["placed"]  # 7, or 8 if the timer has placed again since
    assert placed >= 7 and len(piles["w"]["up"]) == 5  # the waste first, while it has room
    filled = [g for g in (f"g{i}" for i in range(1, 26)) if piles[g]["up"]]
    assert filled == [f"g{i}" for i in range(1, placed - 4)]  # then the first empty cells
    for ws in (a, b):
        await ws.close()


# ----- the match form ----------------------------------------------------------------------


async def test_a_matchs_kind_is_its_rule_sets_match_form(node: Node) -> None:
    """The wire names a match's kind as the catalog's rule set does (``turns``, ``called``),
    never by a game: in the reply, the start, the summary, the lobby and the results."""
    _, token = await player(node, "Former", "human")
    ws = await Ws.open(node, token)
    rest = Rest(node, token)
    status, catalog = await rest.call("GET", "/games")
    assert status == 200
    forms = {(g["id"], g["variant"]): g["match"] for g in catalog["rule_sets"]}
    assert forms[("bowling", "easy")] == {"kind": "turns", "seats": [1, 4]}
    assert forms[("poker-square", "easy")] == {"kind": "called", "seats": [2, 8]}
    assert forms[("klondike", "easy")] is None

    called = await ws.request({"type": "match.create", "game": "poker-square",
                               "variant": "easy", "seats": 2})
    assert called["kind"] == "called", called
    status, lobby = await rest.call("GET", "/matches")
    assert status == 200
    assert {m["match"]: m["kind"] for m in lobby["matches"]}[called["match"]] == "called"

    made = await ws.request({"type": "match.create", "game": "bowling", "variant": "easy",
                             "seats": 1})
    mid = made["match"]
    assert made["kind"] == "turns", made
    started = await next_event(ws, mid)
    while started["type"] != "match.started":
        started = await next_event(ws, mid, after=started["seq"])
    assert started["kind"] == "turns"
    status, summary = await rest.call("GET", f"/matches/{mid}")
    assert status == 200 and summary["kind"] == "turns"
    await ws.request({"type": "match.leave", "match": mid})  # the one bowler leaves: over
    ended = await next_event(ws, mid, after=started["seq"])
    while ended["type"] != "match.ended":
        ended = await next_event(ws, mid, after=ended["seq"])
    assert ended["results"]["kind"] == "turns"
    status, transcript = await rest.call("GET", f"/matches/{mid}/transcript")
    assert status == 200 and transcript["kind"] == "turns"
    await ws.close()
    await rest.aclose()


async def test_a_socket_knows_a_match_by_how_it_was_followed_not_its_id(
        nodes: list[Node], store_url: str) -> None:
    """Ids carry no meaning: a match kept under an id that looks like a race's is still
    followed as a match (its summary, its seats), because the socket subscribed to a match."""
    _, token = await player(node := nodes[0], "Creator", "human")
    _, watcher_token = await player(node, "Watcher", "human")
    ws = await Ws.open(node, token)
    made = await ws.request({"type": "match.create", "game": "poker-square", "variant": "easy",
                             "seats": 2})
    mid = made["match"]
    other = "r" + mid[1:]  # the same match, under a race's first letter
    r = store.connect(store_url)
    try:
        for old, new in zip(store.match_keys(mid), store.match_keys(other), strict=True):
            await r.restore(new, 0, await r.dump(old))
    finally:
        await r.aclose()
    watcher = await Ws.open(nodes[1], watcher_token)
    await watcher.send({"type": "match.subscribe", "match": other})
    summary = await watcher.expect("match", match=other)
    assert summary["kind"] == "called" and summary["state"] == "open", summary
    assert [p["name"] for p in summary["players"]] == ["Creator"]
    joined = await watcher.request({"type": "match.join", "match": other})
    assert joined["type"] == "match" and joined["match"] == other, joined
    assert len(joined["players"]) == 2
    await watcher.close()
    await ws.close()


# ----- refusals --------------------------------------------------------------------------


async def test_matches_refuse_what_they_cannot_do(node: Node) -> None:
    _, token = await player(node, "Refused", "human")
    _, other_token = await player(node, "Other", "human")
    ws = await Ws.open(node, token)
    other = await Ws.open(node, other_token)
    no = await ws.request({"type": "match.create", "game": "klondike", "variant": "easy",
                           "seats": 2})
    assert no["code"] == "match.game"
    # in players' words, with the games that are played as matches, from the catalog
    assert no["message"].startswith("Klondike is not played as a match"), no
    assert "Bowling" in no["message"] and "Poker Square" in no["message"], no
    no = await ws.request({"type": "match.create", "game": "bowling", "variant": "easy",
                           "seats": 5})
    assert no["code"] == "message.invalid" and "1 to 4" in no["message"]
    no = await ws.request({"type": "match.create", "game": "poker-square", "variant": "easy",
                           "seats": 1})
    assert no["code"] == "message.invalid"
    made = await ws.request({"type": "match.create", "game": "cribbage-square",
                             "variant": "easy", "seats": 3, "start": "manual"})
    mid = made["match"]
    assert (await ws.request({"type": "match.start", "match": mid}))["code"] == "match.too_few"
    assert (await other.request({"type": "match.start", "match": mid}))["code"] == \
        "match.not_creator"
    assert (await ws.request({"type": "match.join", "match": mid}))["code"] == "match.joined"
    assert (await other.request({"type": "match.move", "match": mid, "move": "s-g1"}))[
        "code"] == "match.not_player"
    assert (await ws.request({"type": "match.get", "match": "mnothere"}))["code"] == \
        "match.unknown"
    no = await ws.request({"type": "match.subscribe", "match": "mnothere"})
    assert no["type"] == "error" and no["code"] == "match.unknown"
    rest = Rest(node, token)
    status, body = await rest.call("GET", f"/matches/{mid}/transcript")
    assert status == 409 and body["code"] == "match.not_over"
    status, body = await rest.call("GET", "/matches")
    assert status == 200 and mid in [m["match"] for m in body["matches"]]
    await other.request({"type": "match.join", "match": mid})
    started = await ws.request({"type": "match.start", "match": mid})
    assert started.get("state") == "running" and started["you"]["legal"], started
    no = await ws.request({"type": "match.move", "match": mid, "move": "t1-f1"})
    assert no["code"] == "move.syntax" and no["message"]
    await rest.aclose()
    await ws.close()
    await other.close()
