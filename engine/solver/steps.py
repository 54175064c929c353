# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The step search's position and its depth-first search (``step_rules.py`` says which rule
sets it plays, and makes the engine's moves of its lines).

A position is known by its **key**: the foundations' heights, how many cards of each column
are still face down (with the card turned up on them, which never moves but to turn up the
next), and the stock's cards left with where the deal stands, in 64 bits. The face-up cards
of the columns are not in it: where the step search applies, how they are arranged never
decides whether a position can be won (docs/solver.md, The step search). Here they are a
count per card *type* (``nvis``, ``nocc``), which is all a step asks of them.

A **step** is a move that changes the key: a card home (from a column, or from the stock by
as many deals as it takes), the run on a face-down card moved onto a card that takes it
(turning that card up), a card from the stock onto a column. Each makes progress, so the
positions form no cycle and a search ends.

The same source runs as Python and, compiled by Cython (docs/solver.md "Compiled"), in C.
"""

from __future__ import annotations

import array
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

if TYPE_CHECKING:
    from .step_rules import Plan

#: The kinds of step, in the low four bits of a step's code; the card, column or stock
#: place it names above them.
HOME = 0
TURN = 1
DRAW_HOME = 2
DRAW_PLACE = 3
REDEAL = 4
#: The kinds as Python sees them (the names above are C constants in the compiled build).
KINDS = (HOME, TURN, DRAW_HOME, DRAW_PLACE, REDEAL)
#: No type (a King has no parent, an Ace no child).
NONE = 255
NO_TYPE = NONE
#: The deepest line: every step plays a card home, turns one up or plays one from the stock.
DEPTH = 160
#: Steps a position has at most: a home per suit, a turn-up per column, two per stock card.
WIDTH = 96
#: Positions between two looks at the clock.
CLOCK = 4096
#: Seconds between two progress reports.
REPORT_EVERY = 1.0
MASK64 = (1 << 64) - 1
#: Per card: its suit and rank (``engine/cards.py``: ``suit * 13 + rank - 1``).
SUITS = bytes(c // 13 for c in range(52))


class Steps:
    """A position of the step search (its key's parts, kept up to date step by step), and
    the search from it: ``run`` searches, ``line`` is the winning line of steps."""


    def __init__(self, p: Plan, columns: list[list[int]], downs: list[int], home: list[int],
                 dealt: list[int], cur: int, flag: bool) -> None:
        """A position from its parts: each column's cards (bottom first) and face-down
        count, the cards on the foundations, the stock's cards in the order a pass deals
        them with ``cur`` of them in the waste, and ``flag`` (``redeal_ok``)."""
        self.plan = p
        n = self.ncols = len(columns)
        self.tid, self.ptid, self.ktid, self.kings = p.tid, p.ptid, p.ktid, p.kings
        self.suits = SUITS
        self.kids = array.array("Q", p.kids)
        self.nvis = bytearray(p.types)  # per type: cards face up in the columns
        self.nocc = bytearray(p.types)  # per type: of those, cards lying on a card
        self.vis = self.lock = self.home = 0
        self.nlocked = self.nkings = 0
        #: Per column: the face-down cards and the card turned up on them, bottom first, and
        #: how many are left (0: none, or a King alone under its run); per card, its column.
        self.seq = bytearray(n * 52)
        self.k = bytearray(n)
        self.colof = bytearray(b"\xff" * 52)
        self.weight = array.array("Q", bytes(8 * n))
        self.heights = bytearray(4)
        self.done = 0  # cards home
        w = 1
        for i in range(n):
            pile, down = columns[i], downs[i]
            self.weight[i] = w
            k = 0
            if pile:
                k = down + 1
                if k == 1 and self.kings[pile[0]]:
                    k = 0
                for j in range(k):
                    self.seq[i * 52 + j] = pile[j]
                    self.colof[pile[j]] = i
                self.k[i] = k
                for j in range(down, len(pile)):
                    self.show(pile[j], j == down and k > 0)
            w *= k + 1
        self.hidden_bits = (w - 1).bit_length()
        for c in home:
            self.home |= 1 << c
            self.heights[SUITS[c]] += 1
            self.done += 1
        self.ndeck = self.dlen = len(dealt)
        self.deck = bytearray(64)  # the stock's cards left, in the order a pass deals them
        self.orig = bytearray(64)  # each one's place among the cards the search began with
        self.places = bytearray(64)  # (``generate``: the stock places ``reachable`` found)
        for i in range(self.dlen):
            self.deck[i] = dealt[i]
            self.orig[i] = i
        self.cur = cur
        self.dmask = (1 << self.dlen) - 1
        self.draw = p.draw
        self.cycling = p.passes == 0
        #: Mid-pass with nothing played since the last turn: the stock may be turned over
        #: again only while a move is useful (``redeal_ok``).
        self.flag = flag
        self.follow = p.follow
        self.deck_shift = 16 + self.hidden_bits
        self.off_shift = self.deck_shift + self.ndeck
        #: Whether the key fits in 64 bits (a standard deal's takes 61).
        self.fits = self.off_shift + 5 <= 64 and self.ndeck < 64
        self.hidden_key = sum(self.k[i] * self.weight[i] for i in range(n))
        # The table: open addressing, each key plus one (0: empty).
        self.size = 1 << 12
        self.table = array.array("Q", bytes(8 * self.size))
        self.count = 0
        # The stack: per depth the steps to try, how many, the next; the step played and
        # what undoing it needs.
        self.steps = array.array("i", bytes(4 * DEPTH * WIDTH))
        self.nsteps = array.array("i", bytes(4 * DEPTH))
        self.next = array.array("i", bytes(4 * DEPTH))
        self.played = array.array("i", bytes(4 * DEPTH))
        self.undo1 = array.array("i", bytes(4 * DEPTH))
        self.depth = 0
        self.positions = 0
        self.progress: Callable[[int, float], None] | None = None

    def card_at(self, j: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The card at place ``j`` of the stock's order."""
        return self.deck[j]

    # ----- the columns' face-up cards, counted by type ------------------------------------

    def show(self, c: cython.Py_ssize_t, locked: cython.bint) -> None:
        """Card ``c`` face up in a column: on a face-down card (``locked``), or not."""
        one: cython.ulonglong = 1
        self.vis |= one << c
        self.nvis[self.tid[c]] += 1
        if locked:
            self.lock |= one << c
            self.nlocked += 1
        elif self.kings[c]:
            self.nkings += 1
        else:
            self.nocc[self.tid[c]] += 1

    def hide(self, c: cython.Py_ssize_t) -> None:
        """Card ``c`` out of the columns (``show`` taken back)."""
        one: cython.ulonglong = 1
        bit: cython.ulonglong = one << c
        self.vis &= ~bit
        self.nvis[self.tid[c]] -= 1
        if self.lock & bit:
            self.lock &= ~bit
            self.nlocked -= 1
        elif self.kings[c]:
            self.nkings -= 1
        else:
            self.nocc[self.tid[c]] -= 1

    def unlock(self, c: cython.Py_ssize_t) -> None:
        one: cython.ulonglong = 1
        self.lock &= ~(one << c)
        self.nlocked -= 1
        if self.kings[c]:
            self.nkings += 1
        else:
            self.nocc[self.tid[c]] += 1

    def relock(self, c: cython.Py_ssize_t) -> None:
        one: cython.ulonglong = 1
        self.lock |= one << c
        self.nlocked += 1
        if self.kings[c]:
            self.nkings -= 1
        else:
            self.nocc[self.tid[c]] -= 1

    def room(self, c: cython.Py_ssize_t) -> cython.bint:
        """Whether a card that takes ``c`` lies free on top of a column (an empty column,
        for a King): counted by type, so the same in every arrangement."""
        if self.kings[c]:
            return self.ncols - self.nlocked - self.nkings > 0
        return self.nvis[self.ptid[c]] > self.nocc[self.tid[c]]

    def free(self, c: cython.Py_ssize_t) -> cython.bint:
        """Whether face-up ``c`` can be made a column's top card: some card of its type has
        nothing on it (then the run on ``c``, if any, moves onto that one)."""
        kt: cython.Py_ssize_t = self.ktid[c]
        if kt == NONE:
            return True
        return self.nvis[self.tid[c]] > self.nocc[kt]

    def turn(self, i: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The card on column ``i``'s face-down cards has left: turn up the next. Returns
        what undoing it needs (the old count)."""
        old: cython.Py_ssize_t = self.k[i]
        k: cython.Py_ssize_t = old - 1
        c: cython.Py_ssize_t
        if k >= 1:
            c = self.seq[i * 52 + k - 1]
            if k == 1 and self.kings[c]:
                k = 0  # a King with nothing under it: like any King on an empty column
                self.show(c, False)
            else:
                self.show(c, True)
        self.k[i] = k
        self.hidden_key -= (old - k) * self.weight[i]
        return old

    def unturn(self, i: cython.Py_ssize_t, old: cython.Py_ssize_t) -> None:
        k: cython.Py_ssize_t = self.k[i]
        if old >= 2:
            self.hide(self.seq[i * 52 + old - 2])
        self.k[i] = old
        self.hidden_key += (old - k) * self.weight[i]

    # ----- the stock ----------------------------------------------------------------------

    def take(self, j: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Card ``j`` of the stock's order out of it; the cards dealt before it stay in the
        waste. Returns the old place of the deal and the flag, for ``untake``."""
        one: cython.ulonglong = 1
        old: cython.Py_ssize_t = self.cur | self.flag << 8 | self.deck[j] << 9 | self.orig[j] << 16
        i: cython.Py_ssize_t
        self.dmask &= ~(one << self.orig[j])
        for i in range(j, self.dlen - 1):
            self.deck[i] = self.deck[i + 1]
            self.orig[i] = self.orig[i + 1]
        self.dlen -= 1
        self.cur = j
        self.flag = False
        return old

    def untake(self, j: cython.Py_ssize_t, old: cython.Py_ssize_t) -> None:
        one: cython.ulonglong = 1
        i: cython.Py_ssize_t
        for i in range(self.dlen, j, -1):
            self.deck[i] = self.deck[i - 1]
            self.orig[i] = self.orig[i - 1]
        self.deck[j] = (old >> 9) & 127
        self.orig[j] = old >> 16
        self.dmask |= one << self.orig[j]
        self.dlen += 1
        self.cur = old & 255
        self.flag = bool(old >> 8 & 1)

    def reachable(self) -> cython.Py_ssize_t:
        """The stock places a card can be played from now, by dealing on (and turning the
        stock over, where that is allowed): written to ``places``, their count returned."""
        n: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        out = self.places
        last: cython.Py_ssize_t = self.dlen - 1
        cur: cython.Py_ssize_t = self.cur
        draw: cython.Py_ssize_t = self.draw
        seen: cython.ulonglong = 0
        one: cython.ulonglong = 1
        if last < 0:
            return 0
        if cur > 0:
            out[n] = cur - 1
            n += 1
            seen |= one << (cur - 1)
        if cur <= last:
            i = cur + draw - 1
            while i < last:
                out[n] = i
                n += 1
                seen |= one << i
                i += draw
            if not seen >> last & 1:
                out[n] = last
                n += 1
                seen |= one << last
        if self.cycling and not self.flag:
            i = draw - 1
            while i < last:
                if not seen >> i & 1:
                    out[n] = i
                    n += 1
                i += draw
            if not seen >> last & 1:
                out[n] = last
                n += 1
        return n

    def offset(self) -> cython.ulonglong:
        """The deal's place in the key: where it stands, with every start of a pass alike
        where the stock goes round without limit (dealing on comes back to each)."""
        if self.cycling and not self.flag and (self.cur % self.draw == 0 or self.cur == self.dlen):
            return 31
        return self.cur

    # ----- the key and the table ----------------------------------------------------------

    def key(self) -> cython.ulonglong:
        h: cython.ulonglong = self.heights[0] | self.heights[1] << 4 | self.heights[2] << 8
        h |= self.heights[3] << 12
        k: cython.ulonglong = self.hidden_key
        d: cython.ulonglong = self.dmask
        return h | k << 16 | d << self.deck_shift | self.offset() << self.off_shift

    def add(self, key: cython.ulonglong) -> cython.int:
        """Put ``key`` in the table: 0 if it was there, else 1."""
        mask64: cython.ulonglong = MASK64
        m1: cython.ulonglong = 0xBF58476D1CE4E5B9
        m2: cython.ulonglong = 0x94D049BB133111EB
        z: cython.ulonglong = key + 1
        at: cython.ulonglong
        slot: cython.ulonglong
        z = ((z ^ (z >> 30)) * m1) & mask64
        z = ((z ^ (z >> 27)) * m2) & mask64
        z ^= z >> 31
        at = z & (self.size - 1)
        while True:
            slot = self.table[at]
            if slot == 0:
                break
            if slot == key + 1:
                return 0
            at = (at + 1) & (self.size - 1)
        self.table[at] = key + 1
        self.count += 1
        if 2 * self.count > self.size:
            self.grow()
        return 1

    def grow(self) -> cython.int:
        old = self.table
        n: cython.Py_ssize_t = self.size
        i: cython.Py_ssize_t
        self.size = 2 * n
        self.table = array.array("Q", bytes(8 * self.size))
        self.count = 0
        for i in range(n):
            if old[i]:
                self.add(old[i] - 1)
        return 0

    # ----- steps --------------------------------------------------------------------------

    def safe(self, c: cython.Py_ssize_t) -> cython.bint:
        """Whether sending ``c`` home can never cost a win (``engine/safe.py``): no card still
        out could be laid on it, or (``follow``) each such card could follow it home."""
        one: cython.ulonglong = 1
        home: cython.ulonglong = self.home | one << c
        waiting: cython.ulonglong = self.kids[c] & ~home
        if not waiting:
            return True
        if not self.follow:
            return False
        takes: cython.ulonglong = 0
        s: cython.Py_ssize_t
        h: cython.Py_ssize_t
        x: cython.Py_ssize_t
        for s in range(4):
            h = self.heights[s] + (1 if s == self.suits[c] else 0)
            if h < 13:
                takes |= one << (s * 13 + h)
        spare: cython.ulonglong = takes & ~home
        keep: cython.ulonglong
        while True:  # the cards that can follow: only such cards, or home, to lie on them
            keep = spare
            for s in range(4):
                h = self.heights[s] + (1 if s == self.suits[c] else 0)
                if h < 13:
                    x = s * 13 + h
                    if keep >> x & 1 and self.kids[x] & ~home & ~keep:
                        keep &= ~(one << x)
            if keep == spare:
                break
            spare = keep
        return not (waiting & ~spare)

    def next_home(self, s: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The card suit ``s`` needs next (-1: its foundation is full)."""
        h: cython.Py_ssize_t = self.heights[s]
        return s * 13 + h if h < 13 else -1

    def generate(self, d: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The steps from the position, best first, at depth ``d`` of the stack: a safe
        card home alone where there is one."""
        base: cython.Py_ssize_t = d * WIDTH
        n: cython.Py_ssize_t = 0
        s: cython.Py_ssize_t
        c: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        k: cython.Py_ssize_t
        r: cython.Py_ssize_t
        at = self.places
        homes: cython.Py_ssize_t = 0  # the cards a suit needs next, one bit a suit
        for s in range(4):
            c = self.next_home(s)
            if c >= 0 and self.vis >> c & 1 and self.free(c):
                if self.safe(c):
                    self.steps[base] = HOME | c << 4
                    return 1
                homes |= 1 << s
        if self.cur > 0 and not (self.cycling and self.draw > 1):
            c = self.deck[self.cur - 1]  # the waste's top card, home with no deal
            if c == self.next_home(self.suits[c]) and self.safe(c):
                self.steps[base] = DRAW_HOME | (self.cur - 1) << 4
                return 1
        for i in range(self.ncols):
            k = self.k[i]
            if k:
                c = self.seq[i * 52 + k - 1]
                if (k >= 2 or not self.kings[c]) and self.room(c):
                    self.steps[base + n] = TURN | i << 4
                    n += 1
        for s in range(4):
            if homes >> s & 1:
                self.steps[base + n] = HOME | self.next_home(s) << 4
                n += 1
        r = self.reachable()
        for i in range(r):
            j = at[i]
            c = self.deck[j]
            if c == self.next_home(self.suits[c]) and self.safe(c):
                self.steps[base + n] = DRAW_HOME | j << 4
                n += 1
                continue
            if self.room(c):
                self.steps[base + n] = DRAW_PLACE | j << 4
                n += 1
        for i in range(r):
            j = at[i]
            c = self.deck[j]
            if c == self.next_home(self.suits[c]) and not self.safe(c):
                self.steps[base + n] = DRAW_HOME | j << 4
                n += 1
        if self.flag and self.redeal_ok():
            self.steps[base + n] = REDEAL
            n += 1
        return self.prune(d, n) if d else n

    # ----- steps in either order --------------------------------------------------------

    def prune(self, d: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Leave out of the ``n`` steps at depth ``d`` each step B that the position before
        (depth ``d - 1``) tried before the step A that led here, where A and B go in either
        order to the same position (``independent``): that position was reached through B
        first, and B's whole subtree found no win, so none is below it. Returns the count
        left."""
        before: cython.Py_ssize_t = (d - 1) * WIDTH
        tried: cython.Py_ssize_t = self.next[d - 1] - 1  # A's place in that list
        a: cython.Py_ssize_t = self.played[d - 1]
        ak: cython.Py_ssize_t = a & 15
        ac: cython.Py_ssize_t
        acol: cython.Py_ssize_t = -1
        if ak == HOME:
            ac = a >> 4
            if self.undo1[d - 1] >= 0:
                acol = self.colof[ac]
        elif ak == TURN:
            acol = a >> 4
            ac = self.seq[acol * 52 + self.undo1[d - 1] - 1]
        elif ak == REDEAL:
            return n
        else:
            ac = (self.undo1[d - 1] >> 9) & 127
        base: cython.Py_ssize_t = d * WIDTH
        kept: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        b: cython.Py_ssize_t
        bk: cython.Py_ssize_t
        bc: cython.Py_ssize_t
        bcol: cython.Py_ssize_t
        earlier: cython.bint
        for i in range(n):
            b = self.steps[base + i]
            bk = b & 15
            earlier = False
            if bk != REDEAL and not (bk >= DRAW_HOME and ak >= DRAW_HOME):
                for j in range(tried):
                    if self.steps[before + j] == b:
                        earlier = True
                        break
            if earlier:
                bcol = -1
                if bk == HOME:
                    bc = b >> 4
                    if self.lock >> bc & 1:
                        bcol = self.colof[bc]
                elif bk == TURN:
                    bcol = b >> 4
                    bc = self.seq[bcol * 52 + self.k[bcol] - 1]
                else:
                    bc = self.deck[b >> 4]
                if bc != ac and (bcol < 0 or bcol != acol) and not self.spoils(bk, bc, ak, ac):
                    continue
            self.steps[base + kept] = b
            kept += 1
        return kept

    def spoils(self, bk: cython.Py_ssize_t, bc: cython.Py_ssize_t, ak: cython.Py_ssize_t,
               ac: cython.Py_ssize_t) -> cython.bint:
        """Whether step B (kind ``bk``, card ``bc``) uses up what step A needs: room on a
        card of a type (a card laid there), a free card of a type (one gone home), or an
        empty column (a King laid there). Where it does not, A can follow B."""
        if bk == DRAW_HOME or ak == DRAW_HOME:
            return False
        if bk == HOME:  # one fewer face-up card of B's type
            if ak == HOME:
                return self.tid[ac] == self.tid[bc]
            return not self.kings[ac] and self.ptid[ac] == self.tid[bc]
        if self.kings[bc]:  # B lays a King in an empty column
            return ak != HOME and self.kings[ac]
        if ak == HOME:  # one more card of B's type lying on a card
            return self.ktid[ac] == self.tid[bc]
        return not self.kings[ac] and self.tid[ac] == self.tid[bc]

    def redeal_ok(self) -> cython.bint:
        """Mid-pass with nothing played since the last turn (``flag``): whether, once the
        stock is dealt out, a move other than turning it over is useful, as the engine asks
        before it lets the stock turn (``RuleSet.useful``)."""
        s: cython.Py_ssize_t
        c: cython.Py_ssize_t
        i: cython.Py_ssize_t
        k: cython.Py_ssize_t
        for s in range(4):
            c = self.next_home(s)
            if c >= 0 and self.vis >> c & 1 and self.free(c):
                return True
        for i in range(self.ncols):
            k = self.k[i]
            if k:
                c = self.seq[i * 52 + k - 1]
                if (k >= 2 or not self.kings[c]) and self.room(c):
                    return True
        for c in range(52):  # a card lying on a card moves onto another of that type
            if self.vis >> c & 1 and not self.kings[c] and not self.lock >> c & 1 and (
                    self.nvis[self.ptid[c]] > self.nocc[self.tid[c]]):
                return True
        if self.dlen:
            c = self.deck[self.dlen - 1]
            return c == self.next_home(self.suits[c]) or self.room(c)
        return False

    def apply(self, d: int, step: int) -> None:
        """``play``, for Python callers (``realize``)."""
        self.play(d, step)

    def play(self, d: cython.Py_ssize_t, step: cython.Py_ssize_t) -> None:
        """Play ``step`` at depth ``d`` (what undoing it needs goes to that depth)."""
        kind: cython.Py_ssize_t = step & 15
        arg: cython.Py_ssize_t = step >> 4
        c: cython.Py_ssize_t
        one: cython.ulonglong = 1
        self.played[d] = step
        if kind == HOME:
            c = arg
            locked: cython.bint = self.lock >> c & 1
            self.hide(c)
            self.home |= one << c
            self.heights[self.suits[c]] += 1
            self.done += 1
            self.undo1[d] = self.turn(self.colof[c]) if locked else -1
        elif kind == TURN:
            c = self.seq[arg * 52 + self.k[arg] - 1]
            self.unlock(c)
            self.undo1[d] = self.turn(arg)
        elif kind == REDEAL:
            self.undo1[d] = self.cur
            self.cur = 0
            self.flag = False
        else:
            c = self.deck[arg]
            self.undo1[d] = self.take(arg)
            if kind == DRAW_HOME:
                self.home |= one << c
                self.heights[self.suits[c]] += 1
                self.done += 1
            else:
                self.show(c, False)

    def unplay(self, d: cython.Py_ssize_t) -> None:
        step: cython.Py_ssize_t = self.played[d]
        kind: cython.Py_ssize_t = step & 15
        arg: cython.Py_ssize_t = step >> 4
        c: cython.Py_ssize_t
        one: cython.ulonglong = 1
        if kind == HOME:
            c = arg
            if self.undo1[d] >= 0:
                self.unturn(self.colof[c], self.undo1[d])
                self.show(c, True)
            else:
                self.show(c, False)
            self.home &= ~(one << c)
            self.heights[self.suits[c]] -= 1
            self.done -= 1
        elif kind == TURN:
            self.unturn(arg, self.undo1[d])
            self.relock(self.seq[arg * 52 + self.k[arg] - 1])
        elif kind == REDEAL:
            self.cur = self.undo1[d]
            self.flag = True
        else:
            c = (self.undo1[d] >> 9) & 127
            if kind == DRAW_HOME:
                self.home &= ~(one << c)
                self.heights[self.suits[c]] -= 1
                self.done -= 1
            else:
                self.hide(c)
            self.untake(arg, self.undo1[d])

    # ----- the search ---------------------------------------------------------------------

    def run(self, cap: cython.Py_ssize_t, deadline: float) -> cython.Py_ssize_t:
        """Search: 1 won (``line`` wins), 0 lost (every position was searched), -1 out of
        budget (``cap`` positions, 0: none; ``deadline`` on ``time.perf_counter``, 0: none)."""
        d: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        ticks: cython.Py_ssize_t = 0
        t0: float = time.perf_counter()
        report: float = t0 + REPORT_EVERY
        now: float
        if self.done == 52:
            self.depth = 0
            return 1
        self.add(self.key())
        self.positions = 1
        self.nsteps[0] = self.generate(0)
        self.next[0] = 0
        while True:
            i = self.next[d]
            if i == self.nsteps[d]:
                if d == 0:
                    return 0
                d -= 1
                self.unplay(d)
                continue
            self.next[d] = i + 1
            self.play(d, self.steps[d * WIDTH + i])
            if self.done == 52:
                self.depth = d + 1
                return 1
            if not self.add(self.key()):
                self.unplay(d)
                continue
            self.positions += 1
            if cap and self.positions >= cap:
                self.depth = d + 1
                return -1
            ticks += 1
            if ticks == CLOCK:
                ticks = 0
                now = time.perf_counter()
                if deadline and now >= deadline:
                    return -1
                if self.progress is not None and now >= report:
                    report = now + REPORT_EVERY
                    self.progress(self.positions, now - t0)
            d += 1
            self.nsteps[d] = self.generate(d)
            self.next[d] = 0

    def line(self) -> list[tuple[int, int]]:
        """The steps played from the start to the position the search stopped at, each as
        (kind, card): the card sent home, turned up on, dealt, or -1 for a redeal. Read by
        replaying them from the start on a fresh ``Steps``: a stock place's card changes as
        cards leave the stock."""
        out = []
        for d in range(self.depth):
            out.append(self.played[d])
        return [(s & 15, s >> 4) for s in out]


__all__ = ["KINDS", "NO_TYPE", "Steps"]
