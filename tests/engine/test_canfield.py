"""Canfield, both variants, on hand-built positions (docs/rules/canfield.md)."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import RANK, TEXT

from .positions import cards, play, refused

EASY = engine.get("canfield", "easy")
HARD = engine.get("canfield", "difficult")


@pytest.mark.parametrize(("rules", "size"), [(EASY, 10), (HARD, 14)])
def test_deal_columns_then_squared_reserve_then_base_card_then_stock(rules, size):
    seed = b"canfield deal"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    ix = rules.pile_index
    assert [st.piles[ix[f"t{i}"]] for i in range(1, 5)] == [[c] for c in deck[:4]]
    assert st.piles[ix["r"]] == deck[4 : 4 + size]
    assert st.down[ix["r"]] == size - 1  # squared: only the top card shows
    assert st.piles[ix["f1"]] == [deck[4 + size]]
    assert st.vars["base"] == RANK[deck[4 + size]]
    stock = st.piles[ix["s"]]
    assert len(stock) == st.down[ix["s"]] == 52 - 5 - size
    assert stock[-1] == deck[5 + size]  # the stock's first card is on top
    view = st.view()
    assert view["piles"]["r"] == {"down": size - 1, "up": [TEXT[deck[3 + size]]]}
    assert view["info"]["base"] == engine.cards.RANK_NAMES[st.vars["base"]]


def test_columns_build_down_in_alternating_colours_and_wrap():
    st = EASY.setup({"t1": "7h", "t2": "8s", "t3": "8d", "t4": "Ah", "r": "Kc", "f1": "5d"},
                    down={"r": 0})
    e = refused(st, "t1-t3")
    assert e.code == "build.tableau"
    assert e.message == "7♥ can't go on 8♦: a red 7 goes on a black 8"
    play(st, "r-t4")  # a King on an Ace: the columns wrap
    assert cards(st, "t4") == ["Ah", "Kc"]
    play(st, "t1-t2")


def test_foundations_start_at_the_base_rank_build_in_suit_and_wrap():
    st = EASY.setup({"f1": "7h 8h 9h Th Jh Qh Kh", "t1": "Ah", "t2": "7s", "t3": "8c",
                     "t4": "2s", "r": "3d"}, base=7)
    play(st, "t1-f1")  # K-A wraps
    e = refused(st, "t3-f2")
    assert e.code == "fill.base" and e.message == "a foundation starts with a 7"
    play(st, "t2-f2")
    e = refused(st, "t4-f2")
    assert e.code == "build.foundation"


def test_easy_moves_any_packed_part_of_a_column():
    st = EASY.setup({"t1": "9s 8h 7c", "t2": "9c", "t3": "Th", "t4": "Kd", "r": "2c"})
    play(st, "t1:2-t2")
    assert cards(st, "t2") == ["9c", "8h", "7c"]
    play(st, "t1-t3")


def test_difficult_moves_only_the_whole_packed_run_between_columns():
    st = HARD.setup({"t1": "Th 9s 8h 7c", "t2": "9c", "t3": "Js", "t4": "8s",
                     "f1": "5c 6c", "r": "2c"}, base=5)
    e = refused(st, "t1:2-t2")
    assert e.code == "unit.whole"
    assert e.message == ("only the whole packed run can move, or its top card alone to a "
                         "foundation")
    e = refused(st, "t1-t4")
    assert e.code == "unit.whole"
    assert e.message == "only the whole packed run can move to another column"
    play(st, "t1-f1")  # the top card alone may still go to a foundation
    play(st, "t1:3-t3")
    assert cards(st, "t3") == ["Js", "Th", "9s", "8h"]


def test_only_the_reserve_top_plays_and_the_next_one_turns_up():
    st = EASY.setup({"t1": "9s", "t2": "Kd", "t3": "Kc", "t4": "Kh", "r": "4d 3c 8h"},
                    down={"r": 2})
    assert refused(st, "r:2-t1").code == "source.hidden"
    play(st, "r-t1")
    assert st.down[EASY.pile_index["r"]] == 1 and st.revealed[-1]
    assert st.view()["piles"]["r"] == {"down": 1, "up": ["3c"]}
    st.undo()
    assert cards(st, "r") == ["4d", "3c", "8h"] and st.down[EASY.pile_index["r"]] == 2


def test_an_emptied_column_fills_from_the_reserve_at_once():
    st = EASY.setup({"t1": "7h", "t2": "Kd", "t3": "Kc", "t4": "Ks", "r": "4d 3c 8h",
                     "f1": "6h"}, down={"r": 2}, base=6)
    play(st, "t1-f1")
    assert cards(st, "t1") == ["8h"]
    assert cards(st, "r") == ["4d", "3c"] and st.down[EASY.pile_index["r"]] == 1
    assert st.revealed[-1]
    st.undo()
    assert cards(st, "t1") == ["7h"] and cards(st, "r") == ["4d", "3c", "8h"]
    assert st.down[EASY.pile_index["r"]] == 2


def test_an_empty_column_waits_for_the_reserve_while_it_lasts():
    st = EASY.setup({"t2": "Kd", "t3": "Qc Jh", "t4": "Ks", "r": "4d 3c", "w": "9h",
                     "s": "2h"}, down={"r": 1})
    e = refused(st, "t3-t1")
    assert e.code == "fill.reserve"
    assert refused(st, "w-t1").code == "fill.reserve"
    play(st, "r-t1")


def test_once_the_reserve_is_empty_only_the_waste_top_fills_a_column():
    st = EASY.setup({"t2": "Kd", "t3": "Qc Jh", "t4": "Ks", "w": "5c 9h", "s": "2h"})
    e = refused(st, "t3-t1")
    assert e.code == "fill.waste"
    assert e.message == "once the reserve is empty, only the waste pile's top card can fill an " \
        "empty column"
    assert refused(st, "w:2-t1").code == "unit.top"
    play(st, "w-t1")
    assert cards(st, "t1") == ["9h"]


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_stock_turns_three_and_has_no_pass_limit(rules):
    # Qs could go on Kd: the game stays open while the stock goes round.
    st = rules.setup({"t1": "Kd", "t2": "Kc", "t3": "Kh", "t4": "Qs",
                      "s": "2c 3c 4c 5c", "f1": "Ad"})
    play(st, "s")
    assert cards(st, "w") == ["5c", "4c", "3c"] and cards(st, "s") == ["2c"]
    assert refused(st, "w:2-f1").code == "unit.top"
    for _ in range(6):  # finish the pass, turn over, and again: no limit
        play(st, "s")
        play(st, "s")
        assert cards(st, "s") == ["2c", "3c", "4c", "5c"]
        assert st.down[rules.pile_index["s"]] == 4
        play(st, "s")
    assert st.vars["pass"] == 7


def test_won_and_scored_by_foundation_cards():
    f = {f"f{i + 1}": " ".join(TEXT[s * 13 + r] for r in range(13)) for i, s in
         enumerate(range(4))}
    f["f4"] = " ".join(TEXT[39 + r] for r in range(12))
    st = EASY.setup({**f, "t1": "Ks"}, base=1)
    assert st.score == 51 and st.status == "playing"
    play(st, "t1-f4")
    assert st.status == "won" and st.score == 52


def test_lost_when_nothing_useful_is_left():
    st = EASY.setup({"t1": "Kd", "t2": "Kc", "t3": "Kh", "t4": "Ks", "w": "2c 3c",
                     "f1": "Ad"}, progress=0)
    assert st.status == "lost"  # turning the waste over would show the same cards again
    st = EASY.setup({"t1": "Kd", "t2": "Kc", "t3": "Kh", "t4": "Ks", "w": "2c 2d",
                     "f1": "Ad"}, progress=0)
    assert st.status == "playing"  # 2d goes up


def test_a_tail_shuttling_between_equal_cards_does_not_keep_a_lost_game_going():
    # 4s lies on 5d and could go on 5h and back for ever; freeing 5d gains nothing.
    st = EASY.setup({"t1": "Kc 5d 4s", "t2": "5h", "t3": "Jc", "t4": "Js", "f1": "Ah"},
                    base=1)
    assert [engine.move_text(EASY, m) for m in EASY.legal_moves(st)] == ["t1-t2"]
    assert st.status == "lost"
    # ... but it is useful when the freed card goes to a foundation,
    st = EASY.setup({"t1": "Kc 5d 4s", "t2": "5h", "t3": "Jc", "t4": "Js",
                     "f1": "Ad 2d 3d 4d"}, base=1)
    assert st.status == "playing"


def test_a_tail_shuttle_is_useful_when_the_freed_card_can_move_on():
    shuttle = parse_move(EASY, "t1-t2")
    st = EASY.setup({"t1": "6c 5d 4s", "t2": "5h", "t3": "7h", "t4": "Js", "f1": "Ah"})
    assert EASY.useful(st, shuttle)  # then 6c 5d can go on 7h without the 4s
    st = EASY.setup({"t1": "6c 5d 4s", "t2": "5h", "t3": "Jc", "t4": "Js", "f1": "Ah"})
    assert not EASY.useful(st, shuttle)
    assert HARD.setup({"t1": "Kc 5d 4s", "t2": "5h"}).refusal(shuttle).code == "unit.whole"
