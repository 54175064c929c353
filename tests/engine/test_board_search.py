"""The depth-first search on a board (engine/solver/board_search.py) is the search on the
state, position for position: on every rule set a board plays, the same verdicts, lines and
positions, narrowed or not, in one run or in several with growing budgets."""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import PLAYING
from engine.safe import safe_moves
from engine.solver import Outcome
from engine.solver.board import Board, plain
from engine.solver.board_search import BoardSearch, Choice, searcher
from engine.solver.moves import Chooser
from engine.solver.search import Search

PLAIN = [r for r in engine.rule_sets() if plain(r)]


def answer(search: Search, caps: tuple[int, ...]) -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for cap in caps:
        v = search.run(cap)
        out.append((v.outcome.value, tuple(map(str, v.moves)), v.positions))
        if v.outcome is not Outcome.UNKNOWN:
            break
    return out


@pytest.mark.parametrize("rules", PLAIN, ids=lambda r: r.key)
@pytest.mark.parametrize("narrow", [False, True])
def test_the_board_searches_as_the_state_does(rules: engine.RuleSet, narrow: bool) -> None:
    outcomes = set()
    for deal in range(8):
        st = rules.deal(deal.to_bytes(4, "big"))
        caps = (300, 1_500, 4_000)
        on_state = answer(Search(st, None, narrow), caps)
        on_board = answer(BoardSearch(st, None, narrow), caps)
        assert on_board == on_state, deal
        outcomes.add(on_state[-1][0])
    # Some deal decided, so a line or a proof was compared (Lady Betty, whose losses take
    # every way of laying out the stock, decides none of these within the budgets; a
    # narrowed search only ever wins, and on some rule sets none of these).
    assert outcomes - {"unknown"} or narrow or rules.key == "lady-betty/standard"


@pytest.mark.parametrize("rules", PLAIN, ids=lambda r: r.key)
def test_the_board_chooses_the_moves_the_chooser_does(rules: engine.RuleSet) -> None:
    """At every position of random games: the same safe moves as engine/safe.py, and the
    same moves tried, in the same order, as ``Chooser.moves``, narrowed or not, after a
    deal or not."""
    rng = random.Random(rules.key)
    safe_seen = 0
    for deal in range(12):
        st = rules.deal(deal.to_bytes(4, "big"))
        board = Board(st)
        for _ in range(120):
            legal, status = board.legal()
            if status != PLAYING:
                break
            moves = [Board.decode(m) for m in legal]
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
