"""Rules declared over shared pile kinds.

Most games are a tuple of ``Group`` declarations (how many piles of a kind, how they are
dealt, what builds on them, what fills them, what moves off them) and a few class
attributes; ``RuleSet`` turns that into legal moves, refusals, the deal, status, score
and view. Odd games override a small hook (``prepare``, ``extra_moves``,
``extra_refusal``, ``apply_extra``, ``after_move``, ``won``, ``score``, ``finished``).
"""

from __future__ import annotations

import contextlib
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from .cards import RANK, RANK_NAMES, RED, SUIT, TEXT, card, colour_name, parse_card, show
from .core import FINISHED, LOST, MOVE, PLAYING, STOCK, WON, Move, Refusal, State
from .deal import shuffled_deck
from .options import (
    Align,
    Base,
    Carry,
    Deals,
    DeclarationError,
    Direction,
    Fan,
    Fill,
    Goal,
    Kind,
    MatchKind,
    Play,
    Scoring,
    SuitRule,
    Unit,
    option,
)

TABLEAU, FOUNDATION, STOCK_PILE, WASTE, RESERVE, CELL, GRID = (
    Kind.TABLEAU, Kind.FOUNDATION, Kind.STOCK, Kind.WASTE, Kind.RESERVE, Kind.CELL, Kind.GRID,
)
#: Which cards an empty pile takes, 52 flags each (see ``RuleSet._takes``).
EVERYTHING, NOTHING = bytes([1] * 52), bytes(52)
#: A target pile not asked yet what it takes (``RuleSet.moves_from``): no real answer is it.
UNASKED = b"?"
RANK_ROWS = {r: bytes(RANK[c] == r for c in range(52)) for r in range(1, 14)}
KINGS = RANK_ROWS[13]
PREFIX: dict[str, str] = {TABLEAU: "t", FOUNDATION: "f", STOCK_PILE: "s", WASTE: "w",
                          RESERVE: "r", CELL: "c", GRID: "g"}
#: What one pile of a kind is called in a sentence, unless its group says (``Group.word``).
WORD: dict[str, str] = {TABLEAU: "column", FOUNDATION: "foundation", STOCK_PILE: "stock",
                        WASTE: "waste pile", RESERVE: "reserve", CELL: "cell", GRID: "space"}
LABEL: dict[str, str] = {TABLEAU: "Tableau", FOUNDATION: "Foundations", STOCK_PILE: "Stock",
                         WASTE: "Waste", RESERVE: "Reserve", CELL: "Cells", GRID: "Grid"}
#: Kinds drawn in the band above the main area when their group is small (four piles or fewer).
TOP_KINDS = frozenset({STOCK_PILE, WASTE, FOUNDATION, CELL, RESERVE})
#: Options compared on the hot paths, as plain names: a member looked up on its enum class
#: costs several times a global name's lookup.
ANY_FILL, NO_FILL, KING_FILL, BASE_FILL = Fill.ANY, Fill.NONE, Fill.KING, Fill.BASE
BELOW_BASE_FILL, ROOM_CARRY = Fill.BELOW_BASE, Carry.ROOM
TOP_UNIT, WHOLE_UNIT, FACEUP_UNIT, PACKED_UNIT = Unit.TOP, Unit.WHOLE, Unit.FACEUP, Unit.PACKED
POINTS, TO_WASTE = Scoring.POINTS, Deals.WASTE


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


