"""Eagle Wing, both variants, on hand-built positions (docs/rules/eagle-wing.md)."""

from __future__ import annotations

import pytest

import engine
from engine.cards import RANK, TEXT

from .positions import cards, play, refused

EASY = engine.get("eagle-wing", "easy")
HARD = engine.get("eagle-wing", "difficult")
KINGS = {"t5": "Kd", "t6": "Kc", "t7": "Kh", "t8": "Ks"}


@pytest.mark.parametrize(("rules", "size"), [(EASY, 14), (HARD, 17)])
def test_deal_eight_columns_then_squared_reserve_then_base_card_then_stock(rules, size):
    seed = b"eagle deal"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    ix = rules.pile_index
    assert [st.piles[ix[f"t{i}"]] for i in range(1, 9)] == [[c] for c in deck[:8]]
    assert st.piles[ix["r"]] == deck[8 : 8 + size] and st.down[ix["r"]] == size - 1
    assert st.piles[ix["f1"]] == [deck[8 + size]]
    assert st.vars["base"] == RANK[deck[8 + size]]
    assert len(st.piles[ix["s"]]) == 52 - 9 - size
    assert st.piles[ix["s"]][-1] == deck[9 + size]
    assert st.view()["piles"]["r"] == {"down": size - 1, "up": [TEXT[deck[7 + size]]]}


def test_columns_build_down_in_suit_and_wrap():
    st = EASY.setup({"t1": "7h", "t2": "8s", "t3": "8h", "t4": "Ah", "r": "Kh", "t8": "Ks"})
    e = refused(st, "t1-t2")
    assert e.code == "build.tableau"
    assert e.message == "7♥ can't go on 8♠: the 7♥ goes on the 8♥"
    play(st, "r-t4")  # K on A: the columns wrap
    assert cards(st, "t4") == ["Ah", "Kh"]
    play(st, "t1-t3")


def test_a_column_holds_at_most_three_cards():
    st = EASY.setup({"t1": "9s 8s 7s", "t2": "6s", "t3": "Jh Th", "t4": "9h 8h", "r": "2c",
                     **KINGS})
    e = refused(st, "t2-t1")
    assert e.code == "target.full" and e.message == "a column holds at most 3 cards"
    assert refused(st, "t4:2-t3").code == "target.full"


def test_the_top_card_or_the_whole_packed_set_moves():
    st = EASY.setup({"t1": "9s 8s 7s", "t2": "8d", "t3": "Ts", "t4": "4c", "r": "2c",
                     "f1": "5s 6s"}, base=5)
    assert refused(st, "t1:2-t2").code == "unit.whole"
    play(st, "t1-f1")
    play(st, "t1:2-t3")
    assert cards(st, "t3") == ["Ts", "9s", "8s"]


def test_an_emptied_column_fills_from_the_reserve_at_once():
    st = EASY.setup({"t1": "6s", "t2": "8d", "t3": "Ts", "t4": "4c", "r": "3h Jd",
                     "f1": "5s"}, down={"r": 1}, base=5)
    play(st, "t1-f1")
    assert cards(st, "t1") == ["Jd"] and st.down[EASY.pile_index["r"]] == 0
    st = EASY.setup({"t2": "8d", "t3": "Ts 9s", "r": "3h Jd"}, down={"r": 1})
    assert refused(st, "t3-t1").code == "fill.reserve"


def test_once_the_reserve_is_empty_a_column_or_the_waste_fills_a_space():
    st = EASY.setup({"t2": "8d", "t3": "Ts 9s", "w": "4h 5h", "s": "2c"})
    play(st, "t3-t1")
    play(st, "w-t4")
    assert cards(st, "t1") == ["9s"] and cards(st, "t4") == ["5h"]
    assert refused(st, "t3-t1").code == "build.tableau"  # Ts does not go on 9s


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_stock_one_at_a_time_with_one_redeal(rules):
    st = rules.setup({"t1": "Kd", "t2": "Qd", "s": "2c 3c"})
    play(st, "s")
    assert cards(st, "w") == ["3c"]
    play(st, "s")
    play(st, "s")  # the redeal
    assert cards(st, "s") == ["2c", "3c"] and st.vars["pass"] == 2
    play(st, "s")
    play(st, "s")
    e = refused(st, "s")
    assert e.code == "stock.redeals"


def test_won_scored_and_lost():
    f = {f"f{s + 1}": " ".join(TEXT[s * 13 + r] for r in range(13)) for s in range(4)}
    f["f4"] = " ".join(TEXT[39 + r] for r in range(12))
    st = EASY.setup({**f, "t1": "Ks"}, base=1)
    assert st.score == 51
    play(st, "t1-f4")
    assert st.status == "won" and st.score == 52
    st = EASY.setup({"t1": "Kd", "t2": "Qs", "t3": "5c", "f1": "Ah"}, base=1)
    assert st.status == "lost"  # moving a lone card into an empty column is not useful
