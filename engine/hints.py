"""Hints: the next move to play, from a winning line the solver found or, failing that, from a
heuristic declared per pile kind and move kind (never per game).

    >>> import engine
    >>> from engine.hints import hint
    >>> from engine.solver import Budget
    >>> st = engine.get("klondike", "easy").deal(bytes.fromhex("00"))
    >>> h = hint(st, Budget(positions=20_000, seconds=5))
    >>> h.source, h.move in st.legal_moves(), h.line_left == len(h.line)
    ('solver', True, True)

The solver is *thoughtful* (it sees face-down cards), so a solver hint says something about
cards the player cannot see: the server gives hints only where that harms no one (practice;
docs/solver.md, "Hints"). The heuristic reads what the position's legal moves and face-down
counts say, no hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import MOVE, STOCK, Move, State
from .rules import FOUNDATION
from .safe import safe_moves
from .solver import Budget, Outcome, solve
from .solver.par import POSITIONS, par_line

SOLVER, HEURISTIC, NONE = "solver", "heuristic", "none"


@dataclass(frozen=True)
class Hint:
    """``move``: the move to play (``None``: no legal move is left). ``source``: ``solver``
    (the first move of ``line``, a winning line the search found, made short as par is
    (``engine/solver/par.py``), or for a game played for points the line to the best score
    it found), ``heuristic`` (no such line within the budget: a likely move, see
    ``likely_move``) or ``none``. ``score``: for a scored game's line, the score at its end.
    ``lost``: the search proved that no line from here wins (the heuristic's move is then all
    a hint can give); a player would rather know that than look on for a win."""

    move: Move | None
    source: str
    line: tuple[Move, ...] = ()
    score: int | None = None
    lost: bool = False

    @property
    def line_left(self) -> int:
        """Moves left in the solver's line, this one included (0 for other hints)."""
        return len(self.line)

    def after(self) -> Hint | None:
        """The next hint of a solver line once ``move`` is played: its next move, with no new
        search (``None`` at its end, or for other hints). Hints are meant to be followed this
        way: two searches from neighbouring positions may find different lines, and
        following a fresh search's first move each time can go back and forth for ever."""
        if self.source != SOLVER or len(self.line) < 2:
            return None
        return Hint(self.line[1], SOLVER, self.line[1:], self.score)


def hint(state: State, budget: Budget | None = None, last: Move | None = None) -> Hint:
    """The next move from ``state`` (left unchanged). ``budget``: the solver's (none: until it
    decides). ``last``: the move that led here, for a state without its history (a restored
    snapshot); by default the state's own last move. A heuristic hint never plainly undoes it."""
    legal = state.legal_moves() if not state.over else []
    if not legal:
        return Hint(None, NONE)
    verdict = solve(state, budget)
    if verdict.outcome in (Outcome.WON, Outcome.BEST) and verdict.moves:
        line = verdict.moves
        if verdict.outcome is Outcome.WON and verdict.score is None:
            # Made short as par is, within as many positions as the search's budget (never
            # seconds: the same line on every node): a search's first line can wander for
            # thousands of moves, and a player follows it a move at a time (docs/solver.md,
            # Hints).
            spend = min(POSITIONS, budget.positions or POSITIONS) if budget else POSITIONS
            line = par_line(state, line, spend)
        return Hint(line[0], SOLVER, line, verdict.score)
    if last is None and state.history:
        last = state.history[-1]
    return Hint(likely_move(state, legal, last), HEURISTIC,
                lost=verdict.outcome is Outcome.LOST)


def likely_move(state: State, legal: list[Move] | None = None,
                last: Move | None = None) -> Move | None:
    """A move a careful player would likely make, by what the piles' kinds and the position's
    face-down counts say, first of these that is not a plain undo of ``last``:

    1. a safe move to a foundation (``engine/safe.py``: nothing a player can foresee costs);
    2. a move that turns a face-down card up (the cards left in its pile are all face down);
    3. any other move to a foundation;
    4. a move that empties a pile onto a pile that has cards (room made);
    5. the stock (deal or turn it: new cards to play);
    6. any other legal move, in the engine's order.

    Only when every legal move undoes ``last`` is one of them given (the first)."""
    moves = state.legal_moves() if legal is None else legal
    if not moves:
        return None
    fresh = [m for m in moves if not undoes(m, last)] or moves
    safe = safe_moves(state, fresh)
    if safe:
        return safe[0]
    return min(fresh, key=lambda m: _rank(state, m))  # min keeps the first of equals


def _rank(st: State, m: Move) -> int:
    if m.kind == STOCK:
        return 3
    if m.kind != MOVE:
        return 4
    left = len(st.piles[m.src]) - m.n
    if left and left == st.down[m.src]:
        return 0
    if st.rules.pile_kinds[m.dst] == FOUNDATION:
        return 1
    if not left and st.piles[m.dst]:
        return 2
    return 4


def undoes(m: Move, last: Move | None) -> bool:
    """``m`` puts back the cards ``last`` moved: the same count, from where they went to
    where they came from."""
    return (last is not None and m.kind == MOVE and last.kind == MOVE and m.src == last.dst
            and m.dst == last.src and m.n == last.n)
