"""Fortress, both variants, on hand-built positions (docs/rules/fortress.md)."""

from __future__ import annotations

import collections

import pytest

import engine
from engine.core import State
from engine.solver.depth import DepthFirst
from engine.solver.state_board import StateBoard

from .positions import cards as pile
from .positions import play, refused

EASY = engine.get("fortress", "easy")
HARD = engine.get("fortress", "difficult")


def through_the_state(st: engine.State) -> DepthFirst:
    """Depth first from ``st`` through the engine's state, which asks the rule set's own
    end rule at every position (a search's ``Board`` does not)."""
    search = DepthFirst(st, None)
    search.board = StateBoard(st)
    return search


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_two_columns_of_six_then_eight_of_five_all_face_up(rules):
    seed = b"fortress"
    deck = engine.shuffled_deck(seed)
    st = rules.deal(seed)
    assert [len(st.piles[t]) for t in range(10)] == [6, 6] + [5] * 8
    assert st.piles[0] == deck[:6] and st.piles[1] == deck[6:12]
    assert st.piles[2] == deck[12:17] and st.piles[9] == deck[47:52]
    assert all(d == 0 for d in st.down)
    assert all(not st.piles[f] for f in rules.by_kind["foundation"])
    assert rules.pile_names == [f"t{i}" for i in range(1, 11)] + ["f1", "f2", "f3", "f4"]


def test_deal_base_vars():
    assert EASY.deal(b"x").vars["base"] == 0  # not chosen yet
    assert HARD.deal(b"x").vars["base"] == 1
    assert EASY.deal(b"x").view()["info"]["base"] is None


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_columns_build_up_or_down_in_any_suit(rules):
    st = rules.setup({"t1": "7h", "t2": "8h", "t3": "6c Ac", "t4": "9s", "t5": "4c 6s"})
    play(st, "t1-t2")  # down
    assert pile(st, "t2") == ["8h", "7h"]
    play(st, "t2-t5")  # up, other suit
    assert pile(st, "t5") == ["4c", "6s", "7h"]
    e = refused(st, "t4-t5")
    assert e.code == "build.tableau"
    assert e.message == "9♠ can't go on 7♥: a 9 goes on a 10 or an 8"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_columns_never_wrap(rules):
    st = rules.setup({"t1": "Kc", "t2": "Ah", "t3": "Qd", "t4": "2s"})
    assert refused(st, "t1-t2").code == "build.tableau"
    assert refused(st, "t2-t1").code == "build.tableau"
    play(st, "t3-t1")
    play(st, "t2-t4")


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_only_the_top_card_moves(rules):
    st = rules.setup({"t1": "8h 7s", "t2": "9d", "t3": "Ac"}, base=1)
    assert refused(st, "t1:2-t2").code == "unit.top"


def test_easy_empty_column_takes_any_card():
    st = EASY.setup({"t1": "5c 8h", "t2": ""})
    play(st, "t1-t2")
    assert pile(st, "t2") == ["8h"]


def test_difficult_empty_column_takes_only_a_king():
    st = HARD.setup({"t1": "5c 8h", "t2": "", "t3": "4d Ks", "t4": "Ah"})
    e = refused(st, "t1-t2")
    assert e.code == "fill.king"
    assert e.message == "only a King can fill an empty column"
    play(st, "t3-t2")
    assert pile(st, "t2") == ["Ks"]


def test_easy_first_foundation_card_chooses_the_base():
    st = EASY.setup({"t1": "7c", "t2": "8h", "t3": "7d", "t4": "8c", "t5": "9h"})
    assert st.vars["base"] == 0
    play(st, "t2-f1")  # any rank may start: an 8
    assert st.vars["base"] == 8
    assert st.view()["info"]["base"] == "8"
    e = refused(st, "t1-f2")
    assert e.code == "fill.base" and e.message == "a foundation starts with an 8"
    play(st, "t4-f2")
    assert refused(st, "t3-f1").code == "build.foundation"  # 7 does not go up on 8
    st.undo()
    st.undo()
    assert st.vars["base"] == 0  # undo forgets the choice


def test_easy_foundation_wraps_king_to_ace():
    st = EASY.setup({"f1": "Qs Ks", "t1": "As", "t2": "2s", "t3": "2h"}, base=12)
    assert refused(st, "t2-f1").code == "build.foundation"
    play(st, "t1-f1")
    assert refused(st, "t3-f1").code == "build.foundation"  # in suit
    play(st, "t2-f1")
    assert pile(st, "f1") == ["Qs", "Ks", "As", "2s"]


