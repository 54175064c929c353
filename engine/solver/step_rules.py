"""The step search (``steps.py``): which rule sets and positions it plays, and the engine's
moves of the lines it finds.

It applies where the columns build down by card *type* (a card may lie on every card of one
type and only on those: in alternating colours, a red 7 on either black 8), any face-up run
may move, only Kings fill a space, every face-down card is turned up by itself, the four
foundations build up in suit from the Ace and keep their cards, and a stock deals to one
waste (``Plan``). Judged from the declarations alone, never from a game's name: Klondike's
two variants are such games today. There, which face-up card lies on which never decides
whether a position can be won, and the search leaves it out (docs/solver.md, The step
search, has the proof); ``realize`` makes the engine's moves of each step, as the proof
does, and the engine checks each one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

from ..cards import RANK, SUIT
from ..core import MOVE, PLAYING, STOCK, WON, Move, State
from ..options import Deals, Direction, Fill, Goal, Scoring, SuitRule, Unit
from ..piles import FOUNDATION, STOCK_PILE, TABLEAU, WASTE
from ..rules import RuleSet
from .moves import followed
from .position import own_hooks
from .steps import KINDS, NO_TYPE, Steps
from .verdict import Budget, Outcome, Verdict

#: Called now and then during a long search with (positions so far, seconds so far).
Progress = Callable[[int, float], None]

HOME, TURN, DRAW_HOME, DRAW_PLACE, REDEAL = KINDS
#: Each kind of step in words.
STEP_NAMES = ("home", "turn up", "stock home", "stock to a column", "redeal")


class Plan:
    """What the step search needs of a rule set: its columns, foundations, stock and
    waste, and the card types of its columns' build. ``fits`` is false where the search
    does not apply (its ``why`` says what is missing); every check is on declarations."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.why = self._check(rules)
        self.fits = not self.why
        if not self.fits:
            return
        by = rules.by_kind
        self.columns = tuple(by[TABLEAU])
        self.foundations = tuple(by[FOUNDATION])
        self.stock = rules.stock_pile
        self.waste = by[WASTE][0]
        spec = rules.stock
        assert spec is not None
        self.draw = spec.draw
        self.passes = spec.passes
        self.follow = followed(rules)
        rows = rules.pile_group[self.columns[0]].build.rows  # type: ignore[union-attr]
        #: Per card: the cards it may lie on, and that may lie on it, as bits.
        self.parents = [sum(1 << u for u in range(52) if rows[u][c]) for c in range(52)]
        self.kids = [sum(1 << o for o in range(52) if rows[c][o]) for c in range(52)]
        types: list[tuple[int, int]] = []
        tid = bytearray(52)
        for c in range(52):
            t = (self.parents[c], self.kids[c])
            if t not in types:
                types.append(t)
            tid[c] = types.index(t)
        self.types = len(types)
        self.tid = bytes(tid)
        #: Per card: its parents' type and its children's type (``NO_TYPE``: none).
        self.ptid = bytes(tid[(self.parents[c] & -self.parents[c]).bit_length() - 1]
                          if self.parents[c] else NO_TYPE for c in range(52))
        self.ktid = bytes(tid[(self.kids[c] & -self.kids[c]).bit_length() - 1]
                          if self.kids[c] else NO_TYPE for c in range(52))
        self.kings = bytes(not self.parents[c] for c in range(52))

    @staticmethod
    def _check(rules: RuleSet) -> str:
        """Why the step search does not apply to ``rules`` ("" where it does)."""
        from .board import ASKED, OWN_HOOKS

        if rules.scoring == Scoring.POINTS or rules.players != (1, 1):
            return "a game played for points, or by more than one player"
        if rules.goal != Goal.FOUNDATIONS or own_hooks(rules, (*OWN_HOOKS, *ASKED)):
            return "rules of its own, or a goal other than the foundations"
        kinds = {g.kind for g in rules.groups}
        if kinds != {TABLEAU, FOUNDATION, STOCK_PILE, WASTE}:
            return "piles other than columns, foundations, a stock and a waste"
        groups = {g.kind: [x for x in rules.groups if x.kind == g.kind] for g in rules.groups}
        if any(len(v) != 1 for v in groups.values()) or groups[WASTE][0].count != 1:
            return "more than one group of a kind, or more than one waste"
        col, found, waste = groups[TABLEAU][0], groups[FOUNDATION][0], groups[WASTE][0]
        spec = rules.stock
        if spec is None or spec.to != Deals.WASTE:
            return "a stock that does not deal to the waste"
        if (col.build is None or col.build.direction != Direction.DOWN or col.fill != Fill.KING
                or col.unit != Unit.TAIL or not col.turn_up or col.capacity
                or col.refills is not None or col.fill_from
                or set(col.to) != {TABLEAU, FOUNDATION}):
            return "columns that do not build down with any run moving and Kings filling"
        if (found.build is None or found.build.direction != Direction.UP or found.count != 4
                or found.build.suit != SuitRule.SAME or found.build.wrap or found.to
                or found.fill != Fill.BASE or rules.base != 1 or found.capacity):
            return "foundations that do not build up in suit from the Ace"
        if waste.unit != Unit.TOP or set(waste.to) != {TABLEAU, FOUNDATION}:
            return "a waste whose top card cannot go to the columns and foundations"
        rows = col.build.rows
        parents = [frozenset(u for u in range(52) if rows[u][c]) for c in range(52)]
        kids = [frozenset(o for o in range(52) if rows[c][o]) for c in range(52)]
        for c in range(52):
            if (not parents[c] and RANK[c] != 13) or (parents[c] and RANK[c] == 13):
                return "a card other than a King with nothing to lie on"
            kind = frozenset(x for x in range(52)
                             if parents[x] == parents[c] and kids[x] == kids[c])
            if any(kids[p] != kind for p in parents[c]) or len(
                    {(parents[p], kids[p]) for p in parents[c]}) > 1:
                return "a build that does not go by card types"
        return ""


