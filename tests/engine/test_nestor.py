"""Nestor: pairs of one rank from column tops and the open reserve."""

from __future__ import annotations

import pytest

import engine
from engine.cards import parse_card
from engine.core import REMOVE, Move

from .positions import code, others

EASY = engine.get("nestor", "easy")
HARD = engine.get("nestor", "difficult")
SEED = b"nestor-test"


@pytest.mark.parametrize(("rules", "size", "reserve"), [(EASY, 7, 10), (HARD, 8, 4)])
def test_deal_columns_then_reserve_all_face_up(rules, size, reserve):
    st = rules.deal(SEED)
    deck = engine.shuffled_deck(SEED)
    names = rules.pile_names
    assert names == [f"t{i}" for i in range(1, 7)] + [f"r{i}" for i in range(1, reserve + 1)] \
        + ["f"]
    for i in range(6):
        assert st.piles[i] == deck[i * size:(i + 1) * size]
    for k in range(reserve):
        assert st.piles[6 + k] == [deck[6 * size + k]]
    assert st.piles[-1] == []
    assert all(d == 0 for d in st.down)
    assert 6 * size + reserve == 52


def test_pair_of_column_tops_goes_to_the_foundation():
    st = EASY.setup({"t1": "3c 7h", "t2": "Kd 7s", "t3": "9c"})
    st.play(engine.parse_move(EASY, "t1+t2"))
    assert st.piles[EASY.pile_index["f"]] == [parse_card("7h"), parse_card("7s")]
    assert st.piles[0] == [parse_card("3c")]
    assert st.score == 2
    st.undo()
    assert st.piles[0] == [parse_card("3c"), parse_card("7h")] and st.score == 0


def test_pair_must_share_a_rank():
    st = EASY.setup({"t1": "7h", "t2": "8s", "t3": "8c"})
    why = st.refusal(engine.parse_move(EASY, "t1+t2"))
    assert why.code == "nestor.not-pair"
    assert "7♥" in why.message and "8♠" in why.message
    assert code(st, "t2+t3") is None


def test_only_the_top_card_of_a_column_plays():
    st = EASY.setup({"t1": "7h 2c", "t2": "7s", "t3": "2d"})
    assert code(st, "t1+t2") == "nestor.not-pair"
    assert [m.piles for m in st.legal_moves()] == [(0, 2)]


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_any_reserve_card_pairs_even_with_another_reserve_card(rules):
    st = rules.setup({"r1": "5c", "r2": "9d", "r3": "5h", "t4": "9s Qd"})
    assert code(st, "r1+r3") is None
    assert code(st, "t4+r2") == "nestor.not-pair"
    assert set(st.legal_moves()) == {Move(REMOVE, piles=(EASY.pile_index["r1"],
                                                         EASY.pile_index["r3"]))}
    st.play(engine.parse_move(rules, "r1+r3"))
    assert st.score == 2


def test_column_and_reserve_pair():
    st = EASY.setup({"t6": "Jc", "r10": "Js"})
    assert code(st, "t6+r10") is None


@pytest.mark.parametrize(("text", "expected"), [
    ("t2+t1", "remove.order"),
    ("t1+t1", "remove.twice"),
    ("t1+", "remove.count"),
    ("t1+t2+t3", "remove.count"),
    ("t1+f", "remove.source"),
    ("t1+t4", "source.empty"),
    ("t1-t2", "source.fixed"),
    ("t1-f", "source.fixed"),
    ("redeal", "move.unknown"),
])
def test_refusals(text, expected):
    st = EASY.setup({"t1": "4h", "t2": "4c", "t3": "4d", "f": "Kc Ks"})
    assert code(st, text) == expected


def test_legal_moves_are_the_pairs_in_layout_order():
    st = EASY.setup({"t1": "4h", "t2": "4c", "t3": "Qd", "r2": "4d", "r5": "Qs"})
    idx = EASY.pile_index
    assert sorted(m.piles for m in st.legal_moves()) == sorted([
        (idx["t1"], idx["t2"]), (idx["t1"], idx["r2"]), (idx["t2"], idx["r2"]),
        (idx["t3"], idx["r5"])])


def test_win_when_every_card_is_on_the_foundation():
    st = EASY.setup({"t1": "Ah", "r1": "As", "f": others("Ah As")})
    assert st.status == "playing"
    st.play(engine.parse_move(EASY, "t1+r1"))
    assert st.status == "won" and st.score == 52


def test_lost_when_no_pair_remains():
    st = HARD.setup({"t1": "Ah 2h", "t2": "2s As", "r1": "3c", "f": others("Ah 2h 2s As 3c")})
    assert st.status == "lost" and st.score == 47
    with pytest.raises(engine.IllegalMove) as e:
        st.play(engine.parse_move(HARD, "t1+t2"))
    assert e.value.code == "game.over"
