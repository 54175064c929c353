"""The searches on a board (engine/solver/board_search.py, board_best.py) are the searches on the
state, position for position: on every rule set a board plays, the same verdicts, lines and
positions, narrowed or not, in one run or in several with growing budgets."""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import PLAYING
from engine.safe import safe_moves
from engine.solver import Outcome, bestfirst
from engine.solver.board import Board, plain
from engine.solver.board_best import Promise
from engine.solver.board_best import best_first as best_first_on_board
from engine.solver.board_search import BoardSearch, Choice, searcher
from engine.solver.moves import Chooser
from engine.solver.search import Search

from .test_board import DECLARED

PLAIN = [r for r in engine.rule_sets() if plain(r)]


def answer(search: Search, caps: tuple[int, ...]) -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for cap in caps:
        v = search.run(cap)
        out.append((v.outcome.value, tuple(map(str, v.moves)), v.positions))
        if v.outcome is not Outcome.UNKNOWN:
            break
    return out


CAPS = (300, 1_500, 4_000)


def decided_deal(rules: engine.RuleSet, narrow: bool) -> int | None:
    """A deal after the first six that depth first on a board decides within ``CAPS``, so
    that a line or a proof is compared where none of the first six is decided (Baker's
    Dozen, whose deals take more; Lady Betty, whose losses take every way of laying out the
    stock, and a narrowed search, which only ever wins, may find none)."""
    for deal in range(6, 40):
        v = BoardSearch(rules.deal(deal.to_bytes(4, "big")), None, narrow).run(CAPS[-1])
        if v.outcome is not Outcome.UNKNOWN:
            return deal
    return None


@pytest.mark.parametrize("rules", PLAIN, ids=lambda r: r.key)
@pytest.mark.parametrize("narrow", [False, True])
def test_the_board_searches_as_the_state_does(rules: engine.RuleSet, narrow: bool) -> None:
    outcomes = set()
    deals = list(range(6))
    for deal in deals:
        st = rules.deal(deal.to_bytes(4, "big"))
        on_state = answer(Search(st, None, narrow), CAPS)
        on_board = answer(BoardSearch(st, None, narrow), CAPS)
        assert on_board == on_state, deal
        outcomes.add(on_state[-1][0])
        if deal == deals[-1] and outcomes == {"unknown"}:
            witness = decided_deal(rules, narrow)
            if witness is not None:
                deals.append(witness)
    assert outcomes - {"unknown"} or narrow or rules.key == "lady-betty/standard"


@pytest.mark.parametrize("rules", PLAIN, ids=lambda r: r.key)
@pytest.mark.parametrize("narrow", [False, True])
def test_best_first_on_a_board_is_best_first_on_the_state(rules: engine.RuleSet,
                                                          narrow: bool) -> None:
    for deal in range(6):
        st = rules.deal(deal.to_bytes(4, "big"))
        on_state = bestfirst.best_first(st, 2_000, None, narrow=narrow)
        on_board = best_first_on_board(st, 2_000, None, narrow=narrow)
        assert (on_board.outcome, on_board.moves, on_board.positions) == (
            on_state.outcome, on_state.moves, on_state.positions), deal


@pytest.mark.parametrize("rules", PLAIN + DECLARED, ids=lambda r: r.key)
def test_the_board_chooses_the_moves_the_chooser_does(rules: engine.RuleSet) -> None:
    """At every position of random games: the same safe moves as engine/safe.py, the same
    moves tried, in the same order, as ``Chooser.moves``, narrowed or not, after a deal or
    not, the same promise as best first's, and a packed board unpacked to the same
    position."""
    rng = random.Random(rules.key)
    promise = Promise(rules).score
    safe_seen = 0
    for deal in range(12):
        st = rules.deal(deal.to_bytes(4, "big"))
        board = Board(st)
        for _ in range(120):
            legal, status = board.legal()
            if status != PLAYING:
                break
            moves = [Board.decode(m) for m in legal]
            assert promise(board) == bestfirst.promise(rules)(st)
            assert board.pack() != b"" and Board(st).key() == board.key()
            again = Board(st)
            again.unpack(board.pack())
            assert (again.piles(), list(again.down), again.var_dict()) == (
                st.piles, st.down, st.vars)
            safe = choice_of(rules, False).safe_moves(board, legal)
            assert [Board.decode(m) for m in safe] == safe_moves(st, moves)
            safe_seen += len(safe)
            for narrow in (False, True):
                for after_deal in (False, True):
                    chooser, choice = Chooser(rules, narrow=narrow), choice_of(rules, narrow)
                    tried = choice.choose(board, legal, after_deal)
                    assert [Board.decode(m) for m in tried] == chooser.moves(
                        st, moves, after_deal)
                    assert choice.dropped == chooser.dropped
            m = rng.choice(legal)
            st.push(Board.decode(m))
            board.play(m)
    if rules.id in ("klondike", "yukon", "eliminator"):  # random games reach safe moves
        assert safe_seen > 0


def choice_of(rules: engine.RuleSet, narrow: bool) -> Choice:
    return Choice(Chooser(rules, narrow=narrow))


def test_the_solver_searches_a_plain_rule_set_on_a_board() -> None:
    assert isinstance(searcher(engine.get("klondike", "easy").deal(b"\x01"), None), BoardSearch)
    canfield = engine.get("canfield", "easy").deal(b"\x01")
    assert type(searcher(canfield, None)) is Search
