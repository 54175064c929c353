"""Protocol v2 (docs/protocol.md "Protocol v2"): acks that carry what changed, applied by a
client to the previous revision, equal the full view after every move in every rule set; the
mover's socket gets no race.progress of its own and sees no gap in a race's numbers; a socket
that is behind gets the whole payload."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.typing import Subprotocol

import engine

from .client import (
    ACK_ONLY,
    JSON,
    MSGPACK,
    V2_JSON,
    V2_MSGPACK,
    Node,
    Ws,
    apply_ack,
    player,
)

RULE_SETS = [f"{r.id}/{r.variant}" for r in engine.rule_sets()]


def payload(message: dict[str, Any]) -> dict[str, Any]:
    """A session payload without what the message around it carries."""
    return {k: v for k, v in message.items() if k not in ACK_ONLY}


async def test_v2_is_chosen_when_offered(node: Node) -> None:
    for offered, chosen in (([JSON, V2_JSON], V2_JSON), ([MSGPACK, V2_MSGPACK], V2_MSGPACK),
                            ([V2_JSON, V2_MSGPACK], V2_MSGPACK), ([JSON], JSON),
                            ([MSGPACK], MSGPACK)):
        conn = await websockets.connect(node.ws_url,
                                      subprotocols=[Subprotocol(p) for p in offered])
        assert conn.subprotocol == chosen, (offered, conn.subprotocol)
        await conn.close()


async def play_one(node: Node, token: str, key: str, protocol: str, moves: int,
                   choices: int | None = None) -> int:
    """Random moves (and undos) in one practice game of ``key`` over ``protocol``: after each
    ack, the previous payload with the ack applied is the engine's view of the true game, its
    legal moves and the whole payload ``session.get`` sends. The number of diff acks."""
    game, variant = key.split("/")
    rules = engine.get(game, variant)
    rng = random.Random(key + protocol if choices is None else choices)
    seed = rng.randbytes(16).hex()
    ws = await Ws.open(node, token, protocol)
    current = payload(await ws.request({"type": "solo.start", "game": game,
                                        "variant": variant, "seed": seed}))
    st = rules.deal(bytes.fromhex(seed))
    diffs = 0
    for i in range(moves):
        if current["view"]["status"] != "playing":
            break
        if current["can_undo"] and rng.random() < 0.15:
            ack = await ws.request({"type": "undo", "session": current["session"]})
            st.undo()
        else:
            move = rng.choice(current["legal"])
            ack = await ws.request({"type": "move", "session": current["session"],
                                    "move": move, "rev": current["rev"]})
            st.play(engine.parse_move(rules, move))
        assert ack["type"] == "ack", ack
        diffs += "changes" in ack
        assert "view" not in ack or "changes" not in ack, ack
        assert ack["rev"] == current["rev"] + 1
        assert "seq" not in ack and "cards" not in ack  # a practice game: no race event
        current = apply_ack(current, ack)
        assert current["view"] == st.view(), (key, i, ack)
        assert current["legal"] == [engine.move_text(rules, m) for m in st.legal_moves()]
        if i % 7 == 3 or current["view"]["status"] != "playing":
            full = await ws.request({"type": "session.get", "session": current["session"]})
            assert payload(full) == current, (key, i)
    full = await ws.request({"type": "session.get", "session": current["session"]})
    assert payload(full) == current
    await ws.close()
    return diffs


async def test_acks_applied_to_the_previous_view_are_the_full_view(nodes: list[Node]
                                                                   ) -> None:
    """Every rule set, in both v2 encodings, on both nodes, three games each."""
    _, token = await player(nodes[0], "Diffs")
    gate = asyncio.Semaphore(6)
    jobs = [(key, proto, nodes[n % 2], n) for key in RULE_SETS
            for n, proto in enumerate((V2_JSON, V2_MSGPACK, V2_JSON))]

    async def one(key: str, proto: str, node: Node, n: int) -> int:
        async with gate:
            return await play_one(node, token, key, proto, 40)

    diffs = await asyncio.gather(*(one(*job) for job in jobs))
    assert sum(diffs) > len(jobs) * 5  # diffs it was, not whole payloads


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(RULE_SETS), protocol=st.sampled_from([V2_JSON, V2_MSGPACK]),
       choices=st.integers(0, 2**32), moves=st.integers(1, 120))
def test_any_game_rebuilt_from_acks_is_the_servers(nodes: list[Node], key: str, protocol: str,
                                                   choices: int, moves: int) -> None:
    """Hypothesis picks the rule set, the encoding, the deal and every choice of move or
    undo, and how long to play: the acks rebuild the engine's game and the server's payload."""
    async def run() -> None:
        _, token = await player(nodes[choices % 2], "Prop")
        await play_one(nodes[choices % 2], token, key, protocol, moves, choices)

    asyncio.run(run())


async def test_an_ack_is_whole_when_the_socket_is_behind(node: Node) -> None:
    """Two sockets of one player on one game: the one that did not see the other's move gets
    the whole payload, then diffs again; v1 acks stay whole."""
    _, token = await player(node, "Tabs")
    a = await Ws.open(node, token, V2_JSON)
    b = await Ws.open(node, token, V2_MSGPACK)
    v1 = await Ws.open(node, token, JSON)
    s = payload(await a.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                                 "seed": "ab" * 16}))
    ack = await a.request({"type": "move", "session": s["session"], "move": "s"})
    assert "changes" in ack and "view" not in ack and ack["rev"] == 1
    assert set(ack["changes"]["piles"]) == {"s", "w"}, ack  # only the piles that changed
    assert "mode" not in ack and "commitment" not in ack  # fixed for the session
    s = apply_ack(s, ack)
    other = await b.request({"type": "move", "session": s["session"], "move": "s"})
    assert "view" in other and "changes" not in other, other  # b never had this session
    behind = await a.request({"type": "move", "session": s["session"], "move": "s"})
    assert behind["rev"] == 3 and "view" in behind and "changes" not in behind, behind
    s = apply_ack(s, behind)
    again = await a.request({"type": "undo", "session": s["session"]})
    assert "changes" in again
    s = apply_ack(s, again)
    assert payload(await a.request({"type": "session.get", "session": s["session"]})) == s
    old = await v1.request({"type": "move", "session": s["session"], "move": "s"})
    assert "view" in old and "changes" not in old and "seq" not in old
    for ws in (a, b, v1):
        await ws.close()


async def race(nodes: list[Node], protocols: tuple[str, str]) -> tuple[Ws, Ws, str]:
    _, ta = await player(nodes[0], "Ann")
    _, tb = await player(nodes[1], "Bob")
    a = await Ws.open(nodes[0], ta, protocols[0])
    b = await Ws.open(nodes[1], tb, protocols[1])
    created = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                               "seats": 2, "countdown": 0})
    assert (await b.request({"type": "race.join", "race": created["race"]}))["type"] == "race"
    return a, b, created["race"]


def numbers(ws: Ws, rid: str) -> list[int]:
    """The race's numbers as this socket got them: each event's seq, each ack's seq."""
    return [m["seq"] for m in ws.received
            if (m.get("race") == rid or m.get("session", "").startswith(rid + "."))
            and m.get("type", "").startswith(("race.", "ack")) and "seq" in m]


