"""Castile on hand-built positions (docs/rules/castile.md)."""

from __future__ import annotations

import engine
from engine.cards import TEXT

from .positions import play, refused

RULES = engine.get("castile", "standard")


def test_one_variant():
    assert [r.variant for r in engine.rule_sets() if r.id == "castile"] == ["standard"]


def test_deal_ten_columns_of_five_then_two_cells():
    seed = b"castile"
    deck = engine.shuffled_deck(seed)
    st = RULES.deal(seed)
    assert [st.piles[t] for t in range(10)] == [deck[i * 5 : i * 5 + 5] for i in range(10)]
    assert st.piles[RULES.pile_index["c1"]] == [deck[50]]
    assert st.piles[RULES.pile_index["c2"]] == [deck[51]]
    assert sum(st.down) == 0 and st.score == 0
    assert st.view()["piles"]["c2"]["up"] == [TEXT[deck[51]]]


def test_columns_build_up_or_down_in_suit_without_wrap():
    st = RULES.setup({"t1": "8s", "t2": "9s", "t3": "7s", "t4": "9h", "t5": "Ks", "t6": "As"})
    e = refused(st, "t1-t4")
    assert (e.code, e.message) == ("build.tableau",
                                   "8♠ can't go on 9♥: the 8♠ goes on the 9♠ or the 7♠")
    play(st, "t1-t2")
    play(st, "t3-t2")  # 7s on 8s: down
    assert refused(st, "t5-t6").code == "build.tableau"
    assert refused(st, "t6-t5").code == "build.tableau"


def test_single_card_moves_only():
    st = RULES.setup({"t1": "6s 7s", "t2": "8s"})
    assert refused(st, "t1:2-t2").code == "unit.top"


def test_cells_take_a_column_card_when_empty():
    st = RULES.setup({"t1": "5c 4d", "c1": "Jh", "t2": "6h"})
    e = refused(st, "t1-c1")
    assert (e.code, e.message) == ("target.full", "a cell holds at most 1 card")
    play(st, "t1-c2")
    assert refused(st, "c2-c1").code == "target.kind"
    play(st, "c1-t3")  # any card fills an empty column, from a cell too
    play(st, "t1-t4")  # or from a column


def test_foundations_start_with_aces_and_build_in_suit():
    st = RULES.setup({"t1": "2h", "c1": "Ah", "t2": "2s"})
    assert refused(st, "t1-f1").code == "fill.base"
    play(st, "c1-f1")
    assert refused(st, "t2-f1").code == "build.foundation"
    play(st, "t1-f1")
    assert refused(st, "f1-t1").code == "source.fixed"
    assert st.score == 2


def test_win_and_score():
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQ")
             for i, s in enumerate("cdhs")}
    piles.update({"t1": "Kc", "c1": "Kd", "c2": "Kh", "t10": "Ks"})
    st = RULES.setup(piles)
    for m in ("t1-f1", "c1-f2", "c2-f3"):
        play(st, m)
    assert st.status == "playing"
    play(st, "t10-f4")
    assert st.status == "won" and st.score == 52


def test_lost_when_no_useful_move_is_left():
    cols = {f"t{i + 1}": c for i, c in enumerate("2c 4c 6c 8c Tc Qc 2d 4d 6d 8d".split())}
    st = RULES.setup({**cols, "c1": "Kh", "c2": "Jh"})
    assert st.legal_moves() == [] and st.status == "lost" and st.score == 0
    del cols["t10"]
    st = RULES.setup({**cols, "c1": "Kh", "c2": "Jh"})
    assert st.status == "playing"  # a cell's card may fill the empty column
