"""La Belle Lucie, both variants, on hand-built positions (docs/rules/la-belle-lucie.md)."""

from __future__ import annotations

import pytest

import engine
from engine import Move
from engine.cards import RANK, SUIT
from engine.deal import Stream, shuffle

from .positions import cards as pile
from .positions import play, refused

EASY = engine.get("la-belle-lucie", "easy")
HARD = engine.get("la-belle-lucie", "difficult")
ACES = {"f1": "Ac", "f2": "Ad", "f3": "Ah", "f4": "As"}


def setup(rules, piles, **vars):
    return rules.setup({**ACES, **piles}, **vars)


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_aces_out_then_sixteen_fans_of_three_in_deck_order(rules):
    seed = b"lucie"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    rest = [c for c in deck if RANK[c] != 1]
    cols = rules.by_kind["tableau"]
    assert len(cols) == 16
    for i, p in enumerate(cols):
        assert st.piles[p] == rest[3 * i : 3 * i + 3]
    for s, f in enumerate(rules.by_kind["foundation"]):  # clubs, diamonds, hearts, spades
        assert [(RANK[c], SUIT[c]) for c in st.piles[f]] == [(1, s)]
    assert all(d == 0 for d in st.down)
    assert st.score == 4 and st.vars["redeal"] == 0
    assert st.view()["info"] == {"redeals": 0, "redeals_allowed": 3 if rules.easy else 2}


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_fans_build_down_in_suit(rules):
    st = setup(rules, {"t1": "7h", "t2": "8h", "t3": "8s", "t4": "6h", "t5": "Kc 2c"})
    e = refused(st, "t1-t3")
    assert e.code == "build.tableau"
    assert e.message == "7♥ can't go on 8♠: the 7♥ goes on the 8♥"
    assert refused(st, "t1-t4").code == "build.tableau"  # not up
    play(st, "t1-t2")
    assert pile(st, "t2") == ["8h", "7h"]


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_a_fan_holds_at_most_seven_cards(rules):
    st = setup(rules, {"t1": "3c 4c 5c 6c 7c 8c 9d", "t2": "8d", "t3": "2c"})
    e = refused(st, "t2-t1")
    assert e.code == "target.full" and e.message == "a column holds at most 7 cards"
    play(st, "t3-f1")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_top_card_only_and_empty_fans_stay_empty(rules):
    st = setup(rules, {"t1": "9h 8h", "t2": "", "t3": "Th", "t4": "2c"})
    assert refused(st, "t1:2-t3").code == "unit.top"
    e = refused(st, "t1-t2")
    assert e.code == "fill.none" and e.message == "an empty column can't be filled"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_foundations_build_up_in_suit_and_keep_their_cards(rules):
    st = setup(rules, {"t1": "2h", "t2": "2d", "t3": "3d"})
    e = refused(st, "t1-f2")
    assert e.code == "build.foundation"
    play(st, "t2-f2")
    play(st, "t3-f2")
    assert refused(st, "f2-t1").code == "source.fixed"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_redeal_gathers_shuffles_and_deals_threes(rules):
    seed = b"redeal"
    st = rules.deal(seed)
    cols = rules.by_kind["tableau"]
    home = [m for m in st.legal_moves() if m.kind == "move" and m.dst >= 16]
    if home:
        st.play(home[0])
    gathered = [c for p in cols for c in st.piles[p]]
    play(st, "redeal")
    expected = shuffle(gathered, Stream(seed, "redeal/1"))
    n = len(gathered)
    for i, p in enumerate(cols):
        assert st.piles[p] == expected[3 * i : 3 * i + 3]
    assert st.vars["redeal"] == 1
    assert sum(len(st.piles[p]) for p in cols) == n


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_redeal_of_a_short_tableau_leaves_the_last_fan_short(rules):
    cards = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"  # ten cards: fans of 3, 3, 3 and 1
    st = setup(rules, {"t5": cards, "t9": "Kd"}, seed=b"short")
    gathered = [c for p in rules.by_kind["tableau"] for c in st.piles[p]]
    play(st, "redeal")
    expected = shuffle(gathered, Stream(b"short", "redeal/1"))
    sizes = [len(st.piles[p]) for p in rules.by_kind["tableau"]]
    assert sizes == [3, 3, 3, 2] + [0] * 12
    assert [c for p in rules.by_kind["tableau"] for c in st.piles[p]] == expected


def test_redeal_streams_differ_per_redeal():
    st = setup(EASY, {"t1": "2c 3c 4c", "t2": "5c 6c 7c", "t3": "8c 9c Tc"}, seed=b"k")
    play(st, "redeal")
    first = [list(p) for p in st.piles]
    gathered = [c for p in EASY.by_kind["tableau"] for c in st.piles[p]]
    play(st, "redeal")
    assert [c for p in EASY.by_kind["tableau"] for c in st.piles[p]] == shuffle(
        gathered, Stream(b"k", "redeal/2"))
    st.undo()
    assert [list(p) for p in st.piles] == first  # undo is exact


@pytest.mark.parametrize(("rules", "allowed"), [(EASY, 3), (HARD, 2)])
def test_redeal_limit(rules, allowed):
    st = setup(rules, {"t1": "2c 3c 4c", "t2": "5c 6c 7c", "t3": "8c 9c Tc"}, seed=b"limit")
    for _ in range(allowed):
        assert Move("redeal") in st.legal_moves()
        play(st, "redeal")
    assert Move("redeal") not in rules.legal_moves(st)
    e = refused(st, "redeal")
    assert e.code == "redeal.none"
    assert e.message == f"all {allowed} redeals have been used"


def test_redeal_is_a_plain_move_and_shows_cards_in_competitive_play():
    st = EASY.deal(b"comp", competitive=True)
    assert refused(st, "redeal:t1").code == "move.malformed"
    play(st, "redeal")
    assert st.revealed[-1]
    assert st.can_undo().code == "undo.revealed"
    assert engine.move_text(EASY, st.history[-1]) == "redeal"


def test_redeal_of_an_empty_tableau_is_refused():
    st = EASY.setup({**ACES})  # no column cards (a hand-built, not a dealt, position)
    assert EASY.refusal(st, Move("redeal")).code == "redeal.empty"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_win_and_score(rules):
    piles = {f"f{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK" if f"{r}{s}" != "Kh")
             for i, s in enumerate("cdhs")}
    piles["t16"] = "Kh"
    st = rules.setup(piles)
    assert st.score == 51
    play(st, "t16-f3")
    assert st.status == "won" and st.score == 52


@pytest.mark.parametrize(("rules", "allowed"), [(EASY, 3), (HARD, 2)])
def test_lost_only_when_the_redeals_are_gone(rules, allowed):
    st = setup(rules, {"t1": "2c 3c", "t2": "Kd"}, redeal=allowed - 1)
    assert st.status == "playing"  # a redeal is left
    st = setup(rules, {"t1": "2c 3c", "t2": "Kd"}, redeal=allowed)
    assert st.status == "lost"  # no merci: the 2♣ can't be pulled out
