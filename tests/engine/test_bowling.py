"""Bowling: pins, balls, strikes, spares, the tenth frame, matches (docs/rules/bowling.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import engine
from engine import IllegalMove, parse_move
from engine.cards import TEXT, parse_card
from engine.core import MOVE, State
from engine.deal import shuffled_deck
from engine.games.bowling import Bowling, frame_scores, roll_key

from .walk import assert_view_hides, assert_whole_deck, candidates, fingerprint, replay_of, walk

EASY = engine.get("bowling", "easy")
HARD = engine.get("bowling", "difficult")
SEED = b"bowling"


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def deck_of(first: str) -> list[int]:
    """A whole deck whose first cards (the first drawn) are ``first``, the rest in order."""
    head = cards(first)
    return head + [c for c in range(52) if c not in head]


CLUBS_UP = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"
NINE = {f"p{i}": TEXT[i - 1] for i in range(1, 10)}  # Ace to 9 of clubs on pins 1 to 9


class Rigged(Bowling):
    """Bowling with chosen decks per label (not registered), for whole hand-built games."""

    decks: dict[str, list[int]]

    def deck(self, st: State, label: str) -> list[int]:
        return self.decks.get(label, self.decks["*"])


def rigged(variant: str, **decks: str) -> Rigged:
    r = Rigged(variant)
    r.decks = {k.replace("_", "/"): deck_of(v) for k, v in decks.items()}
    return r


def play(st: State, *moves: str) -> None:
    for m in moves:
        st.play(parse_move(st.rules, m))


def top(st: State) -> str:
    return TEXT[st.piles[st.rules.stock_pile][-1]]


def pile(st: State, name: str) -> list[str]:
    return [TEXT[c] for c in st.piles[st.rules.pile_index[name]]]


def by_timer(st: State, limit: int = 10_000) -> None:
    """Play the timer's placement until the game ends."""
    for _ in range(limit):
        if st.over:
            return
        st.play(st.rules.timer_move(st))
    raise AssertionError("the game did not end")


def frame_rolls(st: State, bowler: int, frame: int) -> list[int]:
    return st.rules.rolls(st, bowler, frame)


# ----- the deal ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_deal_puts_frame_one_in_the_stock_and_shows_its_first_card(rules):
    st = rules.deal(SEED)
    s = rules.stock_pile
    assert rules.pile_names == [f"p{i}" for i in range(1, 11)] + ["b1", "b2", "s"]
    deck = shuffled_deck(SEED, "frame/1")
    assert st.piles[s] == deck[::-1]  # the first card of the shuffle is drawn first
    assert st.down[s] == 51
    assert all(st.piles[p] == [] for p in rules.pins + rules.balls)
    assert (st.vars["players"], st.turn, st.vars["frame"], st.vars["ball"]) == (1, 0, 1, 1)
    view = st.view()
    assert view["piles"]["s"] == {"down": 51, "up": [TEXT[deck[0]]]}
    assert view["info"]["pile"] == "b1" and view["info"]["pins"] == 0
    assert rules.describe()["layout"][1]["capacity"] == (3 if rules.easy else 2)


def test_players_are_one_to_four():
    assert EASY.players == (1, 4)
    assert EASY.deal(SEED, players=4).vars["players"] == 4
    with pytest.raises(ValueError):
        EASY.deal(SEED, players=5)
    assert (EASY.scoring, EASY.target) == ("points", 200)


# ----- the pin rule --------------------------------------------------------------------


def test_an_empty_grid_takes_the_first_card_on_any_pin():
    st = EASY.setup({"s": "7h"})
    assert sorted(m.dst for m in st.legal_moves()) == EASY.pins


def test_a_card_must_be_higher_than_every_card_on_a_lower_pin():
    st = EASY.setup({"p2": "5c", "s": "Ac 3d"})
    why = st.refusal(parse_move(EASY, "s-p3"))
    assert why.code == "bowling.order"
    assert why.message == ("3♦ can't go on pin 3: a card on an empty pin must be higher than "
                           "every card on a lower pin, and pin 2 holds 5♣")
    assert st.refusal(parse_move(EASY, "s-p10")).code == "bowling.order"
    play(st, "s-p1")  # below pin 2's 5, so pin 1 takes it
    assert pile(st, "p1") == ["3d"]


