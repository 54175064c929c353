"""Eight Off, both variants, on hand-built positions (docs/rules/eight-off.md)."""

from __future__ import annotations

import engine
from engine.cards import TEXT

from .positions import play, refused

EASY = engine.get("eight-off", "easy")
HARD = engine.get("eight-off", "difficult")
FULL_CELLS = {f"c{i + 1}": c for i, c in enumerate("Jc Jd Jh Js Kc Kd Kh Ks".split())}


def cells(free, start=None):
    """Cells holding dead cards, all but ``free`` of them."""
    out = dict(list(FULL_CELLS.items())[: 8 - free])
    out.update(start or {})
    return out


def test_easy_deal_four_columns_of_seven_then_four_of_six():
    seed = b"eight"
    deck = engine.shuffled_deck(seed)
    st = EASY.deal(seed)
    assert [len(st.piles[t]) for t in range(8)] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert st.piles[0] == deck[:7] and st.piles[4] == deck[28:34] and st.piles[7] == deck[46:]
    assert all(not st.piles[EASY.pile_index[f"c{i}"]] for i in range(1, 9))
    assert sum(st.down) == 0 and st.score == 0


def test_difficult_deal_eight_columns_of_six_and_four_cells():
    seed = b"eight"
    deck = engine.shuffled_deck(seed)
    st = HARD.deal(seed)
    assert [len(st.piles[t]) for t in range(8)] == [6] * 8
    assert st.piles[7] == deck[42:48]
    assert [st.piles[HARD.pile_index[f"c{i}"]] for i in range(1, 9)] == [
        [deck[48]], [deck[49]], [deck[50]], [deck[51]], [], [], [], []]
    view = st.view()
    assert view["piles"]["c1"] == {"down": 0, "up": [TEXT[deck[48]]]}


def test_columns_build_down_in_suit():
    st = EASY.setup({"t1": "7h", "t2": "8d", "t3": "8h", "t4": "6h"})
    e = refused(st, "t1-t2")
    assert (e.code, e.message) == ("build.tableau", "7♥ can't go on 8♦: the 7♥ goes on the 8♥")
    assert refused(st, "t4-t2").code == "build.tableau"
    play(st, "t1-t3")
    play(st, "t4-t3")


def test_cells_hold_one_card_and_give_to_columns_and_foundations():
    st = EASY.setup({"t1": "2c Ac", "t2": "5h 9s", "c2": "Th", "t3": "Ts"})
    play(st, "t1-c1")
    e = refused(st, "t2-c1")
    assert (e.code, e.message) == ("target.full", "a cell holds at most 1 card")
    assert refused(st, "c1-c3").code == "target.kind"
    play(st, "c1-f1")
    play(st, "t1-f1")
    play(st, "t2-t3")
    play(st, "t2-c3")
    play(st, "c2-t1")  # any card fills an empty column in easy
    assert st.score == 2


def test_empty_columns_any_card_easy_kings_only_difficult():
    pos = {"t1": "5c Qh", "t2": "3d Kd", "t3": ""}
    st = EASY.setup(pos)
    play(st, "t1-t3")
    st = HARD.setup(pos)
    e = refused(st, "t1-t3")
    assert (e.code, e.message) == ("fill.king", "only a King can fill an empty column")
    play(st, "t2-t3")
    st = HARD.setup({"t1": "5c", "c1": "Qs", "c2": "Ks"})
    assert refused(st, "c1-t2").code == "fill.king"
    play(st, "c2-t2")


FULL = {"t3": "2d", "t4": "3d", "t5": "4d", "t6": "5d", "t7": "6d", "t8": "7d"}


