"""The gap board (engine/solver/gap_board.py) plays exactly as the engine does, on every rule
set whose moves are cards slid into a grid's gaps (``RuleSet.gap_rule``): the same legal moves in
the same order, the same piles and vars after each move and each take-back (a redeal
included), the same status, and keys that tell positions apart exactly as the solver's key
function does. And the searches on it are the searches through the state: the same verdicts,
lines and positions."""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import REDEAL, State
from engine.solver import Outcome
from engine.solver.gap_board import REDEAL_CODE, GapBoard, gapped, playable
from engine.solver.state_board import StateBoard, board_for

from .board_walk import as_through_the_state, same, walk_beside

GAPPED = [r for r in engine.rule_sets() if gapped(r)]
#: A deal won within the budgets below, where deals 0-3 are not.
DECIDED = {"gaps/easy": (13,)}


def test_the_gapped_rule_sets_are_gaps() -> None:
    assert sorted(r.key for r in GAPPED) == ["gaps/difficult", "gaps/easy"]
    with pytest.raises(ValueError, match="slides no cards"):
        GapBoard(engine.get("pyramid", "easy").deal(b"\x01"))
    st = engine.get("gaps", "easy").deal(b"\x01")
    st.vars["resigned"] = 1
    assert not playable(st)
    assert isinstance(board_for(st), StateBoard)
    with pytest.raises(ValueError, match="count of redeals"):
        GapBoard(st)
    # Set up by hand, with no count of redeals yet: the first redeal would start one.
    hard = engine.get("gaps", "difficult")
    st = hard.setup({"g1": "2c", "g2": "3c"})
    assert not playable(st) and isinstance(board_for(st), StateBoard)
    assert playable(hard.setup({"g1": "2c"}, redeals=1))
    assert playable(engine.get("gaps", "easy").setup({"g1": "2c"}))


def check_position(board: GapBoard, st: State) -> list[int]:
    moves = board.moves()
    assert [board.move_of(m) for m in moves] == st.rules.legal_moves(st)
    legal, status = board.legal()
    assert ([board.move_of(m) for m in legal], status) == (st.legal_moves(), st.status)
    assert board.is_won() == (st.status == "won")
    assert board.redeal_ahead() == st.rules.redeal_ahead(st)
    same(board, st)
    return moves


@pytest.mark.parametrize("rules", GAPPED, ids=lambda r: r.key)
def test_a_gap_board_plays_as_the_engine_does(rules: engine.RuleSet) -> None:
    """Random games, with take-backs of one to five moves (redeals among them), compared at
    every position; and keys that are equal exactly when the engine's key function's are."""
    redeals = 0

    def choose(rng: random.Random, moves: list[int], board: GapBoard) -> int:
        nonlocal redeals
        m = REDEAL_CODE if REDEAL_CODE in moves and rng.random() < 0.1 else rng.choice(moves)
        redeals += m == REDEAL_CODE
        return m

    positions, keys = walk_beside(rules, GapBoard, check_position, same, choose, 40, 900)
    assert positions >= 900
    assert keys > 100
    assert redeals or rules.easy


def test_a_packed_gap_board_comes_back_as_it_was() -> None:
    """Packed after a redeal, unpacked on another board: the same position, key and moves,
    and a redeal played there is taken back to it."""
    rules = engine.get("gaps", "difficult")
    st = rules.deal(b"\x07")
    board = GapBoard(st.copy())
    board.play(REDEAL_CODE)
    st.push(board.move_of(REDEAL_CODE))
    other = GapBoard(rules.deal(b"\x08"))
    other.seed = st.seed
    other.unpack(board.pack())
    same(other, st)
    assert other.key() == board.key() and other.moves() == board.moves()
    other.play(REDEAL_CODE)
    st.push(other.move_of(REDEAL_CODE))
    same(other, st)
    assert other.moves()[-1] != REDEAL_CODE  # both redeals spent
    other.undo()
    st.pop()
    same(other, st)
    assert board.move_of(REDEAL_CODE).kind == REDEAL
    assert board.code_of(board.move_of(REDEAL_CODE)) == REDEAL_CODE


@pytest.mark.parametrize("rules", GAPPED, ids=lambda r: r.key)
def test_the_searches_on_a_gap_board_are_the_searches_through_the_state(
        rules: engine.RuleSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth first (narrowed or not, on from where it stopped), best first, a beam and par:
    the same verdicts, lines and positions on a gap board as through the state."""
    decided = 0
    for deal in [*range(4), *DECIDED.get(rules.key, ())]:
        st = rules.deal(deal.to_bytes(4, "big"))
        found = as_through_the_state(st, GapBoard, monkeypatch, more=3_000)
        decided += sum(outcome is Outcome.WON for outcome, _, _ in found)
    assert decided
