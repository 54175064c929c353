"""Idle tail swaps (Canfield, Agnes Sorel): moving a packed tail between two equivalent cards
when nothing can come of it, which two such tails could otherwise do for ever."""

from __future__ import annotations

from ..cards import RANK, RED
from ..core import MOVE, Move, State
from ..options import SuitRule, Unit
from ..piles import FOUNDATION, TABLEAU
from ..rules import RuleSet


def idle_swap(rules: RuleSet, st: State, m: Move) -> bool:
    """Whether ``m`` only swaps a packed tail between two equivalent cards and gains nothing.

    Such a move lifts a tail off card X onto card Y of the same rank and colour (so it could
    go straight back), where the build depends only on rank and colour: whatever fits on X
    fits on Y, so the one thing the move can gain is X itself becoming free. When X cannot go
    to a foundation and no packed tail topped by X can go anywhere, the move changes nothing
    a later move could not do at the time X is needed; two such tails could otherwise shuttle
    for ever and a lost game would never end.
    """
    if m.kind != MOVE or rules.pile_kinds[m.src] != TABLEAU or rules.pile_kinds[m.dst] != TABLEAU:
        return False
    src, dst, n = m.src, m.dst, m.n
    pile, target = st.piles[src], st.piles[dst]
    build = rules.pile_group[src].build
    if (not target or build is None
            or build.suit not in (SuitRule.ALTERNATE, SuitRule.COLOUR, SuitRule.ANY)
            or len(pile) - n <= st.down[src] or rules.pile_group[dst].build != build):
        return False
    fits = build.table
    x, y, bottom = pile[-n - 1], target[-1], pile[-n]
    if RANK[x] != RANK[y] or RED[x] != RED[y] or not fits[x * 52 + bottom]:
        return False
    for f in rules.by_kind.get(FOUNDATION, ()):
        if rules.target_refusal(st, src, f, x, 1) is None:
            return False
    # The tails that X would top, as this pile's unit rule lets them leave.
    top = len(pile) - n - 1
    i = top
    while i > st.down[src] and fits[pile[i - 1] * 52 + pile[i]]:
        i -= 1
    run = top - i + 1
    unit = rules.pile_group[src].unit
    whole = unit in (Unit.WHOLE, Unit.PACKED)
    sizes = (1,) if unit == Unit.TOP else (1, run) if whole else range(1, run + 1)
    targets = rules.targets[src]
    alone = rules.lone_targets.get(src, targets)  # (a ``packed`` unit's lone top card)
    for k in sizes:
        card = pile[top - k + 1]
        for q in alone if k < run else targets:
            if q == dst:
                if fits[pile[-1] * 52 + card]:  # the moved tail's top now lies on Y
                    return False
            elif rules.target_refusal(st, src, q, card, k) is None:
                return False
    return True
