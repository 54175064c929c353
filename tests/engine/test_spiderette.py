"""Spiderette, both variants: hand-built positions for each rule of docs/rules/spiderette.md."""

from __future__ import annotations

import pytest

import engine
from engine.deal import shuffled_deck

from .positions import cards as texts

EASY = engine.get("spiderette", "easy")
HARD = engine.get("spiderette", "difficult")
BOTH = [EASY, HARD]
IDS = ["easy", "difficult"]


def mv(rules: engine.RuleSet, text: str) -> engine.Move:
    return engine.parse_move(rules, text)


def code(st: engine.State, rules: engine.RuleSet, text: str) -> str | None:
    why = st.refusal(mv(rules, text))
    return None if why is None else why.code


@pytest.mark.parametrize(("rules", "hidden", "stock"), [(EASY, 2, 31), (HARD, 3, 24)], ids=IDS)
def test_deal_is_seven_columns_with_one_card_up(rules, hidden, stock):
    seed = b"spiderette-deal"
    st = rules.deal(seed)
    deck = shuffled_deck(seed)
    size = hidden + 1
    for k in range(7):
        assert st.piles[k] == deck[size * k:size * (k + 1)]
        assert st.down[k] == hidden
    s = rules.pile_index["s"]
    assert st.piles[s] == deck[7 * size:][::-1]
    assert len(st.piles[s]) == stock == st.down[s]
    assert not st.piles[rules.pile_index["f"]]
    assert rules.pile_names == ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "f", "s"]


