"""bench/integrity.py run short: its scripted pair of accounts is found by the server's own
evidence, and its players are flagged as the full run reports them."""

from __future__ import annotations

from bench import integrity
from tests.server.test_chain import empty_database


async def test_the_scripted_pair_is_found_and_flagged(redis_url: str) -> None:
    pairs = await integrity.pair_evidence(await empty_database(redis_url), 2)
    assert [(e["linked"], e["linked_early"]) for e in pairs] == [(1, 1), (1, 1)]
    assert [a["via"] for a in pairs[0]["linked_attempts"]] == [["client", "origin"]]
    scouted = integrity.run("klondike/easy", "peek+pair", 2, pairs)
    assert scouted["flagged"] == 2 and scouted["reasons"]["scouted"] == 2, scouted
    honest = integrity.run("klondike/easy", "greedy", 2, pairs)
    assert honest["flagged"] == 0, honest
