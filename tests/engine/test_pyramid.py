"""Pyramid: exposed pairs totalling 13, Kings alone; stock flipped once onto two wastes."""

from __future__ import annotations

import pytest

import engine
from engine.cards import parse_card

from .positions import code, others

EASY = engine.get("pyramid", "easy")
HARD = engine.get("pyramid", "difficult")
SEED = b"pyramid-test"


def test_deal_easy_pyramid_reserve_stock():
    st = EASY.deal(SEED)
    deck = engine.shuffled_deck(SEED)
    idx = EASY.pile_index
    assert [st.piles[idx[f"p{k}"]] for k in range(1, 29)] == [[c] for c in deck[:28]]
    assert [st.piles[idx[f"r{k}"]] for k in range(1, 8)] == [[c] for c in deck[28:35]]
    stock = st.piles[idx["s"]]
    assert len(stock) == 17 and stock[-1] == deck[35] and st.down[idx["s"]] == 17
    assert st.piles[idx["w1"]] == st.piles[idx["w2"]] == st.piles[idx["f"]] == []
    assert sum(st.down) == 17


def test_deal_difficult_has_no_reserve():
    st = HARD.deal(SEED)
    deck = engine.shuffled_deck(SEED)
    assert not any(n.startswith("r") for n in HARD.pile_names)
    stock = st.piles[HARD.pile_index["s"]]
    assert len(stock) == 24 and stock[-1] == deck[28]
    with pytest.raises(engine.IllegalMove):
        engine.parse_move(HARD, "r1+p22")


def test_bottom_row_pair_totalling_13():
    st = HARD.setup({"p22": "6h", "p23": "7c", "s": "2c"})
    assert code(st, "p22+p23") is None
    st.play(engine.parse_move(HARD, "p22+p23"))
    assert st.score == 2 and st.piles[HARD.pile_index["f"]] == [parse_card("6h"),
                                                                 parse_card("7c")]


@pytest.mark.parametrize(("a", "b"), [("Ah", "Qc"), ("2d", "Js"), ("3c", "Td"), ("4s", "9h"),
                                      ("5h", "8c")])
def test_all_pairs_totalling_13(a, b):
    st = HARD.setup({"p27": a, "p28": b})
    assert code(st, "p27+p28") is None


def test_not_thirteen():
    st = HARD.setup({"p27": "6h", "p28": "8c", "s": "2c"})
    why = st.refusal(engine.parse_move(HARD, "p27+p28"))
    assert why.code == "pyramid.not-thirteen" and "14" in why.message


def test_king_alone_and_only_a_king_alone():
    st = HARD.setup({"p27": "Kh", "p28": "8c", "s": "2c"})
    assert code(st, "p27+") is None
    assert code(st, "p28+") == "pyramid.not-king"
    st.play(engine.parse_move(HARD, "p27+"))
    assert st.score == 1


def test_fully_exposed_means_both_covering_cards_gone():
    # p1 (apex) lies under p2 and p3; p2 under p4 and p5.
    st = HARD.setup({"p1": "Kc", "p2": "6h", "p4": "7s", "s": "2c"})
    assert code(st, "p1+") == "pyramid.covered"  # p2 still lies over it
    assert code(st, "p2+p4") == "pyramid.covered"  # p4 lies over p2: no pairing through
    st2 = HARD.setup({"p2": "6h", "p5": "7s", "p22": "Kd"})
    assert code(st2, "p2+p5") == "pyramid.covered"
    st3 = HARD.setup({"p1": "Kc", "p4": "7s"})
    assert code(st3, "p1+") is None


def test_easy_reserve_cards_are_all_available():
    st = EASY.setup({"p1": "Qh", "p2": "2d", "p3": "4c", "p5": "5c", "r1": "Ac", "r4": "Jh",
                     "r7": "9s", "s": "3c"})
    assert code(st, "p1+r1") == "pyramid.covered"
    assert code(st, "p2+r4") == "pyramid.covered"
    st = EASY.setup({"p22": "2d", "r1": "Ac", "r4": "Jh", "r5": "Qh", "r7": "9s"})
    assert code(st, "p22+r4") is None
    assert code(st, "r1+r5") is None  # two reserve cards may pair


