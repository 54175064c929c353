"""A Bowling frame's placements on two real server nodes: while a frame is being bowled, no
placement of it (its pin, a card, pins down, balls, scores) reaches anyone but its bowler, in
events, replays on reconnection, summaries, REST reads or a spectator's socket, checked in the
bytes each socket received; once every bowler has bowled it (or left), it shows to all."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from .client import JSON, MSGPACK, V2_JSON, V2_MSGPACK, Node, Rest, Ws, cards_in, player

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster

MOVE_TEXT = re.compile(r"s-[pb][0-9]")  # any placement's text: s-p3, s-b1
PINS = [f"p{i}" for i in range(1, 11)]


class RawWs(Ws):
    """A socket that keeps the bytes of every frame it receives, beside the message."""

    def __init__(self, conn: Any, protocol: str) -> None:
        super().__init__(conn, protocol)
        self.frames: list[bytes] = []

    async def _next(self, timeout: float) -> dict[str, Any]:
        data = await asyncio.wait_for(self.conn.recv(), timeout)
        if self.protocol.endswith("msgpack"):
            assert isinstance(data, bytes)
            message = msgpack.unpackb(data)
            self.frames.append(data)
        else:
            assert isinstance(data, str)
            message = json.loads(data)
            self.frames.append(data.encode())
        self.received.append(message)
        return message


def strings(value: Any) -> Iterator[str]:
    """Every string a message holds, its keys too."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def blind(raw: bytes, cards: set[str]) -> bool:
    """Whether a frame names no placement and none of ``cards``: every string its bytes
    decode to, keys and values, read whole. (Not the bytes themselves: a msgpack integer's
    bytes can spell a card, as a turn deadline's ``00 00 01 a2 4b 68`` spelled the K♥.)"""
    message = json.loads(raw) if raw[:1] == b"{" else msgpack.unpackb(raw)
    texts = set(strings(message))
    return not any(MOVE_TEXT.search(t) for t in texts) and not texts & cards


def untouched(view: dict[str, Any], frame: int) -> None:
    """The lane as everyone sees it during ``frame``: as it began, face down, no pin down and
    no ball of the frame on any scorecard."""
    assert view["info"]["frame"] == frame
    assert all(view["piles"][p] == {"down": 0, "up": []} for p in PINS), view["piles"]
    assert not view["piles"]["s"]["up"] and view["piles"]["s"]["down"] == 52
    assert view["info"]["ball"] == 1 and view["info"]["pins"] == 0
    for b in view["info"]["bowlers"]:
        assert b["frames"][frame - 1]["balls"] == [], b


def check_summary(s: dict[str, Any], frame: int, me: str | None) -> None:
    """A summary read while ``frame`` is being bowled: complete frames only, the lane as the
    frame began, and nothing of the frame but the reader's own (``own_frame``)."""
    assert [f["frame"] for f in s["frames"]] == list(range(1, frame))
    untouched(s["view"], frame)
    if "own_frame" in s:
        assert s["own_frame"]["player"] == me and s["own_frame"]["frame"] == frame
    rest = {k: v for k, v in s.items() if k not in ("frames", "you", "own_frame")}
    assert not MOVE_TEXT.search(json.dumps(rest)) and not cards_in(rest), rest


async def next_event(ws: Ws, mid: str, after: int, timeout: float = 20) -> dict[str, Any]:
    """The match's next numbered event after ``after`` that is not someone coming or going."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for i, m in enumerate(ws._buffer):
            if (m.get("match") == mid and m.get("seq", 0) > after and m["type"] != "match"
                    and m["type"] not in ("match.away", "match.back", "match.you")):
                return ws._buffer.pop(i)
        ws._buffer.append(await ws._next(max(0.01, deadline - loop.time())))


async def own_lane(ws: Ws, seq: int) -> dict[str, Any]:
    """The bowler's ``match.you`` for the event numbered ``seq`` (or later)."""
    you = await ws.expect("match.you")
    while you["as_of"] < seq:
        you = await ws.expect("match.you")
    return you


