"""Safe moves to the foundations: the ones a client may play for the player (auto-move).

A legal move of one card to a foundation is safe when playing it can never cost the player
anything they can foresee (one effect it does not weigh: below), judged from the piles'
declarations and what is public (which cards are on the foundations, which cards lie on
top), never from a face-down card:

- the foundation builds by a declared rule (a discard pile, or a foundation whose rule is the
  game's own code, has no safe move: what to throw away is a choice), one way only (not
  Golf's or Eliminator's, which go up or down: which way a pile goes next is a choice, so a
  card laid there can cost a line that needed the other way);
- no card that could ever be built on it in another pile (by that pile's build) is still off
  the foundations: the card is needed as no one's base (an Ace always; in alternating
  colours a red 5 once both black 4s are up);
- no other card off the foundations loses its place: each card the foundation takes now is
  taken after the move by it or by another foundation;
- it does not choose the foundations' base rank (the first card of a "chosen base" game),
  nor start a foundation any card may start.

The solver may ask for more (``follow``): a card still out that could be laid on it is no
reason to wait if it can follow the card home whenever a line would lay it there. That
holds of a card a foundation takes now (it stays takeable until it goes, where foundations
build up in suit and keep their cards) when every card still out that could be laid on it
can follow in turn. docs/solver.md (Cards that can follow) gives the argument, and the rule sets it
holds for (``moves.followed``).

Two things no rule here weighs: where the stock deals three at a time and is gone through
again, a card leaving the waste early regroups every later pass (``regroups``); and before a
redeal that shuffles the cards left (``RuleSet.redeal_ahead``), a card gone home changes
what it deals. For a player, who knows neither the stock's order nor the shuffle, that
changes nothing foreseeable; for the solver, which knows both, it can cost a win, so the
solver plays no such move unasked.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from .core import MOVE, Move, State
from .options import Direction
from .piles import FOUNDATION, STOCK_PILE, WASTE, Group
from .rules import ANY_FILL, RuleSet


def safe_moves(st: State, legal: Iterable[Move] | None = None,
               follow: bool = False) -> list[Move]:
    """The safe foundation moves among ``legal`` (default: the position's legal moves), one
    per card: where several foundations would take it, the first of them. ``follow``: the
    solver's stronger rule (above), only where the caller knows it holds."""
    rules = st.rules
    foundations = rules.by_kind.get(FOUNDATION, [])
    if not foundations:
        return []
    moves = st.legal_moves() if legal is None else legal
    founded = 0  # the cards on the foundations, one bit each
    for f in foundations:
        for c in st.piles[f]:
            founded |= 1 << c
    out: dict[int, Move] = {}
    for m in moves:
        if (m.kind == MOVE and m.n == 1 and m.src not in out
                and rules.pile_kinds[m.dst] == FOUNDATION and _safe(st, m, founded, follow)):
            out[m.src] = m
    return list(out.values())


@functools.cache
def row_bits(row: bytes) -> int:
    """52 flags as the bits of one int (a build's row, a fill's), so sets are one operation."""
    return sum(1 << c for c, flag in enumerate(row) if flag)


def one_way(group: Group) -> bool:
    """Whether a safe move may go to a pile of ``group``: it builds by a declared rule, one
    way only (above)."""
    return group.build is not None and group.build.direction != Direction.EITHER


def _safe(st: State, m: Move, founded: int, follow: bool) -> bool:
    rules = st.rules
    group = rules.pile_group[m.dst]
    build = group.build
    if build is None or not one_way(group):
        return False
    card = st.piles[m.src][-1]
    if not st.piles[m.dst] and (st.vars.get("base") == 0 or group.fill == ANY_FILL):
        return False  # the first card sets the base rank, or any card may start the pile
    waiting = laid_on(rules, card) & ~founded  # cards still out that could be laid on it
    if waiting and not follow:
        return False
    out = ~founded
    taken_before = taken_after = 0
    for f in rules.by_kind[FOUNDATION]:
        row = rules._takes(st, f)
        if row is None:
            return False  # a foundation the game's own code fills: not judged here
        taken_before |= row_bits(row)
        taken_after |= row_bits(build.rows[card]) if f == m.dst else row_bits(row)
    shut_out = taken_before & out & ~(1 << card) & ~taken_after
    if shut_out:
        return False
    if waiting and st.vars.get("base") == 0:
        return False  # an empty foundation takes any card until the base is chosen
    return not waiting & ~followers(rules, founded | 1 << card, taken_after)


def regroups(rules: RuleSet, pile: int) -> bool:
    """Whether a card leaving ``pile`` early changes which cards later deals bring up: the
    stock or a waste, where the stock deals several cards at a time and is gone through
    again (Klondike easy, Canfield: without the card, each later pass of three groups the
    cards otherwise, and a card a line needs may no longer come up). The solver, which
    knows the stock, plays no such move unasked (docs/solver.md, The choice of moves)."""
    stock = rules.stock
    return (stock is not None and stock.draw > 1 and stock.passes != 1
            and rules.pile_kinds[pile] in (STOCK_PILE, WASTE))


def laid_on(rules: RuleSet, card: int) -> int:
    """The cards that may be laid on ``card`` in a pile other than a foundation, as bits."""
    bits = 0
    for g in rules.groups:
        if g.kind != FOUNDATION and g.build is not None:
            bits |= row_bits(g.build.rows[card])
    return bits


def followers(rules: RuleSet, home: int, takes: int) -> int:
    """The cards that can follow a card home (``follow``): of those the foundations take
    (``takes``) and that are not ``home``, the largest set each of whose cards has only
    cards of the set, or home, to lie on it."""
    spare = takes & ~home
    while True:
        keep = spare
        for c in range(52):
            if keep >> c & 1 and laid_on(rules, c) & ~home & ~keep:
                keep &= ~(1 << c)
        if keep == spare:
            return spare
        spare = keep
