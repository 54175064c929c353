"""The SDK's ``hint`` (asyncio and blocking) against real server processes: a solver hint in
practice, its next move after playing it, the refusal in a race, and game.over."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from clients.sdk import BlockingClient, Client, Hint, ServerError
from tests.conftest import SUITE_ACCOUNTS, start_node, stop_node
from tests.server.client import Node

#: Klondike easy deal 00: the server's solver wins it at once (docs/solver.md).
SEED = "00"


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
async def test_hint_in_practice_and_refused_elsewhere(nodes: list[Node], encoding: str) -> None:
    _, token = await Client.register(nodes[0].url, "HintBot", "bot", encoding=encoding)
    _, rival = await Client.register(nodes[1].url, "Rival", "bot", encoding=encoding)
    async with Client(nodes[0].url, token, encoding=encoding) as c, \
            Client(nodes[1].url, rival, encoding=encoding) as r:
        hopeless = await c.solo("scorpion", "difficult", seed="01")  # lost as dealt
        h = await c.hint(hopeless.id)
        assert h.source == "heuristic" and h.lost and h.move in hopeless.legal
        s = await c.solo("klondike", "easy", seed=SEED)
        h = await c.hint(s.id)
        assert isinstance(h, Hint) and h.source == "solver" and h.move in s.legal
        assert not h.lost
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


@pytest.fixture(scope="module")
def stingy_node(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    """A node that gives each player one hint at once, one more a minute."""
    node, proc = start_node(redis_url, tmp_path_factory.mktemp("stingy") / "node.log",
                            SAMEDEAL_HINT_BURST="1", SAMEDEAL_HINT_PER_MINUTE="1",
                            **SUITE_ACCOUNTS)
    yield node
    stop_node(proc)


async def test_past_the_hint_limit_the_refusal_comes_at_once_and_moves_go_on(
        stingy_node: Node) -> None:
    _, token = await Client.register(stingy_node.url, "Greedy", "bot")
    async with Client(stingy_node.url, token) as c:
        s = await c.solo("klondike", "easy", seed=SEED)
        h = await c.hint(s.id)
        t0 = time.monotonic()
        with pytest.raises(ServerError) as refused:
            await c.hint(s.id)
        assert refused.value.code == "rate.limited" and refused.value.retry_after
        assert refused.value.retry_after > 1
        assert h.move is not None
        await c.move(s.id, h.move, rev=0)  # not held back by the hint limit's wait
        assert time.monotonic() - t0 < 1.0
