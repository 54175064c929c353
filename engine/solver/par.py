"""Par: a winning line made short, for the daily deal's par (docs/daily.md, Par).

A search returns the first winning line it finds, and depth first finds long ones: it wanders
(a run moved and moved again, the stock gone round for a card it could have taken sooner)
before the line that wins. Par is that line made short, in two passes, repeated while the
line gets shorter:

- ``detours``: where the line comes back to a position it was at, the moves between go;
- ``shortcuts``: from each position of the line (but one that a later position is already
  reached as soon as), every line of up to ``DEPTH`` moves is tried; where one reaches a
  later position of the line in fewer moves than the line takes there, or wins, the
  shortest way through the line's positions and those shortcuts is taken. A line too long
  for that within the positions left (``SPREAD``) is first cut by shortcuts of one move,
  which cost a position per move rather than per move squared.

Positions are compared exactly (every pile in its place: the moves after a shortcut name
piles), but for the pass count of a stock gone through without limit, which only counts.
Every line is replayed to a win before it is kept. The work is bounded by a count of
positions, never by seconds, so par is the same on every machine (docs/fairness.md). It
plays on the searches' boards (``board_of``: a ``Board`` that asks the rule set's own end
rule, a ``GapBoard``, a ``PairBoard``, a ``BeatenBoard``, or a ``StateBoard``), in C where a
board plays the rule set.
"""

from __future__ import annotations

from ..core import PLAYING, WON, Move, State
from . import gap_board, pair_board
from .board import Board, playable
from .position import endless
from .state_board import StateBoard

#: Moves a shortcut may have.
DEPTH = 2
#: Positions the shortcuts may try in all, for one line.
POSITIONS = 200_000
#: One-move shortcuts go first where a pass of two-move ones would try more than ``SPREAD``
#: times the positions left (``reach``): it would spend them all on the line's first few dozen
#: positions (a hint's Scorpion line of 4,195 moves, 20,000 positions: 4,193 moves with
#: two-move passes alone, 159 so). Below that a two-move pass skips enough of them to reach
#: the line's end, and its shortcuts make the shorter line.
SPREAD = 50

def board_of(start: State) -> Board:
    """The board par plays ``start`` on, with the engine's own status at every position: a
    ``Board`` that asks the rule set's own end rule where one plays it, a ``GapBoard``, a
    ``PairBoard`` or a ``BeatenBoard`` (whose status asks nothing: every move of the first
    two is useful, the last's end rule is the shared one), else a ``StateBoard``."""
    if playable(start):
        return Board(start.copy())
    if gap_board.playable(start):
        return gap_board.GapBoard(start.copy())
    discarding = pair_board.discard_board(start)
    return discarding if discarding is not None else StateBoard(start)


def wins(start: State, moves: list[Move] | tuple[Move, ...]) -> bool:
    """Do ``moves`` replay from ``start`` to a win? (Illegal moves: no.)"""
    st = start.copy()
    try:
        for m in moves:
            st.play(m)
    except ValueError:  # IllegalMove
        return False
    return st.status == WON


def detours(start: State, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """The line from ``start`` without its detours: wherever it comes back to a position it
    was at before, the moves between are dropped (one replay)."""
    uncounted = endless(start.rules)
    board = board_of(start)
    at: dict[bytes, int] = {board.exact(uncounted): 0}
    out: list[Move] = []
    for m in moves:
        board.play(board.code_of(m))
        out.append(m)
        k = board.exact(uncounted)
        if k in at:  # back where the line was after at[k] moves: drop the loop
            del out[at[k]:]
            at = {key: i for key, i in at.items() if i <= len(out)}
        else:
            at[k] = len(out)
    return tuple(out)


def shortcuts(start: State, moves: tuple[Move, ...], positions: int,
              depth: int = DEPTH) -> tuple[tuple[Move, ...], int]:
    """The shortest way through the line's positions and the shortcuts of up to ``depth``
    moves found from them (module docstring), and the positions left of ``positions``.
    Starts are taken in the line's order until the positions run out; what was found by then
    still counts."""
    uncounted = endless(start.rules)
    board = board_of(start)
    codes = [board.code_of(m) for m in moves]
    keys = [board.exact(uncounted)]
    for c in codes:
        board.play(c)
        keys.append(board.exact(uncounted))
    for _ in codes:
        board.undo()
    where = {k: j for j, k in enumerate(keys)}
    n = len(moves)
    # best[j]: the fewest moves known to position j of the line; way[j]: from where, how.
    best = list(range(n + 1))
    way: list[tuple[int, tuple[int, ...]]] = [(j - 1, tuple(codes[j - 1:j]))
                                              for j in range(n + 1)]
    for i in range(n):
        if best[i] + 1 < best[i + 1]:
            best[i + 1], way[i + 1] = best[i] + 1, (i, (codes[i],))
        found: dict[bytes, int] = {keys[i]: 0}  # each position reached from i, fewest moves
        # Not from a position that a later one is already reached as soon as: its shortcuts
        # would seldom beat that one's, and the positions go further elsewhere (a Scorpion
        # line of 1,108 moves: par 922 trying every position, 74 so).
        ahead = positions > 0 and min(best[i + 1:]) > best[i]
        stack: list[tuple[int, ...]] = [()] if ahead else []
        while stack and positions > 0:  # every line of up to `depth` moves from position i
            path = stack.pop()
            for m in path:
                board.play(m)
            legal, status = board.legal()
            if status == PLAYING:
                for m in legal:
                    board.play(m)
                    positions -= 1
                    k = board.exact(uncounted)
                    d = len(path) + 1
                    if found.get(k, depth + 1) > d:
                        found[k] = d
                        j = n if board.is_won() else where.get(k, -1)
                        if j > i and best[i] + d < best[j]:
                            best[j], way[j] = best[i] + d, (i, (*path, m))
                        if d < depth:
                            stack.append((*path, m))
                    board.undo()
            for _ in path:
                board.undo()
        board.play(codes[i])
    out: list[int] = []
    j = n
    while j > 0:
        i, step = way[j]
        out[:0] = step
        j = i
    return tuple(board.move_of(m) for m in out), positions


def reach(start: State, moves: tuple[Move, ...]) -> int:
    """The positions a pass of two-move shortcuts would try from every position of the line:
    the square of each one's count of moves."""
    board = board_of(start)
    tries = 0
    for m in moves:
        tries += len(board.legal()[0]) ** 2
        board.play(board.code_of(m))
    return tries


def par_line(start: State, moves: tuple[Move, ...],
             positions: int = POSITIONS) -> tuple[Move, ...]:
    """``moves``, a line that wins from ``start``, made short (module docstring): never
    longer, and replayed to a win."""
    line = moves
    while True:
        cut = detours(start, line)
        if len(cut) < len(line) and wins(start, cut):
            line = cut
        long = positions > 0 and reach(start, line) > SPREAD * positions
        for depth in (1, DEPTH) if long else (DEPTH,):
            if positions <= 0:
                return line
            short, positions = shortcuts(start, line, positions, depth)
            if len(short) < len(line) and wins(start, short):
                line = short
                break
        else:
            return line


__all__ = ["DEPTH", "POSITIONS", "SPREAD", "detours", "par_line", "reach", "shortcuts", "wins"]
