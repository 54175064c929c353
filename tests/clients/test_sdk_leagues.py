"""The SDK's leagues (clients/sdk/leagues.py) against two real server processes: a league made
through one node and joined through the other, its daily board watched live as a member's
result lands, its week board, a wrong code, removal and leaving."""

from __future__ import annotations

import time

import pytest

from clients.sdk import Client, ServerError
from clients.sdk.leagues import league_daily_board, league_week_board
from server.daily import daily_rule_sets
from tests.server.client import Node

# A rule set no other test uses for its daily board (past the middle of the list).
GAME = next((r.id, r.variant) for r in daily_rule_sets()[42:])


@pytest.mark.parametrize("encoding", ["msgpack"])
async def test_a_league_through_the_sdk(nodes: list[Node], encoding: str) -> None:
    ann, ann_token = await Client.register(nodes[0].url, "Ann", "human", encoding=encoding)
    bob, bob_token = await Client.register(nodes[1].url, "Bob", "human", encoding=encoding)
    async with Client(nodes[0].url, ann_token, encoding=encoding) as a, \
            Client(nodes[1].url, bob_token, encoding=encoding) as b:
        made = await a.create_league("SDK club")
        lid = made["league"]
        joined = await b.join_league(made["code"])
        assert [m["player"] for m in joined["members"]] == [ann["id"], bob["id"]]
        assert [x["league"] for x in await b.leagues()] == [lid]
        with pytest.raises(ServerError) as wrong:
            await b.join_league("not-a-code")
        assert wrong.value.code == "league.unknown" and wrong.value.status == 404

        watch = await b.watch_league_board(lid, *GAME)
        assert watch.board.startswith(f"league/{lid}/daily/20")
        first = await watch.next(5)
        assert first.total == 0
        s = await a.start_daily(*GAME)
        await a.resign(s.id)
        deadline = time.monotonic() + 10
        u = await watch.next(5)
        while u.total < 1 and time.monotonic() < deadline:
            u = await watch.next(5)
        assert [e["player"] for e in u.entries] == [ann["id"]]
        await watch.close()
        week = await b.league_board(lid)
        assert week.board.startswith(f"league/{lid}/weekly/")
        assert (week.entries[0]["player"], week.entries[0]["points"]) == (ann["id"], 10)

        removed = await a.remove_from_league(lid, bob["id"])
        assert [m["player"] for m in removed["members"]] == [ann["id"]]
        with pytest.raises(ServerError) as gone:
            await b.league(lid)
        assert gone.value.code == "league.unknown"
        assert (await a.leave_league(lid))["closed"] is True
        assert await a.leagues() == []
    assert league_daily_board("l1", "golf", "easy") == "league/l1/daily/today/golf/easy"
    assert league_week_board("l1", "2026-W48") == "league/l1/weekly/2026-W48"
