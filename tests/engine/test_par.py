"""Par (engine/solver/par.py): a winning line made short, each line replayed to a win."""

from __future__ import annotations

import pytest

import engine
from bench.par import hint_position
from engine.core import STOCK, Move
from engine.solver import Budget, Outcome, par, solve
from engine.solver.par import detours, par_line, shortcuts, wins


def won_line(key: str, deal: int) -> tuple[engine.RuleSet, engine.State, tuple[Move, ...]]:
    rules = engine.get(*key.split("/"))
    start = rules.deal(deal.to_bytes(4, "big"))
    v = solve(start, Budget(positions=100_000))
    assert v.outcome == Outcome.WON
    return rules, start, v.moves


@pytest.mark.parametrize(("key", "deal", "at_most"), [
    ("klondike/easy", 1, 134),  # the search's line: 135 moves, none of them a detour
    ("spiderette/easy", 0, 90),  # 134
    ("yukon/easy", 1, 140),  # 176
])
def test_shortcuts_make_the_search_s_line_shorter_and_it_still_wins(
        key: str, deal: int, at_most: int) -> None:
    _, start, moves = won_line(key, deal)
    cut = detours(start, moves)
    assert len(cut) > at_most  # the detours alone leave it long
    par = par_line(start, moves)
    assert len(par) <= at_most and wins(start, par)
    assert par_line(start, moves) == par  # the same par every time


def test_the_positions_bound_the_work_and_none_keeps_the_line() -> None:
    _, start, moves = won_line("spiderette/easy", 0)
    assert par_line(start, moves, positions=0) == detours(start, moves)
    few, left = shortcuts(start, moves, 500)
    assert left <= 0 and wins(start, few)
    assert len(par_line(start, moves)) <= len(few) < len(moves)


def test_a_round_of_the_stock_with_nothing_played_is_a_detour() -> None:
    """Where the stock goes round without limit, a pass with nothing taken comes back to the
    same cards with a higher pass count, which counts for nothing: it is cut."""
    rules, start, moves = won_line("klondike/easy", 1)
    st = start.copy()
    rounds: list[Move] = []
    while not rounds or any(st.piles[w] for w in rules.by_kind["waste"]):
        m = next(m for m in st.legal_moves() if m.kind == STOCK)
        st.play(m)
        rounds.append(m)
    assert len(rounds) == 9 and st.vars["pass"] == 2  # eight deals of three, one turn
    longer = (*rounds, *moves)
    assert wins(start, longer)
    assert detours(start, longer) == detours(start, moves)


def test_a_shortened_line_is_kept_only_if_it_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    _, start, moves = won_line("klondike/easy", 1)
    assert not wins(start, moves[:-1])
    monkeypatch.setattr(par, "shortcuts", lambda start, line, positions, depth: (line[:-1], 0))
    assert par_line(start, moves) == detours(start, moves)


def test_a_line_too_long_for_two_move_shortcuts_is_first_cut_by_one_move_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Scorpion easy, a few random moves into deal 902, as a hint sees it: the search's line
    wanders for 1,319 moves. Two-move passes would spend a hint's 20,000 positions on its
    first few dozen positions and cut nothing; one-move passes first make it short."""
    st = hint_position(engine.get("scorpion", "easy"), 2)
    moves = solve(st, Budget(positions=20_000)).moves
    assert len(moves) > 1000 and par.reach(st, moves) > par.SPREAD * 20_000
    short = par_line(st, moves, 20_000)
    assert len(short) < 200 and wins(st, short)
    monkeypatch.setattr(par, "SPREAD", 10**9)  # two-move passes alone
    assert len(par_line(st, moves, 20_000)) == len(moves)