def test_a_card_must_be_lower_than_every_card_on_a_higher_pin():
    st = EASY.setup({"p5": "8c", "s": "Ac 9d"})
    why = st.refusal(parse_move(EASY, "s-p4"))
    assert why.code == "bowling.order" and "lower than every card on a higher pin" in why.message
    assert st.refusal(parse_move(EASY, "s-p1")).code == "bowling.order"
    play(st, "s-p6")
    assert pile(st, "p6") == ["9d"]


def test_equal_ranks_stack_on_their_pin_but_never_fill_a_second_pin():
    st = EASY.setup({"p2": "5c", "s": "Ac 5d"})
    for empty in ("p1", "p3"):  # not higher than 5 / not lower than 5
        assert st.refusal(parse_move(EASY, f"s-{empty}")).code == "bowling.order"
    assert [EASY.pile_names[m.dst] for m in st.legal_moves()] == ["p2"]
    play(st, "s-p2")
    assert pile(st, "p2") == ["5c", "5d"]
    assert st.view()["info"]["pins"] == 1  # a stacked card fills no pin


def test_a_filled_pin_takes_only_its_own_rank():
    st = EASY.setup({"p2": "5c", "s": "Ac 6d"})
    why = st.refusal(parse_move(EASY, "s-p2"))
    assert why.code == "bowling.rank"
    assert why.message == ("6♦ can't go on pin 2: a filled pin takes only more cards of its "
                           "own rank (5s there)")


def test_the_rule_between_two_cards():
    st = EASY.setup({"p1": "Ac", "p3": "4c", "s": "Ks 3h"})
    assert [EASY.pile_names[m.dst] for m in st.legal_moves()] == ["p2"]  # the Hoyle example
    st = EASY.setup({"p1": "Ac", "p3": "4c", "s": "Ks 5h"})
    assert [EASY.pile_names[m.dst] for m in st.legal_moves()] == [f"p{i}" for i in range(4, 11)]


def test_only_a_card_that_fits_nowhere_goes_to_the_ball_pile():
    st = EASY.setup({"p1": "Kc", "s": "Ac 5d"})
    assert st.legal_moves() == [parse_move(EASY, "s-b1")]
    play(st, "s-b1")
    st = EASY.setup({"p1": "4c", "s": "Ac 9d"})
    why = st.refusal(parse_move(EASY, "s-b1"))
    assert why.code == "bowling.fits"
    assert why.message == ("9♦ fits on pin 2: only a card that fits nowhere on the pins goes "
                           "to the ball pile")
    st = EASY.setup({"p1": "4c", "s": "Ac 4d"})  # its own rank's pin counts as fitting
    assert st.refusal(parse_move(EASY, "s-b1")).code == "bowling.fits"


def test_the_ball_pile_is_the_current_balls_own():
    st = EASY.setup({"p1": "Kc", "s": "Ac 5d"})
    why = st.refusal(parse_move(EASY, "s-b2"))
    assert (why.code, why.message) == ("bowling.ball", "this ball's cards go to b1, not b2")
    st = EASY.setup({"p1": "Kc", "b1": "2c 3c 4c", "s": "Ac 5d"}, ball=2, **{"r1.1.1": 1})
    assert st.refusal(parse_move(EASY, "s-b1")).code == "bowling.ball"
    assert st.legal_moves() == [parse_move(EASY, "s-b2")]


def test_placed_cards_stay_and_hidden_cards_stay_hidden():
    st = EASY.setup({"p1": "Kc", "s": "Ac 5d"})
    assert st.refusal(parse_move(EASY, "p1-p2")).code == "source.fixed"
    assert st.refusal(parse_move(EASY, "s:2-b1")).code == "source.hidden"
    st = EASY.setup({"s": "Ac 5d"}, down={"s": 2})
    assert st.legal_moves() == []


