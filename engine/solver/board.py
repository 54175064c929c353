"""A position as C data, for the rule sets built from the shared declarations alone.

The engine's ``State`` keeps its piles as lists of Python integers and plays through the
rule set's hooks, one method call at a time: right for a server that checks one move, but
a search pays for every object made and every call (docs/solver.md, Boards). A
``Board`` holds the same position as bytes (each pile's cards, face-down counts, the vars)
and lists, plays and takes back moves in loops the compiled build runs in C.

It plays only the shared rules of ``engine/rules.py``: a rule set that overrides any hook
those rules run to list or play moves (``OWN_HOOKS``) is not ``plain`` and has no board.
One kind of hook of its own is allowed (``ASKED``): the end-of-game rule that judges which
moves are useful, by a search of its own in some games (``mechanics/reversible.py``,
``mechanics/circular_columns.py``). A board asks that rule, through a state made of its
position, whenever it has a move (a search's board does not: ``Board.legal``). Where a
board exists it must do exactly what the engine does: tests/engine/test_board.py checks, at
every position
of random games of every plain rule set, the same legal moves in the same order, the same
piles, face-down counts and vars after each move and each take-back, the same status, and
keys that tell positions apart exactly as ``position.key_maker``'s do.

A move is one integer: ``src | dst << 8 | n << 16`` for cards from pile to pile, ``DEAL``
for the stock's action.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..cards import RANK, SUIT
from ..core import LOST, MOVE, PLAYING, STOCK, WON, Move, State
from ..options import Carry, Deals, Fill, Goal, Kind, Scoring, Unit
from ..piles import below
from ..rules import RuleSet
from .position import card_codes, dealt_columns, endless, interchangeable, own_hooks, sink_piles

#: The hooks the shared rules run when listing, playing and judging moves: a rule set with
#: its own version of any of them plays by rules a board does not know.
OWN_HOOKS = ("legal_moves", "iter_moves", "moves_from", "_takes", "target_refusal",
             "fill_refusal", "source_refusal", "unit_refusal", "extra_moves", "unit_sizes",
             "run_length", "stock_refusal", "apply", "apply_move", "apply_stock", "deal_round",
             "apply_extra", "after_move", "turn_tops", "status", "settled", "going_on", "won",
             "finished", "costless", "covered_by", "redeal_ahead")
#: The hooks that judge only whether a position with a move goes on (``RuleSet.going_on``):
#: a board asks a rule set's own version of them through a ``State``.
ASKED = ("useful", "searched")
#: The vars the shared rules keep, in the order ``initial_vars`` makes them.
VARS = ("base", "pass", "progress")

#: The stock's action as a move.
DEAL = 1 << 24
#: A move of a rule set's own kind (``state_board.StateBoard``): this and above.
EXTRA = 1 << 25
#: Cards a pile may hold: the deck.
STRIDE = 52
#: A build's table of flags: 52 cards laid on 52 (``Build.table``).
TABLE = 52 * 52
KINDS = (Kind.TABLEAU, Kind.FOUNDATION, Kind.STOCK, Kind.WASTE, Kind.RESERVE, Kind.CELL,
         Kind.GRID)
FOUNDATION_CODE, STOCK_CODE, WASTE_CODE = 1, 2, 3
UNITS = (None, Unit.TOP, Unit.TAIL, Unit.WHOLE, Unit.FACEUP, Unit.PACKED)
TOP_CODE, TAIL_CODE, WHOLE_CODE, FACEUP_CODE, PACKED_CODE = 1, 2, 3, 4, 5
FILLS = (Fill.ANY, Fill.NONE, Fill.KING, Fill.BASE, Fill.BELOW_BASE)
ANY_CODE, NONE_CODE, KING_CODE, BASE_CODE, BELOW_BASE_CODE = 0, 1, 2, 3, 4
DEALS = (Deals.NONE, Deals.WASTE, Deals.TABLEAU, Deals.FOUNDATION)
TO_NONE, TO_WASTE, TO_TABLEAU, TO_FOUNDATION = 0, 1, 2, 3
#: Journal entries, eight bytes each: cards moved (src, dst, n, flags, old face-down counts
#: of both), a face-down count set (pile, old), a var set (index, old value in two bytes).
CARDS, DOWN, VAR = 1, 2, 3
REVERSE, HIDE = 1, 2
SEP = 255
RANKS = bytes(RANK)
SUITS = bytes(SUIT)
#: Per rank the one below it (``piles.below``), read where the base rank is known.
UNDER = bytes(below(r) for r in range(14))
GOALS = (Goal.FOUNDATIONS, Goal.CLEAR, Goal.RUNS)
FOUNDATIONS_GOAL, CLEAR_GOAL, RUNS_GOAL = 0, 1, 2
# Compiled, board.pxd makes the numbers above C values, which are not in the module's
# namespace: the ones other modules import are put there (as Python, this changes nothing).
globals().update(DEAL=DEAL, EXTRA=EXTRA, STRIDE=STRIDE, FOUNDATION_CODE=FOUNDATION_CODE,
                 ANY_CODE=ANY_CODE, BASE_CODE=BASE_CODE, KING_CODE=KING_CODE,
                 TO_TABLEAU=TO_TABLEAU, RANKS=RANKS)


def plain(rules: RuleSet) -> bool:
    """Whether ``rules`` lists and plays its moves by the shared rules alone, so that a board
    plays it (its end-of-game rule may be its own: ``ASKED``). Not with a discard pile
    (``RuleSet.discard``): a board keys every foundation by its top card."""
    return (rules.scoring != Scoring.POINTS and rules.players == (1, 1)
            and not rules.discard and not own_hooks(rules, OWN_HOOKS))


def playable(st: State) -> bool:
    """Whether a board plays ``st``: a plain rule set played to a win, with no var the
    shared rules do not keep (a resignation)."""
    return plain(st.rules) and set(st.vars) <= set(VARS)


class Layout:
    """What a board needs of a rule set's declarations, as bytes: per pile its kind, unit,
    fill, capacity, build table, targets; the stock's action; the key's pile order.
    ``plain``: a board plays the rule set by the shared rules (``plain``); a layout of
    another rule set describes its piles for a board played through the engine's own state
    (``state_board.StateBoard``)."""

    def __init__(self, rules: RuleSet, strict: bool = True) -> None:
        self.plain = plain(rules)
        if strict and not self.plain:
            raise ValueError(f"{rules.key} has rules of its own: no board plays it")
        groups = rules.pile_group
        self.count = count = len(groups)
        self.kind = bytes(KINDS.index(g.kind) for g in groups)
        self.unit = bytes(UNITS.index(g.unit) for g in groups)
        self.fill = bytes(FILLS.index(g.fill) for g in groups)
        self.capacity = bytes(g.capacity for g in groups)
        self.limit = bytes(rules.pile_limit)
        # Per pile whose moves of several cards carry what the room allows (``Carry.ROOM``):
        # its group's piles that any card may start, counted while empty (``RuleSet.room``).
        self.room = bytes(g.carry == Carry.ROOM for g in groups)
        self.spaces = [bytes(rules.by_kind[g.kind]) if g.fill == Fill.ANY and not g.fill_from
                       else b"" for g in groups]
        self.cells = bytes(rules.by_kind.get(Kind.CELL, ()))
        self.turning = bytes(rules.turning)
        tables: list[bytes] = []
        build = bytearray(count)  # 1 + the index of the pile's build table (0: no build)
        for p, g in enumerate(groups):
            if g.build is not None:
                if g.build.table not in tables:
                    tables.append(g.build.table)
                build[p] = 1 + tables.index(g.build.table)
        self.build = bytes(build)
        self.tables = b"".join(tables)
        self.sources = bytes(rules.sources)
        self.targets = [bytes(rules.targets.get(p, ())) for p in range(count)]
        self.lone = [bytes(rules.lone_targets.get(p, rules.targets.get(p, ())))
                     for p in range(count)]
        self.foundations = bytes(rules.by_kind.get(Kind.FOUNDATION, ()))
        self.wastes = bytes(rules.by_kind.get(Kind.WASTE, ()))
        self.tableau = bytes(rules.by_kind.get(Kind.TABLEAU, ()))
        self.goal = GOALS.index(rules.goal)
        # Per pile: the kinds whose cards may start it, one bit per ``KINDS`` code (0: any);
        # 1 + the pile that refills it (0: none); and the piles refilled, with their refiller.
        self.fill_from = bytes(sum(1 << KINDS.index(k) for k in g.fill_from) for g in groups)
        refiller = bytearray(count)
        for t, r in rules.refilled:
            refiller[t] = 1 + r
        self.refiller = bytes(refiller)
        self.refilled = bytes(p for pair in rules.refilled for p in pair)
        self.cleared = bytes(rules.cleared)
        # The foundation that takes completed runs off the columns, and their length
        # (``Group.collects``; 0: none).
        self.collect_to, self.collects = rules.collector or (0, 0)
        stock = rules.stock
        self.stock_pile = rules.stock_pile
        self.deals = DEALS.index(stock.to) if stock is not None else TO_NONE
        self.draw = stock.draw if stock is not None else 0
        self.passes = stock.passes if stock is not None else 0
        # The piles the stock's last cards go to (``Stock.rest``).
        self.rest = bytes(rules.by_kind[stock.rest]) if stock and stock.rest else b""
        self.endless = endless(rules)
        # ``Board.bring``: one waste the stock deals to, and no pile a deal leaves or fills
        # turns a card up, is collected or refills another.
        talon = {self.stock_pile, *self.wastes}
        self.brings = (self.deals == TO_WASTE and len(self.wastes) == 1 and not self.collects
                       and not talon & (set(self.turning) | set(self.refilled[1::2])))
        # The key: piles alone, then each group of interchangeable piles, then the
        # foundations no card leaves (three bytes each), as ``position.key_maker`` orders them.
        sunk = set(sink_piles(rules))
        grouped = interchangeable(rules)
        dealt, self.keep = dealt_columns(rules)
        #: The columns the stock deals to by place, kept after the piles alone: those it
        #: deals no more cards to sorted (``position.dealt_columns``).
        self.dealt = bytes(dealt)
        flat = {p for g in grouped for p in g} | set(dealt)
        self.alone = bytes(p for p in range(count) if p not in flat and p not in sunk)
        self.sunk = bytes(p for p in sorted(sunk) if p not in flat)
        self.groups = [bytes(g) for g in grouped if not sunk & set(g)]
        self.sunk_groups = [bytes(g) for g in grouped if sunk & set(g)]
        #: What the key writes for each card: its rank alone where no rule reads suits.
        self.canon = card_codes(rules)
        #: The one foundation is a discard pile (``RuleSet.discard``): keyed by its size alone,
        #: as ``position.discarded`` keys it (``pair_board.PairBoard``).
        self.discard = bool(rules.discard)
        #: The rule set judges whether a game goes on by its own rule (``ASKED``): asked.
        self.rules = rules
        self.asks = own_hooks(rules, ASKED)
        #: The vars a board keeps: the shared rules', then the var that counts the redeals
        #: of a grid's gaps (``RuleSet.gap_rule``, ``gap_board.GapBoard``).
        self.names = VARS + (("redeals",) if rules.gap_rule is not None else ())
        self.decoded: dict[int, Move] = {}  # each move met, as the engine's ``Move``


class Board:
    """A position of a plain rule set (``plain``) as bytes: list, play and take back moves."""

    def __init__(self, st: State, layout: Layout | None = None, ask: bool = True) -> None:
        self.layout = lay = layout or Layout(st.rules)
        #: Whether ``legal`` asks the rule set's own end-of-game rule (``asked``); a search
        #: does without it (``legal`` says why).
        self.ask = lay.asks and ask
        unknown = set(st.vars) - set(lay.names)
        if unknown:
            raise ValueError(f"a board keeps no var {sorted(unknown)[0]!r}")
        self.cards = bytearray(lay.count * STRIDE)
        self.size = bytearray(lay.count)
        self.down = bytearray(st.down)
        for p, pile in enumerate(st.piles):
            self.cards[p * STRIDE:p * STRIDE + len(pile)] = bytes(pile)
            self.size[p] = len(pile)
        #: The vars, present or not, and their values: base, pass, progress (``names``).
        self.has = bytes(name in st.vars for name in lay.names)
        self.vars = [st.vars.get(name, 0) for name in lay.names]
        #: The key's pile order: the piles alone, then each group's piles as the last key
        #: sorted them (``key`` sorts them again from there, so a move costs it a few steps).
        self.order = bytearray(lay.alone + lay.dealt + b"".join(lay.groups))
        self.keybuf = bytearray(5 * lay.count + 52 + 3 * len(lay.names) + 3)  # (``dealt_key``)
        self.journal = bytearray(1024)
        self.used = 0  # bytes of the journal in use
        self.marks: list[int] = []  # where each move's entries begin

    # ----- what the engine's state holds ------------------------------------------------

    def piles(self) -> list[list[int]]:
        return [list(self.cards[p * STRIDE:p * STRIDE + self.size[p]])
                for p in range(self.layout.count)]

    def var_dict(self) -> dict[str, int]:
        return {name: self.vars[i] for i, name in enumerate(self.layout.names) if self.has[i]}

    def pack(self) -> bytes:
        """The position in a few bytes, for a best-first queue or a beam: each pile's size and
        face-down count, the piles' cards, the vars (three bytes each). One buffer, written
        byte by byte (a C loop, compiled): slices of each pile cost best first and the beam
        more than all else a position costs them."""
        lay: Layout = self.layout
        count: cython.Py_ssize_t = lay.count
        stride: cython.Py_ssize_t = STRIDE
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        cards: cython.p_uchar = self.cards
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        v: cython.Py_ssize_t
        at: cython.Py_ssize_t = 2 * count
        total: cython.Py_ssize_t = at + 3 * len(self.vars)
        for p in range(count):
            total += size[p]
        buf = bytearray(total)
        out: cython.p_uchar = buf
        for p in range(count):
            out[p] = size[p]
            out[count + p] = down[p]
            for i in range(size[p]):
                out[at + i] = cards[p * stride + i]
            at += size[p]
        for v in self.vars:
            out[at] = v & 255
            out[at + 1] = (v >> 8) & 255
            out[at + 2] = v >> 16
            at += 3
        return bytes(buf)

    def unpack(self, packed: bytes) -> None:
        """Set the board to the position ``pack`` kept, with nothing to take back."""
        lay: Layout = self.layout
        count: cython.Py_ssize_t = lay.count
        stride: cython.Py_ssize_t = STRIDE
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        cards: cython.p_uchar = self.cards
        kept: cython.p_uchar = packed
        at: cython.Py_ssize_t = 2 * count
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        n: cython.Py_ssize_t
        for p in range(count):
            n = size[p] = kept[p]
            down[p] = kept[count + p]
            for i in range(n):
                cards[p * stride + i] = kept[at + i]
            at += n
        for q in range(len(self.vars)):
            self.vars[q] = kept[at] | kept[at + 1] << 8 | kept[at + 2] << 16
            at += 3
        self.used = 0
        self.marks.clear()

    @staticmethod
    def encode(m: Move) -> int:
        if m.kind == STOCK:
            return DEAL
        if m.kind != MOVE:
            raise ValueError(f"a board has no move of the kind {m.kind!r}")
        return m.src | m.dst << 8 | m.n << 16

    @staticmethod
    def decode(m: int) -> Move:
        if m == DEAL:
            return Move(STOCK)
        return Move(MOVE, m & 255, (m >> 8) & 255, m >> 16)

    def move_of(self, m: cython.Py_ssize_t) -> Move:
        """The engine's move of ``m`` (``decode``; a board played through a state has moves
        of other kinds too)."""
        return Board.decode(m)

    def code_of(self, m: Move) -> int:
        """The board's number for the engine's move ``m`` (``encode``)."""
        return Board.encode(m)

    # ----- what only a rule set's own rules know (``state_board.StateBoard``) -------------

    def score(self) -> cython.Py_ssize_t:
        """The score of the position (a game played for points; none has a plain board)."""
        return 0

    def costless(self, m: cython.Py_ssize_t) -> cython.bint:
        """``RuleSet.costless``: the shared rules know of no such move."""
        return False

    def redeal_ahead(self) -> cython.bint:
        """``RuleSet.redeal_ahead``: the shared rules have no shuffled redeal."""
        return False

    def exact(self, uncounted: cython.bint) -> bytes:
        """The position exactly, every pile in its place (``pack``); without the pass count
        where passes are unlimited (``uncounted``: it only counts)."""
        packed = bytearray(self.pack())
        if uncounted:
            at = len(packed) - 3 * (len(self.vars) - 1)  # the pass, the second of ``VARS``
            packed[at:at + 3] = b"\0\0\0"
        return bytes(packed)

    def is_won(self) -> cython.bint:
        """Whether the position is won (``RuleSet.won``, which no rule set a board plays
        makes its own)."""
        return self.won()

    def way_back(self, m: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Just after ``m`` was played: the move straight back to the position before, where
        it leads to that very position, which a search has in its table; else -1.

        So it does when ``m`` only moved its cards (one journal entry: nothing turned up or
        refilled, no var changed) and the way back only moves them again: it turns nothing
        up (the pile it leaves had its top card face up before ``m``) and refills nothing (a
        pile a reserve refills is never empty while the reserve has cards). Not where ``m``
        touched the stock or a waste: the way back would count cards played from the talon,
        and a position a deal led to, whose moves all touch the talon, is keyed apart from
        the same position reached otherwise."""
        if m == DEAL or self.used - self.marks[-1] != 8:
            return -1
        kind: cython.p_uchar = self.layout.kind
        src: cython.Py_ssize_t = m & 255
        dst: cython.Py_ssize_t = (m >> 8) & 255
        stock: cython.Py_ssize_t = STOCK_CODE
        waste: cython.Py_ssize_t = WASTE_CODE
        if kind[src] in (stock, waste) or kind[dst] in (stock, waste):
            return -1
        return dst | src << 8 | (m >> 16) << 16

    def ready(self) -> None:
        """Make the bytes the position (a board played through a state updates them only
        when asked): a board's always are."""

    # ----- listing ----------------------------------------------------------------------

    def legal(self) -> tuple[list[int], str]:
        """The legal moves and the status, from one listing (as ``State.legal_moves``): no
        moves once the game is over.

        A board made with ``ask=False`` (a search's) judges by the shared rule alone, also
        where the rule set has its own (``ASKED``). A search needs of the status only
        whether a position is won and whether it has moves to try, and where the rule set's
        own rule calls a game lost no win is reachable (no move can change anything that
        matters any more). So searching on from such a position finds no line the engine
        would refuse, and a search that runs out of positions has still searched all those
        the engine's rule lets it reach: its verdicts stand. What it costs is the positions
        of those dead ends, far less than asking at every position (docs/solver.md)."""
        m: cython.Py_ssize_t
        if self.won():
            return [], WON
        moves = self.moves()
        if self.ask:
            status = self.asked(moves)
            return (moves, status) if status == PLAYING else ([], status)
        for m in moves:
            if self.useful(m):
                return moves, PLAYING
        return [], LOST

    def won(self) -> bool:
        """Whether the rule set's declared goal is reached (``RuleSet.won``)."""
        lay: Layout = self.layout
        size: cython.p_uchar = self.size
        p: cython.Py_ssize_t
        held: cython.Py_ssize_t = 0
        if lay.goal == FOUNDATIONS_GOAL:
            for p in lay.foundations:
                held += size[p]
            return bool(held == 52)
        if lay.goal == CLEAR_GOAL:
            for p in lay.cleared:  # noqa: SIM110 (a C loop, compiled)
                if size[p]:
                    return False
            return True
        cards: cython.p_uchar = self.cards
        rank_of: bytes = RANKS  # local references: the pointers below stay valid
        suit_of: bytes = SUITS
        ranks: cython.p_uchar = rank_of
        suits: cython.p_uchar = suit_of
        stride: cython.Py_ssize_t = STRIDE
        k: cython.Py_ssize_t
        c: cython.Py_ssize_t
        for p in lay.tableau:
            if not size[p]:
                continue
            if size[p] != 13 or self.down[p]:
                return False
            for k in range(13):
                c = cards[p * stride + k]
                if ranks[c] != 13 - k or suits[c] != suits[cards[p * stride]]:
                    return False
            held += 13
        return bool(held == 52)

    def asked(self, moves: Sequence[int]) -> str:
        """The status by the rule set's own end-of-game rule (``ASKED``), asked of a state
        made of this position: its searches run in Python, and cost what they cost the
        engine (its answers are remembered by position, so the same ones serve both)."""
        lay: Layout = self.layout
        rules: RuleSet = lay.rules
        decoded: dict[int, Move] = lay.decoded
        listed = []
        for m in moves:
            move = decoded.get(m)
            if move is None:
                move = decoded[m] = Board.decode(m)
            listed.append(move)
        st = State(rules, b"", self.piles(), list(self.down), self.var_dict())
        return rules.going_on(st, listed)

    def status(self) -> str:
        return self.legal()[1]

    def moves(self, sources: bytes | None = None) -> list[int]:
        """The legal moves of cards out of ``sources`` (default: every source pile), then
        the stock's, in the order ``RuleSet.moves_from`` lists them: for each source, each
        unit that may leave it (``RuleSet.unit_sizes``), each target that takes its card by
        its build or fill (``RuleSet._takes``)."""
        lay: Layout = self.layout
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        units: cython.p_uchar = lay.unit
        limits: cython.p_uchar = lay.limit
        caps: cython.p_uchar = lay.capacity
        fills: cython.p_uchar = lay.fill
        froms: cython.p_uchar = lay.fill_from
        refillers: cython.p_uchar = lay.refiller
        kinds: cython.p_uchar = lay.kind
        builds: cython.p_uchar = lay.build
        tables: cython.p_uchar = lay.tables
        targets: list[bytes] = lay.targets
        lone: list[bytes] = lay.lone  # (``RuleSet.lone_targets``)
        if sources is None:
            sources = lay.sources
        rank_of: bytes = RANKS  # a local reference: the pointer below stays valid
        ranks: cython.p_uchar = rank_of
        base: cython.Py_ssize_t = self.vars[0] if self.has[0] else 1
        under_base: cython.Py_ssize_t = UNDER[base]
        roomy: cython.p_uchar = lay.room
        out: list[int] = []
        tg: bytes
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        n: cython.Py_ssize_t
        lo: cython.Py_ssize_t
        hi: cython.Py_ssize_t
        b: cython.Py_ssize_t
        card: cython.Py_ssize_t
        limit: cython.Py_ssize_t
        unit: cython.Py_ssize_t
        fill: cython.Py_ssize_t
        r: cython.Py_ssize_t
        takes: cython.bint
        for src in sources:
            if not size[src]:
                continue
            unit = units[src]
            if unit == TOP_CODE:
                lo = hi = 1
            elif unit == FACEUP_CODE:
                lo, hi = 1, size[src] - down[src]
            else:  # the packed run on top
                hi = self.run(src)
                lo = hi if unit == WHOLE_CODE or unit == PACKED_CODE else 1  # noqa: SIM109 (C ints)
            for n in range(1, hi + 1):
                if 1 < n < lo:
                    continue  # a whole run moves alone, or its top card
                tg = targets[src] if n > 1 or hi == 1 else lone[src]
                card = cards[src * STRIDE + size[src] - n]
                for dst in tg:
                    limit = limits[dst]
                    if n > 1 and limit and size[dst] + n > limit:
                        continue
                    if n > 1 and roomy[src] and n > self.carried(src, dst):
                        continue
                    if caps[dst] and size[dst] >= caps[dst]:
                        continue
                    if size[dst]:
                        b = builds[dst]
                        takes = b != 0 and tables[(b - 1) * TABLE + cards[
                            dst * STRIDE + size[dst] - 1] * 52 + card] != 0
                    else:
                        fill = fills[dst]
                        takes = (fill == ANY_CODE or (fill == KING_CODE and ranks[card] == 13)
                                 or (fill == BASE_CODE and (base == 0 or ranks[card] == base))
                                 or (fill == BELOW_BASE_CODE
                                     and (base == 0 or ranks[card] == under_base)))
                        if takes and (refillers[dst] or froms[dst]):  # ``fill_refusal``
                            r = refillers[dst] - 1
                            if r >= 0 and size[r]:
                                takes = src == r
                            else:
                                takes = not froms[dst] or (froms[dst] >> kinds[src]) & 1
                    if takes:
                        out.append(src | dst << 8 | n << 16)
        if self.can_deal():
            out.append(DEAL)
        return out

    def run(self, p: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """How many top cards of pile ``p`` its build packs (``RuleSet.run_length``)."""
        lay: Layout = self.layout
        cards: cython.p_uchar = self.cards
        tables: cython.p_uchar = lay.tables
        b: cython.Py_ssize_t = lay.build[p]
        n: cython.Py_ssize_t = self.size[p]
        if not b or not n:
            return min(1, n)
        at: cython.Py_ssize_t = p * STRIDE
        table: cython.Py_ssize_t = (b - 1) * TABLE
        i: cython.Py_ssize_t = n - 1
        lo: cython.Py_ssize_t = self.down[p]
        top: cython.Py_ssize_t = cards[at + i]
        under: cython.Py_ssize_t
        while i > lo:
            under = cards[at + i - 1]
            if not tables[table + under * 52 + top]:
                break
            top = under
            i -= 1
        return n - i

    def collect(self) -> None:
        """Take each completed run off the columns' tops (``RuleSet.after_move``)."""
        lay: Layout = self.layout
        n: cython.Py_ssize_t = lay.collects
        p: cython.Py_ssize_t
        for p in lay.tableau:
            if self.size[p] - self.down[p] >= n and self.run(p) >= n:
                self.move_cards(p, lay.collect_to, n)

    def carried(self, src: cython.Py_ssize_t, dst: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """``RuleSet.room``'s most cards one move out of ``src`` into ``dst`` may carry."""
        lay: Layout = self.layout
        size: cython.p_uchar = self.size
        free: cython.Py_ssize_t = 0
        empty: cython.Py_ssize_t = 0
        p: cython.Py_ssize_t
        for p in lay.cells:
            if not size[p]:
                free += 1
        for p in lay.spaces[src]:
            if not size[p] and p != src and p != dst:
                empty += 1
        return (free + 1) << empty

    def can_deal(self) -> cython.bint:
        """Whether the stock may act now (``RuleSet.stock_refusal`` refuses nothing)."""
        lay: Layout = self.layout
        if lay.deals == TO_NONE or lay.stock_pile < 0:
            return False
        if self.size[lay.stock_pile]:
            return True
        if lay.deals != TO_WASTE:
            return False
        if lay.passes and self.vars[1] >= lay.passes:
            return False
        w: cython.Py_ssize_t
        for w in lay.wastes:  # noqa: SIM110 (a C function holds no generator)
            if self.size[w]:
                return True
        return False

    def useful(self, m: cython.Py_ssize_t) -> cython.bint:
        """``RuleSet.useful``: not a whole pile into an empty one of its kind, nor the stock
        turned over when nothing has left the stock or the waste since the last turn."""
        lay: Layout = self.layout
        if m == DEAL:
            return lay.deals != TO_WASTE or bool(self.size[lay.stock_pile]) or self.vars[2] > 0
        src: cython.Py_ssize_t = m & 255
        dst: cython.Py_ssize_t = (m >> 8) & 255
        return not (lay.kind[src] == lay.kind[dst] and not self.size[dst]
                    and m >> 16 == self.size[src])

    # ----- playing ----------------------------------------------------------------------

    def entry(self, tag: cython.Py_ssize_t, a: cython.Py_ssize_t, b: cython.Py_ssize_t = 0,
              c: cython.Py_ssize_t = 0, d: cython.Py_ssize_t = 0, e: cython.Py_ssize_t = 0,
              f: cython.Py_ssize_t = 0) -> None:
        used: cython.Py_ssize_t = self.used
        if used + 8 > len(self.journal):
            self.journal += bytes(len(self.journal))
        j: cython.p_uchar = self.journal
        j[used] = tag
        j[used + 1] = a
        j[used + 2] = b
        j[used + 3] = c
        j[used + 4] = d
        j[used + 5] = e
        j[used + 6] = f
        self.used = used + 8

    def move_cards(self, src: cython.Py_ssize_t, dst: cython.Py_ssize_t, n: cython.Py_ssize_t,
                   flags: cython.Py_ssize_t = 0) -> None:
        """``State.move_cards``: the top ``n`` cards of ``src`` onto ``dst``, one at a time
        with ``REVERSE`` (their order flips), laid face down with ``HIDE``."""
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        stride: cython.Py_ssize_t = STRIDE
        s: cython.Py_ssize_t = src * stride + size[src] - n
        d: cython.Py_ssize_t = dst * stride + size[dst]
        i: cython.Py_ssize_t
        old_sd: cython.Py_ssize_t = down[src]
        old_dd: cython.Py_ssize_t = down[dst]
        for i in range(n):
            cards[d + i] = cards[s + n - 1 - i] if flags & REVERSE else cards[s + i]
        size[src] -= n
        size[dst] += n
        if old_sd > size[src]:
            down[src] = size[src]
        if flags & HIDE:
            down[dst] = size[dst]
        self.entry(CARDS, src, dst, n, flags, old_sd, old_dd)

    def set_down(self, p: cython.Py_ssize_t, value: cython.Py_ssize_t) -> None:
        self.entry(DOWN, p, self.down[p])
        self.down[p] = value

    def set_var(self, i: cython.Py_ssize_t, value: cython.Py_ssize_t) -> None:
        old: cython.Py_ssize_t = self.vars[i]
        self.entry(VAR, i, old & 255, old >> 8)
        self.vars[i] = value

    def play(self, m: cython.Py_ssize_t) -> None:
        """Play a legal move, as ``State.push`` does."""
        lay: Layout = self.layout
        self.marks.append(self.used)
        if m == DEAL:
            self.deal()
        else:
            src: cython.Py_ssize_t = m & 255
            dst: cython.Py_ssize_t = (m >> 8) & 255
            n: cython.Py_ssize_t = m >> 16
            self.move_cards(src, dst, n)
            kind = lay.kind
            if kind[dst] == FOUNDATION_CODE and self.has[0] and self.vars[0] == 0:
                self.set_var(0, RANKS[self.cards[dst * STRIDE + self.size[dst] - 1]])
            if self.has[2] and kind[src] in (STOCK_CODE, WASTE_CODE) and kind[dst] not in (
                    STOCK_CODE, WASTE_CODE):
                self.set_var(2, self.vars[2] + n)
        if lay.collects:
            self.collect()
        self.turn_tops()
        refilled: bytes = lay.refilled
        size: cython.p_uchar = self.size
        i: cython.Py_ssize_t
        for i in range(0, len(refilled), 2):  # ``RuleSet.after_move``
            if size[refilled[i + 1]] and not size[refilled[i]]:
                self.move_cards(refilled[i + 1], refilled[i], 1)
                self.turn_tops()

    def turn_tops(self) -> None:
        """Turn up each exposed face-down top card that turns up by itself."""
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        p: cython.Py_ssize_t
        for p in self.layout.turning:
            if size[p] and down[p] >= size[p]:
                self.set_down(p, max(0, down[p] - 1))

    def deal(self) -> None:
        """The stock's action (``RuleSet.apply_stock``)."""
        lay: Layout = self.layout
        s = lay.stock_pile
        if lay.deals == TO_WASTE:
            if not self.size[s]:
                for w in reversed(lay.wastes):
                    if self.size[w]:
                        self.move_cards(w, s, self.size[w], REVERSE | HIDE)
                self.set_var(1, self.vars[1] + 1)
                self.set_var(2, 0)
            elif len(lay.wastes) == 1:
                self.move_cards(s, lay.wastes[0], min(lay.draw, self.size[s]), REVERSE)
            else:
                self.deal_round(lay.wastes, 0)
        elif lay.deals == TO_TABLEAU:
            rest: bytes = lay.rest
            self.deal_round(lay.tableau, len(rest))
            if rest and self.size[s] <= len(rest):
                self.deal_round(rest, 0)
        else:
            self.move_cards(s, lay.foundations[0], 1)

    def bring(self, k: cython.Py_ssize_t) -> None:
        """``k`` of the stock's deals played as one move (``undo`` takes them back
        together), where ``Layout.brings``: the same piles and vars as playing each, which
        changes no other pile. A pass's deals move their cards at once, in the order
        dealt."""
        lay: Layout = self.layout
        s: cython.Py_ssize_t = lay.stock_pile
        w: cython.Py_ssize_t = lay.wastes[0]
        draw: cython.Py_ssize_t = lay.draw
        size: cython.p_uchar = self.size
        deals: cython.Py_ssize_t
        self.marks.append(self.used)
        while k:
            if size[s]:
                deals = (size[s] + draw - 1) // draw  # to the pass's end
                if k < deals:
                    self.move_cards(s, w, k * draw, REVERSE)
                    return
                self.move_cards(s, w, size[s], REVERSE)
                k -= deals
            else:
                self.move_cards(w, s, size[w], REVERSE | HIDE)
                self.set_var(1, self.vars[1] + 1)
                self.set_var(2, 0)
                k -= 1

    def deal_round(self, piles: bytes, keep: cython.Py_ssize_t) -> None:
        s = self.layout.stock_pile
        for p in piles:
            if self.size[s] <= keep:
                break
            self.move_cards(s, p, 1)

    def undo(self) -> None:
        """Take back the last move played (``State.pop``)."""
        mark: cython.Py_ssize_t = self.marks.pop()
        stride: cython.Py_ssize_t = STRIDE
        j: cython.p_uchar = self.journal
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        used: cython.Py_ssize_t = self.used
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        n: cython.Py_ssize_t
        i: cython.Py_ssize_t
        s: cython.Py_ssize_t
        d: cython.Py_ssize_t
        while used > mark:
            used -= 8
            tag = j[used]
            if tag == CARDS:
                src, dst, n = j[used + 1], j[used + 2], j[used + 3]
                size[dst] -= n
                s = src * stride + size[src]
                d = dst * stride + size[dst]
                for i in range(n):
                    cards[s + i] = cards[d + n - 1 - i] if j[used + 4] & REVERSE else cards[d + i]
                size[src] += n
                down[src] = j[used + 5]
                down[dst] = j[used + 6]
            elif tag == DOWN:
                down[j[used + 1]] = j[used + 2]
            else:
                self.vars[j[used + 1]] = j[used + 2] | j[used + 3] << 8
        self.used = used

    # ----- the key ----------------------------------------------------------------------

    def key(self) -> object:
        """The position without its history, as ``position.key_maker`` keys it: equal for
        two positions exactly when theirs are (the same piles sorted, foundations no card
        leaves by size and top card, the endless stock's pass count left out, each card as
        ``position.card_codes`` writes it). Written into one buffer, so that the compiled
        build makes it in C."""
        out: cython.p_uchar = self.keybuf
        n: cython.Py_ssize_t = self.write_key()
        return bytes(out[:n])

    def dealt_key(self) -> object:
        """``key`` for a position a search reached by a deal from the stock (``Choice.talon``),
        which it keeps apart from the same position reached otherwise: the key and one more
        var entry, of a number no var has (bytes: a tuple of the key and a flag costs a
        search up to a tenth of its time to make, hash and free)."""
        out: cython.p_uchar = self.keybuf
        n: cython.Py_ssize_t = self.write_dealt_key()
        return bytes(out[:n])

    def write_dealt_key(self) -> cython.Py_ssize_t:
        """Writes ``dealt_key`` into the key buffer: its length."""
        n: cython.Py_ssize_t = self.write_key()
        out: cython.p_uchar = self.keybuf
        out[n] = 255
        out[n + 1] = 0
        out[n + 2] = 0
        return n + 3

    def write_key(self) -> cython.Py_ssize_t:
        """Writes ``key`` into the key buffer: its length."""
        lay: Layout = self.layout
        codes: bytes = lay.canon  # a local reference: the pointer below stays valid
        canon: cython.p_uchar = codes
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        down: cython.p_uchar = self.down
        order: cython.p_uchar = self.order
        out: cython.p_uchar = self.keybuf
        stride: cython.Py_ssize_t = STRIDE
        sep: cython.Py_ssize_t = SEP
        g: bytes
        k: cython.Py_ssize_t
        n: cython.Py_ssize_t = 0
        p: cython.Py_ssize_t
        q: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        start: cython.Py_ssize_t
        v: cython.Py_ssize_t
        c: cython.Py_ssize_t
        k = len(lay.alone)
        dealt: bytes = lay.dealt
        if dealt:  # by place the columns the stock deals to next, then the rest by cards
            start = min(max(size[lay.stock_pile] - lay.keep, 0), len(dealt))
            for i in range(start):
                if order[k + i] != dealt[i]:  # the stock was dealt from or taken back
                    for j in range(len(dealt)):
                        order[k + j] = dealt[j]
                    break
            self.sort_piles(k + start, k + len(dealt))
            k += len(dealt)
        for g in lay.groups:  # each group's piles in the order of their cards
            start = k
            k += len(g)
            self.sort_piles(start, k)
        for i in range(k):
            out[n] = down[order[i]]
            n += 1
        out[n] = sep
        n += 1
        for i in range(k):
            p = order[i]
            for j in range(size[p]):
                out[n] = canon[cards[p * stride + j]]
                n += 1
            out[n] = sep
            n += 1
        for p in lay.sunk:
            n = self.sink(p, n)
        for g in lay.sunk_groups:  # three bytes each, sorted as the numbers they spell
            start = n
            for p in g:
                n = self.sink(p, n)
                i = n - 3
                while i > start and (out[i - 3] << 16 | out[i - 2] << 8 | out[i - 1]) > (
                        out[i] << 16 | out[i + 1] << 8 | out[i + 2]):
                    for j in range(3):
                        c = out[i - 3 + j]
                        out[i - 3 + j] = out[i + j]
                        out[i + j] = c
                    i -= 3
        for q in range(len(self.vars)):  # the vars, by their place in ``Layout.names``
            if self.has[q] and not (lay.endless and q == 1):
                v = self.vars[q]
                if lay.endless and q == 2 and v > 1:
                    v = 1  # played from the stock since the last turn: none or some
                out[n] = q
                out[n + 1] = v & 255
                out[n + 2] = v >> 8
                n += 3
        return n

    def sort_piles(self, start: cython.Py_ssize_t, end: cython.Py_ssize_t) -> None:
        """Sort the key's pile order from ``start`` to ``end`` by the piles' cards as the key
        writes them, by insertion: the order is the last key's, so a move costs it a few
        steps."""
        codes: bytes = self.layout.canon  # a local reference: the pointer below stays valid
        canon: cython.p_uchar = codes
        cards: cython.p_uchar = self.cards
        size: cython.p_uchar = self.size
        order: cython.p_uchar = self.order
        stride: cython.Py_ssize_t = STRIDE
        m: cython.Py_ssize_t
        p: cython.Py_ssize_t
        q: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        for m in range(start + 1, end):
            p = order[m]
            i = m
            while i > start:
                q = order[i - 1]
                j = 0  # p before q: at the first card they differ, or shorter
                while j < size[p] and j < size[q] and (
                        canon[cards[p * stride + j]] == canon[cards[q * stride + j]]):
                    j += 1
                if not (canon[cards[p * stride + j]] < canon[cards[q * stride + j]] if (
                        j < size[p] and j < size[q]) else size[p] < size[q]):
                    break
                order[i] = q
                i -= 1
            order[i] = p

    def sink(self, p: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """A foundation no card leaves as three bytes at ``n`` of the key: face-down count,
        size, top card (``position.sink``; a discard pile's as 0, ``position.discarded``);
        where the key goes on."""
        lay: Layout = self.layout
        out: cython.p_uchar = self.keybuf
        cards: cython.p_uchar = self.cards
        stride: cython.Py_ssize_t = STRIDE
        size: cython.Py_ssize_t = self.size[p]
        out[n] = self.down[p]
        out[n + 1] = size
        out[n + 2] = lay.canon[cards[p * stride + size - 1]] if size and not lay.discard else 0
        return n + 3


__all__ = ["DEAL", "EXTRA", "Board", "Layout", "plain", "playable"]