@pytest.mark.parametrize(("rules", "deals"), [(EASY, 4), (HARD, 3)], ids=IDS)
def test_stock_deals_one_card_per_column_and_the_last_three_to_the_first_columns(rules, deals):
    seed = b"spiderette-stock"
    st = rules.deal(seed)
    s = rules.pile_index["s"]
    order = st.piles[s][::-1]  # the order the stock gives its cards
    size = len(st.piles[0])
    for d in range(deals):
        st.play(mv(rules, "s"))
        assert [st.piles[k][size + d] for k in range(7)] == order[7 * d:7 * d + 7]
    assert len(st.piles[s]) == 3
    st.play(mv(rules, "s"))
    assert [st.piles[k][-1] for k in range(3)] == order[-3:]
    assert [len(st.piles[k]) for k in range(7)] == [size + deals + 1] * 3 + [size + deals] * 4
    assert code(st, rules, "s") == "stock.empty"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_the_stock_may_be_dealt_with_an_empty_column(rules):
    st = rules.setup({"t1": "9h", "s": "2d 3d"})
    assert code(st, rules, "s") is None
    st.play(mv(rules, "s"))
    assert texts(st, "t1") == ["9h", "3d"] and texts(st, "t2") == ["2d"]


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_columns_build_down_regardless_of_suit(rules):
    st = rules.setup({"t1": "6s", "t2": "6h", "t3": "7s", "t4": "9d 5s", "t5": "Kc"})
    assert code(st, rules, "t4-t1") is None
    assert code(st, rules, "t4-t2") is None
    assert code(st, rules, "t4-t3") == "build.tableau"
    assert st.refusal(mv(rules, "t4-t3")).message == "5♠ can't go on 7♠: a 5 goes on a 6"
    assert code(st, rules, "t5-t3") == "build.tableau"  # no wrap: a King never goes on anything


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_only_the_top_card_or_the_whole_packed_run_moves(rules):
    st = rules.setup({"t1": "2c 9s 8h 7c 6d", "t2": "9d", "t3": "7h", "t4": "Ts"})
    assert code(st, rules, "t1-t3") is None          # the top card alone
    assert code(st, rules, "t1:4-t4") is None        # the whole run 9♠ 8♥ 7♣ 6♦
    assert code(st, rules, "t1:3-t4") == "unit.whole"
    assert code(st, rules, "t1:2-t2") == "unit.whole"
    assert code(st, rules, "t1:3-t2") == "unit.whole"
    assert code(st, rules, "t1:5-t4") == "unit.unpacked"
    st.play(mv(rules, "t1:4-t4"))
    assert texts(st, "t4") == ["Ts", "9s", "8h", "7c", "6d"]


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_any_card_or_run_fills_an_empty_column(rules):
    st = rules.setup({"t1": "Kc 5h", "t2": "Qd 8s 7s", "t4": "Kh Qc"})
    assert code(st, rules, "t1-t3") is None
    assert code(st, rules, "t2:2-t3") is None
    assert code(st, rules, "t4:2-t3") is None  # a whole column moving: legal,
    assert not rules.useful(st, mv(rules, "t4:2-t3"))  # but not useful


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_a_completed_run_leaves_the_table_by_itself(rules):
    st = rules.setup({"t1": "5c Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2c", "t2": "Ah", "t3": "9c"},
                     down={"t1": 1})
    st.play(mv(rules, "t2-t1"))
    assert " ".join(texts(st, "f")) == "Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2c Ah"
    assert texts(st, "t1") == ["5c"]
    assert st.down[0] == 0  # the card under the run turned up
    assert st.score == 13
    assert st.view()["info"] == {"sets": 1}
    st.undo()
    assert texts(st, "t2") == ["Ah"] and not st.piles[EASY.pile_index["f"]]
    assert st.down[0] == 1


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_a_stock_deal_can_complete_runs(rules):
    st = rules.setup({"t1": "Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2c", "t2": "5c",
                      "t3": "Kh Qh Js Th 9h 8h 7d 6h 5h 4h 3d 2h", "s": "9s Ac Ad As"})
    st.play(mv(rules, "s"))
    assert len(st.piles[rules.pile_index["f"]]) == 26
    assert not st.piles[0] and texts(st, "t2") == ["5c", "Ad"] and not st.piles[2]
    assert texts(st, "t4") == ["9s"]


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_nothing_is_played_to_or_taken_from_the_removed_pile(rules):
    st = rules.setup({"t1": "Ah", "t2": "2c", "f": "Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2h As"})
    assert code(st, rules, "t1-f") == "target.collects"
    assert st.refusal(mv(rules, "t1-f")).message == (
        "completed King-to-Ace runs leave the table by themselves; no card is played there")
    assert code(st, rules, "f-t2") == "source.fixed"
    assert st.refusal(mv(rules, "f-t2")).message == "completed runs stay off the table"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_score_is_13_per_set_plus_the_run_down_from_a_king_at_the_bottom(rules):
    st = rules.setup({
        "f": "Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2h As",
        "t1": "Kh Qc Jd 9s",   # 3: any suits
        "t2": "Qh Jc",         # 0: no King at the bottom
        "t3": "Ks",            # 1
        "t4": "Kc Qd",         # 0: face down, so not shown
    }, down={"t4": 1})
    assert st.score == 13 + 3 + 1


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_won_when_four_sets_are_removed(rules):
    st = rules.setup({
        "f": " ".join(r + s for s in "cdh" for r in "KQJT98765432A"),
        "t1": "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "t2": "As",
    })
    assert st.status == "playing" and st.score == 39 + 12
    st.play(mv(rules, "t2-t1"))
    assert st.status == "won" and st.score == 52


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_trading_places_keeps_the_game_open(rules):
    # The stock is empty; 5♥ may trade its 6♣ for the 6♦ and back. That is a legal, useful
    # move by docs/rules/decisions.md (only whole piles into equivalent empty piles are not).
    st = rules.setup({"t1": "Qc 6c 5h", "t2": "8d 6d", "t3": "Js 9h", "t4": "Ts Jd",
                      "t5": "Th Kh", "t6": "2s Ks", "t7": "3s Kc"},
                     down={"t1": 1, "t2": 1, "t3": 1, "t4": 1, "t5": 1, "t6": 1, "t7": 1})
    assert rules.legal_moves(st) == [mv(rules, "t1-t2")]
    assert rules.useful(st, mv(rules, "t1-t2"))
    assert st.status == "playing"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_lost_when_only_whole_columns_into_empty_columns_are_left(rules):
    st = rules.setup({"t1": "6c", "t2": "3d"})
    assert rules.legal_moves(st) and st.status == "lost"


@pytest.mark.parametrize("rules", BOTH, ids=IDS)
def test_trading_places_is_useful_when_it_completes_a_set(rules):
    st = rules.setup({"t1": "Kd Qs Jh Tc 9d 8s 7h 6c 5d 4s 3h 2c", "t2": "3d 2h Ah",
                      "t3": "Js 9h", "t4": "Ts 4h", "t5": "Th 5s", "t6": "Jc 6h",
                      "t7": "Jd 8h"}, down={"t2": 1, "t3": 1, "t4": 1, "t5": 1, "t6": 1,
                                           "t7": 1})
    assert rules.useful(st, mv(rules, "t2-t1"))
    st.play(mv(rules, "t2-t1"))
    assert len(st.piles[rules.pile_index["f"]]) == 13


def test_refusals_never_name_a_face_down_card():
    st = HARD.setup({"t1": "Qd 5s", "t2": "7d"}, down={"t1": 1})
    for name in ("t1:2-t2", "t1-t2", "t1-f"):
        why = st.refusal(mv(HARD, name))
        assert why is not None and "Q♦" not in why.message
