"""Baker's Dozen, both variants, on hand-built positions (docs/rules/bakers-dozen.md)."""

from __future__ import annotations

import pytest

import engine
from engine.cards import RANK, TEXT, show
from engine.core import Move, State
from engine.mechanics import reversible
from engine.solver.depth import DepthFirst
from engine.solver.state_board import StateBoard

from .positions import play, refused

EASY = engine.get("bakers-dozen", "easy")
HARD = engine.get("bakers-dozen", "difficult")
SEED = b"kings"


def through_the_state(st: engine.State) -> DepthFirst:
    """Depth first from ``st`` through the engine's state, which asks the rule set's own
    end rule at every position (a search's ``Board`` does not)."""
    search = DepthFirst(st, None)
    search.board = StateBoard(st)
    return search


def kings_first(cards):
    return [c for c in cards if RANK[c] == 13] + [c for c in cards if RANK[c] != 13]


@pytest.mark.parametrize("rules,hidden", [(EASY, 1), (HARD, 2)])
def test_deal_thirteen_columns_of_four_kings_to_the_bottom(rules, hidden):
    deck = engine.shuffled_deck(SEED)
    st = rules.deal(SEED)
    chunks = [deck[i * 4 : i * 4 + 4] for i in range(13)]
    assert any(kings_first(c) != c for c in chunks), "the seed should need a King moved"
    assert [st.piles[t] for t in range(13)] == [kings_first(c) for c in chunks]
    assert st.down[:13] == [hidden] * 13
    assert all(not st.piles[f] for f in rules.by_kind["foundation"])
    view = st.view()
    assert all(view["piles"][f"t{i}"]["down"] == hidden for i in range(1, 14))
    assert all(len(view["piles"][f"t{i}"]["up"]) == 4 - hidden for i in range(1, 14))


def test_kings_keep_their_order_among_themselves():
    st = EASY.setup({"t1": "5c Kd 7h Ks"})
    EASY.prepare(st)
    assert [TEXT[c] for c in st.piles[0]] == ["Kd", "Ks", "5c", "7h"]


def test_columns_build_down_regardless_of_suit_top_card_only():
    st = EASY.setup({"t1": "7h", "t2": "8h", "t3": "9c", "t4": "2d 6s", "t5": "7c"})
    e = refused(st, "t1-t3")
    assert (e.code, e.message) == ("build.tableau", "7♥ can't go on 9♣: a 7 goes on an 8")
    play(st, "t1-t2")
    assert refused(st, "t4:2-t5").code == "unit.top"
    play(st, "t4-t5")


def test_a_column_holds_at_most_eleven_cards():
    st = EASY.setup({"t1": "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qh", "t2": "Jh", "t3": "Qd"})
    e = refused(st, "t2-t1")
    assert (e.code, e.message) == ("target.full", "a column holds at most 11 cards")
    play(st, "t2-t3")


def test_empty_columns_cannot_be_filled():
    st = EASY.setup({"t1": "Kh", "t2": "", "t3": "Ad"})
    e = refused(st, "t1-t2")
    assert (e.code, e.message) == ("fill.none", "an empty column can't be filled")


def test_face_down_cards_turn_up_and_are_never_named():
    st = HARD.setup({"t1": "Kc 5d 9s", "t2": "Th"}, down={"t1": 2})
    why = st.refusal(engine.Move("move", 0, 1, 2))
    assert why.code == "source.hidden" and show(engine.cards.parse_card("5d")) not in why.message
    play(st, "t1-t2")
    assert st.down[0] == 1 and st.revealed[-1]
    assert [TEXT[c] for c in st.visible(0)] == ["5d"]


def test_foundations_start_with_aces_and_build_in_suit():
    st = EASY.setup({"t1": "2h", "t2": "Ah", "t3": "2s", "t4": "3s", "t5": "3h"})
    assert refused(st, "t1-f1").code == "fill.base"
    play(st, "t2-f1")
    assert refused(st, "t3-f1").code == "build.foundation"
    play(st, "t1-f1")
    assert refused(st, "f1-t1").code == "source.fixed"
    assert st.score == 2


def test_win_and_score():
    piles = {f"f{i + 1}": " ".join(r + s for r in "A23456789TJQ")
             for i, s in enumerate("cdhs")}
    piles["t1"] = "Kc Kd Kh Ks"
    st = EASY.setup(piles)
    for m in ("t1-f4", "t1-f3", "t1-f2"):
        play(st, m)
        assert st.status == "playing"
    play(st, "t1-f1")
    assert st.status == "won" and st.score == 52


def test_lost_when_no_move_is_left():
    st = EASY.setup({"t1": "5c", "t2": "9d", "t3": "Kh", "t4": ""})
    assert st.legal_moves() == [] and st.status == "lost" and st.score == 0


def test_lost_when_only_to_and_fro_moves_are_left():
    # 8h can shuttle between 9s and 9d for ever; nothing else can ever move.
    st = EASY.setup({"t1": "9s 8h", "t2": "9d", "t3": "Kc"})
    assert EASY.legal_moves(st) == [engine.Move("move", 0, 1, 1)]
    assert st.status == "lost"
    # The same shuttle uncovers 9s, which the spade foundation wants: still playing.
    st = EASY.setup({"t1": "9s 8h", "t2": "9d", "t3": "Kc",
                     "f4": "As 2s 3s 4s 5s 6s 7s 8s"})
    assert st.status == "playing"
    play(st, "t1-t2")
    play(st, "t1-f4")


def test_a_move_that_shows_a_face_down_card_is_useful():
    st = EASY.setup({"t1": "2c 9s 8h", "t2": "9d"}, down={"t1": 1})
    assert st.status == "lost"  # 8h uncovers only 9s, already face up; 2c stays out of reach
    st = EASY.setup({"t1": "2c 8h", "t2": "9d"}, down={"t1": 1})
    assert st.status == "playing"
    play(st, "t1-t2")
    assert st.revealed[-1]


@pytest.mark.parametrize("key", ["bakers-dozen/difficult", "beleaguered-castle/difficult",
                                 "flower-garden/easy"])
def test_remembered_answers_are_those_of_a_fresh_search(key, monkeypatch):
    """The to-and-fro rule remembers its answers per state of the foundations and stops a
    search at a position it knows: under a depth-first search on the engine's state (which
    asks it at every position, as the solver's board does not), which comes back to the same
    foundations again and again, with a small search limit so that many answers are "too
    far to tell", every answer is the one a rule set that remembers nothing gives."""
    monkeypatch.setattr(reversible, "LIMIT", 30)
    game, variant = key.split("/")
    warm = type(engine.get(game, variant))(variant)
    ask = warm.useful
    asked = 0

    def check(st: State, m: Move) -> bool:
        nonlocal asked
        answer = ask(st, m)
        assert type(warm)(variant).useful(st, m) == answer
        asked += reversible.reversible(warm, st, m)
        return answer

    warm.useful = check
    for i in range(2):
        through_the_state(warm.deal(i.to_bytes(4, "big"))).run(400)
    assert asked > 100
    assert sum(len(m) for m in warm._memos.values()) > 100  # it did remember
