"""The searches over the engine's moves (engine/solver/depth.py, bestfirst.py, beam.py) run on a
board: a ``Board`` where one plays the rule set by the shared rules, else a ``StateBoard``
played through the engine's own state. The two boards are one search: on every rule set a
``Board`` plays, the same verdicts, lines and positions on either (where the rule set ends a
game by a rule of its own, which a search's ``Board`` does not ask, the same verdicts from a
few more positions). And the choice of moves (``Choice``) keeps to what the engine says: its
safe moves are ``engine/safe.py``'s, a packed board comes back as it was, and the move it
does not try straight back leads to the position before."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engine
from engine.core import PLAYING, State
from engine.safe import regroups, safe_moves
from engine.solver import Outcome, Verdict, state_board
from engine.solver.beam import beam
from engine.solver.bestfirst import best_first
from engine.solver.board import DEAL as DEAL_MOVE
from engine.solver.board import Board, Layout, plain
from engine.solver.depth import Choice, DepthFirst
from engine.solver.moves import DEAL
from engine.solver.pair_board import BeatenBoard, PairBoard
from engine.solver.state_board import StateBoard, board_for

from .test_board import DECLARED

ALL = engine.rule_sets()
PLAIN = [r for r in ALL if plain(r)]
#: The rule sets whose board plays exactly as the state, in a search too.
EXACT = [r for r in PLAIN if not Layout(r).asks]
#: Those whose end-of-game rule is their own: a search's board does not ask it.
ASKING = [r for r in PLAIN if Layout(r).asks]


Search = Callable[[State], Verdict]
#: Deals decided within the budgets below, where deals 0-3 are not.
DECIDED = {"golf/difficult": (20,), "klondike/difficult": (23,)}


def both(st: State, search: Search, monkeypatch: pytest.MonkeyPatch) -> tuple[Verdict, Verdict]:
    """``search`` from ``st`` on its ``Board``, then on a ``StateBoard``."""
    on_board = search(st)
    with monkeypatch.context() as m:
        m.setattr(state_board, "board_for", lambda s: StateBoard(s))
        on_state = search(st)
    return on_board, on_state


def answer(v: Verdict) -> tuple[str, tuple[str, ...], int]:
    return v.outcome.value, tuple(map(str, v.moves)), v.positions


@pytest.mark.parametrize("rules", EXACT, ids=lambda r: r.key)
def test_a_board_played_through_the_state_searches_as_the_board_does(
        rules: engine.RuleSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth first (narrowed or not, in one run or on from where it stopped), best first and
    a beam: the same verdict, line and positions on either board."""
    def depth(narrow: bool) -> Search:
        def run(st: State) -> Verdict:
            search = DepthFirst(st, None, narrow)
            v = search.run(300)
            return v if v.outcome is not Outcome.UNKNOWN else search.run(1_500)
        return run

    decided = 0
    for deal in [*range(4), *DECIDED.get(rules.key, ())]:
        st = rules.deal(deal.to_bytes(4, "big"))
        for search in (depth(False), depth(True), lambda s: best_first(s, 1_000, None),
                       lambda s: beam(s, 1_000, None)):
            on_board, on_state = both(st, search, monkeypatch)
            assert answer(on_board) == answer(on_state), deal
            decided += on_board.outcome is not Outcome.UNKNOWN
    # Something was decided, so a line or a proof was compared (Lady Betty, whose losses
    # take every way of laying out the stock, decides none of these within the budgets).
    assert decided or rules.key == "lady-betty/standard"