async def test_the_movers_ack_takes_its_progress_events_place(nodes: list[Node]) -> None:
    """Ann (v2) and Bob (v1) move in turn, on two nodes: Ann's socket never gets her own
    race.progress, her acks carry its number, and her socket's numbers run without a gap
    and in order; Bob gets every event."""
    a, b, rid = await race(nodes, (V2_JSON, JSON))
    mine = {a: payload(await a.expect("session")), b: payload(await b.expect("session"))}
    rng = random.Random("race")
    for _ in range(12):
        for ws in (a, b):
            s = mine[ws]
            if s["view"]["status"] != "playing":
                continue
            ack = await ws.request({"type": "move", "session": s["session"],
                                    "move": rng.choice(s["legal"])})
            assert ack["type"] == "ack", ack
            mine[ws] = apply_ack(s, ack) if ws is a else payload(ack)
            if ws is a:
                assert isinstance(ack["seq"], int) and ack["cards"] >= 0
                assert ack["rev"] == mine[a]["rev"]
    for ws in (a, b):
        if mine[ws]["view"]["status"] == "playing":
            ack = await ws.request({"type": "resign", "session": mine[ws]["session"]})
            mine[ws] = apply_ack(mine[ws], ack) if ws is a else payload(ack)
    await a.expect("race.ended")
    await b.expect("race.ended")
    await a.drain(0.3)
    await b.drain(0.3)
    me = a.received[0]["player"]["id"]
    assert not [m for m in a.received if m.get("type") == "race.progress"
                and m["player"] == me], "v2: no race.progress of your own"
    seen = numbers(a, rid)
    assert seen == list(range(seen[0], seen[-1] + 1)), seen  # in order, no gap
    theirs = [m["seq"] for m in b.received if m.get("race") == rid and "seq" in m
              and m["type"].startswith("race.")]
    assert [n for n in seen if n >= theirs[0]] == theirs  # the same numbers as Bob's
    ours = [m["seq"] for m in b.received if m.get("type") == "race.progress"
            and m["player"] == me]
    assert ours == [m["seq"] for m in a.received if m.get("type") == "ack"]
    for ws in (a, b):
        await ws.close()


