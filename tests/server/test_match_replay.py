"""A turns match read again (server/matches/turns.py's ``replay``): played on from the match as
the node read it before, it is the match replayed from the deal, card for card, and the
earlier read is left as it was."""

from __future__ import annotations

import random

import pytest

import engine
from engine import match_forms
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
