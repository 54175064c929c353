"""A board walked beside the engine's state, for the tests of the boards of rule sets with
moves of their own (Gaps', Pyramid's): random games with take-backs, every position compared."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import engine
from engine.core import PLAYING, State
from engine.solver.position import key_maker

Board = Any  # a GapBoard, a PairBoard: the compiled classes have no common stub


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
