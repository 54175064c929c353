"""What the two square games share for called-card matches: the timer's placement and the
score with the match's common starter (docs/rules/decisions.md#called-card-matches)."""

from __future__ import annotations

import pytest

import engine
from engine.core import IllegalMove
from engine.games.cribbage_square import hand_score

SQUARES = [engine.get(g, v) for g in ("poker-square", "cribbage-square")
           for v in ("easy", "difficult")]


@pytest.mark.parametrize("rules", SQUARES, ids=lambda r: r.key)
def test_the_timer_fills_the_waste_then_the_first_empty_cell(rules):
    st = rules.deal(b"called")
    names = rules.pile_names
    waste = rules.by_kind.get("waste", [])
    room = rules.pile_group[waste[0]].capacity if waste else 0
    placed = []
    while not st.over:
        m = rules.timer_move(st)
        placed.append(names[m.dst])
        st.play(m)
    cells = [names[g] for g in rules.by_kind["grid"]]
    assert placed == ["w"] * room + cells  # the waste first, then the cells in order
    with pytest.raises(IllegalMove) as e:
        rules.timer_move(st)
    assert e.value.code == "game.over"


def test_the_timer_takes_a_free_cell_between_filled_ones():
    rules = engine.get("poker-square", "difficult")
    st = rules.deal(b"gap")
    st.play(engine.parse_move(rules, "s-g1"))
    st.play(engine.parse_move(rules, "s-g3"))
    assert engine.move_text(rules, rules.timer_move(st)) == "s-g2"


def test_cribbage_scores_a_grid_with_the_matchs_starter():
    rules = engine.get("cribbage-square", "difficult")
    st = rules.deal(b"starter")
    while not st.over:
        st.play(rules.timer_move(st))
    own = rules.starter(st)
    assert rules.scored(st, own) == (st.score, rules.info(st))
    grid = [st.piles[g][0] for g in rules.by_kind["grid"]]
    lines = [grid[r * 4:r * 4 + 4] for r in range(4)] + [grid[c::4] for c in range(4)]
    for starter in {own, *(c for c in range(52) if c not in grid)}:
        heels = 2 if engine.cards.RANK[starter] == 11 else 0
        total, info = rules.scored(st, starter)
        assert total == sum(hand_score(tuple(line), starter) for line in lines) + heels
        assert info["starter"] == engine.cards.TEXT[starter]
    total, info = rules.scored(st)  # before the starter is known
    assert total == sum(hand_score(tuple(line)) for line in lines)
    assert info["starter"] is None


def test_poker_scores_the_same_whatever_the_starter():
    rules = engine.get("poker-square", "easy")
    st = rules.deal(b"poker")
    while not st.over:
        st.play(rules.timer_move(st))
    assert rules.scored(st, 5) == rules.scored(st) == (st.score, rules.info(st))
