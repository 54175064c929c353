"""The beaten board (engine/solver/pair_board.py ``BeatenBoard``) plays exactly as the engine
does, on every rule set whose moves discard cards beaten by a higher card of their suit
(``RuleSet.beaten_rule``): the same legal moves in the same order, the same piles and vars
after each move and each take-back, the same status, costless and useful moves, and keys
that tell positions apart exactly as the solver's key function does. And the searches and
par on it are those through the state: the same verdicts, lines and positions."""

from __future__ import annotations

import random

import pytest

import engine
from engine import winnable
from engine.core import LOST, PLAYING, STOCK, State
from engine.options import DeclarationError
from engine.piles import FOUNDATION, TABLEAU, BeatenRule
from engine.solver import Budget, Outcome, plays_on_board, solve
from engine.solver.board import DEAL
from engine.solver.pair_board import BeatenBoard, beaten, discard_board, last_deal
from engine.solver.state_board import StateBoard, board_for

from .board_walk import (
    along_won_lines,
    as_through_the_state,
    packed_comes_back,
    same,
    walk_beside,
)

BEATEN = [r for r in engine.rule_sets() if beaten(r)]
#: Deals that a search below wins within its budget (none is proved lost in so few).
DECIDED = {"aces-up/easy": (0, 1, 2), "aces-up/difficult": (0, 1, 2)}


def test_the_beaten_rule_sets_are_aces_up() -> None:
    assert sorted(r.key for r in BEATEN) == ["aces-up/difficult", "aces-up/easy"]
    for r in BEATEN:  # the published budget stays what it was through the state: an eighth
        assert not plays_on_board(r)
        assert winnable.budget(r, 80_000) == 80_000 // winnable.STATE_SHARE == 10_000
    with pytest.raises(ValueError, match="discards no beaten cards"):
        BeatenBoard(engine.get("pyramid", "easy").deal(b"\x01"))
    st = engine.get("aces-up", "easy").deal(b"\x01")
    st.vars["resigned"] = 1
    assert discard_board(st) is None
    assert isinstance(board_for(st), StateBoard)
    with pytest.raises(ValueError, match="shared vars"):
        BeatenBoard(st)


def test_a_beaten_rule_is_checked_when_declared() -> None:
    with pytest.raises(DeclarationError, match="foundation"):
        BeatenRule(kinds=(FOUNDATION,))
    with pytest.raises(DeclarationError, match="not one of"):
        BeatenRule(kinds=("column",))  # type: ignore[arg-type]
    cls = type(engine.get("aces-up", "easy"))
    for attrs, words in (({"discard": False}, "discard is True"),
                         ({"beaten_rule": BeatenRule(kinds=("reserve",))}, "has no pile"),
                         ({"beaten_rule": (TABLEAU,)}, "not a BeatenRule")):
        with pytest.raises(DeclarationError, match=words):
            type("Declared", (cls,), attrs)("easy")


def check_position(board: BeatenBoard, st: State) -> list[int]:
    moves = board.moves()
    assert [board.move_of(m) for m in moves] == st.rules.legal_moves(st)
    assert all(board.code_of(board.move_of(m)) == m for m in moves)
    legal, status = board.legal()
    assert ([board.move_of(m) for m in legal], status) == (st.legal_moves(), st.status)
    assert board.is_won() == (st.status == "won")
    for m in moves:
        assert board.costless(m) == st.rules.costless(st, board.move_of(m))
        assert board.useful(m) == st.rules.useful(st, board.move_of(m))
    same(board, st)
    return moves


@pytest.mark.parametrize("rules", BEATEN, ids=lambda r: r.key)
def test_a_beaten_board_plays_as_the_engine_does(rules: engine.RuleSet) -> None:
    """Random games, discards tried first, with take-backs of one to five moves, compared at
    every position; and keys that are equal exactly when the engine's key function's are."""
    f = rules.by_kind[FOUNDATION][0]
    discards = deals = costless = 0

    def choose(rng: random.Random, moves: list[int], board: BeatenBoard) -> int:
        nonlocal discards, deals, costless
        mine = [m for m in moves if m != DEAL and (m >> 8) & 255 == f]
        m = rng.choice(mine if mine and rng.random() < 0.8 else moves)
        discards += m in mine
        deals += m == DEAL
        costless += board.costless(m)
        return m

    positions, keys = walk_beside(rules, BeatenBoard, check_position, same, choose, 60, 1500)
    assert positions >= 1500
    assert keys > 500 and discards > 300 and deals > 100 and costless > 50


