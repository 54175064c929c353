"""The pair board (engine/solver/pair_board.py) plays exactly as the engine does, on every
rule set whose moves remove cards alone or in pairs (``RuleSet.pair_rule``): the same legal moves
in the same order, the same piles and vars after each move and each take-back, the same
status, and keys that tell positions apart exactly as the solver's key function does. And
the searches on it are the searches through the state: the same verdicts, lines and
positions."""

from __future__ import annotations

import random

import pytest

import engine
from engine.cards import RANK
from engine.core import PLAYING, REMOVE, State
from engine.solver import Outcome
from engine.solver.board import DEAL
from engine.solver.pair_board import PairBoard, paired, partners, playable
from engine.solver.state_board import StateBoard, board_for

from .board_walk import (
    along_won_lines,
    as_through_the_state,
    packed_comes_back,
    same,
    walk_beside,
)
from .solver_plain import plain_search

PAIRED = [r for r in engine.rule_sets() if paired(r)]
#: Deals decided within the budgets below: proved lost, and won.
DECIDED = {"pyramid/easy": (0, 1, 9), "pyramid/difficult": (0, 7, 34)}


def test_the_paired_rule_sets_are_pyramid() -> None:
    assert sorted(r.key for r in PAIRED) == ["pyramid/difficult", "pyramid/easy"]
    with pytest.raises(ValueError, match="removes no pairs"):
        PairBoard(engine.get("gaps", "easy").deal(b"\x01"))
    st = engine.get("pyramid", "easy").deal(b"\x01")
    st.vars["resigned"] = 1
    assert not playable(st)
    assert isinstance(board_for(st), StateBoard)
    with pytest.raises(ValueError, match="shared vars"):
        PairBoard(st)


def check_position(board: PairBoard, st: State) -> list[int]:
    moves = board.moves()
    assert [board.move_of(m) for m in moves] == st.rules.legal_moves(st)
    assert all(board.code_of(board.move_of(m)) == m for m in moves)
    legal, status = board.legal()
    assert ([board.move_of(m) for m in legal], status) == (st.legal_moves(), st.status)
    assert board.is_won() == (st.status == "won")
    for m in moves:
        assert board.costless(m) == st.rules.costless(st, board.move_of(m))
        assert board.useful(m) == st.rules.useful(st, board.move_of(m))
    same(board, st)
    return moves


@pytest.mark.parametrize("rules", PAIRED, ids=lambda r: r.key)
def test_a_pair_board_plays_as_the_engine_does(rules: engine.RuleSet) -> None:
    """Random games, with take-backs of one to five moves, compared at every position; and
    keys that are equal exactly when the engine's key function's are."""
    removals = deals = 0

    def choose(rng: random.Random, moves: list[int], board: PairBoard) -> int:
        nonlocal removals, deals
        m = rng.choice(moves)
        removals += board.move_of(m).kind == REMOVE
        deals += m == DEAL
        return m

    positions, keys = walk_beside(rules, PairBoard, check_position, same, choose, 60, 1500)
    assert positions >= 1500
    assert keys > 500 and removals > 100 and deals > 100


def test_a_packed_pair_board_comes_back_as_it_was() -> None:
    """Packed after removals and deals, unpacked on another board: the same position, key
    and moves."""
    packed_comes_back(engine.get("pyramid", "easy"), PairBoard)


