"""Triplets: three column tops in rank sequence, wrapping K-A; one card is left."""

from __future__ import annotations

import pytest

import engine
from engine.core import REMOVE, Move

from .positions import code, others

EASY = engine.get("triplets", "easy")
HARD = engine.get("triplets", "difficult")
SEED = b"triplets-test"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_sixteen_threes_then_two_twos(rules):
    st = rules.deal(SEED)
    deck = engine.shuffled_deck(SEED)
    sizes = [len(p) for p in st.piles]
    assert sizes == [3] * 16 + [2, 2] + [0]
    assert st.piles[0] == deck[0:3] and st.piles[15] == deck[45:48]
    assert st.piles[16] == deck[48:50] and st.piles[17] == deck[50:52]
    assert not any(st.down)


@pytest.mark.parametrize("rules", [EASY, HARD])
@pytest.mark.parametrize("cards", [("7h", "8s", "9c"), ("9c", "7h", "8s"), ("Kd", "Ac", "2s"),
                                   ("Qd", "Kc", "As"), ("Ah", "2h", "3s")])
def test_sequences_in_any_order_with_wrap(rules, cards):
    st = rules.setup({"t2": cards[0], "t5": cards[1], "t9": cards[2], "t1": "5d"})
    assert code(st, "t2+t5+t9") is None
    st.play(engine.parse_move(rules, "t2+t5+t9"))
    assert st.score == 3 and len(st.piles[EASY.pile_index["f"]]) == 3


@pytest.mark.parametrize("cards", [("7h", "8s", "Tc"), ("Jd", "Kc", "As"), ("7h", "7s", "8c"),
                                   ("Kd", "2c", "As")])
def test_not_a_sequence(cards):
    st = EASY.setup({"t2": cards[0], "t5": cards[1], "t9": cards[2], "t1": "5d",
                     "t10": "9d", "t11": "Th", "t12": "Jc"})
    why = st.refusal(engine.parse_move(EASY, "t2+t5+t9"))
    if cards == ("Kd", "2c", "As"):  # K-A-2 in any order is a sequence
        assert why is None
    else:
        assert why.code == "triplets.not-sequence"


def test_difficult_forbids_three_of_one_suit_easy_allows_it():
    pos = {"t1": "4h", "t2": "5h", "t3": "6h", "t4": "7s"}
    assert code(EASY.setup(pos), "t1+t2+t3") is None
    hard = HARD.setup(pos)
    assert code(hard, "t1+t2+t3") == "triplets.one-suit"
    assert code(hard, "t2+t3+t4") is None  # two of one suit is fine
    idx = HARD.pile_index
    assert set(hard.legal_moves()) == {Move(REMOVE, piles=(idx["t2"], idx["t3"], idx["t4"]))}
    assert len(EASY.setup(pos).legal_moves()) == 2


@pytest.mark.parametrize(("text", "expected"), [
    ("t1+t2", "remove.count"),
    ("t3+t2+t1", "remove.order"),
    ("t1+t1+t2", "remove.twice"),
    ("t1+t2+t18", "source.empty"),
    ("t1+t2+f", "remove.source"),
    ("t1-t18", "source.fixed"),
])
def test_refusals(text, expected):
    st = EASY.setup({"t1": "4h", "t2": "5c", "t3": "6d", "f": "Kc"})
    assert code(st, text) == expected


def test_only_column_tops_count():
    st = EASY.setup({"t1": "4h", "t2": "5c", "t3": "6d 9s", "t4": "Jh", "t5": "Ts"})
    assert code(st, "t1+t2+t3") == "triplets.not-sequence"
    assert [m.piles for m in st.legal_moves()] == [(2, 3, 4)]


def test_win_at_51_removed_and_a_king_left_triples_the_score():
    st = EASY.setup({"t1": "Ks", "t2": "Jd", "t3": "Qc", "t4": "Th",
                     "f": others("Ks Jd Qc Th")})
    st.play(engine.parse_move(EASY, "t2+t3+t4"))
    assert st.status == "won" and st.score == 153


def test_win_with_another_card_left_scores_51():
    st = HARD.setup({"t1": "2s", "t2": "Jd", "t3": "Qc", "t4": "Kh",
                     "f": others("2s Jd Qc Kh")})
    st.play(engine.parse_move(HARD, "t2+t3+t4"))
    assert st.status == "won" and st.score == 51


def test_lost_when_no_triplet_remains():
    st = EASY.setup({"t1": "Ks", "t2": "Jd", "t3": "2c", "t4": "Kh",
                     "f": others("Ks Jd 2c Kh")})
    assert st.status == "lost" and st.score == 48
