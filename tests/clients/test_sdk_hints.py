"""The SDK's ``hint`` (asyncio and blocking) against real server processes: a solver hint in
practice, its next move after playing it, the refusal in a race, and game.over."""

from __future__ import annotations

import asyncio

import pytest

from clients.sdk import BlockingClient, Client, Hint, ServerError
from tests.server.client import Node

#: Klondike easy deal 00: the server's solver wins it at once (docs/solver.md).
SEED = "00"


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
async def test_hint_in_practice_and_refused_elsewhere(nodes: list[Node], encoding: str) -> None:
    _, token = await Client.register(nodes[0].url, "HintBot", "bot", encoding=encoding)
    _, rival = await Client.register(nodes[1].url, "Rival", "bot", encoding=encoding)
    async with Client(nodes[0].url, token, encoding=encoding) as c, \
            Client(nodes[1].url, rival, encoding=encoding) as r:
        s = await c.solo("klondike", "easy", seed=SEED)
        h = await c.hint(s.id)
        assert isinstance(h, Hint) and h.source == "solver" and h.move in s.legal
        assert h.rev == 0 and h.hints == 1 and h.line_left is not None
        s = await c.move(s.id, h.move, rev=h.rev)
        nxt = await c.hint(s.id)
        assert nxt.rev == 1 and nxt.line_left == h.line_left - 1 and nxt.move in s.legal
        race = await c.create_race("klondike", "easy", 2, countdown=0)
        await r.join_race(race.id)
        mine = await c.wait_race_session(race.id, timeout=10)
        assert mine is not None
        with pytest.raises(ServerError) as refused:
            await c.hint(mine.id)
        assert refused.value.code == "hint.not_allowed"
        await c.resign(s.id)
        with pytest.raises(ServerError) as over:
            await c.hint(s.id)
        assert over.value.code == "game.over"


async def test_the_blocking_client_hints(node: Node) -> None:
    _, token = await Client.register(node.url, "Blocky", "bot")

    def run() -> Hint:
        with BlockingClient(node.url, token) as c:
            s = c.solo("golf", "easy", seed=SEED)
            h = c.hint(s.id)
            assert h.move in s.legal or h.source == "none"
            return h

    h = await asyncio.to_thread(run)
    assert h.source in ("solver", "heuristic", "none") and h.hints == 1
