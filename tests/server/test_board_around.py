"""`around=me` on a board, over REST and the WebSocket of a real server: a player whose attempt
is still going gets the first page and `"you": null`, not an error; once on the board, the
page around them and their rank."""

from __future__ import annotations

from .client import Node, Rest, Ws, player

BOARD = "daily/today/klondike/difficult"


async def on_the_board(node: Node) -> str:
    """A player who played today's attempt to the end (resigned): their id."""
    pid, token = await player(node, "Early")
    rest = Rest(node, token)
    status, s = await rest.call("POST", "/daily", {"game": "klondike", "variant": "difficult"})
    assert status == 201, s
    status, ack = await rest.call("POST", f"/sessions/{s['session']}/resign", {})
    assert status == 200, ack
    await rest.aclose()
    return pid


async def test_around_me_before_ones_attempt_ends_is_the_first_page(node: Node) -> None:
    early = await on_the_board(node)
    pid, token = await player(node, "Late")
    rest = Rest(node, token)
    status, s = await rest.call("POST", "/daily", {"game": "klondike", "variant": "difficult"})
    assert status == 201 and s["ranked"] is True, s

    status, top = await rest.call("GET", f"/boards/{BOARD}?kind=bot&count=5")
    assert status == 200 and top["total"] >= 1 and "you" not in top, top
    status, page = await rest.call("GET", f"/boards/{BOARD}?kind=bot&count=5&around=me")
    assert status == 200, page
    assert page["you"] is None
    assert page["entries"] == top["entries"] and page["entries"][0]["rank"] == 1
    assert all(e["player"] != pid for e in page["entries"])

    ws = await Ws.open(node, token)
    reply = await ws.request({"type": "board.get", "board": BOARD, "kind": "bot",
                              "around": "me", "count": 5})
    assert reply["type"] == "board" and reply["you"] is None, reply
    assert reply["entries"] == top["entries"]

    # Another player named by id is a lookup: one who has no entry is still refused.
    status, err = await rest.call("GET", f"/boards/{BOARD}?kind=bot&around={pid}")
    assert status == 404 and err["code"] == "board.absent", err
    status, theirs = await rest.call("GET", f"/boards/{BOARD}?kind=bot&around={early}")
    assert status == 200 and "you" not in theirs
    assert any(e["player"] == early for e in theirs["entries"])

    status, ack = await rest.call("POST", f"/sessions/{s['session']}/resign", {})
    assert status == 200, ack
    status, page = await rest.call("GET", f"/boards/{BOARD}?kind=bot&count=3&around=me")
    assert status == 200, page
    mine = [e for e in page["entries"] if e["player"] == pid]
    assert len(mine) == 1 and page["you"] == mine[0]["rank"], page
    await ws.close()
    await rest.aclose()