def turn_messages(ws: RawWs, since: int) -> list[tuple[str, int]]:
    """What ``ws`` received from ``since`` on, as (type, seq), leaving out someone coming
    or going (the reconnections) and the replies to the test's own reads."""
    return [(m["type"], m["seq"]) for m in ws.received[since:]
            if m.get("type") not in ("match.away", "match.back", "match", "match.you")]


def check_blind(ws: RawWs, me: str | None, since: int = 0, cards: frozenset[str] = frozenset()
                ) -> None:
    """Every frame ``ws`` received from ``since`` on that tells of a placement of a frame not
    yet complete, someone else's, names neither its pin nor any of ``cards`` (the frame's
    cards already bowled by others), in its bytes; own lanes (``match.you``) are the
    reader's, and summaries are checked whole by ``check_summary``."""
    for raw, m in zip(ws.frames[since:], ws.received[since:], strict=True):
        if m.get("type") == "match.you" or "frames" in m or m.get("player") == me:
            continue
        assert blind(raw, set(cards)), (me, m.get("type"), raw[:300])


async def seat_all(socks: list[RawWs], spy: RawWs, mid: str) -> dict[str, Any]:
    """The spectator follows match ``mid`` and the other bowlers join it, which starts it:
    ``match.started`` as the last of them got it."""
    await spy.send({"type": "match.subscribe", "match": mid})
    await spy.expect("match")
    for ws in socks[1:]:
        assert (await ws.request({"type": "match.join", "match": mid}))["type"] == "match"
    for ws in [*socks, spy]:
        current = await ws.expect("match.started")
    return current


