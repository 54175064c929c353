"""A change sent again with the revision it was made at (its reply lost) is answered as made,
once stored; a real conflict is refused with the session's revision and changes nothing. The
same over WebSocket v1, v2 and REST (docs/protocol.md "move, undo, resign")."""

from __future__ import annotations

from typing import Any

import pytest

from .client import JSON, V2_MSGPACK, Node, Rest, Ws, player

SEED = "00"  # klondike easy: t7-t1 and s are legal at the deal, and undoable
WAYS = pytest.mark.parametrize("way", ["v1", "v2", "rest"])


class Player:
    """One player's practice game, its changes sent one way (``v1``, ``v2`` or ``rest``);
    every reply as a message (a REST refusal as an ``error``), and reads over REST."""

    def __init__(self, way: str, rest: Rest, ws: Ws | None) -> None:
        self.way, self.rest, self.ws = way, rest, ws
        self.sid = ""

    @classmethod
    async def start(cls, node: Node, way: str) -> Player:
        _, token = await player(node, "Retrier")
        ws = None if way == "rest" else await Ws.open(node, token,
                                                      JSON if way == "v1" else V2_MSGPACK)
        p = cls(way, Rest(node, token), ws)
        start = {"game": "klondike", "variant": "easy", "seed": SEED}
        if ws is not None:
            s = await ws.request({"type": "solo.start", **start})
        else:
            _, s = await p.rest.call("POST", "/solo", start)
        p.sid = s["session"]
        return p

    async def send(self, op: str, **fields: Any) -> dict[str, Any]:
        if self.ws is not None:
            return await self.ws.request({"type": op, "session": self.sid, **fields})
        path = {"move": "moves", "undo": "undo", "resign": "resign"}[op]
        status, body = await self.rest.call("POST", f"/sessions/{self.sid}/{path}", fields)
        if status != 200:
            assert status == 409 or body["code"] != "conflict", (status, body)
            return {"type": "error", **body}
        return {"type": "ack", **body}

    async def session(self) -> dict[str, Any]:
        status, s = await self.rest.call("GET", f"/sessions/{self.sid}")
        assert status == 200, s
        return dict(s)

    async def moves(self) -> list[str]:
        status, t = await self.rest.call("GET", f"/sessions/{self.sid}/moves")
        assert status == 200, t
        return list(t["moves"])

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.rest.aclose()


def made_before(reply: dict[str, Any], now: dict[str, Any]) -> None:
    """``reply`` answers a change made before: the whole current session, marked."""
    assert reply["type"] == "ack" and reply.get("repeated") is True, reply
    assert "changes" not in reply and "seq" not in reply, reply
    whole = {k: v for k, v in reply.items() if k not in ("type", "id", "repeated")}
    assert whole == now, (whole, now)


def conflict(reply: dict[str, Any], rev: int) -> None:
    assert reply["type"] == "error" and reply["code"] == "conflict", reply
    assert reply["rev"] == rev and f"revision {rev}" in reply["message"], reply


@WAYS
async def test_the_same_move_sent_twice_is_played_once(node: Node, way: str) -> None:
    p = await Player.start(node, way)
    first = await p.send("move", move="t7-t1", rev=0)
    assert first["type"] == "ack" and first["rev"] == 1 and "repeated" not in first, first
    made_before(await p.send("move", move="t7-t1", rev=0), await p.session())
    # the same move in its other notation is the same move
    made_before(await p.send("move", move={"kind": "move", "from": "t7", "to": "t1"}, rev=0),
                await p.session())
    assert await p.moves() == ["t7-t1"]
    # played on since: the move still stands, and the answer is the session now
    assert (await p.send("move", move="s", rev=1))["rev"] == 2
    again = await p.send("move", move="t7-t1", rev=0)
    made_before(again, await p.session())
    assert again["rev"] == 2 and await p.moves() == ["t7-t1", "s"]
    await p.close()


