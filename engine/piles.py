"""The declarations a rule set is made of: its piles (``Group``), how cards build on them
(``Build``), its stock (``Stock``), the moves it declares as rules of their own (``GapRule``,
``PairRule``, ``BeatenRule``) and how it is played as a match (``MatchMode``).

Each is checked when it is made, so a typo in a game file fails at import
(``DeclarationError``). ``engine/rules.py`` turns them into moves; this module is plain
Python, not compiled with the engine's inner loop: nothing here runs per move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import RANK, RANK_NAMES, RED, SUIT, card, colour_name, show
from .options import (
    Align,
    Carry,
    Deals,
    DeclarationError,
    Direction,
    Fan,
    Fill,
    Kind,
    MatchKind,
    SuitRule,
    Unit,
    option,
)

TABLEAU, FOUNDATION, STOCK_PILE, WASTE, RESERVE, CELL, GRID = (
    Kind.TABLEAU, Kind.FOUNDATION, Kind.STOCK, Kind.WASTE, Kind.RESERVE, Kind.CELL, Kind.GRID,
)
PREFIX: dict[str, str] = {TABLEAU: "t", FOUNDATION: "f", STOCK_PILE: "s", WASTE: "w",
                          RESERVE: "r", CELL: "c", GRID: "g"}
#: What one pile of a kind is called in a sentence, unless its group says (``Group.word``).
WORD: dict[str, str] = {TABLEAU: "column", FOUNDATION: "foundation", STOCK_PILE: "stock",
                        WASTE: "waste pile", RESERVE: "reserve", CELL: "cell", GRID: "space"}
LABEL: dict[str, str] = {TABLEAU: "Tableau", FOUNDATION: "Foundations", STOCK_PILE: "Stock",
                         WASTE: "Waste", RESERVE: "Reserve", CELL: "Cells", GRID: "Grid"}
#: Kinds drawn in the band above the main area when their group is small (four piles or fewer).
TOP_KINDS = frozenset({STOCK_PILE, WASTE, FOUNDATION, CELL, RESERVE})


def a(word: str) -> str:
    return ("an " if word[0] in "AEIOU8" or word.startswith("11") else "a ") + word


def below(rank: int) -> int:
    """The rank one below ``rank``, wrapping (below an Ace comes the King)."""
    return (rank + 11) % 13 + 1


def rank_word(rank: int) -> str:
    return RANK_NAMES[rank]


@dataclass(frozen=True)
class Build:
    """When ``over`` may lie on ``under``: a rank step, a suit relation, wrap or not.

    direction: a ``Direction`` (``any``: any card on any card); suit: a ``SuitRule``.
    ``closed`` ranks take nothing (Golf's difficult Kings).
    """

    direction: Direction = Direction.DOWN
    suit: SuitRule = SuitRule.ANY
    wrap: bool = False
    closed: tuple[int, ...] = ()
    table: bytes = field(init=False, repr=False, compare=False)
    rows: tuple[bytes, ...] = field(init=False, repr=False, compare=False)  # per under card
    #: Per rank of the card laid on (index 1-13): the ranks it may lie on.
    by_rank: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "direction", option(Direction, self.direction, "Build direction"))
        object.__setattr__(self, "suit", option(SuitRule, self.suit, "Build suit"))
        for r in self.closed:
            if not (type(r) is int and 1 <= r <= 13):
                raise DeclarationError(f"Build closed holds {r!r}, which is not a rank 1-13")
        object.__setattr__(self, "by_rank", ((), *(self._steps(r) for r in range(1, 14))))
        table = bytes(self._fits(u, o) for u in range(52) for o in range(52))
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "rows", tuple(table[u * 52:u * 52 + 52] for u in range(52)))

    def steps(self, over_rank: int) -> list[int]:
        """The ranks ``under`` may have for a card of ``over_rank`` to lie on it."""
        return list(self.by_rank[over_rank])

    def _steps(self, over_rank: int) -> tuple[int, ...]:
        if self.direction == Direction.ANY:
            return tuple(r for r in range(1, 14) if r not in self.closed)
        out = []
        if self.direction in (Direction.DOWN, Direction.EITHER):
            if over_rank < 13:
                out.append(over_rank + 1)
            elif self.wrap:
                out.append(1)
        if self.direction in (Direction.UP, Direction.EITHER):
            if over_rank > 1:
                out.append(over_rank - 1)
            elif self.wrap:
                out.append(13)
        return tuple(r for r in out if r not in self.closed)

    def _fits(self, under: int, over: int) -> bool:
        if RANK[under] not in self.by_rank[RANK[over]]:
            return False
        if self.suit == SuitRule.SAME:
            return SUIT[under] == SUIT[over]
        if self.suit == SuitRule.ALTERNATE:
            return RED[under] != RED[over]
        if self.suit == SuitRule.COLOUR:
            return RED[under] == RED[over]
        if self.suit == SuitRule.OTHER:
            return SUIT[under] != SUIT[over]
        return True

    def fits(self, under: int, over: int) -> bool:
        return bool(self.table[under * 52 + over])

    def rule(self, over: int) -> str:
        """The sentence a player needs: 'a red 7 goes on a black 8'."""
        r = RANK[over]
        ranks = self.steps(r)
        name = rank_word(r)
        if self.suit == SuitRule.SAME:
            if not ranks:
                return f"nothing can take the {show(over)}"
            return f"the {show(over)} goes on " + " or ".join(
                f"the {show(card(x, SUIT[over]))}" for x in ranks)
        adj = under_adj = ""
        tail = ""
        if self.suit == SuitRule.ALTERNATE:
            adj = colour_name(over) + " "
            under_adj = ("black " if RED[over] else "red ")
        elif self.suit == SuitRule.COLOUR:
            adj = under_adj = colour_name(over) + " "
        elif self.suit == SuitRule.OTHER:
            tail = f" of a suit other than {show(over)[-1]}"
        if not ranks:
            return f"nothing can take {a(adj + name)}"
        return f"{a(adj + name)} goes on " + " or ".join(
            a(under_adj + rank_word(x)) for x in ranks) + tail


@dataclass(frozen=True)
class Group:
    """A row of piles of one kind and the rules they share.

    deal/down: cards dealt to each pile (bottom up) and how many of them lie face down.
    build: what may be laid on a card here (``None``: nothing). fill: what may start an empty
    pile. capacity: most cards a pile holds (0: no limit). unit: what leaves a pile as one
    move (``None``: nothing leaves). to: the kinds its cards may go to. turn_up: an exposed
    face-down top card turns face up. fill_from: the kinds whose cards may start an empty
    pile (none said: any that may move here). refills: the kind of pile whose emptied piles
    this one (a single pile: a squared reserve) fills at once with its top card, while it
    lasts; until then such a pile takes no other card. carry: how many cards one move out
    of a pile may carry (``Carry``: any run its unit allows, or what the room allows).
    collects: a foundation that takes every run of this many cards packed by its column's
    build off the columns' tops by itself, after each move, and takes no card played to it
    (Spiderette's King-to-Ace runs; 0: none). Words given as plain strings are checked
    against the options (``engine/options.py``) here.

    How the group looks, for renderers (``RuleSet.describe``): fan: how a pile is spread
    (``None``: by kind); word/label name one pile and the group in players' words ("" : the
    kind's); columns: piles per drawn row (a grid's width; 0: one row); rows: explicit drawn
    rows of pile numbers (1-based), top to bottom; align: each row from the start or centred
    (as pins and a pyramid are).
    """

    kind: Kind
    count: int = 1
    deal: tuple[int, ...] = ()
    down: tuple[int, ...] = ()
    build: Build | None = None
    fill: Fill = Fill.ANY
    capacity: int = 0
    unit: Unit | None = None
    to: tuple[Kind, ...] = ()
    turn_up: bool = False
    fill_from: tuple[Kind, ...] = ()
    refills: Kind | None = None
    carry: Carry = Carry.ANY
    collects: int = 0
    prefix: str = ""
    fan: Fan | None = None
    word: str = ""
    label: str = ""
    columns: int = 0
    rows: tuple[tuple[int, ...], ...] = ()
    align: Align = Align.START

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", option(Kind, self.kind, "Group kind"))
        object.__setattr__(self, "fill", option(Fill, self.fill, "Group fill"))
        object.__setattr__(self, "carry", option(Carry, self.carry, "Group carry"))
        if self.carry == Carry.ROOM and self.unit in (None, Unit.TOP):
            raise DeclarationError("Group carry is 'room', but its unit moves one card at most")
        if self.unit is not None:
            object.__setattr__(self, "unit", option(Unit, self.unit, "Group unit"))
        if self.fan is not None:
            object.__setattr__(self, "fan", option(Fan, self.fan, "Group fan"))
        object.__setattr__(self, "align", option(Align, self.align, "Group align"))
        if isinstance(self.to, str):
            raise DeclarationError(f"Group to is {self.to!r}, which is not a tuple of kinds")
        object.__setattr__(self, "to", tuple(option(Kind, k, "Group to") for k in self.to))
        if isinstance(self.fill_from, str):
            raise DeclarationError(
                f"Group fill_from is {self.fill_from!r}, which is not a tuple of kinds")
        object.__setattr__(self, "fill_from", tuple(
            option(Kind, k, "Group fill_from") for k in self.fill_from))
        if self.refills is not None:
            object.__setattr__(self, "refills", option(Kind, self.refills, "Group refills"))
            if self.count != 1:
                raise DeclarationError(
                    f"Group refills from {self.count} piles, but only one pile can refill")
        if self.build is not None and not isinstance(self.build, Build):
            raise DeclarationError(f"Group build is {self.build!r}, which is not a Build")
        if self.collects and not (
                type(self.collects) is int and self.collects > 1 and self.kind == Kind.FOUNDATION
                and self.count == 1 and self.build is None and self.unit is None):
            raise DeclarationError(f"Group collects {self.collects!r}: runs of two cards or "
                                   "more, to one foundation that builds nothing and keeps "
                                   "its cards")
        for name in ("deal", "down"):
            given = getattr(self, name)
            if given and len(given) != self.count:
                raise DeclarationError(
                    f"Group {name} gives {len(given)} piles, but the group has {self.count}")

    def name(self, i: int) -> str:
        p = self.prefix or PREFIX[self.kind]
        return p if self.count == 1 else f"{p}{i + 1}"

    @property
    def noun(self) -> str:
        """What one of these piles is called in a sentence ("column", "pin")."""
        return self.word or WORD[self.kind]

    @property
    def heading(self) -> str:
        return self.label or LABEL[self.kind]

    @property
    def area(self) -> str:
        return "top" if self.kind in TOP_KINDS and self.count <= 4 else "main"

    def drawn_rows(self) -> list[list[str]]:
        """The piles' names as drawn, row by row."""
        if self.rows:
            return [[self.name(i - 1) for i in row] for row in self.rows]
        step = self.columns or self.count
        return [[self.name(i) for i in range(r, min(r + step, self.count))]
                for r in range(0, self.count, step)]

    def drawn_width(self) -> int:
        """Card widths this group needs in the main area."""
        if self.rows:
            return max(len(r) for r in self.rows) + 1
        if self.columns:
            return self.columns + 1
        if self.fan == Fan.SLIDER:
            return 0
        return 8 if self.fan == Fan.RIGHT else min(self.count, 10)


@dataclass(frozen=True)
class Stock:
    """The stock's action. to: ``waste`` (``draw`` cards onto one waste pile, or one onto each
    of several), ``tableau`` (one onto each column), ``foundation`` (one onto it), or ``none``
    (the stock's top card is played as a card, as in the placement games). passes: how many
    times it may be gone through in all (0: no limit). rest: with ``tableau``, the kind of
    piles its last cards go to, one onto each, once no more remain than there are such piles
    (the columns get cards only while more remain): Agnes Sorel's last two, turned up to
    play."""

    to: Deals = Deals.WASTE
    draw: int = 1
    passes: int = 1
    rest: Kind | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", option(Deals, self.to, "Stock to"))
        if self.rest is not None:
            object.__setattr__(self, "rest", option(Kind, self.rest, "Stock rest"))
            if self.to != Deals.TABLEAU:
                raise DeclarationError("a stock's rest goes with a stock that deals to the "
                                       "tableau")


@dataclass(frozen=True)
class GapRule:
    """Cards slid one at a time into the gaps of a grid (``Kind.GRID``: rows of
    ``Group.columns`` cells of one card each), where a rule set lists and plays such moves
    itself: a gap takes the card that lies on its left neighbour by ``build`` and, with
    ``before``, the card its right neighbour lies on by it; a card of rank ``start`` in a
    row's first cell never moves; the game is won when every row runs from that rank by the
    build across all its cells but the last. Every such move is useful (it changes the rows).
    ``redeals``: how many times the rule set's own move (``REDEAL``, played by its
    ``apply_extra``) may gather and deal the cards again, counted by the var ``redeals``.
    Declared so that a solver plays these moves in C (docs/solver.md, Boards)."""

    build: Build
    before: bool = False
    start: int = 1
    redeals: int = 0


@dataclass(frozen=True)
class PairRule:
    """Cards removed to the one foundation (a discard pile), where a rule set lists and plays
    such moves itself: the face-up top cards of the piles of ``kinds`` that no pile covers
    (``covered_by``) leave alone when of rank ``total``, or two together whose ranks add up
    to it, listed lone cards first, then pairs, each in pile order; no card moves from pile
    to pile. The stock deals one card at a time, once through; with ``shift`` onto the first
    of two wastes, whose card moves onto the second first. Declared so that a solver plays
    these moves in C (docs/solver.md, Boards)."""

    total: int
    kinds: tuple[Kind, ...]
    shift: bool = False


@dataclass(frozen=True)
class BeatenRule:
    """Cards discarded to the one foundation (a discard pile) when beaten, where a rule set
    judges such moves itself: the top card of a pile of ``kinds`` goes to the discard pile
    when a higher card of its suit, Aces ranking high, tops another pile of ``kinds``. Its
    other moves are the shared rules' (a top card to an empty pile, the stock's deal). The
    game is won when the stock is empty and each pile of ``kinds`` holds one card alone, an
    Ace. Declared so that a solver plays these moves in C (docs/solver.md, Boards)."""

    kinds: tuple[Kind, ...]

    def __post_init__(self) -> None:
        if isinstance(self.kinds, str) or not self.kinds:
            raise DeclarationError(f"BeatenRule kinds is {self.kinds!r}, which is not a "
                                   "tuple of kinds")
        object.__setattr__(self, "kinds", tuple(
            option(Kind, k, "BeatenRule kinds") for k in self.kinds))
        if FOUNDATION in self.kinds:
            raise DeclarationError("BeatenRule kinds holds the foundation, where beaten "
                                   "cards go")


@dataclass(frozen=True)
class MatchMode:
    """How a rule set is played as a match. kind: ``turns`` (one deal the players take turns
    on, a whole game each, one after the other) | ``called`` (each player has their own board
    and the same card is called to all). seats: fewest and most players."""

    kind: MatchKind
    seats: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", option(MatchKind, self.kind, "MatchMode kind"))
        lo, hi = self.seats
        if not 1 <= lo <= hi:
            raise DeclarationError(f"MatchMode seats is {self.seats!r}, which is no range of "
                                   "seats from 1 up")