@cache
def plan(rules: RuleSet) -> Plan:
    return Plan(rules)


def applies(st: State) -> bool:
    """Whether the step search plays ``st``: its rule set fits and its position too (the
    columns' face-up cards in built runs, a stock with no limited redeal still to come)."""
    p = plan(st.rules)
    return p.fits and start_why(st, p) == ""


def start_why(st: State, p: Plan) -> str:
    if set(st.vars) - {"base", "pass", "progress"} or st.vars.get("base", 1) != 1:
        return "a var of its own"
    if p.passes and st.vars["pass"] < p.passes:
        return "redeals left, but not without limit"
    parents = p.parents
    for c in p.columns:
        pile, down = st.piles[c], st.down[c]
        for i in range(max(down, 0) + 1, len(pile)):
            if not parents[pile[i]] >> pile[i - 1] & 1:
                return "a column whose face-up cards are not a built run"
    for f in p.foundations:
        pile = st.piles[f]
        if any(RANK[c] != i + 1 or SUIT[c] != SUIT[pile[0]] for i, c in enumerate(pile)):
            return "a foundation out of order"
    # The key's bits: 16 for the foundations, the face-down counts', the stock's cards, 5
    # for the deal's place.
    kinds = 1
    for c in p.columns:
        kinds *= st.down[c] + 2
    if 16 + (kinds - 1).bit_length() + len(st.piles[p.stock]) + len(st.piles[p.waste]) + 5 > 64:
        return "more than a key of 64 bits holds"
    return ""


def start(st: State) -> Steps:
    """The step search's position of ``st`` (which ``applies``)."""
    p = plan(st.rules)
    waste = st.piles[p.waste]
    # The stock's cards in the order a pass deals them: the waste's, bottom first, then the
    # stock's, top first.
    dealt = list(waste) + st.piles[p.stock][::-1]
    flag = p.passes == 0 and st.vars.get("progress", 1) == 0 and len(waste) > 0
    home = [c for f in p.foundations for c in st.piles[f]]
    return Steps(p, [st.piles[c] for c in p.columns], [st.down[c] for c in p.columns], home,
                 dealt, len(waste), flag)


