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
counts say, no hidden card; it never offers a move the engine's end-of-game rule calls of
no use (``RuleSet.useful``), nor one back to a position the game has already been in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Final, Literal

from .core import MOVE, STOCK, IllegalMove, Move, State
from .piles import FOUNDATION
from .safe import safe_moves
from .solver import Budget, Outcome, solve
from .solver.par import POSITIONS, par_line
from .solver.position import key_maker

#: Where a hint's move comes from: a decided line, the likely-move heuristic, or nowhere.
Source = Literal["solver", "heuristic", "none"]
SOLVER: Final = "solver"
HEURISTIC: Final = "heuristic"
NONE: Final = "none"
#: Positions of the engine's play a hint's won line is made short within (``par_line``), at
#: most: whatever the search's own budget, a line of thousands of moves takes up to about
#: three quarters of a second.
SHORTEN = 20_000


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
    source: Source
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


def hint(state: State, budget: Budget | None = None, last: Move | None = None,
         seen: Collection[object] | None = None) -> Hint:
    """The next move from ``state`` (left unchanged). ``budget``: the solver's (none: until it
    decides). ``last``: the move that led here, for a state without its history (a restored
    snapshot); by default the state's own last move. A heuristic hint never plainly undoes it.
    ``seen``: the keys of the positions the game has been in (``visited``), none of which a
    heuristic hint leads back to; by default those of the state's own history."""
    legal = state.legal_moves() if not state.over else []
    if not legal:
        return Hint(None, NONE)
    verdict = solve(state, budget)
    if verdict.outcome in (Outcome.WON, Outcome.BEST) and verdict.moves:
        line = verdict.moves
        if verdict.outcome is Outcome.WON and verdict.score is None:
            # Made short as par is, within ``SHORTEN`` positions (never seconds: the same
            # line on every node): a search's first line can wander for thousands of moves,
            # and a player follows it a move at a time (docs/solver.md, Hints).
            spend = min(SHORTEN, budget.positions or SHORTEN) if budget else POSITIONS
            line = par_line(state, line, spend)
        return Hint(line[0], SOLVER, line, verdict.score)
    if last is None and state.history:
        last = state.history[-1]
    if seen is None:
        seen = visited(state.rules.deal(state.seed), state.history, state)
    move = likely_move(state, legal, last, seen)
    return Hint(move, HEURISTIC if move is not None else NONE,
                lost=verdict.outcome is Outcome.LOST)


def visited(start: State, moves: Iterable[Move], end: State | None = None) -> set[object]:
    """The keys (the solver's: ``position.key_maker``) of the positions a game went through
    from ``start`` by ``moves``, both ends included. Where ``end`` is given and the moves do
    not lead there (a game that did not start from ``start``), only ``end``'s."""
    key = key_maker(start.rules)
    st = start.copy()
    out: set[object] = {key(st)}
    try:
        for m in moves:
            st.play(m)
            out.add(key(st))
    except IllegalMove:  # moves of another game: its positions are unknown
        return set() if end is None else {key(end)}
    if end is not None and key(st) != key(end):
        return {key(end)}
    return out


def likely_move(state: State, legal: list[Move] | None = None, last: Move | None = None,
                seen: Collection[object] = ()) -> Move | None:
    """A move a careful player would likely make, by what the piles' kinds and the position's
    face-down counts say, among the legal moves the engine calls useful (``RuleSet.useful``:
    not the stock turned over with nothing played since the last turn, not a whole pile into
    an empty one of its kind) that lead to none of the positions keyed in ``seen``, first of
    these that is not a plain undo of ``last``:

    1. a safe move to a foundation (``engine/safe.py``: nothing a player can foresee costs);
    2. a move that turns a face-down card up (the cards left in its pile are all face down);
    3. any other move to a foundation;
    4. a move that empties a pile onto a pile that has cards (room made);
    5. the stock (deal or turn it: new cards to play);
    6. any other legal move, in the engine's order.

    Only when every such move undoes ``last`` is one of them given (the first); none when no
    move is left (every useful move leads back to where the game has been)."""
    moves = fresh_moves(state, state.legal_moves() if legal is None else legal, seen)
    if not moves:
        return None
    fresh = [m for m in moves if not undoes(m, last)] or moves
    safe = safe_moves(state, fresh)
    if safe:
        return safe[0]
    return min(fresh, key=lambda m: _rank(state, m))  # min keeps the first of equals


def fresh_moves(st: State, legal: list[Move], seen: Collection[object]) -> list[Move]:
    """Of ``legal``, the useful moves to positions not keyed in ``seen``."""
    rules = st.rules
    moves = [m for m in legal if rules.useful(st, m)]
    if not seen:
        return moves
    key = key_maker(rules)
    st = st.copy()
    out = []
    for m in moves:
        st.push(m)
        if key(st) not in seen:
            out.append(m)
        st.pop()
    return out


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