@pytest.mark.parametrize("rules", [EASY, HARD])
def test_refusals_call_the_piles_pins_and_balls(rules):
    """Not the generic words of their kinds ("space", "waste pile")."""
    st = rules.setup({"p1": "Kc", "b1": "2d", "s": "Ac 5d"})
    assert (st.refusal(parse_move(rules, "p1-p2")).message
            == "cards in the pin stay where they are")
    assert (st.refusal(parse_move(rules, "b1-p2")).message
            == "cards in the ball stay where they are")


def test_the_timer_takes_the_lowest_pin_else_the_ball_pile():
    st = EASY.setup({"p3": "5c", "s": "Ac 8d"})
    assert st.rules.timer_move(st) == parse_move(EASY, "s-p4")
    st = EASY.setup({"p3": "5c", "s": "Ac 2d"})
    assert st.rules.timer_move(st) == parse_move(EASY, "s-p1")
    st = EASY.setup({"p1": "Kc", "s": "Ac 2d"})
    assert st.rules.timer_move(st) == parse_move(EASY, "s-b1")
    st = EASY.setup({"p1": "Kc", "b1": "2c 3c 4c", "s": "Ac 2d"}, ball=2, **{"r1.1.1": 1})
    assert st.rules.timer_move(st) == parse_move(EASY, "s-b2")
    assert st.is_legal(st.rules.timer_move(st))


# ----- balls and frames ----------------------------------------------------------------


@pytest.mark.parametrize(("rules", "size"), [(EASY, 3), (HARD, 2)])
def test_a_ball_ends_when_its_pile_is_full(rules, size):
    misses = " ".join(["2c", "3c", "Ac"][:size])
    st = rules.setup({"p1": "4c", "s": "9h 8h " + misses})
    for _ in range(size - 1):
        play(st, "s-b1")
        assert st.vars["ball"] == 1
    play(st, "s-b1")
    assert st.vars["ball"] == 2 and st.vars[roll_key(0, 1, 1)] == 1
    assert pile(st, "p1") == ["4c"] and top(st) == "8h"  # same pins, same deck
    assert st.view()["info"]["pile"] == "b2"
    play(st, "s-p2")
    assert st.view()["info"]["pins"] == 1  # the second ball's own pins


def test_a_strike_fills_all_ten_pins_with_the_first_ball():
    st = EASY.setup({**NINE, "b1": "Kd Qd", "s": "2h Tc"}, seed=SEED)
    play(st, "s-p10")
    assert frame_rolls(st, 0, 1) == [10]
    assert st.vars["frame"] == 2 and st.vars["ball"] == 1
    assert st.piles[EASY.stock_pile] == shuffled_deck(SEED, "frame/2")[::-1]
    assert st.down[EASY.stock_pile] == 51
    assert all(not st.piles[p] for p in EASY.pins + EASY.balls)
    assert_whole_deck(st)
    assert st.view()["info"]["bowlers"][0]["frames"][0]["marks"] == ["X"]


def test_a_spare_fills_the_rest_with_the_second_ball_and_an_open_frame_counts_pins():
    st = EASY.setup({**NINE, "b1": "Kd Qd Jd", "s": "2h Tc"}, seed=SEED, ball=2,
                    **{"r1.1.1": 6})
    play(st, "s-p10")
    assert frame_rolls(st, 0, 1) == [6, 4] and st.vars["frame"] == 2
    assert st.view()["info"]["bowlers"][0]["frames"][0]["marks"] == ["6", "/"]
    st = EASY.setup({"p1": "4c", "p2": "5c", "b1": "Ac 2c 3c", "b2": "Ad 2d", "s": "9h 3d"},
                    seed=SEED, ball=2, **{"r1.1.1": 1})
    play(st, "s-b2")
    assert frame_rolls(st, 0, 1) == [1, 1] and st.vars["frame"] == 2
    assert st.score == 2


