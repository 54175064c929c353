"""A match read again. A turns match (server/matches/turns.py's ``replay``) played on from the
match as the node read it before is the match replayed from the deal, card for card, and the
earlier read is left as it was. A called-card match's record and grids are read together
(server/matches/book.py), on a real redis-server, even when another node places between."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import redis
from redis.asyncio import Redis

import engine
from engine import match_forms
from server import store
from server.config import Settings
from server.matches.book import Book
from server.matches.record import Match
from server.matches.turns import FORFEIT, replay

TURNS = [r for r in engine.rule_sets() if r.match is not None and r.match.kind == "turns"]
SEED = bytes.fromhex("5eed5eed")
PLAYERS = 4


def match(rules: engine.RuleSet) -> Match:
    meta = {"players": PLAYERS}
    return Match("m", meta, {}, [], rules, rules.match, SEED, [])  # type: ignore[arg-type]


def entries(rules: engine.RuleSet, rng: random.Random) -> list[bytes]:
    """A whole match's move list, as Redis keeps it, with a bowler leaving halfway."""
    st = rules.deal(SEED, competitive=True, players=PLAYERS)
    out: list[bytes] = []
    while not st.over:
        if len(out) == 40:
            out.append(f"0 2 {FORFEIT}".encode())
            match_forms.turns(rules).forfeit(st, 2)
            continue
        move = rng.choice(st.legal_moves())
        out.append(f"0 {st.turn} {engine.move_text(rules, move)}".encode())
        st.push(move)
    return out


def seen(m: Match) -> tuple[object, ...]:
    assert m.state is not None
    return (m.state.view(), m.state.vars, m.state.ply, m.bowled, m.frame_start, m.entries,
            m.entries_ply)


@pytest.mark.parametrize("rules", TURNS, ids=lambda r: r.key)
def test_a_match_played_on_from_an_earlier_read_is_the_match_replayed(
        rules: engine.RuleSet) -> None:
    moves = entries(rules, random.Random(rules.key))
    assert len(moves) > 60
    whole = match(rules)
    replay(whole, moves)
    assert whole.state is not None and whole.state.over
    for cut in (0, 1, 25, 40, 41, len(moves) - 1, len(moves)):
        before = match(rules)
        replay(before, moves[:cut])
        kept = seen(before)
        after = match(rules)
        replay(after, moves, since=before)
        assert seen(after) == seen(whole), cut
        assert seen(before) == kept, cut  # the earlier read is not played on


@pytest.mark.parametrize("rules", TURNS, ids=lambda r: r.key)
def test_a_read_with_a_card_not_yet_stored_is_replayed_from_the_deal(
        rules: engine.RuleSet) -> None:
    """A node's own placement is made in its read of the match before the store takes it:
    another read meanwhile may not start from that state."""
    moves = entries(rules, random.Random(rules.key))
    before = match(rules)
    replay(before, moves[:30])
    assert before.state is not None
    before.state.push(before.state.legal_moves()[0])  # made, and not in the move list
    whole, after = match(rules), match(rules)
    replay(whole, moves[:31])
    replay(after, moves[:31], since=before)
    assert seen(after) == seen(whole)


class Interleaved(Redis):
    """A real Redis where another node writes (``between``, by a connection of its own) just
    before this client's second pipeline: between the two reads of a match."""

    between: Any = None
    pipelines = 0

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        self.pipelines += 1
        if self.pipelines == 2 and self.between is not None:
            self.between()
        return super().pipeline(transaction, shard_hint)


async def test_a_called_card_match_is_read_whole_when_a_round_ends_meanwhile(
        redis_url: str) -> None:
    """Round 0 of a two-player match, its record read; then both place and round 1 begins
    before the grids are read. Read apart, round 0's record beside round 1's grids waited for
    no one, and the turn timer dropped the match."""
    url = redis_url.rsplit("/", 1)[0] + "/10"  # a database of its own
    mid = "mtorn"
    mk, pk, ek = store.match_keys(mid)
    lists = [store.match_moves(mid, p) for p in ("a", "b")]
    other = redis.Redis.from_url(url)
    other.delete(mk, pk, ek, *lists)
    other.hset(mk, mapping={
        "kind": "called", "game": "poker-square", "variant": "easy", "seats": 2,
        "start": "full", "turn_time": 1, "grace": 60, "creator": "a", "state": "running",
        "seed": "5eed", "commitment": "-", "players": 2, "active": 2, "round": 0,
        "seat:a": 1, "seat:b": 2})
    other.hset(pk, mapping={p: json.dumps({"name": p.upper(), "kind": "human"})
                            for p in ("a", "b")})

    def both_place() -> None:
        for key in lists:
            other.rpush(key, "0 s-g1")
        other.hset(mk, "round", 1)

    client = Interleaved.from_url(url)
    client.between = both_place
    try:
        m = await Book(client, Settings()).load(mid)
        assert m.meta["round"] == 1 and m.awaited() == ["a", "b"], (m.meta, m.awaited())
    finally:
        other.delete(mk, pk, ek, *lists)
        other.close()
        await client.aclose()