@WAYS
async def test_another_move_at_a_stale_rev_is_a_conflict_that_changes_nothing(
        node: Node, way: str) -> None:
    p = await Player.start(node, way)
    assert (await p.send("move", move="t7-t1", rev=0))["rev"] == 1
    before = await p.session()
    conflict(await p.send("move", move="s", rev=0), 1)
    conflict(await p.send("move", move="t3-f1", rev=0), 1)
    conflict(await p.send("move", move="t7-t1", rev=5), 1)  # a revision yet to come
    conflict(await p.send("move", move="t1-t1", rev=0), 1)  # no move at all, never made
    assert await p.session() == before and await p.moves() == ["t7-t1"]
    await p.close()


@WAYS
async def test_a_move_undone_then_replaced_or_replayed_is_a_conflict(node: Node,
                                                                     way: str) -> None:
    p = await Player.start(node, way)
    assert (await p.send("move", move="t7-t1", rev=0))["rev"] == 1
    assert (await p.send("undo"))["rev"] == 2
    assert (await p.send("move", move="s", rev=2))["rev"] == 3  # a different move, index 0
    conflict(await p.send("move", move="t7-t1", rev=0), 3)
    assert (await p.send("undo"))["rev"] == 4
    assert (await p.send("move", move="t7-t1", rev=4))["rev"] == 5  # the same one, replayed
    conflict(await p.send("move", move="t7-t1", rev=0), 5)  # the one made at 1 was undone
    made_before(await p.send("move", move="t7-t1", rev=4), await p.session())
    assert await p.moves() == ["t7-t1"]
    await p.close()


@WAYS
async def test_an_undo_or_a_resign_sent_again_is_answered_as_made(node: Node,
                                                                  way: str) -> None:
    p = await Player.start(node, way)
    assert (await p.send("move", move="t7-t1", rev=0))["rev"] == 1
    assert (await p.send("move", move="s", rev=1))["rev"] == 2
    undone = await p.send("undo", rev=2)
    assert undone["rev"] == 3 and "repeated" not in undone, undone
    made_before(await p.send("undo", rev=2), await p.session())  # not a second undo
    assert await p.moves() == ["t7-t1"]
    conflict(await p.send("undo", rev=1), 3)  # revision 2 was a move, not an undo
    conflict(await p.send("resign", rev=2), 3)  # revision 3 was an undo, not a resign
    resigned = await p.send("resign", rev=3)
    assert resigned["type"] == "ack" and resigned["rev"] == 4, resigned
    assert (await p.session())["view"]["status"] == "lost"
    made_before(await p.send("resign", rev=3), await p.session())
    assert await p.moves() == ["t7-t1", "resign"]
    refused = await p.send("resign")  # without rev: a resign of a game over, as before
    assert refused["type"] == "error" and refused["code"] == "game.over", refused
    await p.close()


async def test_a_race_move_sent_again_is_answered_as_made_without_an_event(
        node: Node) -> None:
    """In a race the first sending made the race.progress event; the repeat makes none, and
    its v2 ack stands for none (no ``seq``)."""
    _, a = await player(node, "Ann")
    _, b = await player(node, "Bob")
    wa, wb = await Ws.open(node, a, V2_MSGPACK), await Ws.open(node, b, JSON)
    race = await wa.request({"type": "race.create", "game": "klondike", "variant": "easy",
                             "seats": 2, "countdown": 0, "time_limit": 60})
    await wb.request({"type": "race.join", "race": race["race"]})
    sid = (await wa.expect("session"))["session"]
    move = {"type": "move", "session": sid, "move": "s", "rev": 0}
    first = await wa.request(move)
    assert first["type"] == "ack" and first["rev"] == 1 and first["seq"] > 0, first
    await wb.expect("race.progress", seq=first["seq"])
    again = await wa.request(move)
    now = await wa.request({"type": "session.get", "session": sid})
    made_before(again, {k: v for k, v in now.items() if k not in ("type", "id")})
    for ws in (wa, wb):
        await ws.drain(0.5)
    assert not wb.pending("race.progress") and not wa.pending("race.progress")
    for ws in (wa, wb):
        await ws.close()
