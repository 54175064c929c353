"""Isabel: thirteen piles of four; pairs of one rank from the tops."""

from __future__ import annotations

import engine
from engine.cards import parse_card

from .positions import others

RULES = engine.get("isabel", "standard")
SEED = b"isabel-test"


def code(st: engine.State, text: str) -> str | None:
    why = st.refusal(engine.parse_move(RULES, text))
    return why.code if why else None


def test_one_variant():
    assert RULES.variants == ("standard",)


def test_deal_thirteen_piles_of_four_face_up():
    st = RULES.deal(SEED)
    deck = engine.shuffled_deck(SEED)
    assert RULES.pile_names == [f"t{i}" for i in range(1, 14)] + ["f"]
    for i in range(13):
        assert st.piles[i] == deck[4 * i:4 * i + 4]
    assert st.piles[13] == [] and not any(st.down)


def test_pair_of_tops_is_removed():
    st = RULES.setup({"t1": "2c Qh", "t5": "Qs", "t7": "3d"})
    assert code(st, "t1+t5") is None
    st.play(engine.parse_move(RULES, "t1+t5"))
    assert st.score == 2 and st.piles[0] == [parse_card("2c")] and st.piles[4] == []


def test_refusals():
    st = RULES.setup({"t1": "2c Qh", "t2": "Qs 2d", "t3": "Kd", "t5": "5c", "t6": "5h"})
    assert code(st, "t1+t2") == "isabel.not-pair"  # the Queen under 2♦ is not uncovered
    assert code(st, "t2+t1") == "remove.order"
    assert code(st, "t1+t4") == "source.empty"
    assert code(st, "t3+") == "remove.count"
    assert code(st, "t1-t4") == "source.fixed"  # no building, no moving to empty piles
    assert code(st, "t1+f") == "remove.source"


def test_empty_piles_stay_empty_and_the_game_is_lost_without_pairs():
    st = RULES.setup({"t1": "2c 3c", "t2": "2d", "f": others("2c 3c 2d")})
    assert st.legal_moves() == []
    assert st.status == "lost" and st.score == 49


def test_win():
    st = RULES.setup({"t1": "9c", "t13": "9h", "f": others("9c 9h")})
    st.play(engine.parse_move(RULES, "t1+t13"))
    assert st.status == "won" and st.score == 52
