"""Shamrocks, both variants, on hand-built positions (docs/rules/shamrocks.md)."""

from __future__ import annotations

import pytest

import engine

from .positions import cards as pile
from .positions import play, refused

EASY = engine.get("shamrocks", "easy")
HARD = engine.get("shamrocks", "difficult")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_seventeen_fans_of_three_then_one_of_one(rules):
    seed = b"shamrocks"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    cols = rules.by_kind["tableau"]
    assert len(cols) == 18
    assert [len(st.piles[t]) for t in cols] == [3] * 17 + [1]
    assert st.piles[0] == deck[:3] and st.piles[16] == deck[48:51] and st.piles[17] == [deck[51]]
    assert all(d == 0 for d in st.down)  # all face up
    assert all(not st.piles[f] for f in rules.by_kind["foundation"])
    assert st.vars["base"] == (0 if rules.easy else 1)


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_fans_build_up_or_down_in_any_suit_without_wrap(rules):
    st = rules.setup({"t1": "7h", "t2": "8c", "t3": "6s", "t4": "Kd", "t5": "Ac", "t6": "9d"},
                     base=1)
    play(st, "t1-t2")  # down
    play(st, "t2-t3")  # up, onto the 6
    assert pile(st, "t3") == ["6s", "7h"]
    e = refused(st, "t4-t5")
    assert e.code == "build.tableau" and "a King goes on a Queen" in e.message
    assert refused(st, "t6-t4").code == "build.tableau"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_a_fan_holds_at_most_three_cards(rules):
    st = rules.setup({"t1": "8c 7h 8d", "t2": "9s", "t3": "Ac"}, base=1)
    e = refused(st, "t2-t1")
    assert e.code == "target.full" and e.message == "a column holds at most 3 cards"
    play(st, "t1-t2")
    play(st, "t2-t1")  # back: the fan has room again


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_empty_fans_are_not_filled_and_only_top_cards_move(rules):
    st = rules.setup({"t1": "8c 7h", "t2": "", "t3": "Ac", "t4": "6d"}, base=1)
    e = refused(st, "t1-t2")
    assert e.code == "fill.none" and e.message == "an empty column can't be filled"
    assert refused(st, "t1:2-t4").code == "unit.top"


def test_easy_first_foundation_card_chooses_the_base_and_wraps():
    st = EASY.setup({"t1": "Qs", "t2": "Ks", "t3": "As", "t4": "Qh", "t5": "5c", "t6": "2s"})
    play(st, "t1-f1")
    assert st.vars["base"] == 12
    assert refused(st, "t5-f2").code == "fill.base"
    play(st, "t4-f2")
    play(st, "t2-f1")
    play(st, "t3-f1")  # K-A wraps on the foundations
    play(st, "t6-f1")
    assert pile(st, "f1") == ["Qs", "Ks", "As", "2s"]


def test_difficult_foundations_start_with_aces_and_do_not_wrap():
    st = HARD.setup({"t1": "Qs", "t2": "As", "t3": "2s"})
    assert refused(st, "t1-f1").code == "fill.base"
    play(st, "t2-f1")
    play(st, "t3-f1")
    st = HARD.setup({"f1": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "t1": "Ac", "t2": "As"})
    play(st, "t1-f2")
    assert pile(st, "f2") == ["Ac"]


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_no_card_leaves_a_foundation(rules):
    st = rules.setup({"f1": "Ac", "t1": "", "t2": "2c"}, base=1)
    assert refused(st, "f1-t1").code == "source.fixed"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_win_and_score(rules):
    piles = {f"f{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK" if f"{r}{s}" != "Ks")
             for i, s in enumerate("cdhs")}
    piles["t7"] = "Ks"
    st = rules.setup(piles, base=1)
    assert st.score == 51
    play(st, "t7-f4")
    assert st.status == "won" and st.score == 52


def test_lost_when_fans_only_shuffle_cards_about():
    # 5♥ can move between the 6s and the 6s onto it; the fans never free the A♣ under the J♦.
    st = HARD.setup({"t1": "Ac Jd", "t2": "6d", "t3": "5h", "t4": "6s"})
    assert HARD.legal_moves(st)
    assert st.status == "lost"


def test_alive_while_a_chain_of_moves_frees_a_foundation_card():
    st = HARD.setup({"t1": "Ac Jd", "t2": "Qd", "t3": "5h", "t4": "6s"})
    assert st.status == "playing"
    play(st, "t1-t2")
    play(st, "t1-f1")


def test_capacity_bounds_the_search_too():
    # J♦ could only go on the Q♠, whose fan is full: lost although moves remain.
    st = HARD.setup({"t1": "Ac Jd", "t2": "2c 3c Qs", "t3": "5h", "t4": "6s"})
    assert HARD.legal_moves(st)
    assert st.status == "lost"


def test_easy_lost_when_no_base_card_can_be_reached():
    st = EASY.setup({"t1": "7c Jd", "t2": "6d", "t3": "5h", "f1": "7s"}, base=7)
    assert EASY.legal_moves(st)
    assert st.status == "lost"