@pytest.mark.parametrize("rules", PAIRED, ids=lambda r: r.key)
def test_the_searches_on_a_pair_board_are_the_searches_through_the_state(
        rules: engine.RuleSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth first (narrowed or not, on from where it stopped), best first, a beam and par:
    the same verdicts, lines and positions on a pair board as through the state."""
    decided = won = 0
    for deal in DECIDED[rules.key]:
        st = rules.deal(deal.to_bytes(4, "big"))
        for outcome, _, _ in as_through_the_state(st, PairBoard, monkeypatch):
            decided += outcome is not Outcome.UNKNOWN
            won += outcome is Outcome.WON
    assert decided and won


@pytest.mark.parametrize("rules", PAIRED, ids=lambda r: r.key)
def test_partners_call_lost_only_what_no_search_wins(rules: engine.RuleSet) -> None:
    """``Partners.hopeless`` never holds on a winning line (the solver's, replayed), and
    where it holds in random games it holds to the end of the game, and a plain exhaustive
    search from there (once the stock is nearly dealt) finds no win."""
    check = partners(rules)
    assert check is not None
    for st in along_won_lines(rules, 40, 4):
        assert not check.hopeless(PairBoard(st)), (st.seed, st.ply)
    rng = random.Random(7)
    decided = 0
    for deal in range(40):
        st = rules.deal(deal.to_bytes(4, "big"))
        flagged = False
        while st.status == PLAYING and st.legal_moves():
            flagged = flagged or check.hopeless(PairBoard(st))
            if flagged:
                assert check.hopeless(PairBoard(st)), deal  # a lost card stays lost
                if len(st.piles[rules.stock_pile]) <= 6:
                    found = plain_search(st, 30_000)
                    assert found is not True, deal
                    decided += found is False
                    break
            st.play(rng.choice(st.legal_moves()))
    assert decided >= 15, decided


@pytest.mark.parametrize("rules", PAIRED, ids=lambda r: r.key)
def test_partners_asked_after_a_move_answer_as_asked_afresh(rules: engine.RuleSet) -> None:
    """After a move, ``Partners`` matches only the ranks of the card last removed: along
    random games from deals it passed, the same answer as for a board made afresh of the
    position, where it matches every rank."""
    check = partners(rules)
    assert check is not None
    rng = random.Random(3)
    asked = flagged = 0
    for deal in range(100):
        st = rules.deal(deal.to_bytes(4, "big"))
        board = PairBoard(st)
        if check.hopeless(board):
            continue
        while True:
            codes, status = board.legal()
            if status != PLAYING or not codes:
                break
            m = rng.choice(codes)
            board.play(m)
            st.play(board.move_of(m))
            hopeless = check.hopeless(board)
            assert hopeless == check.hopeless(PairBoard(st)), (deal, st.ply)
            asked += 1
            if hopeless:
                flagged += 1
                break
    assert asked >= 1000 and flagged >= 10, (asked, flagged)


def partnerless(rules: engine.RuleSet, st: State, buried: bool) -> bool:
    """``Partners.hopeless`` written again plainly: for each two ranks of 13, whether some
    choice of distinct partners covers every table card of the two; ``buried``: with the
    cards of the second waste out of play under one that nothing outside it partners."""
    over = rules.covered_by()

    def above(p: int) -> set[int]:
        return set().union(*({q} | above(q) for q in over.get(p, ())))

    table = {p for p, k in enumerate(rules.pile_kinds) if k in ("tableau", "reserve")}
    w2 = rules.by_kind["waste"][-1]
    where = {c: p for p, pile in enumerate(st.piles) if p != rules.by_kind["foundation"][0]
             for c in pile}
    if buried:
        for i in range(len(st.piles[w2]) - 1, 0, -1):
            need = 13 - RANK[st.piles[w2][i]]
            if need and not any(where.get(c, w2) != w2 for c in range(52) if RANK[c] == need):
                for c in st.piles[w2][:i]:
                    del where[c]
                break

    def pairs(a: int, b: int) -> bool:
        p, q = where[a], where[b]
        return not (p in table and q in table and (p == q or q in above(p) or p in above(q)))

    def matched(needed: list[int], used: frozenset[int]) -> bool:
        """Whether each card of ``needed`` not in ``used`` gets its own partner."""
        left = [c for c in needed if c not in used]
        if not left:
            return True
        c = left[0]
        return any(matched(left, used | {c, d}) for d in where
                   if RANK[d] == 13 - RANK[c] and d not in used and pairs(c, d))

    return not all(matched([c for c in where if RANK[c] in (r, 13 - r) and where[c] in table],
                           frozenset()) for r in range(1, 7))


def test_partners_answer_as_written_plainly() -> None:
    """Along random games of Pyramid easy, ``Partners.hopeless`` is ``partnerless`` with the
    buried cards, which tells some positions from the same check without them."""
    rules = engine.get("pyramid", "easy")
    check = partners(rules)
    assert check is not None
    rng = random.Random(11)
    asked = by_burial = 0
    for deal in range(60):
        st = rules.deal(deal.to_bytes(4, "big"))
        while st.status == PLAYING and st.legal_moves():
            hopeless = partnerless(rules, st, buried=True)
            assert check.hopeless(PairBoard(st)) == hopeless, (deal, st.ply)
            asked += 1
            by_burial += hopeless and not partnerless(rules, st, buried=False)
            if hopeless:
                break
            st.play(rng.choice(st.legal_moves()))
    assert asked > 500 and by_burial >= 3, (asked, by_burial)
