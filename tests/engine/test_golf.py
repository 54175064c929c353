"""Golf, both variants (docs/rules/golf.md)."""

from __future__ import annotations

import pytest

import engine
from engine.cards import TEXT

from .positions import play, refused

EASY = engine.get("golf", "easy")
HARD = engine.get("golf", "difficult")


@pytest.mark.parametrize(("rules", "cols", "size", "stock"), [(EASY, 7, 5, 17), (HARD, 6, 6, 16)])
def test_deal_shape(rules, cols, size, stock):
    st = rules.deal(b"golf")
    tableau = rules.by_kind["tableau"]
    assert [len(st.piles[t]) for t in tableau] == [size] * cols
    assert all(st.down[t] == 0 for t in tableau)
    assert len(st.piles[rules.stock_pile]) == stock == st.down[rules.stock_pile]
    assert st.piles[rules.pile_index["f"]] == []


def test_any_column_top_starts_the_foundation_then_one_up_or_down_any_suit():
    st = EASY.setup({"t1": "9c", "t2": "Ts", "t3": "8h", "t4": "Qd", "s": "2c"})
    play(st, "t1-f")
    e = refused(st, "t4-f")
    assert (e.code, e.message) == ("build.foundation", "Q♦ can't go on 9♣: a Queen goes on a King"
                                   " or a Jack")
    play(st, "t2-f")
    assert refused(st, "t3-f").code == "build.foundation"


def test_the_first_stock_flip_may_start_the_foundation_and_the_stock_flips_any_time():
    st = EASY.setup({"t1": "9c", "s": "2c 5h"})
    play(st, "s")
    assert [TEXT[c] for c in st.piles[EASY.pile_index["f"]]] == ["5h"]
    assert st.revealed[-1]
    play(st, "s")
    assert [TEXT[c] for c in st.piles[EASY.pile_index["f"]]] == ["5h", "2c"]


def test_no_wrap():
    st = EASY.setup({"t1": "Kc", "t2": "2s", "f": "Ah", "s": "3d"})
    assert refused(st, "t1-f").code == "build.foundation"
    st = EASY.setup({"t1": "Ac", "t2": "Qs", "f": "Kh", "s": "3d"})
    assert refused(st, "t1-f").code == "build.foundation"
    play(st, "t2-f")  # easy: a Queen goes on a King


def test_difficult_kings_end_the_line():
    st = HARD.setup({"t1": "Qc", "t2": "Ac", "f": "Kh", "s": "3d"})
    e = refused(st, "t1-f")
    assert e.message == "Q♣ can't go on K♥: a Queen goes on a Jack"
    assert refused(st, "t2-f").code == "build.foundation"
    st = HARD.setup({"t1": "Kc", "f": "Qh", "s": "3d"})
    play(st, "t1-f")  # a King may still go on a Queen


def test_cards_never_move_between_columns():
    st = EASY.setup({"t1": "9c", "t2": "Ts", "s": "2c"})
    assert refused(st, "t1-t2").code == "target.kind"


def test_score_win_and_loss():
    st = EASY.setup({"t1": "9c", "t2": "Ts", "f": "8h"})
    assert st.score == 2 and st.status == "playing"
    play(st, "t1-f")
    play(st, "t2-f")
    assert st.status == "won" and st.score == 0
    st = EASY.setup({"t1": "9c 2d", "f": "8h"})
    assert st.status == "lost" and st.score == 2
    assert refused(st, "s").code == "game.over"


def test_an_empty_stock_is_refused():
    st = EASY.setup({"t1": "9c", "t2": "5d", "f": "8h"})
    assert refused(st, "s").code == "stock.empty"
