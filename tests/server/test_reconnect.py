"""A client that drops mid-race and comes back, to the other node, misses nothing."""

from __future__ import annotations

from typing import Any

from .client import Node, Ws, player
from .test_hidden import race_of_two


async def moves(ws: Ws, session: dict[str, Any], n: int) -> dict[str, Any]:
    for _ in range(n):
        session = await ws.request({"type": "move", "session": session["session"],
                                    "move": session["legal"][0]})
        assert session["type"] == "ack", session
    return session


async def test_reconnect_to_the_other_node_replays_the_missed_events(
        nodes: list[Node]) -> None:
    a, b, rid = await race_of_two(nodes[0], nodes[1], "golf", "easy")
    sa, sb = await a.expect("session"), await b.expect("session")
    sa = await moves(a, sa, 2)
    await a.expect("race.progress", moves=2, player=sa["session"].split(".")[1])
    last_seq = max(m["seq"] for m in a.received if "seq" in m)
    await a.close()

    sb = await moves(b, sb, 5)  # five events Ann is not there to see
    back = await Ws.open(nodes[1], a.token)
    await back.send({"type": "race.subscribe", "race": rid, "after": last_seq})
    session = await back.expect("session")
    assert session["view"] == sa["view"] and session["rev"] == sa["rev"]
    missed = [m for m in back.received if m.get("type", "").startswith("race.")]
    assert [m["seq"] for m in missed] == list(range(last_seq + 1, last_seq + 6))
    assert [m["moves"] for m in missed] == [1, 2, 3, 4, 5]
    # The game goes on from where it was, on the other node.
    after = await moves(back, session, 1)
    assert after["rev"] == sa["rev"] + 1
    progress = await b.expect("race.progress", moves=3, player=sa["session"].split(".")[1])
    assert progress["seq"] == last_seq + 6
    await back.close()
    await b.close()


async def test_a_gap_beyond_the_event_window_gets_a_full_resync(strict_node: Node) -> None:
    """The strict node keeps only the last 4 events: a longer absence resyncs the race."""
    a, b, rid = await race_of_two(strict_node, strict_node, "golf", "easy")
    sa, sb = await a.expect("session"), await b.expect("session")
    await a.close()
    sb = await moves(b, sb, 6)
    back = await Ws.open(strict_node, a.token)
    await back.send({"type": "race.subscribe", "race": rid, "after": 1})
    summary = await back.expect("race")
    assert summary["race"] == rid and summary["state"] == "running"
    bob = next(e for e in summary["entrants"] if e["session"] == sb["session"])
    assert bob["moves"] == 6 and bob["score"] == sb["view"]["score"]
    assert summary["seq"] == 9  # two joins, the start, six moves
    assert (await back.expect("session"))["view"] == sa["view"]
    # No event from before the resync follows it.
    await back.drain()
    assert not [m for m in back.pending("race.progress") if m["seq"] <= summary["seq"]]
    await back.close()
    await b.close()


async def test_subscribing_without_a_number_sends_the_whole_race(nodes: list[Node]) -> None:
    a, b, rid = await race_of_two(nodes[0], nodes[1], "klondike", "difficult")
    _, c_token = await player(nodes[1], "Cat", "human")
    watcher = await Ws.open(nodes[1], c_token)
    await watcher.send({"type": "race.subscribe", "race": rid})
    summary = await watcher.expect("race")
    assert summary["state"] == "running" and len(summary["entrants"]) == 2
    assert "seed" not in summary
    sa = await a.expect("session")
    await moves(a, sa, 1)
    progress = await watcher.expect("race.progress")
    assert progress["seq"] == summary["seq"] + 1
    assert not watcher.pending("session"), "a spectator has no session"
    for ws in (a, b, watcher):
        await ws.close()
