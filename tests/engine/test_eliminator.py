"""Eliminator: four open columns onto eight wrapping foundations; difficult's colours, reserve."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import TEXT
from engine.deal import shuffled_deck

EASY = engine.get("eliminator", "easy")
HARD = engine.get("eliminator", "difficult")
BOTH = [EASY, HARD]
SEED = b"eliminator test"
ALL = [r + s for s in "cdhs" for r in "A23456789TJQK"]


def code(st, rules, text):
    why = st.refusal(parse_move(rules, text))
    return why.code if why else None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_deal_four_open_columns_of_thirteen(rules):
    st = rules.deal(SEED)
    deck = shuffled_deck(SEED)
    for i in range(4):
        t = rules.pile_index[f"t{i + 1}"]
        assert st.piles[t] == deck[13 * i : 13 * i + 13]
        assert st.down[t] == 0
    assert len(rules.by_kind["foundation"]) == 8
    assert all(not st.piles[f] for f in rules.by_kind["foundation"])
    assert rules.stock_pile == -1


def test_only_difficult_has_the_reserve():
    assert "r" in HARD.pile_names and "r" not in EASY.pile_names


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_an_empty_foundation_takes_any_card(rules):
    st = rules.setup({"t1": "7d", "t2": "Ks", "t3": "Ac"})
    for t in ("t1", "t2", "t3"):
        for f in range(1, 9):
            assert code(st, rules, f"{t}-f{f}") is None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_foundations_go_one_rank_up_or_down_and_wrap(rules):
    st = rules.setup({"f1": "7d", "f2": "Kd", "f3": "Ad",
                      "t1": "8s", "t2": "6c", "t3": "As", "t4": "9c Ks"})
    assert code(st, rules, "t1-f1") is None  # up
    assert code(st, rules, "t2-f1") is None  # down
    assert code(st, rules, "t3-f2") is None  # K then A
    assert code(st, rules, "t4-f3") is None  # A then K
    assert code(st, rules, "t4-f1") == "build.foundation"
    assert code(st, rules, "t3-f1") == "build.foundation"


def test_easy_builds_regardless_of_suit():
    st = EASY.setup({"f1": "7d", "t1": "8h", "t2": "6d"})
    assert code(st, EASY, "t1-f1") is None
    assert code(st, EASY, "t2-f1") is None


def test_difficult_builds_in_alternating_colours():
    st = HARD.setup({"f1": "7d", "t1": "8h", "t2": "6d", "t3": "6s", "t4": "8c"})
    why = st.refusal(parse_move(HARD, "t1-f1"))
    assert why.code == "build.foundation" and "black" in why.message
    assert code(st, HARD, "t2-f1") == "build.foundation"
    assert code(st, HARD, "t3-f1") is None
    assert code(st, HARD, "t4-f1") is None
    st = HARD.setup({"f1": "Kh", "t1": "Ad", "t2": "Ac"})
    assert code(st, HARD, "t1-f1") == "build.foundation"
    assert code(st, HARD, "t2-f1") is None  # wrap, alternating


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_only_top_cards_move_and_never_between_columns(rules):
    st = rules.setup({"t1": "5c 9h", "t2": "2d", "t4": ""})
    assert code(st, rules, "t1:2-f1") == "unit.top"
    why = st.refusal(parse_move(rules, "t1-t2"))
    assert why.code == "target.kind" and "never move from one column" in why.message
    assert code(st, rules, "t3-f1") == "source.empty"
    assert code(st, rules, "t1-t4") == "target.kind"  # empty columns stay empty
    st = rules.setup({"t1": "5c", "f1": "4d"})
    assert code(st, rules, "f1-f2") == "source.fixed"  # nothing leaves a foundation


def test_difficult_reserve_holds_one_card_and_gives_it_only_to_a_foundation():
    st = HARD.setup({"t1": "5c 9h", "t2": "2d", "f1": "Ts"})
    assert code(st, HARD, "t1-r") is None
    st.play(parse_move(HARD, "t1-r"))
    assert code(st, HARD, "t1-r") == "target.full"
    assert code(st, HARD, "t2-r") == "target.full"
    assert code(st, HARD, "r-t1") == "target.kind"
    assert code(st, HARD, "r-t3") == "target.kind"
    assert code(st, HARD, "r-f1") is None  # 9h on the black 10
    st.play(parse_move(HARD, "r-f1"))
    assert [TEXT[c] for c in st.piles[HARD.pile_index["f1"]]] == ["Ts", "9h"]
    assert code(st, HARD, "t2-r") is None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_won_when_all_52_are_on_the_foundations_and_foundations_used_is_shown(rules):
    st = rules.setup({"f1": " ".join(ALL[:-1]), "t1": ALL[-1]})
    assert st.status == "playing" and st.score == 51
    assert rules.info(st)["foundations_used"] == 1
    st.play(parse_move(rules, "t1-f2"))
    assert st.status == "won" and st.score == 52
    assert st.view()["info"]["foundations_used"] == 2
    assert rules.tie_break(st) == 2  # the ranking's tie-break: fewer foundations first


def test_difficult_is_not_won_with_a_card_in_the_reserve():
    st = HARD.setup({"f1": " ".join(ALL[:-1]), "r": ALL[-1]})
    assert st.status == "playing"
    st.play(parse_move(HARD, "r-f2"))
    assert st.status == "won"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_lost_when_every_foundation_is_started_and_no_top_fits(rules):
    tops = ["2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s"]  # they take A to 4 only
    piles = {f"f{i + 1}": c for i, c in enumerate(tops)}
    piles["t1"] = "Jh 9s" if rules is EASY else "Jh 9s Kc"
    if rules is HARD:
        piles["r"] = "Kd"
    st = rules.setup(piles)
    assert st.status == "lost"
    assert st.score == 8
