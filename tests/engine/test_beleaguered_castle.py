"""Beleaguered Castle, both variants, on hand-built positions
(docs/rules/beleaguered-castle.md)."""

from __future__ import annotations

import pytest

import engine
from engine.cards import RANK, SUIT, TEXT

from .positions import play, refused

EASY = engine.get("beleaguered-castle", "easy")
HARD = engine.get("beleaguered-castle", "difficult")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_aces_out_the_rest_in_deck_order(rules):
    seed = b"castle"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    rest = [c for c in deck if RANK[c] != 1]
    assert rest != deck[:48]  # the seed has an Ace among the first 48 cards
    assert [st.piles[t] for t in range(8)] == [rest[i * 6 : i * 6 + 6] for i in range(8)]
    assert [TEXT[st.piles[f][0]] for f in rules.by_kind["foundation"]] == [
        "Ac", "Ad", "Ah", "As"]
    assert [len(st.piles[f]) for f in rules.by_kind["foundation"]] == [1] * 4
    assert sum(st.down) == 0 and st.score == 4
    assert st.history == [] and st.can_undo().code == "undo.nothing"


def test_columns_build_down_regardless_of_suit_top_card_only():
    st = EASY.setup({"t1": "7h", "t2": "8h", "t3": "9c", "t4": "2d 6s", "t5": "7c"})
    e = refused(st, "t1-t3")
    assert (e.code, e.message) == ("build.tableau", "7♥ can't go on 9♣: a 7 goes on an 8")
    play(st, "t1-t2")
    assert refused(st, "t4:2-t5").code == "unit.top"
    play(st, "t4-t5")


def test_a_column_holds_at_most_thirteen_cards():
    st = EASY.setup({"t1": "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Qh", "t2": "Jh", "t3": "Qd"})
    e = refused(st, "t2-t1")
    assert (e.code, e.message) == ("target.full", "a column holds at most 13 cards")
    play(st, "t2-t3")


def test_only_kings_fill_empty_columns():
    st = EASY.setup({"t1": "5c Qh", "t2": "3d Kd"})
    e = refused(st, "t1-t3")
    assert (e.code, e.message) == ("fill.king", "only a King can fill an empty column")
    play(st, "t2-t3")


def test_easy_foundations_build_up_in_any_suit():
    st = EASY.setup({"f1": "Ac", "f2": "Ad", "t1": "2h", "t2": "3s", "t3": "4d"})
    play(st, "t1-f1")
    play(st, "t2-f1")
    assert refused(st, "t3-f2").code == "build.foundation"
    play(st, "t3-f1")


def test_difficult_foundations_build_up_in_suit():
    st = HARD.setup({"f1": "Ac", "f3": "Ah", "t1": "2h"})
    e = refused(st, "t1-f1")
    assert (e.code, e.message) == ("build.foundation", "2♥ can't go on A♣: the 2♥ goes on the A♥")
    play(st, "t1-f3")


def test_no_card_leaves_a_foundation():
    st = EASY.setup({"f1": "Ac 2c", "t1": "5h", "t2": "3d"})
    assert refused(st, "f1-t2").code == "source.fixed"


def test_win_and_score():
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQ")
             for i, s in enumerate("cdhs")}
    piles["t1"] = "Kc Kd"
    piles["t2"] = "Kh Ks"
    st = HARD.setup(piles)
    for m in ("t1-f2", "t1-f1", "t2-f4"):
        play(st, m)
    assert st.status == "playing" and st.score == 51
    play(st, "t2-f3")
    assert st.status == "won" and st.score == 52


def test_lost_when_only_to_and_fro_moves_are_left():
    base = {"f1": "Ac", "f2": "Ad", "f3": "Ah", "f4": "As 2s 3s 4s 5s 6s 7s 8s"}
    st = HARD.setup({**base, "t1": "9h 8d", "t2": "9c", "t3": "Qc"})
    assert st.status == "lost" and st.legal_moves() == []
    assert len(HARD.legal_moves(st)) == 1  # 8d may still go to and fro between 9h and 9c
    st = HARD.setup({**base, "t1": "9s 8d", "t2": "9c", "t3": "Qc"})
    assert st.status == "playing"  # moving 8d uncovers 9s for its foundation
    play(st, "t1-t2")
    play(st, "t1-f4")
    assert st.score == 12 and SUIT[st.piles[HARD.pile_index["f4"]][-1]] == 3