async def test_no_bowler_sees_a_frame_before_bowling_it_on_two_nodes(nodes: list[Node]) -> None:
    """Four bowlers, alternately on each node, JSON and msgpack; a spectator following the
    match, another watching the match's rating board, a third reading over REST. Two frames
    are bowled. Before each bowler's turn, what their socket received since the frame began
    names no placement and no card of the earlier bowlers; each sees them all in the event
    that completes the frame. Mid-frame, two bowlers reconnect to the other node, one
    replaying the frame's events from its start and one from a full resync."""
    rng = random.Random("bowling-frames")
    ids, tokens, socks = [], [], []
    for i in range(4):
        pid, token = await player(nodes[i % 2], f"Lane{i + 1}", "human")
        ids.append(pid)
        tokens.append(token)
        socks.append(await RawWs.open(nodes[i % 2], token, MSGPACK if i in (1, 2) else JSON))
    spy_id, spy_token = await player(nodes[1], "Spectator", "human")
    spy = await RawWs.open(nodes[1], spy_token, MSGPACK)
    board = await RawWs.open(nodes[0], spy_token)
    spy_rest = Rest(nodes[0], spy_token)

    created = await socks[0].request({"type": "match.create", "game": "bowling",
                                      "variant": "difficult", "seats": 4, "turn_time": 120})
    mid = created["match"]
    sub = await board.request({"type": "board.subscribe", "board": "ratings/bowling/difficult"})
    assert sub["type"] == "subscribed", sub
    current = await seat_all(socks, spy, mid)
    watchers: list[RawWs] = [*socks, spy]
    who: list[str | None] = [*ids, None]
    untouched(current["view"], 1)

    truth: dict[int, list[dict[str, Any]]] = {}  # frame -> per bowler, the cards as bowled
    counts: list[int] = []  # the cards each turn took
    for frame in (1, 2):
        begun = current["seq"]  # the event the frame began with
        mark = [len(ws.frames) for ws in watchers]
        bowled: list[set[str]] = [set() for _ in range(4)]  # each bowler's cards of the frame
        lanes: list[dict[str, Any]] = []
        last: list[dict[str, Any]] = []
        while current["turn"] is not None and current["view"]["info"]["frame"] == frame:
            k = current["turn"]["bowler"] - 1
            if not lanes or lanes[-1]["bowler"] != k + 1:
                # bowler k+1's turn in this frame begins: nothing of the earlier bowlers'
                # frame reached them, nor anyone still to bowl, nor the spectators
                earlier = frozenset(set().union(*bowled[:k]))
                for j, ws in enumerate(watchers):
                    if j >= k:  # the bowlers before k+1 bowled it: their own is theirs
                        check_blind(ws, who[j], mark[j], earlier)
                if frame == 2 and k == 2:
                    socks[0], socks[3] = await reconnect(nodes, mid, begun, current["seq"],
                                                         tokens, ids, socks, bowled, spy)
                    watchers[0], watchers[3] = socks[0], socks[3]
                    mark[0], mark[3] = len(socks[0].frames), len(socks[3].frames)
                status, read = await spy_rest.call("GET", f"/matches/{mid}")
                assert status == 200 and "you" not in read and "own_frame" not in read
                check_summary(read, frame, spy_id)
                status, early = await spy_rest.call("GET", f"/matches/{mid}/transcript")
                assert status == 409 and early["code"] == "match.not_over", early
                lanes.append({"bowler": k + 1, "player": ids[k], "cards": []})
            you = await own_lane(socks[k], current["seq"])
            for b in you["view"]["info"]["bowlers"]:  # their lane: nobody else's frame
                assert b["bowler"] == k + 1 or b["frames"][frame - 1]["balls"] == [], b
            turn_marks = [len(ws.frames) for ws in watchers]
            later = socks[(k + 1) % 4] if k < 3 else spy  # someone still to bowl it, or not
            status, at_start = await spy_rest.call("GET", f"/matches/{mid}")
            assert status == 200
            got_start = await later.request({"type": "match.get", "match": mid})
            got_start.pop("id")
            while True:
                card = you["view"]["piles"]["s"]["up"][0]
                move = rng.choice(you["legal"])
                ack = await socks[k].request({"type": "match.move", "match": mid, "move": move})
                assert ack["type"] == "match.ack", ack
                bowled[k].add(card)
                lanes[-1]["cards"].append({"card": card, "move": move})
                if "you" not in ack:
                    break
                # the turn is kept: the card is no event, and what anyone else reads of the
                # match is what they read when the turn began (seq, rev, the turn's deadline)
                assert ack["seq"] == at_start["seq"] and ack["rev"] == at_start["rev"], ack
                assert ack["turn"] == at_start["turn"] and ack["you"]["deadline"] >= (
                    you["deadline"]), ack
                you = ack["you"]
                status, read = await spy_rest.call("GET", f"/matches/{mid}")
                assert (status, read) == (200, at_start)
                got = await later.request({"type": "match.get", "match": mid})
                assert got.pop("id") and got == got_start
            counts.append(len(lanes[-1]["cards"]))
            last = [await next_event(ws, mid, current["seq"]) for ws in watchers]
            for j, event in enumerate(last):
                assert event["type"] == "match.moved" and event["player"] == ids[k], event
                if "frames" not in event:  # the last pin: the bowler's own, nobody else's
                    assert event["move"] == (move if j == k else None), (j, event)
                    untouched(event["view"], frame)
                if j != k:  # one message for the whole turn, however many cards it took
                    assert turn_messages(watchers[j], turn_marks[j]) == [
                        ("match.moved", event["seq"])], (j, counts)
            current = last[-1]
            assert current["seq"] == at_start["seq"] + 1
            if "frames" not in current:  # the bowler sees their own frame as they left it
                mine = await socks[k].request({"type": "match.get", "match": mid})
                check_summary(mine, frame, ids[k])
                assert mine["own_frame"]["cards"] == lanes[-1]["cards"], mine
        truth[frame] = lanes
        # the frame is over: the event that completed it shows it to all, bowler by bowler
        assert [f["frame"] for f in current["frames"]] == [frame], current
        assert current["frames"][0]["bowlers"] == lanes
        assert all(event["frames"] == current["frames"] for event in last)
        status, read = await spy_rest.call("GET", f"/matches/{mid}")
        assert status == 200 and [f["bowlers"] for f in read["frames"]] == [
            truth[f] for f in range(1, frame + 1)]

    assert min(counts) < max(counts), counts  # turns of different lengths looked the same
    # the board watcher was told nothing of the lane; over all, every frame each socket
    # received told of nobody else's placement before its frame was complete
    await board.drain(0.3)
    assert all(blind(raw, set()) for raw in board.frames)
    for j, ws in enumerate(watchers):
        await ws.drain(0.3)
        check_blind(ws, who[j])
    await spy_rest.aclose()
    for ws in [*watchers, board]:
        await ws.close()


