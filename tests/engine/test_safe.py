"""Safe moves to the foundations (engine/safe.py), the ones auto-move may play, on hand-built
positions of several rule sets, and their one promise on dealt games: only public facts count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as strat

import engine
from engine.safe import safe_moves


def safe(st: engine.State) -> list[str]:
    return sorted(engine.move_text(st.rules, m) for m in safe_moves(st))


KLONDIKE = engine.get("klondike", "easy")


def test_an_ace_is_always_safe():
    st = KLONDIKE.setup({"t1": "Kc Ah", "t2": "5d", "w": "As"}, down={"t1": 1})
    assert safe(st) == ["t1-f1", "w-f1"]  # either Ace to the first empty foundation


def test_alternating_colours_a_red_five_once_both_black_fours_are_up():
    up = {"f1": "As 2s 3s 4s", "f2": "Ac 2c 3c", "f3": "Ad 2d 3d", "f4": "Ah 2h 3h 4h"}
    st = KLONDIKE.setup({**up, "t1": "5h"})
    assert safe(st) == []  # the 4♣ is still out: the 5♥ may have to hold it
    st = KLONDIKE.setup({**up, "f2": "Ac 2c 3c 4c", "t1": "5h", "t2": "5c"})
    assert safe(st) == ["t1-f4"]  # both black 4s are up; the 5♣ waits for the 4♦
    st = KLONDIKE.setup({**up, "f2": "Ac 2c 3c 4c", "f3": "Ad 2d 3d 4d", "t1": "5h",
                         "t2": "5c"})
    assert safe(st) == ["t1-f4", "t2-f2"]


def test_a_red_two_waits_for_the_black_aces():
    st = KLONDIKE.setup({"t1": "2h", "f1": "Ah", "t2": "As"})
    assert safe(st) == ["t2-f2"]  # the 2♥ could still hold the A♠ in a column


def followed(st: engine.State) -> list[str]:
    return sorted(engine.move_text(st.rules, m) for m in safe_moves(st, follow=True))


def test_follow_a_card_whose_waiting_cards_can_go_home_whenever_laid_on_it():
    """The solver's stronger rule: the 2♥ may hold only the black Aces, and the A♠ can go
    home at any time; the 6♥ may hold the black 5s, which can follow it (the black 4s are
    up), and on them only the red 4s, of which the 4♥ is up and the 4♦ can follow."""
    st = KLONDIKE.setup({"t1": "2h", "f1": "Ah", "t2": "As"})
    assert followed(st) == ["t1-f1", "t2-f2"]
    up = {"f1": "As 2s 3s 4s", "f2": "Ac 2c 3c 4c", "f3": "Ad 2d 3d", "f4": "Ah 2h 3h 4h 5h"}
    st = KLONDIKE.setup({**up, "t1": "6h", "t2": "5s", "t3": "4d"})
    assert safe(st) == ["t3-f3"] and followed(st) == ["t1-f4", "t2-f1", "t3-f3"]


def test_follow_not_while_a_card_that_may_wait_cannot_go_home():
    """The 4♦ can't go home while the 3♦ is out, so the 5♠ may have to hold it, and the 6♥
    the 5♠."""
    up = {"f1": "As 2s 3s 4s", "f2": "Ac 2c 3c 4c", "f3": "Ad 2d", "f4": "Ah 2h 3h 4h 5h"}
    st = KLONDIKE.setup({**up, "t1": "6h", "t2": "5s", "t3": "4d", "t4": "3d"})
    assert followed(st) == ["t4-f3"]


def test_same_suit_columns_need_only_the_one_card_below():
    lucie = engine.get("la-belle-lucie", "easy")
    st = lucie.setup({"t1": "3h", "t2": "2h", "f1": "Ah", "f2": "As 2s"})
    assert safe(st) == ["t2-f1"]  # only the 2♥ itself lies on the 3♥: nothing else waits
    st = lucie.setup({"t1": "3h", "f1": "Ah 2h", "t2": "4s", "t3": "2s"})
    assert safe(st) == ["t1-f1"]


def test_building_regardless_of_suit_waits_for_every_card_a_rank_lower():
    castle = engine.get("beleaguered-castle", "difficult")
    foundations = {"f1": "Ac", "f2": "Ad", "f3": "Ah", "f4": "As"}
    st = castle.setup({**foundations, "t1": "2h", "t2": "Kc"})
    assert safe(st) == ["t1-f3"]  # every Ace is up
    st = castle.setup({**foundations, "t1": "3h", "f3": "Ah 2h", "t2": "2c"})
    assert safe(st) == ["t2-f1"]  # the 3♥ could still hold the 2♦ or 2♠


def test_one_foundation_taking_several_cards_is_never_safe():
    golf = engine.get("golf", "easy")
    st = golf.setup({"t1": "5h", "t2": "7c", "f": "6d"})
    assert st.legal_moves() and safe(st) == []  # playing the 5♥ shuts out the 7♣


def test_foundation_rank_chosen_by_the_first_card_is_not_safe():
    fortress = engine.get("fortress", "easy")  # the first card to a foundation sets the base
    st = fortress.setup({"t1": "Ah", "t2": "Kc"})
    assert any(fortress.pile_kinds[m.dst] == "foundation" for m in st.legal_moves())
    assert safe(st) == []


def test_starting_a_foundation_any_card_may_start_is_not_safe():
    eliminator = engine.get("eliminator", "easy")  # empty foundations take any card
    st = eliminator.setup({"t1": "Ah", "t2": "Kc"})
    assert any(eliminator.pile_kinds[m.dst] == "foundation" for m in st.legal_moves())
    assert safe(st) == []


def test_discard_piles_and_games_without_foundations_have_no_safe_moves():
    aces_up = engine.get("aces-up", "difficult")
    st = aces_up.setup({"t1": "5h", "t2": "9h"})
    assert st.legal_moves() and safe(st) == []  # what to throw away is the player's choice
    scorpion = engine.get("scorpion", "easy")
    assert safe(scorpion.deal(b"x")) == []
    pyramid = engine.get("pyramid", "easy")
    assert safe(pyramid.deal(b"x")) == []


def test_a_whole_klondike_win_is_safe_moves_once_nothing_is_hidden():
    # The last cards of a won game: every foundation move is safe, and they finish it.
    up = {f"f{i + 1}": " ".join(f"{r}{suit}" for r in "A23456789TJ") for i, suit in
          enumerate("scdh")}
    st = KLONDIKE.setup({**up, "t1": "Kh Qs", "t2": "Ks Qh", "t3": "Kc Qd", "t4": "Kd Qc"})
    moves = safe_moves(st)
    while moves:
        st.play(moves[0])
        moves = safe_moves(st)
    assert st.status == "won"


@pytest.mark.parametrize("rules", engine.rule_sets(), ids=lambda r: r.key)
def test_safe_moves_are_legal_one_card_foundation_moves(rules):
    st = rules.deal(b"safe")
    for _ in range(60):
        legal = st.legal_moves()
        if not legal or st.over:
            break
        for m in safe_moves(st, legal):
            assert m in legal and m.n == 1 and rules.pile_kinds[m.dst] == "foundation"
        st.play(legal[len(legal) // 2])


@settings(max_examples=40, deadline=None)
@given(strat.binary(min_size=1, max_size=8), strat.integers(0, 40))
def test_hidden_cards_do_not_change_the_answer(seed, plies):
    # Two games alike in everything a player sees answer the same: face-down cards
    # swapped between each other change nothing.
    st = KLONDIKE.deal(seed)
    for i in range(plies):
        legal = st.legal_moves()
        if not legal or st.over:
            break
        st.play(legal[i % len(legal)])
    hidden = sorted(st.hidden_cards())
    if len(hidden) < 2:
        return
    swapped = st.copy()
    where = {c: (p, i) for p, pile in enumerate(swapped.piles) for i, c in enumerate(pile)}
    (p1, i1), (p2, i2) = where[hidden[0]], where[hidden[-1]]
    swapped.piles[p1][i1], swapped.piles[p2][i2] = hidden[-1], hidden[0]
    assert st.view() == swapped.view()
    assert safe_moves(st) == safe_moves(swapped)
