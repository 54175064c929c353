"""Slide: row slides, the easy return-to-stock rule, removal of vertical threes, scoring."""

from __future__ import annotations

import json

import pytest

import engine
from engine.cards import TEXT
from engine.core import Move
from engine.deal import shuffled_deck

EASY = engine.get("slide", "easy")
HARD = engine.get("slide", "difficult")
BOTH = pytest.mark.parametrize("rules", [EASY, HARD], ids=["easy", "difficult"])


def mv(rules: engine.RuleSet, text: str) -> Move:
    return engine.parse_move(rules, text)


def row(st: engine.State, r: int) -> list[str]:
    """Row ``r`` (1-based) as text, '--' for a gap."""
    cells = [st.piles[st.rules.pile_index[f"g{(r - 1) * 6 + c}"]] for c in range(1, 7)]
    return [TEXT[p[0]] if p else "--" for p in cells]


def cells(r: int, text: str) -> dict[str, str]:
    """Row ``r`` (1-based) from text, '--' for a gap."""
    return {f"g{(r - 1) * 6 + c + 1}": t for c, t in enumerate(text.split()) if t != "--"}


def pile(st: engine.State, name: str) -> list[str]:
    return [TEXT[c] for c in st.piles[st.rules.pile_index[name]]]


# ----- the deal -----------------------------------------------------------------------


@BOTH
def test_deal_fills_the_grid_row_by_row_face_up(rules):
    seed = b"slide"
    st = rules.deal(seed)
    deck = shuffled_deck(seed)
    assert [st.piles[rules.pile_index[f"g{i + 1}"]] for i in range(24)] == [
        [c] for c in deck[:24]]
    assert all(st.down[rules.pile_index[f"g{i + 1}"]] == 0 for i in range(24))
    s = rules.pile_index["s"]
    assert st.piles[s] == deck[24:][::-1] and st.down[s] == 28
    for name in ("f", "w", "r1", "r2", "r3", "r4"):
        assert pile(st, name) == []
    view = json.dumps(st.view())
    assert all(f'"{TEXT[c]}"' not in view for c in deck[24:])


def test_a_set_in_the_deal_leaves_at_once():
    st = EASY.setup({**cells(1, "7c 2c 3c 4c 5c 6c"), **cells(2, "7d 8d 9d Td Jd Qd"),
                     **cells(3, "7h Kh 2h 3h 4h 5h"), "s": "Kc Kd"})
    EASY.prepare(st)  # the automatic step after the deal
    assert pile(st, "f") == ["7c", "7d", "7h"]
    assert row(st, 1)[0] == "--" and st.score == 7


@BOTH
def test_a_seeded_deal_with_a_set_removes_it_before_play(rules):
    seed = (1).to_bytes(2, "big")
    deck = shuffled_deck(seed)
    st = rules.deal(seed)
    # deck cards 9, 15 and 21 are Sixes in column 3, rows 2 to 4
    assert [TEXT[deck[i]] for i in (8, 14, 20)] == pile(st, "f") == ["6d", "6s", "6h"]
    assert [row(st, r)[2] for r in (1, 2, 3, 4)] == [TEXT[deck[2]], "--", "--", "--"]
    assert st.score == 6 and st.history == [] and st.status == "playing"


# ----- slides ---------------------------------------------------------------------------


@BOTH
def test_slide_left_and_right(rules):
    base = {**cells(2, "Ac 2c 3c 4c 5c 6c"), "s": "9d 8d"}
    st = rules.setup(base)
    st.play(mv(rules, "left:r2"))
    assert row(st, 2) == ["2c", "3c", "4c", "5c", "6c", "8d"]
    assert pile(st, "w") == ["Ac"]
    assert pile(st, "s") == ["9d"] and st.down[rules.pile_index["s"]] == 1
    assert st.revealed[-1]  # the stock's card was shown
    st = rules.setup(base)
    st.play(mv(rules, "right:r2"))
    assert row(st, 2) == ["8d", "Ac", "2c", "3c", "4c", "5c"]
    assert pile(st, "w") == ["6c"]
    assert engine.move_text(rules, Move("right", rules.pile_index["r2"])) == "right:r2"


