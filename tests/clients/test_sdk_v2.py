"""The Python SDK on protocol v2 against real server processes: it is offered and chosen, the
acks' changes are applied so every call still returns the whole session, and in a race your
own progress event, which v2 does not send you, is made from the ack in its place."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clients.sdk import Client, RaceEnded, RaceEvent, RaceProgress
from tests.server.client import Node

ENCODINGS = ["json", "msgpack"]
RULE_SETS = [("klondike", "easy"), ("spiderette", "easy"), ("golf", "easy"),
             ("pyramid", "easy"), ("eight-off", "easy"), ("slide", "easy")]


def spy(c: Client) -> list[dict[str, Any]]:
    """Every message the client reads, as it came off the socket (before the SDK's own
    reading of it)."""
    frames: list[dict[str, Any]] = []
    read = c._dispatch

    def dispatch(msg: dict[str, Any], ws: Any = None) -> None:
        frames.append(dict(msg))
        read(msg, ws)

    c._dispatch = dispatch  # type: ignore[method-assign]
    return frames


@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_moves_return_the_whole_session_from_v2_acks(node: Node, encoding: str) -> None:
    _, token = await Client.register(node.url, "Diff", "bot", encoding=encoding)
    async with Client(node.url, token, encoding=encoding) as c:
        assert c._ws is not None and c._ws.subprotocol == f"samedeal.v2.{encoding}"
        frames = spy(c)
        rng = random.Random(encoding)
        reads = 0
        for game, variant in RULE_SETS:
            s = await c.solo(game, variant, seed=rng.randbytes(8).hex())
            for i in range(30):
                if s.over:
                    break
                if s.can_undo and rng.random() < 0.2:
                    s = await c.undo(s.id)
                else:
                    s = await c.move(s.id, rng.choice(s.legal), rev=s.rev)
                if i % 5 == 0 or s.over:
                    reads += 1
                    read = await c.session(s.id)
                    assert (s.rev, s.view, s.legal, s.safe, s.can_undo, s.seed) == (
                        read.rev, read.view, read.legal, read.safe, read.can_undo, read.seed)
        acks = [f for f in frames if f["type"] == "ack"]
        assert acks and all("changes" in f and "view" not in f for f in acks), "v2 diffs"
        sessions = [f for f in frames if f["type"] == "session"]
        assert len(sessions) == len(RULE_SETS) + reads, "applied, never read again"


async def test_a_move_after_another_tabs_returns_the_session_as_it_is(node: Node) -> None:
    """Two clients of one player take turns on one game: each ack whose previous revision
    the socket never had comes whole; every call returns the true session."""
    _, token = await Client.register(node.url, "Tabs", "bot")
    async with Client(node.url, token) as one, Client(node.url, token) as two:
        s = await one.solo("klondike", "easy", seed="0a")
        for i in range(6):
            c = (one, two)[i % 2]
            s = await c.move(s.id, s.legal[0])
            assert s.rev == i + 1
            read = await c.session(s.id)
            assert (s.view, s.legal) == (read.view, read.legal)


async def test_your_own_progress_is_made_from_the_ack(nodes: list[Node]) -> None:
    """The server sends a v2 mover no race.progress of its own; the SDK's event stream still
    has it, numbered as the ack says, with no gap or repeat."""
    _, ta = await Client.register(nodes[0].url, "Ann", "bot")
    bob_player, tb = await Client.register(nodes[1].url, "Bob", "bot", encoding="msgpack")
    b_id = bob_player["id"]
    async with Client(nodes[0].url, ta) as ann, Client(nodes[1].url, tb,
                                                      encoding="msgpack") as bob:
        frames = spy(ann)
        race = await ann.create_race("golf", "easy", 2, countdown=0)
        await bob.join_race(race.id)
        sa = await ann.wait_race_session(race.id, timeout=10)
        sb = await bob.wait_race_session(race.id, timeout=10)
        assert sa is not None and sb is not None
        for _ in range(5):
            if not sa.over:
                sa = await ann.move(sa.id, sa.legal[0])
            if not sb.over:
                sb = await bob.move(sb.id, sb.legal[0])
        for c, s in ((ann, sa), (bob, sb)):
            if not s.over:
                await c.resign(s.id)
        await ann.wait_race_end(race.id, timeout=30)
        seen = []
        while not seen or not isinstance(seen[-1], RaceEnded):
            seen.append(await ann.next_event(timeout=10))
        me = ann.player["id"] if ann.player else ""
        assert not [f for f in frames if f["type"] == "race.progress" and f["player"] == me]
        acked = [f["seq"] for f in frames if f["type"] == "ack"]
        mine = [e for e in seen if isinstance(e, RaceProgress) and e.player == me]
        assert [e.seq for e in mine] == acked and len(acked) >= 2
        assert mine[-1].status != "playing" and mine[0].moves == 1
        seqs = [e.seq for e in seen if isinstance(e, RaceEvent)]
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), "no gap, no repeat"
        assert {e.player for e in seen if isinstance(e, RaceProgress)} == {me, b_id}
