"""Hints (engine/hints.py) on every rule set: the hinted move is always legal, a solver
hint's line wins (or reaches its score) when followed, and the heuristic never plainly undoes
the last move while another move is left."""

from __future__ import annotations

import random

import pytest

import engine
from bench.par import hint_position
from engine.core import MOVE, WON
from engine.hints import HEURISTIC, NONE, SOLVER, Hint, hint, likely_move, undoes, visited
from engine.solver import Budget, solve
from engine.solver.position import key_maker

RULE_SETS = engine.rule_sets()
# No clock: an answer never depends on how busy the machine is.
BUDGET = Budget(positions=2000)
SMALL = Budget(positions=200)
#: Deals whose hints are followed, per rule set (a sample, to stay fast).
SEEDS = (b"\x00", b"\x07")


def follow(st: engine.State, h: Hint) -> engine.State:
    """Play the hint's line, each move checked by the engine."""
    for m in h.line:
        st.play(m)
    return st


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_hints_are_legal_and_solver_lines_win(rules: engine.RuleSet) -> None:
    scored = rules.scoring == engine.rules.Scoring.POINTS
    for seed in SEEDS:
        st = rules.deal(seed)
        before = st.snapshot()
        h = hint(st, BUDGET if seed == SEEDS[0] else SMALL)
        assert st.snapshot() == before  # a hint changes nothing
        if not st.legal_moves():  # a deal lost as dealt (Nestor can be)
            assert h == Hint(None, NONE)
            continue
        assert h.move in st.legal_moves()
        assert h.source in (SOLVER, HEURISTIC)
        if h.source == SOLVER:
            assert h.move == h.line[0] and h.line_left == len(h.line)
            end = follow(rules.deal(seed), h)
            if scored:
                assert end.over and end.score == h.score
            else:
                assert end.status == WON
            # Following it one hint at a time wins as well: each next hint from the position
            # the last one led to is legal, and a fresh search finds a line from there too.
            st.play(h.move)
            again = hint(st, SMALL)
            assert again.move in st.legal_moves()
        else:
            assert h.line == () and h.line_left == 0


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_the_heuristic_gives_a_legal_move_all_game_long(rules: engine.RuleSet) -> None:
    """Through a random game: at each position the likely move is legal and, while any
    other move is left, not the last move taken back."""
    rnd = random.Random(rules.key)
    st = rules.deal(b"\x03")
    for _ in range(40):
        legal = st.legal_moves() if not st.over else []
        if not legal:
            assert likely_move(st, legal) is None
            break
        last = st.history[-1] if st.history else None
        m = likely_move(st, legal, last)
        assert m in legal
        if any(not undoes(x, last) for x in legal):
            assert not undoes(m, last)
        st.play(rnd.choice(legal))


def test_no_legal_move_no_hint() -> None:
    rules = engine.get("klondike", "easy")
    st = rules.deal(b"\x00")
    st.resign()
    assert hint(st, BUDGET) == Hint(None, NONE)


def test_the_heuristic_order() -> None:
    """Turning a face-down card up comes before a move to a foundation that is not safe, and
    a plain undo of the last move is given only when nothing else is left."""
    rules = engine.get("klondike", "easy")
    st = rules.deal(b"\x00")
    legal = st.legal_moves()
    m = likely_move(st, legal)
    assert m is not None
    left = len(st.piles[m.src]) - m.n if m.kind == MOVE else 0
    reveals = [x for x in legal if x.kind == MOVE
               and 0 < len(st.piles[x.src]) - x.n == st.down[x.src]]
    from engine.safe import safe_moves
    if not safe_moves(st, legal) and reveals:
        assert left and left == st.down[m.src]
    back = engine.Move(MOVE, 3, 5, 1)
    last = engine.Move(MOVE, 5, 3, 1)
    assert undoes(back, last) and not undoes(last, last)
    assert likely_move(st, [back], last) == back  # the only move left


