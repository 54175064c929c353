"""Strategy: Aces out at the deal, every stock card to a column first, then the foundations."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import RANK, SUIT, TEXT
from engine.deal import shuffled_deck

EASY = engine.get("strategy", "easy")
HARD = engine.get("strategy", "difficult")
BOTH = [EASY, HARD]
SEED = b"strategy test"


def code(st, rules, text):
    why = st.refusal(parse_move(rules, text))
    return why.code if why else None


def cards(st, rules, name):
    return [TEXT[c] for c in st.piles[rules.pile_index[name]]]


def test_column_counts():
    assert len(EASY.by_kind["tableau"]) == 8
    assert len(HARD.by_kind["tableau"]) == 6


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_deal_puts_the_aces_out_in_suit_order_and_keeps_the_rest_in_order(rules):
    st = rules.deal(SEED)
    assert [cards(st, rules, f"f{i}") for i in range(1, 5)] == [["Ac"], ["Ad"], ["Ah"], ["As"]]
    deck = shuffled_deck(SEED)
    s = rules.pile_index["s"]
    assert st.piles[s] == [c for c in deck if RANK[c] != 1][::-1]
    assert st.down[s] == 47  # the flipped card is shown
    assert all(not st.piles[t] for t in rules.by_kind["tableau"])
    assert st.score == 4


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_a_flipped_card_goes_on_any_column_regardless_of_suit_or_rank(rules):
    st = rules.setup({"f1": "Ac", "t1": "2c", "t2": "Kh", "s": "5d 3c"}, down={"s": 1})
    for t in rules.by_kind["tableau"]:
        assert st.refusal(engine.Move("move", rules.stock_pile, t)) is None
    st.play(parse_move(rules, "s-t2"))
    assert cards(st, rules, "t2") == ["Kh", "3c"]
    assert st.down[rules.stock_pile] == 0 and st.revealed[-1]


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_a_flipped_card_never_goes_straight_to_a_foundation(rules):
    st = rules.setup({"f1": "Ac", "s": "5d 2c"}, down={"s": 1})
    assert code(st, rules, "s-f1") == "target.kind"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_a_column_holds_thirteen_cards(rules):
    col = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 2d"
    st = rules.setup({"t1": col, "t2": col.replace("c", "h").replace("2d", "2s"), "s": "9d"},
                     down={"s": 0})
    assert code(st, rules, "s-t1") == "target.full"
    assert code(st, rules, "s-t3") is None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_column_cards_wait_until_the_stock_is_empty(rules):
    st = rules.setup({"f1": "Ac", "t1": "2c", "s": "5d"}, down={"s": 0})
    why = st.refusal(parse_move(rules, "t1-f1"))
    assert why.code == "strategy.stock-first"
    assert not any(m.src == rules.pile_index["t1"] for m in st.legal_moves())
    st.play(parse_move(rules, "s-t2"))
    assert code(st, rules, "t1-f1") is None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_foundations_build_up_in_suit_from_the_top_only(rules):
    st = rules.setup({"f1": "Ac", "f2": "Ad", "t1": "2c 2d", "t2": "3c", "t3": "2h"})
    assert code(st, rules, "t1-f2") is None
    assert code(st, rules, "t1-f1") == "build.foundation"
    assert code(st, rules, "t2-f1") == "build.foundation"
    assert code(st, rules, "t3-f1") == "build.foundation"
    assert code(st, rules, "t1:2-f1") == "unit.top"
    assert code(st, rules, "t2-t1") == "target.kind"  # nothing moves between columns
    st.play(parse_move(rules, "t1-f2"))
    assert code(st, rules, "t1-f1") is None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_the_stock_button_does_nothing_here(rules):
    assert code(rules.deal(SEED), rules, "s") == "stock.play"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_won_lost_and_score(rules):
    suits = "cdhs"
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQK") for i, s in enumerate(suits)}
    piles["f4"] = piles["f4"][:-3]
    piles["t1"] = "Ks"
    st = rules.setup(piles)
    assert st.score == 51 and st.status == "playing"
    st.play(parse_move(rules, "t1-f4"))
    assert st.status == "won" and st.score == 52
    st = rules.setup({"f1": "Ac", "f2": "Ad", "f3": "Ah", "f4": "As", "t1": "2c 3c", "t2": "4h"})
    assert st.status == "lost" and st.score == 4


def test_random_games_use_only_stock_to_column_moves_until_the_stock_is_empty():
    st = EASY.deal(b"order")
    k = 0
    while st.piles[EASY.stock_pile]:
        moves = st.legal_moves()
        assert all(m.src == EASY.stock_pile and EASY.pile_kinds[m.dst] == "tableau"
                   for m in moves)
        st.play(moves[k % len(moves)])
        k += 5
    assert sum(SUIT[c] >= 0 for t in EASY.by_kind["tableau"] for c in st.piles[t]) == 48