def solve(st: State, budget: Budget, progress: Progress | None = None) -> Verdict:
    """Search from ``st`` (which ``applies``; left as it is) within ``budget``: won (the
    engine's moves of the line found), lost (every position was searched) or unknown."""
    t0 = time.perf_counter()
    if st.status != PLAYING:  # the position searched is the one given
        won = st.status == WON
        return Verdict(Outcome.WON if won else Outcome.LOST, (), 1, 0.0, complete=not won)
    steps = start(st)
    steps.progress = progress
    deadline = 0.0 if budget.seconds is None else t0 + budget.seconds
    found = steps.run(budget.positions or 0, deadline)
    seconds = time.perf_counter() - t0
    if found == 1:
        return Verdict(Outcome.WON, tuple(realize(st, steps.line())), steps.positions, seconds)
    if found == 0:
        return Verdict(Outcome.LOST, (), steps.positions, seconds, complete=True)
    return Verdict(Outcome.UNKNOWN, (), steps.positions, seconds)


def realize(begin: State, line: list[tuple[int, int]]) -> list[Move]:
    """The engine's moves that play ``line`` (``Steps.line``) from ``begin`` (left as it
    is), each checked by ``State.play``. A step's moves, as the proof in docs/solver.md
    makes them: the run on a face-down card onto a card that takes it; a card home from the
    top of its column, after the run on it has moved onto a card of its type that lies free;
    a card from the stock by dealing until it lies on the waste."""
    p = plan(begin.rules)
    st = begin.copy()
    steps = start(st)
    out: list[Move] = []

    def play(m: Move) -> None:
        st.play(m)
        out.append(m)

    for d, (kind, arg) in enumerate(line):
        if kind in (HOME, TURN):
            if kind == HOME:
                card = arg
                col = next(c for c in p.columns if card in st.piles[c][st.down[c]:])
                above = len(st.piles[col]) - 1 - st.piles[col].index(card)
                if above:  # the run on it moves onto a card of its type lying free
                    twin = next(c for c in p.columns if c != col and st.piles[c]
                                and p.tid[st.piles[c][-1]] == p.tid[card])
                    play(Move(MOVE, col, twin, above))
                play(Move(MOVE, col, foundation(st, p, card), 1))
            else:
                col = p.columns[arg]
                down = st.down[col]
                card = st.piles[col][down]
                play(Move(MOVE, col, place(st, p, card, col), len(st.piles[col]) - down))
        elif kind == REDEAL:
            while st.piles[p.stock]:
                play(Move(STOCK))
            play(Move(STOCK))
        else:
            card = steps.card_at(arg)
            while not (st.piles[p.waste] and st.piles[p.waste][-1] == card):
                play(Move(STOCK))
            to = foundation(st, p, card) if kind == DRAW_HOME else place(st, p, card, -1)
            play(Move(MOVE, p.waste, to, 1))
        steps.apply(d, kind | arg << 4)
    return out


def foundation(st: State, p: Plan, card: int) -> int:
    """The foundation that takes ``card``: its suit's, or the first empty one for an Ace."""
    for f in p.foundations:
        pile = st.piles[f]
        if (pile[-1] + 1 == card and RANK[card] > 1) if pile else RANK[card] == 1:
            return f
    raise AssertionError(f"no foundation takes card {card}")


def place(st: State, p: Plan, card: int, src: int) -> int:
    """A column other than ``src`` whose top card takes ``card`` (an empty one, for a King)."""
    for c in p.columns:
        pile = st.piles[c]
        if c != src and (p.parents[card] >> pile[-1] & 1 if pile else p.kings[card]):
            return c
    raise AssertionError(f"no column takes card {card}")


__all__ = ["STEP_NAMES", "Plan", "applies", "plan", "realize", "solve", "start"]