def test_a_deal_the_solver_wins_gets_solver_hints_to_the_win() -> None:
    """Klondike easy, seed 00, is won by the solver within the budget: hint after hint, each
    played and the next taken from the same line (``Hint.after``), leads to a win."""
    rules = engine.get("klondike", "easy")
    st = rules.deal(b"\x00")
    h: Hint | None = hint(st, Budget(positions=20_000))
    assert h is not None and h.source == SOLVER
    steps = h.line_left
    while h is not None:
        assert h.move in st.legal_moves() and h.line_left == steps
        st.play(h.move)
        h, steps = h.after(), steps - 1
    assert st.status == WON and steps == 0


def test_a_solver_hint_s_line_is_made_short_as_par_is() -> None:
    """Scorpion easy, a few random moves into deal 902: the search's first line wanders
    for 1,319 moves; the hint's is that line made short, and still wins."""
    st = hint_position(engine.get("scorpion", "easy"), 2)
    budget = Budget(positions=20_000)
    assert len(solve(st, budget).moves) > 1000
    h = hint(st, budget)
    assert h.source == SOLVER and len(h.line) < 150
    for m in h.line:
        st.play(m)
    assert st.status == WON


#: Scorpion difficult deal 01: lost as dealt, its cards waiting in a circle, which the search
#: proves in one position (docs/solver.md, The choice of moves).
LOST_AT_DEAL = ("scorpion", "difficult", b"\x01")


def test_a_position_proved_lost_says_so_with_its_likely_move() -> None:
    game, variant, seed = LOST_AT_DEAL
    st = engine.get(game, variant).deal(seed)
    h = hint(st, SMALL)
    assert h.source == HEURISTIC and h.lost and h.move in st.legal_moves()
    assert h.move == likely_move(st) and h.line == ()
    # Won, or only undecided within the budget: not lost.
    assert not hint(engine.get("klondike", "easy").deal(b"\x00"), BUDGET).lost
    undecided = hint(engine.get("klondike", "difficult").deal(bytes.fromhex("4000")),
                     Budget(positions=50))
    assert undecided.source == HEURISTIC and not undecided.lost


@pytest.mark.parametrize("key", ["klondike/easy", "canfield/easy", "yukon/easy", "golf/easy"])
def test_heuristic_hints_never_loop_nor_offer_a_useless_move(key: str) -> None:
    """Hint after hint from the heuristic alone (a budget too small for the solver), each
    played: no position of the game comes back (Klondike easy deal 8 once went round the
    stock for ever), no move is one the engine calls of no use, and the game ends, or the
    hints stop when every useful move leads back."""
    rules = engine.get(*key.split("/"))
    st = rules.deal((8).to_bytes(4, "big"))
    key_of = key_maker(rules)
    been = {key_of(st)}
    for _ in range(400):
        h = hint(st, Budget(positions=1))
        if h.move is None:
            assert h.source == NONE and not st.over
            break
        assert h.source == HEURISTIC and rules.useful(st, h.move)
        st.play(h.move)
        assert key_of(st) not in been
        been.add(key_of(st))
        if st.over:
            break
    else:
        raise AssertionError("400 hints and the game goes on")


def test_a_restored_position_avoids_the_positions_its_game_went_through() -> None:
    """A snapshot has no history: given the game's moves (``visited``), the heuristic still
    avoids where the game has been; the first hint after turning the stock over with
    nothing played since is not that turn again."""
    rules = engine.get("klondike", "easy")
    st = rules.deal((8).to_bytes(4, "big"))
    while st.piles[rules.stock_pile]:
        st.play(engine.Move(engine.core.STOCK))
    restored = engine.restore(st.snapshot())
    seen = visited(rules.deal(st.seed), st.history, restored)
    assert len(seen) == len(st.history) + 1
    h = hint(restored, Budget(positions=1), st.history[-1], seen)
    assert h.move is not None
    after = restored.copy()
    after.play(h.move)
    assert key_maker(rules)(after) not in seen
