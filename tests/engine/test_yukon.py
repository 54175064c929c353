"""Yukon, both variants: hand-built positions for each rule of docs/rules/yukon.md."""

from __future__ import annotations

import pytest

import engine
from engine.deal import shuffled_deck

from .positions import cards as texts

EASY = engine.get("yukon", "easy")
HARD = engine.get("yukon", "difficult")
BOTH = [EASY, HARD]


def mv(rules: engine.RuleSet, text: str) -> engine.Move:
    return engine.parse_move(rules, text)


def code(st: engine.State, rules: engine.RuleSet, text: str) -> str | None:
    why = st.refusal(mv(rules, text))
    return None if why is None else why.code


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_deal_is_1_6_7_to_11_with_0_to_6_face_down(rules):
    seed = b"yukon-deal"
    st = rules.deal(seed)
    deck = shuffled_deck(seed)
    sizes = (1, 6, 7, 8, 9, 10, 11)
    start = 0
    for k, size in enumerate(sizes):
        assert st.piles[k] == deck[start:start + size]  # dealt in order, bottom card first
        assert st.down[k] == k
        start += size
    assert start == 52
    assert rules.pile_names == ["t1", "t2", "t3", "t4", "t5", "t6", "t7",
                                "f1", "f2", "f3", "f4"]
    assert all(not st.piles[f] for f in rules.by_kind["foundation"])
    assert rules.stock is None
    assert st.status == "playing"


def test_easy_builds_down_in_any_other_suit():
    st = EASY.setup({"t1": "6h", "t2": "6c", "t3": "6s", "t4": "Kd 5s"})
    assert code(st, EASY, "t4-t1") is None
    assert code(st, EASY, "t4-t2") is None
    assert code(st, EASY, "t4-t3") == "build.tableau"
    why = st.refusal(mv(EASY, "t4-t3"))
    assert "5♠ can't go on 6♠" in why.message and "other than ♠" in why.message


def test_difficult_builds_down_in_alternating_colours():
    st = HARD.setup({"t1": "6h", "t2": "6c", "t3": "7d", "t4": "Kd 5s"})
    assert code(st, HARD, "t4-t1") is None
    assert code(st, HARD, "t4-t2") == "build.tableau"
    assert code(st, HARD, "t4-t3") == "build.tableau"
    assert "a black 5 goes on a red 6" in st.refusal(mv(HARD, "t4-t2")).message


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_any_face_up_card_moves_with_everything_on_it(rules):
    st = rules.setup({"t1": "2d 9c 5s Kd 3c", "t2": "6h"}, down={"t1": 2})
    st.play(mv(rules, "t1:3-t2"))  # 5♠ with K♦ and 3♣ on it: not a packed run
    assert texts(st, "t2") == ["6h", "5s", "Kd", "3c"]
    assert texts(st, "t1") == ["2d", "9c"]
    assert st.down[0] == 1  # the exposed face-down 9♣ turned up by itself
    assert code(st, rules, "t1:2-t2") == "source.hidden"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_face_down_cards_never_move(rules):
    st = rules.setup({"t1": "Kd 5s", "t2": "6h", "t3": ""}, down={"t1": 1})
    assert code(st, rules, "t1:2-t3") == "source.hidden"
    assert "face-down" in st.refusal(mv(rules, "t1:2-t3")).message


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_only_kings_fill_empty_columns(rules):
    st = rules.setup({"t1": "3c Kh 4c", "t2": "9d Qs", "t3": ""})
    assert code(st, rules, "t2-t3") == "fill.king"
    assert st.refusal(mv(rules, "t2-t3")).message == "only a King can fill an empty column"
    st.play(mv(rules, "t1:2-t3"))  # the King with the card on it
    assert texts(st, "t3") == ["Kh", "4c"]


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_foundations_build_up_in_suit_from_ace_one_card_at_a_time(rules):
    st = rules.setup({"t1": "2h", "t2": "Ah", "t3": "3h 2c", "t4": "Ac 2s", "f2": ""})
    assert code(st, rules, "t1-f1") == "fill.base"
    st.play(mv(rules, "t2-f1"))
    assert code(st, rules, "t3-f1") == "build.foundation"
    assert code(st, rules, "t4:2-f2") == "foundation.one"
    st.play(mv(rules, "t1-f1"))
    assert texts(st, "f1") == ["Ah", "2h"]
    assert st.score == 2


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_no_card_leaves_a_foundation(rules):
    st = rules.setup({"f1": "Ah 2h", "t1": "3s", "t2": "4h"})
    assert code(st, rules, "f1-t1") == "source.fixed"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_won_when_all_52_cards_are_on_the_foundations(rules):
    suits = "cdhs"
    ranks = "A23456789TJQK"
    piles = {f"f{i + 1}": " ".join(r + s for r in ranks) for i, s in enumerate(suits)}
    piles["f4"] = " ".join(r + "s" for r in ranks[:-1])
    piles["t1"] = "Ks"
    st = rules.setup(piles)
    assert st.status == "playing"
    st.play(mv(rules, "t1-f4"))
    assert st.status == "won"
    assert st.score == 52


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_lost_when_no_move_is_left(rules):
    st = rules.setup({"t1": "2s 9h", "t2": "4s", "t3": "7d 3s", "f1": "Ah"})
    assert st.legal_moves() == []
    assert st.status == "lost"
    assert st.score == 1


def test_trading_one_resting_place_for_another_keeps_the_game_open():
    # 5♠ on 6♥ could move to 6♦ and back. docs/rules/decisions.md counts only whole piles
    # into equivalent empty piles (and idle stock turns) as not useful, so the game is not
    # over: the player may still trade, or resign.
    st = HARD.setup({"t1": "Qc 6h 5s", "t2": "Jc 6d"}, down={"t1": 1, "t2": 1})
    assert st.rules.legal_moves(st) == [mv(HARD, "t1-t2")]
    assert st.status == "playing"


def test_trading_places_then_uncovering_a_card_that_goes_up():
    st = HARD.setup({"t1": "Qc 6h 5s", "t2": "Jc 6d", "f1": "Ah 2h 3h 4h 5h"},
                    down={"t1": 1, "t2": 1})
    assert st.status == "playing"
    st.play(mv(HARD, "t1-t2"))
    st.play(mv(HARD, "t1-f1"))
    assert texts(st, "f1")[-1] == "6h"


def test_a_lone_king_moving_to_another_empty_column_is_not_useful():
    st = EASY.setup({"t1": "Kh"})
    assert len(EASY.legal_moves(st)) == 6  # to any of the six empty columns
    assert st.status == "lost"


def test_refusals_never_name_a_face_down_card():
    st = EASY.setup({"t1": "Kd 5s", "t2": "6s"}, down={"t1": 1})
    for name in ("t1:2-t2", "t1-t2"):
        why = st.refusal(mv(EASY, name))
        assert why is not None and "K♦" not in why.message


def test_a_fixed_seed_deals_the_same_layout():
    a, b = EASY.deal(b"\x07"), HARD.deal(b"\x07")
    assert a.piles == b.piles and a.down == b.down
