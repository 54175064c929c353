"""A board walked beside the engine's state, for the tests of the boards of rule sets with
moves of their own (Gaps', Pyramid's, Aces Up's): random games with take-backs, every position
compared; a board packed and unpacked; the searches and par on a board against those through
the state."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import engine
from engine.core import PLAYING, WON, Move, State
from engine.solver import Budget, Outcome, Verdict, solve, state_board
from engine.solver.beam import beam
from engine.solver.bestfirst import best_first
from engine.solver.depth import DepthFirst
from engine.solver.par import board_of, par_line
from engine.solver.position import key_maker
from engine.solver.state_board import StateBoard, board_for

Board = Any  # a GapBoard, a PairBoard: the compiled classes have no common stub
Searched = list[tuple[Outcome, tuple[Move, ...], int]]


def same(board: Board, st: State) -> None:
    """The board holds the state's piles, face-down counts and vars."""
    assert board.piles() == st.piles
    assert list(board.down) == st.down
    assert board.var_dict() == st.vars


def packed_comes_back(rules: engine.RuleSet, make: Callable[[State], Board]) -> None:
    """Packed after a dozen random moves of deal 7, unpacked on a board of deal 8: the same
    position, key and moves."""
    st = rules.deal(b"\x07")
    board = make(st.copy())
    rng = random.Random(7)
    for _ in range(12):
        moves = board.moves()
        if not moves:
            break
        m = rng.choice(moves)
        board.play(m)
        st.push(board.move_of(m))
    other = make(rules.deal(b"\x08"))
    other.unpack(board.pack())
    same(other, st)
    assert other.key() == board.key() and other.moves() == board.moves()


def searched(st: State, more: int) -> Searched:
    """Depth first (narrowed or not, on for ``more`` positions where it stopped undecided),
    best first and a beam, from ``st``: each verdict, line and count of positions."""
    out: list[Verdict] = []
    for narrow in (False, True):
        search = DepthFirst(st, None, narrow)
        v = search.run(300)
        out.append(v if v.outcome is not Outcome.UNKNOWN else search.run(more))
    out.append(best_first(st, 2_000, None))
    out.append(beam(st, 2_000, None))
    return [(v.outcome, v.moves, v.positions) for v in out]


def as_through_the_state(st: State, kind: type, monkeypatch: pytest.MonkeyPatch,
                         more: int = 5_000) -> Searched:
    """The searches choose a ``kind`` board for ``st``, and find on it what they find through
    the state; par makes each winning line as short on it as through the state. The
    verdicts."""
    assert isinstance(board_for(st), kind) and isinstance(board_of(st), kind)
    on_board = searched(st, more)
    with monkeypatch.context() as m:
        m.setattr(state_board, "board_for", lambda s: StateBoard(s))
        assert searched(st, more) == on_board, st.seed.hex()
    for outcome, moves, _ in on_board:
        if outcome is Outcome.WON:
            shorter = par_line(st, moves)
            with monkeypatch.context() as m:
                m.setattr("engine.solver.par.board_of", lambda s: StateBoard(s))
                assert par_line(st, moves) == shorter
    return on_board


def walk_beside(rules: engine.RuleSet, make: Callable[[State], Board],
                check: Callable[[Board, State], list[int]],
                same: Callable[[Board, State], None],
                choose: Callable[[random.Random, list[int], Board], int],
                deals: int, enough: int) -> tuple[int, int]:
    """Deal 0, 1, ... (at most ``deals``) until ``enough`` positions were walked: at each,
    ``check`` compares board and state and gives the board's moves; now and then one to five
    moves are taken back on both (``same`` compares after each), else ``choose`` picks a move
    (given the board) played on both; each game is taken back to its deal at its end. Keys
    must be equal exactly when the engine's key function's are. The positions walked and the
    distinct keys."""
    engine_key = key_maker(rules)
    pairs: dict[object, object] = {}
    reverse: dict[object, object] = {}
    rng = random.Random(rules.key)
    positions = 0
    for deal in range(deals):
        if positions >= enough:
            break
        st = rules.deal(deal.to_bytes(4, "big"))
        board = make(st.copy())
        for _ in range(120):
            moves = check(board, st)
            k, b = engine_key(st), board.key()
            assert pairs.setdefault(k, b) == b
            assert reverse.setdefault(b, k) == k
            positions += 1
            if st.status != PLAYING or not moves:
                break
            if st.history and rng.random() < 0.15:
                for _ in range(rng.randint(1, min(5, len(st.history)))):
                    st.pop()
                    board.undo()
                    same(board, st)
                continue
            m = choose(rng, moves, board)
            st.push(board.move_of(m))
            board.play(m)
        while st.history:  # all the way back: the deal again
            st.pop()
            board.undo()
        same(board, st)
        assert board.key() == make(st).key()
    return positions, len(pairs)


def along_won_lines(rules: engine.RuleSet, deals: int, most: int) -> Iterator[State]:
    """Each position along the solver's winning lines (20,000 positions a deal) of the first
    ``most`` of deals 0 to ``deals - 1`` it wins, before each move of the line; each line
    checked to end won."""
    lines = 0
    for deal in range(deals):
        if lines == most:
            return
        st = rules.deal(deal.to_bytes(4, "big"))
        verdict = solve(st, Budget(positions=20_000))
        if verdict.outcome is not Outcome.WON:
            continue
        lines += 1
        for move in verdict.moves:
            yield st
            st.play(move)
        assert st.status == WON, deal
    assert lines == most, f"{lines} of {deals} deals won, not {most}"