@pytest.mark.parametrize("rules", ASKING, ids=lambda r: r.key)
def test_a_search_that_does_not_ask_the_end_rule_decides_as_the_state(
        rules: engine.RuleSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a ``Board``, which does not ask the rule set's own end rule, and through the state,
    which does: where both decide, the same verdict; every win replays through the engine;
    a proof of loss searched at least every position the state's did (the dead ends it went
    into are more). Deals after the first four come in until one is decided."""
    decided = 0
    for deal in range(40):
        if deal >= 4 and decided:
            break
        st = rules.deal(deal.to_bytes(4, "big"))
        for search in (lambda s: DepthFirst(s, None).run(4_000),
                       lambda s: best_first(s, 2_000, None)):
            on_board, on_state = both(st, search, monkeypatch)
            if on_board.outcome is Outcome.WON:
                end = st.copy()
                for m in on_board.moves:
                    end.play(m)
                assert end.status == "won"
            if Outcome.UNKNOWN not in (on_board.outcome, on_state.outcome):
                assert on_board.outcome == on_state.outcome, deal
            if on_board.outcome is Outcome.LOST and on_state.outcome is Outcome.LOST:
                assert on_board.positions >= on_state.positions
            decided += on_board.outcome is not Outcome.UNKNOWN
    assert decided


@pytest.mark.parametrize("rules", ALL + DECLARED, ids=lambda r: r.key)
def test_the_choice_plays_the_engines_safe_moves_and_packs_a_board_as_it_was(
        rules: engine.RuleSet) -> None:
    """At every position of random games, on the rule set's board: ``Choice``'s safe moves
    are ``engine/safe.py``'s (with ``follow`` where it holds, and without), but for those
    that would regroup the stock; and a packed board unpacked on another is the same
    position, with the same key and moves."""
    rng = random.Random(rules.key)
    safe_seen = followed_seen = 0
    regrouping = {p for p in range(len(rules.pile_kinds)) if regroups(rules, p)}
    for deal in range(6 if plain(rules) else 3):
        st = rules.deal(deal.to_bytes(4, "big"))
        board = board_for(st)
        for _ in range(80):
            legal, status = board.legal()
            if status != PLAYING:
                break
            moves = [board.move_of(m) for m in legal]
            again = board_for(st)
            again.unpack(board.pack())
            assert (again.piles(), list(again.down), again.var_dict(), again.key(),
                    [again.move_of(m) for m in again.legal()[0]], again.legal()[1]) == (
                st.piles, st.down, st.vars, board.key(), moves, status)
            choice = Choice(rules)
            counts = []
            for follow in ((True, False) if choice.follow else (False,)):
                choice.follow = follow
                safe = [board.move_of(m) for m in choice.safe_moves(board, legal)]
                assert safe == [m for m in safe_moves(st, moves, follow)
                                if m.src not in regrouping]
                counts.append(len(safe))
            safe_seen += counts[0]
            followed_seen += counts[0] - counts[-1]
            m = rng.choice(legal)
            st.push(board.move_of(m))
            board.play(m)
    if rules.id in ("klondike", "yukon", "beleaguered-castle"):  # random games reach safe moves
        assert safe_seen > 0
    if rules.key in ("klondike/easy", "beleaguered-castle/difficult"):  # and ``follow``'s
        assert followed_seen > 0


def test_the_search_plays_on_a_board_or_through_the_state() -> None:
    assert type(board_for(engine.get("yukon", "easy").deal(b"\x01"))) is Board
    assert type(board_for(engine.get("nestor", "easy").deal(b"\x01"))) is StateBoard
    assert type(board_for(engine.get("aces-up", "easy").deal(b"\x01"))) is BeatenBoard
    assert type(board_for(engine.get("pyramid", "easy").deal(b"\x01"))) is PairBoard


@pytest.mark.parametrize("rules", PLAIN, ids=lambda r: r.key)
def test_the_way_back_leads_to_the_position_before(rules: engine.RuleSet) -> None:
    """``Board.way_back``, which depth first does not try (its position is in the table): at
    every position of random games, where that move is legal it brings back the very
    position before the move (piles, face-down counts, vars, key); a move that turned a card
    up has none."""
    rng = random.Random(rules.key)
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
            back = board.way_back(m)
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


#: The rule sets whose deals depth first plays on numbers (``Choice.talon_moves``).
COUNTED = [r for r in PLAIN if Layout(r).brings and Choice(r).talon]


@pytest.mark.parametrize("rules", COUNTED, ids=lambda r: r.key)
def test_the_deals_played_on_numbers_give_the_talons_moves_a_deal_at_a_time_does(
        rules: engine.RuleSet) -> None:
    """At every position of random games, ``Choice.talon_moves`` (the deals counted, the
    choice asked only where a deal's waste card fits somewhere) gives the moves that playing
    the deals one at a time and choosing at each gives (``dealt_moves``), in the same order,
    and leaves the board as it was, for a search from the deal and, now and then, for one
    from the position itself (its pass maybe searched whole: ``open_pass``); ``Board.bring``
    of some deals leaves the board as playing them one by one does, and its take-back as it
    was before."""
    rng = random.Random(rules.key)
    walked = brought = opened = 0
    for deal in range(6):
        st = rules.deal(deal.to_bytes(4, "big"))
        from_deal = Choice(rules, start=st)
        board = Board(st, ask=False)
        for i in range(150):
            legal, status = board.legal()
            if status != PLAYING:
                break
            before = (board.piles(), list(board.down), board.var_dict())
            if DEAL_MOVE in legal:
                here = State(rules, b"", *before)
                for choice in [from_deal] + ([Choice(rules, start=here)] if i % 5 == 0 else []):
                    walk = choice.talon_moves(board)
                    assert walk == choice.dealt_moves(board)
                    assert (board.piles(), list(board.down), board.var_dict()) == before
                    walked += walk is not None
                    opened += walk is None
                k = 0
                while k < rng.randint(1, 20) and board.can_deal():
                    board.play(DEAL_MOVE)
                    k += 1
                dealt = (board.piles(), list(board.down), board.var_dict())
                for _ in range(k):
                    board.undo()
                board.bring(k)
                assert (board.piles(), list(board.down), board.var_dict()) == dealt
                board.undo()
                assert (board.piles(), list(board.down), board.var_dict()) == before
                brought += k > 1
            board.play(rng.choice(legal))
    assert walked and brought and opened


def test_the_stock_ranks_early_only_where_it_comes_round_beside_whole_runs() -> None:
    """``moves.deal_rank``: with the moves that turn a card up where the stock deals to the
    waste again and again and runs move only whole (Canfield difficult), last elsewhere
    (Canfield easy's and Klondike's runs move in parts, Eagle Wing's top cards alone too).
    Depth first alone wins Canfield difficult deal 12 within 400,000
    positions so (28,638), and not with the stock last (docs/solver.md)."""
    early = {r.key for r in ALL if Choice(r).deal_rank != DEAL}
    assert early == {"canfield/difficult"}
    st = engine.get("canfield", "difficult").deal((12).to_bytes(4, "big"))
    assert DepthFirst(st, None).run(400_000).outcome is Outcome.WON
    late = DepthFirst(st, None)
    late.choice.deal_rank = DEAL
    assert late.run(400_000).outcome is Outcome.UNKNOWN
