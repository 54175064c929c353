"""Safe moves to the foundations: the ones a client may play for the player (auto-move).

A legal move of one card to a foundation is safe when playing it can never cost the player
anything, judged from the piles' declarations and what is public (which cards are on the
foundations, which cards lie on top), never from a face-down card:

- the foundation builds by a declared rule (a discard pile, or a foundation whose rule is the
  game's own code, has no safe move: what to throw away is a choice);
- no card that could ever be built on it in another pile (by that pile's build) is still off
  the foundations: the card is needed as no one's base (an Ace always; in alternating
  colours a red 5 once both black 4s are up);
- no other card off the foundations loses its place: each card the foundation takes now is
  taken after the move by it or by another foundation (so not Golf's single pile, where
  playing one card shuts out the others);
- it does not choose the foundations' base rank (the first card of a "chosen base" game).
"""

from __future__ import annotations

from collections.abc import Iterable

from .core import MOVE, Move, State
from .rules import FOUNDATION, Group


def safe_moves(st: State, legal: Iterable[Move] | None = None) -> list[Move]:
    """The safe foundation moves among ``legal`` (default: the position's legal moves), one
    per card: where several foundations would take it, the first of them."""
    rules = st.rules
    foundations = rules.by_kind.get(FOUNDATION, [])
    if not foundations:
        return []
    moves = st.legal_moves() if legal is None else legal
    founded = {c for f in foundations for c in st.piles[f]}
    out: dict[int, Move] = {}
    for m in moves:
        if (m.kind == MOVE and m.n == 1 and m.src not in out
                and rules.pile_kinds[m.dst] == FOUNDATION and _safe(st, m, founded)):
            out[m.src] = m
    return list(out.values())


def _safe(st: State, m: Move, founded: set[int]) -> bool:
    rules = st.rules
    build = rules.pile_group[m.dst].build
    if build is None:
        return False
    card = st.piles[m.src][-1]
    if not st.piles[m.dst] and st.vars.get("base") == 0:
        return False  # the first card sets every foundation's base rank
    if any(_builds_on(g, card, founded) for g in _building_groups(st)):
        return False
    before = [rules._takes(st, f) for f in rules.by_kind[FOUNDATION]]
    if any(row is None for row in before):
        return False  # a foundation the game's own code fills: not judged here
    after = [build.rows[card] if f == m.dst else row
             for f, row in zip(rules.by_kind[FOUNDATION], before, strict=True)]
    return all(
        any(row[x] for row in after if row is not None)
        for x in range(52)
        if x != card and x not in founded and any(row[x] for row in before if row is not None)
    )


def _building_groups(st: State) -> list[Group]:
    return [g for g in st.rules.groups if g.kind != FOUNDATION and g.build is not None]


def _builds_on(g: Group, card: int, founded: set[int]) -> bool:
    """Whether some card still off the foundations could be laid on ``card`` in ``g``."""
    assert g.build is not None
    row = g.build.rows[card]
    return any(row[x] and x not in founded for x in range(52))
