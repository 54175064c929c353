"""The searches on a board (engine/solver/board_search.py, board_best.py) are the searches on the
state, position for position: on every rule set a board plays by the shared rules alone, the
same verdicts, lines and positions, narrowed or not, in one run or in several with growing
budgets. Where the rule set ends a game by a rule of its own, which a search's board does not
ask (``Board.legal``), the same verdicts from a few more positions."""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import PLAYING
from engine.solver import Outcome, bestfirst
from engine.solver.board import Board, Layout, plain
from engine.solver.board_best import Promise
from engine.solver.board_best import best_first as best_first_on_board
from engine.solver.board_search import BoardSearch, Choice, searcher
from engine.solver.moves import Chooser
from engine.solver.search import Search

from .test_board import DECLARED

PLAIN = [r for r in engine.rule_sets() if plain(r)]
#: The rule sets whose board plays exactly as the state, in a search too.
EXACT = [r for r in PLAIN if not Layout(r).asks]
#: Those whose end-of-game rule is their own: a search's board does not ask it.
ASKING = [r for r in PLAIN if Layout(r).asks]


def answer(search: Search, caps: tuple[int, ...]) -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for cap in caps:
        v = search.run(cap)
        out.append((v.outcome.value, tuple(map(str, v.moves)), v.positions))
        if v.outcome is not Outcome.UNKNOWN:
            break
    return out


#: Deals decided within the budgets below, where deals 0-7 are not (Golf difficult's losses
#: take tens of thousands of positions).
DECIDED = {"golf/difficult": (20,)}


@pytest.mark.parametrize("rules", EXACT, ids=lambda r: r.key)
@pytest.mark.parametrize("narrow", [False, True])
def test_the_board_searches_as_the_state_does(rules: engine.RuleSet, narrow: bool) -> None:
    outcomes = set()
    for deal in [*range(8), *DECIDED.get(rules.key, ())]:
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


@pytest.mark.parametrize("rules", ASKING, ids=lambda r: r.key)
def test_a_search_that_does_not_ask_the_end_rule_decides_as_the_state(
        rules: engine.RuleSet) -> None:
    """Depth first and best first on a board that does not ask the rule set's own end rule,
    against the same searches on the state, which does: where both decide, the same
    verdict; every win replays through the engine to a win; a proof of loss searched at
    least every position the state's did (the dead ends it went into are more). Deals
    after the first four come in until one is decided on a board (Baker's Dozen's take
    more positions than these)."""
    decided = 0
    for deal in range(40):
        if deal >= 4 and decided:
            break
        st = rules.deal(deal.to_bytes(4, "big"))
        for best in (False, True):
            if best:
                on_state = bestfirst.best_first(st, 2_000, None)
                on_board = best_first_on_board(st, 2_000, None)
            elif deal < 4:
                on_state = Search(st, None).run(4_000)
                on_board = BoardSearch(st, None).run(4_000)
            else:  # looking for a decided deal: the board alone first, the state if it is
                on_board = BoardSearch(st, None).run(4_000)
                if on_board.outcome is Outcome.UNKNOWN:
                    continue
                on_state = Search(st, None).run(4_000)  # the same order, fewer positions
            if on_board.outcome is Outcome.WON:
                end = st.copy()
                for m in on_board.moves:
                    assert end.status == PLAYING
                    end.push(m)
                assert end.status == "won"
            if Outcome.UNKNOWN not in (on_board.outcome, on_state.outcome):
                assert on_board.outcome == on_state.outcome, (deal, best)
            if on_board.outcome is Outcome.LOST and on_state.outcome is Outcome.LOST:
                assert on_board.positions >= on_state.positions
            decided += on_board.outcome is not Outcome.UNKNOWN
    assert decided


@pytest.mark.parametrize("rules", EXACT, ids=lambda r: r.key)
@pytest.mark.parametrize("narrow", [False, True])
def test_best_first_on_a_board_is_best_first_on_the_state(rules: engine.RuleSet,
                                                          narrow: bool) -> None:
    for deal in range(6):
        st = rules.deal(deal.to_bytes(4, "big"))
        on_state = bestfirst.best_first(st, 2_000, None, narrow=narrow)
        on_board = best_first_on_board(st, 2_000, None, narrow=narrow)
        assert (on_board.outcome, on_board.moves, on_board.positions) == (
            on_state.outcome, on_state.moves, on_state.positions), deal


