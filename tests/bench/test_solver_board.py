"""bench/solver_board.py makes on a board the calls the engine made in a search: the board
ends where the engine ends (no figure is asserted: timings are bench/'s, not the tests')."""

from __future__ import annotations

import pytest

from bench import solver as s
from bench import solver_board as b


@pytest.mark.parametrize("key", ["klondike/easy", "yukon/easy", "lady-betty/standard"])
def test_the_board_ends_where_the_engine_ends(key: str) -> None:
    calls: list[list[s.Call]] = []
    runs = s.depth_first(key, 2_000, calls)
    for (i, _, _), log in zip(runs, calls, strict=True):
        _, st = s.replay(key, i, log)
        _, board = b.on_board(key, i, log)
        assert (board.piles(), list(board.down), board.var_dict()) == (st.piles, st.down,
                                                                       st.vars)
        assert len(board.marks) == len(st.history) > 0
