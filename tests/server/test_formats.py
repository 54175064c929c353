"""Every board says which kind it is (docs/fairness.md): live when everyone on it was dealt
at the same instant, open when each was dealt whenever they started."""

from __future__ import annotations

import pytest

from server.boards.formats import board_format

from .client import Node, Rest, Ws, player


@pytest.mark.parametrize(("board", "kind"), [
    ("daily/2026-12-02/klondike/easy", "open"),
    ("weekly/2026-W49/all", "open"),
    ("alltime/klondike/easy", "open"),
    ("streaks/won", "open"),
    ("ghost/gk2m9x4q7hzta", "open"),
    ("league/l4hx9q2mk7rzt/daily/2026-12-02/klondike/easy", "open"),
    ("league/l4hx9q2mk7rzt/weekly/2026-W49", "open"),
    ("arena/a7k2mqz9hx4ds", "live"),
    ("ratings/klondike/easy", "live"),
    ("botratings/klondike/easy", "live"),
    ("live/2026-12-02/klondike/easy", "live"),
])
def test_each_board_is_live_or_open(board: str, kind: str) -> None:
    assert board_format(board) == kind


async def test_a_board_says_its_format_over_rest_and_the_socket(node: Node) -> None:
    _, token = await player(node, "Reader")
    rest = Rest(node, token)
    for board, kind in (("daily/today/klondike/easy", "open"), ("ratings/klondike/easy", "live")):
        status, page = await rest.call("GET", f"/boards/{board}")
        assert status == 200 and page["format"] == kind, page
    await rest.aclose()
    ws = await Ws.open(node, token)
    reply = await ws.request({"type": "board.subscribe", "board": "daily/today/golf/easy"})
    assert reply["type"] == "subscribed", reply
    update = await ws.expect("board.update")
    assert update["format"] == "open", update
    await ws.close()
