"""Boards for the rule sets whose own moves discard cards: alone or in pairs (Pyramid), or
beaten by a higher card of their suit (Aces Up).

Such a rule set lists and plays its discards by hooks of its own, which a ``Board`` does not
know, so the searches played it through the engine's state. It declares them instead. A
``PairBoard`` plays ``RuleSet.pair_rule``, a ``PairRule``: which piles cards leave from,
which piles cover which (``covered_by``), the total a pair makes, how the stock deals. A
``BeatenBoard`` plays ``RuleSet.beaten_rule``, a ``BeatenRule``: the piles whose top cards
beat and are beaten; its other moves are the shared rules'. Each lists those moves in C and
plays a discard as cards moved to the discard pile, which it takes back as a ``Board`` takes
back any move. tests/engine/test_pair_board.py and test_beaten_board.py hold them to the
engine at every position of random games, and their searches to those through the state.
``Partners`` proves a position of a ``PairRule`` lost where the cards left to clear cannot
all find partners (``depth.Choice`` asks it).

A removal is ``EXTRA | a | b << 8 | k << 16``: ``k`` cards, from pile ``a`` (and ``b``). A
beaten card discarded is a move of one card to the discard pile, as a ``Board`` numbers it.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK, SUIT
from ..core import REMOVE, Move, State
from ..options import Deals, Goal, Kind, Scoring, Unit
from ..rules import RuleSet
from .board import (
    ANY_CODE,
    BASE_CODE,
    DEAL,
    EXTRA,
    KING_CODE,
    OWN_HOOKS,
    RANKS,
    STRIDE,
    TO_TABLEAU,
    VARS,
    Board,
    Layout,
)
from .position import own_hooks

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


class Partners:
    """Where cards leave only alone or in pairs (``paired``) and the goal is a cleared table:
    a position where the cards left to clear cannot all find partners is lost.

    A card's partner is a card of the rank that makes the total with it, still in play, and
    not in a pile lying over its own or under it, however far (``covered_by``): one of the
    two would stay covered until the other had gone. A card in the stock or a waste may
    partner any card (conservatively: when it comes up is not asked), but for those buried
    in the waste for good (``buried``). Each card leaves once, so for each two ranks that
    make the total, the cards of one are matched with those of the other, and every card
    left to clear needs a match. Table cards never move to another pile, so where each lies
    is read from the board."""

    def __init__(self, rules: RuleSet) -> None:
        pairs = rules.pair_rule
        assert pairs is not None
        self.total = pairs.total
        count = self.count = len(rules.pile_kinds)
        table = Layout(rules, strict=False).cleared
        over = rules.covered_by()

        def above(p: int) -> set[int]:
            out: set[int] = set()
            for q in over.get(p, ()):
                out |= {q} | above(q)
            return out

        related = bytearray(count * count)
        for p in range(count):
            related[p * count + p] = 1
            for q in above(p):
                related[p * count + q] = related[q * count + p] = 1
        #: ``related[p * count + q]``: a card of pile q can never leave with one of pile p.
        self.related = bytes(related)
        self.on_table = bytes(p in table for p in range(count))
        self.foundation = rules.by_kind[Kind.FOUNDATION][0]
        #: The waste the stock's cards pile up on (the second, where the first's card moves
        #: on), where only the top card may leave; ``NONE``: no stock.
        self.stack = (rules.by_kind.get(Kind.WASTE) or [NONE])[-1]
        #: The four cards of each rank, Aces first.
        self.of_rank = bytes(sorted(range(52), key=lambda c: RANK[c]))
        self.rank = bytes(RANK)
        self.where = bytearray(52)  # (``hopeless``: each card's pile)
        self.piles = bytearray(8)  # (and the piles of the cards of two ranks)
        self.adj = bytearray(4)  # (and which of the second each of the first may leave with)

    def hopeless(self, board: Board) -> cython.bint:
        """Whether the cards left to clear cannot all find partners (read from ``board``).
        After a move of the search's own (``Board.used``), while no card is buried, only the
        two ranks of the card last removed are matched: nothing else changed the others'
        matching (a removal takes cards of one total; a deal moves cards between stock and
        wastes, whose cards partner any), and the position the search came from was
        asked."""
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        where: cython.p_uchar = self.where
        rank: cython.p_uchar = self.rank
        stride: cython.Py_ssize_t = STRIDE
        f: cython.Py_ssize_t = self.foundation
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        r: cython.Py_ssize_t
        for i in range(52):
            where[i] = NONE
        for p in range(self.count):
            if p != f:
                for i in range(p * stride, p * stride + size[p]):
                    where[cards[i]] = p
        if not self.buried(board) and board.used and size[f]:
            return self.unmatched(rank[cards[f * stride + size[f] - 1]])
        for r in range(1, 14):  # noqa: SIM110 (a C loop, compiled)
            if not 0 < self.total - r < r and self.unmatched(r):  # (each two ranks once)
                return True
        return False

    def buried(self, board: Board) -> cython.bint:
        """Whether cards of the waste pile lie for good under one that can never leave, no
        card of the rank it needs being in play outside that pile (the cards over it must
        leave before it, those under it after); those are then out of play for ``where``.
        Such a card stays for good, and so do the cards under it: once buried, always."""
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        where: cython.p_uchar = self.where
        rank: cython.p_uchar = self.rank
        of_rank: cython.p_uchar = self.of_rank
        stride: cython.Py_ssize_t = STRIDE
        s: cython.Py_ssize_t = self.stack
        gone: cython.Py_ssize_t = NONE
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        p: cython.Py_ssize_t
        need: cython.Py_ssize_t
        stuck: cython.bint
        if s == gone:
            return False
        for k in range(s * stride + size[s] - 1, s * stride, -1):  # (the bottom card: none under)
            need = self.total - rank[cards[k]]
            if need == 0:
                continue  # it leaves alone
            stuck = True
            if 0 < need <= 13:
                for i in range((need - 1) * 4, need * 4):
                    p = where[of_rank[i]]
                    if p != gone and p != s:
                        stuck = False
                        break
            if stuck:
                for i in range(s * stride, k):
                    where[cards[i]] = gone
                return True
        return False

    def unmatched(self, r: cython.Py_ssize_t) -> cython.bint:
        """Whether the cards of rank ``r`` and of the rank that makes the total with it
        cannot all be matched, each used once, so that every card left to clear has a
        partner (``where``: each card's pile, as ``hopeless`` read it)."""
        where: cython.p_uchar = self.where
        related: cython.p_uchar = self.related
        on_table: cython.p_uchar = self.on_table
        of_rank: cython.p_uchar = self.of_rank
        piles: cython.p_uchar = self.piles
        adj: cython.p_uchar = self.adj
        count: cython.Py_ssize_t = self.count
        gone: cython.Py_ssize_t = NONE
        other: cython.Py_ssize_t = self.total - r
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        n: cython.Py_ssize_t
        na: cython.Py_ssize_t
        mask: cython.Py_ssize_t
        cleared: cython.Py_ssize_t  # per side, as bits: the cards left to clear
        reach: cython.Py_ssize_t  # the sets of the second rank's cards matched so far, as bits
        after: cython.Py_ssize_t
        if other == 0 or other == r:
            return False  # a card that leaves alone; a pair of one rank is left to the search
        if other < 0 or other > 13:
            for i in range((r - 1) * 4, r * 4):  # no rank makes the total with it
                p = where[of_rank[i]]
                if p != gone and on_table[p]:
                    return True
            return False
        n = 0
        cleared = 0
        for i in range((r - 1) * 4, r * 4):
            p = where[of_rank[i]]
            if p != gone:
                cleared |= on_table[p] << n
                piles[n] = p
                n += 1
        na = n
        for i in range((other - 1) * 4, other * 4):
            p = where[of_rank[i]]
            if p != gone:
                cleared |= on_table[p] << n
                piles[n] = p
                n += 1
        if not cleared:
            return False
        for i in range(na):
            adj[i] = 0
            for j in range(na, n):
                if not (on_table[piles[i]] and on_table[piles[j]]
                        and related[piles[i] * count + piles[j]]):
                    adj[i] |= 1 << (j - na)
        reach = 1  # the empty set
        for i in range(na):
            after = 0
            for mask in range(16):
                if reach >> mask & 1:
                    if not cleared >> i & 1:
                        after |= 1 << mask  # left over
                    for j in range(n - na):
                        if adj[i] >> j & 1 and not mask >> j & 1:
                            after |= 1 << (mask | 1 << j)
            reach = after
        cleared >>= na
        for mask in range(16):  # noqa: SIM110 (a C loop, compiled)
            if reach >> mask & 1 and mask & cleared == cleared:
                return False
        return True


def partners(rules: RuleSet) -> Partners | None:
    """``Partners`` where they hold: a ``paired`` rule set whose goal is a cleared table."""
    return Partners(rules) if paired(rules) and rules.goal == Goal.CLEAR else None


#: The hooks a ``BeatenRule`` declares (its discards, its win, the discards that cost
#: nothing): a rule set's own versions of these alone, the board plays it.
BEATEN_HOOKS = ("target_refusal", "costless", "won")
#: What a card is worth when it beats another: its rank, Aces high.
HIGH = bytes(14 if RANK[c] == 1 else RANK[c] for c in range(52))


def beaten(rules: RuleSet) -> bool:
    """Whether a ``BeatenBoard`` plays ``rules``: its own moves discard beaten cards
    (``RuleSet.beaten_rule``) to its one foundation, a discard pile; its piles of the
    declared kinds are its only sources; its other hooks, fills and stock are the shared
    rules' (no pile refilled, none filled from a kind alone, none covered)."""
    rule = rules.beaten_rule
    if (rule is None or rules.players != (1, 1) or rules.scoring == Scoring.POINTS
            or not rules.discard or rules.refilled or rules.covered_by()
            or own_hooks(rules, tuple(h for h in OWN_HOOKS if h not in BEATEN_HOOKS))):
        return False
    piles = [p for p, k in enumerate(rules.pile_kinds) if k in rule.kinds]
    groups = rules.pile_group
    return (rules.sources == piles and all(groups[p].unit == Unit.TOP for p in piles)
            and not any(g.fill_from for g in groups))


def discard_board(st: State) -> Board | None:
    """The board of ``st`` where its moves discard cards by a declared rule of its own: a
    ``PairBoard``, a ``BeatenBoard``, or ``None``. Only the shared vars are kept (not a
    resignation's)."""
    if playable(st):
        return PairBoard(st.copy())
    if beaten(st.rules) and set(st.vars) <= set(VARS):
        return BeatenBoard(st.copy())
    return None


class BeatenBoard(Board):
    """A position of a ``beaten`` rule set as bytes: list, play and take back its moves."""

    def __init__(self, st: State, layout: Layout | None = None, ask: bool = True) -> None:
        rules = st.rules
        if not beaten(rules):
            raise ValueError(f"{rules.key} discards no beaten cards: no beaten board plays it")
        if not set(st.vars) <= set(VARS):
            raise ValueError("a beaten board keeps the shared vars alone")
        Board.__init__(self, st, layout or Layout(rules, strict=False), ask)
        self.ask = False  # the end rule is the shared one (``beaten``): no search asked
        rule = rules.beaten_rule
        assert rule is not None
        self.beaten = bytes(p for p, k in enumerate(rules.pile_kinds) if k in rule.kinds)
        self.foundation = rules.by_kind[Kind.FOUNDATION][0]
        self.high = HIGH
        self.suit = bytes(SUIT)

    def beats(self, src: cython.Py_ssize_t, card: cython.Py_ssize_t) -> cython.bint:
        """Whether a higher card of ``card``'s suit tops a declared pile other than ``src``."""
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        high: cython.p_uchar = self.high
        suit: cython.p_uchar = self.suit
        piles: cython.p_uchar = self.beaten
        stride: cython.Py_ssize_t = STRIDE
        i: cython.Py_ssize_t
        t: cython.Py_ssize_t
        top: cython.Py_ssize_t
        for i in range(len(self.beaten)):
            t = piles[i]
            if t != src and size[t]:
                top = cards[t * stride + size[t] - 1]
                if suit[top] == suit[card] and high[top] > high[card]:
                    return True
        return False

    def moves(self, sources: bytes | None = None) -> list[int]:
        """The top card of each source (default: every one) to each target in pile order, as
        ``RuleSet.moves_from`` lists them: to the discard pile when beaten (``beats``), to
        another pile by the shared rules (its capacity, build or fill); then the stock's."""
        lay: Layout = self.layout
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        caps: cython.p_uchar = lay.capacity
        fills: cython.p_uchar = lay.fill
        builds: cython.p_uchar = lay.build
        tables: cython.p_uchar = lay.tables
        targets: list[bytes] = lay.targets
        if sources is None:
            sources = lay.sources
        rank_of: bytes = RANKS  # a local reference: the pointer below stays valid
        ranks: cython.p_uchar = rank_of
        base: cython.Py_ssize_t = self.vars[0] if self.has[0] else 1
        stride: cython.Py_ssize_t = STRIDE
        table: cython.Py_ssize_t = 52 * 52
        any_fill: cython.Py_ssize_t = ANY_CODE
        king_fill: cython.Py_ssize_t = KING_CODE
        base_fill: cython.Py_ssize_t = BASE_CODE
        f: cython.Py_ssize_t = self.foundation
        out: list[int] = []
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        card: cython.Py_ssize_t
        b: cython.Py_ssize_t
        fill: cython.Py_ssize_t
        takes: cython.bint
        for src in sources:
            if not size[src]:
                continue
            card = cards[src * stride + size[src] - 1]
            for dst in targets[src]:
                if dst == f:
                    takes = self.beats(src, card)
                elif caps[dst] and size[dst] >= caps[dst]:
                    takes = False
                elif size[dst]:
                    b = builds[dst]
                    takes = b != 0 and tables[(b - 1) * table + cards[
                        dst * stride + size[dst] - 1] * 52 + card] != 0
                else:
                    fill = fills[dst]
                    takes = (fill == any_fill or (fill == king_fill and ranks[card] == 13)
                             or (fill == base_fill and (base == 0 or ranks[card] == base)))
                if takes:
                    out.append(src | dst << 8 | 1 << 16)
        if self.can_deal():
            out.append(DEAL)
        return out

    def costless(self, m: cython.Py_ssize_t) -> cython.bint:
        """A discard of a card with no lower card of its suit left in the declared piles or
        the stock (the rule set's ``costless``, which says why it never costs a win)."""
        if m >= DEAL or (m >> 8) & 255 != self.foundation:
            return False
        lay: Layout = self.layout
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        high: cython.p_uchar = self.high
        suit: cython.p_uchar = self.suit
        piles: cython.p_uchar = self.beaten
        stride: cython.Py_ssize_t = STRIDE
        src: cython.Py_ssize_t = m & 255
        card: cython.Py_ssize_t = cards[src * stride + size[src] - 1]
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        p: cython.Py_ssize_t
        c: cython.Py_ssize_t
        for i in range(len(self.beaten) + 1):
            p = piles[i] if i < len(self.beaten) else lay.stock_pile
            if p < 0:
                continue
            for j in range(size[p]):
                c = cards[p * stride + j]
                if suit[c] == suit[card] and high[c] < high[card]:
                    return False
        return True

    def won(self) -> cython.bint:
        """The stock empty, and each declared pile holding one card alone, an Ace."""
        lay: Layout = self.layout
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        high: cython.p_uchar = self.high
        piles: cython.p_uchar = self.beaten
        stride: cython.Py_ssize_t = STRIDE
        i: cython.Py_ssize_t
        p: cython.Py_ssize_t
        if lay.stock_pile >= 0 and size[lay.stock_pile]:
            return False
        for i in range(len(self.beaten)):
            p = piles[i]
            if size[p] != 1 or high[cards[p * stride]] != 14:
                return False
        return True


class LastDeal:
    """Where beaten cards are discarded (``beaten``) and the stock deals one card to each
    declared pile: a position is lost when the stock's last deal will leave nothing to play.

    That deal tops every declared pile with one of its cards (the stock's last ones, which
    nothing reorders), so no pile is empty to fill; when no two of them are of a suit, none
    beats another, and when every other pile they could go to is full (Aces Up easy's
    waste), no move is left after it. Unless they are all Aces the game is not won then.
    About one deal in ten ends so (of Aces Up's deals 0-49: 3, 5, 6, 11, 16 and 44)."""

    def __init__(self, stock: int, piles: int, others: bytes, capacity: bytes) -> None:
        self.stock = stock
        self.piles = piles  # how many the declared piles are, each dealt one card a deal
        #: The piles besides the discard pile the declared piles' cards may go to, which
        #: must be full, and how many cards each pile holds then.
        self.others = others
        self.capacity = capacity
        self.high = HIGH
        self.suit = bytes(SUIT)

    def hopeless(self, board: Board) -> cython.bint:
        """Whether the stock's last deal, still to come, will leave no move (read from
        ``board``)."""
        cards: cython.p_uchar = board.cards
        size: cython.p_uchar = board.size
        caps: cython.p_uchar = self.capacity
        s: cython.Py_ssize_t = self.stock
        i: cython.Py_ssize_t
        if not size[s] or size[s] % self.piles:
            return False
        for i in self.others:
            if size[i] < caps[i]:
                return False
        return self.dead(cards, s * STRIDE)

    def ends(self, st: State) -> bool:
        """Whether ``st``'s stock has a last deal that will leave no move once the other
        piles are full: the same deal for every position after ``st`` until it comes, so a
        search from ``st`` asks ``hopeless`` only where this holds."""
        stock = bytes(st.piles[self.stock])
        cards: cython.p_uchar = stock
        return bool(stock) and not len(stock) % self.piles and self.dead(cards, 0)

    def dead(self, cards: cython.p_uchar, base: cython.Py_ssize_t) -> cython.bint:
        """Whether the last deal's cards, from ``base`` of ``cards`` on, are of as many
        suits (none beats another) and not all Aces."""
        high: cython.p_uchar = self.high
        suit: cython.p_uchar = self.suit
        aces: cython.bint = True
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        for i in range(self.piles):
            if high[cards[base + i]] != 14:
                aces = False
            for j in range(i):
                if suit[cards[base + i]] == suit[cards[base + j]]:
                    return False
        return not aces


def last_deal(rules: RuleSet) -> LastDeal | None:
    """``LastDeal`` where it holds: a ``beaten`` rule set whose stock deals one card to each
    declared pile, keeping none back, and whose declared piles' cards go elsewhere only to
    the discard pile or to piles that fill up."""
    if not beaten(rules) or rules.stock is None or rules.stock.rest is not None:
        return None
    lay = Layout(rules, strict=False)
    rule = rules.beaten_rule
    assert rule is not None
    declared = [p for p, k in enumerate(rules.pile_kinds) if k in rule.kinds]
    if lay.deals != TO_TABLEAU or sorted(lay.tableau) != declared:
        return None
    others = {q for p in declared for q in lay.targets[p]} - {*declared, lay.foundations[0]}
    if not all(lay.capacity[q] for q in others):
        return None
    return LastDeal(lay.stock_pile, len(declared), bytes(sorted(others)), lay.capacity)


__all__ = ["BeatenBoard", "LastDeal", "PairBoard", "beaten", "discard_board", "last_deal",
           "paired", "playable"]
