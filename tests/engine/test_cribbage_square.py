"""Cribbage Square: placement, the starter, and cribbage hand scoring checked by hand."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

import engine
from engine.cards import RANK, SUIT, TEXT, parse_card
from engine.core import Move
from engine.deal import shuffled_deck
from engine.games.cribbage_square import hand_parts, hand_score

EASY = engine.get("cribbage-square", "easy")
HARD = engine.get("cribbage-square", "difficult")
BOTH = pytest.mark.parametrize("rules", [EASY, HARD], ids=["easy", "difficult"])


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def mv(rules: engine.RuleSet, text: str) -> Move:
    return engine.parse_move(rules, text)


# (hand, starter, fifteens, pairs, runs, flush, nobs), every number worked out by hand.
HANDS = [
    # the 29 hand and its near relatives
    ("5c 5d 5h Js", "5s", 16, 12, 0, 0, 1),
    ("5c 5d 5h Jd", "5s", 16, 12, 0, 0, 0),
    ("5c 5d 5h 5s", "Jh", 16, 12, 0, 0, 0),
    ("Jh 5c 5d 5s", "Kc", 14, 6, 0, 0, 0),
    ("Jh 5c 5d 5s", "Kh", 14, 6, 0, 0, 1),
    ("Ac 5d 5h 5s", "5c", 8, 12, 0, 0, 0),
    # nothing at all: every value even, no pair, no run ("a 19 hand")
    ("2c 4d 6h 8s", "Kc", 0, 0, 0, 0, 0),
    ("2h 4h 6h 8s", "Kh", 0, 0, 0, 0, 0),  # the starter's suit does not make a flush
    # nobs alone, and its absence when the Jack is not of the starter's suit
    ("Jh 2c 6d 8s", "Kh", 0, 0, 0, 0, 1),
    ("Jh 2c 6d 8s", "Kc", 0, 0, 0, 0, 0),
    # flush: 4 hand cards, 5 with the starter
    ("2h 4h 6h 8h", "Ks", 0, 0, 0, 4, 0),
    ("2h 4h 6h 8h", "Kh", 0, 0, 0, 5, 0),
    ("Jh 2h 4h 6h", "8h", 0, 0, 0, 5, 1),
    ("Jh 2h 4h 6h", "8c", 0, 0, 0, 4, 0),
    # pairs: a pair, two pairs, pair royal, double pair royal
    ("2c 2d 6h 8s", "Qc", 0, 2, 0, 0, 0),
    ("2c 2d 8h 8s", "Qc", 0, 4, 0, 0, 0),
    ("2c 2d 2h 8s", "Qc", 0, 6, 0, 0, 0),
    ("2c 2d 2h 2s", "8c", 0, 12, 0, 0, 0),
    # fifteens
    ("7c 8d 2h 4s", "Qc", 2, 0, 0, 0, 0),
    ("5c Td Qh Ks", "2c", 6, 0, 0, 0, 0),
    ("Ac 4d Qh Ks", "2c", 4, 0, 0, 0, 0),
    ("3c 3d 3h 3s", "9c", 12, 12, 0, 0, 0),
    ("6c 6d 6h 9s", "9c", 12, 8, 0, 0, 0),
    ("Kc Kd Kh 5s", "5c", 12, 8, 0, 0, 0),
    ("4c 4d 7h 7s", "4h", 12, 8, 0, 0, 0),
    ("Ac Ad 7h 7s", "7c", 12, 8, 0, 0, 0),
    # runs of three, four and five; Aces low, no wrap
    ("Jc Qd Kh 2s", "4d", 0, 0, 3, 0, 0),
    ("9c Td Jh Qs", "2c", 0, 0, 4, 0, 0),
    ("9c Td Jh Qs", "Kc", 0, 0, 5, 0, 0),
    ("Ac 2d 3h 8s", "Kc", 2, 0, 3, 0, 0),
    ("Qc Kd Ah 2s", "5c", 4, 0, 0, 0, 0),
    ("2c 3d 4h 9s", "Kc", 4, 0, 3, 0, 0),
    # double, triple and double-double runs
    ("9c 9d Th Js", "2c", 0, 2, 6, 0, 0),
    ("8c 9d 9h Ts", "Jd", 0, 2, 8, 0, 0),
    ("9c 9d 9h Ts", "Jc", 0, 6, 9, 0, 0),
    ("9c 9d Th Ts", "Jc", 0, 4, 12, 0, 0),
    ("3c 4d 5h 5s", "5c", 2, 6, 9, 0, 0),
    ("4c 5d 6h 6s", "7c", 4, 2, 8, 0, 0),
    ("7c 7d 8h 8s", "9c", 8, 4, 12, 0, 0),
    ("6c 7d 7h 8s", "8c", 8, 4, 12, 0, 0),
    ("4c 4d 5h 5s", "6c", 8, 4, 12, 0, 0),
    # everything together
    ("2h 3h 4h 5h", "6h", 4, 0, 5, 5, 0),
    ("2h 3h 4h 5h", "6c", 4, 0, 5, 4, 0),
    ("5c Td Jh Qs", "Kc", 8, 0, 4, 0, 0),
    ("5c Td Jc Qs", "Kc", 8, 0, 4, 0, 1),
]


@pytest.mark.parametrize(("hand", "starter", "fifteens", "pairs", "runs", "flush", "nobs"),
                         HANDS, ids=[f"{h} | {s}" for h, s, *_ in HANDS])
def test_known_hands(hand, starter, fifteens, pairs, runs, flush, nobs):
    parts = hand_parts(cards(hand), parse_card(starter))
    assert parts == (fifteens, pairs, runs, flush, nobs)
    assert hand_score(cards(hand), parse_card(starter)) == fifteens + pairs + runs + flush + nobs


def test_the_table_is_large_and_covers_the_famous_totals():
    assert len(HANDS) >= 40
    totals = {h: sum(x) for h, _, *x in HANDS}
    assert totals["5c 5d 5h Js"] == 29
    assert totals["2c 4d 6h 8s"] == 0
    assert totals["7c 7d 8h 8s"] == 24


def test_a_hand_before_the_starter():
    """A part-filled line scores what it holds: no starter, so no nobs; a flush needs four."""
    assert hand_parts(cards("5c 5d 5h")) == (2, 6, 0, 0, 0)
    assert hand_parts(cards("2h 4h 6h 8h")) == (0, 0, 0, 4, 0)
    assert hand_parts(cards("2h 4h 6h")) == (0, 0, 0, 0, 0)
    assert hand_parts(cards("Jh 3d 4c")) == (0, 0, 0, 0, 0)
    assert hand_parts(()) == (0, 0, 0, 0, 0)


def oracle(hand: tuple[int, ...], starter: int) -> int:
    """A second scorer written the slow way, to check lines of whole games."""
    all5 = (*hand, starter)
    value = [min(RANK[c], 10) for c in range(52)]
    total = 2 * sum(1 for k in range(2, 6) for combo in combinations(all5, k)
                    if sum(value[c] for c in combo) == 15)
    total += 2 * sum(1 for x, y in combinations(all5, 2) if RANK[x] == RANK[y])
    for k in (5, 4, 3):
        n = 0
        for combo in combinations(all5, k):
            ranks = sorted(RANK[c] for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(k - 1)):
                n += 1
        if n:
            total += k * n
            break
    if len({SUIT[c] for c in hand}) == 1:
        total += 5 if SUIT[starter] == SUIT[hand[0]] else 4
    total += any(RANK[c] == 11 and SUIT[c] == SUIT[starter] for c in hand)
    return total


def test_the_oracle_agrees_with_the_table():
    for hand, starter, *parts in HANDS:
        assert oracle(cards(hand), parse_card(starter)) == sum(parts), hand


# ----- the deal and placement ---------------------------------------------------------


@BOTH
def test_deal_puts_every_card_in_the_stock_with_its_top_turned_up(rules):
    st = rules.deal(b"crib")
    s = rules.pile_index["s"]
    deck = shuffled_deck(b"crib")
    assert st.piles[s] == deck[::-1]  # the deck's first card is the first flipped
    assert st.down[s] == 51
    assert st.view()["piles"]["s"]["up"] == [TEXT[deck[0]]]
    assert all(not st.piles[rules.pile_index[f"g{i}"]] for i in range(1, 17))
    assert ("w" in rules.pile_index) == (rules is EASY)
    info = st.view()["info"]
    assert info["starter"] is None
    assert [line["line"] for line in info["lines"]] == [
        "row 1", "row 2", "row 3", "row 4", "column 1", "column 2", "column 3", "column 4",
        "starter"]


@BOTH
def test_placing_a_card_turns_up_the_next(rules):
    st = rules.setup({"s": "2c 3d 5h"}, down={"s": 2})
    st.play(mv(rules, "s-g6"))
    assert st.view()["piles"]["g6"]["up"] == ["5h"]
    assert st.view()["piles"]["s"] == {"down": 1, "up": ["3d"]}
    assert st.revealed[-1]


@BOTH
def test_a_space_takes_one_card_and_placed_cards_stay(rules):
    st = rules.setup({"g1": "Kh", "s": "2c 3d 5h"}, down={"s": 2})
    assert st.refusal(mv(rules, "s-g1")).code == "target.full"
    assert st.refusal(mv(rules, "g1-g2")).code == "source.fixed"
    assert st.refusal(mv(rules, "s")).code == "stock.play"
    assert st.refusal(mv(rules, "s:2-g2")).code in ("source.hidden", "unit.top")


def test_easy_waste_holds_four_and_never_gives_back():
    rules = EASY
    st = rules.setup({"w": "Ac 2c 3c", "s": "9d 4c 5h"}, down={"s": 2})
    st.play(mv(rules, "s-w"))
    assert st.refusal(mv(rules, "s-w")).code == "target.full"
    assert st.refusal(mv(rules, "w-g1")).code == "source.fixed"
    assert st.refusal(mv(rules, "s-g1")) is None


def test_difficult_has_no_waste():
    with pytest.raises(engine.IllegalMove) as e:
        mv(HARD, "s-w")
    assert e.value.code == "move.syntax"
    st = HARD.setup({"s": "9d 4c"}, down={"s": 1})
    targets = {HARD.pile_names[m.dst] for m in st.legal_moves()}
    assert targets == {f"g{i}" for i in range(1, 17)}


# ----- whole squares, scored by hand ----------------------------------------------------

# Rows then columns; each line worked out by hand with the starter 5s.
SQUARE = {
    "g1": "5c", "g2": "5d", "g3": "5h", "g4": "Js",
    "g5": "7c", "g6": "8d", "g7": "9h", "g8": "2s",
    "g9": "Kc", "g10": "Qd", "g11": "Ac", "g12": "4h",
    "g13": "6c", "g14": "6d", "g15": "3s", "g16": "Tc",
}
SQUARE_LINES = {
    "row 1": 29,  # 5 5 5 J + 5s: fifteens 16, pairs 12, nobs (Js) 1
    "row 2": 7,  # 7 8 9 2 + 5: 7+8, 8+2+5: 4; run 7-8-9: 3
    "row 3": 8,  # K Q A 4 + 5: K+5, Q+5, K+A+4, Q+A+4: 8
    "row 4": 6,  # 6 6 3 T + 5: 6+6+3, T+5: 4; pair 2
    "column 1": 16,  # 5c 7c Kc 6c + 5s: K+5 twice 4, pair 2, run 5-6-7 twice 6, flush 4
    "column 2": 10,  # 5d 8d Qd 6d + 5s: Q+5 twice 4, pair 2, flush 4
    "column 3": 6,  # 5h 9h Ac 3s + 5s: 5+9+A twice 4, pair 2
    "column 4": 5,  # Js 2s 4h Tc + 5s: J+5, T+5 4, nobs 1
    "starter": 0,
}


def full_square(rules: engine.RuleSet, grid: dict[str, str], starter: str,
                under: str = "2c 3c") -> engine.State:
    return rules.setup({**grid, "s": f"{under} {starter}"}, down={"s": len(under.split())})


@BOTH
def test_a_square_scores_each_line_and_wins_at_75(rules):
    st = full_square(rules, SQUARE, "5s")
    info = st.view()["info"]
    assert info["starter"] == "5s"
    assert {line["line"]: line["points"] for line in info["lines"]} == SQUARE_LINES
    assert sum(SQUARE_LINES.values()) == 87
    assert st.score == 87
    assert sum(line["points"] for line in info["lines"]) == st.score
    row1 = info["lines"][0]["parts"]
    assert row1 == {"fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}
    assert st.status == "won"
    assert st.legal_moves() == []


# A Jack starter: 2 points once for the square, not once per line.
HEELS_SQUARE = {
    "g1": "2c", "g2": "4d", "g3": "6h", "g4": "8s",
    "g5": "2d", "g6": "4h", "g7": "6s", "g8": "8c",
    "g9": "2h", "g10": "4s", "g11": "6c", "g12": "8d",
    "g13": "Tc", "g14": "Td", "g15": "Qh", "g16": "Ks",
}


@BOTH
def test_a_jack_starter_scores_two_once(rules):
    st = full_square(rules, HEELS_SQUARE, "Jc", under="Ah Ad")
    lines = {line["line"]: line["points"] for line in st.view()["info"]["lines"]}
    # every value is even (a Jack counts 10), so there is no fifteen anywhere
    assert lines == {
        "row 1": 0, "row 2": 0, "row 3": 0,
        "row 4": 10,  # T T Q K + J: double run T-J-Q-K 8, pair 2
        "column 1": 6, "column 2": 6, "column 3": 6, "column 4": 6,  # pairs royal
        "starter": 2,
    }
    assert st.score == 36
    assert st.status == "finished"  # under 75: the game is over but not won


@BOTH
def test_filling_the_last_space_shows_the_starter(rules):
    grid = dict(SQUARE)
    last = grid.pop("g16")
    st = rules.setup({**grid, "s": f"4d 5s {last}"}, down={"s": 2}, seed=b"x")
    st.competitive = True
    assert st.status == "playing"
    assert st.view()["info"]["starter"] is None
    before = st.score
    assert before == sum(line["points"] for line in st.view()["info"]["lines"])
    st.play(mv(rules, "s-g16"))
    assert st.view()["info"]["starter"] == "5s"
    assert st.view()["piles"]["s"] == {"down": 1, "up": ["5s"]}
    assert st.status == "won" and st.score == 87
    assert st.can_undo().code == "undo.revealed"


@BOTH
def test_whole_games_add_up(rules):
    """Play seeded games to the end; every line matches the slow scorer, and they add up."""
    for seed in range(12):
        st = rules.deal(bytes([seed]))
        k = 0
        while not st.over:
            moves = st.legal_moves()
            st.play(moves[(seed * 7 + k * 13) % len(moves)])
            k += 1
        assert st.status in ("won", "finished")
        assert st.status == ("won" if st.score >= 75 else "finished")
        starter = st.piles[rules.stock_pile][-1]
        assert st.down[rules.stock_pile] == len(st.piles[rules.stock_pile]) - 1
        grid = [st.piles[rules.pile_index[f"g{i}"]][0] for i in range(1, 17)]
        rows = [tuple(grid[r * 4 : r * 4 + 4]) for r in range(4)]
        cols = [tuple(grid[c::4]) for c in range(4)]
        info = st.view()["info"]
        assert info["starter"] == TEXT[starter]
        assert [x["points"] for x in info["lines"][:8]] == [
            oracle(h, starter) for h in rows + cols]
        heels = 2 if RANK[starter] == 11 else 0
        assert info["lines"][8]["points"] == heels
        assert st.score == sum(oracle(h, starter) for h in rows + cols) + heels
        json.dumps(st.view())
