"""Gaps: Twos to the left, Aces out, fill gaps in suit; difficult redeals twice."""

from __future__ import annotations

import engine
from engine.cards import RANK, SUIT, TEXT, card
from engine.core import MOVE, REDEAL, Move
from engine.deal import Stream, shuffle

from .positions import code

EASY = engine.get("gaps", "easy")
HARD = engine.get("gaps", "difficult")
SEED = b"gaps-test"
ACES = "a"


def grid(*rows: str, aces: str = "Ac Ad Ah As") -> dict[str, str]:
    """Rows of 13 tokens, ``.`` for a gap, as a setup dict."""
    out = {ACES: aces} if aces else {}
    for r, row in enumerate(rows):
        cells = row.split()
        assert len(cells) == 13
        for c, t in enumerate(cells):
            if t != ".":
                out[f"g{r * 13 + c + 1}"] = t
    return out


SOLVED = [" ".join(TEXT[card(r, s)] for r in range(2, 14)) + " ." for s in range(4)]


def test_deal_twos_to_the_first_cells_in_suit_order_then_aces_out():
    st = EASY.deal(SEED)
    deck = engine.shuffled_deck(SEED)
    cells = [[c] for c in deck]  # row by row, cell by cell
    for s in range(4):  # swap each Two with the first cell of its row, clubs first
        two = card(2, s)
        at = cells.index([two])
        cells[at], cells[s * 13] = cells[s * 13], cells[at]
    aces = []
    for g in range(52):
        if RANK[cells[g][0]] == 1:
            aces.append(cells[g][0])
            cells[g] = []
    assert st.piles[:52] == cells
    assert st.piles[52] == aces
    assert [st.piles[r * 13] for r in range(4)] == [[card(2, s)] for s in range(4)]
    assert sum(1 for g in range(52) if not st.piles[g]) == 4
    assert sorted(SUIT[c] for c in aces) == [0, 1, 2, 3]
    assert not any(st.down)
    assert EASY.pile_names[0] == "g1" and EASY.pile_names[51] == "g52"


ROWS = [
    "2c 3c 5h . 9d 6s Kh . 8c 4d Tc Jh 7s",
    "2d 4c . 5c 6c Qd 3h Kd . 7c Th 9s 3s",
    "2h 8h 9h 5s Qc 3d 6d 5d 4h Kc Js . 8d",
    "2s Jc Qs 7d Ks Td 6h . Jd 8s 7h 4s Qh",
]


def test_easy_fills_from_the_right_difficult_does_not():
    pos = grid(*ROWS)
    # g16: left 4♣ (g15), right 5♣ (g17): 4♣ may step right before the 5♣ in easy only.
    assert code(EASY.setup(pos), "g15-g16") is None
    assert code(HARD.setup(pos), "g15-g16") == "gaps.fill"
    assert code(EASY.setup(pos), "g2-g16") == "gaps.fill"  # 3♣ fits neither side


def test_easy_and_difficult_fill_rules():
    pos = grid(*ROWS)
    easy, hard = EASY.setup(pos), HARD.setup(pos)
    # g4: left 5♥ (g3), right 9♦ (g5): easy takes 6♥ or 8♦, difficult only 6♥.
    assert code(easy, "g46-g4") is None  # 6♥ is in g46
    assert code(hard, "g46-g4") is None
    assert code(easy, "g52-g4") == "gaps.fill"  # Q♥
    assert code(easy, "g39-g4") is None  # 8♦ before 9♦
    why = hard.refusal(engine.parse_move(HARD, "g39-g4"))
    assert why.code == "gaps.fill" and "6♥" in why.message and "8♦" in why.message


def test_difficult_no_card_right_of_a_king_easy_may_fill_from_the_right():
    pos = grid(*ROWS)
    easy, hard = EASY.setup(pos), HARD.setup(pos)
    # g8: left K♥ (g7), right 8♣ (g9): easy takes 7♣ (g23), difficult nothing.
    assert code(hard, "g23-g8") == "gaps.after-king"
    assert code(easy, "g23-g8") is None


def test_difficult_gap_with_a_gap_on_its_left_takes_nothing():
    rows = list(ROWS)
    rows[3] = "2s Jc Qs 7d Ks Td 6h . . 8s 7h 4s Qh"
    pos = grid(*rows, aces="Ac Ad Ah As Jd")
    hard, easy = HARD.setup(pos), EASY.setup(pos)
    assert code(hard, "g6-g48") == "gaps.no-left"
    assert code(easy, "g13-g48") is None  # 7♠ before 8♠ (g49)


def test_only_into_a_gap_one_card_the_twos_stay():
    st = EASY.setup(grid(*ROWS))
    assert code(st, "g13-g5") == "gaps.not-gap"
    assert code(st, "g4-g8") == "source.empty"
    assert code(st, "g1-g16") == "gaps.two-fixed"
    assert code(st, "g2-a") == "target.kind"
    assert code(st, "a-g4") == "source.fixed"
    assert code(st, "g2:2-g4") == "unit.top"


def test_two_in_first_cell_never_moves_even_where_it_fits():
    rows = list(ROWS)
    rows[0] = "2c . 3c 5h 9d 6s Kh . 8c 4d Tc Jh 7s"
    rows[2] = "2h 8h 9h 5s Qc 3d 6d 5d 4h Kc Js 4c 8d"
    rows[1] = "2d . . 5c 6c Qd 3h Kd . 7c Th 9s 3s"
    st = EASY.setup(grid(*rows, aces="Ac Ad Ah As"))
    assert code(st, "g1-g2") == "gaps.two-fixed"  # 2♣ is the card before 3♣
    assert Move(MOVE, 0, 1) not in st.legal_moves()


