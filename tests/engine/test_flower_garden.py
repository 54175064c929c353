"""Flower Garden, both variants, on hand-built positions (docs/rules/flower-garden.md)."""

from __future__ import annotations

import pytest

import engine
from engine.cards import TEXT

from .positions import play, refused

EASY = engine.get("flower-garden", "easy")
HARD = engine.get("flower-garden", "difficult")


@pytest.mark.parametrize("rules,size,spare", [(EASY, 5, 22), (HARD, 6, 16)])
def test_deal_six_columns_then_the_reserve_one_pile_per_card(rules, size, spare):
    seed = b"garden"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    assert [st.piles[t] for t in range(6)] == [deck[i * size : (i + 1) * size]
                                               for i in range(6)]
    reserve = rules.by_kind["reserve"]
    assert [rules.pile_names[r] for r in reserve] == [f"r{i}" for i in range(1, spare + 1)]
    assert [st.piles[r] for r in reserve] == [[c] for c in deck[6 * size :]]
    assert sum(st.down) == 0 and st.score == 0
    view = st.view()
    assert [view["piles"][f"r{i}"]["up"][0] for i in range(1, spare + 1)] == [
        TEXT[c] for c in deck[6 * size :]]


def test_every_reserve_card_plays_to_a_column_or_foundation():
    st = EASY.setup({"r1": "5c", "r2": "Ah", "r3": "7d", "t1": "8s", "t2": "6h", "r4": "2h"})
    play(st, "r3-t1")
    play(st, "r2-f1")
    play(st, "r1-t2")
    assert refused(st, "r1-t3").code == "source.empty"


def test_nothing_goes_onto_the_reserve():
    st = EASY.setup({"r1": "5c", "r2": "", "t1": "4h"})
    e = refused(st, "t1-r1")
    assert (e.code, e.message) == ("target.kind",
                                   "cards from the column can't go to the reserve")
    assert refused(st, "r1-r2").code == "target.kind"


def test_columns_build_down_regardless_of_suit_top_card_only():
    st = HARD.setup({"t1": "7h", "t2": "8c", "t3": "9c", "t4": "2d 6s", "t5": "7c"})
    e = refused(st, "t1-t3")
    assert (e.code, e.message) == ("build.tableau", "7♥ can't go on 9♣: a 7 goes on an 8")
    play(st, "t1-t2")
    assert refused(st, "t4:2-t5").code == "unit.top"
    play(st, "t4-t5")


def test_any_card_fills_an_empty_column():
    st = EASY.setup({"t1": "5c Qh", "r1": "3d"})
    play(st, "t1-t2")
    play(st, "r1-t3")


def test_foundations_start_with_aces_and_build_in_suit():
    st = EASY.setup({"t1": "2h", "r1": "Ah", "r2": "2s"})
    assert refused(st, "t1-f1").code == "fill.base"
    play(st, "r1-f1")
    assert refused(st, "r2-f1").code == "build.foundation"
    play(st, "t1-f1")
    assert refused(st, "f1-t1").code == "source.fixed"


def test_win_and_score():
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQ")
             for i, s in enumerate("cdhs")}
    piles.update({"t1": "Kc", "r5": "Kd", "r9": "Kh", "t6": "Ks"})
    st = EASY.setup(piles)
    for m in ("t1-f1", "r5-f2", "r9-f3"):
        play(st, m)
    assert st.status == "playing" and st.score == 51
    play(st, "t6-f4")
    assert st.status == "won" and st.score == 52


def test_lost_when_only_to_and_fro_moves_are_left():
    full = {f"t{i}": c for i, c in enumerate("Qc Qd Qh Qs".split(), start=3)}
    st = EASY.setup({"t1": "9h 8d", "t2": "9c", **full})
    assert st.status == "lost" and st.score == 0
    # A reserve card that can be played is progress.
    st = EASY.setup({"t1": "9h 8d", "t2": "9c", **full, "r1": "Jd"})
    assert st.status == "playing"
    # A lone column card moving into an empty column changes nothing.
    st = EASY.setup({"t1": "9h", "t2": "", **full, "t6": "5c"})
    assert st.status == "lost" and len(EASY.legal_moves(st)) == 5  # each lone card to t2