def test_the_deck_running_out_ends_the_ball():
    st = EASY.setup({"s": "9h"}, seed=SEED)
    play(st, "s-p5")
    # ball 1 ends with its one pin; ball 2 has no card and ends with none
    assert frame_rolls(st, 0, 1) == [1, 0] and st.vars["frame"] == 2
    assert st.piles[EASY.stock_pile] == shuffled_deck(SEED, "frame/2")[::-1]


def test_undo_takes_back_a_frame_change_exactly():
    st = EASY.setup({**NINE, "s": "2h Tc"}, seed=SEED)
    before = fingerprint(st)
    play(st, "s-p10")
    assert st.revealed[-1]
    st.undo()
    assert fingerprint(st) == before and roll_key(0, 1, 1) not in st.vars


# ----- the tenth frame -----------------------------------------------------------------



def test_a_tenth_frame_strike_gives_a_bonus_ball_on_a_fresh_deck():
    st = EASY.setup({**NINE, "s": "2h Tc"}, seed=SEED, frame=10)
    play(st, "s-p10")
    assert frame_rolls(st, 0, 10) == [10] and st.vars["ball"] == 2 and not st.over
    assert st.piles[EASY.stock_pile] == shuffled_deck(SEED, "bonus/1")[::-1]
    assert st.view()["info"]["bonus"] is True and st.view()["info"]["pile"] == "b1"


def test_a_bonus_strike_gives_the_second_bonus_ball_a_fresh_deck_too():
    st = EASY.setup({**NINE, "s": "2h Tc"}, seed=SEED, frame=10, ball=2, **{"r1.10.1": 10})
    play(st, "s-p10")
    assert frame_rolls(st, 0, 10) == [10, 10] and st.vars["ball"] == 3
    assert st.piles[EASY.stock_pile] == shuffled_deck(SEED, "bonus/2")[::-1]
    assert st.view()["info"]["pile"] == "b1"


def test_a_second_bonus_ball_after_a_non_strike_continues_the_deck_and_pins():
    st = EASY.setup({"p1": "4c", "b1": "Ac 2c", "s": "9h 8h 3d"}, seed=SEED, frame=10,
                    ball=2, **{"r1.10.1": 10})
    play(st, "s-b1")
    assert frame_rolls(st, 0, 10) == [10, 1] and st.vars["ball"] == 3
    assert pile(st, "p1") == ["4c"] and top(st) == "8h"
    assert st.view()["info"]["pile"] == "b2"
    play(st, "s-p2", "s-p3")  # a deck of two cards runs out: the last ball ends
    assert frame_rolls(st, 0, 10) == [10, 1, 2] and st.over
    assert st.status == "finished" and st.score == 13
    assert st.view()["info"]["bowlers"][0]["frames"][9]["marks"] == ["X", "1", "2"]


def test_a_tenth_frame_spare_gives_one_bonus_ball_on_a_fresh_deck():
    st = EASY.setup({**NINE, "b1": "Kd Qd Jd", "s": "2h Tc"}, seed=SEED, frame=10, ball=2,
                    **{"r1.10.1": 3})
    play(st, "s-p10")
    assert frame_rolls(st, 0, 10) == [3, 7] and st.vars["ball"] == 3
    assert st.piles[EASY.stock_pile] == shuffled_deck(SEED, "bonus/1")[::-1]
    # that bonus ball ends the game when it ends
    st = EASY.setup({"p1": "4c", "b1": "Ac 2c", "s": "9h 3d"}, seed=SEED, frame=10, ball=3,
                    **{"r1.10.1": 3, "r1.10.2": 7})
    play(st, "s-b1")
    assert frame_rolls(st, 0, 10) == [3, 7, 1] and st.over
    assert st.view()["info"]["bowlers"][0]["frames"][9]["marks"] == ["3", "/", "1"]


def test_an_open_tenth_frame_ends_the_game_without_showing_another_card():
    st = HARD.setup({"p1": "4c", "b1": "Ac 2c", "b2": "Ad", "s": "9h 3d"}, seed=SEED,
                    frame=10, ball=2, **{"r1.10.1": 1})
    play(st, "s-b2")
    assert frame_rolls(st, 0, 10) == [1, 0] and st.over and st.status == "finished"
    assert st.down[HARD.stock_pile] == 1 and "9h" not in str(st.view())
    assert st.legal_moves() == [] and st.refusal(parse_move(HARD, "s-p2")).code == "game.over"