def test_difficult_foundations_start_with_aces_and_do_not_wrap():
    st = HARD.setup({"t1": "7c", "t2": "Ac", "t3": "2c", "t4": "As"})
    e = refused(st, "t1-f1")
    assert e.code == "fill.base" and e.message == "a foundation starts with an Ace"
    play(st, "t2-f1")
    play(st, "t3-f1")
    assert HARD.groups[1].build.wrap is False
    st = HARD.setup({"f1": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "t1": "As"})
    assert refused(st, "t1-f1").code == "build.foundation"


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_no_card_leaves_a_foundation(rules):
    st = rules.setup({"f1": "Ac", "t1": "", "t2": "2c"}, base=1)
    assert refused(st, "f1-t1").code == "source.fixed"


def full_foundations_but(rules, last):
    """All cards on the foundations by suit from Ace, except ``last`` (a King) in t1."""
    suits = "cdhs"
    piles = {f"f{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK" if f"{r}{s}" != last)
             for i, s in enumerate(suits)}
    piles["t1"] = last
    return rules.setup(piles, base=1)


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_win_and_score(rules):
    st = full_foundations_but(rules, "Kd")
    assert st.score == 51 and st.status == "playing"
    play(st, "t1-f2")
    assert st.status == "won" and st.score == 52


def test_difficult_lost_when_cards_only_shuttle():
    # 5♣ can go round t1, t2, t3 and 6♦ onto it, but nothing ever uncovers the A♣:
    # the 9♠ has nowhere to go and an empty column takes only a King.
    st = HARD.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "6h"})
    assert HARD.legal_moves(st)  # moves remain...
    assert st.status == "lost"  # ...but none can change the foundations


def test_difficult_alive_when_shuttling_leads_to_a_foundation():
    st = HARD.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "8h"})
    assert st.status == "playing"  # 5♣ to t2, 9♠ to t3, then A♣ home
    play(st, "t1-t2")
    play(st, "t1-t3")
    play(st, "t1-f1")
    assert st.score == 1


def test_easy_same_position_is_alive_through_an_empty_column():
    st = EASY.setup({"t1": "Ac 9s 5c", "t2": "6d", "t3": "6h", "f1": "Kc"}, base=13)
    assert st.status == "playing"  # easy: the 9♠ may fill a space, then A♣ goes on K♣
    play(st, "t1-t2")
    play(st, "t3-t2")  # up or down: 6♥ onto 5♣ empties t3
    play(st, "t1-t3")
    play(st, "t1-f1")
    assert pile(st, "f1") == ["Kc", "Ac"]


def test_easy_lost_when_the_base_cards_stay_buried():
    # 5♥, 6♠ and 6♦ can shuttle for ever, but no column empties and the Q♦ never moves,
    # so the 7♣ (the only card a foundation could take) stays buried.
    st = EASY.setup({"t1": "7c Qd", "t2": "2c 5h", "t3": "9c 6s", "t4": "2d 6d", "t5": "2h",
                     "t6": "2s", "t7": "9d", "t8": "9h", "t9": "Qc", "t10": "Qh", "f1": "7s"},
                    base=7)
    assert st.status == "lost"
    assert EASY.legal_moves(st)


def test_whole_lone_card_into_empty_column_is_not_useful():
    st = EASY.setup({"t1": "9d", "t2": "", "f1": "5c"}, base=5)
    assert st.status == "lost"


@pytest.mark.parametrize("key", ["fortress/easy", "fortress/difficult", "shamrocks/difficult",
                                 "bristol/easy"])
def test_end_verdict_depends_on_the_position_alone(key):
    """The shared end-of-game search remembers positions; a cold rule set must agree."""
    game, variant = key.split("/")
    rules = engine.get(game, variant)
    for seed in range(3):
        st = rules.deal(bytes([seed]))
        k = 0
        while st.status == "playing" and k < 400:
            moves = st.legal_moves()
            st.play(moves[(k * 7919 + seed) % len(moves)])
            k += 1
            if k % 10 == 0 or st.status != "playing":
                cold = type(rules)(variant)  # a fresh instance: nothing remembered
                assert cold.status(st) == st.status, (key, seed, k)


def test_remembered_answers_are_those_of_a_fresh_search_also_when_too_far_to_tell():
    """A depth-first search on the engine's state (which asks the rule at every position, as
    the solver's board does not) on a deal whose search goes where many answers are "too far
    to tell" (difficult, deal 4), with a small search limit so that most are: every answer
    the rule set gives from what it remembers is the answer a fresh search gives, as the
    foundations change and change back under the search."""
    warm = type(HARD)("difficult")
    warm.search_limit = 40
    ask = warm.progress_reachable
    answers: collections.Counter[tuple[bool, bool]] = collections.Counter()

    def check(st: State) -> bool:
        answer = ask(st)
        cold = type(HARD)("difficult")
        cold.search_limit = 40
        assert cold.progress_reachable(st) == answer
        answers[answer, type(HARD)("difficult").progress_reachable(st)] += 1
        return answer

    warm.progress_reachable = check
    through_the_state(warm.deal((4).to_bytes(4, "big"))).run(300)
    assert answers[True, False] >= 10, answers  # alive only as too far to tell at 40
