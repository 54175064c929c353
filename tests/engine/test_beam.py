"""The beam search (engine/solver/beam.py): its wins replay through the engine to a win, on
a board and through the state (tests/engine/test_depth.py holds the two boards to the same
beam); it proves a loss only when it left no position out; a budget of positions gives the
same answer every time."""

from __future__ import annotations

import pytest

import engine
from engine.core import WON, State
from engine.solver import Outcome, Verdict
from engine.solver import beam as beam_module
from engine.solver.beam import beam
from engine.solver.board import playable
from engine.solver.depth import DepthFirst


def replays_to_a_win(st: State, v: Verdict) -> bool:
    game = st.copy()
    for m in v.moves:
        assert m in game.legal_moves(), m
        game.push(m)
    return game.status == WON


# Deals the search of version 7 left undecided within 10 s, which a beam 500 wide wins
# (docs/solver.md, The beam): Baker's Dozen and Fortress on a board, Pyramid and Scorpion
# (rules of their own for their moves) on the state.
WINS = [("bakers-dozen", "easy", 4), ("fortress", "easy", 3), ("pyramid", "easy", 6),
        ("scorpion", "easy", 0)]


@pytest.mark.parametrize(("game", "variant", "deal"), WINS)
def test_a_beam_wins_deep_deals_with_a_line_the_engine_plays_to_a_win(
        game: str, variant: str, deal: int) -> None:
    st = engine.get(game, variant).deal(deal.to_bytes(4, "big"))
    before = st.snapshot()
    v = beam(st, 400_000, None)
    assert v.outcome is Outcome.WON and replays_to_a_win(st, v)
    assert st.snapshot() == before  # the start is left as it was
    assert v.positions <= 400_000
    # The same budget, the same answer: nothing depends on the clock or on hashing order.
    again = beam(st, 400_000, None)
    assert (again.outcome, again.moves, again.positions) == (v.outcome, v.moves, v.positions)


@pytest.fixture
def widths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The width of each beam run, in order."""
    out: list[int] = []
    real = beam_module.one_beam

    def one(positions: beam_module.Positions, width: int, *rest: object) -> tuple[object, bool]:
        out.append(width)
        return real(positions, width, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(beam_module, "one_beam", one)
    return out


def test_a_wider_beam_starts_again_from_the_start(monkeypatch: pytest.MonkeyPatch,
                                                   widths: list[int]) -> None:
    """A beam one wide runs dry at once; the next, 500 wide, wins Baker's Dozen deal 4 on a
    board from the deal's start, not from where the board was left."""
    monkeypatch.setattr(beam_module, "FIRST_WIDTH", 1)
    monkeypatch.setattr(beam_module, "LEAST_WIDTH", 1)
    monkeypatch.setattr(beam_module, "WIDER", 500)
    st = engine.get("bakers-dozen", "easy").deal((4).to_bytes(4, "big"))
    assert playable(st)
    v = beam(st, None, None)
    assert widths == [1, 500]
    assert v.outcome is Outcome.WON and replays_to_a_win(st, v)


def test_a_budget_of_positions_makes_the_first_beam_narrower(widths: list[int]) -> None:
    """One position wide for each ``PER_WIDTH`` of the budget, so that a small budget still
    reaches deep: 500 wide without a budget of positions, 20 wide with 20,000."""
    st = engine.get("bakers-dozen", "easy").deal((4).to_bytes(4, "big"))
    beam(st, 20_000, None)
    beam(st, None, 0.0)
    assert [widths[0], widths[-1]] == [20_000 // beam_module.PER_WIDTH, beam_module.FIRST_WIDTH]


def test_the_wins_come_on_the_state_and_on_a_board() -> None:
    kinds = {playable(engine.get(g, v).deal(bytes(4))) for g, v, _ in WINS}
    assert kinds == {True, False}


def test_a_beam_that_left_nothing_out_proves_a_loss() -> None:
    # Nestor difficult deal 0 is lost; its few positions all fit in the first beam.
    st = engine.get("nestor", "difficult").deal(bytes(4))
    v = beam(st, None, None)
    assert v.outcome is Outcome.LOST and v.complete and not v.moves
    assert DepthFirst(st, None).run().outcome is Outcome.LOST


def test_a_beam_that_left_positions_out_proves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # So narrow a beam leaves positions out at once: never lost, only won or unknown.
    monkeypatch.setattr(beam_module, "FIRST_WIDTH", 1)
    monkeypatch.setattr(beam_module, "LEAST_WIDTH", 1)
    monkeypatch.setattr(beam_module, "WIDER", 1)
    st = engine.get("nestor", "difficult").deal(bytes(4))
    v = beam(st, 2_000, None)
    assert v.outcome is Outcome.UNKNOWN and v.positions == 2_000


def test_a_beam_stops_at_its_budget_and_its_deadline() -> None:
    st = engine.get("klondike", "difficult").deal(bytes(4))
    assert beam(st, 1_000, None).positions == 1_000
    v = beam(st, None, 0.0)  # a deadline already passed: one position expanded
    assert v.outcome is Outcome.UNKNOWN and v.positions < 100