def test_multi_card_move_needs_room_to_go_one_at_a_time():
    run = {"t1": "9s 8s 7s 6s", "t2": "Ts", **FULL}
    st = EASY.setup(cells(2, run))
    e = refused(st, "t1:4-t2")
    assert e.code == "unit.room"
    assert e.message == ("only 3 cards can move together here: 2 free cells and 0 other "
                         "empty columns allow that many one at a time")
    st = EASY.setup(cells(2, {**run, "t1": "8s 7s 6s", "t2": "9s"}))
    play(st, "t1:3-t2")  # (2 + 1) = 3
    st = EASY.setup(cells(3, run))
    play(st, "t1:4-t2")
    assert [TEXT[c] for c in st.piles[1]] == ["Ts", "9s", "8s", "7s", "6s"]


def test_an_empty_column_doubles_the_room_in_easy_but_not_the_target():
    st = EASY.setup(cells(1, {"t1": "9s 8s 7s 6s", "t2": "Ts", **FULL, "t3": ""}))
    play(st, "t1:4-t2")  # (1 + 1) * 2 = 4
    st = EASY.setup(cells(1, {"t1": "Qh 9s 8s 7s", "t2": "", **FULL}))
    e = refused(st, "t1:3-t2")  # the target column does not count: (1 + 1) * 1 = 2
    assert e.code == "unit.room" and "1 free cell and 0 other empty columns" in e.message
    play(st, "t1:2-t2")
    st = EASY.setup(cells(1, {"t1": "Qh 9s 8s 7s", "t2": "", **FULL, "t3": ""}))
    play(st, "t1:3-t2")  # one other empty column: (1 + 1) * 2 = 4


def test_difficult_counts_only_free_cells():
    pos = {"t1": "9s 8s 7s 6s", "t2": "Ts", **FULL, "t3": ""}
    st = HARD.setup(cells(1, pos))
    e = refused(st, "t1:4-t2")
    assert e.code == "unit.room"
    assert e.message == ("only 2 cards can move together here: 1 free cell allows that "
                         "many one at a time (empty columns take only Kings)")
    st = HARD.setup(cells(1, {**pos, "t1": "7s 6s", "t2": "8s"}))
    play(st, "t1:2-t2")
    st = HARD.setup(cells(3, pos))
    play(st, "t1:4-t2")


def test_only_packed_runs_move_together_and_one_card_to_a_foundation_or_cell():
    st = EASY.setup({"t1": "9s 8h", "t2": "Th", "t3": "As 2s", "f1": "Ac"})
    assert refused(st, "t1:2-t2").code == "unit.unpacked"
    st = EASY.setup({"t1": "3c 2c", "f1": "Ac"})
    assert refused(st, "t1:2-f1").code == "foundation.one"
    assert refused(st, "t1:2-c1").code == "target.full"


def test_no_card_leaves_a_foundation():
    st = EASY.setup({"f1": "Ac 2c", "t1": "5h"})
    assert refused(st, "f1-t2").code == "source.fixed"


def test_win_and_score():
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQ")
             for i, s in enumerate("cdhs")}
    piles.update({"t1": "Kc", "c5": "Kd", "t8": "Kh Ks"})
    st = EASY.setup(piles)
    for m in ("t1-f1", "c5-f2", "t8-f4", "t8-f3"):
        assert st.status == "playing"
        play(st, m)
    assert st.status == "won" and st.score == 52


def test_lost_when_no_move_is_left():
    st = EASY.setup(cells(0, {f"t{i + 1}": c for i, c in enumerate(
        "5c 5d 5h 5s 9c 9d 9h 9s".split())}))
    assert st.status == "lost" and st.legal_moves() == [] and st.score == 0


def test_a_lone_king_into_an_empty_column_is_not_useful():
    dead = {f"c{i + 1}": c for i, c in enumerate("5c 5d 5h 5s 9c 9d 9h 9s".split())}
    st = HARD.setup({**dead, "t1": "Kc"})
    assert len(st.rules.legal_moves(st)) == 7  # Kc to any other empty column, and no more
    assert st.status == "lost"
    del dead["c8"]
    st = HARD.setup({**dead, "t1": "Kc"})
    assert st.status == "playing"  # Kc may go to the free cell: that changes the game
