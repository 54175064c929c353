"""The depth-first search, for every rule set the step search does not play: on a board
(``board.py``) where one plays the rule set, else on a board played through the engine's own
state (``state_board.py``), the same search either way.

The moves it tries from a position, and in what order, are ``Choice``'s (docs/solver.md,
The search over the engine's moves, gives each rule and why it is sound). The search keeps
every position met in a table, so that none is searched twice and a cycle ends; it makes no
move straight back to the position before (``Board.way_back``), which is in the table. When it
runs out of positions with its budget unspent, every reachable position was searched: the
loss is proved. A game played for points is searched through for its best score.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, MutableSequence, Sequence

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK
from ..core import FINISHED, PLAYING, WON, Move, State
from ..options import Deals, Fill, Scoring
from ..piles import CELL, FOUNDATION, TABLEAU, below
from ..rules import RuleSet
from ..safe import laid_on, one_way, regroups, row_bits
from .board import (
    DEAL,
    EXTRA,
    FOUNDATION_CODE,
    STRIDE,
    Board,
    Layout,
)
from .home_order import home_order
from .moves import (
    EMPTIES,
    FROM_RESERVE,
    MOVE_RANKS,
    NONE,
    OTHER,
    REVEALS,
    SIDE_KINDS,
    TO_CELL,
    TO_FOUNDATION,
    deal_rank,
    followed,
    open_pass,
    successors,
    talon_piles,
    talon_sources,
    twin_groups,
)
from .pair_board import last_deal, partners
from .position import interchangeable, own_hooks
from .table import Table, native
from .verdict import Outcome, Verdict

#: All 52 cards, one bit each.
ALL = (1 << 52) - 1
#: Called now and then during a long search with (positions so far, seconds so far).
Progress = Callable[[int, float], None]
REPORT_EVERY = 1.0  # seconds between progress calls
#: The most deals a move from the talon plays (``talon_move`` keeps their count in 8 bits):
#: beyond, the deals' positions are searched one at a time.
MAX_DEALS = 255


def scored(st: State) -> bool:
    """Games that end with a score and no win or loss get a best-score search."""
    return st.rules.scoring == Scoring.POINTS


class Choice:
    """Which moves a search tries from a position, in what order (docs/solver.md: a safe
    move alone, moves the rule set calls costless alone, then the moves worth trying, best
    first), as tables made once per search from the rule set's declarations; the compiled
    build runs them in C. The safe moves judge from bit masks, one bit a card, as
    ``engine/safe.py`` does.

    ``narrow``: moves between piles of the table that neither turn a card up, empty a pile,
    nor take a card to a foundation or out of a side pile are left out (``dropped`` says one
    was); not sound, so a narrowed search only ever finds wins. ``start``: the position the
    search starts from (``moves.open_pass``)."""

    def __init__(self, rules: RuleSet, safe: bool = True, narrow: bool = False,
                 start: State | None = None) -> None:
        count = len(rules.pile_kinds)
        kinds = rules.pile_kinds
        self.rules = rules
        #: Whether narrowing can leave anything out: a move between piles of the table.
        self.can_narrow = any(kinds[src] not in SIDE_KINDS and kinds[dst] not in (FOUNDATION,
                                                                                  CELL)
                              for src in rules.sources for dst in rules.targets[src])
        self.safe = safe and FOUNDATION in rules.by_kind
        #: The stronger safe rule holds here (``moves.followed``).
        self.follow = self.safe and followed(rules)
        #: Piles whose cards no safe move takes (``engine.safe.regroups``).
        self.regroups = bytes(regroups(rules, p) for p in range(count))
        #: The rule set knows moves of its own that cost nothing (``RuleSet.costless``).
        self.costless = safe and own_hooks(rules, ("costless",))
        #: A shuffled redeal may be to come (``RuleSet.redeal_ahead``).
        self.reshuffles = own_hooks(rules, ("redeal_ahead",))
        self.narrow = narrow
        self.dropped = False
        stock = rules.stock
        self.turns_over = (stock is not None and stock.to == Deals.WASTE
                           and not own_hooks(rules, ("apply_stock",)))
        #: Up to this pass, the stock is turned over even with nothing played since the
        #: last turn (``moves.open_pass``).
        self.open_pass = open_pass(start) if start is not None and self.turns_over else 0
        talon = talon_piles(rules)
        sources = talon_sources(rules, talon)
        self.talon = bool(talon)  # a stock dealing to wastes, where deals commute
        self.deal_rank = deal_rank(rules)
        self.in_talon = bytes(p in talon for p in range(count))
        self.talon_sources = bytes(sources) if sources is not None else None
        group_of: dict[int, int] = {}
        for i, g in enumerate(interchangeable(rules)):
            for p in g:
                group_of[p] = i
        twin_of: dict[int, int] = {}
        for i, g in enumerate(twin_groups(rules)):
            for p in g:
                twin_of[p] = i
        self.group_of = bytes(group_of.get(p, 255) for p in range(count))
        #: Per group of interchangeable piles, the empty pile that takes cards (``choose``),
        #: 255 between two calls; kept, so that a call makes none.
        self.empty = bytearray(b"\xff" * (max(group_of.values(), default=-1) + 1))
        self.ranked = bytearray(64)  # (``choose``: per move its rank; grown as needed)
        self.found = bytearray(256)  # (``safe_moves``: per pile, whether it has one; kept 0)
        self.twin_of = bytes(twin_of.get(p, 255) for p in range(count))
        #: Foundations any card may start: while one is empty, no move is judged safe.
        self.open_foundations = bytes(f for f in rules.by_kind.get(FOUNDATION, ())
                                      if rules.pile_group[f].fill == Fill.ANY)
        #: Per card the one card it ends on, where cards can wait in a circle (else None).
        self.succ = successors(rules) if safe else None
        self.columns = bytes(rules.by_kind.get(TABLEAU, []))
        self.side = bytes(kinds[p] in SIDE_KINDS for p in range(count))
        self.to_cell = bytes(kinds[p] == CELL for p in range(count))
        #: Per card: the cards that may lie on it in a pile other than a foundation.
        self.laid_on = [laid_on(rules, c) for c in range(52)]
        #: Per pile with a build, per card: what the pile takes with that card on top.
        self.rows = [[row_bits(g.build.rows[c]) for c in range(52)]
                     if g.build is not None else None for g in rules.pile_group]
        #: Per pile: whether it builds one way only, as a foundation with safe moves must.
        self.one_way = bytes(one_way(g) for g in rules.pile_group)
        #: Where cards leave in pairs: whether a card left to clear has lost every partner.
        self.partners = partners(rules) if safe else None
        #: Where beaten cards are discarded: whether the stock's last deal leaves no move;
        #: asked only where the start's last deal can (``LastDeal.ends``).
        check = last_deal(rules) if safe else None
        self.last_deal = check if check is None or start is None or check.ends(start) else None
        #: Where cards stay on the cards they lie on in columns: whether cards must each go
        #: home before the other (read with the start's base).
        self.home_order = home_order(rules, start) if safe and start is not None else None
        #: After a deal, a waste card no pile takes leaves the search nothing to choose but
        #: the next deal (``talon_moves``): nothing here judges a position
        #: whose only move is a deal otherwise.
        self.plain_deals = (self.succ is None and self.last_deal is None
                            and not self.reshuffles and not self.costless)
        self.kings = sum(1 << c for c in range(52) if RANK[c] == 13)
        self.ranks = [0] + [sum(1 << c for c in range(52) if RANK[c] == r) for r in range(1, 14)]

    def choose(self, board: Board, legal: Sequence[int], after_deal: cython.bint) -> list[int]:
        """Of the board's ``legal`` moves, those worth trying, best first: none where cards
        wait on each other in a circle or a card left to clear has lost every partner
        (``Partners``), the stock's last deal will leave no move (``LastDeal``), or cards
        must each go home before the other (``HomeOrder``, but right after a deal); where
        each card ends on one card (``succ``) and the stock is dealt, a card onto that card
        alone (``linked``); a move the rule set calls costless alone; a safe move alone
        (neither while a shuffled redeal is to come); else ``ordered``.
        ``after_deal``: the search came here by a deal from the stock, and tried every
        other move from the position before it."""
        lay: Layout = board.layout
        size: cython.p_uchar = board.size
        kind: cython.p_uchar = lay.kind
        foundation: cython.Py_ssize_t = FOUNDATION_CODE
        deal: cython.Py_ssize_t = DEAL
        i: cython.Py_ssize_t
        m: cython.Py_ssize_t
        judge: cython.bint
        extra: cython.Py_ssize_t = EXTRA
        board.ready()
        if self.succ is not None:
            if self.stuck(board):
                return []
            m = self.linked(board, legal)
            if m >= 0:
                return [m]
        if self.partners is not None and not after_deal and self.partners.hopeless(board):
            return []
        if self.last_deal is not None and self.last_deal.hopeless(board):
            return []
        if self.home_order is not None and not after_deal and self.home_order.hopeless(board):
            return []
        if self.reshuffles and board.redeal_ahead():
            return self.ordered(board, legal, after_deal)
        if self.costless:
            for m in legal:
                if board.costless(m):
                    return [m]
        if self.safe:
            judge = False  # a move to a foundation, and no foundation any card may start empty
            for m in legal:
                if m != deal and m < extra and kind[(m >> 8) & 255] == foundation:
                    judge = True
                    break
            for i in self.open_foundations:
                if not size[i]:
                    judge = False
            if judge:
                safe = self.safe_moves(board, legal)
                if safe:
                    return safe[:1]
        return self.ordered(board, legal, after_deal)

    def ordered(self, board: Board, legal: Sequence[int], after_deal: cython.bint
                ) -> list[int]:
        """``choose`` past the moves tried alone: every move worth trying, ranked (cards to
        a foundation, moves that turn a card up, cards out of a reserve, cell or waste,
        moves that empty a pile, other moves, the stock, cards into a cell; the stock
        earlier where ``moves.deal_rank`` says), in the listing's order within a rank."""
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
        extra: cython.Py_ssize_t = EXTRA
        i: cython.Py_ssize_t
        m: cython.Py_ssize_t
        g: cython.Py_ssize_t
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        n: cython.Py_ssize_t
        left: cython.Py_ssize_t
        rank: cython.Py_ssize_t
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
                ranked[i] = self.deal_rank
                present |= 1 << self.deal_rank
                continue
            if m >= extra:  # a move of the rule set's own kind: never narrowed
                ranked[i] = OTHER
                present |= 1 << OTHER
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

    def linked(self, board: Board, legal: Sequence[int]) -> cython.Py_ssize_t:
        """Where each card ends on one card (``moves.successors``) and the stock is dealt:
        the first legal move that lays a card on the card it ends on, where every card from
        that one down but the column's face-up bottom card lies on the card it ends on (-1 if
        none). The card stays there for good (it may lie on no other). Played alone, it
        costs no win: a won line lays that card there some time, and the line with that
        move first still wins, every other move in it as legal as before (docs/solver.md,
        The choice of moves). Not over a card that may move alone, nor over face-down ones:
        one of them could have to come to rest on the cards laid over it."""
        lay: Layout = board.layout
        size: cython.p_uchar = board.size
        down: cython.p_uchar = board.down
        cards: cython.p_uchar = board.cards
        ends: bytes = self.succ or b""  # (asked only where there is one)
        succ: cython.p_uchar = ends
        stride: cython.Py_ssize_t = STRIDE
        deal: cython.Py_ssize_t = DEAL
        extra: cython.Py_ssize_t = EXTRA
        m: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        i: cython.Py_ssize_t
        at: cython.Py_ssize_t
        if lay.stock_pile >= 0 and size[lay.stock_pile]:
            return -1
        for m in legal:
            if m == deal or m >= extra:
                continue
            dst = (m >> 8) & 255
            if not size[dst] or down[dst]:
                continue  # a King to a space, or a card onto one over face-down cards
            at = dst * stride
            i = 1
            while i < size[dst] and succ[cards[at + i]] == cards[at + i - 1]:
                i += 1
            if i == size[dst]:
                return m
        return -1

    def stuck(self, board: Board) -> cython.bint:
        """``moves.stuck`` on the board's columns."""
        board.ready()
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


    def after_deal(self, board: Board) -> list[int] | None:
        """After a deal: the talon's useful moves alone (docs/solver.md, The stock commutes)."""
        if self.talon_sources is None or board.vars[1] <= self.open_pass:
            return None  # (the turn with nothing played is tried there: ``open_pass``)
        out: list[int] = []
        m: cython.Py_ssize_t
        for m in board.moves(self.talon_sources):
            if board.useful(m):
                out.append(m)
        return out

    def talon_moves(self, board: Board) -> list[int] | None:
        """In place of the stock's deal: the moves of each card the deals bring to the
        waste's top, each one move with the deals before it (``talon_move``), in the order
        the search tried them a deal at a time: each deal's position searched for the
        talon's moves alone (``after_deal``), those ``choose`` keeps, the next deal while
        it keeps one. So the positions the deals pass through are neither kept in the
        table nor searched (docs/solver.md, The stock commutes). None where a deal's
        position is searched whole (``open_pass``). The board is left as it was.

        Where the deals change nothing but the stock and the one waste
        (``Layout.brings``) and ``choose`` judges a deal's position by its waste card
        alone (``plain_deals``), the deals are played on numbers, and the choice is asked
        only where some pile could take a deal's waste card, of the deal's position set as
        far as it reads it."""
        lay: Layout = board.layout
        if self.talon_sources is None:
            return None
        if not (self.plain_deals and lay.brings and type(board) is Board
                and self.talon_sources == lay.wastes and board.has[1] and board.has[2]):
            return self.dealt_moves(board)
        s: cython.Py_ssize_t = lay.stock_pile
        w: cython.Py_ssize_t = lay.wastes[0]
        size: cython.p_uchar = board.size
        cards: cython.p_uchar = board.cards
        stock: cython.Py_ssize_t = size[s]  # the deals played on numbers: the stock's size,
        waste: cython.Py_ssize_t = size[w]  # the waste's, the pass and the progress
        passes: cython.Py_ssize_t = board.vars[1]
        progress: cython.Py_ssize_t = board.vars[2]
        dealt: cython.Py_ssize_t  # cards of the stock dealt onto the waste
        top: cython.Py_ssize_t
        takes: cython.ulonglong = self.waste_takes(board, w)
        at_s: cython.Py_ssize_t = stock
        at_w: cython.Py_ssize_t = waste
        at_pass: cython.Py_ssize_t = passes
        at_progress: cython.Py_ssize_t = progress
        one: cython.ulonglong = 1
        k: cython.Py_ssize_t = 0
        more: cython.bint = True
        out: list[int] = []  # the moves tried before the next deal, by deal
        after: list[int] = []  # those tried after it, the last deal's first
        while more:
            if stock:
                dealt = min(lay.draw, stock)
                stock -= dealt
                waste += dealt
            else:
                stock, waste = waste, 0
                passes += 1
                progress = 0
            if passes <= self.open_pass or k == MAX_DEALS:
                return None  # (as ``after_deal``: from the first deal, as passes only grow)
            k += 1
            if not waste:
                top = -1
            elif waste <= at_w:
                top = cards[w * STRIDE + waste - 1]
            else:  # the stock's cards, its top first
                top = cards[s * STRIDE + at_s - (waste - at_w)]
            if top >= 0 and takes >> top & one:
                # The deal's position as far as its choice reads it: the talon's sizes, the
                # waste's top card, the pass and the progress; set, then put back.
                size[s] = stock
                size[w] = waste
                cards[w * STRIDE + waste - 1] = top
                board.vars[1] = passes
                board.vars[2] = progress
                more = self.sort_in(self.choose(board, self.after_deal(board) or [], True),
                                    k, out, after)
                size[s] = at_s
                size[w] = at_w
                board.vars[1] = at_pass
                board.vars[2] = at_progress
            else:  # ``choose`` of the deal alone: it is listed and useful (``Board.useful``:
                # cards left to deal, or some played since the last turn, which ``ordered``
                # keeps as well)
                more = bool(stock) or (bool(waste) and progress > 0
                                       and not (lay.passes and passes >= lay.passes))
        return out + after

    def dealt_moves(self, board: Board) -> list[int] | None:
        """``talon_moves`` where the deals are played one at a time (several wastes, a
        board played through the state, a choice that judges more than the waste's card):
        each deal's position listed and chosen from."""
        deal: cython.Py_ssize_t = DEAL
        _: cython.Py_ssize_t
        board.play(deal)
        quick = self.after_deal(board)
        k: cython.Py_ssize_t = 1
        out: list[int] = []
        after: list[int] = []
        while quick is not None and self.sort_in(self.choose(board, quick, True), k, out, after):
            if k == MAX_DEALS:
                quick = None
                break
            board.play(deal)
            k += 1
            quick = self.after_deal(board) or []
        for _ in range(k):
            board.undo()
        return None if quick is None else out + after

    def sort_in(self, chosen: Sequence[int], k: cython.Py_ssize_t, out: MutableSequence[int],
                after: MutableSequence[int]) -> cython.bint:
        """Puts the moves ``choose`` keeps after ``k`` deals where the search reaches them
        (``talon_moves``): those before the next deal in ``out``, those after it at the
        head of ``after`` (the next deals' come first). Whether the next deal is kept."""
        m: cython.Py_ssize_t
        more: cython.bint = False
        later: cython.Py_ssize_t = 0
        for m in chosen:
            if m == DEAL:
                more = True
            elif more:
                after.insert(later, -2 - (k | m << 8))
                later += 1
            else:
                out.append(-2 - (k | m << 8))
        return more

    def waste_takes(self, board: Board, waste: cython.Py_ssize_t) -> cython.ulonglong:
        """The cards some pile could take from the waste now, as bits, or more (``takes``):
        while the stock is dealt, none of them changes."""
        out: cython.ulonglong = 0
        t: cython.Py_ssize_t
        for t in board.layout.lone[waste]:
            out |= self.takes(board, t)
        return out

    def takes(self, board: Board, f: cython.Py_ssize_t) -> cython.ulonglong:
        """The cards pile ``f`` takes now by its build or its fill (``RuleSet._takes``), as
        bits: a foundation's exactly; a column's or more (who may fill a space is not
        read)."""
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
        base: cython.Py_ssize_t = board.vars[0] if board.has[0] else 1
        if fill == 3:  # the base rank
            return ALL if base == 0 else self.ranks[base]
        if fill == 4:  # the rank below the base
            return ALL if base == 0 else self.ranks[below(base)]
        return 0

    def safe_moves(self, board: Board, legal: Sequence[int]) -> list[int]:
        """``safe_moves``: the safe foundation moves among ``legal``, one per source pile."""
        board.ready()
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
        found: cython.p_uchar = self.found  # the piles a safe move was found from
        out: list[int] = []
        extra: cython.Py_ssize_t = EXTRA
        for m in legal:
            if m == deal or m >= extra:
                continue
            src, dst = m & 255, (m >> 8) & 255
            if m >> 16 == 1 and kind[dst] == foundation and not found[src] and (
                    self.is_safe(board, src, dst, founded)):
                found[src] = 1
                out.append(m)
        for m in out:
            found[m & 255] = 0
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


