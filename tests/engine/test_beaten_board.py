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
from engine.core import State
from engine.options import DeclarationError
from engine.rules import FOUNDATION, TABLEAU, BeatenRule
from engine.solver import Outcome, Verdict, plays_on_board, state_board
from engine.solver.beam import beam
from engine.solver.bestfirst import best_first
from engine.solver.board import DEAL
from engine.solver.depth import DepthFirst
from engine.solver.pair_board import BeatenBoard, beaten, discard_board
from engine.solver.par import board_of, par_line
from engine.solver.state_board import StateBoard, board_for

from .board_walk import walk_beside

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


def same(board: BeatenBoard, st: State) -> None:
    assert board.piles() == st.piles
    assert list(board.down) == st.down
    assert board.var_dict() == st.vars


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
    rules = engine.get("aces-up", "easy")
    st = rules.deal(b"\x07")
    board = BeatenBoard(st.copy())
    rng = random.Random(7)
    for _ in range(12):
        moves = board.moves()
        if not moves:
            break
        m = rng.choice(moves)
        board.play(m)
        st.push(board.move_of(m))
    other = BeatenBoard(rules.deal(b"\x08"))
    other.unpack(board.pack())
    same(other, st)
    assert other.key() == board.key() and other.moves() == board.moves()


@pytest.mark.parametrize("rules", BEATEN, ids=lambda r: r.key)
def test_the_searches_on_a_beaten_board_are_the_searches_through_the_state(
        rules: engine.RuleSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth first (narrowed or not, on from where it stopped), best first, a beam and par:
    the same verdicts, lines and positions on a beaten board as through the state."""
    def run(st: State) -> list[tuple[Outcome, tuple, int]]:
        out: list[Verdict] = []
        for narrow in (False, True):
            search = DepthFirst(st, None, narrow)
            v = search.run(300)
            out.append(v if v.outcome is not Outcome.UNKNOWN else search.run(5_000))
        out.append(best_first(st, 2_000, None))
        out.append(beam(st, 2_000, None))
        return [(v.outcome, v.moves, v.positions) for v in out]

    outcomes = set()
    for deal in DECIDED[rules.key]:
        st = rules.deal(deal.to_bytes(4, "big"))
        assert isinstance(board_for(st), BeatenBoard) and isinstance(board_of(st), BeatenBoard)
        on_board = run(st)
        with monkeypatch.context() as m:
            m.setattr(state_board, "board_for", lambda s: StateBoard(s))
            on_state = run(st)
        assert on_board == on_state, deal
        for outcome, moves, _ in on_board:
            outcomes.add(outcome)
            if outcome is Outcome.WON:
                on_beaten = par_line(st, moves)
                with monkeypatch.context() as m:
                    m.setattr("engine.solver.par.board_of", lambda s: StateBoard(s))
                    assert par_line(st, moves) == on_beaten
    assert Outcome.WON in outcomes