@pytest.mark.parametrize("rules", BEATEN, ids=lambda r: r.key)
def test_a_beaten_board_ends_as_the_engine_does(rules: engine.RuleSet) -> None:
    """Positions set up near the end, which random games seldom reach, compared as in the
    walk: four Aces alone are a win only with the stock empty; a discard is costless only
    with no lower card of its suit in the columns or the stock."""
    aces = {"t1": "Ac", "t2": "Ad", "t3": "Ah", "t4": "As"}
    for piles in ({**aces, "s": "2c"}, aces, {**aces, "t1": "Ac 2c"}, {**aces, "t4": "Ks As"},
                  {"t1": "5h", "t2": "Kh", "t3": "9h", "t4": "Qs", "s": "2h"},
                  {"t1": "5h", "t2": "Kh", "t3": "9h", "t4": "Qs"},
                  {"t1": "5h", "t2": "Kd", "t3": "3c", "t4": ""}):
        st = rules.setup(piles)
        board = BeatenBoard(st.copy())
        moves = check_position(board, st)
        assert board.is_won() == (piles == aces)
        if piles["t2"] == "Kh":  # 5h and 9h beaten: costless but for the 2h in the stock
            assert sum(map(board.costless, moves)) == (0 if "s" in piles else 1)


def test_a_packed_beaten_board_comes_back_as_it_was() -> None:
    """Packed after discards and deals, unpacked on another board: the same position, key
    and moves."""
    packed_comes_back(engine.get("aces-up", "easy"), BeatenBoard)


@pytest.mark.parametrize("rules", BEATEN, ids=lambda r: r.key)
def test_the_searches_on_a_beaten_board_are_the_searches_through_the_state(
        rules: engine.RuleSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth first (narrowed or not, on from where it stopped), best first, a beam and par:
    the same verdicts, lines and positions on a beaten board as through the state."""
    outcomes = set()
    for deal in DECIDED[rules.key]:
        st = rules.deal(deal.to_bytes(4, "big"))
        outcomes |= {v[0] for v in as_through_the_state(st, BeatenBoard, monkeypatch)}
    assert Outcome.WON in outcomes


#: Aces Up's deals of 0-49 whose last four stock cards are of four suits.
LAST_OF_FOUR_SUITS = (3, 5, 6, 11, 16, 44)


def test_the_last_deal_proves_lost_what_it_leaves_without_a_move() -> None:
    """Where the stock's last four cards are of four suits, Aces Up difficult is lost at
    once, whatever is played first; easy, with room in its waste, is not (it wins some)."""
    assert last_deal(engine.get("pyramid", "easy")) is None
    difficult, easy = engine.get("aces-up", "difficult"), engine.get("aces-up", "easy")
    check = last_deal(difficult)
    assert check is not None and last_deal(easy) is not None
    for deal in range(50):
        st = difficult.deal(deal.to_bytes(4, "big"))
        assert check.hopeless(BeatenBoard(st)) == (deal in LAST_OF_FOUR_SUITS), deal
    for deal in LAST_OF_FOUR_SUITS:
        seed = deal.to_bytes(4, "big")
        v = solve(difficult.deal(seed), Budget(positions=10))  # else millions of positions
        assert (v.outcome, v.complete) == (Outcome.LOST, True), deal
    assert solve(easy.deal((16).to_bytes(4, "big")), Budget(positions=10_000)).outcome is (
        Outcome.WON)


@pytest.mark.parametrize("rules", BEATEN, ids=lambda r: r.key)
def test_the_last_deal_holds_only_where_it_leaves_no_move(rules: engine.RuleSet) -> None:
    """``LastDeal.hopeless`` never holds on a winning line (the solver's, replayed); where
    it holds in random games it holds until the last deal, and that deal ends the game
    lost, in the engine's own rules."""
    check = last_deal(rules)
    assert check is not None
    for st in along_won_lines(rules, 20, 4):
        assert not check.hopeless(BeatenBoard(st)), (st.seed, st.ply)
    rng = random.Random(5)
    ended = 0
    for deal in range(60):
        st = rules.deal(deal.to_bytes(4, "big"))
        flagged = False
        while st.status == PLAYING and st.legal_moves():
            hopeless = check.hopeless(BeatenBoard(st))
            assert hopeless or not flagged, (deal, st.ply)  # lost stays lost
            flagged = hopeless
            move = rng.choice(st.legal_moves())
            st.play(move)
            if flagged and not st.piles[rules.stock_pile]:  # the last deal: nothing after
                assert move.kind == STOCK and st.status == LOST, (deal, st.ply)
                ended += 1
    assert ended >= 5, ended
