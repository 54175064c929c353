"""Which moves a search tries from a position, and in what order: declared per pile kind.
``depth.Choice`` makes the choice from the declarations found here.

Pruning (each is sound: the moves left reach every position the pruned ones reach, up to
the key's symmetry, see ``position.py``):

- a safe move to a foundation (``engine/safe.py``) is the only move tried: playing it can
  never cost a win, so there is nothing to branch on. Not while a foundation that any card
  may start lies empty: ``safe_moves`` counts such a pile as taking every card, but it can
  take only one of them, so spending a card on a foundation there is a choice (the plain
  exhaustive search of the tests found this); where ``followed`` holds, a card is safe also
  when the cards still out that could be laid on it can follow it home (``safe_moves``'s
  ``follow``); and never a card that would regroup the stock's later deals (``regroups``);
- so is a move the rule set itself calls costless (``RuleSet.costless``: Pyramid's lone
  King, which can join no set and only uncovers cards when it leaves);
- neither of those while a redeal that shuffles the cards left is still to come
  (``RuleSet.redeal_ahead``, La Belle Lucie): a card gone home changes what it deals;
- moves into an empty pile of an interchangeable group go to its first empty pile only
  (the others give the same key);
- a whole pile never moves into an empty pile of its own group of columns or cells
  (``twin_groups``): the engine's own rule calls that move not useful ("just like the one
  it left", docs/rules/decisions.md), as it only changes the pile's place;
- the stock turned over to the waste again when no card has left the stock or waste since
  the last turn: the waste comes back as it was then, and every other move made since
  could have been made before that turn (it neither reads nor changes the stock), to the
  same cards with no fewer passes left; not in the pass a search starts in, mid-way, where
  that turn came before the search (``open_pass``);
- a position where cards wait on each other in a circle (``successors``) has none: it can
  never be won.

Narrowing (``Choice(narrow=True)``, not sound, so a narrowed search only ever finds wins):
moves between piles of the table that neither turn a card up, empty a pile, nor take a
card to a foundation or out of a side pile (rank ``OTHER``) are left out. Most of a deal's
positions are such shuffles; a winning line seldom needs one, and when it does the sound
search still finds it. A narrowed search that left nothing out (``Choice.dropped`` is
false: no such move ever came up) was the whole search, and its loss is proved.

Ordering (most promising first, so a winnable deal is won early): cards to a foundation,
moves that turn a face-down card up, cards out of a reserve, cell or waste, moves that
empty a pile, other moves, the stock, and cards into a cell last (a cell spent is room
lost); a stock that comes round again beside columns whose runs move only whole ranks
with the moves that turn a card up (``deal_rank``).
"""

from __future__ import annotations

from ..cards import RANK
from ..core import State
from ..options import Deals, Direction, Fill, Goal, SuitRule, Unit
from ..piles import CELL, FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, WASTE
from ..rules import RuleSet
from .position import MOVE_HOOKS, own_hooks

#: Rank of a move by the kinds of its piles (lower first), and how many ranks there are.
TO_FOUNDATION, REVEALS, FROM_RESERVE, EMPTIES, OTHER, DEAL, TO_CELL = range(7)
MOVE_RANKS = TO_CELL + 1
#: Kinds whose cards a move brings into play (out of a side pile, onto the table).
SIDE_KINDS = frozenset({RESERVE, CELL, WASTE, STOCK_PILE})


def open_pass(start: State) -> int:
    """The last pass in which a search from ``start`` must turn the stock over even with
    nothing played from the talon since the last turn: ``start``'s own, where it lies
    mid-way through a pass with nothing played since that pass began (cards dealt, none
    taken: a non-empty waste and no progress), else 0. Leaving such a turn out is sound
    because every move made since the last turn could have been made before it; that
    needs the last turn inside the search. Here it came before ``start``, with the deals
    since, which no line from ``start`` can take back: only the turn brings those cards
    round again (found where a search from such a position proved lost a won Canfield
    game, tests/engine/test_solver_lost.py)."""
    rules = start.rules
    if start.vars.get("progress", 1) == 0 and any(
            start.piles[w] for w in rules.by_kind.get(WASTE, ())):
        return start.vars["pass"]
    return 0


def followed(rules: RuleSet) -> bool:
    """Whether a card may go home once every card still out that could be laid on it can
    follow it there (``safe_moves``'s ``follow``). A line that would lay such a card on it
    can send that card home instead (with the cards of its run, top first), and the same
    for the cards laid on those: what is left of each later move is still legal. That needs
    every foundation to build up in suit from a base and to keep its cards (a card it takes
    stays takeable until it goes); every pile that lays a card on another to be able to send
    it home too; runs that move only as built (not Yukon's face-up cards, which carry any
    cards on them); no pile that fills itself when emptied (Eagle Wing's and Canfield's
    columns from the reserve, which a card gone home early would fill early); a stock that
    deals to wastes or not at all; and the shared rules for every move (docs/solver.md, Safe
    moves)."""
    foundations = [g for g in rules.groups if g.kind == FOUNDATION]
    if not foundations or own_hooks(rules, (*MOVE_HOOKS, "_takes", "covered_by")):
        return False
    if rules.stock is not None and rules.stock.to != Deals.WASTE:
        return False
    for g in foundations:
        build = g.build
        if (build is None or build.direction != Direction.UP or build.suit != SuitRule.SAME
                or g.fill != Fill.BASE or g.to):
            return False
    return all(g.unit != Unit.FACEUP and g.refills is None
               and (not g.to or FOUNDATION in g.to)
               for g in rules.groups if g.kind != FOUNDATION)