@BOTH
def test_gaps_slide_too_and_an_empty_far_cell_loses_nothing(rules):
    st = rules.setup({**cells(1, "Ac -- 3c -- -- 6c"), "s": "9d"})
    st.play(mv(rules, "left:r1"))
    assert row(st, 1) == ["--", "3c", "--", "--", "6c", "9d"]
    assert pile(st, "w") == ["Ac"]
    st.play(mv(rules, "left:r1"))  # the far cell is a gap: nothing leaves; the stock is empty
    assert row(st, 1) == ["3c", "--", "--", "6c", "9d", "--"]
    assert pile(st, "w") == ["Ac"]
    assert not st.revealed[-1]


@BOTH
def test_an_empty_row_with_an_empty_stock_cannot_slide(rules):
    st = rules.setup({**cells(1, "Ac 2c 3c 4c 5c 6c")})
    assert st.refusal(mv(rules, "left:r2")).code == "slide.empty"
    assert st.refusal(mv(rules, "right:r3")).code == "slide.empty"
    assert st.refusal(mv(rules, "left:r1")) is None
    kinds = {engine.move_text(rules, m) for m in st.legal_moves()}
    assert kinds == {"left:r1", "right:r1", "finish"}
    st = rules.setup({**cells(1, "Ac 2c 3c 4c 5c 6c"), "s": "9d"})
    st.play(mv(rules, "right:r3"))  # an empty row takes the stock's card at its near end
    assert row(st, 3) == ["9d", "--", "--", "--", "--", "--"]


@BOTH
def test_a_slide_names_a_row(rules):
    st = rules.setup({**cells(1, "Ac 2c 3c 4c 5c 6c"), "s": "9d"})
    assert st.refusal(mv(rules, "left:g3")).code == "slide.row"
    assert st.refusal(mv(rules, "left")).code == "slide.row"
    assert st.refusal(mv(rules, "right:r1:2")).code == "move.malformed"
    assert st.refusal(mv(rules, "finish:r1")).code == "move.malformed"
    assert st.refusal(mv(rules, "up:r1")).code == "move.unknown"


# ----- the easy return-to-stock rule ------------------------------------------------------


def test_easy_returns_the_card_when_the_row_holds_a_pair_new_card_included():
    st = EASY.setup({**cells(1, "Kc 5c 2d 3d 4d 6d"), "s": "9h 5h"})
    st.play(mv(EASY, "left:r1"))
    assert row(st, 1) == ["5c", "2d", "3d", "4d", "6d", "5h"]
    assert pile(st, "w") == []
    assert pile(st, "s") == ["Kc", "9h"]  # under the stock, face down again
    assert st.down[EASY.pile_index["s"]] == 2
    assert "Kc" not in json.dumps(st.view())
    assert st.vars["backKc"] == 1


def test_easy_sends_to_the_waste_without_a_pair():
    st = EASY.setup({**cells(1, "Kc 5c 2d 3d 4d 6d"), "s": "9h 8h"})
    st.play(mv(EASY, "left:r1"))
    assert pile(st, "w") == ["Kc"] and pile(st, "s") == ["9h"]


def test_the_falling_card_itself_does_not_make_the_pair():
    st = EASY.setup({**cells(1, "5d 5c 2d 3d 4d 6d"), "s": "8h"})
    st.play(mv(EASY, "left:r1"))
    assert pile(st, "w") == ["5d"]


def test_a_pair_anywhere_in_the_row_counts_and_right_slides_too():
    st = EASY.setup({**cells(1, "Qc 2d Qd -- 4d Kc"), "s": "8h"})
    st.play(mv(EASY, "right:r1"))
    assert row(st, 1) == ["8h", "Qc", "2d", "Qd", "--", "4d"]
    assert pile(st, "s") == ["Kc"] and pile(st, "w") == []


def test_a_card_returns_only_once():
    st = EASY.setup({**cells(1, "Kc 5c 5d 3d 4d 6d"), "s": "9h"})
    st.play(mv(EASY, "left:r1"))  # the Fives pair: Kc goes under the (now empty) stock
    assert row(st, 1) == ["5c", "5d", "3d", "4d", "6d", "9h"]
    assert pile(st, "s") == ["Kc"] and pile(st, "w") == []
    st.play(mv(EASY, "right:r1"))  # Kc comes back in; 9h goes under the stock, its first time
    assert row(st, 1) == ["Kc", "5c", "5d", "3d", "4d", "6d"]
    assert pile(st, "s") == ["9h"] and pile(st, "w") == []
    st.play(mv(EASY, "left:r1"))  # still a pair, but Kc has been back once: the waste
    assert row(st, 1) == ["5c", "5d", "3d", "4d", "6d", "9h"]
    assert pile(st, "w") == ["Kc"] and pile(st, "s") == []
    st.play(mv(EASY, "right:r1"))  # likewise 9h; the stock is empty, the near cell stays empty
    assert row(st, 1) == ["--", "5c", "5d", "3d", "4d", "6d"]
    assert pile(st, "w") == ["Kc", "9h"]


