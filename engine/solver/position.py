"""The transposition table's key: a compact form of a position, without its history.

Two ways to the same cards are one node. The key holds every pile (face-down count and
cards) and the state's vars, which is everything a rule set reads, except:

- a stock with unlimited passes: the pass number is left out (it only counts, so an
  endless stock would otherwise make every turn a new position), and the count of cards
  played from the stock since the last turn only as "some" or "none" (all ``useful``
  reads of it);
- interchangeable piles (``interchangeable``): a group's piles sorted, so positions that
  differ by which of two equivalent columns holds a run are one node; the columns a stock
  deals to by place (``dealt_columns``) sorted too, those it deals no more cards to;
- foundations no card leaves (``sink_piles``), in a game played to a win: only their size
  and top card, so two orders of play to the same foundations are one node; a discard pile
  (``RuleSet.discard``) its size alone, since no rule reads its top card;
- in a game no rule of which reads a card's suit (``suit_blind``), each card as its rank
  alone, so that positions that differ only by which card of a rank lies where are one node.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

from ..core import State
from ..options import Deals, Scoring, SuitRule
from ..piles import CELL, FOUNDATION, TABLEAU, Group
from ..rules import RuleSet

Key = tuple[bytes, tuple[tuple[str, int], ...]]

#: The pile kinds whose piles can be alike in every way but their place.
SYMMETRIC_KINDS = (TABLEAU, CELL, FOUNDATION)
#: The hooks that decide what a move is or does; a rule set's own version of any of them
#: may treat a pile by its place (a redeal in column order, a cell's own rule).
MOVE_HOOKS = ("iter_moves", "legal_moves", "extra_moves", "refusal", "extra_refusal",
              "move_refusal", "source_refusal", "target_refusal", "unit_refusal",
              "fill_refusal", "apply", "apply_move", "apply_stock", "apply_extra",
              "after_move", "deal_round", "unit_sizes", "run_length", "turn_tops")


def own_hooks(rules: RuleSet, hooks: tuple[str, ...]) -> bool:
    """Whether ``rules`` has its own version of any of ``hooks``, rather than the shared
    rules': what a shortcut of the search that relies on the shared rules asks first."""
    cls = type(rules)
    return any(getattr(cls, h) is not getattr(RuleSet, h) for h in hooks)


def interchangeable(rules: RuleSet) -> list[list[int]]:
    """Groups of piles that only their place tells apart: a group of a symmetric kind
    (columns, cells, foundations) in a rule set built from the shared declarations alone
    (none of the move hooks is its own, no pile covers another), where the stock does not
    deal one card to each pile in turn (which would tell the piles apart by place: those are
    ``dealt_columns``).

    Judged from declarations only, never from the game's name; a rule set that overrides a
    move hook just loses this saving, never its correctness.
    """
    dealt = rules.stock.to if rules.stock is not None else None
    return [piles for g, piles in symmetric(rules)
            if not (dealt in (Deals.TABLEAU, Deals.FOUNDATION) and g.kind.value == dealt.value)]


def suit_blind(rules: RuleSet) -> bool:
    """Whether no rule of ``rules`` reads a card's suit, so that which card of a rank lies
    where is all one to the game: every pile builds by rank alone (``SuitRule.ANY``), no
    group collects runs (a run collected is one suit), the game is played to a win (a score
    may count suits), and no move hook is the rule set's own. Its own end-of-game rule
    (``useful``) the searches play without (``state_board.board_for``). Judged from
    declarations only, as ``interchangeable`` is."""
    return (rules.scoring != Scoring.POINTS and rules.collector is None
            and not own_hooks(rules, MOVE_HOOKS)
            and all(g.build is None or g.build.suit == SuitRule.ANY for g in rules.groups))


def card_codes(rules: RuleSet) -> bytes:
    """What a key writes for each card, as a ``bytes.translate`` table: the card itself, or
    where the game is ``suit_blind`` the card of its rank in the first suit."""
    blind = suit_blind(rules)
    return bytes(b % 13 if blind and b < DECK else b for b in range(256))


def dealt_columns(rules: RuleSet) -> tuple[list[int], int]:
    """The columns a stock deals one card each to in turn, leftmost first (``Deals.TABLEAU``),
    where they are one group that only the deals tell apart, and how many of the stock's
    cards it keeps for the piles of its rest (``Stock.rest``); ``([], 0)`` where there are
    none. With ``s`` cards in the stock the columns past the first ``s - keep`` get no card
    from it again (a deal stops when the stock is down to ``keep``): from then on only their
    cards tell them apart, and once the stock is empty none of the columns is told apart
    by place (Scorpion's four columns no stock card reaches, Spiderette's after its last
    deal)."""
    stock = rules.stock
    if stock is None or stock.to != Deals.TABLEAU:
        return [], 0
    columns = rules.by_kind[TABLEAU]
    if not any(piles == columns for _, piles in symmetric(rules)):
        return [], 0
    return columns, len(rules.by_kind[stock.rest]) if stock.rest is not None else 0