async def reconnect(nodes: list[Node], mid: str, begun: int, now: int, tokens: list[str],
                    ids: list[str], socks: list[RawWs], bowled: list[set[str]], spy: RawWs
                    ) -> tuple[RawWs, RawWs]:
    """Mid-frame (bowlers 1 and 2 have bowled it): bowler 1, who has, and bowler 4, who has
    not, drop and come back on the other node. Bowler 4 resumes after ``begun``, the event
    the frame began with, so the event window replays the frame's turns up to ``now``: one
    event each, told only that the turn passed. Bowler 1 resyncs in full: the summary holds
    the complete frames and, as ``own_frame``, their own cards of this one."""
    await socks[3].close()
    await spy.expect("match.away", player=ids[3])  # gone before back: one away, one back
    back4 = await RawWs.open(nodes[0], tokens[3], MSGPACK)
    await back4.send({"type": "match.subscribe", "match": mid, "after": begun})
    replayed = [await next_event(back4, mid, begun)]
    while replayed[-1]["seq"] < now:
        replayed.append(await next_event(back4, mid, replayed[-1]["seq"]))
    moved = [m for m in replayed if m["type"] == "match.moved"]
    assert {m["type"] for m in replayed} <= {"match.moved", "match.away", "match.back"}
    # one event a turn, however many cards it took, and none shown
    assert [m["player"] for m in moved] == ids[:2], replayed
    assert all(m["move"] is None for m in moved), replayed
    assert "match" not in [m.get("type") for m in back4.received]  # the window, no resync
    check_blind(back4, ids[3], 0, frozenset(bowled[0] | bowled[1]))

    await socks[0].close()
    await spy.expect("match.away", player=ids[0])
    back1 = await RawWs.open(nodes[1], tokens[0], JSON)
    await back1.send({"type": "match.subscribe", "match": mid})
    summary = await back1.expect("match")
    check_summary(summary, 2, ids[0])
    assert {c["card"] for c in summary["own_frame"]["cards"]} == bowled[0]
    for pid in (ids[0], ids[3]):  # both back before the next turn's reads
        await spy.expect("match.back", player=pid)
    return back1, back4


