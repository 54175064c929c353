"""Rules declared over shared pile kinds.

Most games are a tuple of ``Group`` declarations (how many piles of a kind, how they are
dealt, what builds on them, what fills them, what moves off them) and a few class
attributes; ``RuleSet`` turns that into the deal, legal moves, status and score. The
declarations themselves are engine/piles.py; what players see of a rule set (its catalog
entry, a position's view) is its base ``Views`` (engine/views.py), why a move as sent is
refused its base ``Refusals`` (engine/refusals.py): plain Python, where this module is
compiled with the engine's inner loop (engine/compiled.py). Odd games override a small hook
(``prepare``, ``extra_moves``, ``extra_refusal``, ``apply_extra``, ``after_move``, ``won``,
``score``, ``finished``).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import ClassVar

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from .cards import RANK, SUIT, parse_card, show
from .core import FINISHED, LOST, MOVE, PLAYING, STOCK, WON, Move, Refusal, State, Status
from .deal import shuffled_deck
from .options import (
    Base,
    Carry,
    Deals,
    DeclarationError,
    Fill,
    Goal,
    Play,
    Scoring,
    Unit,
    option,
)
from .piles import (
    CELL,
    FOUNDATION,
    RESERVE,
    STOCK_PILE,
    TABLEAU,
    WASTE,
    BeatenRule,
    GapRule,
    Group,
    MatchMode,
    PairRule,
    Stock,
    a,
    below,
    rank_word,
)
from .refusals import Refusals

#: Which cards an empty pile takes, 52 flags each (see ``RuleSet._takes``).
EVERYTHING, NOTHING = bytes([1] * 52), bytes(52)
#: A target pile not asked yet what it takes (``RuleSet.moves_from``): no real answer is it.
UNASKED = b"?"
RANK_ROWS = {r: bytes(RANK[c] == r for c in range(52)) for r in range(1, 14)}
KINGS = RANK_ROWS[13]
#: Options compared on the hot paths, as plain names: a member looked up on its enum class
#: costs several times a global name's lookup.
ANY_FILL, NO_FILL, KING_FILL, BASE_FILL = Fill.ANY, Fill.NONE, Fill.KING, Fill.BASE
BELOW_BASE_FILL, ROOM_CARRY = Fill.BELOW_BASE, Carry.ROOM
TOP_UNIT, WHOLE_UNIT, FACEUP_UNIT, PACKED_UNIT = Unit.TOP, Unit.WHOLE, Unit.FACEUP, Unit.PACKED
POINTS, TO_WASTE = Scoring.POINTS, Deals.WASTE


class RuleSet(Refusals, ABC):
    """One playable rule set: a game id and a variant, built from declarations."""

    #: Cards slid into the gaps of a grid by the rule set's own moves (``GapRule``).
    gap_rule: GapRule | None = None
    #: Cards removed alone or in pairs by the rule set's own moves (``PairRule``).
    pair_rule: PairRule | None = None
    #: Cards discarded when a higher card of their suit beats them (``BeatenRule``).
    beaten_rule: BeatenRule | None = None

    #: What wins the game (``won``), where it is played to a win.
    goal: ClassVar[Goal] = Goal.FOUNDATIONS
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
            self.groups = self.declare()
            self.check()
        except DeclarationError as e:
            raise DeclarationError(f"{type(self).__name__} ({self.key}): {e}") from None
        self.pile_names = []
        self.pile_kinds: list[str] = []
        self.pile_group = []
        for g in self.groups:
            for i in range(g.count):
                self.pile_names.append(g.name(i))
                self.pile_kinds.append(g.kind)
                self.pile_group.append(g)
        self.pile_index = {n: i for i, n in enumerate(self.pile_names)}
        self.by_kind = {}
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

    def status(self, st: State) -> Status:
        settled = self._settled(st)
        return settled if settled is not None else self.going_on(st, self.iter_moves(st))

    def going_on(self, st: State, moves: Iterable[Move]) -> Status:
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

    def settled(self, st: State) -> Status | None:
        """The status when no search for a useful move is needed (won, resigned, a game that
        ended by itself), else ``None``: then a legal, useful move proves the game is on,
        which spares ``play`` the search (a game overriding ``status`` always answers)."""
        if type(self).status is not RuleSet.status:
            return self.status(st)
        return self._settled(st)

    def _settled(self, st: State) -> Status | None:
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


def king_run(pile: list[int]) -> bool:
    """Whether ``pile`` is a whole suit in one run, King at the bottom down to the Ace."""
    return len(pile) == 13 and all(
        SUIT[c] == SUIT[pile[0]] and RANK[c] == 13 - k for k, c in enumerate(pile))
