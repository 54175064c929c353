"""The solver's baseline in bench/solver.py, the engine alone on the search's positions, is
what it says: the calls recorded are the search's, and made again they reach the positions
the search reached (no figure is asserted: timings are bench/'s, not the tests')."""

from __future__ import annotations

import pytest

from bench import solver as b
from engine.core import State
from engine.solver.moves import Chooser
from engine.solver.search import Search


@pytest.mark.parametrize("key", ["klondike/easy", "bakers-dozen/easy", "pyramid/difficult"])
def test_the_calls_made_again_end_where_the_search_ended(key: str) -> None:
    calls: list[list[b.Call]] = []
    runs = b.depth_first(key, 3_000, calls)
    assert sum(n for _, n, _ in runs) == 3_000 and len(calls) == len(runs)
    for (i, n, _), log in zip(runs, calls, strict=True):
        search = Search(b.fresh(key).deal(b.seed(i)), None)
        search.run(n)
        _, st = b.replay(key, i, log)
        assert (st.piles, st.down, st.vars) == (search.st.piles, search.st.down, search.st.vars)
        pushed = [m for what, m in log if what == b.PUSH]
        popped = sum(what == b.POP for what, _ in log)
        assert len(pushed) - popped == len(search.st.history)
        assert sum(what == b.LEGAL for what, _ in log) > 0


def test_a_talon_game_records_its_listings_after_a_deal_and_others_none() -> None:
    def kinds(key: str) -> set[int]:
        calls: list[list[b.Call]] = []
        b.depth_first(key, 500, calls)
        return {what for log in calls for what, _ in log}

    assert kinds("klondike/easy") == {b.PUSH, b.POP, b.LEGAL, b.AFTER_DEAL}
    assert b.AFTER_DEAL not in kinds("bakers-dozen/easy")  # no stock


def test_recording_puts_the_methods_back() -> None:
    before = (State.push, State.pop, State.legal_moves, Chooser.legal_after_deal)
    with pytest.raises(RuntimeError), b.recording([]):
        raise RuntimeError
    assert (State.push, State.pop, State.legal_moves, Chooser.legal_after_deal) == before