# ----- scoring -------------------------------------------------------------------------


def test_ten_pin_scoring():
    # X, 7/, 9-, X, -8, 8/, -6, X, X, X81: the classic card, 167
    frames = [[10], [7, 3], [9, 0], [10], [0, 8], [8, 2], [0, 6], [10], [10], [10, 8, 1]]
    scores = frame_scores(frames)
    assert [s for s, _ in scores] == [20, 19, 9, 18, 8, 10, 6, 30, 28, 19]
    assert all(final for _, final in scores) and sum(s for s, _ in scores) == 167
    assert sum(s for s, _ in frame_scores([[10]] * 9 + [[10, 10, 10]])) == 300
    # bonuses still to come: pins so far, not final
    assert frame_scores([[10], [3]] + [[]] * 8)[:2] == [(13, False), (3, False)]
    assert frame_scores([[4, 6], []] + [[]] * 8)[0] == (10, False)


def test_the_scorecard_shows_running_totals_only_for_settled_frames():
    st = EASY.setup({"s": "9h 3d"}, frame=3, **{"r1.1.1": 10, "r1.2.1": 4, "r1.2.2": 6})
    card = st.view()["info"]["bowlers"][0]
    assert [f["total"] for f in card["frames"][:3]] == [20, None, None]  # 4/ awaits a ball
    assert card["frames"][1]["marks"] == ["4", "/"] and card["total"] == 30
    st = EASY.setup({"s": "9h 3d"}, frame=3,
                    **{"r1.1.1": 10, "r1.2.1": 4, "r1.2.2": 6, "r1.3.1": 5, "r1.3.2": 0})
    card = st.view()["info"]["bowlers"][0]
    assert [f["total"] for f in card["frames"][:3]] == [20, 35, 40]


@pytest.mark.parametrize("variant", ["easy", "difficult"])
def test_a_perfect_game_scores_300_and_wins(variant):
    rules = rigged(variant, **{"*": CLUBS_UP})  # every deck starts A 2 ... 10 of clubs
    st = rules.deal(SEED)
    by_timer(st)
    assert st.ply == 12 * 10  # ten frames and two bonus balls, ten cards each
    assert [frame_rolls(st, 0, f) for f in range(1, 11)] == [[10]] * 9 + [[10, 10, 10]]
    assert st.score == 300 and st.status == "won"
    assert st.view()["info"]["bowlers"][0]["frames"][9]["total"] == 300


@pytest.mark.parametrize(("variant", "size"), [("easy", 3), ("difficult", 2)])
def test_a_gutter_game_scores_ten(variant, size):
    # The first card of a frame always fits (the pins are empty), so every frame fills at
    # least one pin: a King on pin 1 (or an Ace on pin 10) keeps it at one, and 10 is the
    # lowest score the rules allow.
    rules = rigged(variant, **{"*": "Kc Qc Jc Tc 9c 8c 7c"})
    st = rules.deal(SEED)
    by_timer(st)
    assert st.ply == 10 * (1 + 2 * size)
    assert [frame_rolls(st, 0, f) for f in range(1, 11)] == [[1, 0]] * 10
    assert st.score == 10 and st.status == "finished"
    assert st.view()["info"]["bowlers"][0]["frames"][0]["marks"] == ["1", "-"]


def dutch(last: int) -> dict[str, int]:
    """Strike, spare, strike, spare ... (the 'Dutch 200'); the last bonus ball is ``last``."""
    rolls: dict[str, int] = {}
    for f in range(1, 10):
        for j, pins in enumerate([10] if f % 2 else [5, 5], 1):
            rolls[roll_key(0, f, j)] = pins
    rolls.update({"r1.10.1": 5, "r1.10.2": 5, "r1.10.3": last})
    return rolls