async def test_a_frame_shows_once_the_bowlers_still_to_bowl_it_have_left(
        nodes: list[Node]) -> None:
    """Three bowlers and a spectator. Bowler 2 leaves halfway through frame 1: the frame is
    not complete (bowler 3 is still to bowl it), so bowler 2's cards stay theirs until bowler
    3 has bowled. In frame 2 bowler 3, the last to bowl it, leaves halfway: that completes
    the frame, and the leaving shows it to all. The transcript at the end has every card."""
    rng = random.Random("bowling-leavers")
    ids, socks = [], []
    for i in range(3):
        pid, token = await player(nodes[i % 2], f"Leaver{i + 1}", "human")
        ids.append(pid)
        socks.append(await RawWs.open(nodes[(i + 1) % 2], token, JSON if i else MSGPACK))
    _, spy_token = await player(nodes[0], "Onlooker", "human")
    spy = await RawWs.open(nodes[0], spy_token)
    mid = (await socks[0].request({"type": "match.create", "game": "bowling", "variant": "easy",
                                   "seats": 3, "turn_time": 120}))["match"]
    current = await seat_all(socks, spy, mid)
    watchers: list[RawWs] = [*socks, spy]
    who: list[str | None] = [*ids, None]
    made: list[str] = []  # the transcript's moves, in order

    async def bowl(k: int, cards: int | None) -> list[dict[str, Any]]:
        """Bowler k+1 places ``cards`` cards (``None``: their whole frame): only the card
        that passes the turn is an event."""
        nonlocal current
        placed: list[dict[str, Any]] = []
        you = await own_lane(socks[k], current["seq"])
        while cards is None or len(placed) < cards:
            move = rng.choice(you["legal"])
            ack = await socks[k].request({"type": "match.move", "match": mid, "move": move})
            assert ack["type"] == "match.ack", ack
            placed.append({"card": you["view"]["piles"]["s"]["up"][0], "move": move})
            made.append(move)
            if "you" not in ack:  # the turn passed
                for ws in watchers:
                    event = await next_event(ws, mid, current["seq"])
                current = event
                break
            assert ack["seq"] == current["seq"], ack  # a card that keeps the turn: no event
            you = ack["you"]
        return placed

    async def leave(k: int) -> list[dict[str, Any]]:
        nonlocal current
        assert (await socks[k].request({"type": "match.leave", "match": mid}))["type"] == "match"
        made.append("forfeit")
        events = [await next_event(ws, mid, current["seq"]) for ws in watchers]
        assert {e["type"] for e in events} == {"match.forfeit"}
        current = events[-1]
        return events

    mark = [len(ws.frames) for ws in watchers]
    one = await bowl(0, None)
    two = await bowl(1, 3)
    left = await leave(1)
    assert all("frames" not in e for e in left)  # bowler 3 is still to bowl frame 1
    assert current["turn"]["bowler"] == 3
    untouched(current["view"], 1)
    earlier = frozenset(c["card"] for c in one + two)
    check_blind(socks[2], ids[2], mark[2], earlier)  # nothing of bowlers 1 and 2
    check_blind(spy, None, mark[3], earlier)
    check_blind(socks[0], ids[0], mark[0], frozenset(c["card"] for c in two))
    three = await bowl(2, None)
    assert current["frames"][0]["bowlers"] == [
        {"bowler": b + 1, "player": ids[b], "cards": cards}
        for b, cards in enumerate((one, two, three))]

    mark = [len(ws.frames) for ws in watchers]
    one = await bowl(0, None)
    three = await bowl(2, 2)
    check_blind(socks[0], ids[0], mark[0], frozenset(c["card"] for c in three))
    check_blind(spy, None, mark[3], frozenset(c["card"] for c in one + three))
    for event in await leave(2):  # the last still to bowl frame 2 left: it is complete
        assert event["frames"] == [{"frame": 2, "bowlers": [
            {"bowler": 1, "player": ids[0], "cards": one},
            {"bowler": 3, "player": ids[2], "cards": three}]}], event
    await leave(0)
    ended = await next_event(spy, mid, current["seq"])
    assert ended["type"] == "match.ended"
    rest = Rest(nodes[1])
    status, transcript = await rest.call("GET", f"/matches/{mid}/transcript")
    await rest.aclose()
    assert status == 200 and [m["move"] for m in transcript["moves"]] == made
    for j, ws in enumerate(watchers):
        await ws.drain(0.3)
        check_blind(ws, who[j])
        await ws.close()


