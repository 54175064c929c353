"""The depth-first search on a board (``board.py``), for the rule sets a board plays.

The same search as ``search.Search``, position for position: the same moves tried in the
same order (``Chooser.moves``, with the safe moves of ``engine/safe.py``), the same table
(the board's key is equal exactly when the engine's is), so the same verdicts, lines and
position counts; tests/engine/test_board_search.py holds the two to that. What differs is
what a position costs: the board lists, plays and keys in C where the state calls Python,
and it does not make the move straight back to the position before (``Choice.back``), which
the state's search makes only to find that position in its table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK
from ..core import PLAYING, WON, Move, State
from ..rules import CELL
from ..safe import laid_on, one_way, row_bits
from .board import DEAL, FOUNDATION_CODE, STOCK_CODE, STRIDE, WASTE_CODE, Board, Layout, playable
from .moves import DEAL as DEAL_RANK
from .moves import (
    EMPTIES,
    FROM_RESERVE,
    MOVE_RANKS,
    OTHER,
    REVEALS,
    SIDE_KINDS,
    TO_CELL,
    TO_FOUNDATION,
    Chooser,
    circled,
)
from .search import Progress, Search, scored
from .verdict import Outcome, Verdict

#: All 52 cards, one bit each.
ALL = (1 << 52) - 1


class Choice:
    """``Chooser.moves`` and ``engine/safe.py`` for a board: which moves a search tries from
    a position, in what order, as tables made once per search (the compiled build runs them
    in C). The safe moves judge from bit masks, one bit a card, as ``engine/safe.py`` does."""

    def __init__(self, chooser: Chooser) -> None:
        rules = chooser.rules
        count = len(rules.pile_kinds)
        kinds = rules.pile_kinds
        self.safe = chooser.safe
        self.follow = chooser.follow
        self.regroups = bytes(p in chooser.regrouping for p in range(count))
        self.narrow = chooser.narrow
        self.dropped = False
        self.turns_over = chooser.turns_over
        self.open_pass = chooser.open_pass
        self.talon = bool(chooser.talon)  # a stock dealing to wastes, where deals commute
        self.in_talon = bytes(p in chooser.talon for p in range(count))
        self.talon_sources = (bytes(chooser.talon_sources)
                              if chooser.talon_sources is not None else None)
        self.group_of = bytes(chooser.group_of.get(p, 255) for p in range(count))
        #: Per group of interchangeable piles, the empty pile that takes cards (``choose``),
        #: 255 between two calls; kept, so that a call makes none.
        self.empty = bytearray(b"\xff" * (max(chooser.group_of.values(), default=-1) + 1))
        self.ranked = bytearray(64)  # (``choose``: per move its rank; grown as needed)
        self.twin_of = bytes(chooser.twin_of.get(p, 255) for p in range(count))
        self.open_foundations = bytes(chooser.open_foundations)
        self.succ = chooser.succ
        self.columns = bytes(chooser.columns)
        self.side = bytes(kinds[p] in SIDE_KINDS for p in range(count))
        self.to_cell = bytes(kinds[p] == CELL for p in range(count))
        #: Per card: the cards that may lie on it in a pile other than a foundation.
        self.laid_on = [laid_on(rules, c) for c in range(52)]
        #: Per pile with a build, per card: what the pile takes with that card on top.
        self.rows = [[row_bits(g.build.rows[c]) for c in range(52)]
                     if g.build is not None else None for g in rules.pile_group]
        #: Per pile: whether it builds one way only, as a foundation with safe moves must.
        self.one_way = bytes(one_way(g) for g in rules.pile_group)
        self.kings = sum(1 << c for c in range(52) if RANK[c] == 13)
        self.ranks = [0] + [sum(1 << c for c in range(52) if RANK[c] == r) for r in range(1, 14)]

    def choose(self, board: Board, legal: Sequence[int], after_deal: cython.bint) -> list[int]:
        """``Chooser.moves`` on the board's moves: a safe move alone, else the moves worth
        trying, best first."""
        lay: Layout = board.layout
        size: cython.p_uchar = board.size
        kind: cython.p_uchar = lay.kind
        down: cython.p_uchar = board.down
        twin_of: cython.p_uchar = self.twin_of
        group_of: cython.p_uchar = self.group_of
        in_talon: cython.p_uchar = self.in_talon
        side: cython.p_uchar = self.side
        to_cell: cython.p_uchar = self.to_cell
        foundation: cython.Py_ssize_t = FOUNDATION_CODE
        deal: cython.Py_ssize_t = DEAL
        i: cython.Py_ssize_t
        m: cython.Py_ssize_t
        g: cython.Py_ssize_t
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        n: cython.Py_ssize_t
        left: cython.Py_ssize_t
        rank: cython.Py_ssize_t
        judge: cython.bint
        if self.succ is not None and self.stuck(board):
            return []
        if self.safe:
            judge = False  # a move to a foundation, and no foundation any card may start empty
            for m in legal:
                if m != deal and kind[(m >> 8) & 255] == foundation:
                    judge = True
                    break
            for i in self.open_foundations:
                if not size[i]:
                    judge = False
            if judge:
                safe = self.safe_moves(board, legal)
                if safe:
                    return safe[:1]
        talon: cython.bint = after_deal and self.talon
        empty: cython.p_uchar = self.empty
        count: cython.Py_ssize_t = len(legal)
        if len(self.ranked) < count:
            self.ranked = bytearray(2 * count)
        ranked: cython.p_uchar = self.ranked  # per move its rank, 255 if left out
        present: cython.Py_ssize_t = 0  # the ranks met, a bit each
        for i in range(count):
            m = legal[i]
            ranked[i] = 255
            if m == deal:
                if self.turns_over and not size[lay.stock_pile] and not (
                        board.vars[2] if board.has[2] else 1) and board.vars[1] > self.open_pass:
                    continue  # the stock turned over with nothing played since the last turn
                ranked[i] = DEAL_RANK
                present |= 1 << DEAL_RANK
                continue
            src, dst, n = m & 255, (m >> 8) & 255, m >> 16
            if talon and not in_talon[src] and not in_talon[dst]:
                continue  # mid-way through the stock: only the stock and its cards
            if not size[dst]:
                g = twin_of[dst]
                if g != 255 and twin_of[src] == g and n == size[src]:
                    continue  # only the pile's place changes
                g = group_of[dst]
                if g != 255:
                    if empty[g] == 255:
                        empty[g] = dst
                    elif empty[g] != dst:
                        continue  # another empty pile of the group already takes it
            left = size[src] - n
            if kind[dst] == foundation:
                rank = TO_FOUNDATION
            elif left and left == down[src]:
                rank = REVEALS
            elif to_cell[dst]:
                rank = TO_CELL
            elif side[src]:
                rank = FROM_RESERVE
            elif not left and size[dst]:
                rank = EMPTIES
            else:
                rank = OTHER
                if self.narrow:
                    self.dropped = True
                    continue
            ranked[i] = rank
            present |= 1 << rank
        for g in range(len(self.empty)):
            empty[g] = 255
        out: list[int] = []  # by rank, and in the listing's order within a rank
        for rank in range(MOVE_RANKS):
            if present >> rank & 1:
                for i in range(count):
                    if ranked[i] == rank:
                        out.append(legal[i])
        return out

    def stuck(self, board: Board) -> cython.bint:
        """``moves.stuck`` on the board's columns."""
        succ = self.succ
        if succ is None:
            return False
        on = bytearray(b"\xff" * 52)
        under = bytearray(b"\xff" * 52)
        above: cython.p_uchar = on
        below: cython.p_uchar = under
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        stride: cython.Py_ssize_t = STRIDE
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        for p in self.columns:
            for i in range(p * stride + 1, p * stride + size[p]):
                above[cards[i - 1]] = cards[i]
                below[cards[i]] = cards[i - 1]
        return bool(circled(on, under, succ))

    def back(self, board: Board, m: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Just after ``m`` was played: the move straight back to the position before, where
        it leads to that very position, which a search has in its table; else -1.

        So it does when ``m`` only moved its cards (one journal entry: nothing turned up or
        refilled, no var changed) and the way back only moves them again: it turns nothing
        up (the pile it leaves had its top card face up before ``m``) and refills nothing (a
        pile a reserve refills is never empty while the reserve has cards). Not where ``m``
        touched the stock or a waste: the way back would count cards played from the talon,
        and a position a deal led to, whose moves all touch the talon, is keyed apart from
        the same position reached otherwise."""
        if m == DEAL or board.used - board.marks[-1] != 8:
            return -1
        lay: Layout = board.layout
        kind: cython.p_uchar = lay.kind
        src: cython.Py_ssize_t = m & 255
        dst: cython.Py_ssize_t = (m >> 8) & 255
        stock: cython.Py_ssize_t = STOCK_CODE
        waste: cython.Py_ssize_t = WASTE_CODE
        if kind[src] in (stock, waste) or kind[dst] in (stock, waste):
            return -1
        return dst | src << 8 | (m >> 16) << 16

    def after_deal(self, board: Board) -> list[int] | None:
        """``Chooser.legal_after_deal``: the talon's useful moves alone."""
        if self.talon_sources is None or board.vars[1] <= self.open_pass:
            return None  # (the turn with nothing played is tried there: ``open_pass``)
        out: list[int] = []
        m: cython.Py_ssize_t
        for m in board.moves(self.talon_sources):
            if board.useful(m):
                out.append(m)
        return out

    def takes(self, board: Board, f: cython.Py_ssize_t) -> cython.ulonglong:
        """The cards foundation ``f`` takes now (``RuleSet._takes``), as bits."""
        lay: Layout = board.layout
        n: cython.Py_ssize_t = board.size[f]
        if lay.capacity[f] and n >= lay.capacity[f]:
            return 0
        if n:
            rows = self.rows[f]
            return 0 if rows is None else rows[board.cards[f * 52 + n - 1]]
        fill: cython.Py_ssize_t = lay.fill[f]
        if fill == 0:  # any
            return ALL
        if fill == 2:  # a King
            return self.kings
        if fill == 3:  # the base rank
            base: cython.Py_ssize_t = board.vars[0] if board.has[0] else 1
            return ALL if base == 0 else self.ranks[base]
        return 0

    def safe_moves(self, board: Board, legal: Sequence[int]) -> list[int]:
        """``safe_moves``: the safe foundation moves among ``legal``, one per source pile."""
        lay: Layout = board.layout
        kind: cython.p_uchar = lay.kind
        founded: cython.ulonglong = 0  # the cards on the foundations, one bit each
        one: cython.ulonglong = 1  # (so that the shifts are of 64 bits in C)
        foundation: cython.Py_ssize_t = FOUNDATION_CODE
        deal: cython.Py_ssize_t = DEAL
        f: cython.Py_ssize_t
        i: cython.Py_ssize_t
        m: cython.Py_ssize_t
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        for f in lay.foundations:
            for i in range(board.size[f]):
                founded |= one << board.cards[f * 52 + i]
        sources = bytearray(256)  # the piles a safe move was found from
        found: cython.p_uchar = sources
        out: list[int] = []
        for m in legal:
            if m == deal:
                continue
            src, dst = m & 255, (m >> 8) & 255
            if m >> 16 == 1 and kind[dst] == foundation and not found[src] and (
                    self.is_safe(board, src, dst, founded)):
                found[src] = 1
                out.append(m)
        return out

    def is_safe(self, board: Board, src: cython.Py_ssize_t, dst: cython.Py_ssize_t,
                founded: cython.ulonglong) -> cython.bint:
        lay: Layout = board.layout
        if not self.one_way[dst]:
            return False  # no build, or one that goes either way: which way is a choice
        rows = self.rows[dst]
        if self.regroups[src]:
            return False  # leaving early, the card would regroup the stock's later deals
        card: cython.Py_ssize_t = board.cards[src * 52 + board.size[src] - 1]
        if not board.size[dst] and ((board.has[0] and board.vars[0] == 0)
                                    or lay.fill[dst] == 0):
            return False  # the first card sets the base rank, or any card may start the pile
        # In 64 bits in C, as Python's numbers are: a shift of a C int is of 32.
        everything: cython.ulonglong = ALL
        one: cython.ulonglong = 1
        out: cython.ulonglong = everything & ~founded
        waiting: cython.ulonglong = self.laid_on[card]
        waiting &= out  # the cards still out that could be laid on it
        if waiting and not self.follow:
            return False
        before: cython.ulonglong = 0
        after: cython.ulonglong = 0
        row: cython.ulonglong
        own: cython.ulonglong = rows[card]
        f: cython.Py_ssize_t
        for f in lay.foundations:
            row = self.takes(board, f)
            before |= row
            after |= own if f == dst else row
        if before & out & ~(one << card) & ~after:
            return False  # a card the foundations take now would be shut out
        if not waiting:
            return True
        if board.has[0] and board.vars[0] == 0:
            return False  # an empty foundation takes any card until the base is chosen
        return not (waiting & ~self.followers(founded | (one << card), after))

    def followers(self, home: cython.ulonglong, takes: cython.ulonglong) -> cython.ulonglong:
        """``engine/safe.py`` ``followers``: of the cards the foundations take, the largest set
        each of whose cards has only cards of the set, or home, to lie on it."""
        one: cython.ulonglong = 1
        spare: cython.ulonglong = takes & ~home
        keep: cython.ulonglong
        on: cython.ulonglong
        c: cython.Py_ssize_t
        while True:
            keep = spare
            for c in range(52):
                if keep >> c & 1:
                    on = self.laid_on[c]
                    if on & ~home & ~keep:
                        keep &= ~(one << c)
            if keep == spare:
                return spare
            spare = keep


class BoardSearch(Search):
    """``Search`` played on a board: the same search, a position at a time in C."""

    #: A look at the clock costs about what a position on a board does, and no position
    #: costs much more: one look in 16 positions.
    clock_every = 16

    def __init__(self, st: State, progress: Progress | None, narrow: bool = False) -> None:
        super().__init__(st, progress, narrow)
        self.board = Board(self.st, ask=False)  # (``Board.legal``)
        self.choice = Choice(self.chooser)
        # The stack, a frame a position on the line: its moves to try, how many of them
        # were tried, and the move straight back to the position before (``Choice.back``),
        # which is in the table and so not tried. Three lists rather than a tuple a frame:
        # a frame changes with each move tried, and a new tuple each time cost more.
        self.frames: list[list[int]] | None = None
        self.tried: list[int] = []
        self.backs: list[int] = []

    def line(self) -> tuple[Move, ...]:
        """The moves from the start to the board's position: each frame's move played."""
        return tuple(Board.decode(moves[i - 1])
                     for moves, i in zip(self.frames or [], self.tried, strict=True))

    def run(self, cap: int | None = None, deadline: float | None = None,
            offset: int = 0) -> Verdict:
        board: Board = self.board
        choice: Choice = self.choice
        seen: set[object] = self.seen
        talon: cython.bint = choice.talon
        deal: cython.Py_ssize_t = DEAL
        if self.frames is None:
            seen.add(board.key())
            moves, status = board.legal()
            if status == WON:
                return self.verdict(Outcome.WON, self.line())
            self.frames = [choice.choose(board, moves, False)]
            self.tried = [0]
            self.backs = [-1]
        frames: list[list[int]] = self.frames
        tried: list[int] = self.tried
        backs: list[int] = self.backs
        limit: cython.Py_ssize_t = -1 if cap is None else cap
        every: cython.Py_ssize_t = self.clock_every
        ticks: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        move: cython.Py_ssize_t
        back: cython.Py_ssize_t
        known: cython.Py_ssize_t
        dealt: cython.bint
        mine: list[int]
        while frames:
            if limit >= 0 and len(seen) >= limit:
                return self.out_of_budget()
            ticks += 1
            if ticks == every:
                ticks = 0
                if self.late(deadline, offset):
                    return self.out_of_budget()
            mine = frames[-1]
            i = tried[-1]
            if i == len(mine):
                frames.pop()
                tried.pop()
                backs.pop()
                if frames:
                    board.undo()
                continue
            tried[-1] = i + 1
            move = mine[i]
            back = backs[-1]
            if move == back:
                continue
            board.play(move)
            dealt = talon and move == deal
            k: object = (board.key(), True) if dealt else board.key()
            known = len(seen)
            seen.add(k)  # one look in the table: a position met before leaves it as it was
            if len(seen) == known:
                board.undo()
                continue
            quick = choice.after_deal(board) if dealt else None
            if quick is not None:
                frames.append(choice.choose(board, quick, True))
                tried.append(0)
                backs.append(-1)  # a deal has no way back
                continue
            moves, status = board.legal()
            if status != PLAYING:
                if status == WON:
                    return self.verdict(Outcome.WON, self.line())
                board.undo()
                continue
            frames.append(choice.choose(board, moves, dealt))
            tried.append(0)
            backs.append(choice.back(board, move))  # (the journal still ends with ``move``)
        self.chooser.dropped = choice.dropped
        return self.exhausted()


def searcher(st: State, progress: Progress | None, narrow: bool = False) -> Search:
    """The depth-first search for ``st``: on a board where one plays its rule set (a game
    played to a win), else on the state."""
    if playable(st) and not scored(st):
        return BoardSearch(st, progress, narrow)
    return Search(st, progress, narrow)


__all__ = ["BoardSearch", "Choice", "searcher"]