def test_stock_flips_onto_w1_and_the_unused_card_goes_to_w2():
    st = HARD.setup({"p22": "5h", "s": "Kc 8d 3c"})  # 3♣ is the next card drawn
    idx = HARD.pile_index
    st.play(engine.parse_move(HARD, "s"))
    assert st.piles[idx["w1"]] == [parse_card("3c")] and st.piles[idx["w2"]] == []
    assert st.down[idx["s"]] == 2 and st.down[idx["w1"]] == 0
    st.play(engine.parse_move(HARD, "s"))
    assert st.piles[idx["w1"]] == [parse_card("8d")]
    assert st.piles[idx["w2"]] == [parse_card("3c")]
    assert code(st, "p22+w1") is None  # 5 + 8
    assert code(st, "w1+w2") == "pyramid.not-thirteen"
    st.play(engine.parse_move(HARD, "s"))
    assert st.piles[idx["w2"]] == [parse_card("3c"), parse_card("8d")]
    assert code(st, "w1+") is None  # the King alone
    assert code(st, "p22+w2") is None  # the top of w2 stays available
    assert code(st, "s") == "stock.redeals"  # no redeal


def test_moves_between_piles_are_refused():
    st = EASY.setup({"p22": "5h", "r1": "8c", "s": "2c"})
    assert code(st, "r1-p23") == "source.fixed"
    assert code(st, "p22-f") == "source.fixed"


@pytest.mark.parametrize(("text", "expected"), [
    ("p28+p27", "remove.order"),
    ("p27+p28+w1", "remove.count"),
    ("p27+s", "remove.source"),
    ("p27+f", "remove.source"),
    ("p27+w1", "source.empty"),
])
def test_refusals(text, expected):
    st = HARD.setup({"p27": "6h", "p28": "7c", "s": "2c", "f": "Kd"})
    assert code(st, text) == expected


def test_win_clears_pyramid_and_reserve_even_with_stock_left():
    st = EASY.setup({"p1": "Ks", "s": "2c 3c"})
    st.play(engine.parse_move(EASY, "p1+"))
    assert st.status == "won" and st.score == 1
    st = EASY.setup({"r3": "Ks"})
    assert st.status == "playing"


def test_lost_when_the_stock_is_out_and_no_pair_remains():
    st = HARD.setup({"p22": "5h", "w1": "6c", "w2": "3d 9h", "f": others("5h 6c 3d 9h")})
    assert st.status == "lost" and st.score == 48


def test_competitive_flip_cannot_be_undone():
    st = HARD.deal(SEED, competitive=True)
    st.play(engine.parse_move(HARD, "s"))
    assert st.can_undo().code == "undo.revealed"


@pytest.mark.parametrize("rules", [EASY, HARD], ids=["easy", "difficult"])
def test_the_quick_listing_is_the_generic_one(rules):
    """Pyramid lists its removals by rank (a solver asks at every position): the same list,
    in the same order, as the generic search over every set of free piles, at every position
    of random games; the free piles are the cards with nothing left lying over them."""
    import random

    from engine.games.pyramid import COVER
    from engine.mechanics.matching import Matching

    met = 0
    for seed in range(40):
        rng = random.Random(seed)
        st = rules.deal(seed.to_bytes(4, "big"))
        while st.status == engine.PLAYING:
            assert rules.free_piles(st) == [
                p for p in rules.removable
                if st.piles[p] and (p >= 28 or not any(st.piles[q] for q in COVER[p]))]
            assert list(rules.extra_moves(st)) == list(Matching.extra_moves(rules, st))
            met += 1
            st.play(rng.choice(st.legal_moves()))
    assert met > 1000
