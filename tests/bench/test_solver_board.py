"""bench/solver_board.py times the same searches on the state and on a board: each pair
searches the same positions (no figure is asserted: timings are bench/'s, not the tests')."""

from __future__ import annotations

import pytest

from bench import solver_board as b


@pytest.mark.parametrize("key", [
    "klondike/easy", "yukon/easy", "castile/standard", "fortress/easy"])
@pytest.mark.parametrize("best", [False, True])
def test_both_searches_search_the_same_positions(key: str, best: bool) -> None:
    on_state, _ = b.searched(key, 3_000, board=False, best=best)
    on_board, _ = b.searched(key, 3_000, board=True, best=best)
    assert on_board == on_state >= 3_000
