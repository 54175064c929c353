"""Klondike, both variants, on hand-built positions (docs/rules/klondike.md)."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalMove
from engine.cards import TEXT

from .positions import play, refused

EASY = engine.get("klondike", "easy")
HARD = engine.get("klondike", "difficult")


def test_deal_shape():
    st = EASY.deal(b"shape")
    assert [len(st.piles[t]) for t in range(7)] == [7, 6, 5, 4, 3, 2, 1]
    assert st.down[:7] == [6, 5, 4, 3, 2, 1, 0]
    stock = EASY.pile_index["s"]
    assert len(st.piles[stock]) == st.down[stock] == 24
    view = st.view()
    assert all(len(view["piles"][f"t{i}"]["up"]) == 1 for i in range(1, 8))
    assert view["piles"]["s"] == {"down": 24, "up": []}


def test_deal_follows_the_shuffled_deck_order():
    seed = b"order"
    deck = engine.shuffled_deck(seed)
    st = EASY.deal(seed)
    assert st.piles[0] == deck[:7] and st.piles[6] == deck[27:28]
    assert st.piles[EASY.pile_index["s"]][-1] == deck[28]  # the stock's first card is on top


def test_columns_build_down_in_alternating_colours():
    st = EASY.setup({"t1": "7h", "t2": "8s", "t3": "8d", "t4": "9s"})
    e = refused(st, "t1-t3")
    assert e.code == "build.tableau"
    assert e.message == "7♥ can't go on 8♦: a red 7 goes on a black 8"
    assert refused(st, "t1-t4").code == "build.tableau"
    play(st, "t1-t2")
    assert [TEXT[c] for c in st.piles[1]] == ["8s", "7h"]


def test_no_wrap_on_columns():
    st = EASY.setup({"t1": "Kc", "t2": "Ah", "t3": "2s"})
    assert refused(st, "t1-t2").code == "build.tableau"
    play(st, "t2-t3")


def test_packed_runs_move_as_a_unit():
    st = EASY.setup({"t1": "9s 8h 7c", "t2": "Th", "t3": "9d", "t4": "5c 6d"})
    play(st, "t1:3-t2")
    assert [TEXT[c] for c in st.piles[1]] == ["Th", "9s", "8h", "7c"]
    st = EASY.setup({"t1": "9s 8h 7c", "t3": "9c"})
    play(st, "t1:2-t3")
    st = EASY.setup({"t4": "5c 6d", "t2": "7s"})
    assert refused(st, "t4:2-t2").code == "unit.unpacked"


def test_face_down_cards_never_move_and_turn_up_when_exposed():
    st = EASY.setup({"t1": "2c 3d 9s", "t2": "Th"}, down={"t1": 2})
    assert refused(st, "t1:2-t2").code == "source.hidden"
    play(st, "t1-t2")
    assert st.down[0] == 1 and st.revealed[-1]
    st.undo()
    assert st.down[0] == 2 and st.piles[0][-1] == engine.cards.parse_card("9s")


def test_only_kings_fill_an_empty_column():
    st = EASY.setup({"t1": "Qh", "t2": "5c Ks Qd"})
    e = refused(st, "t1-t3")
    assert (e.code, e.message) == ("fill.king", "only a King can fill an empty column")
    play(st, "t2:2-t3")


def test_foundations_start_with_aces_and_build_up_in_suit():
    st = EASY.setup({"t1": "2h", "t2": "Ah", "t3": "2s", "t4": "3h"})
    e = refused(st, "t1-f1")
    assert (e.code, e.message) == ("fill.base", "a foundation starts with an Ace")
    play(st, "t2-f1")
    assert refused(st, "t3-f1").message == "2♠ can't go on A♥: the 2♠ goes on the A♠"
    assert refused(st, "t4-f1").code == "build.foundation"
    play(st, "t1-f1")
    play(st, "t4-f1")
    assert st.score == 3


def test_one_card_at_a_time_to_a_foundation_and_none_back():
    st = EASY.setup({"t1": "2h Ac", "f1": "Ah", "t2": "Kd"})
    assert refused(st, "t1:2-f1").code in ("foundation.one", "unit.unpacked")
    st = EASY.setup({"t1": "3h 2s", "f1": "Ah 2h", "t3": "3d"})
    assert refused(st, "t1:2-f1").code == "foundation.one"
    assert refused(st, "f1-t2").code == "source.fixed"


def test_only_the_waste_top_plays():
    st = EASY.setup({"w": "5c 6d", "t1": "7s", "t2": "6h"})
    assert refused(st, "w:2-t1").code == "unit.top"
    play(st, "w-t1")


def test_easy_draws_three_turning_them_one_at_a_time():
    st = EASY.setup({"s": "2c 3c 4c 5c", "t1": "Kh"}, progress=1)
    play(st, "s")
    assert [TEXT[c] for c in st.piles[EASY.pile_index["w"]]] == ["5c", "4c", "3c"]
    assert st.revealed[-1]
    play(st, "s")
    assert [TEXT[c] for c in st.piles[EASY.pile_index["s"]]] == []
    play(st, "s")  # turn over: unlimited passes in easy
    s = EASY.pile_index["s"]
    assert [TEXT[c] for c in st.piles[s]] == ["2c", "3c", "4c", "5c"]
    assert st.down[s] == 4 and st.vars["pass"] == 2


def test_difficult_draws_one_with_a_single_pass():
    st = HARD.setup({"s": "2c 3c", "t1": "Kh", "t2": "9s", "t3": "8h"})
    play(st, "s")
    assert [TEXT[c] for c in st.piles[HARD.pile_index["w"]]] == ["3c"]
    play(st, "s")
    e = refused(st, "s")
    assert (e.code, e.message) == ("stock.redeals",
                                   "the stock is empty and there are no redeals left")


def test_a_stock_turned_over_with_no_progress_is_not_useful_so_the_game_is_lost():
    st = EASY.setup({"s": "2c 3c 4c 5c", "t1": "Kh", "t2": "Kd"})
    play(st, "s")
    assert st.status == "playing"  # the stock still has a card
    play(st, "s")
    assert st.status == "lost"  # a whole pass and no card played: turning over is useless
    st = EASY.setup({"w": "3c 2c", "t1": "Kh"}, progress=0)
    assert st.status == "lost" and st.legal_moves() == []
    st = EASY.setup({"w": "3c 2c", "t1": "Kh"}, progress=1)
    assert st.status == "playing"


def test_playing_from_the_waste_counts_as_progress():
    st = EASY.setup({"s": "2c Qh 3c 4c", "t1": "Ks"})
    play(st, "s")
    play(st, "w-t1")
    play(st, "s")
    assert st.vars["progress"] == 1
    play(st, "s")  # useful now: a card has left the stock-and-waste since the last turn
    assert st.vars["pass"] == 2 and st.vars["progress"] == 0


def test_win_and_score():
    suits = "cdhs"
    ranks = "A23456789TJQ"
    piles = {f"f{i + 1}": " ".join(r + s for r in ranks + ("K" if s != "c" else ""))
             for i, s in enumerate(suits)}
    piles["t1"] = "Kc"
    st = EASY.setup(piles)
    assert st.status == "playing"
    play(st, "t1-f1")
    assert st.status == "won" and st.score == 52
    assert refused(st, "s").code == "game.over"


def test_competitive_undo_refuses_a_move_that_showed_a_card():
    st = EASY.deal(b"race", competitive=True)
    st.play(engine.Move("stock"))
    assert st.can_undo().code == "undo.revealed"
    with pytest.raises(IllegalMove):
        st.undo()
    practice = EASY.deal(b"race")
    practice.play(engine.Move("stock"))
    practice.undo()
    assert practice.snapshot() == EASY.deal(b"race").snapshot()


def test_resign_ends_the_game_for_good():
    st = EASY.deal(b"resign")
    st.resign()
    assert st.status == "lost"
    assert st.can_undo().code == "undo.resigned"
    assert refused(st, "s").code == "game.over"


def test_refusals_never_name_a_hidden_card():
    st = EASY.deal(b"hidden")
    hidden = [engine.cards.show(c) for c in st.hidden_cards()]
    assert len(hidden) == 21 + 24
    for src in range(len(st.piles)):
        for n in range(1, len(st.piles[src]) + 1):
            for dst in range(len(st.piles)):
                why = st.refusal(engine.Move("move", src, dst, n)) if src != dst else None
                if why:
                    assert not any(h in why.message for h in hidden), why.message
