"""A board for cards slid into the gaps of a grid (``RuleSet.gap_rule``: Gaps), in C.

Such a rule set lists and plays its moves by hooks of its own, so no ``Board`` plays it by
the shared rules; but its moves are declared (``rules.GapRule``): a gap takes the card that
lies on its left neighbour by the declared build (and, where declared, the card its right
neighbour lies on), a card of the start rank in a row's first cell stays, and a row is built
when it runs from that rank across all its cells but the last. A ``GapBoard`` lists those
moves, in the order the rule set lists them, and judges the win in loops the compiled build
runs in C; a card slid is a move from cell to cell, which a ``Board`` plays and takes back.
The redeal (``REDEAL``, shuffled by the seed) is the rule set's own: the board plays it
through a state made of its position and keeps the position before it whole, to take it
back. tests/engine/test_gap_board.py holds it to the engine at every position of random
games, as tests/engine/test_board.py does a ``Board``.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK
from ..core import REDEAL, Move, State
from ..options import Kind
from ..piles import GapRule
from ..rules import RuleSet
from .board import EXTRA, STRIDE, Board, Layout

#: The redeal as a move: the first number of a rule set's own kind.
REDEAL_CODE = EXTRA
#: A journal entry: the position before the move is kept whole (``GapBoard.kept``).
KEPT = 4
NONE = 255


def gapped(rules: RuleSet) -> bool:
    """Whether a ``GapBoard`` plays ``rules``: its moves are cards slid into a grid's gaps
    (``RuleSet.gap_rule``), and its one other pile holds what is out of play."""
    rule = rules.gap_rule
    if rule is None or rules.players != (1, 1) or rules.stock is not None:
        return False
    grid = rules.by_kind.get(Kind.GRID, [])
    g = rules.pile_group[grid[0]] if grid else None
    return (g is not None and g.columns > 0 and len(grid) % g.columns == 0
            and grid == list(range(len(grid))) and len(rules.pile_kinds) <= len(grid) + 1)


def neighbours(rule: GapRule) -> tuple[bytes, bytes]:
    """Per card, the card that lies on it in a row by the rule's build, and the card it lies
    on (``NONE``: none)."""
    table = rule.build.table
    after = bytearray(b"\xff" * 52)
    before = bytearray(b"\xff" * 52)
    for u in range(52):
        for o in range(52):
            if table[u * 52 + o]:
                after[u] = o if after[u] == NONE else after[u]
                before[o] = u if before[o] == NONE else before[o]
    return bytes(after), bytes(before)


def playable(st: State) -> bool:
    """Whether a ``GapBoard`` plays ``st``: its rule set is ``gapped``, the state keeps no var
    the board does not (a resignation), and it counts its redeals where it has any (a
    position set up by hand may not: a redeal would start the count)."""
    rule = st.rules.gap_rule
    return (gapped(st.rules) and set(st.vars) <= set(Layout(st.rules, strict=False).names)
            and (rule is None or not rule.redeals or "redeals" in st.vars))


class GapBoard(Board):
    """A position of a ``gapped`` rule set as bytes: list, play and take back its moves."""

    def __init__(self, st: State, layout: Layout | None = None, ask: bool = True) -> None:
        rules = st.rules
        if not gapped(rules):
            raise ValueError(f"{rules.key} slides no cards into gaps: no gap board plays it")
        if not playable(st):
            raise ValueError("a gap board keeps the shared vars and a count of redeals alone")
        Board.__init__(self, st, layout or Layout(rules, strict=False), ask)
        self.ask = False  # every move into a gap is useful: the status needs no search
        rule = rules.gap_rule
        assert rule is not None
        grid = rules.by_kind[Kind.GRID]
        self.cells = len(grid)
        self.columns = rules.pile_group[grid[0]].columns
        after, before = neighbours(rule)
        self.after = after
        self.before = before if rule.before else bytes(b"\xff" * 52)
        self.start = rule.start
        self.redeals = rule.redeals
        self.rank = bytes(RANK)
        self.where = bytearray(52)  # (``moves``: per card its cell, NONE if out of the grid)
        self.seed = st.seed
        self.competitive = st.competitive
        self.redeal = Move(REDEAL)
        #: Per redeal played and not taken back, the position before it (``pack``).
        self.kept: list[bytes] = []

    # ----- moves ------------------------------------------------------------------------

    def move_of(self, m: cython.Py_ssize_t) -> Move:
        return self.redeal if m == REDEAL_CODE else Board.decode(m)

    def code_of(self, m: Move) -> int:
        return REDEAL_CODE if m.kind == REDEAL else Board.encode(m)

    def moves(self, sources: bytes | None = None) -> list[int]:
        """The cards each gap takes, gap by gap in the grid's order: the card on its left
        neighbour, then the card under its right; then the redeal while one is left
        (``sources``: all of them, whatever is asked)."""
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        where: cython.p_uchar = self.where
        after: cython.p_uchar = self.after
        before: cython.p_uchar = self.before
        rank: cython.p_uchar = self.rank
        stride: cython.Py_ssize_t = STRIDE
        cells: cython.Py_ssize_t = self.cells
        columns: cython.Py_ssize_t = self.columns
        start: cython.Py_ssize_t = self.start
        none: cython.Py_ssize_t = NONE
        gap: cython.Py_ssize_t
        col: cython.Py_ssize_t
        side: cython.Py_ssize_t
        c: cython.Py_ssize_t
        src: cython.Py_ssize_t
        out: list[int] = []
        for c in range(52):
            where[c] = none
        for gap in range(cells):
            if size[gap]:
                where[cards[gap * stride]] = gap
        for gap in range(cells):
            if size[gap]:
                continue
            col = gap % columns
            for side in range(2):
                c = none
                if side == 0 and col and size[gap - 1]:
                    c = after[cards[(gap - 1) * stride]]
                elif side == 1 and col < columns - 1 and size[gap + 1]:
                    c = before[cards[(gap + 1) * stride]]
                if c == none:
                    continue
                src = where[c]
                if src != none and (src % columns or rank[c] != start):
                    out.append(src | gap << 8 | 1 << 16)
        if self.has[3] and self.vars[3] < self.redeals:
            out.append(REDEAL_CODE)
        return out

    def useful(self, m: cython.Py_ssize_t) -> cython.bint:
        """Every move changes the rows (``GapRule``)."""
        return True

    def redeal_ahead(self) -> cython.bint:
        return bool(self.has[3] and self.vars[3] < self.redeals)

    def won(self) -> cython.bint:
        """Every row runs from the start rank by the build across all its cells but the
        last."""
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        after: cython.p_uchar = self.after
        rank: cython.p_uchar = self.rank
        stride: cython.Py_ssize_t = STRIDE
        columns: cython.Py_ssize_t = self.columns
        g: cython.Py_ssize_t
        n: cython.Py_ssize_t
        for g in range(0, self.cells, columns):
            if not size[g] or rank[cards[g * stride]] != self.start:
                return False
            for n in range(g + 1, g + columns - 1):
                if not size[n] or cards[n * stride] != after[cards[(n - 1) * stride]]:
                    return False
        return True

    # ----- playing ----------------------------------------------------------------------

    def play(self, m: cython.Py_ssize_t) -> None:
        """A card slid, as a ``Board`` plays it; the redeal through the rule set's own
        ``apply_extra``, on a state made of the position (a few per line at most)."""
        if m != REDEAL_CODE:
            Board.play(self, m)
            return
        lay: Layout = self.layout
        self.kept.append(self.pack())
        self.marks.append(self.used)
        st = State(lay.rules, self.seed, self.piles(), list(self.down), self.var_dict(),
                   self.competitive)
        st.push(self.redeal)
        cards: cython.p_uchar = self.cards
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        for p in range(lay.count):
            pile = st.piles[p]
            for i in range(len(pile)):
                cards[p * STRIDE + i] = pile[i]
            self.size[p] = len(pile)
            self.down[p] = st.down[p]
        for i, name in enumerate(lay.names):
            if self.has[i]:
                self.vars[i] = st.vars[name]
        self.entry(KEPT, 0)

    def undo(self) -> None:
        mark: cython.Py_ssize_t = self.marks[-1]
        if self.journal[mark] != KEPT:
            Board.undo(self)
            return
        marks = self.marks
        self.marks = []  # (``unpack`` starts a journal afresh: this one goes on)
        Board.unpack(self, self.kept.pop())
        marks.pop()
        self.marks = marks
        self.used = mark

    def unpack(self, packed: bytes) -> None:
        Board.unpack(self, packed)
        self.kept.clear()

    def way_back(self, m: cython.Py_ssize_t) -> cython.Py_ssize_t:
        return -1 if m == REDEAL_CODE else Board.way_back(self, m)


__all__ = ["REDEAL_CODE", "GapBoard", "gapped", "playable"]