async def test_a_turn_is_one_event_however_many_cards_and_the_bowlers_devices_follow_it(
        nodes: list[Node]) -> None:
    """Protocol v2 too: bowler A plays on one node and follows on another device on the other
    node; bowler B and a spectator follow. Each card that keeps A's turn reaches A's other
    device as ``match.you`` and nobody else at all; B and the spectator get one event a turn.
    Then, with a short turn, the timer's card that keeps the turn goes the same way."""
    rng = random.Random("bowling-devices")
    a_id, a_token = await player(nodes[0], "Devices", "human")
    _, b_token = await player(nodes[1], "Other", "human")
    _, spy_token = await player(nodes[0], "Looker", "human")

    async def open_match(turn_time: int) -> tuple[str, list[RawWs], dict[str, Any]]:
        a1 = await RawWs.open(nodes[0], a_token, JSON)
        a2 = await RawWs.open(nodes[1], a_token, V2_MSGPACK)
        b = await RawWs.open(nodes[1], b_token, V2_JSON)
        spy = await RawWs.open(nodes[0], spy_token, V2_MSGPACK)
        mid = (await a1.request({"type": "match.create", "game": "bowling", "variant": "easy",
                                 "seats": 2, "turn_time": turn_time}))["match"]
        for ws in (a2, spy):
            await ws.send({"type": "match.subscribe", "match": mid})
            await ws.expect("match")
        assert (await b.request({"type": "match.join", "match": mid}))["type"] == "match"
        socks = [a1, a2, b, spy]
        for ws in socks:
            started = await ws.expect("match.started")
        assert started["turn"]["player"] == a_id
        return mid, socks, started

    mid, (a1, a2, b, spy), current = await open_match(120)
    counts = []
    for _ in range(2):  # A's frames 1 and 2, each a turn
        marks = [len(ws.received) for ws in (b, spy)]
        you = await own_lane(a1, current["seq"])
        cards = 0
        while True:
            ack = await a1.request({"type": "match.move", "match": mid,
                                    "move": rng.choice(you["legal"])})
            assert ack["type"] == "match.ack", ack
            cards += 1
            if "you" not in ack:
                break
            you = ack["you"]
            # A's other device, on the other node, has A's next card; nobody else anything
            other = await a2.expect("match.you", deadline=you["deadline"])
            assert other["view"] == you["view"] and other["as_of"] == current["seq"]
        counts.append(cards)
        for ws in (a2, b, spy):
            event = await next_event(ws, mid, current["seq"])
            assert event["type"] == "match.moved" and event["seq"] == current["seq"] + 1
            assert (event["move"] is None) == (ws is not a2), event  # the last pin: A's
        for ws, mark in zip((b, spy), marks, strict=True):  # one message, whatever the count
            assert turn_messages(ws, mark) == [("match.moved", current["seq"] + 1)], cards
        current = event
        b_you = await own_lane(b, current["seq"])  # B bowls the frame whole
        while True:
            ack = await b.request({"type": "match.move", "match": mid,
                                   "move": rng.choice(b_you["legal"])})
            if "you" not in ack:
                break
            b_you = ack["you"]
        for ws in (a1, a2, b, spy):  # B's last card completes the frame: frames to all
            done = await next_event(ws, mid, current["seq"])
            assert "frames" in done, done
        current = done
    assert max(counts) > 1, counts  # a turn kept at least once (a frame has two balls)
    for ws in (a1, a2, b, spy):
        await ws.close()

    # the timer's card that keeps the turn: A's devices get A's next card, B nothing
    mid, (a1, a2, b, spy), started = await open_match(2)
    first = await own_lane(a2, started["seq"])
    timed = await a2.expect("match.you", timeout=15)
    assert timed["as_of"] == started["seq"] and timed["deadline"] > first["deadline"]
    assert timed["view"]["piles"]["s"]["up"] != first["view"]["piles"]["s"]["up"]
    rest = Rest(nodes[1])
    status, read = await rest.call("GET", f"/matches/{mid}")
    await rest.aclose()
    if status == 200 and read["seq"] == started["seq"]:  # A's turn still: no event since
        assert read["turn"] == started["turn"] and read["rev"] == 0, read
        await b.drain(0.2)
        assert not [m for m in b.received if m.get("type") == "match.moved"]
    for ws in (a1, a2, b, spy):
        await ws.close()
