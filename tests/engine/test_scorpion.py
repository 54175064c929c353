"""Scorpion, both variants: hand-built positions for each rule of docs/rules/scorpion.md."""

from __future__ import annotations

import pytest

import engine
from engine.deal import shuffled_deck

from .positions import cards as texts

EASY = engine.get("scorpion", "easy")
HARD = engine.get("scorpion", "difficult")
BOTH = [EASY, HARD]
IDS = ["easy", "difficult"]


def mv(rules: engine.RuleSet, text: str) -> engine.Move:
    return engine.parse_move(rules, text)


def code(st: engine.State, rules: engine.RuleSet, text: str) -> str | None:
    why = st.refusal(mv(rules, text))
    return None if why is None else why.code


def run(suit: str, ranks: str = "KQJT98765432A") -> str:
    return " ".join(r + suit for r in ranks)


@pytest.mark.parametrize(("rules", "hidden"), [(EASY, 2), (HARD, 3)], ids=IDS)
def test_deal_is_seven_by_seven_with_hidden_cards_in_the_first_four(rules, hidden):
    seed = b"scorpion-deal"
    st = rules.deal(seed)
    deck = shuffled_deck(seed)
    for k in range(7):
        assert st.piles[k] == deck[7 * k:7 * k + 7]
        assert st.down[k] == (hidden if k < 4 else 0)
    s = rules.pile_index["s"]
    assert st.piles[s] == deck[49:][::-1]  # the stock's first card is on top
    assert st.down[s] == 3
    assert rules.pile_names == ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "s"]


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_the_stock_deals_its_three_cards_to_the_first_three_columns(rules):
    seed = b"scorpion-stock"
    st = rules.deal(seed)
    deck = shuffled_deck(seed)
    st.play(mv(rules, "s"))
    assert [st.piles[k][-1] for k in range(3)] == deck[49:52]
    assert [len(st.piles[k]) for k in range(7)] == [8, 8, 8, 7, 7, 7, 7]
    assert not st.piles[rules.pile_index["s"]]
    assert code(st, rules, "s") == "stock.empty"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_the_stock_may_be_dealt_at_any_time(rules):
    st = rules.setup({"t1": "9h 5c", "t2": "6c", "s": "2d 3d 4d"})
    assert mv(rules, "t1-t2") in st.legal_moves()
    assert code(st, rules, "s") is None
    st.play(mv(rules, "s"))
    assert texts(st, "t1")[-1] == "4d" and texts(st, "t3") == ["2d"]


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_columns_build_down_in_suit(rules):
    st = rules.setup({"t1": "6s", "t2": "6h", "t3": "7s", "t4": "9d 5s"})
    assert code(st, rules, "t4-t1") is None
    assert code(st, rules, "t4-t2") == "build.tableau"
    assert code(st, rules, "t4-t3") == "build.tableau"
    assert st.refusal(mv(rules, "t4-t2")).message == (
        "5♠ can't go on 6♥: the 5♠ goes on the 6♠")


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_any_face_up_card_moves_with_everything_on_it(rules):
    st = rules.setup({"t1": "Ad 2c 8h Jc 3d", "t2": "9h", "t5": "Kc", "t6": "6s", "t7": "5s"},
                     down={"t1": 2})
    st.play(mv(rules, "t1:3-t2"))  # 8♥ with J♣ and 3♦ on it
    assert texts(st, "t2") == ["9h", "8h", "Jc", "3d"]
    assert st.down[0] == 1  # the 2♣ turned up by itself
    assert code(st, rules, "t1:2-t5") == "source.hidden"


def test_easy_fills_an_empty_column_with_any_card():
    st = EASY.setup({"t1": "Kd 9s 4h", "t2": "8c"})
    assert code(st, EASY, "t1:2-t3") is None
    assert code(st, EASY, "t2-t3") is None


def test_difficult_fills_an_empty_column_only_with_a_king():
    st = HARD.setup({"t1": "9s Kd 4h", "t2": "9d 8c"})
    assert code(st, HARD, "t2-t3") == "fill.king"
    assert st.refusal(mv(HARD, "t2-t3")).message == "only a King can fill an empty column"
    st.play(mv(HARD, "t1:2-t3"))
    assert texts(st, "t3") == ["Kd", "4h"]


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_score_counts_suit_runs_down_from_a_king_at_the_bottom(rules):
    st = rules.setup({
        "t1": "Kh Qh Jh 9h",        # 3: the 9♥ breaks the run
        "t2": "Ks Qs Jc",           # 2
        "t3": "Qd Jd Td",           # 0: no King at the bottom
        "t4": "2c Kc Qc",           # 0: the King is not at the bottom
        "t5": "Kd",                 # 1
        "t6": "Ad 2d",
    })
    assert st.score == 6
    hidden = rules.setup({"t1": "Kh Qh Jh", "t2": "5c"}, down={"t1": 1})
    assert hidden.score == 0  # a face-down King is not shown, so it does not count


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_completed_runs_stay_on_the_table_and_four_win(rules):
    st = rules.setup({"t1": run("c"), "t2": run("d"), "t3": run("h"),
                      "t4": run("s", "KQJT98765432"), "t5": "As"})
    assert st.status == "playing" and st.score == 51
    st.play(mv(rules, "t5-t4"))
    assert len(st.piles[0]) == 13  # a completed run is not removed
    assert st.status == "won"
    assert st.score == 52


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_lost_when_no_move_is_left(rules):
    st = rules.setup({"t1": "4h 9c", "t2": "5c 8d", "t3": "Ks 2s", "t4": "Kh 7h",
                      "t5": "Kd 4c", "t6": "Kc 9s", "t7": "5h Jh"})
    assert rules.legal_moves(st) == []
    assert st.status == "lost"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_only_moves_into_equivalent_empty_columns_are_not_useful(rules):
    # Every King column could move to an empty column: not useful (docs/rules/decisions.md).
    st = rules.setup({"t1": "Kh Qh Jh", "t2": "Kc Qc"})
    whole = [m for m in rules.legal_moves(st) if m.n == len(st.piles[m.src])]
    assert whole and all(not rules.useful(st, m) for m in whole)
    if rules is EASY:
        # Easy may also split a run into an empty column: a real move, so play goes on.
        assert rules.useful(st, mv(rules, "t1-t3"))
        assert st.status == "playing"
    else:
        assert st.status == "lost"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_moving_a_card_that_does_not_build_on_its_neighbour_is_useful(rules):
    st = rules.setup({"t1": "Kh 7h", "t2": "Ks 9c 6h", "t3": "Kd 2s", "t4": "Kc 4d",
                      "t5": "Qs 3c", "t6": "Jd 8d", "t7": "Td 5s"})
    assert rules.legal_moves(st) == [mv(rules, "t2-t1")]
    assert st.status == "playing"
    st.play(mv(rules, "t2-t1"))
    assert st.status == "lost"


def test_easy_moving_a_misplaced_card_to_an_empty_column_is_useful():
    st = EASY.setup({"t1": "Kh Qh", "t2": "Ks 9c"})
    assert st.status == "playing"
    st.play(mv(EASY, "t2-t3"))  # uncovers the K♠
    assert rules_useful_moves(st) != []


def rules_useful_moves(st):
    return [m for m in st.legal_moves() if st.rules.useful(st, m)]


def test_refusals_never_name_a_face_down_card():
    st = HARD.setup({"t1": "Qd 5s", "t2": "6d"}, down={"t1": 1})
    for name in ("t1:2-t2", "t1-t2", "t1:2-t3"):
        why = st.refusal(mv(HARD, name))
        assert why is not None and "Q♦" not in why.message