def test_two_hundred_wins_a_solo_game_and_less_only_finishes():
    st = EASY.setup({"s": "9h"}, over=1, **dutch(10))
    assert st.score == 200 and st.status == "won"
    st = EASY.setup({"s": "9h"}, over=1, **dutch(9))
    assert st.score == 199 and st.status == "finished"
    rules = rigged("easy", **{"*": "4c Ac 2c 3c 5c 6c 7c 8c 9c Tc Jc Qc Kc"})  # spares
    st = rules.deal(SEED)
    by_timer(st)
    # 1/ then 9 pins: each spare scores 10 + 1 = 11, the last 10 + 1
    assert [frame_rolls(st, 0, f) for f in range(1, 11)] == [[1, 9]] * 9 + [[1, 9, 1]]
    assert st.score == 110 and st.status == "finished"


# ----- matches -------------------------------------------------------------------------


def finish_frame(st: State) -> None:
    k, frame = st.turn, st.vars["frame"]
    while (st.turn, st.vars["frame"]) == (k, frame) and not st.over:
        st.play(st.rules.timer_move(st), player=k)


def test_four_bowlers_take_turns_on_the_same_deck_per_frame():
    st = EASY.deal(SEED, players=4)
    s = EASY.stock_pile
    deck1 = shuffled_deck(SEED, "frame/1")[::-1]
    for k in range(4):
        assert (st.turn, st.vars["frame"]) == (k, 1)
        assert st.piles[s] == deck1 and st.down[s] == 51
        assert st.view()["info"]["bowler"] == k + 1
        move = st.rules.timer_move(st)
        for other in range(4):
            if other != k:
                why = st.refusal(move, player=other)
                assert why.code == "turn.wrong"
                assert why.message == f"it is player {k + 1}'s turn, not yours"
        with pytest.raises(IllegalMove) as e:
            st.play(move, player=(k + 1) % 4)
        assert e.value.code == "turn.wrong"
        finish_frame(st)
    assert (st.turn, st.vars["frame"]) == (0, 2)
    assert st.piles[s] == shuffled_deck(SEED, "frame/2")[::-1]
    # the same deck and the same placements give every bowler the same first frame
    assert len({tuple(frame_rolls(st, k, 1)) for k in range(4)}) == 1


def test_a_match_is_finished_with_its_winner_named():
    rules = rigged("easy", **{"*": CLUBS_UP})
    st = rules.deal(SEED, players=2)
    while not st.over:  # bowler 1 strikes out, bowler 2 bowls gutter frames
        if st.turn == 0:
            finish_frame(st)
        else:
            play(st, "s-p10")  # the Ace on pin 10: nothing else fits, a frame of one pin
            while st.turn == 1 and not st.over:
                st.play(st.rules.timer_move(st))
    assert st.over and st.status == "finished"  # a match has a winner, not a solo win
    info = st.view()["info"]
    assert [b["total"] for b in info["bowlers"]] == [300, 10]
    assert info["winner"] == [1] and st.score == 300


def test_a_tied_match_names_every_top_bowler():
    st = EASY.setup({"s": "9h"}, players=3, over=1,
                    **{roll_key(k, 1, 1): p for k, p in enumerate((7, 7, 5))})
    assert st.view()["info"]["winner"] == [1, 2]


# ----- the engine's invariants with four bowlers ---------------------------------------

seeds = st_.binary(min_size=1, max_size=32)
choices = st_.lists(st_.integers(min_value=-3, max_value=10_000), min_size=1, max_size=300)


@pytest.mark.parametrize("rules", [EASY, HARD], ids=["easy", "difficult"])
@settings(max_examples=12, deadline=None)
@given(seed=seeds, picks=choices)
def test_four_bowlers_keep_the_invariants(rules, seed, picks):
    st = rules.deal(seed, players=4)
    assert_whole_deck(st)
    assert_view_hides(st)
    walk(st, picks, check_every=7)
    assert_view_hides(st)
    assert engine.restore(st.snapshot()).vars == st.vars
    assert fingerprint(engine.restore(st.snapshot())) == fingerprint(st)
    assert fingerprint(replay_of(st)) == fingerprint(st)
    if st.over:
        return
    legal = set(st.legal_moves())
    for m in candidates(st):
        assert (st.refusal(m) is None) == (m in legal), m
        if m in legal:
            assert st.refusal(m, player=(st.turn + 1) % 4).code == "turn.wrong"


