"""A board for the rule sets whose own moves remove cards alone or in pairs (Pyramid).

Such a rule set lists and plays its removals by hooks of its own, which a ``Board`` does not
know, so the searches played it through the engine's state. It declares them instead
(``RuleSet.pair_rule``, a ``PairRule``): which piles cards leave from, which piles cover which
(``covered_by``), the total a pair makes, how the stock deals. A ``PairBoard`` lists those
moves and plays them in C: a removal is one card, or two, moved to the discard pile, which
it plays and takes back as a ``Board`` moves cards. tests/engine/test_pair_board.py holds it
to the engine at every position of random games, and its searches to those through the
state.

A removal is ``EXTRA | a | b << 8 | k << 16``: ``k`` cards, from pile ``a`` (and ``b``).
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK
from ..core import REMOVE, Move, State
from ..options import Deals, Kind, Scoring
from ..rules import RuleSet
from .board import DEAL, EXTRA, STRIDE, VARS, Board, Layout

NONE = 255


def paired(rules: RuleSet) -> bool:
    """Whether a ``PairBoard`` plays ``rules``: its own moves remove cards alone or in pairs
    (``RuleSet.pair_rule``) to its one foundation, a discard pile; no card moves from pile to
    pile; no pile is covered by more than two; the stock, if any, deals one card at a time,
    once through, to its wastes (two, where the first's card moves on: ``shift``)."""
    pairs = rules.pair_rule
    if (pairs is None or rules.players != (1, 1) or rules.scoring == Scoring.POINTS
            or not rules.discard or rules.sources or rules.refilled
            or any(len(over) > 2 for over in rules.covered_by().values())):
        return False
    stock = rules.stock
    wastes = rules.by_kind.get(Kind.WASTE, [])
    return stock is None or (stock.to == Deals.WASTE and stock.draw == 1 and stock.passes == 1
                             and len(wastes) == (2 if pairs.shift else 1))


def playable(st: State) -> bool:
    """Whether a ``PairBoard`` plays ``st``: its rule set is ``paired``, and the state keeps
    no var the shared rules do not (a resignation)."""
    return paired(st.rules) and set(st.vars) <= set(VARS)


class PairBoard(Board):
    """A position of a ``paired`` rule set as bytes: list, play and take back its moves."""

    def __init__(self, st: State, layout: Layout | None = None, ask: bool = True) -> None:
        rules = st.rules
        if not paired(rules):
            raise ValueError(f"{rules.key} removes no pairs: no pair board plays it")
        if not playable(st):
            raise ValueError("a pair board keeps the shared vars alone")
        Board.__init__(self, st, layout or Layout(rules, strict=False), ask)
        self.ask = False  # every removal is useful: the status needs no search
        pairs = rules.pair_rule
        assert pairs is not None
        self.total = pairs.total
        self.shift = pairs.shift
        kinds = pairs.kinds
        covers = rules.covered_by()
        self.removable = bytes(p for p, k in enumerate(rules.pile_kinds) if k in kinds)
        #: Per removable pile, the two piles that lie over it (``NONE``: no such pile).
        over = [(*covers.get(p, ()), NONE, NONE)[:2] for p in self.removable]
        self.over1 = bytes(o[0] for o in over)
        self.over2 = bytes(o[1] for o in over)
        self.foundation = rules.by_kind[Kind.FOUNDATION][0]
        self.rank = bytes(RANK)
        self.free = bytearray(len(self.removable))  # (``moves``: the piles free now)
        self.decoded: dict[int, Move] = {}  # each removal met, as the engine's ``Move``

    # ----- moves ------------------------------------------------------------------------

    def move_of(self, m: cython.Py_ssize_t) -> Move:
        if m < EXTRA:
            return Board.decode(m)
        got = self.decoded.get(m)
        if got is None:
            a: int = m & 255
            b: int = (m >> 8) & 255
            got = self.decoded[m] = Move(REMOVE, piles=(a,) if (m >> 16) & 255 == 1 else (a, b))
        return got

    def code_of(self, m: Move) -> int:
        if m.kind != REMOVE:
            return Board.encode(m)
        if len(m.piles) == 1:
            return EXTRA | m.piles[0] | 1 << 16
        return EXTRA | m.piles[0] | m.piles[1] << 8 | 2 << 16

    def moves(self, sources: bytes | None = None) -> list[int]:
        """The stock's deal while it has cards; then each free top card of rank ``total``
        alone, then each two free top cards that add up to it, in pile order (every move,
        whatever ``sources`` asks: the engine lists its own moves whatever it is asked)."""
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        rank: cython.p_uchar = self.rank
        removable: cython.p_uchar = self.removable
        over1: cython.p_uchar = self.over1
        over2: cython.p_uchar = self.over2
        free: cython.p_uchar = self.free
        stride: cython.Py_ssize_t = STRIDE
        total: cython.Py_ssize_t = self.total
        none: cython.Py_ssize_t = NONE
        extra: cython.Py_ssize_t = EXTRA
        count: cython.Py_ssize_t = len(self.removable)
        nfree: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        p: cython.Py_ssize_t
        q: cython.Py_ssize_t
        r: cython.Py_ssize_t
        o: cython.Py_ssize_t
        out: list[int] = []
        if self.can_deal():
            out.append(DEAL)
        for i in range(count):
            p = removable[i]
            if not size[p] or down[p] >= size[p]:
                continue
            o = over1[i]
            if o != none and size[o]:
                continue
            o = over2[i]
            if o != none and size[o]:
                continue
            free[nfree] = p
            nfree += 1
        for i in range(nfree):
            p = free[i]
            if rank[cards[p * stride + size[p] - 1]] == total:
                out.append(extra | p | 1 << 16)
        for i in range(nfree):
            p = free[i]
            r = total - rank[cards[p * stride + size[p] - 1]]
            for j in range(i + 1, nfree):
                q = free[j]
                if rank[cards[q * stride + size[q] - 1]] == r:
                    out.append(extra | p | q << 8 | 2 << 16)
        return out

    def useful(self, m: cython.Py_ssize_t) -> cython.bint:
        """Every removal takes cards out for good; the deal as the shared rules judge it."""
        return True if m >= EXTRA else Board.useful(self, m)

    def costless(self, m: cython.Py_ssize_t) -> cython.bint:
        """``Matching.costless``: a card that leaves alone makes the total by itself, so no
        card pairs with it (its partner would be of rank 0), and its removal never costs a
        win."""
        return m >= EXTRA and (m >> 16) & 255 == 1

    # ----- playing ----------------------------------------------------------------------

    def play(self, m: cython.Py_ssize_t) -> None:
        """A removal: its cards moved to the discard pile, in the move's pile order."""
        if m < EXTRA:
            Board.play(self, m)
            return
        f: cython.Py_ssize_t = self.foundation
        self.marks.append(self.used)
        self.move_cards(m & 255, f, 1)
        if (m >> 16) & 255 == 2:
            self.move_cards((m >> 8) & 255, f, 1)
        self.turn_tops()

    def deal(self) -> None:
        """One card from the stock onto the first waste; with ``shift``, the card there onto
        the second first (the rule set's ``apply_stock``)."""
        lay: Layout = self.layout
        w: cython.Py_ssize_t = lay.wastes[0]
        if self.shift and self.size[w]:
            self.move_cards(w, lay.wastes[1], 1)
        self.move_cards(lay.stock_pile, w, 1)

    def way_back(self, m: cython.Py_ssize_t) -> cython.Py_ssize_t:
        return -1 if m >= EXTRA else Board.way_back(self, m)


__all__ = ["PairBoard", "paired", "playable"]