def choice_for(rules: RuleSet, safe: bool = True, narrow: bool = False,
               start: State | None = None) -> Choice:
    """The ``Choice`` each search makes its moves' choice with (one name for the searches to
    look up, so that a test can give them another)."""
    return Choice(rules, safe, narrow, start)


def chosen(st: State, legal: Sequence[Move] | None = None, *, safe: bool = True,
           narrow: bool = False, after_deal: bool = False, start: State | None = None
           ) -> list[Move]:
    """The moves a search tries from ``st`` (of ``legal``, by default all), best first, as
    the engine's moves: ``Choice.choose`` on the position's board. For tests and tools."""
    from . import state_board

    board = state_board.board_for(st)
    choice = choice_for(st.rules, safe, narrow, start)
    codes = [board.code_of(m) for m in (st.legal_moves() if legal is None else legal)]
    return [board.move_of(m) for m in choice.choose(board, codes, after_deal)]


def stuck(piles: list[list[int]], columns: Sequence[int], succ: bytes) -> bool:
    """Whether cards of these columns wait on each other in a circle
    (``moves.successors``)."""
    on = bytearray(b"\xff" * 52)
    under = bytearray(b"\xff" * 52)
    for p in columns:
        pile = piles[p]
        for i in range(1, len(pile)):
            on[pile[i - 1]] = pile[i]
            under[pile[i]] = pile[i - 1]
    return circled(on, under, succ)