def twin_groups(rules: RuleSet) -> list[list[int]]:
    """Groups of columns or cells where moving a whole pile into an empty one changes only
    its place: every group of those kinds, unless a pile's place can matter later, as when
    the stock deals to them one by one, a pile covers another, or the rule set has moves of
    its own (a redeal gathers the columns in order, a removal names them)."""
    dealt = rules.stock.to if rules.stock is not None else None
    if own_hooks(rules, ("extra_moves", "apply_extra")):
        return []
    if rules.covered_by():
        return []
    out = []
    start = 0
    for g in rules.groups:
        piles = list(range(start, start + g.count))
        start += g.count
        if g.count < 2 or g.kind not in (TABLEAU, CELL) or g.rows:
            continue
        if dealt == Deals.TABLEAU and g.kind == TABLEAU:
            continue
        out.append(piles)
    return out


def talon_piles(rules: RuleSet) -> frozenset[int]:
    """The stock and waste piles, where dealing from the stock commutes with every move
    that touches neither: such a move made after a deal could as well be made before it,
    to the same position (it neither reads nor changes the stock, the wastes or their
    vars, and the deal neither reads nor changes its piles). So after a deal the search
    tries only more deals and moves of the stock's and wastes' cards; a position reached by
    a deal is keyed apart from the same position reached otherwise, whose moves are all
    tried (best first; depth first keeps such a position only in the pass it starts in
    mid-way, ``Choice.talon_moves``). This is what keeps the tableau moves from being
    tried again after every deal of a draw-three stock.

    Only where the stock deals to wastes by the shared rule and no hook of the rule set's
    own runs after a move (empty: no such saving)."""
    stock = rules.stock
    if stock is None or stock.to != Deals.WASTE or own_hooks(
            rules, ("apply_stock", "after_move", "apply", "apply_move")):
        return frozenset()
    return frozenset([rules.stock_pile, *rules.by_kind.get(WASTE, ())])


def talon_sources(rules: RuleSet, talon: frozenset[int]) -> list[int] | None:
    """The piles whose moves are all a search tries after a deal (``talon_piles``), so
    that only theirs need listing: ``None`` where no pile is such, where a card from
    elsewhere could go onto the stock or a waste, or where the rule set lists its moves,
    or judges a game over, in its own way. A rule of its own for which moves are useful
    (Canfield's idle shuttle) is no such way: ``legal_after_deal`` asks it of each move it
    lists, and a game is over by it only when none of the whole list is useful, of which
    the talon's moves are all a search tries after a deal."""
    if not talon or own_hooks(rules, ("legal_moves", "iter_moves", "settled", "status", "won",
                                       "finished", "going_on")):
        return None
    if any(t in talon for src in rules.sources if src not in talon for t in rules.targets[src]):
        return None
    return [src for src in rules.sources if src in talon]


def deal_rank(rules: RuleSet) -> int:
    """The stock's rank among the moves (``Choice.ordered``). Where the stock deals to the
    waste and comes round again (more than one pass) and the columns' runs move only whole
    (``Unit.PACKED``), a deal ranks with the moves that turn a card up, which it is, before
    the moves between columns: it spends nothing (its cards come back), and the columns
    offer few moves, each a whole run, so a winning line there mostly plays the stock's
    cards before it rearranges the columns, which a search trying every column move first
    reached only after their whole subtrees (depth first wins Canfield difficult deal 12 in
    0.1 s this way, and had not in 60 s). Elsewhere the stock comes last: a single pass is
    cards spent, and where runs move in parts (Canfield easy) or a top card alone too
    (Eagle Wing), the early deal found fewer wins within 20,000 positions (docs/solver.md)."""
    stock = rules.stock
    columns = [g for g in rules.groups if g.kind == TABLEAU]
    if (stock is not None and stock.to == Deals.WASTE and stock.passes != 1 and columns
            and all(g.unit == Unit.PACKED for g in columns) and talon_piles(rules)):
        return REVEALS
    return DEAL


#: No card (``successors``, ``circled``).
NONE = 255


def successors(rules: RuleSet) -> bytes | None:
    """Per card, the one card it may ever be laid on (``NONE`` for a King), where every card
    must end on that card and can get there only by moving itself: the goal is runs of a
    suit from a King in the columns (``Goal.RUNS``), each card but a King may be laid on
    exactly one card, an empty column takes a King or nothing, the columns are the only
    piles but the stock, which deals onto them, and the shared rules play the rule set
    (Scorpion difficult). ``None`` elsewhere.

    Then the card a card lies directly on changes only when that card moves (carrying the
    cards on it), and it moves only onto its successor, once nothing lies on that: a card
    not on its successor waits for the card lying directly on its successor to move first,
    unless that one is a King (which may go to an empty column). Cards waiting on each
    other in a circle (``depth.circled``: the 5 of spades on the 8 of hearts, the 7 of
    hearts on the 6 of spades) can never move, so the game is lost."""
    if rules.goal != Goal.RUNS or own_hooks(rules, MOVE_HOOKS):
        return None
    if not set(rules.pile_kinds) <= {TABLEAU, STOCK_PILE} or (
            rules.stock is not None and rules.stock.to != Deals.TABLEAU):
        return None
    groups = [g for g in rules.groups if g.kind == TABLEAU]
    build = groups[0].build if len(groups) == 1 else None
    if build is None or groups[0].fill not in (Fill.KING, Fill.NONE):
        return None
    rows = build.rows
    out = bytearray(52)
    for c in range(52):
        on = [t for t in range(52) if rows[t][c]]
        if RANK[c] == 13 and not on:
            out[c] = NONE
        elif RANK[c] != 13 and len(on) == 1:
            out[c] = on[0]
        else:
            return None
    return bytes(out)


__all__ = ["deal_rank", "followed", "open_pass", "successors", "talon_piles", "talon_sources",
           "twin_groups"]
