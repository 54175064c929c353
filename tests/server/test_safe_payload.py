"""The session payload's `safe` moves (the foundation moves a client may play for the player)
and its `created` time (what a resumed game's timer counts from), from a real server."""

from __future__ import annotations

import hashlib
import time

import engine
from engine.safe import safe_moves

from .client import Node, Rest, Ws, player

KLONDIKE = engine.get("klondike", "easy")


def seed_with_an_ace_up() -> bytes:
    """A deal with an Ace face up in a column, so a safe move exists at the deal."""
    for i in range(1000):
        seed = hashlib.sha256(b"ace %d" % i).digest()
        if safe_moves(KLONDIKE.deal(seed)):
            return seed
    raise AssertionError("no deal with an Ace up")


def texts(st: engine.State) -> list[str]:
    return [engine.move_text(st.rules, m) for m in safe_moves(st)]


async def test_safe_moves_come_with_every_session_payload(node: Node) -> None:
    _, token = await player(node, "Ann", "human")
    ws = await Ws.open(node, token)
    seed = seed_with_an_ace_up()
    before = int(time.time() * 1000)
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": seed.hex()})
    st = KLONDIKE.deal(seed)
    assert s["safe"] == texts(st) and s["safe"]
    assert set(s["safe"]) <= set(s["legal"])
    assert abs(s["created"] - before) < 60_000  # server time of the deal, ms
    # After each acknowledged move the list is the new position's.
    for _ in range(3):
        move = s["safe"][0] if s["safe"] else s["legal"][-1]
        s = await ws.request({"type": "move", "session": s["session"], "move": move,
                              "rev": s["rev"]})
        st.play(engine.parse_move(KLONDIKE, move))
        assert s["type"] == "ack" and s["safe"] == texts(st)
    # A later read (a reload) gives the same deal time, by WebSocket and by REST.
    again = await ws.request({"type": "session.get", "session": s["session"]})
    assert again["created"] == s["created"] and again["safe"] == s["safe"]
    rest = Rest(node, token)
    status, body = await rest.call("GET", f"/sessions/{s['session']}")
    assert status == 200 and body["created"] == s["created"] and body["safe"] == s["safe"]
    await rest.aclose()
    await ws.close()


async def test_games_where_nothing_is_safe_send_an_empty_list(node: Node) -> None:
    _, token = await player(node, "Bob", "human")
    ws = await Ws.open(node, token)
    s = await ws.request({"type": "solo.start", "game": "golf", "variant": "easy"})
    assert s["legal"] and s["safe"] == []
    await ws.close()
