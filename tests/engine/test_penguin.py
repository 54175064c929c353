"""Penguin, both variants, on hand-built positions (docs/rules/penguin.md)."""

from __future__ import annotations

import pytest

import engine
from engine import parse_move
from engine.cards import RANK, TEXT

from .positions import cards, play, refused

EASY = engine.get("penguin", "easy")
HARD = engine.get("penguin", "difficult")


@pytest.mark.parametrize("rules", [EASY, HARD])
@pytest.mark.parametrize("seed", [b"penguin", b"\x00", b"\x07"])
def test_deal_first_card_fixes_the_base_and_the_others_of_its_rank_start_foundations(
        rules, seed):
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    base = RANK[deck[0]]
    assert st.vars["base"] == base
    others = [c for c in deck[1:] if RANK[c] == base]
    ix = rules.pile_index
    assert [st.piles[ix[f"f{i}"]] for i in range(1, 5)] == [[c] for c in others] + [[]]
    rest = [c for c in deck if c not in others]
    assert [st.piles[ix[f"t{i}"]] for i in range(1, 8)] == [
        rest[7 * i : 7 * i + 7] for i in range(7)]
    assert st.piles[ix["t1"]][0] == deck[0]  # the first card lies at the bottom of t1
    assert not any(st.down) and not any(st.piles[ix[f"c{i}"]] for i in range(1, 8))
    assert st.score == 3


def test_columns_build_down_in_suit_and_wrap():
    st = EASY.setup({"t1": "7h", "t2": "8s", "t3": "8h", "t4": "Ah", "t5": "Kh",
                     "f1": "9c"}, base=9)
    e = refused(st, "t1-t2")
    assert e.code == "build.tableau" and e.message == "7♥ can't go on 8♠: the 7♥ goes on the 8♥"
    play(st, "t1-t3")
    play(st, "t5-t4")  # K on A: the columns wrap
    assert cards(st, "t4") == ["Ah", "Kh"]


def test_any_tail_of_a_suit_run_moves_as_a_unit():
    st = EASY.setup({"t1": "Qd 9s 8s 7s", "t2": "Ts", "t3": "9h", "f1": "5c"}, base=5)
    play(st, "t1:3-t2")
    assert cards(st, "t2") == ["Ts", "9s", "8s", "7s"]
    st = EASY.setup({"t1": "Qd 9s 8s 7s", "t2": "9d", "t3": "4d 3c", "t4": "4c",
                     "f1": "5c"}, base=5)
    assert refused(st, "t1:4-t2").code == "unit.unpacked"
    assert refused(st, "t3:2-t4").code == "unit.unpacked"


def test_cells_hold_one_card_and_give_it_to_a_column_or_foundation():
    st = EASY.setup({"t1": "9s 8s", "t2": "4h 3c", "c1": "Qd", "f1": "7s"}, base=7)
    assert refused(st, "t1:2-c2").code == "target.full"
    play(st, "t1-c2")
    e = refused(st, "t2-c1")
    assert e.code == "target.full" and e.message == "a cell holds at most 1 card"
    play(st, "c2-t1")
    play(st, "t1-c3")
    assert refused(st, "c3-f2").code == "fill.base"


def test_foundations_start_at_the_base_and_wrap():
    st = EASY.setup({"f1": "Jc Qc Kc", "t1": "Ac", "t2": "Jd", "t3": "Th", "c1": "Qd"},
                    base=11)
    play(st, "t1-f1")  # K-A wraps
    play(st, "t2-f2")
    e = refused(st, "t3-f3")
    assert e.code == "fill.base" and e.message == "a foundation starts with a Jack"
    play(st, "c1-f2")


def test_easy_fills_a_space_with_any_card_or_run():
    st = EASY.setup({"t1": "Qd 9s 8s", "c1": "5h", "f1": "4c"}, base=4)
    play(st, "t1:2-t2")
    play(st, "c1-t3")
    assert cards(st, "t2") == ["9s", "8s"] and cards(st, "t3") == ["5h"]


def test_difficult_fills_a_space_only_one_rank_below_the_base():
    st = HARD.setup({"t1": "Qd 9s 8s", "t4": "Kd 3s 2s", "c1": "5h", "f1": "4c"}, base=4)
    e = refused(st, "t1:2-t2")
    assert e.code == "fill.below-base"
    assert e.message == "only a 3, one rank below the base, can fill an empty column"
    assert refused(st, "c1-t3").code == "fill.below-base"
    play(st, "t4:2-t2")  # a 3 with its run
    assert cards(st, "t2") == ["3s", "2s"]
    st = HARD.setup({"t1": "Qd Ks", "t2": "Qs", "f1": "Ac"}, base=1)
    play(st, "t1-t3")  # below an Ace base comes the King
    assert refused(st, "t2-t4").code == "fill.below-base"


def test_won_scored_and_lost():
    f = {f"f{s + 1}": " ".join(TEXT[s * 13 + r] for r in range(13)) for s in range(4)}
    f["f4"] = " ".join(TEXT[39 + r] for r in range(12))
    st = EASY.setup({**f, "c5": "Ks"}, base=1)
    assert st.score == 51 and st.status == "playing"
    play(st, "c5-f4")
    assert st.status == "won" and st.score == 52
    # Nothing fits anywhere and every cell is taken: lost.
    full = {f"t{i}": t for i, t in enumerate(["2h", "4h", "6h", "8h", "Th", "Qh", "Ks"], 1)}
    cells = {f"c{i}": t for i, t in enumerate(["2d", "4d", "6d", "8d", "Td", "Qd", "3c"], 1)}
    st = EASY.setup({**full, **cells, "f1": "Ac"}, base=1)
    assert EASY.legal_moves(st) == [] and st.status == "lost"


def test_a_lone_card_into_an_equivalent_space_is_not_useful():
    st = EASY.setup({"t1": "2h", "t2": "Qh Jh", "c1": "3c", "f1": "Ac"}, base=1)
    assert not EASY.useful(st, parse_move(EASY, "t1-t3"))  # a whole column to a space
    assert refused(st, "c1-c2").code == "target.kind"  # cells give only to columns, foundations
    assert EASY.useful(st, parse_move(EASY, "t2-t3"))
    assert EASY.useful(st, parse_move(EASY, "c1-t3"))  # a column can take a build
