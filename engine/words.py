"""A move in players' words, as the board before it shows it: "the 7♠ onto the 8♥".

Only face-up cards are named, so the words never tell more than the board showed; a card not
shown is "a card". Piles are called by their group's word (``Group.noun``), numbered where the
group has several, as the board numbers them. The web client words moves the same way
(clients/web/words.js) from the view it holds.
"""

from __future__ import annotations

from .cards import show
from .core import MOVE, REMOVE, STOCK, Move, State
from .options import Deals
from .piles import FOUNDATION, WASTE
from .rules import RuleSet


def pile_words(rules: RuleSet, p: int) -> str:
    """"column 5", "the stock", "the waste pile", "the foundation"."""
    g = rules.pile_group[p]
    if g.kind == FOUNDATION:
        return "the foundation"
    if g.count == 1:
        return f"the {g.noun}"
    return f"{g.noun} {p - rules.pile_names.index(g.name(0)) + 1}"


def _card(st: State, p: int, i: int) -> str | None:
    """The card at index ``i`` of pile ``p`` as it reads face up, or None when face down."""
    return show(st.piles[p][i]) if i >= st.down[p] else None


def _stock(st: State) -> str:
    rules = st.rules
    s = rules.stock_pile
    if s >= 0 and not st.piles[s]:
        return "turn the waste over"
    wastes = [g for g in rules.groups if g.kind == WASTE]
    one_waste = len(wastes) == 1 and wastes[0].count == 1
    to_waste = rules.stock is not None and rules.stock.to == Deals.WASTE
    return "draw from the stock" if one_waste and to_waste else "deal from the stock"


def move_words(st: State, m: Move) -> str:
    """``m`` in words, from the position ``st`` before it (left unchanged)."""
    rules = st.rules
    if m.kind == STOCK:
        return _stock(st)
    if m.kind == "resign":
        return "resign"
    if m.kind == MOVE:
        pile = st.piles[m.src]
        start = len(pile) - m.n
        first, last = _card(st, m.src, start), _card(st, m.src, len(pile) - 1)
        if first is None or last is None:
            what = "a card" if m.n == 1 else f"{m.n} cards"
        elif m.n == 1:
            what = f"the {first}"
        else:
            what = f"the {first}–{last} ({m.n} cards)"
        under = st.piles[m.dst]
        onto = _card(st, m.dst, len(under) - 1) if under else None
        if onto is not None and rules.pile_group[m.dst].kind != FOUNDATION:
            return f"{what} onto the {onto}"
        return f"{what} to {pile_words(rules, m.dst)}"
    if m.kind == REMOVE:
        named = [_card(st, p, len(st.piles[p]) - 1) if st.piles[p] else None for p in m.piles]
        each = [c if c else f"the top card of {pile_words(rules, p)}"
                for c, p in zip(named, m.piles, strict=True)]
        said = each[0] if len(each) == 1 else f"{', '.join(each[:-1])} and {each[-1]}"
        return f"the {said} removed" if named[0] else f"{said} removed"
    if m.src >= 0:
        return f"{m.kind} ({pile_words(rules, m.src)})"
    return m.kind
