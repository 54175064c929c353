"""Calculation: the guides, each foundation's counting table, the waste columns, the end."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import RANK, TEXT, parse_card
from engine.deal import shuffled_deck
from engine.games.calculation import NEED

EASY = engine.get("calculation", "easy")
HARD = engine.get("calculation", "difficult")
BOTH = [EASY, HARD]
SEED = b"calculation test"

TABLES = {  # the rule text's table, guide first
    1: "A 2 3 4 5 6 7 8 9 T J Q K",
    2: "2 4 6 8 T Q A 3 5 7 9 J K",
    3: "3 6 9 Q 2 5 8 J A 4 7 T K",
    4: "4 8 Q 3 7 J 2 6 T A 5 9 K",
}


def code(st, rules, text):
    why = st.refusal(parse_move(rules, text))
    return why.code if why else None


def cards(st, rules, name):
    return [TEXT[c] for c in st.piles[rules.pile_index[name]]]


def test_the_tables_match_the_rule_text():
    for g, row in TABLES.items():
        ranks = ["A23456789TJQK".index(r) + 1 for r in row.split()]
        assert list(NEED[g - 1][1:]) == [*ranks[1:], 0]


def test_column_counts():
    assert [n for n in EASY.pile_names if n.startswith("t")] == ["t1", "t2", "t3", "t4", "t5"]
    assert [n for n in HARD.pile_names if n.startswith("t")] == ["t1", "t2", "t3", "t4"]


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_deal_takes_the_first_ace_two_three_four_met_in_the_deck(rules):
    st = rules.deal(SEED)
    deck = shuffled_deck(SEED)
    guides = [next(c for c in deck if RANK[c] == r) for r in (1, 2, 3, 4)]
    for i, g in enumerate(guides):
        assert st.piles[rules.pile_index[f"f{i + 1}"]] == [g]
    rest = [c for c in deck if c not in guides]
    s = rules.pile_index["s"]
    assert st.piles[s] == rest[::-1]  # the other cards keep their order
    assert st.down[s] == 47  # the flipped top card is shown
    for t in rules.by_kind["tableau"]:
        assert st.piles[t] == []
    assert st.score == 4


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_each_foundation_follows_its_table_regardless_of_suit(rules):
    st = rules.setup({"f1": "Ac", "f2": "2d", "f3": "3h", "f4": "4s", "s": "9d 8h"},
                     down={"s": 1})
    assert code(st, rules, "s-f4") is None  # 8 follows the Four guide
    assert code(st, rules, "s-f1") == "calculation.sequence"
    assert code(st, rules, "s-f2") == "calculation.sequence"
    why = st.refusal(parse_move(rules, "s-f3"))
    assert why.code == "calculation.sequence" and "6" in why.message
    st.play(parse_move(rules, "s-f4"))
    assert cards(st, rules, "f4") == ["4s", "8h"]
    assert code(st, rules, "s-f3") == "calculation.sequence"
    assert code(st, rules, "s-f1") == "calculation.sequence"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_counting_wraps_past_the_king_to_the_ace(rules):
    st = rules.setup({"f2": "2d 4d 6d 8d Td Qd", "s": "Ac"}, down={"s": 0})
    assert code(st, rules, "s-f2") is None  # Q then A in the Two guide's row
    st = rules.setup({"f2": "2d 4d 6d 8d Td", "s": "Ac"}, down={"s": 0})
    assert code(st, rules, "s-f2") == "calculation.sequence"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_a_king_ends_a_foundation(rules):
    full = " ".join(t + "c" for t in "A23456789TJQK")
    st = rules.setup({"f1": full, "s": "Kd"}, down={"s": 0})
    assert code(st, rules, "s-f1") == "calculation.complete"
    st = rules.setup({"f1": full[:-3], "s": "Kd"}, down={"s": 0})
    assert code(st, rules, "s-f1") is None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_flipped_card_goes_on_any_card_of_any_column(rules):
    st = rules.setup({"f1": "Ac", "t1": "Kh", "t2": "2s", "s": "5d 7c"}, down={"s": 1})
    for t in rules.by_kind["tableau"]:
        assert st.refusal(engine.Move("move", rules.stock_pile, t)) is None
    st.play(parse_move(rules, "s-t1"))
    assert cards(st, rules, "t1") == ["Kh", "7c"]
    assert st.down[rules.stock_pile] == 0  # the next card is flipped
    assert st.revealed[-1]


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_column_cards_go_only_from_the_top_to_a_foundation(rules):
    st = rules.setup({"f1": "Ac", "t1": "2h 9s", "t2": "5s", "t3": "2c", "s": "5d"})
    assert code(st, rules, "t3-f1") is None
    assert code(st, rules, "t1:2-f1") == "unit.top"
    assert code(st, rules, "t1-f1") == "calculation.sequence"
    assert code(st, rules, "t1-t2") == "target.kind"
    assert code(st, rules, "t3-t4") == "target.kind"
    st.play(parse_move(rules, "t3-f1"))
    assert cards(st, rules, "f1") == ["Ac", "2c"]


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_the_stock_button_does_nothing_here(rules):
    st = rules.deal(SEED)
    assert code(st, rules, "s") == "stock.play"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_won_with_all_52_on_the_foundations(rules):
    rows = {}
    for g, row in TABLES.items():
        suit = "cdhs"[g - 1]
        rows[f"f{g}"] = " ".join(r + suit for r in row.split())
    last = rows["f4"].split()[-1]
    rows["f4"] = rows["f4"][: -len(last) - 1]
    st = rules.setup({**rows, "t1": last})
    assert st.status == "playing" and st.score == 51
    st.play(parse_move(rules, "t1-f4"))
    assert st.status == "won" and st.score == 52


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_lost_when_the_stock_is_out_and_no_top_fits(rules):
    st = rules.setup({"f1": "Ac", "f2": "2d", "f3": "3h", "f4": "4s", "t1": "Kh", "t2": "7d"})
    assert st.status == "lost"
    assert st.score == 4
    assert rules.info(st)["needs"] == {"f1": "2", "f2": "4", "f3": "6", "f4": "8"}


def test_a_refusal_names_only_the_shown_stock_card():
    st = EASY.setup({"f1": "Ac", "s": "Kd 9d"}, down={"s": 1})
    why = st.refusal(parse_move(EASY, "s-f1"))
    assert "9♦" in why.message and "K♦" not in why.message
    assert st.refusal(parse_move(EASY, "s:2-t1")).code == "source.hidden"
    assert parse_card("Kd") in st.hidden_cards()
