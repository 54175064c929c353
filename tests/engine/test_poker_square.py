"""Poker Square: placement, the waste limit, hand scores (docs/rules/poker-square.md)."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalMove, parse_move
from engine.cards import parse_card
from engine.games.poker_square import HANDS, hand

EASY = engine.get("poker-square", "easy")
HARD = engine.get("poker-square", "difficult")


def cards(text):
    return [parse_card(c) for c in text.split()]


@pytest.mark.parametrize(("text", "expected"), [
    ("Th Jh Qh Kh Ah", "royal flush"),
    ("9s Ts Js Qs Ks", "straight flush"),
    ("As 2s 3s 4s 5s", "straight flush"),
    ("7c 7d 7h 7s 2c", "four of a kind"),
    ("As 2d 3h 4c 5s", "straight"),
    ("Ts Jd Qh Kc As", "straight"),
    ("Jd Qh Kc As 2s", None),  # no wrap round the Ace
    ("7c 7d 7h Ks Kc", "full house"),
    ("7c 7d 7h Ks 2c", "three of a kind"),
    ("2h 9h Jh 4h Kh", "flush"),
    ("7c 7d Kh Ks 2c", "two pair"),
    ("7c 7d Kh Qs 2c", "one pair"),
    ("7c 8d Kh Qs 2c", None),
    ("7c 7d", "one pair"),  # part-filled lines count their pairs
    ("7c 7d 7h", "three of a kind"),
    ("7c 7d Kh Kc", "two pair"),
    ("2h 9h Jh 4h", None),  # but not a flush or a straight yet
    ("9c Td Jh Qs", None),
])
def test_hands(text, expected):
    assert hand(cards(text)) == expected


def test_the_table():
    assert HANDS == {"royal flush": 100, "straight flush": 60, "four of a kind": 30,
                     "straight": 25, "full house": 20, "three of a kind": 15, "flush": 10,
                     "two pair": 5, "one pair": 2}


def test_deal_shows_only_the_next_card():
    st = EASY.deal(b"poker")
    view = st.view()
    assert view["piles"]["s"]["down"] == 51 and len(view["piles"]["s"]["up"]) == 1
    assert all(view["piles"][f"g{i}"] == {"down": 0, "up": []} for i in range(1, 26))


def test_placing_shows_the_next_card_and_spaces_take_one_card():
    st = EASY.deal(b"poker")
    first = st.piles[st.rules.stock_pile][-1]
    st.play(parse_move(EASY, "s-g7"))
    assert st.piles[EASY.pile_index["g7"]] == [first] and st.revealed[-1]
    with pytest.raises(IllegalMove) as e:
        st.play(parse_move(EASY, "s-g7"))
    assert e.value.code == "target.full"
    with pytest.raises(IllegalMove) as e:
        st.play(parse_move(EASY, "g7-g8"))
    assert e.value.code == "source.fixed"


def test_easy_waste_holds_five_difficult_has_none():
    st = EASY.deal(b"waste")
    for _ in range(5):
        st.play(parse_move(EASY, "s-w"))
    with pytest.raises(IllegalMove) as e:
        st.play(parse_move(EASY, "s-w"))
    assert (e.value.code, e.value.message) == ("target.full", "a waste pile holds at most 5 cards")
    with pytest.raises(IllegalMove) as e:
        parse_move(HARD, "s-w")
    assert e.value.code == "move.syntax"


def test_status_and_score_of_a_finished_grid():
    rows = ["Th Jh Qh Kh Ah", "2c 3c 4c 5c 6c", "7d 7s 7c 9d 9s", "2d 2s 2h 3d 3s", "8h 8c 8d 4h"]
    piles = {f"g{i + 1}": c for i, c in enumerate(" ".join(rows).split())}
    piles["s"] = "5s Qs"
    st = EASY.setup(piles, down={"s": 1})
    st.play(parse_move(EASY, "s-g25"))  # Qs
    rows_pts = 100 + 60 + 20 + 20 + 15
    lines = st.view()["info"]["lines"]
    assert [line["points"] for line in lines[:5]] == [100, 60, 20, 20, 15]
    assert st.score == sum(line["points"] for line in lines) >= rows_pts
    assert st.status == "won"
    assert st.down[EASY.stock_pile] == 1  # the next card is not shown once the grid is full


def test_a_low_full_grid_is_finished_not_won():
    deck = "2c 7d 9h Js 4c 3d 8h Qs 5c Kd 6s Ah Tc 2d 9s 4h Jc 3s 8d Qh 5s Kc 6d As Th".split()
    piles = {f"g{i + 1}": c for i, c in enumerate(deck)}
    st = EASY.setup(piles)
    assert st.status in ("finished", "won")
    assert st.status == ("won" if st.score >= 100 else "finished")
    assert st.legal_moves() == []
