"""Agnes Sorel on hand-built positions (docs/rules/agnes-sorel.md)."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import RANK, TEXT

from .positions import play, refused

GAME = engine.get("agnes-sorel", "standard")
IX = GAME.pile_index


def cards(st, name):
    return [TEXT[c] for c in st.piles[IX[name]]]


def test_only_the_standard_variant():
    with pytest.raises(engine.UnknownGame):
        engine.get("agnes-sorel", "easy")


def test_deal_triangle_face_up_then_base_card_then_stock():
    seed = b"agnes"
    deck = engine.shuffled_deck(seed)
    st = GAME.deal(seed)
    sizes = [7, 6, 5, 4, 3, 2, 1]
    start = 0
    for i, n in enumerate(sizes, 1):
        assert st.piles[IX[f"t{i}"]] == deck[start : start + n]
        assert st.down[IX[f"t{i}"]] == 0
        start += n
    assert st.piles[IX["f1"]] == [deck[28]] and st.vars["base"] == RANK[deck[28]]
    assert st.piles[IX["s"]][-1] == deck[29] and len(st.piles[IX["s"]]) == 23
    assert st.down[IX["s"]] == 23
    assert not st.piles[IX["r1"]] and not st.piles[IX["r2"]]


def test_three_deals_of_seven_then_the_last_two_turn_up_to_play():
    seed = b"agnes stock"
    deck = engine.shuffled_deck(seed)
    st = GAME.deal(seed)
    for k in range(3):
        before = [len(st.piles[IX[f"t{i}"]]) for i in range(1, 8)]
        play(st, "s")
        assert st.revealed[-1]
        after = [len(st.piles[IX[f"t{i}"]]) for i in range(1, 8)]
        assert after == [b + 1 for b in before]
        assert [st.piles[IX[f"t{i}"]][-1] for i in range(1, 8)] == deck[29 + 7 * k : 36 + 7 * k]
    assert not st.piles[IX["s"]]
    assert st.piles[IX["r1"]] == [deck[50]] and st.piles[IX["r2"]] == [deck[51]]
    assert st.down[IX["r1"]] == st.down[IX["r2"]] == 0
    view = st.view()["piles"]
    assert view["r1"]["up"] == [TEXT[deck[50]]] and view["r2"]["up"] == [TEXT[deck[51]]]
    e = refused(st, "s")
    assert e.code == "stock.empty"
    st.undo()
    assert len(st.piles[IX["s"]]) == 9 and not st.piles[IX["r1"]]


def test_the_last_two_cards_play_to_a_column_or_foundation_and_take_nothing():
    st = GAME.setup({"r1": "7h", "r2": "5c", "t1": "8d", "t2": "4c", "f1": "3c",
                     "t3": "6s"}, base=3)
    e = refused(st, "t3-r2")
    assert e.code == "target.kind"
    play(st, "r1-t1")
    play(st, "t2-f1")
    play(st, "r2-f1")
    assert cards(st, "f1") == ["3c", "4c", "5c"] and cards(st, "t1") == ["8d", "7h"]


def test_columns_build_down_in_the_same_colour_and_wrap():
    st = GAME.setup({"t1": "6c", "t2": "7s", "t3": "6h", "t4": "Ad", "t5": "Kh",
                     "f1": "9c"}, base=9)
    e = refused(st, "t3-t2")
    assert e.code == "build.tableau"
    assert e.message == "6♥ can't go on 7♠: a red 6 goes on a red 7"
    play(st, "t1-t2")
    play(st, "t5-t4")  # K on A: the columns wrap
    assert cards(st, "t4") == ["Ad", "Kh"]


def test_any_tail_of_a_same_colour_run_moves_and_any_card_fills_a_space():
    st = GAME.setup({"t1": "Qd 9s 8c 7s", "t2": "Tc", "t3": "4h 3c", "t4": "4c",
                     "f1": "5d"}, base=5)
    assert refused(st, "t1:4-t2").code == "unit.unpacked"
    assert refused(st, "t3:2-t4").code == "unit.unpacked"
    play(st, "t1:2-t5")  # a run fills a space
    play(st, "t1-t2")
    assert cards(st, "t2") == ["Tc", "9s"] and cards(st, "t5") == ["8c", "7s"]
    play(st, "t3-t6")  # so does a single card


def test_foundations_start_at_the_base_build_in_suit_and_wrap():
    st = GAME.setup({"f1": "Jc Qc Kc", "t1": "Ac", "t2": "Jd", "t3": "Th", "t4": "2c",
                     "s": "5h"}, base=11)
    assert refused(st, "t4-f1").code == "build.foundation"
    play(st, "t1-f1")
    play(st, "t4-f1")
    e = refused(st, "t3-f2")
    assert e.code == "fill.base" and e.message == "a foundation starts with a Jack"
    play(st, "t2-f2")
    assert refused(st, "t3-f2").code == "build.foundation"


def test_won_scored_and_lost():
    f = {f"f{s + 1}": " ".join(TEXT[s * 13 + r] for r in range(13)) for s in range(4)}
    f["f4"] = " ".join(TEXT[39 + r] for r in range(12))
    st = GAME.setup({**f, "r2": "Ks"}, base=1)
    assert st.score == 51 and st.status == "playing"
    play(st, "r2-f4")
    assert st.status == "won" and st.score == 52
    st = GAME.setup({"t1": "Kd", "t2": "5c", "f1": "Ah"}, base=1)
    assert st.status == "lost"  # a lone card into a space is not useful
    st = GAME.setup({"t1": "Kd", "t2": "5c", "f1": "Ah", "s": "2h"}, base=1)
    assert st.status == "playing"  # the stock can always deal


def test_a_tail_shuttling_between_equal_cards_does_not_keep_a_lost_game_going():
    # 3c lies on 4s and could go on 4c and back for ever; freeing 4s gains nothing.
    rest = {"t3": "Kh Qh", "t4": "Jc", "t5": "9h", "t6": "6d", "t7": "2d", "f1": "Ah"}
    st = GAME.setup({"t1": "Kc 4s 3c", "t2": "4c", **rest}, base=1)
    assert [engine.move_text(GAME, m) for m in GAME.legal_moves(st)] == ["t1-t2"]
    assert st.status == "lost"
    # ... but the move is useful when the freed 4s can go on: to a black 5,
    st = GAME.setup({"t1": "Kc 4s 3c", "t2": "4c", **rest, "t7": "Qs 5s"}, base=1)
    assert GAME.useful(st, parse_move(GAME, "t1-t2"))
    # ... or to its foundation.
    st = GAME.setup({"t1": "Kc 4s 3c", "t2": "4c", **rest, "f2": "As 2s 3s"}, base=1)
    assert GAME.useful(st, parse_move(GAME, "t1-t2")) and st.status == "playing"
