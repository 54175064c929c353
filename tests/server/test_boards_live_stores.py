"""Boards published live on both stores: on a Redis Cluster a board write's "changed" message
goes by SPUBLISH to the board's shard, and the watching node's SSUBSCRIBE there hears it."""

from __future__ import annotations

import pytest

from server.daily import daily_rule_sets

from .client import Node
from .test_boards_live import LATE, finish, human, updates_until, watch

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster

GAMES = iter([(r.id, r.variant) for r in daily_rule_sets()][10:20])


async def test_a_watcher_hears_a_result_written_through_the_other_node(
        nodes: list[Node]) -> None:
    game = next(GAMES)
    name = f"daily/today/{game[0]}/{game[1]}"
    pid, token = await human(nodes[1])
    ws = await watch(nodes[1], token, name)
    first = await ws.expect("board.update")
    other, other_token = await human(nodes[0])
    await finish(nodes[0], other_token, game)
    # It comes through the shard's SPUBLISH and SSUBSCRIBE or not at all: the watching node's
    # reader sleeps until the board's "changed" message wakes it.
    got = await updates_until(ws, lambda m: m["total"] == first["total"] + 1, timeout=LATE)
    assert other in {e["player"] for e in got[-1]["entries"]}
    await finish(nodes[1], token, game)  # and the watcher's own entry
    got = await updates_until(ws, lambda m: m["you"] is not None, timeout=LATE)
    assert got[-1]["you"]["player"] == pid
    await ws.close()