def symmetric(rules: RuleSet) -> list[tuple[Group, list[int]]]:
    """The groups of two piles or more of a symmetric kind, drawn in one row, with their
    piles, where the rule set plays by the shared rules alone: piles that only their place,
    and the stock's deals, tell apart."""
    if own_hooks(rules, MOVE_HOOKS) or rules.covered_by():
        return []
    out = []
    start = 0
    for g in rules.groups:
        piles = list(range(start, start + g.count))
        start += g.count
        if g.count >= 2 and g.kind in SYMMETRIC_KINDS and not g.rows:
            out.append((g, piles))
    return out


def sink_piles(rules: RuleSet) -> list[int]:
    """Foundations no card leaves: to the rest of the game only their top card, their size
    and which cards they hold count, and the cards they hold are the ones no other pile
    holds. (The order below the top matters only to a score read from it, as Slide's sets:
    so a scored game keeps whole foundations in its key.)"""
    return [p for p, g in enumerate(rules.pile_group) if g.kind == FOUNDATION and g.unit is None]


#: Between two parts of a key (no card is 255).
SEP = 255
#: Cards in the deck: no key holds more.
DECK = 52


def sink(pile: list[int], down: int) -> int:
    """A foundation no card leaves, as one number: face-down count, size, top card (three
    bytes of the key, which sort as the piles do)."""
    return (down << 16) | (len(pile) << 8) | pile[-1] if pile else down << 16


def discarded(pile: list[int], down: int) -> int:
    """A discard pile (``RuleSet.discard``) as ``sink`` writes a foundation, without the top
    card: its cards are the ones no other pile holds, and their order counts for nothing."""
    return (down << 16) | (len(pile) << 8)


def endless(rules: RuleSet) -> bool:
    """Whether the rule set's stock is gone through without limit: its pass count only
    counts, so no rule reads it."""
    stock = rules.stock
    return stock is not None and stock.to == Deals.WASTE and stock.passes == 0


def key_maker(rules: RuleSet, sinks: bool = True) -> Callable[[State], Key]:
    """The key function for positions of ``rules``, built once per search; ``sinks``: keep
    only the top and size of foundations no card leaves (``sink_piles``)."""
    uncounted = endless(rules)
    groups = interchangeable(rules)
    dealt, keep = dealt_columns(rules)
    stock = rules.stock_pile
    sunk = set(sink_piles(rules)) if sinks else set()
    grouped = {p for g in groups for p in g}
    alone = [p for p in range(len(rules.pile_names))
             if p not in grouped and p not in sunk and p not in dealt]
    alone_sunk = [p for p in sorted(sunk) if p not in grouped]
    plain_groups = [g for g in groups if not sunk & set(g)]
    sunk_groups = [g for g in groups if sunk & set(g)]
    code = discarded if rules.discard else sink  # a discard pile is a group of one, alone
    written = card_codes(rules)
    blind = suit_blind(rules)
    assert all(set(g) <= sunk for g in sunk_groups)  # a group is of one kind and unit

    def norm_vars(vars: dict[str, int]) -> tuple[tuple[str, int], ...]:
        # In insertion order: two orders of the same vars are two keys, a missed transposition
        # at worst (rare: only undoing a var's first setting reorders them), never a wrong one.
        if uncounted:
            vars = dict(vars)
            vars.pop("pass", None)
            vars["progress"] = min(vars.get("progress", 0), 1)
        return tuple(vars.items())

    if not groups and not sunk and not dealt and not blind:
        def plain(st: State) -> Key:
            return (bytes(st.down) + b"\xff".join(map(bytes, st.piles)), norm_vars(st.vars))
        return plain

    # Room for every pile's face-down count and separator, every card, and three bytes for
    # each foundation: more than any key of this rule set needs.
    buf = bytearray(5 * len(rules.pile_names) + DECK + 1)

    def sorted_key(st: State) -> Key:
        # The face-down counts, a separator, each pile's cards ended by a separator, then
        # the foundations no card leaves, three bytes each (``sink``), every card as
        # ``card_codes`` writes it. A group's piles in the order of their cards.
        # Written into one buffer, typed so that the compiled build loops over cards in C.
        piles: list[list[int]] = st.piles
        if blind:
            piles = [list(bytes(pile).translate(written)) for pile in piles]
        down: list[int] = st.down
        out: cython.p_uchar = buf
        n: cython.Py_ssize_t = 0
        c: cython.Py_ssize_t
        p: cython.Py_ssize_t
        pile: list[int]
        order = alone
        if dealt:  # the columns the stock deals to next by place, then the rest sorted
            r = max(len(piles[stock]) - keep, 0)
            order = order + dealt[:r] + sorted(dealt[r:], key=piles.__getitem__)
        for g in plain_groups:
            order = order + sorted(g, key=piles.__getitem__)
        for p in order:
            out[n] = down[p]
            n += 1
        out[n] = SEP
        n += 1
        for p in order:
            pile = piles[p]
            for c in pile:
                out[n] = c
                n += 1
            out[n] = SEP
            n += 1
        codes = [code(piles[p], down[p]) for p in alone_sunk]
        for g in sunk_groups:
            codes += sorted([sink(piles[p], down[p]) for p in g])
        for c in codes:
            out[n] = c >> 16
            out[n + 1] = (c >> 8) & 255
            out[n + 2] = c & 255
            n += 3
        return (bytes(out[:n]), norm_vars(st.vars))

    return sorted_key
