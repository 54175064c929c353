"""Lady Betty: the shown stock card to six piles or a foundation; foundations up in suit."""

from __future__ import annotations

import engine
from engine import parse_move
from engine.cards import TEXT
from engine.deal import shuffled_deck

LB = engine.get("lady-betty", "standard")
SEED = b"lady betty test"


def code(st, text):
    why = st.refusal(parse_move(LB, text))
    return why.code if why else None


def cards(st, name):
    return [TEXT[c] for c in st.piles[LB.pile_index[name]]]


def test_one_variant_six_piles_four_foundations():
    assert LB.variants == ("standard",)
    assert LB.pile_names == ["t1", "t2", "t3", "t4", "t5", "t6", "f1", "f2", "f3", "f4", "s"]


def test_deal_is_all_cards_in_the_stock_with_its_top_card_shown():
    st = LB.deal(SEED)
    s = LB.stock_pile
    assert st.piles[s] == shuffled_deck(SEED)[::-1]
    assert st.down[s] == 51
    assert all(not st.piles[p] for p in range(len(st.piles)) if p != s)
    view = st.view()
    assert view["piles"]["s"] == {"down": 51, "up": [TEXT[shuffled_deck(SEED)[0]]]}


def test_the_stock_card_goes_on_any_pile_whatever_lies_there():
    st = LB.setup({"t1": "Kh", "t2": "2s", "s": "3d 5c"}, down={"s": 1})
    for t in LB.by_kind["tableau"]:
        assert st.refusal(engine.Move("move", LB.stock_pile, t)) is None
    st.play(parse_move(LB, "s-t1"))
    assert cards(st, "t1") == ["Kh", "5c"]
    assert st.down[LB.stock_pile] == 0 and st.revealed[-1]


def test_the_stock_card_goes_straight_to_a_foundation_when_it_fits():
    st = LB.setup({"f1": "Ac", "s": "4d 2c"}, down={"s": 1})
    assert code(st, "s-f1") is None
    assert code(st, "s-f2") == "fill.base"
    st = LB.setup({"f1": "Ac", "s": "2d 3c"}, down={"s": 1})
    assert code(st, "s-f1") == "build.foundation"
    st = LB.setup({"s": "2d Ah"}, down={"s": 1})
    assert code(st, "s-f3") is None  # any Ace to any empty foundation


def test_pile_tops_go_to_the_foundations_in_suit():
    st = LB.setup({"f1": "Ac 2c", "t1": "3c", "t2": "3d", "t3": "4c 3h", "s": "9s"})
    assert code(st, "t1-f1") is None
    assert code(st, "t2-f1") == "build.foundation"
    assert code(st, "t3-f1") == "build.foundation"
    assert code(st, "t3:2-f1") == "unit.top"


def test_cards_never_move_between_piles():
    st = LB.setup({"t1": "3c", "t2": "4d", "s": "9s"})
    assert code(st, "t1-t2") == "target.kind"
    assert code(st, "t1-t3") == "target.kind"  # a space is filled only from the stock
    st = LB.setup({"f1": "Ac", "s": "9s"})
    assert code(st, "f1-t1") == "source.fixed"  # nothing leaves a foundation


def test_the_stock_button_does_nothing_here():
    assert code(LB.deal(SEED), "s") == "stock.play"


def test_won_lost_and_score():
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQK") for i, s in enumerate("cdhs")}
    piles["f3"] = piles["f3"][:-3]
    piles["s"] = "Kh"
    st = LB.setup(piles, down={"s": 0})
    assert st.score == 51 and st.status == "playing"
    st.play(parse_move(LB, "s-f3"))
    assert st.status == "won" and st.score == 52
    st = LB.setup({"f1": "Ac", "t1": "3c 2c", "t2": "5h"})
    assert st.status == "playing"
    st.play(parse_move(LB, "t1-f1"))
    st.play(parse_move(LB, "t1-f1"))
    assert st.status == "lost" and st.score == 3  # stock out, 5h can't go anywhere