class RuleSet(ABC):
    """One playable rule set: a game id and a variant, built from declarations."""

    id: ClassVar[str]
    name: ClassVar[str]
    variants: ClassVar[tuple[str, ...]] = ("easy", "difficult")
    players: ClassVar[tuple[int, int]] = (1, 1)
    scoring: ClassVar[Scoring] = Scoring.TRADITIONAL
    target: ClassVar[int | None] = None  # the score that wins a score-only game
    summary: ClassVar[str] = ""
    #: The variants a front door offers a newcomer first (the catalog's ``featured``).
    featured: ClassVar[tuple[str, ...]] = ()

    base: int | Base = 1  # the foundations' base rank: a rank, or one found in play
    stock: Stock | None = None
    #: Cards slid into the gaps of a grid by the rule set's own moves (``GapRule``).
    gap_rule: GapRule | None = None
    #: Cards removed alone or in pairs by the rule set's own moves (``PairRule``).
    pair_rule: PairRule | None = None
    #: Cards discarded when a higher card of their suit beats them (``BeatenRule``).
    beaten_rule: BeatenRule | None = None

    #: How the game is played: ``build`` (cards move from pile to pile, "t3:4-t5") or
    #: ``remove`` (cards leave together, "p22+p28", so a renderer selects cards).
    play: ClassVar[Play] = Play.BUILD
    #: What wins the game (``won``), where it is played to a win.
    goal: ClassVar[Goal] = Goal.FOUNDATIONS
    #: The match it can be played as (``None``: none).
    match: ClassVar[MatchMode | None] = None
    #: The rule set's own ``target_refusal`` refuses every move the shared one refuses, and
    #: others besides (Slide: no card onto a row's slider), so listing moves
    #: may rule targets out by the shared rule's table and ask the rule set of the rest.
    refuses_more: ClassVar[bool] = False
    #: The one foundation is a discard pile: no rule reads the order of its cards, its top
    #: one included, only which cards it holds, the ones no other pile holds (Pyramid's, Aces
    #: Up's). A solver's key then keeps its size alone (docs/solver.md, The key).
    discard: ClassVar[bool] = False

    def __init__(self, variant: str) -> None:
        if variant not in self.variants:
            raise ValueError(f"{self.id} has no variant {variant!r}")
        self.variant = variant
        self.key = f"{self.id}/{variant}"
        try:
            self.groups: tuple[Group, ...] = self.declare()
            self.check()
        except DeclarationError as e:
            raise DeclarationError(f"{type(self).__name__} ({self.key}): {e}") from None
        self.pile_names: list[str] = []
        self.pile_kinds: list[str] = []
        self.pile_group: list[Group] = []
        for g in self.groups:
            for i in range(g.count):
                self.pile_names.append(g.name(i))
                self.pile_kinds.append(g.kind)
                self.pile_group.append(g)
        self.pile_index = {n: i for i, n in enumerate(self.pile_names)}
        self.by_kind: dict[str, list[int]] = {}
        for i, k in enumerate(self.pile_kinds):
            self.by_kind.setdefault(k, []).append(i)
        self.sources = [i for i, g in enumerate(self.pile_group) if g.unit]
        self.targets = {
            s: [d for d, k in enumerate(self.pile_kinds) if k in self.pile_group[s].to and d != s]
            for s in self.sources
        }
        #: Per source whose unit is ``packed``, where its top card may go alone while more
        #: cards lie packed under it: only to a foundation (every other unit's top card goes
        #: wherever its run may).
        self.lone_targets = {
            s: [d for d in self.targets[s] if self.pile_kinds[d] == FOUNDATION]
            for s in self.sources if self.pile_group[s].unit == PACKED_UNIT
        }
        self.turning = [i for i, g in enumerate(self.pile_group) if g.turn_up]
        #: The pile that refills each kind's emptied piles (``Group.refills``), and each
        #: such pile with its refiller, in order.
        self.refiller = {g.refills: i for i, g in enumerate(self.pile_group)
                         if g.refills is not None}
        self.refilled = [(t, r) for k, r in self.refiller.items() for t in self.by_kind.get(k, ())]
        #: The foundation that collects completed runs, with their length (``Group.collects``).
        self.collector = next(((i, g.collects) for i, g in enumerate(self.pile_group)
                               if g.collects), None)
        st = self.by_kind.get(STOCK_PILE)
        self.stock_pile = st[0] if st else -1
        # How a target's answer may be looked up (``moves_from``): by the shared rule's row of
        # flags alone (plain), or by the row first and the rule set's own refusal after it.
        cls = type(self)
        own_fill = cls.fill_refusal is not RuleSet.fill_refusal
        self.plain_targets = not own_fill and cls.target_refusal is RuleSet.target_refusal
        self.screened_targets = self.plain_targets or (self.refuses_more and not own_fill)
        #: The most cards each pile may hold after a move of several (0: no limit): a
        #: foundation takes one card at a time (1), a pile with a capacity no more than that.
        self.pile_limit = [1 if g.kind == FOUNDATION else g.capacity or 0
                           for g in self.pile_group]
        #: Per pile: a move of several cards out of it carries what the room allows
        #: (``Carry.ROOM``, ``room``).
        self.roomy = [g.carry == ROOM_CARRY for g in self.pile_group]
        #: A pile's rows of flags by the card it is laid on (``Build.rows``), where it has a
        #: build and no capacity: all ``_takes`` asks of such a pile with cards, so
        #: ``moves_from`` reads it here without the call (not for a rule set's own ``_takes``).
        shared = cls._takes is RuleSet._takes
        self.pile_rows = [g.build.rows if shared and g.build is not None and not g.capacity
                          else None for g in self.pile_group]
        self.searches = cls.searched is not RuleSet.searched  # see ``going_on``
        #: The piles a ``clear`` goal empties.
        self.cleared = [i for i, k in enumerate(self.pile_kinds) if k in (TABLEAU, RESERVE)]

    def check(self) -> None:
        """The rule set's own options (those of its piles are checked as they are made)."""
        for g in self.groups:
            if not isinstance(g, Group):
                raise DeclarationError(f"declare() gave {g!r}, which is not a Group")
        option(Scoring, self.scoring, "scoring")
        option(Play, self.play, "play")
        goal = option(Goal, self.goal, "goal")
        if goal != Goal.FOUNDATIONS and not any(g.kind == TABLEAU for g in self.groups):
            raise DeclarationError(f"goal {goal.value!r} needs a tableau to clear or fill")
        if self.match is not None and not isinstance(self.match, MatchMode):
            raise DeclarationError(f"match is {self.match!r}, which is not a MatchMode")
        if not isinstance(self.base, int) or isinstance(self.base, bool):
            self.base = option(Base, self.base, "base")
        elif not 1 <= self.base <= 13:
            raise DeclarationError(f"base is {self.base!r}, which is not a rank 1-13")
        refilled = [g.refills for g in self.groups if g.refills is not None]
        for k in set(refilled):
            if refilled.count(k) > 1:
                raise DeclarationError(f"two piles refill the {k} piles")
        if self.discard not in (False, True):
            raise DeclarationError(f"discard is {self.discard!r}, which is not True or False")
        foundations = [g for g in self.groups if g.kind == FOUNDATION]
        if self.discard and not (len(foundations) == 1 and foundations[0].count == 1
                                 and foundations[0].build is None and foundations[0].unit is None):
            raise DeclarationError("a discard pile is the one foundation, with no build and "
                                   "no card leaving it")
        self.check_beaten()
        if self.stock is not None and not isinstance(self.stock, Stock):
            raise DeclarationError(f"stock is {self.stock!r}, which is not a Stock")
        if self.stock is not None and self.stock.rest is not None and (
                self.stock.rest == TABLEAU
                or not any(g.kind == self.stock.rest for g in self.groups)):
            raise DeclarationError(f"the stock's rest names {self.stock.rest.value} piles, "
                                   "which the rule set does not declare apart from its columns")
        lo, hi = self.players
        if not 1 <= lo <= hi:
            raise DeclarationError(f"players is {self.players!r}, which is no range of seats")

    def check_beaten(self) -> None:
        """A ``BeatenRule`` discards to a discard pile (``discard``), from piles that are
        declared and whose top card alone moves."""
        rule = self.beaten_rule
        if rule is None:
            return
        if not isinstance(rule, BeatenRule):
            raise DeclarationError(f"beaten_rule is {rule!r}, which is not a BeatenRule")
        if not self.discard:
            raise DeclarationError("a BeatenRule discards to a discard pile: discard is True")
        for k in rule.kinds:
            beaten = [g for g in self.groups if g.kind == k]
            if not beaten:
                raise DeclarationError(f"BeatenRule kinds holds {k.value!r}, which has no pile")
            if any(g.unit != TOP_UNIT or FOUNDATION not in g.to for g in beaten):
                raise DeclarationError(f"a BeatenRule discards a {k.value} pile's top card: "
                                       "its unit is 'top' and it goes to the foundation")

    @property
    def easy(self) -> bool:
        return self.variant == "easy"

    @abstractmethod
    def declare(self) -> tuple[Group, ...]:
        """The game's piles, in dealing order; may also set ``self.stock``."""

    # ----- the deal ---------------------------------------------------------------------

    def deal(self, seed: bytes, competitive: bool = False, players: int | None = None) -> State:
        """Deal in declaration order, each pile bottom up; the rest is the stock, its first
        card on top. ``players`` is for the games with several players in one state."""
        lo, hi = self.players
        if players is not None and not lo <= players <= hi:
            raise ValueError(f"{self.name} is for {lo} to {hi} players, not {players}")
        deck = shuffled_deck(seed)
        piles: list[list[int]] = []
        down: list[int] = []
        i = 0
        for g in self.groups:
            for k in range(g.count):
                n = g.deal[k] if g.deal else 0
                piles.append(deck[i : i + n])
                down.append(g.down[k] if g.down else 0)
                i += n
        if self.stock_pile >= 0:
            piles[self.stock_pile] = deck[i:][::-1]
            down[self.stock_pile] = 52 - i
        elif i != 52:
            raise AssertionError(f"{self.key} deals {i} cards and has no stock")
        st = State(self, seed, piles, down, self.initial_vars(piles), competitive)
        if hi > 1:
            st.vars["players"] = players or lo
        self.prepare(st)
        self.turn_tops(st)
        st._journal.clear()
        st._shown = False
        return st

    def setup(self, piles: dict[str, str], down: dict[str, int] | None = None,
              seed: bytes = b"", **vars: int) -> State:
        """A hand-built position (tests, puzzles): cards as text, bottom card first.

        Unnamed piles start empty; ``vars`` override the dealt ones (``base``, ``pass``...).
        """
        cards = [[parse_card(c) for c in piles.get(n, "").split()] for n in self.pile_names]
        unknown = set(piles) - set(self.pile_names)
        if unknown:
            raise ValueError(f"{self.key} has no piles {sorted(unknown)}")
        flat = [c for pile in cards for c in pile]
        if len(flat) != len(set(flat)):
            raise ValueError("a card appears twice")
        downs = [(down or {}).get(n, 0) for n in self.pile_names]
        if self.stock_pile >= 0 and self.pile_names[self.stock_pile] not in (down or {}):
            downs[self.stock_pile] = len(cards[self.stock_pile])
        state_vars = self.initial_vars(cards)
        state_vars.update(vars)
        return State(self, seed, cards, downs, state_vars)

    def initial_vars(self, piles: list[list[int]]) -> dict[str, int]:
        vars: dict[str, int] = {}
        if FOUNDATION in self.by_kind:
            if self.base == Base.DEALT:
                first = piles[self.by_kind[FOUNDATION][0]]
                vars["base"] = RANK[first[0]] if first else 0
            elif self.base == Base.CHOSEN:
                vars["base"] = 0
            elif isinstance(self.base, int):
                vars["base"] = self.base
        if self.stock and self.stock.to == TO_WASTE:
            vars["pass"] = 1
            vars["progress"] = 0
        return vars

    def prepare(self, st: State) -> None:
        """Automatic steps after the deal (Aces out, Kings to the bottom, ...)."""

    # ----- moves ------------------------------------------------------------------------

    def legal_moves(self, st: State) -> list[Move]:
        return list(self.iter_moves(st))

    def iter_moves(self, st: State) -> Iterator[Move]:
        return self.moves_from(st, self.sources)

    def moves_from(self, st: State, sources: Iterable[int]) -> Iterator[Move]:
        """The legal moves of cards out of ``sources`` (among ``self.sources``), then the
        stock's and the rule set's own: a search that knows only some piles changed since a
        position whose moves it tried asks for those piles' moves alone."""
        piles = st.piles
        # The hot path of every solver and of every reply: each target pile's answer under
        # the shared target and fill rules is a row of 52 flags, looked up per card, asked for
        # once, when a card first tries that pile (and ``pile_limit`` for a run of cards).
        # Where the rule set's own refusal only adds to the shared one (``refuses_more``),
        # the row rules targets out and the rule set is asked of the rest alone.
        plain: cython.bint = self.plain_targets
        limits: list[int] = self.pile_limit
        roomy: list[bool] = self.roomy
        lone = self.lone_targets  # (empty but where a unit is ``packed``)
        rows_of: list[tuple[bytes, ...] | None] = self.pile_rows
        takes: list[bytes | None] = [UNASKED if self.screened_targets else None] * len(piles)
        row: bytes | None
        src: cython.Py_ssize_t
        dst: cython.Py_ssize_t
        n: cython.Py_ssize_t
        card: cython.Py_ssize_t
        limit: cython.Py_ssize_t
        for src in sources:
            pile = piles[src]
            if not pile:
                continue
            targets = self.targets[src]
            sizes = self.unit_sizes(st, src)
            alone = lone[src] if lone and src in lone and len(sizes) > 1 else targets
            for n in sizes:
                card = pile[-n]
                for dst in alone if n == 1 else targets:
                    row = takes[dst]
                    if row is UNASKED:
                        target = piles[dst]
                        rows = rows_of[dst]
                        row = takes[dst] = (rows[target[-1]] if target and rows is not None
                                            else self._takes(st, dst))
                    if row is not None:
                        if row[card] and (n == 1 or (
                                (not (limit := limits[dst]) or len(piles[dst]) + n <= limit)
                                and (not roomy[src] or n <= self.room(st, src, dst)[2]))) and (
                                plain or self.target_refusal(st, src, dst, card, n) is None):
                            yield Move(MOVE, src, dst, n)
                    elif self.target_refusal(st, src, dst, card, n) is None:
                        yield Move(MOVE, src, dst, n)
        if self.stock and self.stock_refusal(st) is None:
            yield Move(STOCK)
        yield from self.extra_moves(st)

    def _takes(self, st: State, dst: int) -> bytes | None:
        """Which cards pile ``dst`` takes now under the shared rules, as 52 flags (one at a
        time: ``pile_limit`` says whether it takes more); ``None`` where ``target_refusal``
        must be asked (an unusual fill)."""
        dg = self.pile_group[dst]
        target = st.piles[dst]
        if dg.capacity and len(target) >= dg.capacity:
            return NOTHING
        if target:
            return NOTHING if dg.build is None else dg.build.rows[target[-1]]
        if dg.fill_from or dg.kind in self.refiller:
            return None  # the answer depends on where the card comes from
        fill = dg.fill
        if fill == ANY_FILL:
            return EVERYTHING
        if fill == KING_FILL:
            return KINGS
        if fill in (BASE_FILL, BELOW_BASE_FILL):
            base = st.vars.get("base", 1)
            return EVERYTHING if base == 0 else RANK_ROWS[
                base if fill == BASE_FILL else below(base)]
        return NOTHING if fill == NO_FILL else None

    def any_fits(self, st: State, src: int, cards: Iterable[int]) -> bool:
        """Whether a target of ``src`` takes one of ``cards`` alone now (the source's own
        rule aside), each target's row of flags asked once, as in ``moves_from``."""
        cards = tuple(cards)
        for dst in self.targets[src]:
            row = self._takes(st, dst) if self.screened_targets else None
            for c in cards:
                if row is not None and not row[c]:
                    continue
                if (row is not None and self.plain_targets) or self.target_refusal(
                        st, src, dst, c, 1) is None:
                    return True
        return False

    def extra_moves(self, st: State) -> Iterable[Move]:
        return ()

    def unit_sizes(self, st: State, src: int) -> range | tuple[int, ...]:
        unit = self.pile_group[src].unit
        if unit == TOP_UNIT:
            return (1,)
        if unit == FACEUP_UNIT:
            return range(1, len(st.piles[src]) - st.down[src] + 1)
        run = self.run_length(st, src)
        if unit in (WHOLE_UNIT, PACKED_UNIT):
            return (1,) if run == 1 else (1, run)
        return range(1, run + 1)

    def run_length(self, st: State, p: int) -> int:
        """How many top cards of pile ``p`` are packed by its build."""
        pile: list[int] = st.piles[p]
        build = self.pile_group[p].build
        if not pile or build is None:
            return min(1, len(pile))
        fits: bytes = build.table
        lo: cython.Py_ssize_t = st.down[p]
        i: cython.Py_ssize_t = len(pile) - 1
        top: cython.Py_ssize_t = pile[i]
        under: cython.Py_ssize_t
        while i > lo:
            under = pile[i - 1]
            if not fits[under * 52 + top]:
                break
            top = under
            i -= 1
        return len(pile) - int(i)

    def valid_shape(self, st: State, move: Move) -> bool:
        n = len(st.piles)
        return (
            isinstance(move, Move)
            and type(move.n) is int
            and move.n >= 1
            and -1 <= move.src < n
            and -1 <= move.dst < n
            and all(0 <= p < n for p in move.piles)
        )

    def refusal(self, st: State, move: Move) -> Refusal | None:
        if move.kind == MOVE:
            return self.move_refusal(st, move)
        if move.kind == STOCK:
            if not self.stock:
                return Refusal("stock.none", "this game has no stock to deal from")
            return self.stock_refusal(st)
        return self.extra_refusal(st, move)

    def extra_refusal(self, st: State, move: Move) -> Refusal | None:
        return Refusal("move.unknown", f"{self.name} has no move of the kind {move.kind!r}")

    def move_refusal(self, st: State, m: Move) -> Refusal | None:
        return self.source_refusal(st, m.src, m.dst, m.n) or self.target_refusal(
            st, m.src, m.dst, st.piles[m.src][-m.n], m.n)

    def source_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        """Whether these ``n`` cards may leave ``src`` for a pile of ``dst``'s kind.

        ``unit_sizes`` enumerates exactly the ``n`` this accepts; the tests hold them equal.
        """
        if src < 0 or dst < 0 or src == dst:
            return Refusal("move.malformed", "a move goes from one pile to another")
        sg, dg = self.pile_group[src], self.pile_group[dst]
        pile = st.piles[src]
        if sg.unit is None:
            if sg.collects:
                return Refusal("source.fixed", "completed runs stay off the table")
            return Refusal("source.fixed", f"cards in the {sg.noun} stay where they are")
        if not pile:
            return Refusal("source.empty", f"{self.pile_names[src]} is empty")
        if n > len(pile):
            return Refusal("source.short", f"{self.pile_names[src]} holds only {len(pile)} "
                           + ("card" if len(pile) == 1 else "cards"))
        if n > len(pile) - st.down[src]:
            return Refusal("source.hidden", "face-down cards can't be moved")
        if dg.collects:
            run = ("King-to-Ace" if dg.collects == 13 and sg.build is not None
                   and sg.build.direction == Direction.DOWN else f"{dg.collects}-card")
            return Refusal("target.collects", f"completed {run} runs leave the table by "
                           "themselves; no card is played there")
        if dg.kind not in sg.to:
            if sg.kind == dg.kind:
                return Refusal(
                    "target.kind", f"cards never move from one {sg.noun} to another")
            return Refusal(
                "target.kind", f"cards from the {sg.noun} can't go to the {dg.noun}")
        if n > 1:
            return self.unit_refusal(st, src, n)
        alone = self.lone_targets.get(src)  # (a ``packed`` unit's top card, off its run)
        if alone is not None and dst not in alone and self.run_length(st, src) > 1:
            return Refusal("unit.whole", "only the whole packed run can move to "
                           + ("another " if dg.kind == sg.kind else "a ") + dg.noun)
        return None

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        """Whether ``dst`` takes ``card`` with the ``n - 1`` cards lying on it."""
        dg = self.pile_group[dst]
        if n > 1 and dg.kind == FOUNDATION:
            return Refusal("foundation.one", "cards go to a foundation one at a time")
        target = st.piles[dst]
        if dg.capacity and len(target) + n > dg.capacity:
            return Refusal(
                "target.full", lambda: f"a {dg.noun} holds at most {dg.capacity} "
                + ("card" if dg.capacity == 1 else "cards")
            )
        if not target:
            why = self.fill_refusal(st, dg, card, src)
            if why is not None:
                return why
        else:
            build = dg.build
            if build is None:
                return Refusal(
                    "target.closed", lambda: f"nothing can be laid on a card in a {dg.noun}")
            under = target[-1]
            if not build.table[under * 52 + card]:
                return Refusal(
                    "build." + dg.kind,
                    lambda: f"{show(card)} can't go on {show(under)}: {build.rule(card)}",
                )
        if n > 1 and self.pile_group[src].carry == ROOM_CARRY:
            return self.room_refusal(st, src, dst, n)
        return None

    def room(self, st: State, src: int, dst: int) -> tuple[int, int, int]:
        """For a move out of ``src`` whose group carries what the room allows (``Carry``):
        the free cells, the other empty piles of its group that any card may start (not
        ``src``, not ``dst``), and the most cards one move may carry, which that many cells
        and piles let move one card at a time."""
        piles = st.piles
        free = sum(1 for c in self.by_kind.get(CELL, ()) if not piles[c])
        g = self.pile_group[src]
        empty = 0
        if g.fill == ANY_FILL and not g.fill_from:
            empty = sum(1 for t in self.by_kind[g.kind]
                        if not piles[t] and t != dst and t != src)
        return free, empty, (free + 1) << empty

    def room_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        free, empty, limit = self.room(st, src, dst)
        if n <= limit:
            return None
        g = self.pile_group[src]

        def say() -> str:
            cells = f"{free} free cell" + ("" if free == 1 else "s")
            noun = g.noun
            if g.fill != ANY_FILL or g.fill_from:
                verb = "allows" if free == 1 else "allow"
                why = ("take only Kings" if g.fill == KING_FILL
                       else "hold no card on the way")
                return (f"only {limit} cards can move together here: {cells} {verb} that "
                        f"many one at a time (empty {noun}s {why})")
            others = f"{empty} other empty {noun}" + ("" if empty == 1 else "s")
            return (f"only {limit} cards can move together here: {cells} and {others} "
                    "allow that many one at a time")
        return Refusal("unit.room", say)

    def unit_refusal(self, st: State, src: int, n: int) -> Refusal | None:
        unit = self.pile_group[src].unit
        if unit == TOP_UNIT:
            return Refusal("unit.top", "only the top card of a pile can move")
        if unit == FACEUP_UNIT:
            return None
        run = self.run_length(st, src)
        if n > run:
            return Refusal("unit.unpacked", f"only packed cards move together: the top {run} "
                           + ("card is" if run == 1 else "cards are") + " packed here")
        if unit == WHOLE_UNIT and n != run:
            return Refusal("unit.whole", "only the top card or the whole packed run can move")
        if unit == PACKED_UNIT and n != run:
            return Refusal("unit.whole", "only the whole packed run can move, or its top card "
                           "alone to a foundation")
        return None

    def fill_refusal(self, st: State, g: Group, card: int, src: int) -> Refusal | None:
        r = self.refiller.get(g.kind)
        if r is not None and st.piles[r]:
            if src != r:
                return Refusal("fill.reserve", lambda: f"an empty {g.noun} is filled from the "
                               f"{self.pile_group[r].noun} while it lasts")
        elif g.fill_from and self.pile_kinds[src] not in g.fill_from:
            return Refusal("fill.waste", lambda: self.fillers(g, r))
        fill = g.fill
        if fill == ANY_FILL:
            return None
        if fill == NO_FILL:
            return Refusal("fill.none", lambda: f"an empty {g.noun} can't be filled")
        if fill == KING_FILL:
            if RANK[card] == 13:
                return None
            return Refusal("fill.king", lambda: f"only a King can fill an empty {g.noun}")
        if fill == BASE_FILL:
            base = st.vars.get("base", 1)
            if base == 0 or RANK[card] == base:
                return None
            return Refusal("fill.base", lambda: f"a foundation starts with {a(rank_word(base))}")
        if fill == BELOW_BASE_FILL:
            base = st.vars.get("base", 1)
            rank = below(base)
            if base == 0 or RANK[card] == rank:
                return None
            return Refusal("fill.below-base", lambda: f"only {a(rank_word(rank))}, one rank "
                           f"below the base, can fill an empty {g.noun}")
        raise AssertionError(f"unknown fill rule {fill!r}")

    def fillers(self, g: Group, refiller: int | None) -> str:
        """Why a card from elsewhere cannot start an empty pile of ``g`` (``fill_from``)."""
        nouns = " or ".join(f"the {self.pile_group[self.by_kind[k][0]].noun}'s top card"
                            for k in g.fill_from if k in self.by_kind)
        when = ("" if refiller is None
                else f"once the {self.pile_group[refiller].noun} is empty, ")
        return f"{when}only {nouns} can fill an empty {g.noun}"

    def stock_refusal(self, st: State) -> Refusal | None:
        spec = self.stock
        assert spec is not None
        if spec.to == Deals.NONE:
            return Refusal("stock.play", "play the stock's top card to a place instead")
        if st.piles[self.stock_pile]:
            return None
        if spec.to != TO_WASTE:
            return Refusal("stock.empty", "the stock is empty")
        if spec.passes and st.vars["pass"] >= spec.passes:
            return Refusal("stock.redeals", "the stock is empty and there are no redeals left")
        if not any(st.piles[w] for w in self.by_kind[WASTE]):
            return Refusal("stock.empty", "the stock and the waste are both empty")
        return None

    # ----- applying ---------------------------------------------------------------------

    def apply(self, st: State, move: Move) -> None:
        if move.kind == MOVE:
            self.apply_move(st, move)
        elif move.kind == STOCK:
            self.apply_stock(st)
        else:
            self.apply_extra(st, move)

    def apply_move(self, st: State, m: Move) -> None:
        st.move_cards(m.src, m.dst, m.n)
        kinds = self.pile_kinds
        if kinds[m.dst] == FOUNDATION and st.vars.get("base") == 0:
            st.set_var("base", RANK[st.piles[m.dst][-1]])
        if "progress" in st.vars and kinds[m.src] in (STOCK_PILE, WASTE) and kinds[m.dst] not in (
            STOCK_PILE, WASTE):
            st.set_var("progress", st.vars["progress"] + m.n)

    def apply_stock(self, st: State) -> None:
        spec = self.stock
        assert spec is not None
        s = self.stock_pile
        if spec.to == TO_WASTE:
            wastes = self.by_kind[WASTE]
            if not st.piles[s]:
                for w in reversed(wastes):
                    if st.piles[w]:
                        st.move_cards(w, s, len(st.piles[w]), reverse=True, hide=True)
                st.set_var("pass", st.vars["pass"] + 1)
                st.set_var("progress", 0)
            elif len(wastes) == 1:
                st.move_cards(s, wastes[0], min(spec.draw, len(st.piles[s])), reverse=True)
            else:
                self.deal_round(st, wastes)
        elif spec.to == Deals.TABLEAU:
            rest = self.by_kind[spec.rest] if spec.rest is not None else []
            self.deal_round(st, self.by_kind[TABLEAU], len(rest))
            if rest and len(st.piles[s]) <= len(rest):
                self.deal_round(st, rest)
        else:
            st.move_cards(s, self.by_kind[spec.to][0], 1)

    def deal_round(self, st: State, piles: list[int], keep: int = 0) -> None:
        """One card from the stock onto each pile, leftmost first, while more than ``keep``
        cards remain in it."""
        s = self.stock_pile
        for p in piles:
            if len(st.piles[s]) <= keep:
                break
            st.move_cards(s, p, 1)

    def apply_extra(self, st: State, move: Move) -> None:
        raise AssertionError(f"{self.key}: no way to apply {move}")

    def after_move(self, st: State) -> None:
        """Take completed runs off the columns (``Group.collects``); turn up exposed tops;
        then a reserve that refills (``Group.refills``) fills each emptied pile with its top
        card, while it lasts."""
        if self.collector is not None:
            to, n = self.collector
            for p in self.by_kind[TABLEAU]:
                if len(st.piles[p]) - st.down[p] >= n and self.run_length(st, p) >= n:
                    st.move_cards(p, to, n)
        self.turn_tops(st)
        piles = st.piles
        for t, r in self.refilled:
            if piles[r] and not piles[t]:
                st.move_cards(r, t, 1)
                self.turn_tops(st)

    def turn_tops(self, st: State) -> None:
        piles, down = st.piles, st.down  # after every move: the lookups once
        for p in self.turning:
            pile = piles[p]
            if pile and down[p] >= len(pile):
                st.turn_up(p)

    # ----- the end ----------------------------------------------------------------------

    def status(self, st: State) -> str:
        settled = self._settled(st)
        return settled if settled is not None else self.going_on(st, self.iter_moves(st))

    def going_on(self, st: State, moves: Iterable[Move]) -> str:
        """The status of a position not settled by itself: playing while a move is useful.
        The moves whose use ``useful`` finds by a search of its own (``searched``) are asked
        last: most positions have another useful move, and then need no search at all."""
        later = []
        for m in moves:
            if self.searches and self.searched(st, m):
                later.append(m)
            elif self.useful(st, m):
                return PLAYING
        if any(self.useful(st, m) for m in later):
            return PLAYING
        return LOST if self.scoring != POINTS else FINISHED

    def searched(self, st: State, m: Move) -> bool:
        """Whether ``useful`` answers for ``m`` by searching the positions it leads to (the
        end rules of games whose column moves go round in circles): cheap to ask, so that
        ``going_on`` can ask those moves last."""
        return False

    def settled(self, st: State) -> str | None:
        """The status when no search for a useful move is needed (won, resigned, a game that
        ended by itself), else ``None``: then a legal, useful move proves the game is on,
        which spares ``play`` the search (a game overriding ``status`` always answers)."""
        if type(self).status is not RuleSet.status:
            return self.status(st)
        return self._settled(st)

    def _settled(self, st: State) -> str | None:
        if self.won(st):
            return WON
        if st.vars.get("resigned"):
            return LOST if self.scoring != POINTS else FINISHED
        if self.finished(st):
            if self.target is not None and st.score >= self.target:
                return WON
            return FINISHED if self.scoring == POINTS else LOST
        return None

    def won(self, st: State) -> bool:
        """Whether the declared ``goal`` is reached (a score-only game is never won)."""
        if self.scoring == POINTS:
            return False
        piles = st.piles
        if self.goal == Goal.FOUNDATIONS:
            return sum(len(piles[f]) for f in self.by_kind.get(FOUNDATION, ())) == 52
        if self.goal == Goal.CLEAR:
            return not any(piles[p] for p in self.cleared)
        columns = self.by_kind[TABLEAU]
        return (sum(len(piles[p]) for p in columns) == 52
                and all(not piles[p] or (not st.down[p] and king_run(piles[p]))
                        for p in columns))

    def finished(self, st: State) -> bool:
        """Score-only games end by themselves (a full grid); others end by ``useful``."""
        return False

    def costless(self, st: State, m: Move) -> bool:
        """Whether playing the legal move ``m`` now can never cost a win, beyond the safe
        foundation moves (``engine/safe.py``): a solver then tries it alone. The shared rules
        know of none; a game whose own moves have such a case says so (``Matching``)."""
        return False

    def redeal_ahead(self, st: State) -> bool:
        """Whether a redeal is still to come that gathers cards and deals them again
        shuffled (La Belle Lucie's, Gaps difficult's): which cards are left then decides the
        new deal, so a move that looks free now (a safe card sent home) can change it, and
        a solver plays nothing unasked before it. The shared rules have no such redeal."""
        return False

    def useful(self, st: State, m: Move) -> bool:
        """Moves that cannot change the game: a whole pile into an equivalent empty pile,
        a stock turned over when nothing has left the stock or waste since the last turn."""
        if m.kind == MOVE:
            kinds = self.pile_kinds
            return not (
                kinds[m.src] == kinds[m.dst]
                and not st.piles[m.dst]
                and m.n == len(st.piles[m.src])
            )
        if m.kind == STOCK and self.stock and self.stock.to == TO_WASTE:
            return bool(st.piles[self.stock_pile]) or st.vars["progress"] > 0
        return True

    def score(self, st: State) -> int:
        return sum(len(st.piles[f]) for f in self.by_kind.get(FOUNDATION, ()))

    def tie_break(self, st: State) -> int:
        """The game's own tie-break between equal scores, lower ranking first (0: none)."""
        return 0

    # ----- what players see -------------------------------------------------------------

    def view(self, st: State, player: int | None = None) -> dict[str, Any]:
        piles = {name: _pile_view(st, p) for p, name in enumerate(self.pile_names)}
        out: dict[str, Any] = {"game": self.id, "variant": self.variant}
        return self._facts(st, out, piles)

    def view_after(self, st: State, before: dict[str, Any], piles: set[int]) -> dict[str, Any]:
        """The view, from the one before a change that touched ``piles`` alone."""
        names = self.pile_names
        changed = {names[p]: _pile_view(st, p) for p in piles}
        out = {k: v for k, v in before.items() if k != "info"}
        return self._facts(st, out, {**before["piles"], **changed})

    def _facts(self, st: State, out: dict[str, Any], piles: dict[str, Any]) -> dict[str, Any]:
        """The view's fields beside the game's name: the status, the piles, the public facts."""
        out["status"] = st.status
        out["score"] = st.score
        out["moves"] = st.ply
        out["piles"] = piles
        info = self.info(st)
        if info:
            out["info"] = info
        return out

    def info(self, st: State) -> dict[str, Any]:
        """Public facts beside the piles: the base rank, the stock pass, per-line scores."""
        out: dict[str, Any] = {}
        base = st.vars.get("base")
        if base is not None and self.base != 1:
            out["base"] = RANK_NAMES[base] if base else None
        if "pass" in st.vars:
            out["pass"] = st.vars["pass"]
            out["passes"] = self.stock.passes if self.stock else 0
        return out

    def covered_by(self) -> dict[int, tuple[int, ...]]:
        """Piles blocked until other piles are empty (a pyramid's lower cards): for renderers
        and bots, and for the rules of the games that remove cards (``Matching.available``)."""
        return {}

    def shown(self, g: Group) -> int:
        """How many top cards of a pile a renderer fans out (0: all): a waste the stock deals
        several cards onto shows the last deal's cards, one dealt card at a time just the top."""
        if g.kind == WASTE and self.stock is not None and self.stock.to == TO_WASTE:
            return self.stock.draw
        return 0

    def band_width(self) -> int:
        """Card widths the top band needs to stay one line: its piles with a gap of 0.12 card
        between piles and 0.24 between groups (docs/web.md), a right fan's shown cards closed
        up to 0.4 card each (a fan showing all its cards: three of them)."""
        top = [g for g in self.groups if g.area == "top"]
        need = sum(g.count + 0.12 * (g.count - 1) for g in top) + 0.24 * max(len(top) - 1, 0)
        need += sum(0.4 * ((self.shown(g) or 3) - 1) for g in top if g.fan == Fan.RIGHT)
        # A board `width` cards wide has 1.12 * width - 0.12 card widths inside its padding.
        return math.ceil((need + 0.12) / 1.12 - 0.05)

    def describe(self) -> dict[str, Any]:
        """The registry entry: what a lobby lists, and everything a server, bot or renderer
        knows of the rule set (docs/protocol.md, "The catalog"): none of them names a game."""
        covers = self.covered_by()
        width = max([4, self.band_width()]
                    + [g.drawn_width() for g in self.groups if g.area == "main"])
        layout = []
        for g in self.groups:
            entry: dict[str, Any] = {
                "kind": g.kind,
                "piles": [g.name(i) for i in range(g.count)],
                "fan": g.fan or ("down" if g.kind == TABLEAU else "none"),
                "capacity": g.capacity,
                "label": g.heading,
                "word": g.noun,
                "area": g.area,
                "rows": g.drawn_rows(),
                "align": g.align,
                "fill": g.fill,
                "show": self.shown(g),
            }
            names = set(entry["piles"])
            blocked = {self.pile_names[p]: [self.pile_names[q] for q in over]
                       for p, over in covers.items() if self.pile_names[p] in names and over}
            if blocked:
                entry["covered_by"] = blocked
            layout.append(entry)
        return {
            "id": self.id,
            "variant": self.variant,
            "name": self.name,
            "players": list(self.players),
            "scoring": self.scoring,
            "target": self.target,
            "summary": self.summary,
            "featured": self.variant in self.featured,
            "play": self.play,
            "match": (None if self.match is None else
                      {"kind": self.match.kind, "seats": list(self.match.seats)}),
            "width": width,
            "layout": layout,
        }


def king_run(pile: list[int]) -> bool:
    """Whether ``pile`` is a whole suit in one run, King at the bottom down to the Ace."""
    return len(pile) == 13 and all(
        SUIT[c] == SUIT[pile[0]] and RANK[c] == 13 - k for k, c in enumerate(pile))


def _pile_view(st: State, p: int) -> dict[str, Any]:
    """One pile as players see it: how many cards lie face down, and the face-up ones."""
    down = st.down[p]
    return {"down": down, "up": [TEXT[c] for c in st.piles[p][down:]]}