def test_undo_of_a_return_is_exact():
    st = EASY.setup({**cells(1, "Kc 5c 2d 3d 4d 6d"), "s": "9h 5h"})
    before = (st.snapshot(), json.dumps(st.view()))
    st.play(mv(EASY, "left:r1"))
    st.undo()
    assert (st.snapshot(), json.dumps(st.view())) == before
    assert "backKc" not in st.vars


def test_difficult_never_returns_a_card():
    st = HARD.setup({**cells(1, "Kc 5c 2d 3d 4d 6d"), "s": "9h 5h"})
    st.play(mv(HARD, "left:r1"))
    assert pile(st, "w") == ["Kc"] and pile(st, "s") == ["9h"]
    assert "backKc" not in st.vars


# ----- filling a space from the stock ----------------------------------------------------


@BOTH
def test_fill_a_space_with_the_stock_top(rules):
    st = rules.setup({**cells(1, "Ac -- 3c 4c 5c 6c"), "s": "9h 8h"})
    assert st.refusal(mv(rules, "s-g2")) is None
    assert st.refusal(mv(rules, "s-g1")).code == "target.full"
    assert st.refusal(mv(rules, "s-r1")).code == "slide.slider"
    assert st.refusal(mv(rules, "s-w")).code == "target.kind"
    assert st.refusal(mv(rules, "s:2-g2")).code == "unit.top"
    assert st.refusal(mv(rules, "g1-g2")).code == "source.fixed"
    assert st.refusal(mv(rules, "s")).code == "stock.play"
    fills = {engine.move_text(rules, m) for m in st.legal_moves() if m.kind == "move"}
    assert fills == {f"s-g{i}" for i in range(2, 25) if i not in (3, 4, 5, 6)}
    st.play(mv(rules, "s-g2"))
    assert row(st, 1) == ["Ac", "8h", "3c", "4c", "5c", "6c"]
    assert st.revealed[-1]


@BOTH
def test_no_fill_from_an_empty_stock(rules):
    st = rules.setup({**cells(1, "Ac -- 3c 4c 5c 6c")})
    why = st.refusal(mv(rules, "s-g2"))
    assert why.code == "stock.empty"


# ----- threes, cascades and scoring --------------------------------------------------------


@BOTH
def test_a_slide_that_lines_up_three_removes_them(rules):
    st = rules.setup({**cells(1, "7c 2c 3c 4c 5c 6c"), **cells(2, "7d 2d 3d 4d 5d 6d"),
                      **cells(3, "Kh 7h Qh Jh Th 9h"), "s": "8s"})
    st.play(mv(rules, "left:r3"))
    assert pile(st, "f") == ["7c", "7d", "7h"]
    assert row(st, 1)[0] == row(st, 2)[0] == row(st, 3)[0] == "--"
    assert st.score == 7
    assert st.view()["info"]["sets"] == [{"set": 1, "rank": "7", "points": 7}]


@BOTH
def test_four_in_line_removes_the_topmost_three(rules):
    st = rules.setup({**cells(1, "9c"), **cells(2, "9d"), **cells(3, "9h"),
                      **cells(4, "Qs 9s"), "s": "2s"})
    st.play(mv(rules, "left:r4"))
    assert pile(st, "f") == ["9c", "9d", "9h"]
    assert row(st, 4)[0] == "9s"


@BOTH
def test_rows_two_to_four_make_a_set_too(rules):
    st = rules.setup({**cells(1, "Qc"), **cells(2, "4d"), **cells(3, "4h"),
                      **cells(4, "-- 4s"), "s": "2s"})
    st.play(mv(rules, "left:r4"))
    assert pile(st, "f") == ["4d", "4h", "4s"] and row(st, 1)[0] == "Qc"