def circled(on: bytearray, under: bytearray, succ: bytes) -> bool:
    """``stuck`` from ``on`` (per card, the card lying directly on it) and ``under`` (the
    card it lies directly on), ``NONE`` for none: each card waits for at most one other, so
    following the waits from each card finds every circle. Compiled with the search, which
    asks it of every position."""
    above: cython.p_uchar = on
    below: cython.p_uchar = under
    ends: cython.p_uchar = succ
    marks = bytearray(52)
    mark: cython.p_uchar = marks
    waits = bytearray(b"\xff" * 52)
    wait: cython.p_uchar = waits
    none: cython.Py_ssize_t = NONE
    c: cython.Py_ssize_t
    s: cython.Py_ssize_t
    w: cython.Py_ssize_t
    for c in range(52):
        s = ends[c]
        if s != none and below[c] != s:
            w = above[s]
            if w != none and ends[w] != none:
                wait[c] = w
    for c in range(52):
        w = c
        while w != none and not mark[w]:
            mark[w] = c + 1
            w = wait[w]
        if w != none and mark[w] == c + 1:
            return True
    return False


def talon_deals(m: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """A card from the talon (``Choice.talon_moves``): the deals that bring it up."""
    return (-2 - m) & 255


def talon_move(m: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """A card from the talon: its move once the deals brought it up."""
    return (-2 - m) >> 8


class DepthFirst:
    """The depth-first search from ``st`` (left unchanged): its board, table, stack and
    counters. ``run`` may be called again with a larger budget, to go on from where it
    stopped."""

    def __init__(self, st: State, progress: Progress | None, narrow: bool = False) -> None:
        from . import state_board

        self.start = st
        self.progress = progress
        self.scored = scored(st)
        self.board = state_board.board_for(st)
        self.choice = choice_for(st.rules, not self.scored, narrow, st)
        #: Positions between two looks at the clock: a look costs about what a position on
        #: a board does; a position played through a state can cost much more.
        self.clock_every = 1 if isinstance(self.board, state_board.StateBoard) else 16
        #: The positions met: fingerprints of the board's keys (``Table``), or the keys
        #: themselves where the table runs as Python or the board plays through the state
        #: (chosen at the first run, for the board the search has then).
        self.seen: Table | set[object] = set()
        self.t0 = time.perf_counter()
        self.next_report = self.t0 + REPORT_EVERY  # kept across runs: one report a second
        self.best: tuple[int, tuple[Move, ...]] | None = None
        # The stack, a frame a position on the line: its moves to try, how many of them
        # were tried, and the move straight back to the position before (``Board.way_back``),
        # which is in the table and so not tried. Three lists rather than a tuple a frame:
        # a frame changes with each move tried, and a new tuple each time cost more.
        self.frames: list[list[int]] | None = None
        self.tried: list[int] = []
        self.backs: list[int] = []
        #: Per frame, how many of the board's moves the move into its position played (a
        #: move from the talon plays its deals too: ``talon_moves``).
        self.plays: list[int] = []

    def line(self) -> tuple[Move, ...]:
        """The moves from the start to the board's position: each frame's move played."""
        board: Board = self.board
        line: list[Move] = []
        for moves, i in zip(self.frames or [], self.tried, strict=True):
            m = moves[i - 1]
            if m <= -2:  # a card from the talon: its deals, then its move
                line += [board.move_of(DEAL)] * talon_deals(m)
                m = talon_move(m)
            line.append(board.move_of(m))
        return tuple(line)

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def verdict(self, outcome: Outcome, moves: tuple[Move, ...] = (), complete: bool = False,
                score: int | None = None) -> Verdict:
        return Verdict(outcome, moves, len(self.seen), self.elapsed(), score, complete)

    def run(self, cap: int | None = None, deadline: float | None = None,
            offset: int = 0) -> Verdict:
        """Search until decided, ``cap`` positions in the table or the ``deadline``
        (``time.perf_counter``); ``offset``: positions other searches made, for progress."""
        board: Board = self.board
        choice: Choice = self.choice
        talon: cython.bint = choice.talon
        points: cython.bint = self.scored
        deal: cython.Py_ssize_t = DEAL
        if self.frames is None:
            from .state_board import StateBoard

            if native() and not isinstance(board, StateBoard):
                self.seen = Table()
                self.seen.add(board.keybuf, board.write_key())
            else:
                self.seen = {board.key()}
            moves, status = board.legal()
            if status != PLAYING:
                return self.arrive(status) or self.exhausted()
            self.frames = [choice.choose(board, moves, False)]
            self.tried = [0]
            self.backs = [-1]
            self.plays = [0]
        table: Table | None = None
        keys: set[object] = set()
        if isinstance(self.seen, Table):
            table = self.seen
        else:
            keys = self.seen
        frames: list[list[int]] = self.frames
        tried: list[int] = self.tried
        backs: list[int] = self.backs
        plays: list[int] = self.plays
        # A plain board brings a talon's card up in one move (``Board.bring``).
        brings: cython.bint = type(board) is Board and board.layout.brings
        played: cython.Py_ssize_t
        _: cython.Py_ssize_t  # (a C loop's counter)
        walk: list[int] | None
        limit: cython.Py_ssize_t = -1 if cap is None else cap
        every: cython.Py_ssize_t = self.clock_every
        ticks: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        move: cython.Py_ssize_t
        back: cython.Py_ssize_t
        known: cython.Py_ssize_t
        n: cython.Py_ssize_t
        new: cython.bint
        dealt: cython.bint
        mine: list[int]
        while frames:
            if limit >= 0 and (len(keys) if table is None else table.count) >= limit:
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
                for _ in range(plays.pop()):
                    board.undo()
                continue
            tried[-1] = i + 1
            move = mine[i]
            back = backs[-1]
            if move == back:
                continue
            if talon and move == deal:
                walk = choice.talon_moves(board)
                if walk is not None:
                    mine[i:i + 1] = walk
                    tried[-1] = i
                    continue
            played = 1
            if move <= -2:
                if brings:
                    board.bring(talon_deals(move))
                    played = 2
                else:
                    played += talon_deals(move)
                    for _ in range(played - 1):
                        board.play(deal)
                board.play(talon_move(move))
            else:
                board.play(move)
            dealt = talon and move == deal
            if table is not None:
                n = board.write_dealt_key() if dealt else board.write_key()
                new = table.add(board.keybuf, n)
            else:
                known = len(keys)
                keys.add(board.dealt_key() if dealt else board.key())
                new = len(keys) != known
            if not new:  # one look in the table: a position met before leaves it as it was
                for _ in range(played):
                    board.undo()
                continue
            quick = choice.after_deal(board) if dealt else None
            if quick is not None:
                frames.append(choice.choose(board, quick, True))
                tried.append(0)
                backs.append(-1)  # a deal has no way back
                plays.append(1)
                continue
            moves, status = board.legal()
            if status != PLAYING:
                if status == WON and not points:
                    return self.verdict(Outcome.WON, self.line())
                if points:
                    self.arrive(status)
                for _ in range(played):
                    board.undo()
                continue
            frames.append(choice.choose(board, moves, dealt))
            tried.append(0)
            # (the journal still ends with ``move``; a talon's card has no way back)
            backs.append(board.way_back(move) if move >= 0 else -1)
            plays.append(played)
        return self.exhausted()

    def arrive(self, status: str) -> Verdict | None:
        """At a position that is over: won (the search ends), or for a game played for
        points its score, the best so far kept with its line."""
        if not self.scored:
            return self.verdict(Outcome.WON, self.line()) if status == WON else None
        if status in (FINISHED, WON):
            score = self.board.score()
            if self.best is None or score > self.best[0]:
                self.best = (score, self.line())
        return None

    def late(self, deadline: float | None, offset: int) -> bool:
        """Whether the deadline has passed; reports the progress now and then."""
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            return True
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + REPORT_EVERY
            self.progress(len(self.seen) + offset, now - self.t0)
        return False

    def out_of_budget(self) -> Verdict:
        if self.scored and self.best is not None:
            return self.verdict(Outcome.BEST, self.best[1], score=self.best[0])
        return self.verdict(Outcome.UNKNOWN)

    def exhausted(self) -> Verdict:
        if self.choice.dropped:  # the moves a narrowed search left out may have won
            return self.verdict(Outcome.UNKNOWN)
        if self.scored:
            if self.best is None:  # no finished position reachable: cannot happen in play
                return self.verdict(Outcome.UNKNOWN, complete=True)
            return self.verdict(Outcome.BEST, self.best[1], complete=True, score=self.best[0])
        return self.verdict(Outcome.LOST, complete=True)


__all__ = ["Choice", "DepthFirst", "choice_for", "chosen", "circled", "scored", "stuck"]
