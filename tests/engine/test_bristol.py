"""Bristol, both variants, on hand-built positions (docs/rules/bristol.md)."""

from __future__ import annotations

import pytest

import engine

from .positions import cards as pile
from .positions import play, refused

EASY = engine.get("bristol", "easy")
HARD = engine.get("bristol", "difficult")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_eight_columns_of_three_and_the_stock(rules):
    seed = b"bristol"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    ix = rules.pile_index
    for i in range(8):  # deck order kept: no Kings-to-bottom step
        assert st.piles[ix[f"t{i + 1}"]] == deck[3 * i : 3 * i + 3]
        assert st.down[ix[f"t{i + 1}"]] == 0
    s = ix["s"]
    assert len(st.piles[s]) == st.down[s] == 28
    assert st.piles[s][-1] == deck[24]  # the next card drawn
    assert all(not st.piles[ix[w]] for w in ("w1", "w2", "w3", "f1", "f2", "f3", "f4"))
    assert st.view()["piles"]["s"] == {"down": 28, "up": []}


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_stock_deals_one_card_to_each_waste_and_the_last_to_the_first(rules):
    seed = b"bristol"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    play(st, "s")
    assert [st.piles[rules.pile_index[w]] for w in ("w1", "w2", "w3")] == [
        [deck[24]], [deck[25]], [deck[26]]]
    assert st.revealed[-1]
    for _ in range(8):
        play(st, "s")
    assert [len(st.piles[rules.pile_index[w]]) for w in ("w1", "w2", "w3")] == [9, 9, 9]
    play(st, "s")  # 28 = 9 x 3 + 1: the last card goes to the leftmost waste pile
    assert [len(st.piles[rules.pile_index[w]]) for w in ("w1", "w2", "w3")] == [10, 9, 9]
    assert st.piles[rules.pile_index["w1"]][-1] == deck[51]
    e = refused(st, "s")
    assert e.code == "stock.redeals"  # no redeal


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_columns_build_down_in_any_suit(rules):
    st = rules.setup({"t1": "7h", "t2": "8h", "t3": "6c", "t4": "Ks", "t5": "Ad", "s": "2c"})
    play(st, "t1-t2")
    assert pile(st, "t2") == ["8h", "7h"]
    e = refused(st, "t2-t3")  # up is refused
    assert e.code == "build.tableau"
    assert e.message == "7♥ can't go on 6♣: a 7 goes on an 8"
    assert refused(st, "t5-t4").code == "build.tableau"  # no wrap


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_only_top_cards_of_columns_and_wastes_play(rules):
    st = rules.setup({"t1": "8h 7s", "t2": "9d", "w1": "6d 8c", "t3": "9c", "s": "2c"})
    assert refused(st, "t1:2-t2").code == "unit.top"
    assert refused(st, "w1:2-t3").code == "unit.top"
    play(st, "w1-t3")
    assert pile(st, "w1") == ["6d"]
    play(st, "w1-t1")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_wastes_are_filled_only_from_the_stock(rules):
    st = rules.setup({"t1": "5c", "w1": "8c", "w2": "", "s": "2c"})
    assert refused(st, "t1-w2").code == "target.kind"
    assert refused(st, "w1-w2").code == "target.kind"


def test_easy_empty_columns_cannot_be_filled():
    st = EASY.setup({"t1": "5c Kh", "t2": "", "w1": "Qd", "s": "2c"})
    e = refused(st, "t1-t2")
    assert e.code == "fill.none" and e.message == "an empty column can't be filled"
    assert refused(st, "w1-t2").code == "fill.none"


def test_difficult_empty_columns_take_kings():
    st = HARD.setup({"t1": "5c Kh", "t2": "", "w1": "Qd", "t3": "Js", "s": "2c"})
    assert refused(st, "w1-t2").code == "fill.king"
    play(st, "t1-t2")
    play(st, "w1-t2")
    assert pile(st, "t2") == ["Kh", "Qd"]


def test_easy_foundations_build_up_regardless_of_suit():
    st = EASY.setup({"t1": "2h", "t2": "3s", "t3": "5c", "w1": "Ac", "s": "2c"})
    assert refused(st, "t3-f1").code == "fill.base"
    play(st, "w1-f1")
    play(st, "t1-f1")
    play(st, "t2-f1")
    assert pile(st, "f1") == ["Ac", "2h", "3s"]


def test_difficult_foundations_build_up_in_suit():
    st = HARD.setup({"t1": "2h", "t2": "2c", "w1": "Ac", "s": "3c"})
    play(st, "w1-f1")
    e = refused(st, "t1-f1")
    assert e.code == "build.foundation" and e.message == "2♥ can't go on A♣: the 2♥ goes on the A♥"
    play(st, "t2-f1")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_no_card_leaves_a_foundation(rules):
    st = rules.setup({"f1": "Ac", "t1": "5h", "s": "2c"})
    assert refused(st, "f1-t1").code == "source.fixed"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_win_and_score(rules):
    piles = {f"f{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK" if f"{r}{s}" != "Kh")
             for i, s in enumerate("cdhs")}
    piles["w2"] = "Kh"
    st = rules.setup(piles)
    assert st.score == 51 and st.status == "playing"
    play(st, "w2-f3")
    assert st.status == "won" and st.score == 52


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_stock_deal_is_useful_while_the_stock_lasts(rules):
    st = rules.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "6h", "s": "Jc"})
    assert st.status == "playing"
    play(st, "s")
    assert st.status == "lost"  # stock empty, the A♣ can never be freed


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_lost_when_cards_only_shuttle_between_columns(rules):
    st = rules.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "6h", "w1": "Jd"})
    assert rules.legal_moves(st)  # 5♣ can go to and fro between the 6s
    assert st.status == "lost"


def test_alive_when_a_waste_card_will_find_a_place():
    st = EASY.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "6h", "w1": "4d", "w2": "Td"})
    assert st.status == "playing"  # 4♦ can go onto the 5♣
    st = EASY.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "Th", "w1": "8d"})
    assert st.status == "playing"  # 5♣ to t2, then the 9♠ onto the 10♥ takes the 8♦...
    play(st, "t1-t2")
    play(st, "t1-t3")
    play(st, "t1-f1")  # ...and frees the A♣


def test_difficult_lost_in_easy_alive_through_a_king_space():
    pos = {"t1": "Ac Kd", "t2": "", "t3": "8c", "w1": "Jd"}
    assert EASY.setup(pos).status == "lost"
    st = HARD.setup(pos)
    assert st.status == "playing"
    play(st, "t1-t2")
    play(st, "t1-f1")
