"""The SDK's ``analysis`` (asyncio and blocking) against real server processes: a practice
game's once it is over (pending first, then waited for), a race entry's refused while the race
runs, and anyone's after it, without a token."""

from __future__ import annotations

import asyncio

import pytest

from clients.sdk import (
    Analysis,
    AnalysisPending,
    BlockingClient,
    Client,
    Position,
    ServerError,
    TurningPoint,
)
from tests.server.client import Node


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
async def test_analysis_of_a_practice_game_and_of_a_race(nodes: list[Node],
                                                          encoding: str) -> None:
    _, token = await Client.register(nodes[0].url, "Reviewer", "bot", encoding=encoding)
    _, rival = await Client.register(nodes[1].url, "Rival", "bot", encoding=encoding)
    async with Client(nodes[0].url, token, encoding=encoding) as c, \
            Client(nodes[1].url, rival, encoding=encoding) as r:
        s = await c.solo("klondike", "easy", seed="00")
        with pytest.raises(ServerError) as playing:
            await c.analysis(s.id)
        assert playing.value.code == "analysis.not_over" and playing.value.status == 409
        first = s.legal[0]
        s = await c.move(s.id, first)
        await c.resign(s.id)
        with pytest.raises(AnalysisPending) as pending:  # asked for now: not computed yet
            await c.analysis(s.id, wait=0)
        assert pending.value.retry_ms >= 1
        a = await c.analysis(s.id, wait=180)
        assert isinstance(a, Analysis) and a.session == s.id and a.resigned
        assert a.moves == [first]
        assert len(a.positions) == 2 and isinstance(a.positions[0], Position)
        assert a.positions[0].verdict == "won" and a.positions[0].to_go
        # Resigned while the deal was still winnable: said in card words, with the line.
        tp = a.turning_point
        assert isinstance(tp, TurningPoint) and tp.after == "resigned" and tp.better
        assert tp.move == "resign" and tp.to_go == len(tp.better)
        assert a.summary == tp.text and tp.text.startswith(
            f"The game was resigned with the deal still winnable: {tp.better_words} would "
            f"have gone on to win, {len(tp.better)} moves to go.")
        words = tp.better_words  # a card named, or the stock
        assert any(suit in words for suit in "♠♥♦♣") or words == "draw from the stock", words
        race = await c.create_race("klondike", "easy", 2, countdown=0)
        await r.join_race(race.id)
        mine = await c.wait_race_session(race.id, timeout=10)
        theirs = await r.wait_race_session(race.id, timeout=10)
        assert mine is not None and theirs is not None
        await c.resign(mine.id)
        with pytest.raises(ServerError) as hidden:  # the race runs on: no one's to see
            await r.analysis(mine.id)
        assert hidden.value.code == "session.hidden"
        await r.resign(theirs.id)
    async with Client(nodes[1].url, None, encoding=encoding) as anyone:  # no token: public
        done = await anyone.analysis(mine.id, wait=180)
    assert done.status in ("lost", "playing") and done.resigned


async def test_the_blocking_client_waits_for_an_analysis(node: Node) -> None:
    _, token = await Client.register(node.url, "Blocky Reviewer", "bot")

    def run() -> Analysis:
        with BlockingClient(node.url, token) as c:
            s = c.solo("golf", "easy", seed="00")
            c.resign(s.id)
            return c.analysis(s.id, wait=180)

    a = await asyncio.to_thread(run)
    assert a.moves == [] and a.resigned and len(a.positions) == 1