async def test_a_dropped_v2_socket_resumes_with_the_whole_session(nodes: list[Node]) -> None:
    """After a drop, a new socket subscribes after the last number it had (an ack's): the
    events since come, then the whole session; the next ack is a diff from it again."""
    a, b, rid = await race(nodes, (V2_MSGPACK, V2_JSON))
    s = payload(await a.expect("session"))
    ack = await a.request({"type": "move", "session": s["session"], "move": s["legal"][0]})
    s = apply_ack(s, ack)
    last = ack["seq"]
    theirs = payload(await b.expect("session"))
    await a.close()
    for _ in range(2):  # Bob plays on while Ann is away
        got = await b.request({"type": "move", "session": theirs["session"],
                               "move": theirs["legal"][-1]})
        theirs = apply_ack(theirs, got)
    token = a.token
    a = await Ws.open(nodes[1], token, V2_JSON)
    await a.send({"type": "race.subscribe", "race": rid, "after": last})
    missed = [await a.expect("race.progress") for _ in range(2)]
    assert [m["seq"] for m in missed] == [last + 1, last + 2]
    resumed = payload(await a.expect("session"))
    assert resumed == {**s, "rev": resumed["rev"]} and resumed["rev"] == s["rev"]
    ack = await a.request({"type": "move", "session": s["session"], "move": s["legal"][0]})
    assert "changes" in ack and ack["seq"] == last + 3, ack
    assert apply_ack(resumed, ack) == payload(await a.request(
        {"type": "session.get", "session": s["session"]}))
    for ws in (a, b):
        await ws.close()


@pytest.mark.parametrize("protocol", [V2_JSON, V2_MSGPACK])
async def test_v2_refusals_are_v1s(node: Node, protocol: str) -> None:
    """The same refusals, codes and messages as v1, with the request's id; nothing
    changes."""
    _, token = await player(node, "Refused")
    ws = await Ws.open(node, token, protocol)
    v1 = await Ws.open(node, token, JSON)
    s = payload(await ws.request({"type": "solo.start", "game": "klondike",
                                  "variant": "easy", "seed": "cd" * 16}))
    sid = s["session"]
    for bad in ({"type": "move", "session": sid, "move": "t1-t1"},
                {"type": "move", "session": sid, "move": "s", "rev": 7},
                {"type": "move", "session": sid, "move": "zz"},
                {"type": "move", "session": sid, "move": {"kind": "move", "from": "t1"}},
                {"type": "undo", "session": sid},
                {"type": "move", "session": "s-nope", "move": "s"},
                {"type": "resign", "session": sid, "rev": "0"}):
        err, old = await ws.request(bad), await v1.request(bad)
        assert err["type"] == "error" and err["id"], err
        assert (err["code"], err["message"]) == (old["code"], old["message"])
    assert payload(await ws.request({"type": "session.get", "session": sid})) == s
    for w in (ws, v1):
        await w.close()


@pytest.mark.both_stores  # one redis-server, then a Redis Cluster (pub/sub per shard)
async def test_numbers_stay_in_order_when_both_entrants_move_at_once(nodes: list[Node]
                                                                     ) -> None:
    """Ann and Bob, both on v2 and on two nodes, each send 30 stock moves without waiting
    for the acks: while a socket's change is handled the other's events keep arriving, and
    each socket still gets its race's numbers, events and acks alike, in order, without a
    gap, and no race.progress of its own. (A deal on which nothing but the stock ever moves
    is lost after its first pass: the moves after that are refused, and the race ends.)"""
    a, b, rid = await race(nodes, (V2_JSON, V2_MSGPACK))
    sessions = {a: (await a.expect("session"))["session"],
                b: (await b.expect("session"))["session"]}

    async def burst(ws: Ws) -> None:
        for i in range(30):
            await ws.send({"type": "move", "session": sessions[ws], "move": "s",
                           "id": 100 + i})

    await asyncio.gather(burst(a), burst(b))
    changes = 0
    for ws in (a, b):
        await ws.drain(1.0)
        replies = [m for m in ws.received if m.get("id") in range(100, 130)]
        assert [r["id"] for r in replies] == list(range(100, 130))
        acks = [r for r in replies if r["type"] == "ack"]
        assert [r["rev"] for r in acks] == list(range(1, len(acks) + 1))
        assert all(r.get("code") == "game.over" for r in replies[len(acks):]), replies
        changes += len(acks)
    ended = any(m.get("type") == "race.ended" for m in a.received)
    assert ended or changes == 60
    for ws in (a, b):
        me = ws.received[0]["player"]["id"]
        seen = numbers(ws, rid)
        assert seen == list(range(seen[0], seen[0] + len(seen))), seen
        assert seen[-1] == 3 + changes + ended, seen  # the start was 3; the changes since
        assert not [m for m in ws.received if m.get("type") == "race.progress"
                    and m["player"] == me]
        await ws.close()