@pytest.mark.parametrize("rules", [EASY, HARD], ids=["easy", "difficult"])
def test_four_bowler_games_end_and_keep_the_deck_whole(rules):
    for i in range(3):
        st = rules.deal(bytes([i]), players=4)
        walk(st, [(i * 7919 + k * 104729) % 100_003 for k in range(3000)], check_every=97)
        assert st.over
        assert all(len(b["frames"][9]["balls"]) >= 2 for b in st.view()["info"]["bowlers"])


def test_the_timer_move_is_always_legal():
    st = EASY.deal(SEED, players=2)
    while not st.over:
        m = st.rules.timer_move(st)
        assert m.kind == MOVE and m in st.legal_moves()
        st.play(m, player=st.turn)
    with pytest.raises(IllegalMove) as e:
        st.rules.timer_move(st)
    assert e.value.code == "game.over"


# ----- a bowler leaving a match --------------------------------------------------------


def test_a_bowler_who_leaves_mid_frame_is_skipped_and_keeps_what_was_bowled():
    st = EASY.deal(SEED, players=3)
    finish_frame(st)  # bowler 1, frame 1
    st.play(st.rules.timer_move(st), player=1)  # bowler 2 places one card, then leaves
    EASY.forfeit(st, 1)
    s = EASY.stock_pile
    assert (st.turn, st.vars["frame"], st.vars["ball"]) == (2, 1, 1)
    assert st.piles[s] == shuffled_deck(SEED, "frame/1")[::-1] and st.down[s] == 51
    assert not any(st.piles[p] for p in EASY.pins + EASY.balls)  # fresh pins for bowler 3
    assert frame_rolls(st, 1, 1) == []  # the unfinished ball is not recorded
    finish_frame(st)  # bowler 3: then frame 2 goes from bowler 1 to bowler 3
    finish_frame(st)
    assert (st.turn, st.vars["frame"]) == (2, 2)
    info = st.view()["info"]
    assert [b["forfeited"] for b in info["bowlers"]] == [False, True, False]
    with pytest.raises(IllegalMove) as e:
        st.play(st.rules.timer_move(st), player=1)
    assert e.value.code == "turn.wrong"


def gutter_frame(st: State) -> None:
    play(st, "s-p10")  # the Ace on pin 10: nothing else fits, a frame of one pin
    finish_frame(st)


def test_leaving_is_one_undoable_step_and_a_leaver_cannot_win():
    rules = rigged("easy", **{"*": CLUBS_UP})
    st = rules.deal(SEED, players=2)
    finish_frame(st)  # bowler 1 strikes in frames 1 and 2, bowler 2 takes one pin
    gutter_frame(st)
    finish_frame(st)
    before = fingerprint(st)
    rules.forfeit(st, 0)
    assert st.vars.get("out1") == 1 and st.turn == 1
    st.pop()
    assert fingerprint(st) == before and "out1" not in st.vars
    rules.forfeit(st, 0)
    rules.forfeit(st, 0)  # leaving twice changes nothing more
    assert [m.kind for m in st.history].count("forfeit") == 1
    while not st.over:  # bowler 2 bowls on alone, one pin a frame
        assert st.turn == 1
        gutter_frame(st)
    info = st.view()["info"]
    assert [b["total"] for b in info["bowlers"]] == [30, 10]
    assert info["winner"] == [2]


def test_the_match_is_over_when_every_bowler_has_left():
    st = EASY.deal(SEED, players=2)
    EASY.forfeit(st, 1)
    EASY.forfeit(st, 0)
    assert st.over and st.vars["over"] == 1
    assert st.view()["info"]["winner"] == [1, 2]  # nobody stayed: the totals decide (0, 0)