def test_no_wrap_from_king():
    rows = ["2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc .",
            "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd .",
            "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh .",
            "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs . Ks"]
    st = EASY.setup(grid(*rows))
    assert code(st, "g52-g51") is None
    assert code(st, "g52-g13") == "gaps.fill"  # nothing follows a King (no Ace from K)


def test_score_counts_runs_from_the_twos_and_win():
    rows = ["2c 3c 4c 9h 6c . . . . . . . .", ". . . . . . . . . . . . .",
            "2h 3h 4h 5h . . . . . . . . .", "3s 4s . . . . . . . . . . ."]
    st = EASY.setup(grid(*rows, aces=""))
    assert st.score == 3 + 0 + 4 + 0
    rows = list(SOLVED)
    rows[3] = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs . Ks"
    st = HARD.setup(grid(*rows))
    assert st.score == 47 and st.status == "playing"
    st.play(engine.parse_move(HARD, "g52-g51"))
    assert st.score == 48 and st.status == "won"


def test_easy_shifting_moves_keep_the_game_open():
    # The one legal move takes 6♦ from beside 5♦ to beside 7♦; it could go straight back.
    # docs/rules/gaps.md counts such a move as useful (a gap is no "equivalent" cell), so the
    # game goes on until the player resigns.
    rows = ["2c . 7d 8d . . . . . . . . .", "2d 9s 5d 6d Ks . . . . . . . .",
            "2h . . . . . . . . . . . .", "2s . . . . . . . . . . . ."]
    st = EASY.setup(grid(*rows, aces=""))
    assert [engine.move_text(EASY, m) for m in EASY.legal_moves(st)] == ["g17-g2"]
    assert st.status == "playing"
    st.play(engine.parse_move(EASY, "g17-g2"))
    assert [engine.move_text(EASY, m) for m in EASY.legal_moves(st)] == ["g2-g17"]
    assert st.status == "playing"


def test_easy_extending_a_run_always_counts():
    # 4♣ lies before 5♣, but moving it onto 2♣ 3♣ lengthens the run: a useful move.
    rows = ["2c 3c . 9h . . . . . . . . .", "2d 4c 5c Ks . . . . . . . . .",
            "2h . . . . . . . . . . . .", "2s . . . . . . . . . . . ."]
    st = EASY.setup(grid(*rows, aces=""))
    extend = engine.parse_move(EASY, "g15-g3")
    assert st.refusal(extend) is None and EASY.useful(st, extend)
    assert st.status == "playing" and st.score == 2 + 1 + 1 + 1
    st.play(extend)
    assert st.score == 3 + 1 + 1 + 1


def test_redeal_keeps_runs_reshuffles_the_rest_and_removes_the_aces_again():
    st = HARD.deal(SEED)
    before = [list(p) for p in st.piles]
    runs = HARD.run_cells(st)
    free = [r * 13 + c for r in range(4) for c in range(runs[r], 13)]
    gathered = [before[g][0] for g in free if before[g]] + before[52]
    dealt = shuffle(gathered, Stream(SEED, "redeal/1"))
    st.play(engine.parse_move(HARD, "redeal"))
    for r in range(4):
        for c in range(runs[r]):
            assert st.piles[r * 13 + c] == before[r * 13 + c]
    for g, c in zip(free, dealt, strict=True):
        assert st.piles[g] == ([] if RANK[c] == 1 else [c])
    assert sorted(st.piles[52]) == sorted(before[52])
    assert sum(1 for g in range(52) if not st.piles[g]) == 4
    assert st.vars["redeals"] == 1 and st.view()["info"]["redeals_left"] == 1
    st.undo()
    assert st.piles == before


def test_redeal_limit_and_easy_has_none():
    st = HARD.deal(SEED)
    st.play(engine.parse_move(HARD, "redeal"))
    first = [list(p) for p in st.piles]
    st.play(engine.parse_move(HARD, "redeal"))
    assert st.vars["redeals"] == 2 and st.piles != first  # "redeal/2" is a new shuffle
    assert code(st, "redeal") == "redeal.limit"
    assert Move(REDEAL) not in st.legal_moves()
    assert code(EASY.deal(SEED), "redeal") == "redeal.none"


def test_redeal_is_competitive_reveal():
    st = HARD.deal(SEED, competitive=True)
    st.play(engine.parse_move(HARD, "redeal"))
    assert st.can_undo().code == "undo.revealed"


def test_difficult_lost_only_when_stuck_with_no_redeal_left():
    rows = ["2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc .", "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd .",
            "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Kh . Qh", "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Ks . Qs"]
    pos = grid(*rows)
    assert HARD.setup(pos, redeals=2).status == "lost"
    st = HARD.setup(pos, redeals=1)
    assert st.status == "playing" and st.legal_moves() == [Move(REDEAL)]
    assert st.score == 44
    # Easy may still move J♥ out of its run into g38 (before Q♥): a legal move, so easy
    # play goes on.
    easy = EASY.setup(pos)
    assert engine.parse_move(EASY, "g36-g38") in easy.rules.legal_moves(easy)
    assert easy.status == "playing"


def test_a_redeal_order_is_the_seeds_shuffle_of_the_cards() -> None:
    """The redeal draws its order once per count of cards (``redeal_order``): the cards put in
    that order are the shuffle of them by the redeal's sub-stream, whatever the cards."""
    from engine.games.gaps import redeal_order

    for k, n in ((1, 8), (1, 40), (2, 23)):
        cards = [51 - 2 * i for i in range(n)]
        order = redeal_order(SEED, k, n)
        assert sorted(order) == list(range(n))
        assert [cards[i] for i in order] == shuffle(cards, Stream(SEED, f"redeal/{k}"))
