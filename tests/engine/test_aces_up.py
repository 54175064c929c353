"""Aces Up: the deal, discarding beaten cards (Aces high), spaces, the easy waste, the end."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import TEXT
from engine.deal import shuffled_deck

EASY = engine.get("aces-up", "easy")
HARD = engine.get("aces-up", "difficult")
BOTH = [EASY, HARD]
SEED = b"aces-up test"


def code(st, rules, text):
    why = st.refusal(parse_move(rules, text))
    return why.code if why else None


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_deal_one_card_to_each_column_then_the_stock(rules):
    st = rules.deal(SEED)
    deck = shuffled_deck(SEED)
    for i in range(4):
        assert st.piles[rules.pile_index[f"t{i + 1}"]] == [deck[i]]
        assert st.down[rules.pile_index[f"t{i + 1}"]] == 0
    s = rules.pile_index["s"]
    assert st.piles[s] == deck[4:][::-1]  # the deck's fifth card is drawn next
    assert st.down[s] == 48
    assert not st.piles[rules.pile_index["f"]]


def test_only_easy_has_the_waste():
    assert "w" in EASY.pile_names
    assert "w" not in HARD.pile_names


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_stock_deals_one_card_to_each_column_leftmost_first(rules):
    st = rules.deal(SEED)
    deck = shuffled_deck(SEED)
    st.play(parse_move(rules, "s"))
    for i in range(4):
        assert st.piles[rules.pile_index[f"t{i + 1}"]] == [deck[i], deck[4 + i]]
    assert st.down[rules.pile_index["s"]] == 44
    assert st.revealed[-1]


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_a_top_card_beaten_by_a_higher_top_card_of_its_suit_is_discarded(rules):
    st = rules.setup({"t1": "5h", "t2": "Kh", "t3": "9h", "t4": "Qs", "s": "2c"})
    assert code(st, rules, "t1-f") is None
    assert code(st, rules, "t3-f") is None
    assert code(st, rules, "t2-f") == "aces-up.not-beaten"  # no higher heart on top
    assert code(st, rules, "t4-f") == "aces-up.not-beaten"  # the only spade
    st.play(parse_move(rules, "t1-f"))
    assert TEXT[st.piles[rules.pile_index["f"]][-1]] == "5h"
    assert st.score == 1


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_aces_rank_highest(rules):
    st = rules.setup({"t1": "Kd", "t2": "Ad", "t3": "2d", "s": "2c"})
    assert code(st, rules, "t1-f") is None  # the Ace beats the King
    assert code(st, rules, "t3-f") is None
    assert code(st, rules, "t2-f") == "aces-up.not-beaten"  # nothing beats an Ace


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_only_other_columns_top_cards_count(rules):
    st = rules.setup({"t1": "Kh 5h", "t2": "Ah 3c", "s": "2c"})
    why = st.refusal(parse_move(rules, "t1-f"))
    assert why.code == "aces-up.not-beaten"
    assert "5♥" in why.message and "heart" in why.message


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_one_card_at_a_time(rules):
    st = rules.setup({"t1": "2h 5h", "t2": "Kh", "s": "2c"})
    assert code(st, rules, "t1:2-f") == "unit.top"
    assert code(st, rules, "t1:2-t3") == "unit.top"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_a_space_takes_any_top_card_and_nothing_else_moves_between_columns(rules):
    st = rules.setup({"t1": "2h 5h", "t2": "Kh", "t3": "3c", "s": "2c"})
    assert code(st, rules, "t1-t4") is None
    assert code(st, rules, "t2-t4") is None
    assert code(st, rules, "t1-t2") == "target.closed"
    assert code(st, rules, "t3-t2") == "target.closed"
    st.play(parse_move(rules, "t1-t4"))
    assert [TEXT[c] for c in st.piles[rules.pile_index["t4"]]] == ["5h"]


def test_moving_a_lone_card_into_a_space_is_not_useful():
    st = HARD.setup({"t1": "5h", "t2": "Kd", "t3": "3c", "t4": ""})
    assert HARD.refusal(st, parse_move(HARD, "t1-t4")) is None  # legal by the rules
    assert st.status == "lost"  # the only legal moves shift lone cards between spaces


def test_easy_waste_takes_any_top_card_five_in_all_one_way():
    st = EASY.setup({"t1": "2c 3c 4c 5c 6c 7c", "t2": "Kh", "s": "2d"})
    for _ in range(5):
        assert code(st, EASY, "t1-w") is None
        st.play(parse_move(EASY, "t1-w"))
    assert len(st.piles[EASY.pile_index["w"]]) == 5
    assert code(st, EASY, "t1-w") == "target.full"
    assert code(st, EASY, "w-t3") == "source.fixed"
    assert code(st, EASY, "w-f") == "source.fixed"


def test_difficult_has_no_waste_to_play_to():
    with pytest.raises(engine.IllegalMove) as e:
        parse_move(HARD, "t1-w")
    assert e.value.code == "move.syntax"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_stock_is_legal_any_time_until_empty(rules):
    st = rules.setup({"t1": "5h", "t2": "Kh", "s": "2c 3c 4c 5c"})
    assert code(st, rules, "s") is None  # a discard is possible, dealing is still allowed
    st.play(parse_move(rules, "s"))
    assert code(st, rules, "s") == "stock.empty"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_won_with_only_the_four_aces_one_per_column(rules):
    st = rules.setup({"t1": "Ac 2s", "t2": "Ad", "t3": "Ah", "t4": "As", "f": "Kh Qh"})
    assert st.status == "playing"
    st.play(parse_move(rules, "t1-f"))
    assert st.status == "won"
    assert st.score == 3


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_not_won_while_the_stock_holds_cards(rules):
    st = rules.setup({"t1": "Ac", "t2": "Ad", "t3": "Ah", "t4": "As", "s": "2c 3c 4c 5c"})
    assert st.status == "playing"


@pytest.mark.parametrize("rules", BOTH, ids=["easy", "difficult"])
def test_two_aces_in_a_column_is_not_a_win_until_one_moves_to_a_space(rules):
    st = rules.setup({"t1": "Ac Ad", "t2": "Kh", "t3": "Ah", "t4": "As"})
    assert st.status == "playing"
    st.play(parse_move(rules, "t2-f"))
    assert st.status == "playing"
    st.play(parse_move(rules, "t1-t2"))
    assert st.status == "won"
    assert st.score == 1


def test_lost_when_no_discard_no_space_and_the_stock_is_empty():
    st = HARD.setup({"t1": "5h", "t2": "Kd", "t3": "3c", "t4": "As"})
    assert st.status == "lost"
    assert st.score == 0
    st = EASY.setup({"t1": "5h", "t2": "Kd", "t3": "3c", "t4": "As",
                     "w": "2c 3d 4d 5d 6d"})
    assert st.status == "lost"  # the waste is full


def test_easy_waste_keeps_the_game_alive():
    st = EASY.setup({"t1": "5h", "t2": "Kd", "t3": "3c", "t4": "As"})
    assert st.status == "playing"
    st.play(parse_move(EASY, "t1-w"))  # frees a space
    assert st.status == "playing"


def test_a_discard_that_can_cost_nothing_is_the_only_move_a_solver_tries():
    """A card's one use is to beat lower cards of its suit: with none of them left in the
    columns or the stock, its discard can never cost a win (``costless``), so the search
    tries it alone. A lower card in the one-way waste needs no beating."""
    from engine.solver.depth import chosen

    def discard(st, rules):
        return next(m for m in st.legal_moves() if engine.move_text(rules, m) == "t1-f")

    # The 3♥ beaten by the 9♥; the 2♥ already discarded, the stock holds no heart.
    st = EASY.setup({"t1": "3h", "t2": "9h", "t3": "5c", "f": "2h", "s": "Kd 7s"})
    assert EASY.costless(st, discard(st, EASY))
    assert chosen(st) == [discard(st, EASY)]
    # The 2♥ still to come from the stock: the 3♥ might beat it, so its discard is a choice.
    st = EASY.setup({"t1": "3h", "t2": "9h", "t3": "5c", "s": "Kd 2h 7s"})
    assert not EASY.costless(st, discard(st, EASY))
    assert len(chosen(st)) > 1
    # The 2♥ under the 3♥ in its own column: moved to a space, the 3♥ could beat it.
    st = HARD.setup({"t1": "2h 3h", "t2": "9h", "t3": "5c", "s": "Kd 7s"})
    assert not HARD.costless(st, discard(st, HARD))
    # The 2♥ in the waste stays there for good.
    st = EASY.setup({"t1": "3h", "t2": "9h", "t3": "5c", "w": "2h", "s": "Kd 7s"})
    assert EASY.costless(st, discard(st, EASY))
    # Moves to a space or the waste are never costless.
    assert not any(EASY.costless(st, m) for m in st.legal_moves()
                   if engine.move_text(EASY, m) != "t1-f")