@pytest.mark.parametrize("rules", PLAIN + DECLARED, ids=lambda r: r.key)
def test_the_board_chooses_the_moves_the_chooser_does(rules: engine.RuleSet) -> None:
    """At every position of random games: the same safe moves as ``Chooser.safe_ones``
    (with ``follow`` where the chooser has it, and without), the same
    moves tried, in the same order, as ``Chooser.moves``, narrowed or not, after a deal or
    not, the same promise as best first's, and a packed board unpacked to the same
    position."""
    rng = random.Random(rules.key)
    promise = Promise(rules).score
    safe_seen = followed_seen = 0
    for deal in range(12):
        st = rules.deal(deal.to_bytes(4, "big"))
        board = Board(st)
        for _ in range(120):
            legal, status = board.legal()
            if status != PLAYING:
                break
            moves = [Board.decode(m) for m in legal]
            assert promise(board) == bestfirst.promise(rules)(st)
            assert board.pack() != b"" and Board(st).key() == board.key()
            again = Board(st)
            again.unpack(board.pack())
            assert (again.piles(), list(again.down), again.var_dict()) == (
                st.piles, st.down, st.vars)
            chooser, choice = Chooser(rules), choice_of(rules, False)
            safe = choice.safe_moves(board, legal)
            assert [Board.decode(m) for m in safe] == chooser.safe_ones(st, moves)
            safe_seen += len(safe)
            if choice.follow:
                choice.follow = chooser.follow = False
                plain = choice.safe_moves(board, legal)
                assert [Board.decode(m) for m in plain] == chooser.safe_ones(st, moves)
                followed_seen += len(safe) - len(plain)
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
    if rules.id in ("klondike", "yukon", "beleaguered-castle"):  # random games reach safe moves
        assert safe_seen > 0
    if rules.key in ("klondike/easy", "beleaguered-castle/difficult"):  # and ``follow``'s
        assert followed_seen > 0


def choice_of(rules: engine.RuleSet, narrow: bool) -> Choice:
    return Choice(Chooser(rules, narrow=narrow))


def test_the_solver_searches_a_plain_rule_set_on_a_board() -> None:
    assert isinstance(searcher(engine.get("klondike", "easy").deal(b"\x01"), None), BoardSearch)
    pyramid = engine.get("pyramid", "easy").deal(b"\x01")
    assert type(searcher(pyramid, None)) is Search


@pytest.mark.parametrize("rules", PLAIN, ids=lambda r: r.key)
def test_the_way_back_leads_to_the_position_before(rules: engine.RuleSet) -> None:
    """``Choice.back``, which depth first does not try (its position is in the table): at
    every position of random games, where that move is legal it brings back the very
    position before the move (piles, face-down counts, vars, key); a move that turned a card
    up has none."""
    rng = random.Random(rules.key)
    choice = choice_of(rules, False)
    checked = 0
    for deal in range(8):
        board = Board(rules.deal(deal.to_bytes(4, "big")), ask=False)
        for _ in range(120):
            legal, status = board.legal()
            if status != PLAYING:
                break
            before = (board.piles(), list(board.down), board.var_dict(), board.key())
            m = rng.choice(legal)
            board.play(m)
            back = choice.back(board, m)
            if list(board.down) != before[1]:
                assert back == -1
            if back >= 0 and back in board.legal()[0]:
                board.play(back)
                assert (board.piles(), list(board.down), board.var_dict(), board.key()) == before
                board.undo()
                checked += 1
    assert checked or rules.key in NO_WAY_BACK


#: Where no move can be taken straight back: cards go only to a foundation (Golf,
#: Eliminator) or from the stock to a pile (Lady Betty), or only a whole packed run moves
#: between columns, and on its way back it would take the card it now lies on along
#: (Canfield difficult).
NO_WAY_BACK = {"golf/easy", "golf/difficult", "eliminator/easy", "eliminator/difficult",
               "lady-betty/standard", "canfield/difficult"}