@BOTH
def test_sets_found_together_score_left_to_right(rules):
    # One slide of row 3 lines up Nines in column 2 and Fours in column 5.
    st = rules.setup({**cells(1, "Ac 9c Kd Qd 4c 2c"), **cells(2, "Ad 9d Kh Qh 4d 2d"),
                      **cells(3, "9h 3h 5h 4h 8h Ts"), "s": "Js Jd"})
    st.play(mv(rules, "right:r3"))
    assert pile(st, "f") == ["9c", "9d", "9h", "4c", "4d", "4h"]
    assert st.score == 1 * 9 + 2 * 4  # 17; right to left would give 4 + 18
    assert [s["points"] for s in st.view()["info"]["sets"]] == [9, 8]
    assert st.view()["info"]["next"] == 3


@BOTH
def test_the_nth_set_scores_n_times_its_rank_across_moves(rules):
    st = rules.setup({**cells(1, "Kc 2c"), **cells(2, "Kd 2d"), **cells(3, "-- Kh"),
                      **cells(4, "Qs Js"), "s": "2h 5s"})
    st.play(mv(rules, "left:r3"))  # Kings in column 1: the first set, 1 x 13
    assert row(st, 3) == ["--", "--", "--", "--", "--", "5s"]
    assert st.score == 13
    st.play(mv(rules, "s-g14"))  # 2h under 2c 2d: the second set, 2 x 2
    assert pile(st, "f") == ["Kc", "Kd", "Kh", "2c", "2d", "2h"]
    assert st.score == 13 + 2 * 2


@BOTH
def test_a_fill_that_lines_up_three_removes_them(rules):
    st = rules.setup({**cells(1, "8c"), **cells(2, "8d"), **cells(4, "Qs"), "s": "8h"})
    st.play(mv(rules, "s-g13"))
    assert pile(st, "f") == ["8c", "8d", "8h"]


@BOTH
def test_removals_repeat_until_none_remain(rules):
    """Sets standing at once all leave after the move, left to right, in one sweep that
    repeats until no set is left."""
    st = rules.setup({**cells(1, "3c -- -- -- -- Tc"), **cells(2, "3d -- -- -- -- Td"),
                      **cells(3, "3h -- -- -- -- Th"), **cells(4, "Kc"), "s": "Ks"})
    st.play(mv(rules, "s-g2"))
    assert pile(st, "f") == ["3c", "3d", "3h", "Tc", "Td", "Th"]
    assert st.score == 3 + 2 * 10
    assert not st.over  # Kc and Ks remain


# ----- the end -----------------------------------------------------------------------------

WINNING_SETS = "7c 7d 7h 8c 8d 8h 9c 9d 9h Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd Kh"


@BOTH
def test_finish_wins_at_300(rules):
    st = rules.setup({**cells(1, "Ac"), "f": WINNING_SETS, "s": "2s"})
    assert st.score == 7 + 16 + 27 + 40 + 55 + 72 + 91  # 308
    assert st.status == "playing"
    st.play(mv(rules, "finish"))
    assert st.status == "won"


@BOTH
def test_finish_under_300_is_finished(rules):
    st = rules.setup({**cells(1, "Ac"), "f": "Kc Kd Kh", "s": "2s"})
    st.play(mv(rules, "finish"))
    assert st.status == "finished" and st.score == 13
    assert st.legal_moves() == []
    assert st.refusal(mv(rules, "left:r1")).code == "game.over"


@BOTH
def test_an_empty_grid_ends_the_game(rules):
    st = rules.setup({**cells(1, "As"), "f": "Kc Kd Kh", "s": "2s"})
    st.play(mv(rules, "right:r1"))
    assert row(st, 1)[0] == "2s" and st.status == "playing"
    st = rules.setup({**cells(1, "As"), "f": "Kc Kd Kh"})
    st.play(mv(rules, "left:r1"))
    assert st.status == "finished"


@BOTH
def test_competitive_undo_allows_only_slides_that_showed_nothing(rules):
    st = rules.setup({**cells(1, "Ac 2c 3c 4c 5c 6c"), "s": "9d"})
    st.competitive = True
    st.play(mv(rules, "left:r1"))
    assert st.can_undo().code == "undo.revealed"
    st.play(mv(rules, "right:r1"))  # the stock is empty now: nothing new is shown
    assert st.can_undo() is None
